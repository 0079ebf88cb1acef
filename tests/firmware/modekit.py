"""Helpers for the hand-written mode games (tests/firmware/test_mode_*.py of
the official extras): header builders and a Game wrapper that records the
output events. Runs under CPython and MicroPython."""
from gamekit import Game, canon  # noqa: F401  (the kits re-export them)

ATTRS = ("pyrus", "aquos", "subterra", "haos", "darkus", "ventus")
NAMES = ("Dan", "Runo", "Marucho", "Shun")


def player(i, g=(450, 340, 360), attrs=None, n_gates=3, n_cards=3, name=None):
    """Player i: Bakugan "b<i><j>" with the given G, gates "g<i><j>" (bonus
    +10*(j+1) for pyrus, so all different), abilities "c<i><j>" (+j+1 G)."""
    baks = []
    for j in range(len(g)):
        baks.append({"id": "b%d%d" % (i, j), "attr": attrs[j] if attrs else "pyrus", "g": g[j]})
    gates = [{"id": "g%d%d" % (i, j), "bonus": {"haos": 10 * (j + 1)}} for j in range(n_gates)]
    cards = [{"id": "c%d%d" % (i, j), "effect": {"g": j + 1}} for j in range(n_cards)]
    return {"name": name or NAMES[i], "bakugan": baks, "gates": gates, "abilities": cards}


def header(mode, players, first=0, target=None):
    h = {"bakumat": "events", "version": 1, "mode": mode, "first": first, "players": players}
    if target is not None:
        h["target"] = target
    return h
