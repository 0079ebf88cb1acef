"""bakumat record FILE: capture the mat's raw frames and the players' control
events into a raw log (docs/formats/raw-log-v1.md) that `bakumat replay FILE`
plays back through the same sensing pipeline and referee.

A raw log starts with the game it records, so recording starts a game on the
board: --game FILE (a header, event log or raw log), the bundled sample
decks for --mode, or by default the game `bakumat game new` set on the board
(its players, decks, mode and target, from its first move; the official
sample when the board has none). A game already in play is not dropped: the
recording is refused until it is over or ended (`bakumat game end`). Then the board streams every scan (`raw on`) and echoes
each control input it accepts (`input` frames). --events OUT also writes
the game's event log (event-log-v1: the raw log replayed through the
board's own code; the raw log carries what the board had learnt, so the
replay decides as it did); --live OUT keeps the referee's events as the
board sent them (NDJSON, to compare with `bakumat replay --json`). --play CONTROLS sends a script of control
events at their times (ms after the first recorded frame) and records each
one where the board applied it (after the frames that came before its
reply). Stops after --seconds, at the game's end with
--until-end, or on Ctrl-C. Lines are written as they come, so an
interrupted recording is a valid log up to its last line.

The raw stream costs about 26 KB/s for 96 channels at 50 Hz in protocol v1's
JSON frames: 28 % of a 921600 baud line, more than twice the REPL's 115,200
(`python -m host_tools.bench.linkbudget`). So the board switches its line to
921,600 baud for the recording (where its port can: `raw` with `baud`) and
back at the end; the host follows each time.
"""
import json
import signal
import sys
import time

from host_tools.device import boardlink
from host_tools.logs import rawlog
from host_tools.device.link import REPLIES
from host_tools.commands import game as game_cmd
from host_tools.errors import UserError
from host_tools.device.progress import Progress

LINE_BAUD = 115200       # the REPL's speed, where the board starts and ends
RECORD_BAUD = 921600     # the raw stream's: about 28 % of it (host_tools/bench/linkbudget.py)


def control_evs():
    """Every control a raw log holds (raw-log-v1: `undo`, `reveal` and the
    modes' own included: a replay without the player's undo decides
    another game)."""
    from host_tools import fwpath
    fwpath.ensure()
    from store.eventcheck import RAW_FIELDS
    return tuple(RAW_FIELDS)


def add_arguments(p):
    boardlink.add_port_argument(p)
    p.add_argument("file", help="raw log to write (NDJSON, raw log v1)")
    p.add_argument("--game", metavar="FILE", help="the game to start and record (header, event log or raw log)")
    p.add_argument("--mode", help="without --game: the sample decks of this mode (default: the game on the board, "
                                  "from its start; official's sample decks when it has none)")
    p.add_argument("--seconds", type=float, help="stop after this many seconds")
    p.add_argument("--until-end", action="store_true", help="stop when the game is decided (then end it on the board)")
    p.add_argument("--events", metavar="OUT", help="also write the game's event log here (event log v1: what the "
                   "referee accepted, as `bakumat replay` reads it)")
    p.add_argument("--live", metavar="OUT", help="also write the referee's events as the board sent them live "
                   "(NDJSON, as `bakumat replay --json` prints them)")
    p.add_argument("--board", help="board definition (default: the one the board reports)")
    p.add_argument("--play", metavar="CONTROLS", help="control events to send while recording (NDJSON, each with "
                   "\"t\": ms after the first recorded frame), e.g. a scripted session")


class Writer:
    """Raw log lines in the order the board took them: a control event the
    board applied after the scan of its millisecond follows that frame,
    with its own time (a replay feeds lines in order, as the board did)."""

    def __init__(self, f, header):
        self.f = f
        self.header = header    # written before the first line after it (or at close)
        self.last_t = 0
        self.frames = 0
        self.controls = 0
        self.pending = []

    def head(self):
        if self.header is not None:
            self.f.write(json.dumps(self.header, separators=(",", ":")) + "\n")
            self.header = None

    def frame(self, t, values):
        # t: the board's game time (ms since the game started), so the
        # replay's events carry the same times as the live ones
        self.head()
        if t < self.last_t:
            t = self.last_t
        self.f.write(rawlog.frame_line(t, values) + "\n")
        self.last_t = t
        self.frames += 1

    def control(self, ev):
        self.head()
        ev = dict(ev)
        t = max(0, ev.get("t", 0), self.last_t)
        ev["t"] = t
        self.last_t = t
        self.f.write(rawlog.control_line(ev) + "\n")
        self.controls += 1


