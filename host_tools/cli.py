"""`bakumat`: one table of commands, each a module in host_tools/commands with
`add_arguments(parser)` and `run(args) -> exit code` (mpremote's shape).

Modules are imported only when their command runs, so `bakumat --help` stays
fast and a missing optional dependency only affects its own command.
"""
import argparse
import importlib
import sys

from host_tools import __version__
from host_tools.errors import UserError

# name -> (module, one-line help). Keep sorted by how a user meets them.
COMMANDS = {
    "demo": ("host_tools.commands.demo", "play a simulated game on the virtual board, live (--sample: the bundled log)"),
    "replay": ("host_tools.commands.replay", "replay an event log or a raw sensor log"),
    "bench": ("host_tools.commands.bench", "run benchmarks and print their figures"),
    "report": ("host_tools.commands.report", "a match report to share: one HTML page with the battles, captures, winner"),
    "view": ("host_tools.commands.view", "show a mat in the browser: a log with its timeline, or a live board"),
    "plot": ("host_tools.commands.plot", "draw a raw sensor log's traces (with the pipeline's thresholds) to a picture"),
    "hw": ("host_tools.commands.hw", "the computed sensing physics: simulated worlds, slab kernels, sensor layouts compared"),
    "board": ("host_tools.commands.board", "show the board definitions: zones, sensors, wiring"),
    "ports": ("host_tools.commands.ports", "list serial ports and show which one is an ESP32 board"),
    "flash": ("host_tools.commands.flash", "put MicroPython on a bare ESP32 (esptool), then deploy the app"),
    "deploy": ("host_tools.commands.deploy", "compile the app and copy what changed to the board (mpremote)"),
    "monitor": ("host_tools.commands.monitor", "live view of the board: landings, battles, captures, faults, the mat"),
    "record": ("host_tools.commands.record", "record raw sensor frames and control events into a raw log"),
    "game": ("host_tools.commands.game", "start a game on the board (players, decks, mode) and see its state"),
    "register": ("host_tools.commands.register", "teach the mat each Bakugan, zone by zone"),
    "calibrate": ("host_tools.commands.calibrate", "zero the sensors on an empty mat"),
    "diag": ("host_tools.commands.diag", "board checks: info, channels, zones, leds, buzzer, buttons"),
    "wifi": ("host_tools.commands.wifi", "the board's Wi-Fi for the phone page: its own access point, or join a network"),
    "vboard": ("host_tools.commands.vboard", "run the firmware on a virtual board (micropython, simulated mat)"),
}


def build_parser():
    parser = argparse.ArgumentParser(prog="bakumat", description="BakuMat: electronic Bakugan battle mat tools")
    parser.add_argument("--version", action="version", version="bakumat " + __version__)
    parser.add_argument("--debug", action="store_true", help="show tracebacks for internal errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (modname, helptext) in COMMANDS.items():
        p = sub.add_parser(name, help=helptext, description=helptext)
        p.set_defaults(_module=modname)
        p.set_defaults(_name=name)
        # Arguments are declared by the module; import it lazily only for the
        # chosen command (argparse needs them before parsing, so we peek).
    return parser, sub


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    parser, sub = build_parser()
    # Find the chosen command first so only its module is imported.
    chosen = next((a for a in argv if not a.startswith("-")), None)
    if chosen in COMMANDS:
        mod = importlib.import_module(COMMANDS[chosen][0])
        mod.add_arguments(sub.choices[chosen])
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    mod = importlib.import_module(args._module)
    from host_tools.logs.logfile import message
    out = sys.stdout
    sys.stdout = Shown(out)
    try:
        return int(mod.run(args) or 0)
    except UserError as e:
        print("bakumat %s: error: %s" % (args._name, message(str(e))), file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print("bakumat: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # never a traceback for the user
        if args.debug:
            raise
        print("bakumat %s: internal error: %s: %s (rerun with --debug for details)"
              % (args._name, type(e).__name__, message(str(e))), file=sys.stderr)
        return 3
    finally:
        sys.stdout = out


class Shown:
    """A command's stdout: what it prints from logs and boards (a player's
    name with an ANSI escape, a lone surrogate) shows escaped, never acts
    on the terminal. .raw is the stream itself, for a command's own
    terminal control (monitor's screen)."""

    def __init__(self, stream):
        self.raw = stream

    def write(self, text):
        from host_tools.logs.logfile import escape
        return self.raw.write(escape(text) if type(text) is str else text)

    def __getattr__(self, name):
        return getattr(self.raw, name)


if __name__ == "__main__":
    sys.exit(main())
