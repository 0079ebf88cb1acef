"""Event log, format version 1 (docs/formats/event-log-v1.md): reading and
validating, shared by the board, the host's replay and the raw-log reader.

    for lineno, obj in iter_log(lines):   # lines: str lines incl. "\\n"
        ...                               # first the header, then events

Every problem is a LogError whose text names the line: "line 4: land event:
missing field 'zone'". Nothing here depends on CPython.
"""
import json

import referee
from referee import header as game_header
from referee.errors import SetupError

VERSION = 1

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


def check_header(obj, line, kind="events", deep=True):
    """Validate a log header (format, version, game); return the header."""
    if type(obj) is not dict:
        raise LogError(line, "the header must be a JSON object")
    if obj.get("bakumat") != kind:
        if "bakumat" not in obj:
            raise LogError(line, "not a BakuMat %s log: the header has no \"bakumat\" field" % kind)
        raise LogError(line, "not a BakuMat %s log: header says \"bakumat\": %s" % (kind, json.dumps(obj.get("bakumat"))))
    v = obj.get("version")
    if type(v) is not int or v < 1:
        raise LogError(line, "header: missing or bad \"version\" (expected an integer)")
    if v > VERSION:
        raise LogError(line, "log format version %d is newer than this reader (version %d): update bakumat" % (v, VERSION))
    if "mode" not in obj:
        raise LogError(line, "header: missing field 'mode'")
    try:
        cls = referee.load(obj["mode"])
        game_header.check(obj, cls.MIN_PLAYERS, cls.MAX_PLAYERS)
        if deep:  # the mode's own checks (decks, extras fields): build the game once
            referee.new_game(obj)
    except SetupError as e:
        raise LogError(line, str(e))
    return obj


def _list(p, key):
    v = p.get(key, ())
    return v if type(v) is list else ()


class _Ids:
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


def parse_json(text, line, last):
    try:
        obj = json.loads(text)
    except ValueError:
        if last:
            raise LogError(line, "truncated last line: the log ends in the middle of a record")
        raise LogError(line, "not valid JSON")
    if type(obj) is not dict:
        raise LogError(line, "expected a JSON object")
    return obj


def check_time(obj, line, prev):
    t = obj.get("t")
    if t is None:
        raise LogError(line, "missing field 't'")
    if type(t) is not int or t < 0:
        raise LogError(line, "'t' must be a non-negative integer of milliseconds, got %s" % json.dumps(t))
    if t < prev:
        raise LogError(line, "time goes backwards: t=%d after t=%d" % (t, prev))
    return t


def iter_log(lines, kind="events", deep=True):
    """Yield (lineno, obj): the checked header, then each checked event."""
    header = None
    ids = None
    prev = 0
    lineno = 0
    for raw in lines:
        lineno += 1
        text = raw.strip()
        if not text:
            continue
        last = not raw.endswith("\n")
        obj = parse_json(text, lineno, last)
        if header is None:
            header = check_header(obj, lineno, kind, deep)
            ids = _Ids(header)
            yield lineno, header
            continue
        prev = check_time(obj, lineno, prev)
        check_event(obj, lineno, ids)
        yield lineno, obj
    if header is None:
        raise LogError(max(lineno, 1), "empty log: no header line")


def replay(lines, sink):
    """Run a whole event log through the referee (with its journal, so
    `undo` events work); return the journal."""
    from referee.journal import Journal
    game = None
    t = 0
    for lineno, obj in iter_log(lines, deep=False):
        if game is None:
            try:
                game = Journal(obj, sink)  # the mode's own header checks run here
            except SetupError as e:
                raise LogError(lineno, str(e))
        else:
            t = obj["t"]
            game.feed(obj)
    game.finish(t)
    return game
