"""bakumat vboard: run the real firmware on the virtual board.

The app (firmware/, unchanged) runs in the `micropython` binary with
simulated sensors; its serial port (REPL and link) is served on
socket://127.0.0.1:PORT, so every bakumat command (`--port
socket://127.0.0.1:7000`), pyserial and `mpremote connect
socket://127.0.0.1:7000 resume ...` talk to it as to a board on USB.

The terminal is the console of the simulated mat (the firmware only ever
sees sensor frames): each line is acknowledged and happens at once (HELP
below). Without a terminal (stdin at its end, e.g. started with `&` or from
a script) the board keeps serving until it is stopped (Ctrl-C, SIGTERM or
`--for`).
"""
import os
import re
import signal
import sys
import time

from host_tools import boards
from host_tools.errors import UserError

HELP = """The console of the simulated mat. Each line happens at once (a line may end
with `at 5s`: five seconds from now) and is answered with what it did.

Scenario lines (zones are the board's zone ids, Bakugan any name you like):
  card on zone 5 | card off zone 5          a gate card lies on / leaves zone 5
  gate 0 dan-gold on zone 5                 player 0 sets gate dan-gold on zone 5 (sent to the board)
  place drago on zone 5 [, at (10, -5) mm]  put drago down opened on zone 5 (needs a card there)
  throw drago -> zone 5                     throw drago; it rolls in and opens on zone 5
  roll drago across zones 5,6 and off       rolls over zones without opening (`and stop`: rests closed)
  bounce drago on zone 5                    touches zone 5 and flies off
  remove zone 5 | remove drago              lift every Bakugan on zone 5 / lift drago
  register drago on zone 5                  tell the board the next Bakugan on zone 5 is drago
  miss drago | resolve | ability 0 CARD | choose 0 take [zone 5] | choose 0 move zone 6
  event {"ev": "resolve"}                   any control event as JSON
  fault ch 31 dead | fault ch 31 stuck 4095 a broken sensor channel
  bakugan drago moment 0.03 polarity up     a Bakugan's magnet (moment, polarity, height, tilt)
  set noise 4 | set drift 2.0               the sensor model
Commands:
  power      cut the power: the board reboots and the app resumes its game
  reset      the same
  maint      the app steps aside (the link's framed maint request, as deploy asks):
             the board reboots to its REPL for mpremote or a terminal
  app        leave maintenance mode: the board reboots and the app runs again
  hang       hang the sensor bus (the watchdog resets the board); unhang: undo
  leds       the LED strip now (RGB per LED)
  status     the game clock (mm:ss), boots, resets
  help       this text
  quit       stop the virtual board (also Ctrl-C or Ctrl-D)"""


def add_arguments(p):
    p.add_argument("--board", default=boards.REFERENCE,
                   help="board definition with wiring (default %s, the reference board)" % boards.REFERENCE)
    p.add_argument("--port", type=int, default=None,
                   help="TCP port of the serial link on 127.0.0.1 (default 7000; 0 picks a free one)")
    p.add_argument("--dir", help="folder used as the board's filesystem (kept; default: a temporary one)")
    p.add_argument("--lfs", metavar="IMAGE", help="a littlefs image file as the board's filesystem instead")
    p.add_argument("--web", type=int, metavar="PORT", default=None,
                   help="serve the board's phone page on 127.0.0.1:PORT (0: any free port; default: off)")
    p.add_argument("--world", help="simulated physics, see `bakumat hw worlds` (default: the world `diag plate` "
                                   "measured, kept in --dir's calib.json, else the mat's nominal world)")
    p.add_argument("--heap", help="MicroPython heap size, e.g. 64K (default: the binary's)")
    p.add_argument("--script", help="scenario lines to apply at start (a file; times count from the start)")
    p.add_argument("--for", dest="seconds", type=float, help="serve this many seconds, then stop; no console (give scenario lines with --script)")


