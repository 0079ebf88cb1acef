"""bakumat replay LOG: run a recorded game through the referee.

An event log (format docs/formats/event-log-v1.md) is replayed directly; a
raw sensor log (docs/formats/raw-log-v1.md) goes through the sensing
pipeline first. Output: a readable transcript, or NDJSON with --json, or the
sensed landings with --sensed, or with --why how long the sensing waited
for each decision and why, and the still fields it never decided (raw logs
only: "why was this landing missed?").
"""
import sys

from host_tools.errors import UserError
from host_tools.logs.eventreplay import replay_events
from host_tools.logs.logfile import log_kind, read_lines


def add_arguments(p):
    p.add_argument("log", help="event log or raw sensor log (NDJSON)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="print the referee's output events as NDJSON")
    g.add_argument("--sensed", action="store_true", help="raw logs: print the sensed land/leave events as NDJSON")
    g.add_argument("--why", action="store_true",
                   help="raw logs: each decision with how long the sensing waited and why, and the still fields "
                        "it never decided")
    p.add_argument("--zone", type=int, help="with --why: only this zone")


def run(args):
    lines = read_lines(args.log)
    kind = log_kind(lines, args.log)
    if args.zone is not None and not args.why:
        raise UserError("--zone goes with --why")
    if kind == "raw":
        from host_tools.logs import rawreplay
        mode = "why" if args.why else ("sensed" if args.sensed else ("json" if args.json else "transcript"))
        return rawreplay.replay_raw(args.log, mode, zone=args.zone)
    if args.sensed or args.why:
        raise UserError("%s: --%s needs a raw sensor log; this is an event log" % (
            args.log, "sensed" if args.sensed else "why"))
    replay_events(lines, args.log, args.json, sys.stdout)
    return 0