def _sample(mode):
    s = game_cmd.sample_header(mode)       # (one list of modes: host_tools/modes.py)
    return dict((k, s[k]) for k in s if k not in ("bakumat", "version", "first"))


def board_game(bl):
    """The header of the game on the board, to record from its start; None
    without one. A game in play (inputs accepted, not over) is refused:
    starting it again would drop its moves."""
    st = bl.state()
    if not st.get("configured"):
        return None
    try:
        _, ack = bl.request("header")
    except UserError:
        return None                       # an older firmware: no `header` request
    header = ack.get("header") if type(ack) is dict else None
    if type(header) is not dict or not header.get("players"):
        return None
    view = st.get("view") or {}
    if st.get("events") and view.get("phase") != "over":
        raise UserError("the game on the board is in play (%d moves accepted): recording starts a game from its "
                        "start, which would drop them; end it first (`bakumat game end`) or give --game FILE"
                        % st.get("events"))
    return dict((k, header[k]) for k in header if k not in ("bakumat", "version"))


def _interrupt(signum, frame):
    raise KeyboardInterrupt()


def _stop_on_sigterm():
    """SIGTERM raises KeyboardInterrupt from here on; returns the handler
    it replaced (None outside the main thread, where signals cannot be set)."""
    try:
        return signal.signal(signal.SIGTERM, _interrupt)
    except ValueError:
        return None


def _restore_sigterm(old):
    if old is not None:
        signal.signal(signal.SIGTERM, old)


def gaps_said(lost, board_lost):
    """What the frames missing from the log mean, as the summary's last words:
    `lost` in transit, `board_lost` the board could not send (None: it did
    not say). The board's own referee saw every frame; only the log, and so
    a replay of it, misses them."""
    if lost + (board_lost or 0) == 0:
        return ": the log is complete" if board_lost is not None else \
            " (the board did not say how many it could not send)"
    return (": the game on the board is not affected (its referee saw every frame), but the log misses "
            "these, so a replay may read those moments differently")