def _calibration(folder):
    """The board's calib.json in the vboard's filesystem folder, or None."""
    import json
    import os
    if not folder:
        return None
    try:
        with open(os.path.join(folder, "calib.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None  # no calibration yet, or one the board will rewrite


def _leds(vb):
    if not vb.leds:
        return "no LED write yet"
    buf = vb.leds[-1][1]
    px = ["%02x%02x%02x" % (buf[i + 1], buf[i], buf[i + 2]) for i in range(0, len(buf) - 2, 3)]
    return " ".join(px)


def _tool(name):
    """How to call a tool installed beside this Python (the project's venv)."""
    import shutil
    here = os.path.join(os.path.dirname(sys.executable), name)
    if shutil.which(name) == here or not os.path.exists(here):
        return name
    rel = os.path.relpath(here)
    return rel if not rel.startswith("..") else here


def banner(vb, world=None):
    """What the virtual board says first; world: (name, why it was chosen)."""
    url = vb.url
    where = " in world %s (%s)" % world if world else ""
    lines = ["virtual board %s running the app%s; serial link on %s" % (vb.board["name"], where, url)]
    if vb.web_url:
        lines.append("phone page (once a game is set up): %s" % vb.web_url)
    lines += [
        "  bakumat commands:  bakumat game new --port %s   (or export BAKUMAT_PORT=%s)" % (url, url),
        "  files, a script:   `maint` here (the app steps aside), then %s connect %s resume fs ls;"
        " `app` here runs the app again" % (_tool("mpremote"), url),
        "  a REPL:            `maint` here, then %s %s   (mpremote's `repl` cannot use a socket:// port)"
        % (_tool("pyserial-miniterm"), url),
    ]
    return "\n".join(lines) + "\n"


def console_line(vb, live, cmd):
    """Carry out one console line; return the answer (one or more lines)."""
    from host_tools import sim
    if cmd == "help":
        return HELP
    if cmd in ("power", "reset"):
        vb.power_cycle()
        return "%s: the board rebooted; the app runs" % ("power cut" if cmd == "power" else "reset")
    if cmd == "maint":
        # the app never stops for a stray Ctrl-C (line noise): only the
        # framed request takes the board to its REPL, as deploy asks for it
        from host_tools.device.link import LinkError
        boots = vb.boots
        link = vb.link()
        try:
            link.request("maint", {"on": True}, timeout=5)
        except LinkError as e:
            return "maint: the app did not answer (%s)" % e
        finally:
            link.close()
        deadline = time.monotonic() + 20
        while vb.boots == boots and time.monotonic() < deadline:
            time.sleep(0.05)
        return "maintenance mode: the board's REPL answers (mpremote, miniterm); `app` runs the app again"
    if cmd == "app":
        from host_tools.device import transport
        transport.Mpremote(vb.url, timeout=30).exec("import maint\nmaint.leave()\n")
        vb.power_cycle()
        return "app: the board rebooted; the app runs"
    if cmd == "hang":
        vb.faults.hang = True
        return "sensor bus hung: the watchdog will reset the board"
    if cmd == "unhang":
        vb.faults.hang = False
        return "sensor bus answers again"
    if cmd == "leds":
        return _leds(vb)
    if cmd == "status":
        from host_tools.words import stamp
        return "game clock %s, boots %d, resets %s" % (stamp(vb.vnow), vb.boots,
                                                       ", ".join("%s at %s" % (c, stamp(t))
                                                                 for t, c in vb.resets) or "none")
    try:
        done = live.add(cmd)
    except sim.ScenarioError as e:
        # (the simulator's own clock in its message is not the board's: a console line happens now)
        # nor is the scenario file's list of actions (idle, wait, gap: not console lines)
        msg = re.sub(r" \(expected one of: [^)]*\)", "", re.sub(r" at -?\d+\.\d+ ?s\b", "", e.msg))
        return "not done: %s (help lists what the console takes)" % msg
    if done is None:
        return "nothing to do"
    words = done.describe()
    return "ok: " + "; ".join(words) if words else "ok (a setting: applies to what follows)"


class _Stop(Exception):
    pass


def _on_signal(signum, frame):
    raise _Stop()


def run(args):
    from host_tools import vboard, sim
    port = vboard.DEFAULT_PORT if args.port is None else args.port
    if args.lfs and not os.path.exists(args.lfs):
        with open(args.lfs, "wb") as f:
            f.write(b"\xff" * (64 * 4096))
    if args.dir:
        os.makedirs(args.dir, exist_ok=True)
    from host_tools.sim import worlds
    try:
        board = boards.offered(args.board)      # a retired board stops here, in one line
        if args.world:
            worlds.offered(args.world)
        name, why = worlds.choose(args.world, board, _calibration(args.dir))
        board = worlds.with_world(board, name)
    except worlds.WorldError as e:
        raise UserError("--world: %s" % e)
    if "wiring" in board:
        # the board's detector fits the kernel table of the world it senses (as the demo's)
        from host_tools.boards import kernels
        board = kernels.for_board(board, name)
    script = None
    if args.script:
        try:
            with open(args.script, encoding="utf-8") as f:
                script = f.read()
        except OSError as e:
            raise UserError("cannot read %s: %s" % (args.script, e.strerror or e))
    vb = vboard.VBoard(board, workdir=args.dir, paced=True, port=port, heapsize=args.heap, lfs=args.lfs,
                       web=args.web)
    out = sys.stdout

    def took():
        # the link serves one program at a time, like a USB port: say so where the user looks
        out.write("note: another program took the board's link; the one that held it lost it (to watch and act "
                  "at once, keep one `bakumat monitor` on the board and give the other commands its --port)\n")
        out.flush()
    vb.on_takeover = took
    # a server runs until it is stopped: SIGTERM (kill) stops it as Ctrl-C does
    # (and SIGINT even where a shell started it with SIGINT ignored, as `&` does)
    old = [(s, signal.signal(s, _on_signal)) for s in (signal.SIGTERM, signal.SIGINT)]
    try:
        vb.start()
        live = vboard.Live(vb)
        out.write(banner(vb, (name, why)))
        out.flush()
        if script is not None:
            try:
                done = live.add(script)
            except sim.ScenarioError as e:
                raise UserError("%s: line %s: %s" % (args.script, e.line, e.msg))
            for w in (done.describe() if done else []):
                out.write("script: %s\n" % w)
            out.flush()
        if args.seconds is not None:
            out.write("no console with --for: the board serves for %g s, then stops (scenario lines: --script)\n"
                      % args.seconds)
            out.flush()
            time.sleep(args.seconds)
            return 0
        out.write("type scenario lines or commands (help, quit)\n")
        out.flush()
        while True:
            line = sys.stdin.readline()
            if not line:
                # no console (stdin at its end): keep serving until stopped
                out.write("console closed: the virtual board keeps serving until stopped (Ctrl-C or kill %d)\n"
                          % os.getpid())
                out.flush()
                while True:
                    time.sleep(3600)
            cmd = line.strip()
            if not cmd or cmd.startswith("#"):
                continue
            if cmd in ("quit", "exit"):
                break
            out.write(console_line(vb, live, cmd) + "\n")
            out.flush()
    except (KeyboardInterrupt, _Stop):
        out.write("\nstopped\n")
    finally:
        for s, h in old:
            signal.signal(s, h)
        vb.stop()
    return 0
