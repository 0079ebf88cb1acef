"""The `board` object of the web API (docs/formats/web-api-v1.md and
web-view-v1.md): what the page needs to draw a mat, built from the board
definition. One function for the board's phone page and the laptop's view,
so both draw the same mat, LEDs and buttons."""
from show import palette
from show.feedback import led_layout


def board_json(board):
    zl, status = led_layout(board)
    wiring = board.get("wiring") or {}
    led = wiring.get("led") or {}
    out = {
        "name": board["name"],
        "title": board.get("title", board["name"]),
        "zones": [{"id": z["id"], "x": z["x"], "y": z["y"], "w": z["w"], "h": z["h"]} for z in board["zones"]],
        "leds": {"count": int(led.get("count", 0)), "zones": [list(x) for x in zl], "status": list(status),
                 "cap": int(led.get("max_brightness", 255)) or 255,
                 "edge": [{"led": e["led"], "x": e["x"], "y": e["y"], "player": e.get("player")}
                          for e in led.get("edge", ()) if "x" in e and "y" in e]},
        "buttons": [{"player": b.get("player"), "role": b.get("role", b.get("name", "")), "x": b["x"], "y": b["y"]}
                    for b in wiring.get("buttons", ()) if "x" in b and "y" in b],
        "colors": {"player": list(palette.PLAYER), "reject": palette.REJECT, "fault": palette.FAULT},
    }
    if "outline" in board:
        out["outline"] = board["outline"]
    return out
