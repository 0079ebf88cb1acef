"""The mat drawn in a terminal, and game/mat events as readable lines.

    termmat.draw(board, view, zone_marks=None) -> str   (box per zone, to scale)
    termmat.describe(kind, body, words) -> str          (one event, in host_tools/words.py's words)

`board` is a board definition (host_tools/boards/__init__.py); `view` the referee's
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


def zone_lines(zone, view, lit=None, width=CELL_W - 2, names=None):
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
        # the gate card and its owner by the names the transcript uses
        # (host_tools/words.py): "Dan's gate 3", never its id p0-gate2
        from host_tools.words import Words
        w = Words(names=names or [])
        if z.get("gate") is not None:
            out.append(w.gate(z.get("gate")))
        if z.get("owner") is not None:
            out.append("owner %s" % w.who(z.get("owner")))
        for b in z.get("bakugan") or []:
            out.append("* " + str(b))
    return [_fit(line, width) for line in out]


def draw(board, view=None, lit=None, names=None):
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
            cells[xs.index(z["x"])] = zone_lines(z, view, (lit or {}).get(z["id"]), CELL_W - 2, names)
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


def status_line(view, names=None):
    """The game in one line, players by name; says when the game is over."""
    if not view:
        return "no game on the board (start one with `bakumat game new`)"
    from host_tools.words import Words
    w = Words(names=names or [])
    cap = view.get("captured") or []
    over = view.get("phase") == "over"
    parts = ["mode %s" % view.get("mode"), "game over" if over else "phase %s" % view.get("phase")]
    if view.get("turn") is not None and not over:
        parts.append("%s's turn" % w.who(view.get("turn")))
    parts.append("captured " + ", ".join("%s %d" % (w.who(i), len(c)) for i, c in enumerate(cap)))
    if over:
        parts.append(w.end_line({"winner": view.get("winner"), "captured": cap}))
    elif view.get("winner") is not None:
        parts.append("%s has won" % w.who(view.get("winner")))
    ch = view.get("choice")
    if ch:
        parts.append("%s chooses on zone %s" % (w.who(ch.get("player")), ch.get("zone")))
    return " | ".join(parts)


def describe(kind, body, words=None):
    """One frame from the board as a readable line (host_tools/words.py:
    the same words as the transcripts)."""
    from host_tools.words import Words
    b = body if type(body) is dict else {}
    w = words or Words()
    if kind == "game":
        return w.game(b)
    if kind == "mat":
        return "mat: " + w.mat(b)
    if kind == "fault":
        return "FAULT: channel %s (zone %s) %s" % (b.get("ch"), b.get("zone"), b.get("kind"))
    if kind == "hello":
        return "board started: firmware %s, board %s, reset cause %s" % (b.get("fw"), b.get("board"), b.get("cause"))
    if kind == "log":
        return "board: %s" % b.get("msg")
    return "%s %s" % (kind, body)
