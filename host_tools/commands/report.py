"""bakumat report LOG -o game.html: a match report to share.

One self-contained HTML page (no script, no network) from an event log or a
raw sensor log: the players and their decks, each battle with its
arithmetic (G + gate card + abilities = power), the captures, the winner,
and the whole game in the mat's words (host_tools/logs/report.py)."""
import sys

from host_tools.errors import UserError


def add_arguments(p):
    p.add_argument("log", help="event log or raw sensor log (NDJSON)")
    p.add_argument("-o", "--output", metavar="FILE", required=True, help="the HTML page to write (- for stdout)")
    p.add_argument("--title", help="the page's title (default: the players' names)")


def run(args):
    from host_tools.logs import report
    text = report.build(args.log, args.title)
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    tmp = args.output + ".tmp"
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        import os
        os.replace(tmp, args.output)
    except OSError as e:
        raise UserError("cannot write %s: %s" % (args.output, e.strerror or e))
    print("wrote %s" % args.output)
    return 0
