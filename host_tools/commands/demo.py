"""bakumat demo: a simulated game on the virtual mat, live.

Two players throw Bakugan on the simulated mat (the magnetic simulator makes
the sensor frames); the firmware, running in the micropython binary on the
virtual board, decides from those frames what happened; the game shows in the terminal, and in the browser with --view.
`--players human` lets you play the first player's whole side: where your
gate cards go (`gate CARD ZONE`), which Bakugan you throw where (`ZONE`,
`BAKUGAN ZONE`, `m` for a miss), the abilities you play in your battles
(`ability CARD`, `ok`); `help` lists what you can type at each question
(with --view, a click on a zone answers a throw or a gate card too). `--sample` replays the bundled sample game's
event log instead and prints its transcript.
"""
import os
import sys

from host_tools import boards
from host_tools.errors import UserError

SAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "samples", "official.ndjson")


def add_arguments(p):
    p.add_argument("--mode", default="official",
                   help="game mode (`bakumat game modes` lists them): the live demo simulates official (default), "
                        "big (the Big Game) and multi (3-4 players); --sample plays any mode's sample game")
    p.add_argument("--seed", type=int, help="seed of the simulated game (default: a random one, printed)")
    p.add_argument("--speed", type=float, default=3.0,
                   help="playback speed: 1 = real time, 3 (default), 0 = as fast as possible")
    p.add_argument("--players", default="random", choices=("random", "human"),
                   help="random: two simulated players; human: you play the first player's side (help at each question)")
    p.add_argument("--view", action="store_true", help="also show the mat in the browser (served on localhost)")
    p.add_argument("--http", type=int, default=8765, metavar="PORT",
                   help="with --view: HTTP port on 127.0.0.1 (default 8765; 0 picks a free one)")
    p.add_argument("--no-browser", action="store_true", help="with --view: print the address, do not open a browser")
    p.add_argument("--board", help="board definition (default: %s, the reference board)" % boards.REFERENCE)
    p.add_argument("--firmware", default="micropython", choices=("micropython", "cpython"),
                   help="where the firmware runs: the micropython binary on the virtual board (default), "
                        "or its modules under CPython")
    p.add_argument("--world", help="simulated physics, see `bakumat hw worlds` (default: the mat's nominal world, "
                                   "mu300-t0.2 for amr2)")
    p.add_argument("--sample", action="store_true", help="replay the bundled sample game's event log instead")
    p.add_argument("--json", action="store_true", help="with --sample: print output events as NDJSON")


def run(args):
    from host_tools import modes
    modes.check(args.mode)
    if args.sample:
        # the bundled sample game of that very mode
        from host_tools.logs.eventreplay import replay_events
        from host_tools.logs.logfile import read_lines
        path = modes.sample_path(args.mode)
        replay_events(read_lines(path), path, args.json, sys.stdout)
        return 0
    if args.json:
        raise UserError("--json goes with --sample (the live demo prints a transcript)")
    if not 0 <= args.http <= 65535:
        raise UserError("--http: %d is not a TCP port (0..65535)" % args.http)
    if args.board is not None:
        boards.offered(args.board)          # a retired board stops here, in one line
    from host_tools.demo.demo_game import run_demo
    return run_demo(mode=args.mode, seed=args.seed, speed=args.speed, players=args.players, view=args.view,
                    out=sys.stdout, board_name=args.board, port=args.http, open_browser=not args.no_browser,
                    firmware=args.firmware, world=args.world)
