"""Identification (docs/sensing-pipeline.md, "Identification", "Early
land", "Asking when unsure"): a field's level (its kernel fit's moment, the
Bakugan's signature), who among the candidates it names, the early land's
guess, the lessons of `register`, and the refinement of each landing over
the frames that follow it (named again from the refined level). Runs only
when a zone has settled or a landing's refinement ends; the fit is
sense.fit, the naming maths sense.signature.
"""

from sense import signature
from sense.occupants import dv


class Identifier:
    """Owns sigs (bakugan id -> learnt signed level), pending (zone index ->
    the bakugan id a `register` will teach there), the kernel fit (kern)
    and what the last identification found (last*)."""

    def __init__(self, p, board):
        self.p = p
        # The board's kernel table (docs/formats/kernel-table-v1.md): the
        # model fit (sense.fit) of a zone's change gives the signature
        # (the fitted moment). The firmware has no other detector: a board
        # without a table (the retired Hall mats, hardware/retired.md) is
        # refused here, naming the field.
        kt = board.get("kernels")
        if not kt:
            raise ValueError("board %r has no kernel table (\"kernels\"): the mat senses with the kernel fit "
                             "only; deploy the board again (bakumat deploy) to build it" % (board.get("name"),))
        nch = len(p.zch[0])
        for chs in p.zch:
            if len(chs) != nch:
                raise ValueError("kernel table: zones with %d and %d channels" % (nch, len(chs)))
        from sense.fit import Kernels
        self.kern = Kernels(kt, nch, 1.0 / (1 << p.ish))
        mr = kt.get("moment_range") or (1.0, 100.0)
        self.mlo = float(mr[0])
        self.mhi = float(mr[1])
        self.use = bytearray(nch)
        self.lastfit = None   # (x, y, h) of the last fit, mm
        self.fitz = -1        # ... of this zone index
        # the posterior a name needs to be decided at once and not asked
        # about: where the board's reliability table stops being right often
        # enough (docs/sensing-pipeline.md)
        self.dp = p.params["fit_decide_p"]
        self.sigs = {}
        # bakugan id -> how many landings its signature averages (lessons,
        # and the landings the game confirmed; 1 for one taught from the store)
        self.nsig = {}
        self.asked = {}          # zone index -> its last decision sent `unsure`: how unsure (1 - posterior)
        # bakugan id -> the chance that it is still in hand although the
        # referee has it used: the mat named it, asked, and nobody answered
        # (the thrower's Bakugan named instead may be the one that is used).
        # A later landing gives it that prior instead of other_prior.
        self.doubt = {}
        self.lesson0 = {}        # bakugan id -> (signature, count) before the lesson under way
        self.pending = {}
        self.lastz = 0.0         # z score of the last identification
        self.lastp = 0.0         # ... the posterior of the one it named
        self.lastalt = None      # ... its runner-up when it was decided unsure
        self.lastcands = None    # ... the candidates it was among
        self.lastothers = ()

    def level(self, zi, vec, nframes):
        """(level, standard error, plausible) of the field vec (a change of
        the zone's state, averaged over nframes frames): its kernel fit."""
        return self._fitted(zi, vec, nframes, self.p.fr.noise, self.p.params)

    def _fitted(self, zi, vec, nframes, noise, par):
        """(moment, standard error, plausible) of the kernel fit of the
        zone's change vec: plausible when the moment is min_level_sigma
        standard errors from nothing and within bounds(zi)."""
        chs = self.p.zch[zi]
        hl = self.p.hl
        use = self.use
        n = 0
        dead = False
        for j in range(len(chs)):
            c = chs[j]
            use[j] = 0 if (hl.bad[c] or hl.clipped(c)) else 1
            n += use[j]
            if hl.bad[c]:
                dead = True
        if n < 4:
            return 0.0, 1.0, False
        m, x, y, h, g, vv, var = self.kern.fit(vec, use)
        self.lastfit = (x, y, h)
        self.fitz = zi
        se = noise * (var / nframes) ** 0.5
        a = abs(m)
        if dead and self.kern.upright and se < par["fit_upright_rel"] * a:
            se = par["fit_upright_rel"] * a
        lo, hi = self.bounds(zi)
        ok = a >= par["min_level_sigma"] * se and lo <= a <= hi
        return m, se, ok

    def bounds(self, zi):
        """(lowest, highest) moment a Bakugan landing on zi may fit (kernel
        boards): the table's moment_range, widened to the weakest and the
        strongest signature learnt so far (a real Bakugan's magnet is not
        known: the family's draw 10-70 mA m^2 against the table's 15-40),
        then by fit_moment_slack (a magnet a few mm up or tilted fits
        weaker, a plate that lets more through reads stronger). A lesson
        (a Bakugan of unknown strength) by lesson_moment_slack: its fit is
        what the game will know it by. (Measured on 16 development games
        of the family on amr2: a third of the missed landings fitted above
        the table's top times 1.5; widened to the learnt signatures,
        recall 0.79 -> 0.97.)"""
        par = self.p.params
        lo = self.mlo
        hi = self.mhi
        for b in self.sigs:
            a = abs(self.sigs[b])
            if a < lo:
                lo = a
            if a > hi:
                hi = a
        k = par["lesson_moment_slack"] if zi in self.pending else par["fit_moment_slack"]
        return lo / k, hi * k

    def along(self, zi, vec, nframes):
        """(level, standard error, plausible) of vec measured along the
        zone's last fitted field (its shape per unit moment): a linear
        reading of the frames around a fit (is the level still moving, the
        window's slope) without fitting them again. Without a fit of this
        zone yet: level()."""
        if self.fitz != zi:
            return self.level(zi, vec, nframes)
        sh = self.kern.shape
        use = self.use
        sv = 0.0
        ss = 0.0
        for j in range(len(sh)):
            if use[j]:
                sv += sh[j] * vec[j]
                ss += sh[j] * sh[j]
        if ss <= 0.0:
            return 0.0, 1.0, False
        lv = sv / ss
        se = self.p.fr.noise / (ss * nframes) ** 0.5
        return lv, se, abs(lv) >= self.p.params["min_level_sigma"] * se

    def spread(self):
        """(rel, tail, trel) of signature.loglik for the kernel fit's moment
        (fit_rel_spread, fit_tail, fit_tail_rel)."""
        p = self.p.params
        return p["fit_rel_spread"], p["fit_tail"], p["fit_tail_rel"]

    def post(self, level, se, cands, others=(), second=None):
        """signature.posterior of level among cands (+ others at other_prior)
        with this board's spread and the signatures' counts."""
        rel, tail, trel = self.spread()
        return signature.posterior(level, se, cands, self.sigs, rel, others, self.p.params["other_prior"],
                                   self.nsig, tail, trel, second, self.doubt)

    def runner_up(self, level, se, b, cands, second):
        """Who the thrower is asked about besides b: the most likely other
        one among the referee's candidates (a binary question; the players
        can answer the one the referee expects, measured: the most likely
        one of any, the doubted included, left more of the alike world's
        questions unanswerable: 0.61 right after them against 0.69), else
        second (the runner-up of all), None when it has no signature."""
        rest = [c for c in cands if c != b and c in self.sigs] if cands else None
        if rest:
            return self.post(level, se, rest)[0]
        return second if second is not None and second in self.sigs else None

    def learn(self, o):
        """A landing the game confirmed (o left, named without a question or
        as the players answered): its refined level refines the Bakugan's
        signature (a running mean over up to learn_max landings, so that a
        lesson's own error fades and the signature follows the Bakugan as
        the game reads it). Only a landing on an empty card (a battle's
        second reads its field against the first one's), a level within
        learn_rel of the signature and of its sign."""
        b = o.bid
        m = o.meas
        if o.told or not o.asked:
            self.doubt.pop(b, None)     # (it was this one: not in hand)
        if b is None or o.learned or m is None or not o.lone or (o.asked and not o.told):
            return
        s = self.sigs.get(b)
        p = self.p.params
        if s is None or (m > 0.0) != (s > 0.0) or abs(m - s) > p["learn_rel"] * abs(s):
            return
        n = self.nsig.get(b, 1)
        k = n if n < p["learn_max"] else p["learn_max"]
        self.sigs[b] = s + (m - s) / (k + 1)
        self.nsig[b] = n + 1

    def alike(self, bid, level):
        """Registered Bakugan the mat cannot tell from bid by its magnet: a
        landing of bid reading exactly level, with the other one also
        allowed to land, would be named with a posterior under the board's
        decision threshold (so the mat would ask which one it was)."""
        out = []
        for b in self.sigs:
            s = self.sigs[b]
            if b != bid and (s > 0.0) == (level > 0.0) and self.post(level, 0.0, (bid, b))[1] < self.dp:
                out.append(b)
        return out

    def identify(self, zi, level, se, force, t, cands=None, guess=False):
        """(bakugan id, learned?, certain?) for a Bakugan of signature level
        (standard error se) landing on zi, or None to wait for more frames:
        two candidates are still plausible, or none matches yet (a Bakugan
        still coming down), and max_wait_ms has not passed. guess: the early
        land's best guess, among the referee's candidates only (one it does
        not expect needs the settled level to win)."""
        pl = self.p
        bid = self.pending.pop(zi, None)
        if bid is not None:
            # another lesson of a Bakugan taught before: averaged with what
            # the mat knew (refined() sets the mean once the lesson is refined)
            if bid in self.sigs and bid not in self.lesson0:
                self.lesson0[bid] = (self.sigs[bid], self.nsig.get(bid, 1))
            self.sigs[bid] = level
            return bid, True, True
        others = ()
        if cands is None and pl.context is not None:
            cands = pl.context()
        p = pl.params
        where = pl.oc.where
        if cands is None:
            cands = [b for b in self.sigs if b not in where]
        else:
            # One the mat sees standing on another zone is not this one.
            free = [b for b in cands if where.get(b, zi) == zi]
            if free:
                cands = free
            # The referee's picture can be wrong (an earlier landing taken
            # for another Bakugan): one it does not expect may still land,
            # if its signature says so clearly.
            if p["other_prior"] > 0.0 and not guess:
                others = [b for b in self.sigs if b not in cands and b not in where]
        if not cands and not others:
            self.lastp = 0.0
            return None, False, False     # nothing to tell it by: waiting would not help
        second = []
        b, post, z = self.post(level, se, cands, others, second)
        self.lastz = z
        self.lastp = post
        self.lastalt = None
        self.lastcands = cands
        self.lastothers = others
        if force and not guess and post < self.dp:
            # decided without being sure: the runner-up is what the thrower
            # is asked about (`unsure`); self.dp is where the mat's posterior
            # stops being right often enough (the reliability table,
            # docs/sensing-pipeline.md). (Asking only once the refined level
            # is known, 1.5 s later, saved 1 question in 35 on 16
            # development games: not kept.)
            self.lastalt = self.runner_up(level, se, b, cands, second[0])
        if not guess:
            self.asked[zi] = 1.0 - post if self.lastalt is not None else 0.0
        if force:
            return b, False, post >= p["certain_p"]
        if post < self.dp:
            pl._wait(zi, "ambiguous", b, post)
            return None
        if z > p["match_z"]:
            pl._wait(zi, "mismatch", b, z)
            return None
        # A ball that has rolled to a stop reads below what it will read
        # standing open a moment later: a level that may be a stronger
        # candidate still opening waits until it has held for ramp_ms.
        sb = self.sigs.get(b)
        if sb is not None and t - pl.fr.wt0[zi] < p["ramp_ms"]:
            for c in cands:
                sc = self.sigs.get(c)
                if c != b and sc is not None and (sc > 0.0) == (sb > 0.0) and \
                        abs(level) < p["ramp_share"] * abs(sc):
                    pl._wait(zi, "ramp")
                    return None
        return b, False, post >= p["certain_p"]

    def names_learnt(self, zi, level, se, t, cands):
        """The learnt Bakugan among cands that level names within match_z
        (an arrival's probe: a forced guess, no lesson taken), else None."""
        self.lastz = 99.0
        got = self.identify(zi, level, se, True, t, cands, True)
        if got is not None and got[0] is not None and got[0] in self.sigs and self.lastz <= self.p.params["match_z"]:
            return got[0]
        return None

    def early(self, zi, level, se, t):
        """Say at once that something landed on zi, with the best guess of
        who it is; the decision (the level settled and averaged, the same
        candidates) confirms it or amends it with `ident`. Only a level that
        a candidate has (a ball rolling slowly through reads some weaker
        field for a moment), only once the window has held early_ms, never
        for a registration's lesson."""
        pl = self.p
        p = pl.params
        oc = pl.oc
        if not pl.early or oc.prov[zi] is not None or zi in self.pending or \
                t - pl.fr.wt0[zi] < p["early_ms"]:
            return
        cands = pl.context() if pl.context is not None else None
        self.lastz = 0.0
        got = self.identify(zi, level, se, True, t, cands, True)
        if cands is not None and not (self.lastz <= p["early_z"] and got[0] in self.sigs):
            # No Bakugan the referee expects has this level: its picture
            # may be wrong (an earlier landing named as another Bakugan,
            # which it then has used), and the field is a landing all the
            # same when a registered Bakugan the mat does not see standing
            # elsewhere has it. The guess is that one; the decision names
            # it as before (the referee's candidates, the others at
            # other_prior). (16 development games: 9 of the 24 landings
            # later than 60 ms waited max_wait_ms for a name because the
            # one thrown was not among the referee's candidates.)
            # (not one standing anywhere, this zone included: the change is
            # of the zone's state, its occupant's field already in it)
            where = pl.oc.where
            rest = [b for b in self.sigs if b not in cands and b not in where]
            if rest:
                self.lastz = 0.0
                got = self.identify(zi, level, se, True, t, rest, True)
        if got is not None and self.lastz <= p["early_z"] and got[0] in self.sigs:   # (a learnt level, not a guess at one)
            oc.prov[zi] = (got[0], cands)
            oc.put(got[0], zi)
            pl._emit("land", t, "zone", pl.zone_ids[zi], "bakugan", got[0])

    # -- refinement: the frames after a landing ----------------------------

    def refined(self, zi, t):
        """The refinement of zone zi's last landing ended (refine_ms, or the
        field moved): residues of lifted fields are dropped once the zone
        reads quiet; the landing's field, level and learnt signature are
        those of the averaged frames, and a landing decided without
        certainty is named again (and asked about when still unsure)."""
        occ = self.p.oc.occ[zi]
        a = self.asked.pop(zi, 0.0)
        if a and occ:
            occ[-1].asked = True      # (its decision sent `unsure`)
            self._doubt(occ[-1].bid, a)
        self._refine(zi, t)

    def _doubt(self, b, q):
        """The mat asked about naming b, (1 - posterior) q: until the
        players answer, b may still be in hand (self.doubt)."""
        if b is not None:
            mx = self.p.params["doubt_max"]
            self.doubt[b] = mx if q > mx else (0.02 if q < 0.02 else q)

    def _ask(self, zi, o, alt, t, q):
        """`unsure` about o (the thrower is asked: o.bid, or alt?), once; q:
        how unsure (1 - posterior)."""
        pl = self.p
        if o.asked or o.bid is None or alt is None or alt == o.bid or alt not in self.sigs or \
                not pl.oc.free(alt, zi) or pl.sink is None:
            return
        o.asked = True
        self._doubt(o.bid, q)
        pl.sink({"ev": "unsure", "t": t, "zone": pl.zone_ids[zi], "bakugan": o.bid, "alt": alt})

    def _refine(self, zi, t):
        pl = self.p
        fr = pl.fr
        oc = pl.oc
        fr.rfn[zi] = 0
        na = fr.nacc[zi]
        if na < 5:
            return
        chs = pl.zch[zi]
        occ = oc.occ[zi]
        landed = [x for x in occ if x.landed]
        if len(landed) != len(occ):
            # Residues of fields lifted away: gone when the zone reads its
            # landed occupants' fields and nothing more.
            mean = fr.mean(zi)
            for x in landed:
                for j in range(len(chs)):
                    mean[j] -= x.contrib[j]
            if fr.quiet(zi, mean, na):
                oc.set(zi, landed)
                st = [0.0] * len(chs)
                for x in landed:
                    for j in range(len(chs)):
                        st[j] += x.contrib[j]
                fr.set_state(zi, st)
            return
        o = None
        for x in occ:
            if x.landed and x.under is not None:
                o = x
        if o is None or o.bid is None:
            return
        m = len(chs)
        mean = fr.mean(zi)
        # The zone's state is the refined mean from now on: the state set at
        # the decision (a few frames, maybe still rising) and followed only
        # slowly since would be the `under` of a second Bakugan landing here
        # (a battle), its error all in that one's level (seen: +10 %).
        fr.set_state(zi, mean)
        contrib = [mean[j] - o.under[j] for j in range(m)]
        level, se, ok = self.level(zi, contrib, na)
        if not ok:
            return
        o.contrib = dv(contrib)
        o.sig = level
        o.meas = level           # (learn(): the signature follows it once the game confirms the name)
        o.lone = len(occ) == 1
        if o.cands is not None and not o.learned and not o.certain and o is occ[-1]:
            self._reident(zi, o, level, se, t)
        if o.learned:
            b = o.bid
            s0 = self.lesson0.pop(b, None)
            if s0 is not None and (s0[0] > 0.0) == (level > 0.0):
                n = s0[1]
                self.sigs[b] = (n * s0[0] + level) / (n + 1)
                self.nsig[b] = n + 1
            else:
                self.sigs[b] = level
                self.nsig[b] = 1

    def _reident(self, zi, o, level, se, t):
        """Name the Bakugan o again from its refined level (refine_ms of
        frames instead of the decision's few): a landing decided without
        certainty is amended (`ident`) when the refined level names another
        of the candidates it was decided among, and the table asks the
        thrower (`unsure`, the first name the other answer: the mat changed
        its mind). Only the zone's last landing (an `ident` amends the
        zone's last `land`)."""
        pl = self.p
        p = pl.params
        oc = pl.oc
        cands = o.cands
        o.cands = None
        second = []
        b, post, z = self.post(level, se, cands, o.others, second)
        if b is None or z > p["match_z"] or (b != o.bid and not oc.free(b, zi)):
            return     # (or the one named stands on another zone)
        o.certain = post >= p["certain_p"]
        zone = pl.zone_ids[zi]
        if pl.on_named is not None and b == o.bid:
            pl.on_named(zone, b, post)
        if b == o.bid:
            if post < self.dp:   # the refined level leaves the name unsure
                self._ask(zi, o, self.runner_up(level, se, b, cands, second[0]), t, 1.0 - post)
            return
        old = o.bid
        o.bid = b
        oc.unput(old, zi)
        oc.where[b] = zi
        pl._emit("ident", t, "zone", zone, "bakugan", b)
        if pl.on_named is not None:
            pl.on_named(zone, b, post)
        if old is not None and pl.sink is not None:
            # The mat changed its mind: the thrower is asked (the first name
            # is the other answer) even when the refined level looks clear.
            o.asked = True
            self._doubt(b, 1.0 - post)
            pl.sink({"ev": "unsure", "t": t, "zone": zone, "bakugan": b, "alt": old})
