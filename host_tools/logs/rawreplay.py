"""Replay a raw sensor log (docs/formats/raw-log-v1.md) through the sensing
pipeline and the referee: the very firmware code (firmware/match.py) the
board runs.

    replay_raw(path, mode)   # mode: "transcript" | "json" | "sensed"

- "sensed": the pipeline's events as NDJSON (docs/formats/sensed-events-v1.md):
  land {t, zone, bakugan}, leave {t, zone, bakugan}, fault {t, ch, kind};
- "json": the referee's output events, one NDJSON line each, exactly like an
  event-log replay (referee.events.encode_json);
- "transcript": the readable transcript (host_tools/words.py);
- "why": each decision with how long the pipeline waited for it and why,
  and the still fields it never decided (host_tools/logs/rawwhy.py).

Bad input raises UserError naming the file and the line.
"""
import sys

from host_tools import fwpath
from host_tools.errors import UserError

MODES = ("transcript", "json", "sensed", "why")


def replay_raw(path, mode, out=None, use_context=True, zone=None):
    """Replay the raw log at `path`, printing per `mode` (for "why", only
    zone `zone` if given). Returns 0."""
    if mode not in MODES:
        raise UserError("unknown replay mode %r (known: %s)" % (mode, ", ".join(MODES)))
    from host_tools.logs import rawlog
    from host_tools.logs.logfile import read_lines
    out = out or sys.stdout
    lines = read_lines(path)
    header = board = None
    items = []
    try:
        for lineno, kind, obj in rawlog.iter_raw(lines):
            if kind == "header":
                header, board = obj
                board = dict(board)
                board["rate_hz"] = header["rate_hz"]
            elif kind == "frame":
                items.append((lineno, kind, obj[0], obj[1]))
            else:
                items.append((lineno, kind, obj["t"], obj))
    except rawlog.RawLogError as e:
        raise UserError("%s: %s" % (path, e))
    if zone is not None and zone not in [z["id"] for z in board["zones"]]:
        raise UserError("--zone %d: board %s has no such zone (zones %s)"
                        % (zone, board.get("name"), ", ".join(str(z["id"]) for z in board["zones"])))
    fwpath.ensure()
    import referee
    from referee.journal import Journal
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
        import json
        from host_tools.words import Words
        words = Words(header)

        def ref_sink(o):
            write(words.line(json.loads(events.encode_json(o))) + "\n")
        sensed = None
    elif mode == "why":
        ref_sink = None
        sensed = None       # (the Explainer below takes the pipeline's events)
    else:
        ref_sink = None

        def sensed(ev):
            write(dumps(Pairs(tuple((k, ev[k]) for k in _order(ev)))) + "\n")
    try:
        # behind a journal, as on the board: an `ident` amends the last
        # landing with `undo`
        game = Journal(header, ref_sink)
    except SetupError as e:
        raise UserError("%s: line 1: %s" % (path, e))
    box.append(game)
    why = None
    if mode == "why":
        from host_tools.logs.rawwhy import Explainer
        m = Match(board, game, lambda ev: why.sensed(ev), use_context=use_context, params=board_params())
        why = Explainer(out, m.pipeline, zone=zone)
        m.pipeline.on_wait = why.wait
    else:
        m = Match(board, game, sensed, use_context=use_context, params=board_params())
    rawlog.resume(m, header)
    t = 0
    for lineno, kind, t, obj in items:
        try:
            if kind == "frame":
                if why is not None:
                    why.tick(t)
                m.frame(obj, t)
                if why is not None:
                    why.after(t)
            else:
                m.control(obj)
        except (KeyError, TypeError, ValueError) as e:
            raise UserError("%s: line %d: %s: %s" % (path, lineno, type(e).__name__, e))
    if why is not None:
        why.finish()
    elif mode != "sensed":
        game.finish(t)
    return 0


def board_params():
    """The sensing parameters the board's game runs with (runtime.session:
    rolls across the mat reported, for the table's miss inference), so a
    replay senses what the board sensed."""
    fwpath.ensure()
    from runtime.session import ROLL_PARAMS
    return ROLL_PARAMS


def event_log(path):
    """The event log (docs/formats/event-log-v1.md) of the raw log at
    `path`: its game header, then every input event the referee accepted in
    the replay (sensed landings, controls, `undo` for what was taken back),
    as the board saves its game. Returns the lines (strings, no newline)."""
    import json
    from host_tools.logs import rawlog
    from host_tools.logs.logfile import read_lines
    header = board = None
    items = []
    try:
        for lineno, kind, obj in rawlog.iter_raw(read_lines(path)):
            if kind == "header":
                header, board = obj
                board = dict(board)
                board["rate_hz"] = header["rate_hz"]
            else:
                items.append((lineno, kind, obj))
    except rawlog.RawLogError as e:
        raise UserError("%s: %s" % (path, e))
    fwpath.ensure()
    from referee.journal import Journal
    from match import Match

    class Logged(Journal):
        def __init__(self, h):
            self.log = []
            Journal.__init__(self, h, None)

        def feed(self, ev):
            if ev.get("ev") == "undo":
                return Journal.feed(self, ev)       # logged by undo()
            ok = Journal.feed(self, ev)
            if ok:
                self.log.append(dict(ev))
            return ok

        def undo(self, t):
            last = Journal.undo(self, t)
            if last is not None:
                self.log.append({"t": self.game.t if t is None else t, "ev": "undo"})
            return last
    game = Logged(header)
    m = Match(board, game, params=board_params())
    rawlog.resume(m, header)
    for lineno, kind, obj in items:
        try:
            if kind == "frame":
                m.frame(obj[1], obj[0])
            else:
                m.control(obj)
        except (KeyError, TypeError, ValueError) as e:
            raise UserError("%s: line %d: %s: %s" % (path, lineno, type(e).__name__, e))
    head = {"bakumat": "events", "version": 1}
    for k in ("mode", "first", "target", "players"):
        if k in header:
            head[k] = header[k]
    return [json.dumps(head, separators=(",", ":"))] + [json.dumps(e, separators=(",", ":")) for e in game.log]


_KEYS = ("ev", "t", "zone", "bakugan", "ch", "kind", "learned")


def _order(ev):
    keys = [k for k in _KEYS if k in ev]
    keys += sorted(k for k in ev if k not in _KEYS)
    return keys
