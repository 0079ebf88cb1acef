"""bakumat demo: the main job on the built-in simulated mat.

For now it replays the bundled sample game and prints its transcript."""
import os
import sys

from host_tools.commands.replay import replay_events
from host_tools.logfile import read_lines

SAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "samples", "official.ndjson")


def add_arguments(p):
    p.add_argument("--json", action="store_true", help="print output events as NDJSON")


def run(args):
    replay_events(read_lines(SAMPLE), SAMPLE, args.json, sys.stdout)
    return 0
