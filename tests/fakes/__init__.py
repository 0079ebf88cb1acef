"""Stateful fakes of MicroPython's `machine`, `neopixel` and `micropython`
modules, for running the firmware on a laptop. TEST CODE: DO NOT UPLOAD TO A
BOARD (these would shadow the real modules).

See tests/fakes/README.md for what each fake does and how tests use them.

    from fakes import install
    world = install()            # fresh world: clock, pins, ADC sources, resets
    import machine, neopixel     # now the fakes (CPython), bound to `world`
"""
import sys

from fakes import clock as _clock
from fakes import machine as _machine
from fakes import neopixel as _neopixel
from fakes import micropython as _micropython


def install(start_ms=0):
    """Make `import machine`, `import neopixel` (and, on CPython,
    `import micropython`) return the fakes, with a fresh world whose clock
    starts at `start_ms`. Returns the world (fakes.machine.World)."""
    world = _machine.new_world(_clock.FakeClock(start_ms))
    sys.modules["machine"] = _machine
    sys.modules["neopixel"] = _neopixel
    try:
        import micropython  # noqa: F401  real one on MicroPython: keep it
        if getattr(micropython, "_FAKE", False):
            sys.modules["micropython"] = _micropython
    except ImportError:
        sys.modules["micropython"] = _micropython
    return world


def uninstall():
    for name in ("machine", "neopixel"):
        if sys.modules.get(name) in (_machine, _neopixel):
            del sys.modules[name]
