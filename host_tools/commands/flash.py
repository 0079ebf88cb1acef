"""bakumat flash: put MicroPython on a bare ESP32 (esptool), then deploy the app.

The image is --image FILE, or the newest .bin in the cache folder for the
detected chip (see host_tools/device/flash.py); nothing is downloaded."""
import sys

from host_tools.device import flash, ports
from host_tools.errors import UserError


def add_arguments(p):
    p.add_argument("--port", help="serial port (default: the one ESP32 board found by USB id; $BAKUMAT_PORT)")
    p.add_argument("--image", help="MicroPython .bin for the chip (default: newest in %s/<chip>/)" % flash.cache_dir())
    p.add_argument("--board", help="board definition; its chip must match the connected one (and deploy uses it)")
    p.add_argument("--baud", type=int, default=460800, help="serial speed for writing (default 460800; "
                   "try 115200 with a poor cable)")
    p.add_argument("--no-erase", action="store_true", help="do not erase the whole flash first")
    p.add_argument("--no-deploy", action="store_true", help="only put MicroPython on the board")
    p.add_argument("--verbose", action="store_true", help="show esptool's own messages")
    try:
        from host_tools.commands import deploy
        deploy.add_deploy_options(p)
    except ImportError:
        pass


def run(args):
    port = ports.choose(args.port)
    from host_tools.device.linkshare import refuse_if_held
    refuse_if_held(port, "flashing")
    expect = None
    if args.board:
        from host_tools import boards
        b = boards.offered(args.board)
        expect = (b.get("wiring") or {}).get("mcu")
        if expect is not None and expect not in flash.CHIPS:
            raise UserError("board %s names mcu %r, which cannot be flashed (known: %s)"
                            % (args.board, expect, ", ".join(sorted(flash.CHIPS))))
    flash.flash(port, image=args.image, expect_mcu=expect, erase=not args.no_erase, baud=args.baud,
                verbose=args.verbose, out=sys.stderr)
    if args.no_deploy:
        return 0
    from host_tools.commands import deploy
    from host_tools.device import maintenance
    maintenance.wait_for_port(port)
    return deploy.run_deploy(args, port)
