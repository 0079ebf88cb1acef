"""Helpers for the hand-written games of the Chinese variant modes
(tests/firmware/test_mode_<mode>.py): header builders and a Game wrapper
recording the output events. Runs under CPython and MicroPython."""
import referee

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


def header(mode, players, first=0, **extra):
    h = {"bakumat": "events", "version": 1, "mode": mode, "first": first, "players": players}
    for k in extra:
        h[k] = extra[k]
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

    def pick(self, p, b):
        return self.ev("pick", player=p, bakugan=b)

    def pass_(self, p):
        return self.ev("pass", player=p)

    def item(self, p, card):
        return self.ev("item", player=p, card=card)

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
        return r["reason"] if r else None

    def finish(self):
        self.g.finish(self.t)
        return self.last("end")

    def state(self):
        return canon(self.g._save())


def canon(x):
    if type(x) is dict:
        return sorted([(repr(k), canon(x[k])) for k in x])
    if type(x) is list or type(x) is tuple:
        return [canon(v) for v in x]
    return x
