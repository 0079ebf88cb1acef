"""The per-frame sensing pipeline: ADC frames in, sensed events out.

    p = Pipeline(board_def, sink, context=None)
    p.register("drago", 4)     # the next Bakugan settling on zone 4 is drago
    p.feed(frame, t_ms)        # every frame, channel order, t in ms (monotonic)

sink receives plain dicts:
    {"ev": "land",  "t": ms, "zone": z, "bakugan": id}   (+ "learned": True
                                                           when it answered a register)
    {"ev": "leave", "t": ms, "zone": z, "bakugan": id}
    {"ev": "fault", "t": ms, "ch": c, "kind": "dead" | "stuck" | "saturated"}
t is the time of the frame at which the pipeline decided.

context: optional callable returning the ids that may land now (the
referee's `g.expects()[1]`), or None for "anything registered and not on the
mat". It is called only when a landing is decided.

How it works (docs/sensing-pipeline.md has the reasoning and the figures):

- Baseline per channel: an exponential average (fixed point) that follows
  slow drift, updated only while the channel's zone is empty and quiet, so a
  Bakugan standing still for minutes is never absorbed. When a zone becomes
  empty again after a confirmed leave its baselines are re-zeroed.
- Per zone, E = sum over its healthy channels of |deviation - settled|,
  where `settled` is the zone's current steady state (0 when empty). E over
  the zone's threshold opens a window; the window restarts whenever the
  sensors move by more than a tolerance (noise + 1/8 of E) from the window's
  first frame; a window that stays still for the dwell time is a new steady
  state. A ball rolling across never holds still, so it never counts; an
  opened Bakugan stands still.
- A new steady state is explained (sense.signature, once, not per frame):
  one of the occupants left (the change is minus its contribution), all left
  (the field is back to the baseline), or a new Bakugan arrived: the change
  is a single magnet inside the zone, whose position-corrected signed
  strength identifies it among the candidates. Anything else (a Bakugan
  knocked, a closed ball lying at the card's edge) is absorbed silently.
- Channel health: a channel pinned at a rail with nothing to explain it, or
  returning exactly the same count for seconds despite sensor noise, is
  reported once as a fault and left out; its zone keeps working on the
  others (thresholds scale with the number of healthy channels).

Per frame: integer arithmetic on preallocated arrays; no allocation unless an
event is decided.
"""
from array import array

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from sense import signature

_BS = const(12)        # baseline fixed point: counts << _BS
_BHALF = const(2048)   # 1 << (_BS - 1)
_SB = const(8)         # settled-state fixed point
_TOLSH = const(3)      # stability tolerance: + E >> _TOLSH

# Fault codes in `bad` (0 = healthy).
_DEAD = const(1)
_STUCK = const(2)
_SAT = const(3)
FAULT_KINDS = (None, "dead", "stuck", "saturated")

DEFAULTS = {
    "dwell_ms": 30,          # a new state must hold still this long
    "dead_sigma": 2,         # per-channel dead band, noise rms
    "on_sigma": 4,           # zone threshold on the sum above the dead bands
    "tol_quarters": 10,      # stability tolerance per healthy channel, noise rms / 4
    "min_counts": 1,         # floor of the noise unit
    "baseline_tau_ms": 5000, # baseline time constant
    "settled_tau_ms": 5000,  # drift tracking of an occupied zone's state
    "rail_ms": 2000,         # pinned at a rail this long -> dead / saturated
    "stuck_ms": 3000,        # exactly constant this long -> stuck
    "fit_max_residual": 0.45,  # a landing must look like one magnet
    "leave_match": 0.35,     # a leave must remove an occupant's own field
    "rail_margin": 8,        # counts from 0 / max_counts that count as rail
}


def _log2(x):
    k = 0
    while (1 << (k + 1)) <= x:
        k += 1
    return k


class Occupant:
    """Something standing on a zone: a Bakugan that landed (bid its id, None
    if it could not be identified) or an unexplained steady field, with its
    contribution to the zone's sensors."""

    def __init__(self, bid, contrib, m, landed):
        self.bid = bid
        self.contrib = contrib   # list of ints, one per zone channel
        self.m = m
        self.landed = landed     # False: an unexplained steady field


