"""The decision steps (docs/sensing-pipeline.md, "Decisions"): a zone held
still for the dwell time in a new state; `settled` explains the change, in
this order: quiet (everything left), a Bakugan left, a partial drop (a
lift), settling, a new Bakugan, unexplained. Battles (sense.battles) and
identification (sense.identify) are asked along the way. Runs only when a
zone has settled: floats and allocation allowed.
"""
from array import array

from sense.occupants import Occupant, dv

_WAIT = 0      # _left_or_arrival: the zone waits (its window kept)
_GONE = 1      # ... the occupant left
_STAYS = 2     # ... it did not (a Bakugan of the other polarity arrived on it)
EDGE_MM = 0.3   # a fit this close to the grid's bound is on it
LEAK_MS = 2000  # a neighbour's Bakugan landed or left this recently: its field may still be settling here


class Decide:
    """Owns flt / flw (zone index -> when the window's level was first
    found still, in the window that started at flw)."""

    def __init__(self, p, nz):
        self.p = p
        self.flt = array("i", [-1] * nz)
        self.flw = array("i", [-1] * nz)
        self.moved = array("i", [-1 << 29] * nz)   # when a Bakugan last landed or left there
        self.side = None   # zone index -> its neighbours' (-x, +x, -y, +y), -1: none

    def settled(self, zi, t):
        """Zone zi has held still for the dwell time in a new state: explain it."""
        pl = self.p
        fr = pl.fr
        if pl.hl.railed(zi):
            fr.wact[zi] = 1
            return
        chs = pl.zch[zi]
        m = len(chs)
        bad = pl.hl.bad
        na = fr.nacc[zi]
        vec = fr.mean(zi)
        now = fr.recent(zi)     # the last few frames
        old = fr.state(zi)
        delta = [vec[j] - old[j] for j in range(m)]
        dsum = 0.0
        for j in range(m):
            if not bad[chs[j]]:
                dsum += abs(delta[j])
        occ = pl.oc.occ[zi]
        bt = pl.bt
        arrived = bt.arrived(zi, vec, old, na, t)
        # 1. Quiet: everything left, the field is back to the baseline.
        quiet = not arrived and fr.quiet(zi, now, 3) and fr.quiet(zi, fr.perp(zi, vec, old), na)
        if quiet:
            if bt.hold_leave(zi, t, True):
                return
            if bt.cancels(zi, [vec[j] - old[j] for j in range(m)], na, t):
                quiet = False
                arrived = True
        if quiet:
            self._all_left(zi, t, m)
            return
        # 2. The change is (mostly) one occupant's own field scaled by k:
        # k near -1 it left; -1 < k < 0 it is being lifted (wait: the rest
        # follows within a few frames; a state that holds is a Bakugan of
        # the other polarity arriving); k > 0 shortly after its landing it
        # is still settling.
        best, bk = self._explain(zi, occ, delta, dsum, na)
        shaped = best is not None
        gone = False
        if arrived:
            shaped = False
        if shaped and bk <= pl.params["leave_match"] - 1.0:
            # A leave that leaves a clear field behind may be a Bakugan of
            # the other polarity arriving: a lift's tail fades within
            # lift_ms, an arrival holds.
            gone = True
            if best.landed:
                r = self._left_or_arrival(zi, t, best, occ, now, old, delta, na)
                if r == _WAIT:
                    return
                if r == _STAYS:
                    gone = False
        if gone and best.landed:
            if bt.hold_leave(zi, t):
                return
            if bt.cancels(zi, delta, na, t):
                gone = False
                shaped = False
        if gone:
            self._one_left(zi, t, best, occ, vec, na)
            return
        par = pl.params
        if shaped and bk < 0.0 and best.landed and t - fr.wt0[zi] < par["lift_ms"]:
            # 3. A partial drop: a lift goes on, an arrival of the other
            # polarity holds.
            if bt.expected_arrival(zi, best):
                bt.mark(zi)
                # (falls through to 5.: the arrival's own field is the change)
            else:
                pl._wait(zi, "lift")
                fr.keep(zi, fr.wt0[zi] + par["lift_ms"])
                return
        if shaped and not best.landed and bk < 0.0:
            c = best.contrib
            for j in range(m):
                c[j] += delta[j]
            fr.set_state(zi, vec)
            return
        # 4. Settling: shortly after a landing, any change but a leave is the
        # same Bakugan finishing its move (no second one comes that fast).
        last = None
        for o in occ:
            if o.landed and t - o.t < par["settle_ms"]:
                last = o
        if last is not None:
            c = last.contrib
            for j in range(m):
                c[j] += delta[j]
            fr.set_state(zi, vec)
            fr.refine_from(zi, t, par["refine_ms"])
            return
        # 5. A new Bakugan: a field with a Bakugan's shape, identified.
        if self._new(zi, t, occ, vec, now, old, delta, na, shaped and bk < 0.0 and len(occ) > 1):
            return
        # 6. Unexplained (a field still coming, a knock, a closed ball at
        # the edge): wait; absorb it only once it has held for absorb_ms.
        self._unexplained(zi, t, occ, vec, old, delta)

    def _all_left(self, zi, t, m):
        pl = self.p
        oc = pl.oc
        self.moved[zi] = t
        for o in oc.occ[zi]:
            oc.left(zi, o, t)
        if oc.prov[zi] is not None:
            oc.unland(zi, t)
        oc.set(zi, [])
        pl.fr.rfn[zi] = 0
        pl.fr.set_state(zi, [0.0] * m)

    def _explain(self, zi, occ, delta, dsum, na):
        """(the occupant whose own field, scaled by k, the change is, k), or
        (None, 0.0)."""
        pl = self.p
        chs = pl.zch[zi]
        m = len(chs)
        bad = pl.hl.bad
        best = None
        bk = 0.0
        bkey = 0.0
        lim = pl.params["leave_match"] * dsum + pl.fr.tol_t[zi] / na
        for o in occ:
            cc = 0.0
            dc = 0.0
            for j in range(m):
                if not bad[chs[j]]:
                    cc += o.contrib[j] * o.contrib[j]
                    dc += delta[j] * o.contrib[j]
            if cc <= 0.0:
                continue
            k = dc / cc
            r = 0.0
            for j in range(m):
                if not bad[chs[j]]:
                    r += abs(delta[j] - k * o.contrib[j])
            if r > lim:
                continue
            # Fields of Bakugan on a card look alike (the plate spreads
            # them): an occupant fading (k < 0, the nearest to -1: the one
            # whose whole field went) explains a change before any growth.
            key = abs(k + 1.0) if k < 0.0 else 10.0 + r
            if best is None or key < bkey:
                best, bk, bkey = o, k, key
        return best, bk

    def _left_or_arrival(self, zi, t, best, occ, now, old, delta, na):
        """The landed occupant best's whole field went: _GONE, _STAYS (a
        Bakugan of the other polarity arrived on it) or _WAIT. What is left
        (the last frames) must be nothing, or a lift's tail: the Bakugan
        still a few cm above the card, a small same-sign share of its field
        that is gone within tail_ms. Anything that holds longer, or has
        another shape (a new magnet's bump), is an arrival."""
        pl = self.p
        fr = pl.fr
        par = pl.params
        m = len(delta)
        c = best.contrib
        rest = [now[j] - old[j] + c[j] for j in range(m)]
        perp = fr.perp(zi, [delta[j] + c[j] for j in range(m)], c)
        if fr.quiet(zi, rest, 3) and fr.quiet(zi, perp, na):
            return _GONE
        tail = False
        arrival = False
        ok_r = True
        if best.sig:
            lr, se_r, ok_r = pl.idf.level(zi, rest, 3)
            a = lr / best.sig
            if 0.0 <= a <= par["tail_share"]:
                tail = fr.quiet(zi, [rest[j] - a * c[j] for j in range(m)], 3)
            elif a < 0.0 and ok_r and len(occ) == 1:
                # a clear field of the other sign is left: no lift leaves
                # that, a Bakugan of the other polarity arrived on the
                # standing one
                arrival = True
        wait = par["tail_ms"] if tail else par["lift_ms"]
        if not tail and not arrival and (pl.stays is None or not pl.stays(pl.zone_ids[zi], best.bid)):
            # A lift the referee expects (it took the Bakugan off, or a
            # battle's pair is being cleared): a 300 ms lift leaves a tail
            # of another shape (tilted, shifted) for longer than lift_ms
            # (measured: 13 of 15 false landings in 80 games were such
            # tails).
            wait = par["residue_ms"]
        bt = pl.bt
        if not arrival and bt.expected_arrival(zi, best):
            arrival = True
            bt.mark(zi)
        if not arrival and not tail and not ok_r and pl.oc.prov[zi] is None:
            # What is left is no Bakugan's field on this card (its moment
            # under the range, or no level at all): the residue of the
            # lift (the Bakugan held tilted off the card's edge, a
            # neighbour's field), not an arrival, however long it holds.
            # Read as one, the change (minus the lifted one's own field) was
            # a Bakugan of the other polarity landing, and the lifted one
            # kept standing there (3 false landings and 3 missed in 16
            # development games: the Bakugan the mat still saw standing was
            # no candidate for its next throw). Not while an early land is
            # out on the zone: the window was read as an arrival, and an
            # arrival's field partly cancelling the standing one's leaves
            # an implausible rest too (the rule without this took a battle's
            # standing Bakugan off: 1 false and 1 missed landing in 16
            # development games).
            return _GONE
        if not arrival and t - fr.wt0[zi] < wait:
            pl._wait(zi, "tail" if tail else "residue")
            fr.keep(zi, t + fr.period_ms)
            return _WAIT
        # (a lesson is taught on an emptied card, never by a Bakugan
        # landing on a standing one: with a `register` pending, what is
        # left is the lifted one's residue)
        if arrival or zi not in pl.idf.pending:
            return _STAYS
        return _GONE

    def _one_left(self, zi, t, best, occ, vec, na):
        pl = self.p
        fr = pl.fr
        oc = pl.oc
        self.moved[zi] = t
        if oc.prov[zi] is not None:
            oc.unland(zi, t)
        occ.remove(best)
        oc.left(zi, best, t)
        fr.rfn[zi] = 0
        if not occ:
            # what is left of a field being lifted away: it fades (or is
            # dropped once the zone reads quiet, see Identifier.refined)
            occ.append(Occupant(None, vec, False))
            fr.set_state(zi, vec)
            fr.refine_from(zi, t, pl.params["refine_ms"])
        else:
            fr.set_state(zi, vec)
            r = occ[0]
            if len(occ) == 1 and r.landed:
                pl.bt.pair_left(zi, r, vec, na, t)
                fr.refine_from(zi, t, pl.params["refine_ms"])
        oc.nocc[zi] = len(occ)

    def _moving(self, zi, level, now, old, na):
        """True when the window's level (a change from the state old) is
        still rising or falling: the last frames (now) against the window's
        mean, and the window's slope."""
        idf = self.p.idf
        m = len(now)
        lnow, se1, ok1 = idf.along(zi, [now[j] - old[j] for j in range(m)], 1)
        sd = se1 * ((1.0 / 3.0 + 1.0 / na) ** 0.5)
        return abs(lnow - level) > self.p.params["trend_sigma"] * sd or self._sloped(zi, level, se1, na)

    def _sloped(self, zi, level, se1, na):
        """True when the window's level still climbs: the least-squares slope
        of the frames (per frame, from the time-weighted sums) is more than
        slope_sigma standard errors towards a larger |level| (a ball rolling
        to a stop and popping open reads a steady ramp, not a step)."""
        sig = self.p.params["slope_sigma"]
        if sig <= 0 or na < 3:
            return False
        ls, _, _ = self.p.idf.along(zi, self.p.fr.slope(zi, na), 1)
        if level < 0.0:
            ls = -ls
        return ls > sig * se1 * (12.0 / (na * (na * na - 1))) ** 0.5

    def _on_bound(self):
        """True when the last fit put the magnet on the edge of the card's
        grid (the search's bound)."""
        k = self.p.idf.kern
        x, y, h = self.p.idf.lastfit
        return x <= k.x0 + EDGE_MM or x >= k.x0 + (k.nx - 1) * k.step - EDGE_MM or \
            y <= k.y0 + EDGE_MM or y >= k.y0 + (k.ny - 1) * k.step - EDGE_MM

    def _residue_fading(self, zi, occ, t):
        """True when a Bakugan left zi within LEAK_MS, what it left behind
        (an unlanded occupant: the field of one still being lifted away)
        is still on the zone, and the change fits at the grid's bound: that
        residue fading as the Bakugan rises, not a Bakugan landing (family
        worlds: early lands at a corner of the grid right after a battle's
        pair was lifted)."""
        if t - self.moved[zi] >= LEAK_MS:
            return False
        for o in occ:
            if not o.landed:
                return self._on_bound()
        return False

    def _leak(self, zi, t):
        """True when the last fit put the magnet on the edge of the card's
        grid (the search's bound) while a neighbouring zone had a
        Bakugan land or leave within LEAK_MS, or is stirring with a larger
        change than this zone's: that one's field read by this zone's
        sensors (measured: such changes fit 10-20 mA m^2 at the bound, the
        Bakugan range is 15-40), not a Bakugan on this card. (A Bakugan 6 mm
        inside its card's edge, on amr2 in mu300-t0.2: its own zone's
        change 670,000 counts^2, the neighbour's 18,000, fitted at the
        neighbour's bound; the neighbour settled first in 1 of 3 landings
        there and took it.)"""
        p = self.p
        k = p.idf.kern
        if self.side is None:
            self.side = self._sides(p.rects)
        sides = self.side[zi]
        fr = p.fr
        if not self._on_bound():
            return False
        # any neighbour, not only the one the bound faces: a Bakugan rolling
        # off a diagonal or leaving a side card pulls the fit to whichever
        # bound is nearest its field (family worlds: false landings fitted at
        # the bound facing away from the neighbour that just moved)
        for n in sides:
            if n < 0:
                continue
            if t - self.moved[n] < LEAK_MS:
                return True
            if (fr.wact[n] or fr.burst[n]) and self._energy(n) > k.last[5]:
                return True
        return False

    def _energy(self, zi):
        """The sum of squares of zone zi's change from its steady state in
        the last frame (its usable channels)."""
        p = self.p
        fr = p.fr
        chs = p.zch[zi]
        bad = p.hl.bad
        dev = fr.dev
        st = fr.state(zi)
        e = 0.0
        for j in range(len(chs)):
            c = chs[j]
            if not bad[c]:
                d = dev[c] - st[j]
                e += d * d
        return e

    def _sides(self, rects):
        """Each zone's neighbours to -x, +x, -y, +y (-1: none)."""
        out = []
        for r in rects:
            cx = r[0] + r[2] / 2.0
            cy = r[1] + r[3] / 2.0
            sides = []
            for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                px = cx + dx * r[2]
                py = cy + dy * r[3]
                hit = -1
                for j in range(len(rects)):
                    q = rects[j]
                    if abs(q[0] + q[2] / 2.0 - px) < q[2] / 2.0 and abs(q[1] + q[3] / 2.0 - py) < q[3] / 2.0:
                        hit = j
                sides.append(hit)
            out.append(sides)
        return out

    def _fading(self, zi, occ, delta, na):
        """True when the change delta is -k1 c1 - k2 c2 (c: the two
        occupants' own fields, 0 <= k <= 1.2, one of them at least 0.2)
        and what is left is within the noise or no Bakugan's field (its
        fit implausible): both going."""
        chs = self.p.zch[zi]
        bad = self.p.hl.bad
        c1 = occ[0].contrib
        c2 = occ[1].contrib
        a11 = a12 = a22 = b1 = b2 = 0.0
        for j in range(len(chs)):
            if not bad[chs[j]]:
                a11 += c1[j] * c1[j]
                a12 += c1[j] * c2[j]
                a22 += c2[j] * c2[j]
                b1 += c1[j] * delta[j]
                b2 += c2[j] * delta[j]
        det = a11 * a22 - a12 * a12
        if det <= 1e-9 * (a11 * a22 + 1e-30):
            return False
        k1 = -(a22 * b1 - a12 * b2) / det
        k2 = -(a11 * b2 - a12 * b1) / det
        if not (-0.1 <= k1 <= 1.2 and -0.1 <= k2 <= 1.2 and (k1 >= 0.2 or k2 >= 0.2)):
            return False
        rest = [delta[j] + k1 * c1[j] + k2 * c2[j] for j in range(len(chs))]
        if self.p.fr.quiet(zi, rest, na):
            return True
        # what is left is no Bakugan on the card (a lift's tail: a magnet a
        # few cm up fits a moment under the Bakugan range): still going
        return not self.p.idf.level(zi, rest, na)[2]

    def _new(self, zi, t, occ, vec, now, old, delta, na, lifting):
        """5. A new Bakugan: True when decided or waiting (the zone keeps
        its window), False when the field is not one (unexplained).
        lifting: one of a battle's two may be being lifted (no early land)."""
        pl = self.p
        fr = pl.fr
        idf = pl.idf
        oc = pl.oc
        p = pl.params
        if occ and fr.quiet(zi, now, 3):
            # The zone reads empty now, yet had occupants: they left (a
            # battle's pair lifted one after the other: the window's mean
            # still holds the second's field, so the change reads as a
            # Bakugan). A Bakugan that landed would read: two magnets
            # cancel on two three-axis sensors only at the same place.
            # The window starts again from this empty frame: kept, its
            # mean goes on holding the fields that left, and a noisy frame
            # later let it be decided as a landing of their sum (family
            # worlds: 3 of 11 false landings in 16 development games).
            pl._wait(zi, "leave")
            pl.bt.restart(zi, t)
            return True
        if len(occ) == 2 and t - fr.wt0[zi] < p["residue_ms"] and \
                self._fading(zi, occ, delta, na):
            # Both of a battle's pair fading at once (lifted one after the
            # other): the change is minus a share of each one's own field.
            # A third Bakugan never lands on a pair, and its field (another
            # place) would not lie in the span of theirs on six channels.
            pl._wait(zi, "lift")
            fr.keep(zi, t + fr.period_ms)
            return True
        level, se, ok = idf.level(zi, delta, na)
        if not ok and self._clipped_arrival(zi, occ, level, se):
            # A Bakugan landed on the one standing here, over a channel that
            # one already drives to its rail: the fit without that channel
            # reads a moment far beyond any Bakugan's (85-90 mA m^2 for one
            # of 33 at the other's spot), and read as unexplained the field
            # was absorbed after absorb_ms, a landing missed (1 in 16
            # development games; the referee then expected the other player
            # and refused the next throws). Its level says only its
            # polarity: decided among the candidates of that sign as if
            # unread, so the mat asks when there are two.
            level = idf.mhi if level > 0.0 else -idf.mhi
            se = idf.mhi
            ok = True
        if ok and self._residue_fading(zi, occ, t):
            pl._wait(zi, "residue")
            fr.keep(zi, t + fr.period_ms)
            return True
        wt0 = fr.wt0[zi]
        if ok and na >= 3 and t - fr.tw0[zi] < p["trend_max_ms"]:
            # still rising or falling? (the last frames against the window)
            if self._moving(zi, level, now, old, na):
                # a window that began while the Bakugan was still opening
                # keeps those frames in its mean: start it again from this
                # frame (the dwell applies again)
                fade = False
                if not lifting:
                    for o in occ:
                        if o.landed and o.sig * level < 0.0 and not pl.bt.expected_arrival(zi, o):
                            fade = True
                            break
                if not lifting and not fade and not self._leak(zi, t):
                    # ... but a level that already is a candidate's (early_z)
                    # is a Bakugan landed, whatever it still creeps by: the
                    # early land need not wait for the new window (seen:
                    # 11 of 15 landings later than 60 ms in 16 development
                    # games, restarted by a level still moving 0.2-3 %; the
                    # decision after it still waits for a still level).
                    # Not for a change of the other sign than a Bakugan
                    # standing there, unless the referee keeps that one and
                    # expects a throw that could cancel it (`expected_arrival`):
                    # still moving, it is that one's field fading as it is
                    # lifted (seen: 5 early lands more taken back with
                    # `unland`, every one a lift the referee did not keep
                    # standing; the 3 battles had it kept).
                    idf.early(zi, level, se, t)
                pl._wait(zi, "trend")
                pl.bt.restart(zi, t)
                return True
        if ok and self._leak(zi, t):
            return False
        if ok and not lifting:
            idf.early(zi, level, se, t)
        if ok and zi in idf.pending and t - wt0 < p["lesson_ms"]:
            # A lesson is the Bakugan's signature for the whole game: its
            # level must hold still for lesson_ms first (a Bakugan being put
            # down reads a creeping level that the trend checks let through,
            # and the refinement after it can be cut short).
            pl._wait(zi, "lesson")
            fr.keep(zi, wt0 + p["lesson_ms"])
            return True
        if not ok:
            return False
        # The identity wait counts from when the level stopped moving, so
        # a forced decision never reads a Bakugan still opening.
        flw = self.flw
        flt = self.flt
        if flw[zi] != wt0 or flt[zi] < 0:
            flw[zi] = wt0
            flt[zi] = t
        force = t - flt[zi] >= p["max_wait_ms"]
        pv = oc.prov[zi]
        if pv is not None and pv[0] is not None and oc.where.get(pv[0]) == zi:
            del oc.where[pv[0]]   # the guess is a candidate again
        idf.lastalt = None
        got = idf.identify(zi, level, se, force, t, pv[1] if pv is not None else None)
        decided = got is not None
        if decided and force and got[0] in idf.sigs and not got[1] and \
                idf.lastz > (p["match_z"] if pl.bt.cw[zi] == wt0 else p["force_z"]):
            # Decided by the clock, yet no one who may land has this level
            # (a battle's pair lifted one after the other leaves a fading
            # tail in the window's mean): not a landing, the field is
            # unexplained (6.). A field that went away read as a cancelling
            # arrival (`cw`) must match as closely as an undisturbed
            # decision (match_z): a lift whose level is near an expected
            # one's was taken for it (measured: such arrivals of 200 games
            # matched within 3.5, 5 of the 14 lifts were 4.8-9 away).
            pl._wait(zi, "mismatch")
            decided = False
        if not decided and pv is not None and pv[0] is not None:
            oc.where[pv[0]] = zi
        if got is None:
            pl._wait(zi, "identity")
            # keep averaging, decide on a later frame
            fr.keep(zi, t + fr.period_ms)
            return True
        if not decided:
            return False
        self._landed(zi, t, got, level, se, na, occ, vec, old, delta)
        return True

    def _clipped_arrival(self, zi, occ, level, se):
        """True when the change on zi, whose kernel fit is no Bakugan's,
        is one landing on the zone's only Bakugan over a channel clipped
        now: a moment beyond the plausible range (idf.bounds),
        min_level_sigma standard errors clear, while the referee expects a
        throw."""
        pl = self.p
        idf = pl.idf
        if pl.context is None or len(occ) != 1 or not occ[0].landed or \
                zi in idf.pending:
            return False
        par = pl.params
        a = abs(level)
        if a <= idf.bounds(zi)[1] or a < par["min_level_sigma"] * se:
            return False
        hl = pl.hl
        for c in pl.zch[zi]:
            if not hl.bad[c] and hl.clipped(c):
                return bool(pl.context())
        return False

    def _landed(self, zi, t, got, level, se, na, occ, vec, old, delta):
        """A Bakugan landed on zi (got: identify's answer): it stands there,
        and the events say so (`land`, or `ident` when an early land guessed
        another; `unsure` with the runner-up when it was not sure)."""
        pl = self.p
        fr = pl.fr
        idf = pl.idf
        oc = pl.oc
        bid, learned, certain = got
        self.moved[zi] = t
        o = Occupant(bid, delta, True, t)
        o.learned = learned
        o.certain = certain
        o.sig = level
        if not learned:
            o.cands = idf.lastcands
            o.others = idf.lastothers
        o.under = dv(old)
        occ.append(o)
        oc.nocc[zi] = len(occ)
        fr.set_state(zi, vec)
        fr.refine_from(zi, t, pl.params["refine_ms"])
        oc.put(bid, zi)
        pl.last_decision = (pl.zone_ids[zi], level, se, na)
        zone = pl.zone_ids[zi]
        pv = oc.prov[zi]
        if pv is not None:
            oc.prov[zi] = None
            if pv[0] != bid:
                oc.unput(pv[0], zi)
                pl._emit("ident", t, "zone", zone, "bakugan", bid)
        else:
            ev = {"ev": "land", "t": t, "zone": zone, "bakugan": bid}
            if learned:
                ev["learned"] = True
                alike = idf.alike(bid, level)
                if alike:
                    ev["alike"] = alike
            if pl.sink is not None:
                pl.sink(ev)
        if pl.on_named is not None and not learned:
            pl.on_named(zone, bid, idf.lastp)
        alt = idf.lastalt
        if alt is not None and bid is not None and not learned:
            # the players can tell: the table asks the thrower
            ev = {"ev": "unsure", "t": t, "zone": zone, "bakugan": bid, "alt": alt}
            if pl.sink is not None:
                pl.sink(ev)

    def _unexplained(self, zi, t, occ, vec, old, delta):
        pl = self.p
        fr = pl.fr
        oc = pl.oc
        wt0 = fr.wt0[zi]
        absorb = pl.params["absorb_ms"]
        if t - wt0 < absorb:
            pl._wait(zi, "unexplained")
            fr.keep(zi, wt0 + absorb)
            return
        pv = oc.prov[zi]
        if pv is not None:
            # it was said to have landed: it stands there, as guessed
            oc.prov[zi] = None
            o = Occupant(pv[0], delta, True, t)
            o.under = dv(old)
            occ.append(o)
            oc.nocc[zi] = len(occ)
        elif len(occ) == 1:
            c = occ[0].contrib
            for j in range(len(delta)):
                c[j] += delta[j]
        else:
            occ.append(Occupant(None, delta, False))
            oc.nocc[zi] = len(occ)
        fr.set_state(zi, vec)

