"""bakumat record FILE: capture the mat's raw frames and the players' control
events into a raw log (docs/formats/raw-log-v1.md) that `bakumat replay FILE`
plays back through the same sensing pipeline and referee.

A raw log starts with the game it records, so recording starts a game on the
board: --game FILE (a header, event log or raw log), or the bundled sample
decks for --mode. Then the board streams every scan (`raw on`) and echoes
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
CONTROL_EVS = ("gate", "miss", "ability", "resolve", "choose", "register", "which")


def add_arguments(p):
    boardlink.add_port_argument(p)
    p.add_argument("file", help="raw log to write (NDJSON, raw log v1)")
    p.add_argument("--game", metavar="FILE", help="the game to start and record (header, event log or raw log)")
    p.add_argument("--mode", default="official", help="without --game: the sample decks of this mode (official)")
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


def run(args):
    if args.game:
        header = game_cmd.header_from_file(args.game)
    else:
        s = game_cmd.sample_header(args.mode)       # (one list of modes: host_tools/modes.py)
        header = dict((k, s[k]) for k in s if k not in ("bakumat", "version", "first"))
    full = game_cmd.check_header(header)
    err = sys.stderr
    with boardlink.connect(args.port, args.board) as bl:
        if bl.board is None:
            raise UserError("unknown board definition: pass --board NAME")
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
                if _handle(w, events, typ, body) == "over":
                    over = True
            return over

        def pump(timeout):
            try:
                bl.rx_bytes += bl.link.pump(timeout)
            except OSError as e:
                raise bl._lost(e)
            items = list(bl.link.inbox)
            bl.link.inbox.clear()
            return take(items)

        switched = [False]
        try:
            # the game first: frames then carry its clock from the start
            bl.request_json("cfg", game_cmd.cfg_body(full))
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
            w.head()
            out.close()
            if events is not None:
                events.close()
        for c, why in rejected:
            err.write("the board rejected %s: %s\n" % (json.dumps(c), why))
        secs = time.monotonic() - start
        rate = bl.rx_bytes / max(0.001, secs)
        bar.close("recorded %d frames and %d control events in %.1f s to %s; link %.0f B/s (%.1f%% of 921600 baud);"
                  " %d frames lost in transit, %s dropped by the board"
                  % (w.frames, w.controls, secs, args.file, rate, 100.0 * rate * 10 / 921600, bl.link.lost,
                     board_lost0 if board_lost0 is not None else "?"))
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
        if type(ev) is not dict or ev.get("ev") not in CONTROL_EVS:
            raise UserError("%s: line %d: expected a control event (ev: %s)" % (path, lineno, ", ".join(CONTROL_EVS)))
        if type(ev.get("t")) is not int or ev["t"] < 0:
            raise UserError("%s: line %d: 't' must be a non-negative integer of milliseconds" % (path, lineno))
        out.append(ev)
    out.sort(key=lambda e: e["t"])
    return out


def _handle(w, events, typ, body):
    if typ == "frame":
        w.frame(body["t"], body["c"])
    elif typ == "input":
        if type(body) is dict and body.get("ev") in CONTROL_EVS:
            w.control(body)
    elif typ == "game":
        if events is not None:
            events.write(json.dumps(body, separators=(", ", ": ")) + "\n")
        if type(body) is dict and body.get("ev") in ("win", "stalemate", "end"):
            return "over"
    return None
