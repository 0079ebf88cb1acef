"""bakumat vboard: run the real firmware on the virtual board.

The app (firmware/, unchanged) runs in the `micropython` binary with
simulated sensors; its serial port (REPL and link) is served on
socket://127.0.0.1:PORT, so every bakumat command (`--port
socket://127.0.0.1:7000`), pyserial and `mpremote connect
socket://127.0.0.1:7000 resume ...` talk to it as to a board on USB.

This terminal is the scenario's side channel (the firmware only ever sees
sensor frames): type scenario lines, which happen now, e.g.

    card on zone 5                 gate 0 dan-gold on zone 5
    register drago on zone 5       throw drago -> zone 5
    remove zone 5                  fault ch 31 dead

and the commands `power` (cut the power: the board reboots and resumes),
`hang` / `unhang` (hang the sensor bus: the watchdog resets the board),
`leds` (the strip now), `status`, `help`, `quit`.
"""
import sys

from host_tools.errors import UserError

HELP = __doc__.split("This terminal", 1)[1]


def add_arguments(p):
    p.add_argument("--board", default="esp32_devkitc", help="board definition with wiring (default esp32_devkitc)")
    p.add_argument("--port", type=int, default=None,
                   help="TCP port of the serial link on 127.0.0.1 (default 7000; 0 picks a free one)")
    p.add_argument("--dir", help="folder used as the board's filesystem (kept; default: a temporary one)")
    p.add_argument("--lfs", metavar="IMAGE", help="a littlefs image file as the board's filesystem instead")
    p.add_argument("--web", type=int, metavar="PORT", default=None,
                   help="serve the board's phone page on 127.0.0.1:PORT (0: any free port; default: off)")
    p.add_argument("--world", help="simulated physics, see `bakumat hw worlds` (default: the world `diag plate` "
                                   "measured, kept in --dir's calib.json, else capture)")
    p.add_argument("--heap", help="MicroPython heap size, e.g. 64K (default: the binary's)")
    p.add_argument("--script", help="scenario lines to apply at start (a file)")
    p.add_argument("--for", dest="seconds", type=float, help="stop after this many seconds (no console)")


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


def run(args):
    import os
    import time
    from host_tools import vboard, sim
    port = vboard.DEFAULT_PORT if args.port is None else args.port
    if args.lfs and not os.path.exists(args.lfs):
        with open(args.lfs, "wb") as f:
            f.write(b"\xff" * (64 * 4096))
    if args.dir:
        os.makedirs(args.dir, exist_ok=True)
    from host_tools import boards
    from host_tools.sim import worlds
    try:
        board = boards.load(args.board)
        name, why = worlds.choose(args.world, board, _calibration(args.dir))
        board = worlds.with_world(board, name)
    except worlds.WorldError as e:
        raise UserError("--world: %s" % e)
    vb = vboard.VBoard(board, workdir=args.dir, lockstep=False, port=port, heapsize=args.heap, lfs=args.lfs,
                       web=args.web)
    vb.start()
    out = sys.stdout
    try:
        live = vboard.Live(vb)
        out.write("virtual board %s running the app in world %s (%s); serial link on %s\n"
                  % (vb.board["name"], name, why, vb.url))
        if vb.web_url:
            out.write("phone page (once a game is set up): %s\n" % vb.web_url)
        out.write("  e.g. bakumat game new --port %s   |   mpremote connect %s resume repl\n" % (vb.url, vb.url))
        out.flush()
        if args.script:
            try:
                with open(args.script, encoding="utf-8") as f:
                    live.add(f.read())
            except OSError as e:
                raise UserError("cannot read %s: %s" % (args.script, e.strerror or e))
            except sim.ScenarioError as e:
                raise UserError("%s: %s" % (args.script, e))
        if args.seconds is not None:
            time.sleep(args.seconds)
            return 0
        if sys.stdin.isatty():
            out.write("type scenario lines or commands (help, quit)\n")
        for line in sys.stdin:
            cmd = line.strip()
            if not cmd:
                continue
            if cmd in ("quit", "exit"):
                break
            if cmd == "help":
                out.write(HELP + "\n")
            elif cmd == "power":
                vb.power_cycle()
                out.write("power cut: the board rebooted\n")
            elif cmd == "hang":
                vb.faults.hang = True
                out.write("sensor bus hung: the watchdog will reset the board\n")
            elif cmd == "unhang":
                vb.faults.hang = False
            elif cmd == "leds":
                out.write(_leds(vb) + "\n")
            elif cmd == "status":
                out.write("board time %.1f s, boots %d, resets %s\n" % (vb.vnow / 1000.0, vb.boots, vb.resets))
            else:
                try:
                    live.add(cmd)
                except sim.ScenarioError as e:
                    out.write("scenario: %s\n" % e)
            out.flush()
    finally:
        vb.stop()
    return 0
