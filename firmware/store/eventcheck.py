"""Event log v1's input events (docs/formats/event-log-v1.md): their fields
and the check of one event against a game's ids. What the board needs to
check every input it stores (app.py, link/webapp.py), apart from the log
reader (store/eventlog.py, which re-exports these names), so the board
does not load the reader's code.
"""
import json

from referee import header as game_header

# ev -> ((field, type, required), ...). Types: "int", "str", "player",
# "bakugan", "gate", "card", "action", "item" (trap or gear id), "attr",
# "bool". ids are checked against the header.
FIELDS = {
    "gate": (("player", "player", 1), ("gate", "gate", 1), ("zone", "int", 1)),
    "land": (("zone", "int", 1), ("bakugan", "bakugan", 1)),
    "miss": (("bakugan", "bakugan", 1),),
    "ability": (("player", "player", 1), ("card", "card", 1)),
    "resolve": (),
    "choose": (("player", "player", 1), ("action", "action", 1), ("zone", "int", 0)),
    "reveal": (("player", "player", 1), ("gate", "gate", 1), ("bonus", "bonus", 1)),
    "undo": (),  # take back the last accepted event (referee/journal.py)
    "end": (),   # the game ended by hand (referee/journal.py): nothing after it
    # Extra rules of the official modes (docs/modes/official-extras.md).
    "trap": (("player", "player", 1), ("trap", "item", 1)),
    "gear": (("player", "player", 1), ("gear", "item", 1), ("extra", "bool", 0)),
    "evolve": (("player", "player", 1), ("bakugan", "bakugan", 1)),
    "pure": (("player", "player", 1), ("attr", "attr", 1)),
    # Chinese variant modes (docs/modes/README.md).
    "pick": (("player", "player", 1), ("bakugan", "bakugan", 1)),
    "pass": (("player", "player", 1),),
    "item": (("player", "player", 1), ("card", "card", 1)),
}
# Raw logs carry the same control events (no `land`) plus `register` and
# `which`.
RAW_FIELDS = {
    "gate": FIELDS["gate"],
    "miss": FIELDS["miss"],
    "ability": FIELDS["ability"],
    "resolve": (),
    "choose": FIELDS["choose"],
    "reveal": FIELDS["reveal"],
    "undo": (),
    "register": (("bakugan", "bakugan", 1), ("zone", "int", 1)),
    # a player's answer to the mat's question about an unsure landing
    "which": (("zone", "int", 1), ("bakugan", "bakugan", 1)),
    "trap": FIELDS["trap"],
    "gear": FIELDS["gear"],
    "evolve": FIELDS["evolve"],
    "pure": FIELDS["pure"],
    "pick": FIELDS["pick"],
    "pass": FIELDS["pass"],
    "item": FIELDS["item"],
}


class LogError(Exception):
    def __init__(self, line, msg):
        super().__init__("line %d: %s" % (line, msg))
        self.line = line
        self.msg = msg


def _list(p, key):
    v = p.get(key, ())
    return v if type(v) is list else ()


class Ids:
    def __init__(self, header):
        self.bakugan = {}
        self.gates = {}
        self.cards = []
        self.items = []  # per player: {trap or gear id: 1}
        players = header["players"]
        self.n = len(players)
        for i in range(self.n):
            p = players[i]
            for b in p["bakugan"]:
                self.bakugan[b["id"]] = i
            for e in _list(p, "evolutions"):  # evolved Bakugan (extras)
                if type(e) is dict and type(e.get("to")) is dict and type(e["to"].get("id")) is str:
                    self.bakugan[e["to"]["id"]] = i
            items = {}
            for key in ("traps", "gear"):  # extras
                for x in _list(p, key):
                    if type(x) is dict and type(x.get("id")) is str:
                        items[x["id"]] = 1
            self.items.append(items)
            for g in p["gates"]:
                self.gates[g["id"]] = i
            cards = {}
            for a in p.get("abilities", []):
                cards[a["id"]] = 1
            self.cards.append(cards)


def check_event(obj, line, ids, fields=FIELDS):
    ev = obj.get("ev")
    if ev is None:
        raise LogError(line, "missing field 'ev'")
    spec = fields.get(ev) if type(ev) is str else None
    if spec is None:
        raise LogError(line, "unknown event %s (expected one of: %s)" % (json.dumps(ev), ", ".join(sorted(fields))))
    for name, typ, required in spec:
        if name not in obj:
            if required:
                raise LogError(line, "%s event: missing field '%s'" % (ev, name))
            continue
        v = obj[name]
        if typ == "bonus":
            if type(v) is not dict:
                raise LogError(line, "%s event: '%s' must be an object {attribute: value}" % (ev, name))
            for a in v:
                if a not in game_header.ATTRIBUTES or type(v[a]) is not int:
                    raise LogError(line, "%s event: '%s': %s is not an attribute with an integer value"
                                   % (ev, name, json.dumps(a)))
        elif typ == "bool":
            if v is not True and v is not False:
                raise LogError(line, "%s event: '%s' must be true or false, got %s" % (ev, name, json.dumps(v)))
        elif typ == "int" or typ == "player":
            if type(v) is not int or v < 0:
                raise LogError(line, "%s event: '%s' must be a non-negative integer, got %s" % (ev, name, json.dumps(v)))
            if typ == "player" and v >= ids.n:
                raise LogError(line, "%s event: unknown player %d (the header has %d)" % (ev, v, ids.n))
        else:
            if type(v) is not str:
                raise LogError(line, "%s event: '%s' must be a string, got %s" % (ev, name, json.dumps(v)))
            if typ == "bakugan" and v not in ids.bakugan:
                raise LogError(line, "%s event: unknown Bakugan '%s'" % (ev, v))
            if typ == "gate" and v not in ids.gates:
                raise LogError(line, "%s event: unknown gate card '%s'" % (ev, v))
            if typ == "attr" and v not in game_header.ATTRIBUTES:
                raise LogError(line, "%s event: unknown attribute %s" % (ev, json.dumps(v)))
            if typ == "action" and v != "take" and v != "move":
                raise LogError(line, "%s event: action must be \"take\" or \"move\", got %s" % (ev, json.dumps(v)))
    if ev == "ability" and obj["card"] not in ids.cards[obj["player"]]:
        raise LogError(line, "ability event: player %d has no ability card '%s'" % (obj["player"], obj["card"]))
    if ev == "item" and obj["card"] not in ids.cards[obj["player"]]:
        raise LogError(line, "item event: player %d has no item card '%s'" % (obj["player"], obj["card"]))
    if (ev == "trap" or ev == "gear") and obj[ev] not in ids.items[obj["player"]]:
        raise LogError(line, "%s event: player %d has no %s '%s'" % (
            ev, obj["player"], "trap" if ev == "trap" else "battle gear", obj[ev]))
    if ev == "choose" and obj["action"] == "move" and "zone" not in obj:
        raise LogError(line, "choose event: a move needs a 'zone'")
