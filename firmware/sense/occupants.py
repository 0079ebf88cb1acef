"""Occupants: what stands on each zone (Bakugan that landed, unexplained
steady fields), where each Bakugan stands, and the early landings said
before their decision (docs/sensing-pipeline.md, "Early land").
Allocation only when something lands or leaves.
"""
from array import array


def dv(v):
    """A copy of the floats v in a double array: a list holds each float as
    a heap object of its own (kept by occupants for as long as they stand)."""
    a = array("d", bytearray(8 * len(v)))
    for j in range(len(v)):
        a[j] = v[j]
    return a


class Occupant:
    """Something standing on a zone: a Bakugan that landed (bid its id, None
    if nothing registered fitted) or an unexplained steady field, with its
    contribution to the zone's sensors."""

    def __init__(self, bid, contrib, landed, t=0):
        self.bid = bid
        self.contrib = dv(contrib)    # floats, one per zone channel (a copy, in a double array)
        self.landed = landed     # False: an unexplained steady field
        self.t = t               # when it landed
        self.learned = False     # its landing answered a register
        self.certain = False     # identified beyond doubt: may refine its signature
        self.under = None        # the zone's state before it came
        self.sig = 0.0
        self.cands = None        # who could have landed (the referee's, when it was decided):
        self.others = ()         # ... named again from the refined level (None: not again)
        self.meas = None         # its refined level (None: not refined)
        self.lone = False        # ... measured on an otherwise empty card
        self.asked = False       # the mat asked the thrower about it (`unsure`)
        self.told = False        # the players named it (an answer, a correction)


class Occupants:
    """Owns occ (zone index -> its occupants, in landing order), nocc (their
    number, read per frame), where (bakugan id -> zone index it stands on)
    and prov (zone index -> (bakugan guessed, candidates then) of an early
    land not decided yet)."""

    def __init__(self, p, nz):
        self.p = p
        self.occ = [[] for _ in range(nz)]
        self.nocc = bytearray(nz)
        self.where = {}
        self.prov = [None] * nz

    def set(self, zi, occ):
        self.occ[zi] = occ
        self.nocc[zi] = len(occ)

    def landed(self, zi):
        """True when a Bakugan stands on zone zi."""
        for o in self.occ[zi]:
            if o.landed:
                return True
        return False

    def bids(self, zi):
        return [o.bid for o in self.occ[zi] if o.landed]

    def standing(self, zi):
        return [(o.bid, o.sig) for o in self.occ[zi] if o.landed]

    def free(self, b, zi):
        """True when the mat does not see Bakugan b standing on a zone other than zi."""
        return self.where.get(b, zi) == zi

    def put(self, b, zi):
        if b is not None:
            self.where[b] = zi

    def unput(self, b, zi):
        """b no longer stands on zi (if the mat had it there)."""
        if b is not None and self.where.get(b) == zi:
            del self.where[b]

    def rename(self, zi, old, new):
        for o in self.occ[zi]:
            if o.landed and o.bid == old:
                o.bid = new
                o.certain = False
                o.told = True         # the players said: the game confirms it (Identifier.learn)
                self.p.idf.doubt.pop(old, None)   # (the one named first is in hand after all)
                o.cands = None        # ... and the refined level does not overrule them
                self.unput(old, zi)
                self.put(new, zi)
                return True
        return False

    def left(self, zi, o, t):
        """o left zone zi: `leave`."""
        if not o.landed:
            return
        self.p.idf.learn(o)
        self.unput(o.bid, zi)
        self.p._emit("leave", t, "zone", self.p.zone_ids[zi], "bakugan", o.bid)

    def unland(self, zi, t):
        """The field of an early `land` went before it settled (a ball that
        stopped for a moment and rolled on): `unland`, the landing is taken
        back."""
        pv = self.prov[zi]
        self.prov[zi] = None
        self.unput(pv[0], zi)
        self.p._emit("unland", t, "zone", self.p.zone_ids[zi], "bakugan", pv[0])
