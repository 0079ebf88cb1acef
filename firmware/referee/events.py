"""Encoding of the referee's output events (kind, t, pairs).

encode_json: one NDJSON line, byte-identical on CPython and MicroPython.
encode_text: one readable transcript line. Both are documented in
docs/formats/event-log-v1.md ("Output events").
"""
from referee.jsonw import Pairs, dumps


def encode_json(out):
    kind, t, pairs = out
    return dumps(Pairs((("ev", kind), ("t", t)) + tuple(pairs)))


def _stamp(t):
    return "%4d.%03ds" % (t // 1000, t % 1000)


def _who(game, b):
    return "%s (%s)" % (b, game.names[game.bak_owner[b]])


def encode_text(out, game):
    kind, t, pairs = out
    f = {}
    for k, v in pairs:
        f[k] = v
    names = game.names
    if kind == "placed":
        s = "%s places gate %s on zone %d" % (names[f["player"]], f["gate"], f["zone"])
    elif kind == "turn":
        s = "-- %s's turn" % names[f["player"]]
    elif kind == "stand":
        s = "%s opens %s on zone %d" % (names[f["player"]], f["bakugan"], f["zone"])
    elif kind == "miss":
        s = "%s misses with %s (%s)" % (names[f["player"]], f["bakugan"], f["reason"])
    elif kind == "move":
        s = "%s moves from zone %d to zone %d" % (f["bakugan"], f["from"], f["to"])
    elif kind == "clash":
        s = "BATTLE on zone %d: %s attacks %s" % (f["zone"], _who(game, f["attacker"]), _who(game, f["defender"]))
    elif kind == "ability":
        s = "%s plays ability %s" % (names[f["player"]], f["card"])
    elif kind == "battle":
        parts = f["parts"]
        side = []
        for b in (f["attacker"], f["defender"]):
            g, gate, ab = parts[b]
            side.append("%s %d = G %d %+d gate %+d abilities" % (b, f["power"][b], g, gate, ab))
        s = "battle on zone %d: %s vs %s -> %s wins" % (f["zone"], side[0], side[1], f["winner"])
    elif kind == "choice":
        s = "%s stands twice on zone %d: take the gate or move %s" % (names[f["player"]], f["zone"], f["bakugan"])
    elif kind == "capture":
        s = "%s captures gate %s from zone %d (%s)" % (names[f["player"]], f["gate"], f["zone"], f["reason"])
    elif kind == "reuse":
        s = "%s takes back %s from the used pile" % (names[f["player"]], ", ".join(f["bakugan"]))
    elif kind == "gates_needed":
        s = "field is empty: %s must place a gate" % ", ".join([names[i] for i in f["players"]])
    elif kind == "reject":
        s = "REJECTED %s: %s" % (f["input"], f["reason"])
    elif kind == "win":
        s = "*** %s WINS ***" % names[f["player"]]
    elif kind == "stalemate":
        s = "game over without a winner: %s" % f["reason"]
    elif kind == "end":
        caps = f["captured"]
        s = "end: " + "; ".join(["%s captured %d (%s)" % (names[i], len(caps[i]), ", ".join(caps[i]) or "-")
                                 for i in range(len(caps))])
        s += "; winner: %s" % ("none" if f["winner"] is None else names[f["winner"]])
    else:
        s = kind + " " + dumps(Pairs(tuple(pairs)))
    return _stamp(t) + "  " + s