def run(args):
    header = None
    if args.game:
        header = game_cmd.header_from_file(args.game)
    elif args.mode:
        header = _sample(args.mode)
    if header is not None:
        game_cmd.check_header(header)
    err = sys.stderr
    from host_tools import boards
    if args.board is not None:
        boards.offered(args.board)          # a retired board stops here, in one line, before the link
    with boardlink.connect(args.port, args.board) as bl:
        if bl.board is None:
            raise UserError("unknown board definition: pass --board NAME")
        boards.offered(bl.board["name"])    # nor is a board running a retired definition recorded
        if header is None:
            header = board_game(bl)
            if header is None:
                header = _sample("official")
            else:
                names = ", ".join(p.get("name", "?") for p in header["players"])
                err.write("recording the board's game from its start: mode %s, players %s\n"
                          % (header.get("mode"), names))
        full = game_cmd.check_header(header)
        raw_header = rawlog.make_header(bl.board, full)
        try:
            out = open(args.file, "w", encoding="utf-8", newline="\n")
        except OSError as e:
            raise UserError("cannot write %s: %s" % (args.file, e.strerror or e))
        events = None
        if args.live:
            try:
                events = open(args.live, "w", encoding="utf-8", newline="\n")
            except OSError as e:
                out.close()
                raise UserError("cannot write %s: %s" % (args.live, e.strerror or e))
        if args.events:
            _writable(args.events, out, events)
        w = Writer(out, raw_header)
        bar = Progress("Recording", unit="frames", stream=err)
        start = time.monotonic()
        ended = False
        board_lost0 = None
        play = load_play(args.play) if args.play else []
        sent = {}               # seq of a `ctl` we sent -> the control event
        first_t = [None]
        latest_t = [0]
        rejected = []
        amends = AmendUndos(w)

        def take(items):
            over = False
            for seq, typ, body in items:
                if typ == "frame":
                    if first_t[0] is None:
                        first_t[0] = body["t"]
                    latest_t[0] = body["t"]
                elif typ in REPLIES:
                    # the board echoes every control it accepted as an `input`
                    # frame (with its own time), wherever it came from: that
                    # echo, not what was sent, goes into the log
                    c = sent.pop(seq, None)
                    if c is not None and (typ == "err" or not body.get("ok", True)):
                        rejected.append((c, body.get("why") or body.get("msg")))
                    continue
                if amends.take(typ, body):
                    continue
                if _handle(w, events, typ, body) == "over":
                    over = True
            return over

        def pump(timeout):
            try:
                bl.rx_bytes += bl.link.pump(timeout)
            except OSError as e:
                raise bl.lost_error(e)
            items = list(bl.link.inbox)
            bl.link.inbox.clear()
            return take(items)

        switched = [False]
        # `kill` (SIGTERM) ends a recording as Ctrl-C does: the board back
        # to its line speed and the log's header completed (the frames it
        # holds are kept, nothing half-written)
        old_term = _stop_on_sigterm()
        try:
            # the game first: frames then carry its clock from the start
            bl.request_json("cfg", game_cmd.cfg_body(full))
            # the game's Bakugan the mat cannot tell apart yet: said before the first throw
            line = game_cmd.untaught_line(full, bl.state().get("taught"))
            if line:
                err.write(line + "\n")
            # the stream needs a faster line than the REPL's 115,200 baud: the
            # board switches once its ack is out, the host follows, and only
            # then starts the stream (serial-protocol-v1, `raw`)
            _, ack = bl.request("raw", {"on": False, "baud": RECORD_BAUD})
            if ack.get("baud") == RECORD_BAUD:
                bl.link.set_baud(RECORD_BAUD)
                switched[0] = True
            _, ack = bl.request("raw", {"on": True})
            if type(ack.get("base")) is list and type(ack.get("frames")) is int:
                # the baselines the first streamed scan is measured against:
                # the replay resumes from them and decides as the board did
                raw_header["baseline"] = {"frames": ack["frames"], "v": ack["base"]}
            if type(ack.get("sigs")) is dict and ack["sigs"]:
                # what it learnt before (lessons): the replay identifies as it does
                raw_header["signatures"] = ack["sigs"]
            if type(ack.get("kernels")) is str:
                # the world of the kernel table its detector fits (deploy
                # installed it): the replay fits the same
                raw_header["kernel_world"] = ack["kernels"]
            take(bl.link.take())
            while True:
                now = time.monotonic()
                if args.seconds is not None and now - start >= args.seconds:
                    break
                if pump(0.05) and args.until_end:
                    ended = True
                while play and first_t[0] is not None and latest_t[0] - first_t[0] >= play[0]["t"]:
                    c = play.pop(0)
                    body = dict(c)
                    body.pop("t", None)
                    sent[bl.link.send("ctl", body)] = c
                secs = max(0.001, time.monotonic() - start)
                bar.set(w.frames, "%.1f KB/s" % (bl.rx_bytes / secs / 1024.0))
                if ended:
                    break
        except KeyboardInterrupt:
            pass
        finally:
            _restore_sigterm(old_term)
            try:
                if switched[0]:
                    _, ack = bl.request("raw", {"on": False, "baud": LINE_BAUD}, timeout=3.0)
                    bl.link.set_baud(LINE_BAUD)
                else:
                    bl.request("raw", {"on": False}, timeout=3.0)
                take(bl.link.take())
                if ended:
                    # the game is decided: end it so the live events close as a replay's do
                    bl.request("end", {})
                    take(bl.link.take())
                _, h = bl.request("health", timeout=3.0)
                board_lost0 = h.get("tx_drops")
            except UserError as e:
                err.write("warning: %s\n" % e)
            amends.flush()
            w.head()
            out.close()
            if events is not None:
                events.close()
        for c, why in rejected:
            err.write("the board rejected %s: %s\n" % (json.dumps(c), why))
        secs = time.monotonic() - start
        rate = bl.rx_bytes / max(0.001, secs)
        said = gaps_said(bl.link.lost, board_lost0)
        bar.close("recorded %d frames and %d control events in %.1f s to %s; link %.0f B/s (%.1f%% of 921600 baud);"
                  " %d frames lost in transit, %s the board could not send (its link was full)%s"
                  % (w.frames, w.controls, secs, args.file, rate, 100.0 * rate * 10 / 921600, bl.link.lost,
                     board_lost0 if board_lost0 is not None else "?", said))
        if w.frames == 0:
            raise UserError("no raw frames came from the board: is its scan running? (`bakumat diag info`)")
    if args.events:
        # the raw log replayed through the board's own code gives the inputs
        # the referee accepted, in order: the game's event log
        from host_tools.logs import rawreplay
        lines = rawreplay.event_log(args.file)
        try:
            with open(args.events, "w", encoding="utf-8", newline="\n") as f:
                f.write("".join(x + "\n" for x in lines))
        except OSError as e:
            raise UserError("cannot write %s: %s" % (args.events, e.strerror or e))
        err.write("event log (%d events) in %s\n" % (len(lines) - 1, args.events))
    return 0


