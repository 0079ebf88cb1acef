"""Frame windows (docs/sensing-pipeline.md, "Per frame" 2 and 3): each
channel's baseline and deviation, and per zone the trigger (E, C against
the zone's steady state), the window of still frames and its sums, the
dwell that makes a window a candidate new state, and the refinement sums
after a landing.

Per frame (`feed`): integer arithmetic on preallocated arrays, nothing
allocated; a zone that settled, a window that closed or started again, or a
ball that rolled across calls the stage that takes it from there
(`Decide.settled`, `Identifier.refined`, `Occupants.unland`, ...). The
window helpers below (means, restart, state) run only while a zone is
being decided. Where the interpreter compiles viper, the zone loop runs as
machine code (sense.viperloops.zones: quiet zones, still windows); a zone
whose frame calls a stage goes through the plain loop (`_plain`), which
elsewhere (CPython, the WebAssembly port) does all of it.
"""
from array import array

try:
    from sense import viperloops   # viper kernels, where the interpreter compiles them
except (ImportError, SyntaxError, ValueError, NameError):   # CPython, no native emitter, another arch's .mpy
    viperloops = None

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_BS = const(12)        # baseline fixed point: counts << _BS (sense.health computes dev with it too)
_SB = const(8)         # settled-state fixed point
_TOLSH = const(5)      # stability tolerance: + E >> _TOLSH
_ROLL_X = const(4)     # a roll's peak E is this many zone thresholds: noise never is
_NMAX = const(255)     # frames averaged at most


def log2(x):
    k = 0
    while (1 << (k + 1)) <= x:
        k += 1
    return k


def isqrt(x):
    r = 0
    while (r + 1) * (r + 1) <= x:
        r += 1
    return r