class Pipeline:
    def __init__(self, board, sink, context=None, params=None):
        p = dict(DEFAULTS)
        if params:
            p.update(params)
        self.params = p
        self.sink = sink
        self.context = context
        sensors = board["sensors"]
        zones = board["zones"]
        n = len(sensors)
        self.n = n
        nz = len(zones)
        self.nz = nz
        self.zone_ids = [z["id"] for z in zones]
        zidx = {}
        for i in range(nz):
            zidx[zones[i]["id"]] = i
        self._zidx = zidx
        self.rects = [(float(z["x"]), float(z["y"]), float(z["w"]), float(z["h"])) for z in zones]
        chz = array("h", [0] * n)
        sx = [0.0] * n
        sy = [0.0] * n
        lists = [[] for _ in range(nz)]
        for s in sensors:
            c = s["ch"]
            if not 0 <= c < n:
                raise ValueError("sensor channel %r out of range 0..%d" % (c, n - 1))
            zi = zidx[s["zone"]]
            chz[c] = zi
            sx[c] = float(s["x"])
            sy[c] = float(s["y"])
            lists[zi].append(c)
        self.chz = chz
        self.sx = sx
        self.sy = sy
        self.zch = [array("h", sorted(l)) for l in lists]
        sen = board["sensor"]
        self.max_counts = int(sen["max_counts"])
        self.zero_counts = int(sen["zero_counts"])
        noise = float(sen["noise_counts_rms"])
        self.noise = noise
        unit = int(noise + 0.999)
        if unit < p["min_counts"]:
            unit = p["min_counts"]
        self.unit = unit
        rate = float(board["rate_hz"])
        self.rate = rate
        self.period_ms = int(1000.0 / rate + 0.5)
        self.dwell = int(p["dwell_ms"])
        self.bk = _log2(int(p["baseline_tau_ms"] * rate / 1000.0) or 1)
        self.sk = _log2(int(p["settled_tau_ms"] * rate / 1000.0) or 1)
        self.rail_lo = int(p["rail_margin"])
        self.rail_hi = self.max_counts - int(p["rail_margin"])
        self.rail_n = int(p["rail_ms"] * rate / 1000.0) or 1
        # Exactly repeated counts only mean "stuck" when the sensor is noisy
        # enough that a healthy one never repeats for that long.
        self.stuck_n = int(p["stuck_ms"] * rate / 1000.0) if noise >= 0.5 else 0
        self.height = signature.effective_height(board)
        # Per-channel state.
        self.base = array("i", [0] * n)
        self.dev = array("i", [0] * n)
        self.svf = array("i", [0] * n)
        self.refd = array("i", [0] * n)
        self.last = array("i", [-1] * n)
        self.same = array("i", [0] * n)
        self.rail = array("i", [0] * n)
        self.bad = bytearray(n)
        # Per-zone state.
        self.db = int(p["dead_sigma"] * self.unit)
        self.on_t = array("i", [0] * nz)
        self.tol_t = array("i", [0] * nz)
        self.wact = bytearray(nz)
        self.wt0 = array("i", [0] * nz)
        self.nocc = bytearray(nz)
        self.zdead = bytearray(nz)
        self.occ = [[] for _ in range(nz)]
        self.pending = {}        # zone index -> bakugan id to learn
        self.sigs = {}           # bakugan id -> learnt signed strength
        self.where = {}          # bakugan id -> zone index it stands on
        self.started = False
        self.frames = 0
        for zi in range(nz):
            self._thresholds(zi)

    # -- configuration -------------------------------------------------

    def _thresholds(self, zi):
        chs = self.zch[zi]
        bad = self.bad
        k = 0
        for j in range(len(chs)):
            if not bad[chs[j]]:
                k += 1
        p = self.params
        self.on_t[zi] = p["on_sigma"] * self.unit
        self.tol_t[zi] = (k * p["tol_quarters"] * self.unit) >> 2
        self.zdead[zi] = 1 if k == 0 else 0

    def register(self, bakugan, zone):
        """The next Bakugan that settles on `zone` is `bakugan`: learn its signature."""
        zi = self._zidx.get(zone)
        if zi is None:
            raise ValueError("no zone %r" % (zone,))
        self.pending[zi] = bakugan

    def signatures(self):
        return dict(self.sigs)

    def occupants(self, zone):
        zi = self._zidx[zone]
        return [o.bid for o in self.occ[zi] if o.landed]

    # -- per frame -------------------------------------------------------

    def _start(self, frame):
        base = self.base
        last = self.last
        for c in range(self.n):
            x = frame[c]
            base[c] = x << _BS
            last[c] = x
        self.started = True

    def feed(self, frame, t):
        n = self.n
        if len(frame) != n:
            raise ValueError("frame has %d channels, expected %d" % (len(frame), n))
        self.frames += 1
        if not self.started:
            self._start(frame)
            return
        base = self.base
        dev = self.dev
        bad = self.bad
        rail = self.rail
        same = self.same
        last = self.last
        lo = self.rail_lo
        hi = self.rail_hi
        railn = self.rail_n
        stuckn = self.stuck_n
        for c in range(n):
            x = frame[c]
            if bad[c]:
                continue
            if x <= lo or x >= hi:
                r = rail[c] + 1
                rail[c] = r
                if r == railn:
                    self._rail(c, x, t)
                    if bad[c]:
                        continue
            elif rail[c]:
                rail[c] = 0
            if x == last[c]:
                s = same[c] + 1
                same[c] = s
                if s == stuckn and x > lo and x < hi:
                    self._stuck(c, x, t)
                    if bad[c]:
                        continue
            else:
                same[c] = 0
                last[c] = x
            dev[c] = x - ((base[c] + _BHALF) >> _BS)
        svf = self.svf
        refd = self.refd
        zch = self.zch
        on_t = self.on_t
        tol_t = self.tol_t
        wact = self.wact
        wt0 = self.wt0
        nocc = self.nocc
        zdead = self.zdead
        dwell = self.dwell
        bk = self.bk
        sk = self.sk
        db = self.db
        for zi in range(self.nz):
            if zdead[zi]:
                continue
            chs = zch[zi]
            m = len(chs)
            e_sum = 0
            s_sum = 0
            for j in range(m):
                c = chs[j]
                if bad[c]:
                    continue
                d = dev[c]
                e = d - (svf[c] >> _SB)
                if e < 0:
                    e = -e
                if e > db:
                    e_sum += e - db
                s = d - refd[c]
                if s < 0:
                    s = -s
                s_sum += s
            if e_sum >= on_t[zi]:
                if not wact[zi]:
                    wact[zi] = 1
                    wt0[zi] = t
                    for j in range(m):
                        c = chs[j]
                        refd[c] = dev[c]
                elif s_sum > tol_t[zi] + (e_sum >> _TOLSH):
                    wt0[zi] = t
                    for j in range(m):
                        c = chs[j]
                        refd[c] = dev[c]
                elif t - wt0[zi] >= dwell:
                    wact[zi] = 0
                    self._settled(zi, t)
            else:
                if wact[zi]:
                    wact[zi] = 0
                if nocc[zi]:
                    for j in range(m):
                        c = chs[j]
                        svf[c] += ((dev[c] << _SB) - svf[c]) >> sk
                else:
                    for j in range(m):
                        c = chs[j]
                        if not bad[c]:
                            base[c] += ((frame[c] << _BS) - base[c]) >> bk

    # -- events (allocation allowed from here on) ------------------------

    def _emit(self, kind, t, a, av, b=None, bv=None):
        ev = {"ev": kind, "t": t, a: av}
        if b is not None:
            ev[b] = bv
        if self.sink is not None:
            self.sink(ev)
        return ev

    def _fault(self, c, kind, t):
        self.bad[c] = kind
        self.dev[c] = 0
        zi = self.chz[c]
        self._thresholds(zi)
        self.wact[zi] = 0
        # The zone's steady state may have been the failing channel itself:
        # forget occupants that are not Bakugan.
        occ = self.occ[zi]
        keep = [o for o in occ if o.landed]
        if len(keep) != len(occ):
            self.occ[zi] = keep
            self.nocc[zi] = len(keep)
            if not keep:
                self._rezero(zi)
        self._emit("fault", t, "ch", c, "kind", FAULT_KINDS[kind])

    def _quiet_elsewhere(self, c):
        """True when no other healthy channel of c's zone sees a field and no
        Bakugan stands there: nothing explains channel c's reading."""
        zi = self.chz[c]
        for o in self.occ[zi]:
            if o.landed:
                return False
        chs = self.zch[zi]
        lim = 4 * self.unit
        for j in range(len(chs)):
            k = chs[j]
            if k != c and not self.bad[k]:
                d = self.dev[k]
                if d > lim or d < -lim:
                    return False
        return True

    def _rail(self, c, x, t):
        if self._quiet_elsewhere(c):
            self._fault(c, _DEAD if x <= self.rail_lo else _SAT, t)
        else:
            self.rail[c] = 0   # explained by a magnet for now: look again later

    def _stuck(self, c, x, t):
        self._fault(c, _STUCK, t)

    def _rezero(self, zi):
        """The zone is empty and still: its current readings are the baseline."""
        chs = self.zch[zi]
        for j in range(len(chs)):
            c = chs[j]
            if not self.bad[c]:
                self.base[c] = self.last[c] << _BS
                self.dev[c] = 0
            self.svf[c] = 0

    def _vec(self, zi):
        chs = self.zch[zi]
        return [self.dev[chs[j]] for j in range(len(chs))]

    def _fit(self, zi, vec):
        chs = self.zch[zi]
        xs = []
        ys = []
        vs = []
        lo = self.rail_lo
        hi = self.rail_hi
        for j in range(len(chs)):
            c = chs[j]
            if self.bad[c]:
                continue
            x = self.last[c]
            if x <= lo or x >= hi:
                continue   # clipped: its value says little
            xs.append(self.sx[c])
            ys.append(self.sy[c])
            vs.append(float(vec[j]))
        return signature.fit(xs, ys, vs, self.rects[zi], self.height)

    def _settled(self, zi, t):
        chs = self.zch[zi]
        m = len(chs)
        bad = self.bad
        vec = self._vec(zi)
        svf = self.svf
        old = [svf[chs[j]] >> _SB for j in range(m)]
        delta = [vec[j] - old[j] for j in range(m)]
        dsum = 0
        vsum = 0
        for j in range(m):
            if not bad[chs[j]]:
                dsum += abs(delta[j])
                vsum += abs(vec[j])
        occ = self.occ[zi]
        p = self.params
        noise = self.tol_t[zi]
        # 1. Everything left: the field is back to the baseline.
        if occ and vsum < self.on_t[zi]:
            for o in occ:
                self._left(zi, o, t)
            self.occ[zi] = []
            self.nocc[zi] = 0
            self._rezero(zi)
            return
        # 2. One occupant left: the change is minus its contribution.
        best = None
        br = 0
        for o in occ:
            r = 0
            for j in range(m):
                if not bad[chs[j]]:
                    r += abs(delta[j] + o.contrib[j])
            if best is None or r < br:
                best, br = o, r
        if best is not None and br <= p["leave_match"] * dsum + noise:
            occ.remove(best)
            self.nocc[zi] = len(occ)
            self._left(zi, best, t)
            self._set_state(zi, vec)
            return
        # 3. A new magnet arrived: the change is one dipole inside the zone.
        mm, px, py, res = self._fit(zi, delta)
        x, y, w, h = self.rects[zi]
        inside = x - 4.0 <= px <= x + w + 4.0 and y - 4.0 <= py <= y + h + 4.0
        if res <= p["fit_max_residual"] and inside:
            bid, learned = self._identify(zi, mm)
            o = Occupant(bid, delta, mm, True)
            occ.append(o)
            self.nocc[zi] = len(occ)
            self._set_state(zi, vec)
            if bid is not None:
                self.where[bid] = zi
            ev = {"ev": "land", "t": t, "zone": self.zone_ids[zi], "bakugan": bid}
            if learned:
                ev["learned"] = True
            if self.sink is not None:
                self.sink(ev)
            return
        # 4. Unexplained (a knock, a closed ball at the edge): absorb it.
        if len(occ) == 1:
            occ[0].contrib = [occ[0].contrib[j] + delta[j] for j in range(m)]
        else:
            occ.append(Occupant(None, delta, 0.0, False))
            self.nocc[zi] = len(occ)
        self._set_state(zi, vec)

    def _set_state(self, zi, vec):
        chs = self.zch[zi]
        svf = self.svf
        for j in range(len(chs)):
            svf[chs[j]] = vec[j] << _SB
        if not self.occ[zi]:
            self._rezero(zi)

    def _left(self, zi, o, t):
        if not o.landed:
            return
        if o.bid is not None and self.where.get(o.bid) == zi:
            del self.where[o.bid]
        self._emit("leave", t, "zone", self.zone_ids[zi], "bakugan", o.bid)

    def _identify(self, zi, mm):
        """(bakugan id, learned?) for a magnet of strength mm landing on zi."""
        bid = self.pending.pop(zi, None)
        if bid is not None:
            self.sigs[bid] = mm
            return bid, True
        cands = None
        if self.context is not None:
            cands = self.context()
        if cands is None:
            cands = [b for b in self.sigs if b not in self.where]
        if not cands:
            return None, False
        if len(cands) == 1:
            return cands[0], False
        b, d, d2 = signature.identify(mm, cands, self.sigs)
        return b, False
