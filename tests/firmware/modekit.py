"""Helpers for the hand-written mode games (tests/firmware/test_mode_*.py of
the official extras): header builders and a Game wrapper that records the
output events. Runs under CPython and MicroPython."""
import referee

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


class Game:
    def __init__(self, hdr):
        self.out = []
        self.g = referee.new_game(hdr, self.out.append)
        self.t = 0

    def ev(self, kind, **f):
        self.t += 100
        f["t"] = self.t
        f["ev"] = kind
        return self.g.feed(f)

    def gate(self, p, gate, zone):
        return self.ev("gate", player=p, gate=gate, zone=zone)

    def land(self, b, zone):
        return self.ev("land", bakugan=b, zone=zone)

    def miss(self, b):
        return self.ev("miss", bakugan=b)

    def ability(self, p, card):
        return self.ev("ability", player=p, card=card)

    def resolve(self):
        return self.ev("resolve")

    def choose(self, p, action, zone=None):
        if zone is None:
            return self.ev("choose", player=p, action=action)
        return self.ev("choose", player=p, action=action, zone=zone)

    def kinds(self):
        return [o[0] for o in self.out]

    def all(self, kind):
        res = []
        for o in self.out:
            if o[0] == kind:
                d = {}
                for k, v in o[2]:
                    d[k] = v
                res.append(d)
        return res

    def last(self, kind):
        a = self.all(kind)
        return a[-1] if a else None

    def reason(self):
        r = self.last("reject")
        return r["reason"] if r else ""

    def finish(self):
        self.g.finish(self.t)
        return self.last("end")


def canon(x):
    """Dicts as sorted item lists (MicroPython dict order differs)."""
    if type(x) is dict:
        return sorted([(repr(k), canon(x[k])) for k in x])
    if type(x) is list or type(x) is tuple:
        return [canon(v) for v in x]
    return x
