"""bakumat deploy: compile the app (mpy-cross), copy what changed (mpremote),
restart the board and check that the app answers with the expected version.

Steps: ask the running app for maintenance mode over the link (so its
watchdog cannot reset the board mid-copy; a board without the app is
interrupted with Ctrl-C by mpremote), probe the board (MicroPython and .mpy
version, manifest of the last deploy), compile, copy only the changed
files, leave maintenance mode / reset, wait for the app's `version` reply.
"""
import os
import re
import sys
import time

from host_tools import fwpath
from host_tools.device import deploy, ports, transport
from host_tools.errors import UserError


def add_deploy_options(p):
    p.add_argument("--mode", help="default game mode stored on the board (%s; default: keep the board's, else official)"
                   % ", ".join(game_modes()))
    p.add_argument("--source", action="store_true", help="deploy .py files instead of compiled .mpy (debugging)")
    p.add_argument("--force", action="store_true", help="copy every file, even unchanged ones")
    p.add_argument("--no-reset", action="store_true", help="leave the board in maintenance mode after copying")
    p.add_argument("--timeout", type=float, default=20.0, help="seconds to wait for the app after the reset (20)")
    p.add_argument("--firmware", metavar="DIR", help="the firmware tree to deploy (default: this checkout's firmware/)")


def add_arguments(p):
    p.add_argument("--port", help="serial port or socket://HOST:PORT (default: the one ESP32 board found by USB id; "
                   "$BAKUMAT_PORT)")
    p.add_argument("--board", help="board definition to write as /board.json (default: the one deployed last)")
    add_deploy_options(p)


def game_modes():
    """The one list of modes (host_tools/modes.py), as demo and game take them."""
    from host_tools import modes
    return modes.names()


def expected_fw(src=None):
    """The firmware version string the app will report (`version.fw`), read
    from firmware/version.py (FW = "..."), or None when it has none."""
    path = os.path.join(src or fwpath.FIRMWARE_DIR, "version.py")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    m = re.search(r"""^(?:FW|VERSION)\s*=\s*["']([^"']+)["']""", text, re.M)
    return m.group(1) if m else None


def wait_for_port(port, timeout=15.0):
    """After a hard reset a native-USB board re-enumerates: wait until the
    port opens again (a URL is returned at once)."""
    if ports.is_url(port):
        return
    deadline = time.monotonic() + timeout
    while True:
        try:
            transport.check_port(port)
            return
        except UserError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def ask_maintenance(port, out, timeout=1.5):
    """Ask the running app for maintenance mode. True if the app agreed."""
    from host_tools.device.link import LinkError, open_link
    try:
        link = open_link(port)
    except LinkError:
        return False
    try:
        try:
            _, v = link.request("version", timeout=timeout)
        except LinkError:
            out.write("the app does not answer on the link (no app yet?): mpremote will interrupt the board "
                      "with Ctrl-C\n")
            return False
        out.write("app %s answers; asking it for maintenance mode\n" % v.get("fw"))
        try:
            link.request("maint", {"on": True}, timeout=3.0)
        except LinkError as e:
            out.write("the app refused maintenance mode (%s): mpremote will interrupt it with Ctrl-C\n" % e)
            return False
    finally:
        link.close()
    settle(port)
    return True


def confirm_app(port, fw, timeout, out):
    """Wait for the app to answer `version` after the reset; check fw."""
    from host_tools.device.link import LinkError, open_link
    wait_for_port(port, timeout)
    deadline = time.monotonic() + timeout
    link = None
    last_console = ""
    try:
        while True:
            if link is None:
                try:
                    link = open_link(port)
                except LinkError:
                    link = None
            if link is not None:
                try:
                    _, v = link.request("version", timeout=1.0)
                    break
                except LinkError:
                    last_console = link.console
            if time.monotonic() > deadline:
                tail = "\n".join(last_console.strip().splitlines()[-6:])
                raise UserError("the app did not answer within %.0f s after the reset%s"
                                % (timeout, (": the board printed:\n" + tail) if tail else
                                   " (see its output with `mpremote connect %s repl`)" % port))
            if link is None:
                time.sleep(0.2)
    finally:
        if link is not None:
            link.close()
    if fw is not None and v.get("fw") != fw:
        raise UserError("the board answers with firmware %r, expected %r: the new app did not start "
                        "(deploy again with --force)" % (v.get("fw"), fw))
    out.write("app %s is up (board %s, protocol %s)\n" % (v.get("fw"), v.get("board"), v.get("proto")))
    return v


