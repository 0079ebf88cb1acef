"""The Game wrapper shared by the hand-written referee games (official rules,
official extras, variant modes): feeds input events with a rising clock and
records the output events. Runs under CPython and MicroPython."""
import referee


def canon(x):
    """Dicts as sorted item lists (MicroPython dict order differs), so two
    states compare equal whatever order their dicts were built in."""
    if type(x) is dict:
        return sorted([(repr(k), canon(x[k])) for k in x])
    if type(x) is list or type(x) is tuple:
        return [canon(v) for v in x]
    return x


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
        return r["reason"] if r else ""

    def finish(self):
        self.g.finish(self.t)
        return self.last("end")

    def state(self):
        return canon(self.g._save())
