"""`bakumat board show NAME [--json]` and `bakumat board list`: the board
definitions under boards/ (docs/formats/board-definition-v1.md)."""
import json
import math
import sys

from host_tools import boards
from host_tools.errors import UserError

MM_PER_COL = 4.0
MM_PER_ROW = 8.0


def add_arguments(parser):
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    show = sub.add_parser("show", help="print a board definition (a drawing and tables, or --json)")
    show.add_argument("name", metavar="NAME", help="board name (see `bakumat board list`)")
    show.add_argument("--json", action="store_true", help="print the definition as one JSON object")
    sub.add_parser("list", help="list the known boards")


def run(args):
    action = getattr(args, "action", None)
    if action == "list":
        rows = []
        for n in boards.names():
            b = boards.load(n)
            kind = "board (mat %s)" % b["mat"] if "wiring" in b else "bare mat"
            rows.append(("wiring" not in b, n, kind, "%d zones" % len(b["zones"]),
                         "%d sensors" % len(b["sensors"]), "%s Hz" % _num(b["rate_hz"])))
        rows.sort()     # boards first, then the bare mats (the simulator's)
        widths = [max(len(r[i]) for r in rows) for i in range(1, 6)]
        for r in rows:
            print("  ".join(c.ljust(w) for c, w in zip(r[1:], widths)).rstrip())
        return 0
    if action != "show":
        raise UserError("expected an action: `bakumat board show NAME [--json]` or `bakumat board list`")
    b = boards.offered(args.name)
    if args.json:
        sys.stdout.write(json.dumps(boards.public(b)) + "\n")
        return 0
    sys.stdout.write(render(b))
    return 0


def _num(v):
    return ("%g" % v) if isinstance(v, float) else str(v)


def draw(b):
    """ASCII drawing of the zones and sensors as every view shows the mat:
    zone 0 top left, player 0 at the top (y grows down the page)."""
    zones = b["zones"]
    outline = b.get("outline") or {}
    w = outline.get("w", max(z["x"] + z["w"] for z in zones) + min(z["x"] for z in zones))
    h = outline.get("h", max(z["y"] + z["h"] for z in zones) + min(z["y"] for z in zones))
    cols = int(w / MM_PER_COL) + 1
    rows = int(h / MM_PER_ROW) + 1
    grid = [[" "] * cols for _ in range(rows)]

    def cell(x, y):
        return int(x / MM_PER_COL), int(y / MM_PER_ROW)

    def start(x, y):
        # a zone's first column/row rounds up and its last down: two zones
        # a few mm apart never touch (no `++`)
        return int(math.ceil(x / MM_PER_COL)), int(math.ceil(y / MM_PER_ROW))

    def put(c, r, ch):
        if 0 <= r < rows and 0 <= c < cols:
            grid[r][c] = ch

    for z in zones:
        c0, r0 = start(z["x"], z["y"])
        c1, r1 = cell(z["x"] + z["w"], z["y"] + z["h"])
        for c in range(c0, c1 + 1):
            put(c, r0, "-")
            put(c, r1, "-")
        for r in range(r0, r1 + 1):
            put(c0, r, "|")
            put(c1, r, "|")
        for c, r in ((c0, r0), (c1, r0), (c0, r1), (c1, r1)):
            put(c, r, "+")
    for s in b["sensors"]:
        c, r = cell(s["x"], s["y"])
        put(c, r, "o")
    for z in zones:
        c, r = cell(z["x"] + z["w"] / 2.0, z["y"] + z["h"] / 2.0)
        label = "Z%d" % z["id"]
        for i, ch in enumerate(label):
            put(c - len(label) // 2 + i, r, ch)
    lines = ["".join(row).rstrip() for row in grid]
    top = "player 0 side".center(cols).rstrip()
    bottom = "player 1 side".center(cols).rstrip()
    return "\n".join([top] + lines + [bottom]) + "\n"


def render(b):
    out = []
    s = b["sensor"]
    out.append("board %s%s" % (b["name"], "" if b.get("mat", b["name"]) == b["name"] else " (mat %s)" % b["mat"]))
    if b.get("title"):
        out.append(b["title"])
    out.append("%d zones, %d sensors, scanned at %s Hz; sensor plane %s mm below the card top"
               % (len(b["zones"]), len(b["sensors"]), _num(b["rate_hz"]), _num(b["sensor_plane_to_card_top_mm"])))
    out.append("")
    out.append(draw(b).rstrip("\n"))
    out.append("(1 character = %g mm across, %g mm along; o = sensor)" % (MM_PER_COL, MM_PER_ROW))
    out.append("")
    out.append("sensor: %s" % s.get("part", "?"))
    out.append("  zero %s counts, %s counts/mT, 0..%s counts, noise %s counts rms (%.3g mT)"
               % (_num(s["zero_counts"]), _num(s["counts_per_mT"]), _num(s["max_counts"]), _num(s["noise_counts_rms"]),
                  s["noise_counts_rms"] / abs(s["counts_per_mT"])))
    if b.get("plate"):
        p = b["plate"]
        out.append("gate card plate model: " + ", ".join("%s %s" % (k, _num(p[k])) for k in p))
    out.append("")
    out.append("zone  x mm  y mm  w mm  h mm  channels")
    by_zone = {}
    for sn in b["sensors"]:
        by_zone.setdefault(sn["zone"], []).append(sn["ch"])
    for z in b["zones"]:
        out.append("%4d %5s %5s %5s %5s  %s" % (z["id"], _num(z["x"]), _num(z["y"]), _num(z["w"]), _num(z["h"]),
                                               _ranges(by_zone.get(z["id"], []))))
    out.append("")
    axes = any("axis" in sn for sn in b["sensors"])  # board definition v2: what each channel measures
    wch = b["wiring"].get("channels") if "wiring" in b else None      # an ADC board's (input, mux) per channel
    out.append("  ch zone   x mm   y mm" + (" axis" if axes else "") + ("   adc mux" if wch is not None else ""))
    for sn in b["sensors"]:
        extra = ""
        if wch is not None:
            extra = "  %4d %3d" % (wch[sn["ch"]][0], wch[sn["ch"]][1])
        ax = " %4s" % sn.get("axis", "z") if axes else ""
        out.append("%4d %4d %6s %6s%s%s" % (sn["ch"], sn["zone"], _num(sn["x"]), _num(sn["y"]), ax, extra))
    if "wiring" in b:
        w = b["wiring"]
        out.append("")
        if "adc_pins" in w:
            out.append("wiring: mcu %s, ADC pins %s, mux select %s" % (w.get("mcu", "?"), w["adc_pins"], w["mux_select"]))
        for kind in ("i2c", "spi"):
            if w.get(kind):
                bus = dict(w[kind])
                parts = bus.pop("sensors", None)
                out.append("wiring: mcu %s, sensors on %s: %s%s"
                           % (w.get("mcu", "?"), kind.upper(), json.dumps(bus, sort_keys=True),
                              "" if parts is None else ", %d parts" % len(parts)))
        if w.get("led"):
            out.append("  LEDs: %s" % json.dumps(w["led"]))
        if w.get("buzzer"):
            out.append("  buzzer: %s" % json.dumps(w["buzzer"]))
    return "\n".join(out) + "\n"


def _ranges(chs):
    chs = sorted(chs)
    parts = []
    i = 0
    while i < len(chs):
        j = i
        while j + 1 < len(chs) and chs[j + 1] == chs[j] + 1:
            j += 1
        parts.append(str(chs[i]) if i == j else "%d-%d" % (chs[i], chs[j]))
        i = j + 1
    return ",".join(parts)
