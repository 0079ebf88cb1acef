"""Helpers for the hand-written games of the Chinese variant modes
(tests/firmware/test_mode_<mode>.py): header builders and a Game wrapper
recording the output events. Runs under CPython and MicroPython."""
from gamekit import Game, canon  # noqa: F401  (the kits re-export them)

NAMES = ("Dan", "Runo", "Marucho", "Shun", "Julie", "Alice")


def player(i, g=(300, 300, 300), attrs=None, cards=None, abilities=None, name=None):
    """Player i: Bakugan "b<i><j>" of G g[j] (pyrus unless attrs given);
    cards "c<i><j>" from `cards`, a list of (pyrus bonus, hsp)."""
    baks = []
    for j in range(len(g)):
        baks.append({"id": "b%d%d" % (i, j), "attr": attrs[j] if attrs else "pyrus", "g": g[j]})
    gates = []
    for j in range(len(cards or ())):
        bonus, hsp = cards[j]
        gates.append({"id": "c%d%d" % (i, j), "bonus": {"pyrus": bonus}, "hsp": hsp})
    p = {"name": name or NAMES[i], "bakugan": baks, "gates": gates}
    if abilities is not None:
        p["abilities"] = abilities
    return p


def header(mode, players, first=0, sheet_kit=False, **extra):
    """A header; unless sheet_kit (or an explicit kit), with "kit" setting
    every count of the sheet's set to 0 (any), so a test of another rule
    can use small sets; the tests of the sheet's counts pass sheet_kit."""
    h = {"bakumat": "events", "version": 1, "mode": mode, "first": first, "players": players}
    if not sheet_kit and "kit" not in extra:
        import referee
        kit = {}
        for k in referee.load(mode).KIT:
            kit[k[0]] = 0
        h["kit"] = kit
    for k in extra:
        h[k] = extra[k]
    return h
