"""bakumat monitor: live view of what the mat reports.

Landings and leaves (`mat`), the referee's events (`game`: turns, battles,
captures, wins), sensor faults, board restarts and notes, with the mat drawn
from the board definition and the game's view. On a terminal the screen is
redrawn after each event; otherwise (a pipe, a log file) one line per event.
`--json` writes one JSON object per frame for machines:
{"type": frame type, "seq": n, "body": {...}} (the first line is the
`state` reply, type "state").

While it watches, the monitor holds the board's port and shares its link
on socket://127.0.0.1:7001 (--share PORT, 0: any free port; --no-share):
other commands (`game input`, `game status`, `register`, `calibrate`,
`diag info`, `record`, `view --live`) act through it while the monitor shows
what happens (host_tools/device/linkshare.py). Given the board's own port
they find the monitor by the file it announces and go through it; a game
another command sets through it is said and drawn at once."""
import json
import sys
import time

from host_tools.device import boardlink
from host_tools.logs import termmat
from host_tools.errors import UserError
from host_tools.device.link import REPLIES

KINDS = ("game", "mat", "fault", "hello", "log")
SHARE_PORT = 7001


def add_arguments(p):
    boardlink.add_port_argument(p)
    p.add_argument("--json", action="store_true", help="one JSON object per frame (NDJSON)")
    p.add_argument("--board", help="board definition for the drawing (default: the one the board reports)")
    p.add_argument("--seconds", type=float, help="stop after this many seconds (default: until Ctrl-C)")
    p.add_argument("--until-end", action="store_true", help="stop after the game's `end` event")
    p.add_argument("--no-mat", action="store_true", help="event lines only, no mat drawing")
    p.add_argument("--share", type=int, default=SHARE_PORT, metavar="PORT",
                   help="serve the link to other commands on 127.0.0.1:PORT (default %d; 0: any free port)"
                        % SHARE_PORT)
    p.add_argument("--no-share", action="store_true", help="do not share the link")


class Screen:
    def __init__(self, out, board, tty, draw_mat, names=None):
        self.names = names
        self.out = out
        self.board = board
        self.tty = tty
        self.draw_mat = draw_mat and board is not None
        self.lines = []

    def event(self, text):
        self.lines.append(text)
        del self.lines[:-14]
        if not self.tty:
            self.out.write(text + "\n")
            self.out.flush()

    def show(self, view, header=""):
        if self.tty:
            getattr(self.out, "raw", self.out).write("\x1b[H\x1b[2J")
            if header:
                self.out.write(header + "\n")
            if self.draw_mat:
                self.out.write(termmat.draw(self.board, view, names=self.names) + "\n")
            self.out.write(termmat.status_line(view, self.names) + "\n\n")
            self.out.write("\n".join(self.lines) + "\n")
        else:
            if self.draw_mat:
                self.out.write(termmat.draw(self.board, view, names=self.names) + "\n")
            self.out.write(termmat.status_line(view, self.names) + "\n")
        self.out.flush()


def run(args):
    out = sys.stdout
    with boardlink.connect(args.port, args.board, quiet=args.json) as bl:
        st = bl.state()
        v = bl.version
        share = None
        if not args.no_share:
            from host_tools.device.linkshare import Share
            try:
                share = Share(bl.link, args.share)
            except UserError:
                if args.share != SHARE_PORT:
                    raise
                share = Share(bl.link, 0)       # the usual port is taken (another monitor): any free one
        head = "board %s, firmware %s on %s (Ctrl-C to stop)" % (v.get("board"), v.get("fw"), bl.via or bl.port)
        announced = None
        if share is not None and bl.via is None:
            # commands given the board's own port find this monitor and act through it
            from host_tools.device.linkshare import announce
            announced = announce(bl.port, share)
        if share is not None:
            sys.stderr.write("other commands act through this monitor with --port %s\n" % share.url)
            sys.stderr.flush()
            head += "; other commands: --port %s" % share.url
        if args.json:
            out.write(json.dumps({"type": "state", "seq": None, "body": st}, sort_keys=True) + "\n")
            out.flush()
        from host_tools.commands.game import board_words
        words = board_words(bl)
        screen = Screen(out, bl.board, out.isatty(), not args.no_mat, st.get("names"))
        if not args.json:
            if not screen.tty:
                out.write(head + "\n")
            screen.show(st.get("view"), head)
        deadline = None if args.seconds is None else time.monotonic() + args.seconds
        ended = False
        try:
            while not ended:
                if deadline is not None and time.monotonic() >= deadline:
                    break
                if share is None:
                    frames = bl.frames(0.1)
                else:
                    share.serve(0.05)
                    frames = [f for f in share.route(_take(bl, 0.05)) if f[1] not in REPLIES]
                changed = False
                if share is not None and _new_game(share):
                    # another command set a game through this monitor (`game new`,
                    # `game load`, `record`): the board says no event of it, so
                    # the monitor reads the new game's players and view itself
                    words = board_words(bl)
                    screen.names = words.names
                    if args.json:
                        out.write(json.dumps({"type": "state", "seq": None, "body": bl.state()},
                                             sort_keys=True) + "\n")
                    else:
                        screen.event(new_game_line(words))
                    changed = True
                for seq, typ, body in frames:
                    if typ not in KINDS:
                        continue
                    if args.json:
                        out.write(json.dumps({"type": typ, "seq": seq, "body": body}, sort_keys=True) + "\n")
                    else:
                        if typ == "game" and not words.names:
                            # a game started meanwhile: its players' names
                            words = board_words(bl)
                            screen.names = words.names
                        screen.event(termmat.describe(typ, body, words))
                    if typ in ("game", "hello"):
                        changed = True
                    if typ == "game" and type(body) is dict and body.get("ev") == "end" and args.until_end:
                        ended = True
                if args.json:
                    out.flush()
                elif changed and (screen.tty or ended):
                    screen.show(bl.state().get("view"), head)

        except KeyboardInterrupt:
            pass
        finally:
            if share is not None:
                from host_tools.device.linkshare import withdraw
                withdraw(announced)
                share.close()
        if not args.json and not screen.tty and not ended:
            screen.show(bl.state().get("view"))
    return 0


def _new_game(share):
    """Whether a client's `cfg` (a new game) was taken since the last look."""
    new = any(req == "cfg" and rtyp == "ack" for req, rtyp, _ in share.answered)
    del share.answered[:]
    return new


def new_game_line(words):
    """The monitor's line for a game another command started."""
    h = words.header or {}
    target = h.get("target")
    return "a new game on the board: %s%s" % (
        "players " + ", ".join(words.names) if words.names else "no players",
        "" if target is None else ", %d gate%s to win" % (target, "" if target == 1 else "s"))


def _take(bl, timeout):
    """Every frame that arrived (replies too: some are the clients')."""
    try:
        bl.rx_bytes += bl.link.pump(timeout)
    except (OSError, EOFError) as e:
        raise bl.lost_error(e)
    items = list(bl.link.inbox)
    bl.link.inbox.clear()
    return items