class Frames:
    """Owns the per-channel baseline / deviation / window sums and the
    per-zone window state. p: the pipeline (zones, health, occupants, and
    the decisions it calls)."""

    def __init__(self, p, n, nz, unit, noise, rate, ish=0):
        par = p.params
        self.p = p
        # counts >> ish are the pipeline's units (Pipeline: a fine-grained
        # sensor's counts brought to a few units of noise, so every
        # fixed-point sum stays a small int)
        self.ish = ish
        self.unit = unit
        self.noise = noise
        self.period_ms = int(1000.0 / rate + 0.5)
        self.dwell = int(par["dwell_ms"])
        self.roll_max = int(par["roll_max_ms"])
        self.bk = log2(int(par["baseline_tau_ms"] * rate / 1000.0) or 1)
        self.sk = log2(int(par["settled_tau_ms"] * rate / 1000.0) or 1)
        self.db = int(par["dead_sigma"] * unit)
        # Per-channel state.
        self.base = array("i", [0] * n)
        self.dev = array("i", [0] * n)
        self.svf = array("i", [0] * n)
        self.acc = array("i", [0] * n)
        self.acw = array("i", [0] * n)   # sum of k * d over the window (k = frame index): slope
        self.ema = array("i", [0] * n)   # fast average of the window (counts << 4)
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
        self.hold = array("i", [0] * nz)
        self.nacc = array("i", [0] * nz)
        self.rfn = bytearray(nz)
        self.rfe = array("i", [0] * nz)
        self.zdead = bytearray(nz)
        self.started = False
        self.dg = 0              # last frame's mean baseline step of the quiet zones
        self.frames = 0
        # the zone kernel's arrays (sense.viperloops Z_*, made at the first
        # frame), then its integers (ZK: nz, t, dwell, bk, sk, db, ish, dg,
        # usum, ucnt; usum and ucnt for the plain loop too)
        self.fast = viperloops is not None
        self._kargs = [None] * 23 + [array("i", [0] * 10)]

    def thresholds(self, zi):
        """The zone's thresholds for its healthy channels."""
        p = self.p
        k = p.hl.healthy(p.zch[zi])
        par = p.params
        u = self.unit
        self.on_t[zi] = par["on_sigma"] * u
        self.con_t[zi] = (par["coh_on_sigma"] * u * isqrt(16 * k)) >> 2
        self.tol_t[zi] = (k * par["tol_quarters"] * u) >> 2
        self.coh_t[zi] = (isqrt(32 * k) * par["coh_quarters"] * u) >> 4
        self.zdead[zi] = 1 if k == 0 else 0

    def start(self, frame):
        base = self.base
        last = self.p.hl.last
        ish = self.ish
        for c in range(len(base)):
            x = frame[c]
            base[c] = (x >> ish) << _BS
            last[c] = x
        self.dg = 0
        self.started = True

    def resume(self, frames, base):
        b = self.base
        for c in range(len(b)):
            b[c] = base[c]
        self.frames = frames
        self.dg = 0
        self.started = True

    # -- per frame -------------------------------------------------------

    def feed(self, frame, t):
        p = self.p
        base = self.base
        if len(frame) != len(base):
            raise ValueError("frame has %d channels, expected %d" % (len(frame), len(base)))
        self.frames += 1
        if not self.started:
            self.start(frame)
            return
        p.hl.scan(frame, t, base, self.dev)
        bk = self.bk
        if self.frames < 64:
            bk = 3      # warm-up: settle the baselines quickly on the first frames
        z = self._kargs
        kv = z[23]
        kv[8] = 0       # usum, ucnt: the quiet zones' baseline steps
        kv[9] = 0
        nz = len(p.zch)
        if self.fast:
            if z[0] is None or z[21] is not p.oc.nocc or z[2] is not p.hl.bad:
                # the kernel's arrays (sense.viperloops Z_*): the zones'
                # channels flattened (zoff, zc), then the arrays the loop reads
                zch = p.zch
                zoff = array("h", [0] * (nz + 1))
                k = 0
                for zi in range(nz):
                    k += len(zch[zi])
                    zoff[zi + 1] = k
                zc = array("h", [0] * k)
                k = 0
                for chs in zch:
                    for c in chs:
                        zc[k] = c
                        k += 1
                a = (zoff, zc, p.hl.bad, self.dev, self.svf, self.acc, self.acw, self.ema, self.base,
                     p.hl.last, self.on_t, self.con_t, self.tol_t, self.coh_t, self.wact, self.wt0,
                     self.hold, self.nacc, self.rfn, self.zdead, self.burst, p.oc.nocc, self.bpk)
                for k in range(23):
                    z[k] = a[k]
            kv[0] = nz
            kv[1] = t
            kv[2] = self.dwell
            kv[3] = bk
            kv[4] = self.sk
            kv[5] = self.db
            kv[6] = self.ish
            kv[7] = self.dg
            zones = viperloops.KERNELS[2]
            zi = zones(0, z, kv)
            while zi < nz:
                self._plain(frame, t, zi, zi + 1, bk)
                zi = zones(zi + 1, z, kv)
        else:
            self._plain(frame, t, 0, nz, bk)
        self.dg = kv[8] // kv[9] if kv[9] else 0

    def _plain(self, frame, t, first, end, bk):
        """The plain zone loop over zones first .. end - 1 (the quiet zones'
        baseline steps summed in _kargs[23][8], counted in [9])."""
        p = self.p
        base = self.base
        dev = self.dev
        bad = p.hl.bad
        svf = self.svf
        acc = self.acc
        acw = self.acw
        ema = self.ema
        zch = p.zch
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
        oc = p.oc
        nocc = oc.nocc
        prov = oc.prov
        dc = p.dc
        idf = p.idf
        zdead = self.zdead
        dwell = self.dwell
        burst = self.burst
        bt0 = self.bt0
        bpk = self.bpk
        rollmax = self.roll_max
        ish = self.ish
        sk = self.sk
        db = self.db
        kv = self._kargs[23]
        usum = kv[8]
        ucnt = kv[9]
        dg = self.dg
        for zi in range(first, end):
            if zdead[zi]:
                continue
            chs = zch[zi]
            m = len(chs)
            na = nacc[zi]
            # the trigger (Frames.trigger computes the same for a view) and
            # the window's departures, in one pass
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
                        dc.settled(zi, t)
                else:
                    # a new window (or a restart: the field moved)
                    if not burst[zi]:
                        burst[zi] = 1
                        bt0[zi] = t
                        bpk[zi] = e_sum
                    if rfn[zi]:
                        idf.refined(zi, t)
                    p.bt.window_again(zi, wt0[zi], t)
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
                    if prov[zi] is not None:
                        oc.unland(zi, t)   # an early land whose field went before it held still
                if burst[zi]:
                    burst[zi] = 0
                    if rollmax and not nocc[zi] and t - bt0[zi] <= rollmax and bpk[zi] >= _ROLL_X * on_t[zi]:
                        p._emit("roll", t, "zone", p.zone_ids[zi])
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
                            idf.refined(zi, t)
                else:
                    for j in range(m):
                        c = chs[j]
                        if not bad[c]:
                            u = (((frame[c] >> ish) << _BS) - base[c]) >> bk
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
        kv[8] = usum
        kv[9] = ucnt

    # -- probes (a view, a replay that explains) ---------------------------

    def trigger(self, zi):
        """(E, C) of zone zi after the last frame: the sum over its healthy
        channels of |dev - state| above the dead band, and |sum of (dev -
        state)|, the figures `feed` compares with on_t and con_t."""
        chs = self.p.zch[zi]
        bad = self.p.hl.bad
        dev = self.dev
        svf = self.svf
        db = self.db
        e_sum = 0
        e_sig = 0
        for j in range(len(chs)):
            c = chs[j]
            if bad[c]:
                continue
            e = dev[c] - (svf[c] >> _SB)
            e_sig += e
            if e < 0:
                e = -e
            if e > db:
                e_sum += e - db
        return e_sum, (e_sig if e_sig >= 0 else -e_sig)

    # -- the window, while a zone is decided (floats, allocation) ------------

    def mean(self, zi):
        """The window's mean deviation per zone channel."""
        chs = self.p.zch[zi]
        na = self.nacc[zi]
        acc = self.acc
        return [acc[chs[j]] / na for j in range(len(chs))]

    def recent(self, zi):
        """The last few frames (a fast average) per zone channel."""
        chs = self.p.zch[zi]
        ema = self.ema
        return [ema[chs[j]] / 16.0 for j in range(len(chs))]

    def state(self, zi):
        """The zone's steady state (what its occupants read) per channel."""
        chs = self.p.zch[zi]
        svf = self.svf
        return [svf[chs[j]] / (1 << _SB) for j in range(len(chs))]

    def set_state(self, zi, vec):
        chs = self.p.zch[zi]
        svf = self.svf
        for j in range(len(chs)):
            svf[chs[j]] = int(vec[j] * (1 << _SB))

    def keep(self, zi, until):
        """The zone keeps its window and decides again at `until` at the earliest."""
        self.wact[zi] = 1
        self.hold[zi] = until

    def restart(self, zi, t):
        """Start the zone's window again from this frame (the dwell applies again)."""
        chs = self.p.zch[zi]
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

    def refine_from(self, zi, t, ms):
        """Average the zone's next frames (for ms) into the refinement sums."""
        self.rfn[zi] = 1
        self.rfe[zi] = t + ms
        chs = self.p.zch[zi]
        for j in range(len(chs)):
            self.acc[chs[j]] = 0
        self.nacc[zi] = 0

    def rezero(self, zi, vec):
        """The zone is empty and still: vec (its mean deviations, or the last
        frame when None) is the new baseline."""
        p = self.p
        chs = p.zch[zi]
        bad = p.hl.bad
        last = p.hl.last
        for j in range(len(chs)):
            c = chs[j]
            if not bad[c]:
                if vec is None:
                    self.base[c] = (last[c] >> self.ish) << _BS
                else:
                    self.base[c] += int(vec[j] * (1 << _BS))
                self.dev[c] = 0
            self.svf[c] = 0

    def slope(self, zi, na):
        """The least-squares slope of the window's na frames per zone channel
        (from the time-weighted sums), per frame."""
        chs = self.p.zch[zi]
        kb = (na - 1) / 2.0
        sxx = na * (na * na - 1) / 12.0
        acc = self.acc
        acw = self.acw
        return [(acw[chs[j]] - kb * acc[chs[j]]) / sxx for j in range(len(chs))]

    def perp(self, zi, v, c):
        """v minus its projection on c: what of v is not a scaled copy of c."""
        chs = self.p.zch[zi]
        bad = self.p.hl.bad
        cc = 0.0
        vc = 0.0
        for j in range(len(chs)):
            if not bad[chs[j]]:
                cc += c[j] * c[j]
                vc += v[j] * c[j]
        beta = vc / cc if cc > 0.0 else 0.0
        return [v[j] - beta * c[j] for j in range(len(chs))]

    def quiet(self, zi, vec, na):
        """True when vec (a mean over na frames) is within the noise on every
        healthy channel of zone zi, and so is its sum."""
        p = self.p
        chs = p.zch[zi]
        bad = p.hl.bad
        qs = p.params["quiet_sigma"]
        sd = self.noise / (na ** 0.5)
        lim = qs * sd + self.unit
        tot = 0.0
        k = 0
        for j in range(len(chs)):
            if not bad[chs[j]]:
                v = vec[j]
                if v > lim or v < -lim:
                    return False
                tot += v
                k += 1
        return abs(tot) <= qs * sd * (k ** 0.5) + k * self.unit * 0.25