def app_version(port, timeout=1.5):
    """The running app's `version` reply (it names its board), or None when
    no app answers (as `bakumat diag info` asks it)."""
    from host_tools.device.link import LinkError, open_link
    try:
        link = open_link(port)
    except LinkError:
        return None
    try:
        return link.request("version", timeout=timeout)[1]
    except LinkError:
        return None
    finally:
        link.close()


def run_deploy(args, port):
    from host_tools import boards
    out = sys.stderr
    transport.check_port(port)
    # the arguments first: a bad one never touches the board
    board_name = args.board
    mode = args.mode
    if board_name is not None:
        boards.load(board_name)
    if mode is not None and mode not in game_modes():
        raise UserError("unknown game mode %r (known: %s)" % (mode, ", ".join(game_modes())))
    src = getattr(args, "firmware", None)
    if src is not None and not os.path.isfile(os.path.join(src, "app.py")):
        raise UserError("--firmware %s: not a BakuMat firmware tree (no app.py)" % src)
    if board_name is None:
        # which board is it? The running app says so, before maintenance mode
        v = app_version(port)
        if v is not None and v.get("board") in boards.names():
            board_name = v["board"]
            out.write("the app says this is board %s\n" % board_name)
    in_maint = ask_maintenance(port, out)
    mp = transport.Mpremote(port)
    target = deploy.BoardTarget(mp)
    if board_name is None or mode is None:
        prev = _previous_app(mp)
        board_name = board_name or prev.get("board")
        mode = mode or prev.get("mode")
    if not board_name:
        # nothing copied yet: leave the board as it was
        if in_maint:
            _restart(mp, in_maint, out)
        raise UserError("which board is this? pass --board NAME (known: %s)" % ", ".join(boards.names()))
    board_def = boards.load(board_name)
    mode = mode or "official"
    fw = expected_fw(src)
    deploy.deploy(target, board_def, mode=mode, source=args.source, force=args.force, fw=fw, out=out, src=src)
    if args.no_reset:
        out.write("left the board in maintenance mode (--no-reset)\n")
        return 0
    _restart(mp, in_maint, out)
    confirm_app(port, fw, args.timeout, out)
    return 0


def _previous_app(mp):
    import json
    try:
        text = mp.read_text("app.json")
        return json.loads(text) if text else {}
    except (UserError, ValueError):
        return {}


# machine.reset() as mpremote's `reset` does it; the virtual board (unix port,
# no machine.reset) is reset through its side channel ('R', hw/vboard.py).
RESET = """import time
time.sleep_ms(100)
try:
    import machine
    machine.reset()
except AttributeError:
    import hw.vboard
    hw.vboard.side().send(82, 2)
"""


def _restart(mp, in_maint, out):
    """Leave maintenance mode and hard-reset (mpremote's own `reset` way:
    exec without waiting for an answer the reset would cut)."""
    out.write("restarting the board\n")
    try:
        mp.run([["exec", "try:\n import maint\n maint.leave()\nexcept ImportError:\n pass\n"],
                ["exec", "--no-follow", RESET]], timeout=30)
    except UserError:
        pass    # the reset may cut the connection under mpremote


def settle(port, quiet_s=0.5, max_s=8.0):
    """After the app reboots into maintenance mode: wait for the port to come
    back and for the boot messages to stop, so mpremote meets a REPL."""
    wait_for_port(port, max_s)
    deadline = time.monotonic() + max_s
    try:
        s = transport.open_serial(port, timeout=0.1)
    except UserError:
        return
    try:
        last = time.monotonic()
        while time.monotonic() < deadline:
            if s.read(256):
                last = time.monotonic()
            elif time.monotonic() - last >= quiet_s:
                return
    finally:
        s.close()


def run(args):
    port = ports.choose(args.port)
    return run_deploy(args, port)
