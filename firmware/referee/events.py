"""Encoding of the referee's output events (kind, t, pairs).

encode_json: one NDJSON line, byte-identical on CPython and MicroPython.
encode_text: one readable transcript line. Both are documented in
docs/formats/event-log-v1.md ("Output events").
"""
from referee.jsonw import Pairs, dumps, dumps_event


def encode_json(out):
    kind, t, pairs = out
    return dumps_event(kind, t, pairs)


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
    elif kind == "reveal":
        b = f["bonus"]
        s = "gate %s turned over: %s" % (f["gate"], ", ".join(["%s %+d" % (a, b[a]) for a in sorted(b)]) or "no bonus")
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
    elif kind == "trap":  # extras (docs/modes/official-extras.md)
        s = "%s opens trap %s on %s: %s" % (names[f["player"]], f["trap"], f["bakugan"],
                                            ("attribute becomes " + f["attr"]) if f["attr"] else "%+d G" % f["g"])
    elif kind == "gear":
        s = "%s puts battle gear %s on %s: %+d G%s" % (names[f["player"]], f["gear"], f["bakugan"], f["g"],
                                                       " and its extra ability" if f["extra"] else "")
    elif kind == "pure":
        s = "%s chooses %s for pure %s" % (names[f["player"]], f["attr"], f["bakugan"])
    elif kind == "evolve":
        s = "%s skips the turn: %s evolves into %s (game level %d)" % (names[f["player"]], f["from"], f["to"], f["level"])
    elif kind == "reuse_items":
        s = "%s takes back %s from the used pile" % (names[f["player"]], ", ".join(f["items"]))
    elif kind == "back":  # Chinese variant modes (docs/modes/README.md)
        s = "%s goes back to %s's launch point (%s)" % (f["bakugan"], names[f["player"]], f["reason"])
    elif kind == "seize":
        s = "%s takes %s (G %d)" % (names[f["player"]], f["bakugan"], game.bak_g[f["bakugan"]])
    elif kind == "void":
        s = "%s %s is out of play (%s)" % (f["what"], f["id"], f["reason"])
    elif kind == "refill":
        s = "%s must place a card on zone %d" % (names[f["player"]], f["zone"])
    elif kind == "pick":
        s = "%s may pick which of %s %s on zone %d" % (names[f["player"]], ", ".join(f["options"]),
                                                        "fights" if f["for"] == "fight" else "stays", f["zone"])
    elif kind == "picked":
        s = "%s picks %s to %s" % (names[f["player"]], f["bakugan"], "fight" if f["for"] == "fight" else "stay")
    elif kind == "leave":
        s = "%s leaves the game (%s)" % (names[f["player"]], f["reason"])
    elif kind == "rotate":
        s = "the base cards turn clockwise: " + ", ".join(["%d->%d" % (m[0], m[1]) for m in f["moves"]])
    elif kind == "score":
        s = "scores: " + ", ".join(["%s %d (%d left)" % (names[i], f["scores"][i], f["left"][i])
                                    for i in range(len(f["scores"]))]) + " -- " + f["reason"]
    elif kind == "shot":
        s = "%s scores %d with %s (total %d, %d shots left)" % (names[f["player"]], f["points"], f["bakugan"],
                                                              f["total"], f["left"])
    elif kind == "item":
        s = "%s sets item card %s" % (names[f["player"]], f["card"])
    elif kind == "pass":
        s = "%s plays no item in this battle" % names[f["player"]]
    elif kind == "prize":
        s = "%s takes item card %s" % (names[f["player"]], f["card"])
    elif kind == "reject":
        s = "REJECTED %s: %s" % (f["input"], f["reason"])
    elif kind == "win":
        s = "*** %s WINS ***" % names[f["player"]]
        if "reason" in f:
            s += " (%s)" % f["reason"]
    elif kind == "stalemate":
        s = "game over without a winner: %s" % f["reason"]
    elif kind == "end":
        caps = f["captured"]
        s = "end: " + "; ".join(["%s captured %d (%s)" % (names[i], len(caps[i]), ", ".join(caps[i]) or "-")
                                 for i in range(len(caps))])
        s += "; winner: %s" % ("none" if f["winner"] is None else names[f["winner"]])
        if "note" in f:
            s += " (%s)" % f["note"]
    else:
        s = kind + " " + dumps(Pairs(tuple(pairs)))
    return _stamp(t) + "  " + s
