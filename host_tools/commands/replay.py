"""bakumat replay LOG: run a recorded game through the referee.

An event log (format docs/formats/event-log-v1.md) is replayed directly; a
raw sensor log (docs/formats/raw-log-v1.md) goes through the sensing
pipeline first. Output: a readable transcript, or NDJSON with --json, or the
sensed landings with --sensed, or with --why how long the sensing waited
for each decision and why, and the still fields it never decided (raw logs
only: "why was this landing missed?").
"""
import sys

from host_tools import fwpath
from host_tools.errors import UserError
from host_tools.logs.logfile import kind_of, read_lines


def add_arguments(p):
    p.add_argument("log", help="event log or raw sensor log (NDJSON)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="print the referee's output events as NDJSON")
    g.add_argument("--sensed", action="store_true", help="raw logs: print the sensed land/leave events as NDJSON")
    g.add_argument("--why", action="store_true",
                   help="raw logs: each decision with how long the sensing waited and why, and the still fields "
                        "it never decided")
    p.add_argument("--zone", type=int, help="with --why: only this zone")


def replay_events(lines, path, as_json, out):
    fwpath.ensure()
    from referee import events
    from referee.errors import SetupError
    from referee.journal import Journal
    from store import eventlog

    game_box = []
    write = out.write

    if as_json:
        def sink(o):
            write(events.encode_json(o) + "\n")
    else:
        import json
        from host_tools.words import Words
        words = []

        def sink(o):
            if not words:
                words.append(Words(game_box[0].header))
            write(words[0].line(json.loads(events.encode_json(o))) + "\n")

    class _Sink:
        # The text transcript needs the game for names; it exists once the
        # header is read, before the first output event.
        def __call__(self, o):
            sink(o)

    try:
        game = None
        t = 0
        for lineno, obj in eventlog.iter_log(lines, deep=False):  # Journal() runs the mode's checks
            if game is None:
                game = Journal(obj, _Sink())
                game_box.append(game)
            else:
                t = obj["t"]
                game.feed(obj)
        game.finish(t)
    except eventlog.LogError as e:
        raise UserError("%s: %s" % (path, e))
    except SetupError as e:
        raise UserError("%s: line 1: %s" % (path, e))
    return game


def run(args):
    lines = read_lines(args.log)
    kind = kind_of(lines)
    if args.zone is not None and not args.why:
        raise UserError("--zone goes with --why")
    if kind == "raw":
        from host_tools.logs import rawreplay
        mode = "why" if args.why else ("sensed" if args.sensed else ("json" if args.json else "transcript"))
        return rawreplay.replay_raw(args.log, mode, zone=args.zone)
    if args.sensed or args.why:
        raise UserError("%s: --%s needs a raw sensor log; this is %s" % (
            args.log, "sensed" if args.sensed else "why", "an event log" if kind == "events" else "not a BakuMat log"))
    replay_events(lines, args.log, args.json, sys.stdout)
    return 0
