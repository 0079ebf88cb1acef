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

from host_tools import fwpath
from host_tools.device import deploy, maintenance, ports, transport
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


def run_deploy(args, port):
    from host_tools import boards
    out = sys.stderr
    # the arguments first: a bad one never touches the board
    board_name = args.board
    mode = args.mode
    if board_name is not None:
        boards.offered(board_name)          # a retired board stops here, in one line
    transport.check_port(port)
    if mode is not None and mode not in game_modes():
        raise UserError("unknown game mode %r (known: %s)" % (mode, ", ".join(game_modes())))
    src = getattr(args, "firmware", None)
    if src is not None and not os.path.isfile(os.path.join(src, "app.py")):
        raise UserError("--firmware %s: not a BakuMat firmware tree (no app.py)" % src)
    if board_name is None:
        # which board is it? The running app says so, before maintenance mode
        v = maintenance.app_version(port)
        if v is not None and v.get("board") in boards.names(retired=True):
            board_name = v["board"]
            boards.offered(board_name)      # a board running a retired definition: pass --board
            out.write("the app says this is board %s\n" % board_name)
    in_maint = maintenance.ask_maintenance(port, out)
    mp = transport.Mpremote(port)
    target = deploy.BoardTarget(mp)
    if board_name is None or mode is None:
        prev = _previous_app(mp)
        board_name = board_name or prev.get("board")
        mode = mode or prev.get("mode")
    if not board_name or board_name in boards.RETIRED:
        # nothing copied yet: leave the board as it was
        if in_maint:
            maintenance.restart(mp, in_maint, out)
        if board_name:
            boards.offered(board_name)
        raise UserError("which board is this? pass --board NAME (known: %s)" % ", ".join(boards.names()))
    board_def = boards.offered(board_name)
    if worlds_nominal(board_def):
        board_def = with_kernels(board_def, _read_json(mp, "calib.json"), out)
    mode = mode or "official"
    fw = expected_fw(src)
    deploy.deploy(target, board_def, mode=mode, source=args.source, force=args.force, fw=fw, out=out, src=src)
    if args.no_reset:
        out.write("left the board in maintenance mode (--no-reset)\n")
        return 0
    maintenance.restart(mp, in_maint, out)
    maintenance.confirm_app(port, fw, args.timeout, out)
    return 0


def worlds_nominal(board_def):
    from host_tools.sim import worlds
    return worlds.nominal(board_def)


def with_kernels(board_def, calib, out):
    """The board definition to deploy for a mat designed in a computed world
    ("nominal_world", amr2): with the kernel table of the world the board's
    `diag plate` measured (its calib.json), else of the nominal one, which
    its detector fits (host_tools/boards/kernels.py, docs/formats/kernel-table-v1.md).
    The Hall mats name no nominal world and are deployed as they were."""
    from host_tools.sim import worlds
    name = worlds.measured(calib) or worlds.nominal(board_def)
    if name is None or not worlds.get(name).computed:
        return board_def
    from host_tools.boards import kernels
    b = kernels.for_board(board_def, name)
    out.write("kernel table of world %s (%s)\n" % (
        name, "measured by diag plate" if worlds.measured(calib) else "the mat's nominal world"))
    return b


def _read_json(mp, path):
    """A JSON file on the board, or None (absent, unreadable, not JSON)."""
    import json
    try:
        text = mp.read_text(path)
        return json.loads(text) if text else None
    except (UserError, ValueError):
        return None


def _previous_app(mp):
    import json
    try:
        text = mp.read_text("app.json")
        return json.loads(text) if text else {}
    except (UserError, ValueError):
        return {}


def run(args):
    port = ports.choose(args.port)
    from host_tools.device.linkshare import refuse_if_held
    refuse_if_held(port, "deploy")
    return run_deploy(args, port)
