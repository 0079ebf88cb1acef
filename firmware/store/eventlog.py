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
# the fields of each input event and the check of one event (the board
# loads only that part)
from store.eventcheck import FIELDS, RAW_FIELDS, LogError, Ids, _list, check_event  # noqa: F401

VERSION = 1


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
            ids = Ids(header)
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
