"""The mat drawn in a terminal, and game/mat events as readable lines.

    termmat.draw(board, view, zone_marks=None) -> str   (box per zone, to scale)
    termmat.describe(kind, body) -> str                 (one event, readable)

`board` is a board definition (host_tools/boards.py); `view` the referee's
view() as the board sends it in a `state` reply (zones keyed by zone id as
strings in JSON, or ints). Plain ASCII so any terminal and log shows it.
"""

CELL_W = 16     # characters across the narrowest zone
CELL_H = 5      # lines down the shortest zone


def _zone_of(view, zid):
    zones = (view or {}).get("zones") or {}
    return zones.get(str(zid)) or zones.get(zid)


def _fit(text, n):
    return text[:n] + " " * (n - len(text[:n]))


def zone_lines(zone, view, lit=None, width=CELL_W - 2):
    """Text lines inside one zone's box."""
    zid = zone["id"]
    z = _zone_of(view, zid)
    battle = (view or {}).get("battle") or {}
    head = "%d" % zid
    if lit:
        head += " " + lit
    if battle and battle.get("zone") == zid:
        head += " BATTLE"
    out = [head]
    if z:
        out.append("gate %s" % z.get("gate"))
        if z.get("owner") is not None:
            out.append("owner P%s" % z.get("owner"))
        for b in z.get("bakugan") or []:
            out.append("* " + str(b))
    return [_fit(line, width) for line in out]


def draw(board, view=None, lit=None):
    """The mat as text: zones in their rows and columns (ranked by position,
    so any grid-like layout reads well). lit: {zone id: short mark}."""
    zones = board["zones"]
    xs = sorted(set(z["x"] for z in zones))
    ys = sorted(set(z["y"] for z in zones))
    rows = []
    for ry in ys:
        row = sorted([z for z in zones if z["y"] == ry], key=lambda z: z["x"])
        cells = {}
        for z in row:
            cells[xs.index(z["x"])] = zone_lines(z, view, (lit or {}).get(z["id"]), CELL_W - 2)
        height = max(CELL_H - 2, max(len(c) for c in cells.values()))
        edge = []
        body = [[] for _ in range(height)]
        for ci in range(len(xs)):
            c = cells.get(ci)
            if c is None:
                edge.append(" " * CELL_W)
                for line in body:
                    line.append(" " * CELL_W)
                continue
            edge.append("+" + "-" * (CELL_W - 2) + "+")
            for i in range(height):
                body[i].append("|" + (c[i] if i < len(c) else " " * (CELL_W - 2)) + "|")
        rows.append(" ".join(edge).rstrip())
        for line in body:
            rows.append(" ".join(line).rstrip())
        rows.append(" ".join(edge).rstrip())
    return "\n".join(rows)


def status_line(view):
    if not view:
        return "no game on the board (start one with `bakumat game new`)"
    parts = ["mode %s" % view.get("mode"), "phase %s" % view.get("phase")]
    if view.get("turn") is not None and view.get("phase") != "over":
        parts.append("turn: player %s" % view.get("turn"))
    cap = view.get("captured") or []
    parts.append("captured " + " / ".join("P%d %d" % (i, len(c)) for i, c in enumerate(cap)))
    if view.get("winner") is not None:
        parts.append("WINNER: player %s" % view.get("winner"))
    ch = view.get("choice")
    if ch:
        parts.append("player %s chooses on zone %s" % (ch.get("player"), ch.get("zone")))
    return " | ".join(parts)


def describe(kind, body):
    """One frame from the board as a readable line."""
    b = body if type(body) is dict else {}
    if kind == "game":
        ev = b.get("ev")
        if ev == "placed":
            return "P%s places gate %s on zone %s" % (b.get("player"), b.get("gate"), b.get("zone"))
        if ev == "turn":
            return "-- player %s's turn" % b.get("player")
        if ev == "stand":
            return "P%s: %s stands on zone %s" % (b.get("player"), b.get("bakugan"), b.get("zone"))
        if ev == "miss":
            return "P%s: %s missed (%s)" % (b.get("player"), b.get("bakugan"), b.get("reason"))
        if ev == "move":
            return "%s moves from zone %s to %s" % (b.get("bakugan"), b.get("from"), b.get("to"))
        if ev == "clash":
            return "BATTLE on zone %s: %s vs %s" % (b.get("zone"), b.get("attacker"), b.get("defender"))
        if ev == "ability":
            return "P%s plays %s" % (b.get("player"), b.get("card"))
        if ev == "battle":
            power = b.get("power") or {}
            return "battle on zone %s: %s wins (%s)" % (
                b.get("zone"), b.get("winner"), ", ".join("%s %sG" % (k, power[k]) for k in sorted(power)))
        if ev == "choice":
            return "P%s must choose on zone %s (take or move)" % (b.get("player"), b.get("zone"))
        if ev == "capture":
            return "P%s CAPTURES gate %s (zone %s, %s)" % (b.get("player"), b.get("gate"), b.get("zone"), b.get("reason"))
        if ev == "reuse":
            return "P%s gets back %s" % (b.get("player"), ", ".join(b.get("bakugan") or []))
        if ev == "gates_needed":
            return "players %s must place a gate" % ", ".join(str(p) for p in b.get("players") or [])
        if ev == "reject":
            inp = b.get("input")
            return "rejected %s: %s" % (inp.get("ev") if type(inp) is dict else inp, b.get("reason"))
        if ev == "win":
            return "*** player %s WINS ***" % b.get("player")
        if ev == "stalemate":
            return "stalemate (%s)" % b.get("reason")
        if ev == "end":
            return "game over: winner %s" % b.get("winner")
        if ev == "undo":
            return "undo: the last %s taken back" % b.get("undone")
        return "game %s" % ev
    if kind == "mat":
        ev = b.get("ev")
        who = b.get("bakugan") or "Bakugan"
        if ev == "land":
            return "mat: %s lands on zone %s" % (who, b.get("zone"))
        if ev == "leave":
            return "mat: %s leaves zone %s" % (who, b.get("zone"))
        if ev == "ident":
            return "mat: the Bakugan on zone %s is %s after all" % (b.get("zone"), who)
        if ev == "unland":
            return "mat: no landing on zone %s after all (a ball that paused there)" % b.get("zone")
        if ev == "unsure":
            return "mat: not sure it is %s on zone %s (or %s): the thrower is asked" % (who, b.get("zone"), b.get("alt"))
        if ev == "roll":
            return "mat: a ball rolls across zone %s" % b.get("zone")
        if ev == "button":
            return "mat: button %s, %s press" % (b.get("name"), b.get("press"))
        return "mat: %s" % (ev,)
    if kind == "fault":
        return "FAULT: channel %s (zone %s) %s" % (b.get("ch"), b.get("zone"), b.get("kind"))
    if kind == "hello":
        return "board started: firmware %s, board %s, reset cause %s" % (b.get("fw"), b.get("board"), b.get("cause"))
    if kind == "log":
        return "board: %s" % b.get("msg")
    return "%s %s" % (kind, body)
