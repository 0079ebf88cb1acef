"""Battles (docs/sensing-pipeline.md, "Decisions" 1 and 2): a second
Bakugan on a zone, of the other polarity, whose field cancels the standing
one's. Its first frames look like the standing one being lifted, so the
decision asks here: did one arrive (the field changed sign; the referee
keeps the standing one and expects a throw that has the arrival's level)?
must a leave hold first (one that could cancel it may be on its way)? and
when one of a battle's pair went, the other's field is its own.
Runs only when a zone has settled (and `window_again` when a window starts
again: integers, nothing allocated).
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from sense.occupants import dv

_CW_CARRY_MS = const(150)   # an arrival window started again this soon is still it (seen: 100 ms)


class Battles:
    """Owns cw (zone index -> the window taken as a cancelling arrival), lh
    (-> the window started again by the leave hold) and plv (-> when one of
    a pair went, one left standing)."""

    def __init__(self, p, nz):
        self.p = p
        self.cw = [-1] * nz
        self.lh = [-1] * nz
        self.plv = [-1 << 29] * nz

    def window_again(self, zi, wt0, t):
        """Zone zi's window (begun at wt0) starts again at t because the field
        moved: an arrival on the standing one whose ball now pops open is
        still that arrival (the early land fed meanwhile started the battle,
        so the referee's picture can no longer say so)."""
        if self.cw[zi] == wt0 and t - wt0 <= _CW_CARRY_MS:
            self.cw[zi] = t

    def restart(self, zi, t):
        """Start zone zi's window again at t (an arrival window stays one)."""
        fr = self.p.fr
        if self.cw[zi] == fr.wt0[zi]:
            self.cw[zi] = t
        fr.restart(zi, t)

    def mark(self, zi):
        """This window is an arrival on the standing one (an early land may follow)."""
        self.cw[zi] = self.p.fr.wt0[zi]

    def arrived(self, zi, vec, old, na, t):
        """True when the window (mean vec, on the state old) is a Bakugan of
        the other polarity that arrived on the zone's only one. A lone
        Bakugan's field never changes sign as it is lifted (what a lift
        leaves for a moment has its sign): a clear field of the other sign
        over the whole window is an arrival, however much of the standing
        one's field it cancels (the decision's checks read near-cancellation
        as a lift). Not while the other of a battle's pair has just gone
        (_pair_going): the one left is being lifted too, and held tilted
        over the card its field reads the other sign for a moment (seen: 2
        of 16 development games, the second lift of a battle's end read as
        a Bakugan of the other polarity landing; the referee, thinking it
        thrown, then expected the other player and named the next throws
        among that player's Bakugan).) Nor on a lesson (`learned`): nobody
        throws onto a Bakugan being taught, and its lift's change, minus its
        own field, can be the level of a Bakugan of the other polarity
        (seen: 2 false landings in development game 3's registration with
        the lessons in the card's middle)."""
        p = self.p
        idf = p.idf
        occ = p.oc.occ[zi]
        m = len(vec)
        par = p.params
        arrived = False
        if len(occ) == 1 and occ[0].landed and occ[0].sig and not occ[0].learned and p.context is not None and \
                zi not in idf.pending and not self._pair_going(zi):
            lv, se_v, ok_v = idf.level(zi, vec, na)
            # (beyond what a baseline that drifted leaves: half a noise
            # unit; and only when a Bakugan the referee expects has the
            # arrival's level: a lone Bakugan lifted and held tilted above
            # its card can read the other sign for a moment)
            if lv * occ[0].sig < 0.0 and abs(lv) >= 0.5 * p.fr.unit + par["min_level_sigma"] * se_v:
                cands = p.context()
                if cands:
                    la, se_a, ok_a = idf.level(zi, [vec[j] - old[j] for j in range(m)], na)
                    arrived = ok_a and idf.names_learnt(zi, la, se_a, t, cands) is not None
        if not arrived and len(occ) == 1 and self.cw[zi] == p.fr.wt0[zi]:
            # this window was taken as an arrival on the standing one on an
            # earlier frame (an early land may be out): it stays one
            arrived = True
        return arrived

    def hold_leave(self, zi, t, both=False):
        """True (and the zone keeps its window) while the leave of a zone's
        only Bakugan has not held for leave_hold_ms: a second Bakugan of the
        other polarity rolling to a stop on the card can cancel the
        occupant's field for a few frames before it opens (a battle, not a
        lift). both: the zone reads empty; with two of opposite polarity
        standing, that must hold too."""
        pl = self.p
        fr = pl.fr
        k = 0
        sig = 0.0
        pair = False
        for o in pl.oc.occ[zi]:
            if o.landed:
                k += 1
                if sig * o.sig < 0.0:
                    pair = True
                sig = o.sig
        # Both taken to be gone, two of opposite polarity: while one is
        # lifted, the zone's field passes through zero (the sum of the two)
        # on its way to the other one's own: quiet for a few frames is not
        # both gone (seen: 2 false landings in 200 games, the one left read
        # as landing again). Otherwise only a lone Bakugan's leave holds.
        if not (k == 2 and pair and both):
            if k != 1 or not sig or pl.context is None:
                return False   # (two stand: the battle is on, no third comes)
        p = pl.params
        wt0 = fr.wt0[zi]
        if self.lh[zi] == wt0:
            # the window was started again (below): the leave is judged on
            # its still frames once it has leave_quiet_ms of them
            if t >= wt0 + p["leave_quiet_ms"]:
                return False
            pl._wait(zi, "leave")
            fr.keep(zi, wt0 + p["leave_quiet_ms"])
            return True
        # Only when a Bakugan that may land now could cancel it: a learnt
        # level of the other sign, at least half as strong (a stronger one
        # too: its field passes through zero on the way in) (otherwise the
        # leave is taken at once, and the baselines are set again on the
        # empty card before anything they drifted by looks like a field).
        if not pair and not self._could_cancel(zi, sig, False):
            return False
        h = wt0 + p["leave_hold_ms"]
        if t >= h:
            # The window's mean still holds the frames of the field going
            # (or of a ball rolling in): start it again and judge the leave
            # on still frames alone. Two Bakugan of opposite polarity leave
            # a residue of a few counts that 3 frames do not tell from noise
            # but leave_quiet_ms of frames do (measured: 6 of 7 missed
            # battle landings in 40 games were this).
            self.restart(zi, t)
            self.lh[zi] = t
            pl._wait(zi, "leave")
            fr.hold[zi] = t + p["leave_quiet_ms"]
            return True
        pl._wait(zi, "leave")
        fr.keep(zi, h)
        return True

    def expected_arrival(self, zi, o):
        """True when a field fading on zi's only Bakugan o is better read as
        a Bakugan of the other polarity landing on it than as o being
        lifted: the referee keeps o there and expects a throw from someone
        with a learnt level of the other sign, at least half as strong.
        Then the lift and residue waits are skipped (battles were most of
        the latency tail: p95 302 ms against 74 ms on empty cards); if it
        was a lift after all, the early land is taken back (`unland`)."""
        pl = self.p
        if pl.stays is None or pl.context is None or zi in pl.idf.pending or self._pair_going(zi):
            return False
        occ = pl.oc.occ[zi]
        if len(occ) != 1 or occ[0] is not o or not o.landed or not o.sig or o.bid is None:
            return False
        if not pl.stays(pl.zone_ids[zi], o.bid):
            return False
        return self._could_cancel(zi, o.sig, True)

    def _pair_going(self, zi):
        # One of a battle's pair went less than pair_ms before this window:
        # the field of the other fading is it being lifted too, not a throw
        # cancelling it (no throw comes that fast; the mat's referee, wrong
        # since an earlier name, may still keep it there and expect one of
        # the other polarity. Seen: 5 of 13 false landings in 200 games,
        # most named as the one lifted just before.)
        return self.p.fr.wt0[zi] - self.plv[zi] < self.p.params["pair_ms"]

    def _could_cancel(self, zi, sig, free):
        """A Bakugan the referee expects has a learnt level of the other
        sign than sig, at least half as strong (free: and the mat does not
        see it standing on another zone)."""
        pl = self.p
        sigs = pl.idf.sigs
        oc = pl.oc
        for b in pl.context() or ():
            s = sigs.get(b)
            if s is not None and s * sig < 0.0 and 2.0 * abs(s) >= abs(sig) and \
                    (not free or oc.free(b, zi)):
                return True
        return False

    def cancels(self, zi, delta, na, t):
        """True when the field of the zone's only Bakugan went (the zone
        reads quiet after the leave hold) but the referee still has it
        standing there, and the change has the level of a Bakugan the
        referee expects: one of the other polarity landed on it and its
        field cancels the standing one's. Two such magnets at the same spot
        leave too little to tell from a lift (the plate spreads both fields
        alike), so the referee's picture decides: a Bakugan it took off the
        field (a lost battle, a captured gate) is lifted; one it keeps is
        not, at the moment a throw is expected (measured: every missed
        landing left in 40 games was such a battle)."""
        pl = self.p
        fr = pl.fr
        idf = pl.idf
        occ = pl.oc.occ[zi]
        if len(occ) != 1 or pl.stays is None or pl.context is None or zi in idf.pending or \
                self._pair_going(zi):
            return False
        o = occ[0]
        if not o.landed or not o.sig or o.bid is None or self.lh[zi] != fr.wt0[zi]:
            return False      # (the leave hold was applied: a candidate could cancel it)
        if self.cw[zi] == fr.wt0[zi]:
            return True       # taken as an arrival on an earlier frame of this window
        if not pl.stays(pl.zone_ids[zi], o.bid):
            return False
        cands = pl.context()
        if not cands:
            return False
        la, se_a, ok_a = idf.level(zi, delta, na)
        if not ok_a or la * o.sig >= 0.0:
            return False
        b = idf.names_learnt(zi, la, se_a, t, cands)
        if b is not None and b != o.bid:
            # (the early land that follows starts a battle: the referee no
            # longer keeps the standing one, the window remembers instead)
            self.mark(zi)
            return True
        return False

    def pair_left(self, zi, r, vec, na, t):
        """One of a battle's pair left; r stands alone and the zone reads vec.
        The field left is r's own: its share was measured on top of the
        first one's, with that one's error in it, and its lift must match
        it (seen: -34.5 taken for a field of -28; the lift's +28 was read as
        a Bakugan of +22.6 landing). For pair_ms, r's field fading is a
        lift (_pair_going)."""
        self.plv[zi] = t
        r.contrib = dv(vec)
        r.under = dv([0.0] * len(vec))
        r.cands = None      # (battle over: not one to rename)
        lv, se_v, ok_v = self.p.idf.level(zi, vec, na)
        if ok_v and lv * r.sig > 0.0:
            r.sig = lv
