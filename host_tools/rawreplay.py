"""Replay a raw sensor log (docs/formats/raw-log-v1.md) through the sensing
pipeline and the referee: the very firmware code (firmware/match.py) the
board runs.

    replay_raw(path, mode)   # mode: "transcript" | "json" | "sensed"

- "sensed": the pipeline's events as NDJSON (docs/formats/sensed-events-v1.md):
  land {t, zone, bakugan}, leave {t, zone, bakugan}, fault {t, ch, kind};
- "json": the referee's output events, one NDJSON line each, exactly like an
  event-log replay (referee.events.encode_json);
- "transcript": the readable transcript (referee.events.encode_text).

Bad input raises UserError naming the file and the line.
"""
import json
import sys

from host_tools import fwpath
from host_tools.errors import UserError

MODES = ("transcript", "json", "sensed")


class _LogError(Exception):
    def __init__(self, line, msg):
        super().__init__("line %d: %s" % (line, msg))
        self.line = line


def _read(lines, load_board):
    """(header, board, items) from the lines of a raw log, items being
    (lineno, "frame", t, values) or (lineno, "control", t, event dict)."""
    header = None
    board = None
    items = []
    n = 0
    maxc = 0
    last_t = None
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as e:
            raise _LogError(lineno, "not valid JSON (%s)" % getattr(e, "msg", e))
        if type(obj) is not dict:
            raise _LogError(lineno, "expected a JSON object")
        if header is None:
            if obj.get("bakumat") != "raw":
                raise _LogError(lineno, 'not a raw sensor log (the header needs "bakumat": "raw")')
            v = obj.get("version")
            if v != 1:
                raise _LogError(lineno, "unsupported raw log version %r (this tool reads version 1)" % (v,))
            name = obj.get("board")
            if type(name) is not str or not name:
                raise _LogError(lineno, "header: missing field 'board'")
            rate = obj.get("rate_hz")
            if type(rate) not in (int, float) or rate <= 0:
                raise _LogError(lineno, "header: rate_hz: expected a positive number, got %r" % (rate,))
            try:
                board = load_board(name)
            except UserError as e:
                raise _LogError(lineno, "header: board: %s" % e)
            board = dict(board)
            board["rate_hz"] = rate
            n = len(board["sensors"])
            maxc = board["sensor"]["max_counts"]
            header = obj
            continue
        t = obj.get("t")
        if type(t) is not int or t < 0:
            raise _LogError(lineno, "field 't': expected a non-negative integer (ms), got %r" % (t,))
        if last_t is not None and t < last_t:
            raise _LogError(lineno, "time goes backwards (%d after %d)" % (t, last_t))
        last_t = t
        if "v" in obj:
            vals = obj["v"]
            if type(vals) is not list:
                raise _LogError(lineno, "field 'v': expected a list of ADC counts")
            if len(vals) != n:
                raise _LogError(lineno, "frame has %d channels, board %s has %d" % (len(vals), header["board"], n))
            for i, x in enumerate(vals):
                if type(x) is not int or not 0 <= x <= maxc:
                    raise _LogError(lineno, "channel %d: value %r out of range 0..%d" % (i, x, maxc))
            items.append((lineno, "frame", t, vals))
            continue
        kind = obj.get("ev")
        if kind is None:
            raise _LogError(lineno, "neither a frame (\"v\") nor an event (\"ev\")")
        if kind == "land":
            raise _LogError(lineno, "'land' events never appear in a raw log: the pipeline finds them")
        if kind == "register":
            b = obj.get("bakugan")
            z = obj.get("zone")
            if type(b) is not str or not b:
                raise _LogError(lineno, "register: field 'bakugan': expected a Bakugan id")
            if type(z) is not int or not 0 <= z < len(board["zones"]):
                raise _LogError(lineno, "register: field 'zone': no zone %r on board %s" % (z, header["board"]))
        elif kind not in ("gate", "miss", "ability", "resolve", "choose"):
            raise _LogError(lineno, "unknown event %r" % (kind,))
        items.append((lineno, "control", t, obj))
    if header is None:
        raise _LogError(1, "empty log: no header")
    return header, board, items


def _load_board(name):
    from host_tools import boards
    return boards.load(name)


def replay_raw(path, mode, out=None, use_context=True):
    """Replay the raw log at `path`, printing per `mode`. Returns 0."""
    if mode not in MODES:
        raise UserError("unknown replay mode %r (known: %s)" % (mode, ", ".join(MODES)))
    from host_tools.logfile import read_lines
    out = out or sys.stdout
    lines = read_lines(path)
    try:
        header, board, items = _read(lines, _load_board)
    except _LogError as e:
        raise UserError("%s: %s" % (path, e))
    fwpath.ensure()
    import referee
    from referee import events
    from referee.errors import SetupError
    from referee.jsonw import Pairs, dumps
    from match import Match

    write = out.write
    box = []
    if mode == "json":
        def ref_sink(o):
            write(events.encode_json(o) + "\n")
        sensed = None
    elif mode == "transcript":
        def ref_sink(o):
            write(events.encode_text(o, box[0]) + "\n")
        sensed = None
    else:
        ref_sink = None

        def sensed(ev):
            write(dumps(Pairs(tuple((k, ev[k]) for k in _order(ev)))) + "\n")
    try:
        game = referee.new_game(header, ref_sink)
    except SetupError as e:
        raise UserError("%s: line 1: %s" % (path, e))
    box.append(game)
    m = Match(board, game, sensed, use_context=use_context)
    t = 0
    for lineno, kind, t, obj in items:
        try:
            if kind == "frame":
                m.frame(obj, t)
            else:
                m.control(obj)
        except (KeyError, TypeError, ValueError) as e:
            raise UserError("%s: line %d: %s: %s" % (path, lineno, type(e).__name__, e))
    if mode != "sensed":
        game.finish(t)
    return 0


_KEYS = ("ev", "t", "zone", "bakugan", "ch", "kind", "learned")


def _order(ev):
    keys = [k for k in _KEYS if k in ev]
    keys += sorted(k for k in ev if k not in _KEYS)
    return keys
