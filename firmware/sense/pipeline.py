"""The per-frame sensing pipeline: ADC frames in, sensed events out.

    p = Pipeline(board_def, sink, context=None)
    p.register("drago", 4)     # the next Bakugan settling on zone 4 is drago
    p.feed(frame, t_ms)        # every frame, channel order, t in ms (monotonic)

sink receives plain dicts:
    {"ev": "land",  "t": ms, "zone": z, "bakugan": id}   (+ "learned": True
                                                           when it answered a register)
    {"ev": "ident", "t": ms, "zone": z, "bakugan": id}   (the last land was another one)
    {"ev": "unland", "t": ms, "zone": z, "bakugan": id}  (the last land is taken back)
    {"ev": "unsure", "t": ms, "zone": z, "bakugan": id, "alt": id}
    {"ev": "leave", "t": ms, "zone": z, "bakugan": id}
    {"ev": "fault", "t": ms, "ch": c, "kind": "dead" | "stuck" | "saturated"}
t is the time of the frame at which the pipeline decided; bakugan is None
when nothing registered fits.

context: optional callable returning the ids that may land now (the
referee's `g.expects()[1]`), or None for "anything registered and not on the
mat". It is called only while a landing is being decided.

How it works (docs/sensing-pipeline.md has the reasoning and the figures):

- Baseline per channel: an exponential average (fixed point) that follows
  slow drift, updated only while the channel's zone is empty and quiet, so a
  Bakugan standing still for minutes is never absorbed. When a zone is
  found empty again after a leave, its baselines are re-zeroed on the mean
  of the frames that showed it.
- Per zone, against its current steady state (0 when empty): E = the sum of
  |change| above a per-channel dead band, C = |sum of changes| (a gate
  card spreads a Bakugan's field over all the zone's sensors, so C sees weak
  magnets well). E or C over its threshold opens a window; the window
  restarts whenever a frame departs from the window's mean by more than the
  noise allows (sum of |departures|, |sum of departures|); a window that
  holds still for the dwell time is a new steady state. A ball rolling
  across never holds still, so it never counts.
- A new steady state is explained (sense.signature; not per frame): all
  left (the field is back to the baseline), one occupant left (the change
  is minus its contribution), the last arrival still settling (more of the
  same field within settle_ms), or a new Bakugan: a field with the shape a
  Bakugan on the card gives, identified by its signature among the
  candidates. While two candidates remain plausible the decision waits for
  more frames (up to max_wait_ms), which averages the noise down. Anything
  else is absorbed silently.
- Signatures: learnt at the landing that answers `register`, refined on
  the frames that follow while it stands still.
- Channel health: a channel pinned at a rail with nothing to explain it, or
  returning exactly the same count for seconds despite sensor noise, is
  reported once as a fault and left out; its zone keeps working on the
  others (thresholds scale with the number of healthy channels).

Per frame: integer arithmetic on preallocated arrays; nothing is allocated
unless a zone is deciding something.
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
_TOLSH = const(5)      # stability tolerance: + E >> _TOLSH
_ROLL_X = const(4)     # a roll's peak E is this many zone thresholds: noise never is
_NMAX = const(255)     # frames averaged at most
_CW_CARRY_MS = const(150)   # an arrival window started again this soon is still it (seen: 100 ms)

# Fault codes in `bad` (0 = healthy).
_DEAD = const(1)
_STUCK = const(2)
_SAT = const(3)
FAULT_KINDS = (None, "dead", "stuck", "saturated")

DEFAULTS: dict = {  # mixed int and float values: a plain dict to mypy
    # `roll {t, zone}` when an empty zone was stirred for at most this long
    # and went quiet again without anything settling (a ball rolling across,
    # a bounce): the table's miss inference. 0 = not reported.
    "roll_max_ms": 0,
    "dwell_ms": 40,          # a new state must hold still this long
    "dead_sigma": 2,         # per-channel dead band of E, noise rms
    "on_sigma": 4,           # E threshold (sum above the dead bands), noise rms
    "coh_on_sigma": 5,       # C threshold, noise rms * sqrt(channels)
    "tol_quarters": 7,       # stability: sum |departure| per channel, noise rms / 4
    "coh_quarters": 12,      # stability: |sum of departures|, noise rms * sqrt(2 k) / 4
    "min_counts": 1,         # floor of the noise unit
    "baseline_tau_ms": 5000, # baseline time constant
    "settled_tau_ms": 5000,  # drift tracking of an occupied zone's state
    "rail_ms": 2000,         # pinned at a rail this long -> dead / saturated
    "stuck_ms": 3000,        # exactly constant this long -> stuck
    "rail_margin": 8,        # counts from 0 / max_counts that count as rail
    "leave_match": 0.35,     # a leave removes an occupant's own field, to this share
    "settle_ms": 600,        # after a landing, more of the same field is still it
    "lift_ms": 120,          # a partial drop holding this long is not a lift
    "leave_hold_ms": 200,    # a leave must hold this long: a ball rolling to a stop on an
                             # occupied zone may cancel the occupant's field for a moment
    "leave_quiet_ms": 160,   # ... then the window starts again: still frames for this long
    "tail_share": 0.3,       # what a lift leaves for a moment, of the field...
    "tail_ms": 300,          # ... and for how long at most
    "residue_ms": 400,       # what is left of a lift the referee expects, of another shape
    "quiet_sigma": 4.0,      # a zone is empty when its mean is this close to the baseline
    "refine_ms": 1500,       # after a landing, frames averaged into its signature
    "min_level_sigma": 4.0,  # a landing's level must be this many standard errors
    "decide_p": 0.995,       # identification: posterior needed to decide at once
    "certain_p": 0.9999,     # ... to refine the signature from this landing
    "match_z": 3.5,          # ... and the field must match the candidate this well
    "force_z": 6.0,          # a decision forced by max_wait_ms: no candidate this close, no landing
    "rel_spread": 0.04,      # a Bakugan's level from landing to landing
    "other_prior": 0.002,    # prior of a Bakugan the referee does not expect
    "max_wait_ms": 160,      # decide anyway after the level has held still this long
    "trend_max_ms": 300,     # a level still moving after this long is taken as it is
    "ramp_ms": 100,          # see _identify
    "trend_sigma": 2.5,      # a landing's level must not be still moving
    "ramp_share": 0.8,
    "slope_sigma": 2.5,      # a landing's level must not still be climbing (window slope)
    "absorb_ms": 1000,       # an unexplained steady field becomes the new state
    "fit_max_residual": 0.45,  # dipole boards: a landing must look like one magnet
    # `land` at the first still frames of a Bakugan-shaped field, with the
    # best guess of who it is; `ident` later when the averaged level names
    # another one (0: land only once identified, as before).
    "early": 1,
    "early_ms": 40,          # ... once the window has held still this long
    "early_z": 3.5,          # ... and the level is this close to the guess's
    # a lesson's level this close to another's: `alike` in its land event
    # (the identification errors left are between Bakugan within 9 %)
    "alike_rel": 0.10,
    "lesson_ms": 300,        # a register's landing: its level held still this long
    "pair_ms": 1500,         # after one of a battle's pair went, the other's going is a leave
}


def _log2(x):
    k = 0
    while (1 << (k + 1)) <= x:
        k += 1
    return k


def _isqrt(x):
    r = 0
    while (r + 1) * (r + 1) <= x:
        r += 1
    return r


def _dv(v):
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
        self.contrib = _dv(contrib)   # floats, one per zone channel (a copy, in a double array)
        self.landed = landed     # False: an unexplained steady field
        self.t = t               # when it landed
        self.learned = False     # its landing answered a register
        self.certain = False     # identified beyond doubt: may refine its signature
        self.under = None        # the zone's state before it came
        self.sig = 0.0
        self.cands = None        # who could have landed (the referee's, when it was decided):
        self.others = ()         # ... named again from the refined level (None: not again)


class Pipeline:
    def __init__(self, board, sink, context=None, params=None):
        p = dict(DEFAULTS)
        if params:
            p.update(params)
        self.params = p
        self.sink = sink
        self.context = context
        # stays(zone id, bakugan) -> True while the referee has that Bakugan
        # standing there with nothing that takes it off (no lift expected);
        # set by Match, None: every lift is plausible
        self.stays = None
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
        # geometry in double arrays, not lists of floats: a float in a list
        # is a heap object of its own (16 B on an ESP32, 32 B on x86-64)
        self.rects = [array("d", (float(z["x"]), float(z["y"]), float(z["w"]), float(z["h"]))) for z in zones]
        chz = array("h", [0] * n)
        sx = array("d", bytearray(8 * n))
        sy = array("d", bytearray(8 * n))
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
        self.zch = [array("h", sorted(l)) for l in lists]
        sen = board["sensor"]
        self.max_counts = int(sen["max_counts"])
        noise = float(sen["noise_counts_rms"])
        self.noise = noise if noise > 0.3 else 0.3
        unit = int(noise + 0.999)
        if unit < p["min_counts"]:
            unit = p["min_counts"]
        self.unit = unit
        rate = float(board["rate_hz"])
        self.period_ms = int(1000.0 / rate + 0.5)
        self.dwell = int(p["dwell_ms"])
        self.roll_max = int(p["roll_max_ms"])
        self.bk = _log2(int(p["baseline_tau_ms"] * rate / 1000.0) or 1)
        self.sk = _log2(int(p["settled_tau_ms"] * rate / 1000.0) or 1)
        self.rail_lo = int(p["rail_margin"])
        self.rail_hi = self.max_counts - int(p["rail_margin"])
        self.rail_n = int(p["rail_ms"] * rate / 1000.0) or 1
        # Exactly repeated counts only mean "stuck" when the sensor is noisy
        # enough that a healthy one never repeats for that long.
        self.stuck_n = int(p["stuck_ms"] * rate / 1000.0) if noise >= 0.5 else 0
        self.db = int(p["dead_sigma"] * unit)
        self.height = signature.effective_height(board)
        # The plate's sheet term (signature = sheet level) when the board's
        # plate captures flux; otherwise the dipole fit.
        self.gs = None
        plate = board.get("plate") or {}
        if plate.get("capture", 0.0) > 0.0:
            card = board.get("card") or {}
            pw = float(plate.get("w", float(card.get("w", 62.0)) - 6.0))
            ph = float(plate.get("h", float(card.get("h", 88.0)) - 6.0))
            pz = float(board["sensor_plane_to_card_top_mm"]) - float(plate.get("depth_mm", 0.6))
            gs = array("d", bytearray(8 * n))
            for c in range(n):
                r = self.rects[chz[c]]
                cx = r[0] + r[2] / 2.0
                cy = r[1] + r[3] / 2.0
                gs[c] = signature.sheet((cx - pw / 2.0, cy - ph / 2.0, cx + pw / 2.0, cy + ph / 2.0), pz, sx[c], sy[c])
            self.gs = gs
        # sensor positions and zone rectangles: only the dipole fit reads
        # them after this
        if self.gs is not None:
            sx = sy = self.rects = None
        self.sx = sx
        self.sy = sy
        # Per-channel state.
        self.base = array("i", [0] * n)
        self.dev = array("i", [0] * n)
        self.svf = array("i", [0] * n)
        self.acc = array("i", [0] * n)
        self.acw = array("i", [0] * n)   # sum of k * d over the window (k = frame index): slope
        self.ema = array("i", [0] * n)   # fast average of the window (counts << 4)
        self.last = array("i", [-1] * n)
        self.same = array("i", [0] * n)
        self.rail = array("h" if self.rail_n < 32767 else "i", [0] * n)   # (never past rail_n)
        self.bad = bytearray(n)
        # Per-zone state.
        self.on_t = array("i", [0] * nz)
        self.con_t = array("i", [0] * nz)
        self.tol_t = array("i", [0] * nz)
        self.coh_t = array("i", [0] * nz)
        self.wact = bytearray(nz)
        self.wt0 = array("i", [0] * nz)
        self.tw0 = array("i", [0] * nz)    # when the field last moved (a window restarted by itself)
        self.burst = bytearray(nz)         # stirred since it was last quiet or settled
        self.bt0 = array("i", [0] * nz)    # ... since then
        self.bpk = array("i", [0] * nz)    # ... and its strongest E (a roll is clear of the noise)
        self.flt = array("i", [-1] * nz)   # when the window's level was first found still...
        self.flw = array("i", [-1] * nz)   # ... in the window that started then
        self.hold = array("i", [0] * nz)
        self.nacc = array("i", [0] * nz)
        self.rfn = bytearray(nz)
        self.rfe = array("i", [0] * nz)
        self.nocc = bytearray(nz)
        self.zdead = bytearray(nz)
        self.occ = [[] for _ in range(nz)]
        self.pending = {}        # zone index -> bakugan id to learn
        self.cw = [-1] * self.nz  # zone index -> window taken as a cancelling arrival
        self.lh = [-1] * self.nz  # zone index -> window started again by the leave hold
        self.plv = [-1 << 29] * self.nz  # zone index -> when one of a pair went, one left standing
        self.sigs = {}           # bakugan id -> learnt signed level
        self.where = {}          # bakugan id -> zone index it stands on
        self.started = False
        self.dg = 0              # last frame's mean baseline step of the quiet zones
        self.frames = 0
        self.last_decision = None  # (zone, level, std error, frames averaged) of the last landing
        self.waits = {}          # why decisions waited: reason -> count (diagnostics)
        self.on_wait = None      # ... and each wait, to a replay that explains them (bakumat replay --why)
        # on_named(zone id, bakugan, posterior): each time the mat names a
        # landing (its decision, or named again from the refined level):
        # how sure it was (the benchmark's reliability table)
        self.on_named = None
        self.early = bool(p["early"])
        self.lastz = 0.0         # z score of the last identification
        self.lastp = 0.0         # ... the posterior of the one it named
        self.lastalt = None      # ... its runner-up when it was decided unsure
        self.lastcands = None    # ... the candidates it was among
        self.lastothers = ()
        self.prov = [None] * nz  # zone index -> (bakugan guessed, candidates then) of an early land
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
        u = self.unit
        self.on_t[zi] = p["on_sigma"] * u
        self.con_t[zi] = (p["coh_on_sigma"] * u * _isqrt(16 * k)) >> 2
        self.tol_t[zi] = (k * p["tol_quarters"] * u) >> 2
        self.coh_t[zi] = (_isqrt(32 * k) * p["coh_quarters"] * u) >> 4
        self.zdead[zi] = 1 if k == 0 else 0

    def register(self, bakugan, zone):
        """The next Bakugan that settles on `zone` is `bakugan`: learn its signature."""
        zi = self._zidx.get(zone)
        if zi is None:
            raise ValueError("no zone %r" % (zone,))
        self.pending[zi] = bakugan

    def rename(self, zone, old, new):
        """The players say the Bakugan standing on zone as `old` is `new`
        (an answer to `unsure`, or a correction): the mat follows."""
        zi = self._zidx.get(zone)
        if zi is None:
            return False
        for o in self.occ[zi]:
            if o.landed and o.bid == old:
                o.bid = new
                o.certain = False     # (not one to refine new's signature from)
                o.cands = None        # the players said: the refined level does not overrule them
                if old is not None and self.where.get(old) == zi:
                    del self.where[old]
                if new is not None:
                    self.where[new] = zi
                return True
        return False

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
        self.dg = 0
        self.started = True

    def baselines(self):
        """(frames taken, the channels' baselines in the pipeline's own fixed
        point: counts << 12), or None before the first frame. A recording
        starts its raw log with them (raw-log-v1 `baseline`)."""
        return (self.frames, list(self.base)) if self.started else None

    def resume(self, frames, base):
        """Take up from a recording's baselines() instead of starting afresh
        on its first frame: a replay of a recording that began on a quiet
        mat then decides on the very frames the board did. (Started afresh,
        its warm-up ends some frames apart from the board's and a baseline
        is off by a few tenths of a count: enough to tip a landing that
        reads between two Bakugan by a few hundred ms.)"""
        b = self.base
        for c in range(self.n):
            b[c] = base[c]
        self.frames = frames
        self.dg = 0
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
                    self._fault(c, _STUCK, t)
                    continue
            else:
                same[c] = 0
                last[c] = x
            dev[c] = x - ((base[c] + _BHALF) >> _BS)
        svf = self.svf
        acc = self.acc
        acw = self.acw
        ema = self.ema
        zch = self.zch
        on_t = self.on_t
        con_t = self.con_t
        tol_t = self.tol_t
        coh_t = self.coh_t
        wact = self.wact
        wt0 = self.wt0
        tw0 = self.tw0
        hold = self.hold
        nacc = self.nacc
        rfn = self.rfn
        nocc = self.nocc
        zdead = self.zdead
        dwell = self.dwell
        burst = self.burst
        bt0 = self.bt0
        bpk = self.bpk
        rollmax = self.roll_max
        bk = self.bk
        if self.frames < 64:
            bk = 3      # warm-up: settle the baselines quickly on the first frames
        sk = self.sk
        db = self.db
        usum = 0
        ucnt = 0
        dg = self.dg
        for zi in range(self.nz):
            if zdead[zi]:
                continue
            chs = zch[zi]
            m = len(chs)
            na = nacc[zi]
            e_sum = 0
            e_sig = 0
            s_sum = 0
            s_sig = 0
            for j in range(m):
                c = chs[j]
                if bad[c]:
                    continue
                d = dev[c]
                e = d - (svf[c] >> _SB)
                e_sig += e
                if e < 0:
                    e = -e
                if e > db:
                    e_sum += e - db
                s = d * na - acc[c]
                s_sig += s
                if s < 0:
                    s = -s
                s_sum += s
            if e_sig < 0:
                e_sig = -e_sig
            if e_sum >= on_t[zi] or e_sig >= con_t[zi]:
                if e_sum > bpk[zi]:
                    bpk[zi] = e_sum
                if wact[zi] and s_sum <= na * (tol_t[zi] + (e_sum >> _TOLSH)) and \
                        s_sig <= na * coh_t[zi] and -s_sig <= na * coh_t[zi]:
                    for j in range(m):
                        c = chs[j]
                        d = dev[c]
                        ema[c] += ((d << 4) - ema[c]) >> 1
                        if na < _NMAX:
                            acc[c] += d
                            acw[c] += na * d
                    if na < _NMAX:
                        nacc[zi] = na + 1
                    if t - wt0[zi] >= dwell and t >= hold[zi]:
                        wact[zi] = 0
                        burst[zi] = 0
                        self._settled(zi, t)
                else:
                    # a new window (or a restart: the field moved)
                    if not burst[zi]:
                        burst[zi] = 1
                        bt0[zi] = t
                        bpk[zi] = e_sum
                    if rfn[zi]:
                        self._refined(zi, t)
                    if self.cw[zi] == wt0[zi] and t - wt0[zi] <= _CW_CARRY_MS:
                        # an arrival on the standing one whose ball now pops
                        # open: the new window is still that arrival (the
                        # early land fed meanwhile started the battle, so
                        # the referee's picture can no longer say so)
                        self.cw[zi] = t
                    wact[zi] = 1
                    wt0[zi] = t
                    tw0[zi] = t
                    hold[zi] = 0
                    for j in range(m):
                        c = chs[j]
                        d = dev[c]
                        acc[c] = d
                        acw[c] = 0
                        ema[c] = d << 4
                    nacc[zi] = 1
            else:
                if wact[zi]:
                    wact[zi] = 0
                    if self.prov[zi] is not None:
                        self._unland(zi, t)
                if burst[zi]:
                    burst[zi] = 0
                    if rollmax and not nocc[zi] and t - bt0[zi] <= rollmax and bpk[zi] >= _ROLL_X * on_t[zi]:
                        self._emit("roll", t, "zone", self.zone_ids[zi])
                if nocc[zi]:
                    for j in range(m):
                        c = chs[j]
                        svf[c] += ((dev[c] << _SB) - svf[c]) >> sk
                    if rfn[zi]:
                        if na < _NMAX:
                            for j in range(m):
                                c = chs[j]
                                acc[c] += dev[c]
                            nacc[zi] = na + 1
                        if t >= self.rfe[zi]:
                            self._refined(zi, t)
                else:
                    for j in range(m):
                        c = chs[j]
                        if not bad[c]:
                            u = ((frame[c] << _BS) - base[c]) >> bk
                            base[c] += u
                            usum += u
                            ucnt += 1
                    continue
            # A busy zone's baselines are frozen, but drift common to the
            # whole board (supply, reference, temperature) moves them as it
            # moves the quiet zones' ones.
            if dg:
                for j in range(m):
                    base[chs[j]] += dg
        self.dg = usum // ucnt if ucnt else 0

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
        self.rfn[zi] = 0
        # The zone's steady state may have been the failing channel itself:
        # forget occupants that are not Bakugan.
        occ = self.occ[zi]
        keep = [o for o in occ if o.landed]
        if len(keep) != len(occ):
            self.occ[zi] = keep
            self.nocc[zi] = len(keep)
            if not keep:
                self._rezero(zi, None)
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
        lo = self.rail_lo
        hi = self.rail_hi
        for j in range(len(chs)):
            k = chs[j]
            x = self.last[k]
            if k != c and not self.bad[k] and lo < x < hi:
                d = self.dev[k]
                if d > lim or d < -lim:
                    return False
        return True

    def _rail(self, c, x, t):
        if self._quiet_elsewhere(c):
            self._fault(c, _DEAD if x <= self.rail_lo else _SAT, t)
        else:
            self.rail[c] = 0   # explained by a magnet for now: look again later

    def _rezero(self, zi, vec):
        """The zone is empty and still: vec (its mean deviations, or the last
        frame when None) is the new baseline."""
        chs = self.zch[zi]
        for j in range(len(chs)):
            c = chs[j]
            if not self.bad[c]:
                if vec is None:
                    self.base[c] = self.last[c] << _BS
                else:
                    self.base[c] += int(vec[j] * (1 << _BS))
                self.dev[c] = 0
            self.svf[c] = 0

    def _railed(self, zi):
        """True when a channel of zone zi sits at a rail and the zone's other
        channels do not see the field that would have to come with it: a
        failing channel, not a magnet. The decision waits (the rail check
        reports the fault after rail_ms)."""
        chs = self.zch[zi]
        bad = self.bad
        last = self.last
        dev = self.dev
        lo = self.rail_lo
        hi = self.rail_hi
        db = self.db
        railed = 0
        e = 0
        for j in range(len(chs)):
            c = chs[j]
            if bad[c]:
                continue
            x = last[c]
            if x <= lo or x >= hi:
                railed += 1
            else:
                d = dev[c]
                if d < 0:
                    d = -d
                if d > db:
                    e += d - db
        return railed > 0 and e < self.on_t[zi]

    def _signature(self, zi, vec, nframes):
        """(level, standard error, plausible) of the field vec (a change of
        the zone's state, averaged over nframes frames)."""
        chs = self.zch[zi]
        lo = self.rail_lo
        hi = self.rail_hi
        vs = []
        gs = []
        xs = []
        ys = []
        for j in range(len(chs)):
            c = chs[j]
            if self.bad[c]:
                continue
            x = self.last[c]
            if x <= lo or x >= hi:
                continue   # clipped: its value says little
            vs.append(vec[j])
            if self.gs is not None:
                gs.append(self.gs[c])
            else:
                xs.append(self.sx[c])
                ys.append(self.sy[c])
        if not vs:
            return 0.0, 1.0, False
        p = self.params
        if self.gs is not None:
            b, k, spread = signature.level(vs, gs)
            if k == 0:
                return 0.0, 1.0, False
            se = 1.1 * self.noise / (0.9 * (k * nframes) ** 0.5)
            ok = abs(b) >= p["min_level_sigma"] * se
            return b, se, ok
        a, px, py, res = signature.fit(xs, ys, vs, self.rects[zi], self.height)
        se = 0.15 * abs(a) + self.noise / (nframes ** 0.5)
        return a, se, res <= p["fit_max_residual"] and abs(a) > 0.0

    def _settled(self, zi, t):
        """Zone zi has held still for the dwell time in a new state: explain it."""
        if self._railed(zi):
            self.wact[zi] = 1
            return
        chs = self.zch[zi]
        m = len(chs)
        bad = self.bad
        na = self.nacc[zi]
        acc = self.acc
        svf = self.svf
        vec = [acc[chs[j]] / na for j in range(m)]
        ema = self.ema
        now = [ema[chs[j]] / 16.0 for j in range(m)]   # the last few frames
        old = [svf[chs[j]] / (1 << _SB) for j in range(m)]
        delta = [vec[j] - old[j] for j in range(m)]
        dsum = 0.0
        vsum = 0.0
        db = self.db
        for j in range(m):
            if not bad[chs[j]]:
                dsum += abs(delta[j])
                a = abs(vec[j])
                if a > db:
                    vsum += a - db
        occ = self.occ[zi]
        p = self.params
        # A lone Bakugan's field never changes sign as it is lifted (what a
        # lift leaves for a moment has its sign): a clear field of the
        # other sign over the whole window is a Bakugan of the other
        # polarity that arrived on it, however much of the standing one's
        # field it cancels (the checks below read near-cancellation as a
        # lift).
        arrived = False
        if len(occ) == 1 and occ[0].landed and occ[0].sig and self.context is not None and \
                zi not in self.pending:
            lv, se_v, ok_v = self._signature(zi, vec, na)
            # (beyond what a baseline that drifted leaves: half a noise
            # unit; and only when a Bakugan the referee expects has the
            # arrival's level: a lone Bakugan lifted and held tilted above
            # its card can read the other sign for a moment)
            if lv * occ[0].sig < 0.0 and abs(lv) >= 0.5 * self.unit + p["min_level_sigma"] * se_v:
                cands = self.context()
                if cands:
                    la, se_a, ok_a = self._signature(zi, [vec[j] - old[j] for j in range(m)], na)
                    arrived = ok_a and self._names_learnt(zi, la, se_a, t, cands) is not None
        if not arrived and len(occ) == 1 and self.cw[zi] == self.wt0[zi]:
            # this window was taken as an arrival on the standing one on an
            # earlier frame (an early land may be out): it stays one
            arrived = True
        # 1. Quiet: everything left, the field is back to the baseline.
        quiet = not arrived and self._quiet(zi, now, 3) and self._quiet(zi, self._perp(zi, vec, old), na)
        if quiet:
            if self._hold_leave(zi, t, True):
                return
            if self._cancels(zi, [vec[j] - old[j] for j in range(m)], na, t):
                quiet = False
                arrived = True
        if quiet:
            for o in occ:
                self._left(zi, o, t)
            if self.prov[zi] is not None:
                self._unland(zi, t)
            self.occ[zi] = []
            self.nocc[zi] = 0
            self.rfn[zi] = 0
            self._set_state(zi, [0.0] * m)
            return
        # 2. The change is (mostly) one occupant's own field scaled by k:
        # k near -1 it left; -1 < k < 0 it is being lifted (wait: the rest
        # follows within a few frames; a state that holds is a Bakugan of
        # the other polarity arriving); k > 0 shortly after its landing it
        # is still settling.
        best = None
        bk = 0.0
        bkey = 0.0
        lim = p["leave_match"] * dsum + self.tol_t[zi] / na
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
        shaped = best is not None
        gone = False
        if arrived:
            shaped = False
        if shaped and bk <= p["leave_match"] - 1.0:
            # A leave that leaves a clear field behind may be a Bakugan of
            # the other polarity arriving: a lift's tail fades within
            # lift_ms, an arrival holds.
            gone = True
            if best.landed:
                # What is left (the last frames) must be nothing, or a
                # lift's tail: the Bakugan still a few cm above the card, a
                # small same-sign share of its field that is gone within
                # tail_ms. Anything that holds longer, or has another shape
                # (a new magnet's bump), is a Bakugan of the other polarity
                # that arrived.
                c = best.contrib
                rest = [now[j] - old[j] + c[j] for j in range(m)]
                perp = self._perp(zi, [delta[j] + c[j] for j in range(m)], c)
                if not self._quiet(zi, rest, 3) or not self._quiet(zi, perp, na):
                    tail = False
                    arrival = False
                    if best.sig:
                        lr, se_r, ok_r = self._signature(zi, rest, 3)
                        a = lr / best.sig
                        if 0.0 <= a <= p["tail_share"]:
                            tail = self._quiet(zi, [rest[j] - a * c[j] for j in range(m)], 3)
                        elif a < 0.0 and ok_r and len(occ) == 1:
                            # a clear field of the other sign is left: no
                            # lift leaves that, a Bakugan of the other
                            # polarity arrived on the standing one
                            arrival = True
                    wait = p["tail_ms"] if tail else p["lift_ms"]
                    if not tail and not arrival and (self.stays is None or
                                                     not self.stays(self.zone_ids[zi], best.bid)):
                        # A lift the referee expects (it took the Bakugan
                        # off, or a battle's pair is being cleared): a 300 ms
                        # lift leaves a tail of another shape (tilted,
                        # shifted) for longer than lift_ms (measured: 13 of
                        # 15 false landings in 80 games were such tails).
                        wait = p["residue_ms"]
                    if not arrival and self._expected_arrival(zi, best):
                        arrival = True
                        self.cw[zi] = self.wt0[zi]
                    if not arrival and t - self.wt0[zi] < wait:
                        self._wait(zi, "tail" if tail else "residue")
                        self.wact[zi] = 1
                        self.hold[zi] = t + self.period_ms
                        return
                    # (a lesson is taught on an emptied card, never by a
                    # Bakugan landing on a standing one: with a `register`
                    # pending, what is left is the lifted one's residue)
                    if arrival or zi not in self.pending:
                        gone = False
        if gone and best.landed:
            if self._hold_leave(zi, t):
                return
            if self._cancels(zi, delta, na, t):
                gone = False
                shaped = False
                arrived = True
        if gone:
            if self.prov[zi] is not None:
                self._unland(zi, t)
            occ.remove(best)
            self._left(zi, best, t)
            self.rfn[zi] = 0
            if not occ:
                # what is left of a field being lifted away: it fades (or
                # is dropped once the zone reads quiet, see _refined)
                occ.append(Occupant(None, vec, False))
                self._set_state(zi, vec)
                self._refine_from(zi, t)
            else:
                self._set_state(zi, vec)
                r = occ[0]
                if len(occ) == 1 and r.landed:
                    self.plv[zi] = t
                    # The field left is the other one's own: its share was
                    # measured on top of the first one's, with that one's
                    # error in it, and its lift must match it (seen: -34.5
                    # taken for a field of -28; the lift's +28 was read as a
                    # Bakugan of +22.6 landing).
                    r.contrib = _dv(vec)
                    r.under = _dv([0.0] * m)
                    r.cands = None      # (battle over: not one to rename)
                    lv, se_v, ok_v = self._signature(zi, vec, na)
                    if ok_v and lv * r.sig > 0.0:
                        r.sig = lv
                    self._refine_from(zi, t)
            self.nocc[zi] = len(occ)
            return
        if shaped and bk < 0.0 and best.landed and t - self.wt0[zi] < p["lift_ms"]:
            if self._expected_arrival(zi, best):
                self.cw[zi] = self.wt0[zi]
                # (falls through to 4.: the arrival's own field is the change)
            else:
                self._wait(zi, "lift")
                self.wact[zi] = 1
                self.hold[zi] = self.wt0[zi] + p["lift_ms"]
                return
        if shaped and not best.landed and bk < 0.0:
            c = best.contrib
            for j in range(m):
                c[j] += delta[j]
            self._set_state(zi, vec)
            return
        # 3. Settling: shortly after a landing, any change but a leave is the
        # same Bakugan finishing its move (no second one comes that fast).
        last = None
        for o in occ:
            if o.landed and t - o.t < p["settle_ms"]:
                last = o
        if last is not None:
            c = last.contrib
            for j in range(m):
                c[j] += delta[j]
            self._set_state(zi, vec)
            self._refine_from(zi, t)
            return
        # 4. A new Bakugan: a field with a Bakugan's shape, identified.
        level, se, ok = self._signature(zi, delta, na)
        wt0 = self.wt0[zi]
        if ok and na >= 3 and t - self.tw0[zi] < p["trend_max_ms"]:
            # still rising or falling? (the last frames against the window)
            if self._moving(zi, level, now, old, na):
                # a window that began while the Bakugan was still opening
                # keeps those frames in its mean: start it again from this
                # frame (the dwell applies again)
                self._wait(zi, "trend")
                self._restart(zi, t)
                return
        if ok and not (shaped and bk < 0.0 and len(occ) > 1):
            # (not while one of a battle's two Bakugan may be being lifted)
            self._early(zi, level, se, t)
        if ok and zi in self.pending and t - wt0 < p["lesson_ms"]:
            # A lesson is the Bakugan's signature for the whole game: its
            # level must hold still for lesson_ms first (a Bakugan being put
            # down reads a creeping level that the trend checks let through,
            # and the refinement after it can be cut short).
            self._wait(zi, "lesson")
            self.wact[zi] = 1
            self.hold[zi] = wt0 + p["lesson_ms"]
            return
        decided = False
        got = None
        if ok:
            # The identity wait counts from when the level stopped moving, so
            # a forced decision never reads a Bakugan still opening.
            if self.flw[zi] != wt0 or self.flt[zi] < 0:
                self.flw[zi] = wt0
                self.flt[zi] = t
            force = t - self.flt[zi] >= p["max_wait_ms"]
            pv = self.prov[zi]
            if pv is not None and pv[0] is not None and self.where.get(pv[0]) == zi:
                del self.where[pv[0]]   # the guess is a candidate again
            self.lastalt = None
            got = self._identify(zi, level, se, force, t, pv[1] if pv is not None else None)
            decided = got is not None
            if decided and force and got[0] in self.sigs and not got[1] and \
                    self.lastz > (p["match_z"] if self.cw[zi] == wt0 else p["force_z"]):
                # Decided by the clock, yet no one who may land has this
                # level (a battle's pair lifted one after the other leaves
                # a fading tail in the window's mean): not a landing, the
                # field is unexplained (5.). A field that went away read as
                # a cancelling arrival (`cw`) must match as closely as an
                # undisturbed decision (match_z): a lift whose level is near
                # an expected one's was taken for it (measured: such
                # arrivals of 200 games matched within 3.5, 5 of the 14 lifts
                # were 4.8-9 away).
                self._wait(zi, "mismatch")
                decided = False
            if not decided and pv is not None and pv[0] is not None:
                self.where[pv[0]] = zi
            if got is None:
                self._wait(zi, "identity")
                self.wact[zi] = 1     # keep averaging, decide on a later frame
                self.hold[zi] = t + (self.period_ms if self.gs is not None else 3 * self.period_ms)
                return
        if decided and got is not None:
            bid, learned, certain = got
            o = Occupant(bid, delta, True, t)
            o.learned = learned
            o.certain = certain
            o.sig = level
            if not learned:
                o.cands = self.lastcands
                o.others = self.lastothers
            o.under = _dv(old)
            occ.append(o)
            self.nocc[zi] = len(occ)
            self._set_state(zi, vec)
            self._refine_from(zi, t)
            if bid is not None:
                self.where[bid] = zi
            self.last_decision = (self.zone_ids[zi], level, se, na)
            pv = self.prov[zi]
            if pv is not None:
                self.prov[zi] = None
                if pv[0] != bid:
                    if pv[0] is not None and self.where.get(pv[0]) == zi:
                        del self.where[pv[0]]
                    self._emit("ident", t, "zone", self.zone_ids[zi], "bakugan", bid)
            else:
                ev = {"ev": "land", "t": t, "zone": self.zone_ids[zi], "bakugan": bid}
                if learned:
                    ev["learned"] = True
                    alike = self._alike(bid, level)
                    if alike:
                        ev["alike"] = alike
                if self.sink is not None:
                    self.sink(ev)
            if self.on_named is not None and not learned:
                self.on_named(self.zone_ids[zi], bid, self.lastp)
            alt = self.lastalt
            if alt is not None and bid is not None and not learned:
                # the players can tell: the table asks the thrower
                ev = {"ev": "unsure", "t": t, "zone": self.zone_ids[zi], "bakugan": bid, "alt": alt}
                if self.sink is not None:
                    self.sink(ev)
            return
        # 5. Unexplained (a field still coming, a knock, a closed ball at
        # the edge): wait; absorb it only once it has held for absorb_ms.
        if t - self.wt0[zi] < p["absorb_ms"]:
            self._wait(zi, "unexplained")
            self.wact[zi] = 1
            self.hold[zi] = self.wt0[zi] + p["absorb_ms"]
            return
        pv = self.prov[zi]
        if pv is not None:
            # it was said to have landed: it stands there, as guessed
            self.prov[zi] = None
            o = Occupant(pv[0], delta, True, t)
            o.under = _dv(old)
            occ.append(o)
            self.nocc[zi] = len(occ)
        elif len(occ) == 1:
            c = occ[0].contrib
            for j in range(m):
                c[j] += delta[j]
        else:
            occ.append(Occupant(None, delta, False))
            self.nocc[zi] = len(occ)
        self._set_state(zi, vec)

    def _alike(self, bid, level):
        """Registered Bakugan whose signature is within alike_rel of level:
        the mat can take one for the other when both may land."""
        r = self.params["alike_rel"] * abs(level)
        return [b for b in self.sigs if b != bid and abs(self.sigs[b] - level) <= r]

    def _early(self, zi, level, se, t):
        """Say at once that something landed on zi, with the best guess of
        who it is; the decision in _settled (the level settled and averaged,
        the same candidates) confirms it or amends it with `ident`. Only a
        level that a candidate has (a ball rolling slowly through reads some
        weaker field for a moment), only once the window has held early_ms,
        never for a registration's lesson."""
        p = self.params
        if not self.early or self.prov[zi] is not None or zi in self.pending or \
                t - self.wt0[zi] < p["early_ms"]:
            return
        cands = self.context() if self.context is not None else None
        self.lastz = 0.0
        got = self._identify(zi, level, se, True, t, cands, True)
        if self.lastz <= p["early_z"] and got[0] in self.sigs:   # (a learnt level, not a guess at one)
            self.prov[zi] = (got[0], cands)
            if got[0] is not None:
                self.where[got[0]] = zi
            self._emit("land", t, "zone", self.zone_ids[zi], "bakugan", got[0])

    def _unland(self, zi, t):
        """The field of an early `land` went before it settled (a ball that
        stopped for a moment and rolled on): `unland`, the landing is taken
        back."""
        pv = self.prov[zi]
        self.prov[zi] = None
        if pv[0] is not None and self.where.get(pv[0]) == zi:
            del self.where[pv[0]]
        self._emit("unland", t, "zone", self.zone_ids[zi], "bakugan", pv[0])

    def _hold_leave(self, zi, t, both=False):
        """True (and the zone keeps its window) while the leave of a zone's
        only Bakugan has not held for leave_hold_ms: a second Bakugan of the
        other polarity rolling to a stop on the card can cancel the
        occupant's field for a few frames before it opens (a battle, not a
        lift). both: the zone reads empty; with two of opposite polarity
        standing, that must hold too."""
        k = 0
        sig = 0.0
        pair = False
        for o in self.occ[zi]:
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
            if k != 1 or not sig or self.context is None:
                return False   # (two stand: the battle is on, no third comes)
        p = self.params
        wt0 = self.wt0[zi]
        if self.lh[zi] == wt0:
            # the window was started again (below): the leave is judged on
            # its still frames once it has leave_quiet_ms of them
            if t >= wt0 + p["leave_quiet_ms"]:
                return False
            self._wait(zi, "leave")
            self.wact[zi] = 1
            self.hold[zi] = wt0 + p["leave_quiet_ms"]
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
            self._restart(zi, t)
            self.lh[zi] = t
            self._wait(zi, "leave")
            self.hold[zi] = t + p["leave_quiet_ms"]
            return True
        self._wait(zi, "leave")
        self.wact[zi] = 1
        self.hold[zi] = h
        return True

    def _expected_arrival(self, zi, o):
        """True when a field fading on zi's only Bakugan o is better read as
        a Bakugan of the other polarity landing on it than as o being
        lifted: the referee keeps o there and expects a throw from someone
        with a learnt level of the other sign, at least half as strong.
        Then the lift and residue waits are skipped (battles were most of
        the latency tail: p95 302 ms against 74 ms on empty cards); if it
        was a lift after all, the early land is taken back (`unland`)."""
        if self.stays is None or self.context is None or zi in self.pending or self._pair_going(zi):
            return False
        occ = self.occ[zi]
        if len(occ) != 1 or occ[0] is not o or not o.landed or not o.sig or o.bid is None:
            return False
        if not self.stays(self.zone_ids[zi], o.bid):
            return False
        return self._could_cancel(zi, o.sig, True)

    def _pair_going(self, zi):
        # One of a battle's pair went less than pair_ms before this window:
        # the field of the other fading is it being lifted too, not a throw
        # cancelling it (no throw comes that fast; the mat's referee, wrong
        # since an earlier name, may still keep it there and expect one of
        # the other polarity. Seen: 5 of 13 false landings in 200 games,
        # most named as the one lifted just before.)
        return self.wt0[zi] - self.plv[zi] < self.params["pair_ms"]

    def _could_cancel(self, zi, sig, free):
        """A Bakugan the referee expects has a learnt level of the other
        sign than sig, at least half as strong (free: and the mat does not
        see it standing on another zone)."""
        for b in self.context() or ():
            s = self.sigs.get(b)
            if s is not None and s * sig < 0.0 and 2.0 * abs(s) >= abs(sig) and \
                    (not free or self.where.get(b, zi) == zi):
                return True
        return False

    def _names_learnt(self, zi, level, se, t, cands):
        """The learnt Bakugan among cands that level names within match_z
        (an arrival's probe: a forced guess, no lesson taken), else None."""
        self.lastz = 99.0
        got = self._identify(zi, level, se, True, t, cands, True)
        if got is not None and got[0] is not None and got[0] in self.sigs and self.lastz <= self.params["match_z"]:
            return got[0]
        return None

    def _cancels(self, zi, delta, na, t):
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
        occ = self.occ[zi]
        if len(occ) != 1 or self.stays is None or self.context is None or zi in self.pending or \
                self._pair_going(zi):
            return False
        o = occ[0]
        if not o.landed or not o.sig or o.bid is None or self.lh[zi] != self.wt0[zi]:
            return False      # (the leave hold was applied: a candidate could cancel it)
        if self.cw[zi] == self.wt0[zi]:
            return True       # taken as an arrival on an earlier frame of this window
        if not self.stays(self.zone_ids[zi], o.bid):
            return False
        cands = self.context()
        if not cands:
            return False
        la, se_a, ok_a = self._signature(zi, delta, na)
        if not ok_a or la * o.sig >= 0.0:
            return False
        b = self._names_learnt(zi, la, se_a, t, cands)
        if b is not None and b != o.bid:
            # (the early land that follows starts a battle: the referee no
            # longer keeps the standing one, the window remembers instead)
            self.cw[zi] = self.wt0[zi]
            return True
        return False

    def _moving(self, zi, level, now, old, na):
        """True when the window's level (a change from the state old) is
        still rising or falling: the last frames (now) against the window's
        mean, and the window's slope."""
        m = len(self.zch[zi])
        lnow, se1, ok1 = self._signature(zi, [now[j] - old[j] for j in range(m)], 1)
        sd = se1 * ((1.0 / 3.0 + 1.0 / na) ** 0.5)
        return abs(lnow - level) > self.params["trend_sigma"] * sd or self._sloped(zi, level, se1, na)

    def _sloped(self, zi, level, se1, na):
        """True when the window's level still climbs: the least-squares slope
        of the frames (per frame, from the time-weighted sums) is more than
        slope_sigma standard errors towards a larger |level| (a ball rolling
        to a stop and popping open reads a steady ramp, not a step)."""
        sig = self.params["slope_sigma"]
        if sig <= 0 or na < 3:
            return False
        chs = self.zch[zi]
        kb = (na - 1) / 2.0
        sxx = na * (na * na - 1) / 12.0
        acc = self.acc
        acw = self.acw
        sl = [(acw[chs[j]] - kb * acc[chs[j]]) / sxx for j in range(len(chs))]
        ls, _, _ = self._signature(zi, sl, 1)
        if level < 0.0:
            ls = -ls
        return ls > sig * se1 * (12.0 / (na * (na * na - 1))) ** 0.5

    def _restart(self, zi, t):
        if self.cw[zi] == self.wt0[zi]:
            self.cw[zi] = t     # (an arrival window stays one when started again)
        chs = self.zch[zi]
        acc = self.acc
        dev = self.dev
        for j in range(len(chs)):
            c = chs[j]
            acc[c] = dev[c]
            self.acw[c] = 0
            self.ema[c] = dev[c] << 4
        self.nacc[zi] = 1
        self.wact[zi] = 1
        self.wt0[zi] = t
        self.hold[zi] = 0

    def _wait(self, zi, reason, who=None, x=0.0):
        """A decision on zone index zi waits, for `reason` (for ambiguous /
        mismatch: the Bakugan it reads as most like, and its posterior / z)."""
        self.waits[reason] = self.waits.get(reason, 0) + 1
        if self.on_wait is not None:
            self.on_wait(zi, reason, who, x)

    def _perp(self, zi, v, c):
        """v minus its projection on c: what of v is not a scaled copy of c."""
        chs = self.zch[zi]
        bad = self.bad
        cc = 0.0
        vc = 0.0
        for j in range(len(chs)):
            if not bad[chs[j]]:
                cc += c[j] * c[j]
                vc += v[j] * c[j]
        beta = vc / cc if cc > 0.0 else 0.0
        return [v[j] - beta * c[j] for j in range(len(chs))]

    def _quiet(self, zi, vec, na):
        """True when vec (a mean over na frames) is within the noise on every
        healthy channel of zone zi, and so is its sum."""
        chs = self.zch[zi]
        sd = self.noise / (na ** 0.5)
        lim = self.params["quiet_sigma"] * sd + self.unit
        tot = 0.0
        k = 0
        for j in range(len(chs)):
            if not self.bad[chs[j]]:
                v = vec[j]
                if v > lim or v < -lim:
                    return False
                tot += v
                k += 1
        return abs(tot) <= self.params["quiet_sigma"] * sd * (k ** 0.5) + k * self.unit * 0.25

    def _set_state(self, zi, vec):
        chs = self.zch[zi]
        svf = self.svf
        for j in range(len(chs)):
            svf[chs[j]] = int(vec[j] * (1 << _SB))

    def _refine_from(self, zi, t):
        """Average the next frames of a just-landed Bakugan into its signature."""
        self.rfn[zi] = 1
        self.rfe[zi] = t + self.params["refine_ms"]
        chs = self.zch[zi]
        for j in range(len(chs)):
            self.acc[chs[j]] = 0
        self.nacc[zi] = 0

    def _refined(self, zi, t):
        self.rfn[zi] = 0
        na = self.nacc[zi]
        if na < 5:
            return
        chs = self.zch[zi]
        occ = self.occ[zi]
        landed = [x for x in occ if x.landed]
        if len(landed) != len(occ):
            # Residues of fields lifted away: gone when the zone reads its
            # landed occupants' fields and nothing more.
            mean = [self.acc[chs[j]] / na for j in range(len(chs))]
            for x in landed:
                for j in range(len(chs)):
                    mean[j] -= x.contrib[j]
            if self._quiet(zi, mean, na):
                self.occ[zi] = landed
                self.nocc[zi] = len(landed)
                st = [0.0] * len(chs)
                for x in landed:
                    for j in range(len(chs)):
                        st[j] += x.contrib[j]
                self._set_state(zi, st)
            return
        o = None
        for x in self.occ[zi]:
            if x.landed and x.under is not None:
                o = x
        if o is None or o.bid is None:
            return
        m = len(chs)
        mean = [self.acc[chs[j]] / na for j in range(m)]
        # The zone's state is the refined mean from now on: the state set at
        # the decision (a few frames, maybe still rising) and followed only
        # slowly since would be the `under` of a second Bakugan landing here
        # (a battle), its error all in that one's level (seen: +10 %).
        self._set_state(zi, mean)
        contrib = [mean[j] - o.under[j] for j in range(m)]
        level, se, ok = self._signature(zi, contrib, na)
        if not ok:
            return
        o.contrib = _dv(contrib)
        o.sig = level
        if o.cands is not None and not o.learned and not o.certain and o is occ[-1]:
            self._reident(zi, o, level, se, t)
        if o.learned:
            self.sigs[o.bid] = level
        elif o.certain and o.bid in self.sigs:
            self.sigs[o.bid] = 0.75 * self.sigs[o.bid] + 0.25 * level

    def _reident(self, zi, o, level, se, t):
        """Name the Bakugan o again from its refined level (refine_ms of
        frames instead of the decision's few): a landing decided without
        certainty is amended (`ident`) when the refined level names another
        of the candidates it was decided among, and the table asks the
        thrower (`unsure`, the first name the other answer: the mat changed
        its mind). Only the zone's last landing (an `ident` amends the
        zone's last `land`)."""
        p = self.params
        cands = o.cands
        o.cands = None
        b, post, z = signature.posterior(level, se, cands, self.sigs, p["rel_spread"], o.others, p["other_prior"])
        if b is None or z > p["match_z"] or (b != o.bid and self.where.get(b, zi) != zi):
            return     # (or the one named stands on another zone)
        o.certain = post >= p["certain_p"]
        if self.on_named is not None and b == o.bid:
            self.on_named(self.zone_ids[zi], b, post)
        if b == o.bid:
            return
        old = o.bid
        o.bid = b
        if old is not None and self.where.get(old) == zi:
            del self.where[old]
        self.where[b] = zi
        self._emit("ident", t, "zone", self.zone_ids[zi], "bakugan", b)
        if self.on_named is not None:
            self.on_named(self.zone_ids[zi], b, post)
        if old is not None and self.sink is not None:
            # The mat changed its mind: the thrower is asked (the first name
            # is the other answer) even when the refined level looks clear.
            self.sink({"ev": "unsure", "t": t, "zone": self.zone_ids[zi], "bakugan": b, "alt": old})

    def _left(self, zi, o, t):
        if not o.landed:
            return
        if o.bid is not None and self.where.get(o.bid) == zi:
            del self.where[o.bid]
        self._emit("leave", t, "zone", self.zone_ids[zi], "bakugan", o.bid)

    def _identify(self, zi, level, se, force, t, cands=None, guess=False):
        """(bakugan id, learned?, certain?) for a Bakugan of signature level
        (standard error se) landing on zi, or None to wait for more frames:
        two candidates are still plausible, or none matches yet (a Bakugan
        still coming down), and max_wait_ms has not passed. guess: the early
        land's best guess, among the referee's candidates only (one it does
        not expect needs the settled level to win)."""
        bid = self.pending.pop(zi, None)
        if bid is not None:
            self.sigs[bid] = level
            return bid, True, True
        others = ()
        if cands is None and self.context is not None:
            cands = self.context()
        p = self.params
        if cands is None:
            cands = [b for b in self.sigs if b not in self.where]
        else:
            # One the mat sees standing on another zone is not this one.
            free = [b for b in cands if self.where.get(b, zi) == zi]
            if free:
                cands = free
            # The referee's picture can be wrong (an earlier landing taken
            # for another Bakugan): one it does not expect may still land,
            # if its signature says so clearly.
            if p["other_prior"] > 0.0 and not guess:
                others = [b for b in self.sigs if b not in cands and b not in self.where]
        if not cands and not others:
            self.lastp = 0.0
            return None, False, False     # nothing to tell it by: waiting would not help
        b, post, z = signature.posterior(level, se, cands, self.sigs, p["rel_spread"], others, p["other_prior"])
        self.lastz = z
        self.lastp = post
        self.lastalt = None
        self.lastcands = cands
        self.lastothers = others
        if force and not guess and post < p["decide_p"] and b in cands:
            # decided without being sure: the runner-up among the expected
            # ones is what the thrower may be asked about (`unsure`)
            rest = [c for c in cands if c != b and c in self.sigs]
            if rest:
                self.lastalt = signature.posterior(level, se, rest, self.sigs, p["rel_spread"])[0]
        if force:
            return b, False, post >= p["certain_p"]
        if post < p["decide_p"]:
            self._wait(zi, "ambiguous", b, post)
            return None
        if z > p["match_z"]:
            self._wait(zi, "mismatch", b, z)
            return None
        # A ball that has rolled to a stop reads below what it will read
        # standing open a moment later: a level that may be a stronger
        # candidate still opening waits until it has held for ramp_ms.
        sb = self.sigs.get(b)
        if sb is not None and t - self.wt0[zi] < p["ramp_ms"]:
            for c in cands:
                sc = self.sigs.get(c)
                if c != b and sc is not None and (sc > 0.0) == (sb > 0.0) and \
                        abs(level) < p["ramp_share"] * abs(sc):
                    self._wait(zi, "ramp")
                    return None
        return b, False, post >= p["certain_p"]
