"""Channel health (docs/sensing-pipeline.md, "Per frame" 1): per channel,
the frames in a row at a rail and of exactly repeated counts; a channel
pinned at a rail with nothing to explain it, or returning the same count
for seconds despite sensor noise, is reported once as a fault and left out.

Per frame (`scan`): integer only, nothing allocated. The zone's
consequences of a fault (thresholds, window, occupants, the event) are the
pipeline's: `Pipeline._fault`. Where the interpreter compiles viper, the
channel loop runs as machine code (sense.viperloops: scan16 / scan32, the
uneventful channels; a channel that reaches a fault count goes through the
plain loop below, `_plain`); elsewhere (CPython, the WebAssembly port) the
plain loop does all of it.
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

_BS = const(12)        # baseline fixed point (sense.frames): counts << _BS
_BHALF = const(2048)   # 1 << (_BS - 1)

# Fault codes in `bad` (0 = healthy).
DEAD = const(1)
STUCK = const(2)
SAT = const(3)
FAULT_KINDS = (None, "dead", "stuck", "saturated")


class Health:
    """Owns bad (fault code per channel), last (its last count), same and
    rail (counters). p: the pipeline (its zones, occupants and `_fault`)."""

    def __init__(self, p, n, max_counts, noise, rate, ish=0):
        par = p.params
        self.p = p
        self.ish = ish   # the pipeline's units: counts >> ish (sense.frames)
        self.lo = int(par["rail_margin"])            # counts from 0 / max_counts that count as rail
        self.hi = max_counts - int(par["rail_margin"])
        self.rail_n = int(par["rail_ms"] * rate / 1000.0) or 1
        # Exactly repeated counts only mean "stuck" when the sensor is noisy
        # enough that a healthy one never repeats for that long.
        self.stuck_n = int(par["stuck_ms"] * rate / 1000.0) if noise >= 0.5 else 0
        self.last = array("i", [-1] * n)
        self.same = array("i", [0] * n)
        self.rail = array("h" if self.rail_n < 32767 else "i", [0] * n)   # (never past rail_n)
        self.bad = bytearray(n)
        # the viper kernel's arguments (sense.viperloops H_*), then its
        # integers (HK) and the kernel for the frame in _kargs[0], chosen
        # when the frame object changes (few new names: a module's names are
        # heap on the chip, and a name pool grows by doubling)
        self.fast = viperloops is not None and self.rail_n < 32767
        self._kargs = None

    def scan(self, frame, t, base, dev):
        """One frame: the counters, the faults they reach, and each healthy
        channel's deviation from its baseline (dev)."""
        if not self.fast:
            self._plain(frame, t, base, dev, 0, len(self.bad))
            return
        a = self._kargs
        if a is None or dev is not a[5] or base is not a[6]:
            a = self._kargs = [None, self.bad, self.rail, self.same, self.last, dev, base,
                            array("i", [len(self.bad), self.lo, self.hi, self.rail_n, self.stuck_n, self.ish]), None, 0]
        if frame is not a[0]:
            # (the scanner fills the same frame: this runs once) the kernel
            # for its items: scan16, scan32, or None (a list, a signed or a
            # 64-bit array: the plain loop). MicroPython's arrays have no
            # typecode or itemsize attribute: both from a one-item slice
            # ("array('H', [...])"; 'L' is 4 bytes on the chip, 8 on a
            # 64-bit host), read once, in a[9] (0: not yet): a pipeline's
            # arrays all come from one scanner, and a replay that feeds a
            # new array each frame must not allocate a slice each frame
            a[0] = frame
            a[8] = None
            if type(frame) is array and len(frame):
                if a[9] == 0:
                    a[9] = None
                    one = frame[:1]
                    if repr(one)[7:8] in ("H", "I", "L"):
                        n = len(bytes(one))
                        k = viperloops.KERNELS
                        a[9] = k[0] if n == 2 else k[1] if n == 4 else None
                a[8] = a[9]
        k = a[8]
        n = len(self.bad)
        if k is None:
            self._plain(frame, t, base, dev, 0, n)
            return
        kv = a[7]
        c = k(0, a, kv)
        while c < n:
            self._plain(frame, t, base, dev, c, c + 1)
            c = k(c + 1, a, kv)

    def _plain(self, frame, t, base, dev, first, end):
        """The plain loop over channels first .. end - 1."""
        bad = self.bad
        rail = self.rail
        same = self.same
        last = self.last
        lo = self.lo
        hi = self.hi
        railn = self.rail_n
        stuckn = self.stuck_n
        ish = self.ish
        for c in range(first, end):
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
                    self.p._fault(c, STUCK, t)
                    continue
            else:
                same[c] = 0
                last[c] = x
            dev[c] = (x >> ish) - ((base[c] + _BHALF) >> _BS)

    def healthy(self, chs):
        """How many of the channels chs are healthy."""
        bad = self.bad
        k = 0
        for j in range(len(chs)):
            if not bad[chs[j]]:
                k += 1
        return k

    def clipped(self, c):
        """True when channel c's last count sits at a rail (its value says little)."""
        x = self.last[c]
        return x <= self.lo or x >= self.hi

    def _quiet_elsewhere(self, c):
        """True when no other healthy channel of c's zone sees a field and no
        Bakugan stands there: nothing explains channel c's reading."""
        p = self.p
        fr = p.fr
        zi = p.chz[c]
        if p.oc.landed(zi):
            return False
        chs = p.zch[zi]
        lim = 4 * fr.unit
        lo = self.lo
        hi = self.hi
        for j in range(len(chs)):
            k = chs[j]
            x = self.last[k]
            if k != c and not self.bad[k] and lo < x < hi:
                d = fr.dev[k]
                if d > lim or d < -lim:
                    return False
        return True

    def _rail(self, c, x, t):
        if self._quiet_elsewhere(c):
            self.p._fault(c, DEAD if x <= self.lo else SAT, t)
        else:
            self.rail[c] = 0   # explained by a magnet for now: look again later

    def railed(self, zi):
        """True when a channel of zone zi sits at a rail and the zone's other
        channels do not see the field that would have to come with it: a
        failing channel, not a magnet. The decision waits (the rail check
        reports the fault after rail_ms)."""
        p = self.p
        fr = p.fr
        chs = p.zch[zi]
        bad = self.bad
        last = self.last
        dev = fr.dev
        lo = self.lo
        hi = self.hi
        db = fr.db
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
        return railed > 0 and e < fr.on_t[zi]
