"""The referee: a deterministic state machine fed with input events.

    import referee
    g = referee.new_game(header, sink)   # sink(out_event) or None
    g.feed({"t": 0, "ev": "gate", "player": 0, "gate": "dan-gold", "zone": 5})
    g.finish()

Modes are loaded lazily: only the module of the mode in play is imported,
which matters on the board (each module costs heap once loaded).
"""
from referee.errors import Reject, SetupError

# mode name -> module under referee.modes. Later modes add a line here.
MODES = {
    "official": "official",
    "fortress": "fortress",
    "snooker": "snooker",
    "zhulu": "zhulu",
    "shenghui": "shenghui",
    "zhanguo": "zhanguo",
    "longhu": "longhu",
    "longhu_support": "longhu_support",
    "normandy": "normandy",
    "baolie": "baolie",
    "beach": "beach",
    "beach2": "beach2",
    "compass": "compass",
    "big": "big",
    "multi": "multi",
}


def load(mode):
    """The Game class of a mode. Raises SetupError for an unknown mode."""
    if type(mode) is not str or mode not in MODES:
        raise SetupError("header.mode: unknown mode %r (known: %s)" % (mode, ", ".join(sorted(MODES))))
    name = "referee.modes." + MODES[mode]
    mod = __import__(name, None, None, ("Game",))
    return mod.Game


def new_game(header, sink=None):
    if type(header) is not dict:
        raise SetupError("header: expected an object")
    cls = load(header.get("mode", "official"))
    return cls.variant(header)(header, sink)


__all__ = ("load", "new_game", "MODES", "Reject", "SetupError")
