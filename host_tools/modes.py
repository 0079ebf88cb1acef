"""The game modes as a user names them, one list for every command (`demo`,
`game new`, `record`, `deploy --mode`): the referee's modes
(firmware/referee/__init__.py MODES) plus `extras`, the official game with
the extra cards (docs/modes/official-extras.md: a header with a `season`,
traps, gear and pure Bakugan; its mode field is `official`).

    modes.names()            # every mode, sorted
    modes.check(name)        # the name, or UserError naming the known ones
    modes.sample(name)       # the bundled sample header of that mode (host_tools/samples)
"""
import json
import os

from host_tools import fwpath
from host_tools.errors import UserError

SAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "samples")
ALIASES = {"extras": "official-extras"}     # name -> sample file; its header says the referee's mode


def names():
    fwpath.ensure()
    import referee
    return sorted(set(referee.MODES) | set(ALIASES))


def check(name, what="mode"):
    if name not in names():
        raise UserError("unknown game %s %r (known: %s)" % (what, name, ", ".join(names())))
    return name


def sample(name):
    """The sample game's header for mode `name` (its first line)."""
    check(name)
    path = os.path.join(SAMPLES, ALIASES.get(name, name) + ".ndjson")
    try:
        with open(path, encoding="utf-8") as f:
            return json.loads(f.readline())
    except (OSError, ValueError) as e:
        raise UserError("the bundled sample of mode %s cannot be read (%s): reinstall bakumat" % (name, e))


def sample_path(name):
    check(name)
    return os.path.join(SAMPLES, ALIASES.get(name, name) + ".ndjson")


def referee_mode(name):
    """The header's `mode` for a user's mode name (extras -> official)."""
    check(name)
    return sample(name).get("mode", name) if name in ALIASES else name