def _writable(path, *opened):
    """Fail before recording when `path` cannot be written (closing what is open)."""
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as e:
        for f in opened:
            if f is not None:
                f.close()
        raise UserError("cannot write %s: %s" % (path, e.strerror or e))


def load_play(path):
    from host_tools.logs.logfile import read_lines
    out = []
    for lineno, line in enumerate(read_lines(path), 1):
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
        except ValueError as e:
            raise UserError("%s: line %d: not valid JSON (%s)" % (path, lineno, getattr(e, "msg", e)))
        if type(ev) is not dict or ev.get("ev") not in control_evs():
            raise UserError("%s: line %d: expected a control event (ev: %s)" % (path, lineno, ", ".join(control_evs())))
        if type(ev.get("t")) is not int or ev["t"] < 0:
            raise UserError("%s: line %d: 't' must be a non-negative integer of milliseconds" % (path, lineno))
        out.append(ev)
    out.sort(key=lambda e: e["t"])
    return out


class AmendUndos:
    """The board echoes every `undo` it accepts, also those its own amend
    feeds (firmware/match.py: a sensed `ident` or `unland`, or a player's
    `which`, takes the landing back with undos and lands the one named). A
    replay redoes that amend from the ident (sensed again from the frames)
    or the `which` (a control in the log): the amend's undos in the log
    would take back two events more. So an undo echo of an ident's or
    unland's millisecond is dropped, and undo echoes are held until the
    board's tick is over (the next frame or control): a `which` of their
    millisecond claims them. A player's own undo (BACK held, the phone,
    `game input`) is logged."""

    def __init__(self, w):
        self.w = w
        self.held = []
        self.amend_t = None

    def take(self, typ, body):
        """True when the item was an undo echo (held or dropped)."""
        if type(body) is not dict:
            return False
        if typ == "mat" and body.get("ev") in ("ident", "unland"):
            self.amend_t = body.get("t")
        elif typ == "input" and body.get("ev") == "undo":
            if body.get("t") != self.amend_t:
                self.held.append(body)
            return True
        elif typ == "input" and body.get("ev") == "which":
            self.held = [u for u in self.held if u.get("t") != body.get("t")]
        if typ in ("frame", "input"):
            self.flush()
        return False

    def flush(self):
        for u in self.held:
            self.w.control(u)
        self.held = []


def _handle(w, events, typ, body):
    if typ == "frame":
        w.frame(body["t"], body["c"])
    elif typ == "input":
        if type(body) is dict and body.get("ev") in control_evs():
            w.control(body)
    elif typ == "game":
        if events is not None:
            events.write(json.dumps(body, separators=(", ", ": ")) + "\n")
        if type(body) is dict and body.get("ev") in ("win", "stalemate", "end"):
            return "over"
    return None
