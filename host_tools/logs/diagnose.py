"""Sensor diagnostics from raw frames (CPython): what `bakumat diag channels`
and `bakumat diag zones` compute from the board's `frame` stream.

    stats = channel_stats(frames)                  # frames: [(t, [counts])]
    rows = classify(board, stats)                  # per channel: health + why
    dups = identical_zones(board, frames)          # [(zone a, zone b)]
    walk = WalkZone(board, zone, baseline)         # feed frames; .placed/.removed

Thresholds come from the board definition's `sensor` block (zero_counts,
noise_counts_rms, max_counts, counts_per_mT) and the bring-up figures in
hardware/bring-up.md: baseline within offset_limit(board) of zero_counts,
noise at most twice the nominal rms.
"""
import math

OFFSET_COUNTS = 150     # baseline tolerance around sensor.zero_counts, at least (an ADC's gain/offset spread)
# ... and in field: a magnetometer on an empty mat reads Earth's field, 25-65
# uT along whatever axis (../shared/field-notes.md), plus its own zero-field
# offset (LIS2MDL: +-60 mG = 6 uT before its offset cancellation) and a
# little from steel nearby: 0.1 mT is all of that with room; a Bakugan left
# on a zone reads more on its nearest part (0.2 mT and up through a card)
OFFSET_MT = 0.1
NOISE_FACTOR = 2.0      # noise above this many times the nominal rms is "noisy"
RAIL_FRACTION = 0.02    # within 2 % of 0 or full scale = pinned at a rail
MIN_FRAMES = 20

HEALTH_TEXT = {
    "ok": "ok",
    "dead": "dead: reads 0 (sensor unpowered, an open trace or its select)",
    "saturated": "saturated: pinned at full scale (sensor output shorted high, or a magnet on it)",
    "stuck": "stuck: the value never changes (a real sensor always has some noise)",
    "noisy": "noisy: noise above twice the sensor's nominal",
    "offset": "off baseline: far from the zero-field value (a magnet nearby, or a faulty sensor)",
    "reversed": "reversed: moves the opposite way to the other sensors for the same magnet (mounted backwards?)",
    "silent": "silent: did not respond when a Bakugan stood on its zone",
}


def channel_stats(frames):
    """Per channel: {"mean", "noise" (rms about the mean), "min", "max", "n"}."""
    if not frames:
        return []
    n = len(frames)
    nch = len(frames[0][1])
    s = [0] * nch
    s2 = [0] * nch
    lo = list(frames[0][1])
    hi = list(frames[0][1])
    for _, v in frames:
        for c in range(nch):
            x = v[c]
            s[c] += x
            s2[c] += x * x
            if x < lo[c]:
                lo[c] = x
            if x > hi[c]:
                hi[c] = x
    out = []
    for c in range(nch):
        mean = s[c] / float(n)
        var = max(0.0, s2[c] / float(n) - mean * mean)
        out.append({"mean": mean, "noise": math.sqrt(var), "min": lo[c], "max": hi[c], "n": n})
    return out


def offset_limit(board):
    """Counts a healthy channel's baseline may lie from sensor.zero_counts
    on an empty mat: OFFSET_MT of field (Earth's and the part's own) in the
    board's counts, never below OFFSET_COUNTS (667 on the LIS2MDL mat)."""
    s = board["sensor"]
    return max(OFFSET_COUNTS, int(round(OFFSET_MT * float(s.get("counts_per_mT") or 0))))


def classify(board, stats):
    """One dict per channel: ch, zone, slot, baseline, noise, health, why."""
    sensor = board["sensor"]
    full = sensor["max_counts"]
    zero = sensor["zero_counts"]
    nominal = sensor["noise_counts_rms"]
    rail = RAIL_FRACTION * full
    off = offset_limit(board)
    zone_of = _zone_of_channel(board)
    rows = []
    for c, st in enumerate(stats):
        if st["max"] <= rail:
            h = "dead"
        elif st["min"] >= full - rail:
            h = "saturated"
        elif st["n"] >= MIN_FRAMES and st["max"] == st["min"] and nominal >= 0.5:
            h = "stuck"
        elif st["noise"] > max(2.0, NOISE_FACTOR * nominal):
            h = "noisy"
        elif abs(st["mean"] - zero) > off:
            h = "offset"
        else:
            h = "ok"
        z, slot = zone_of.get(c, (None, None))
        rows.append({"ch": c, "zone": z, "slot": slot, "baseline": int(round(st["mean"])),
                     "noise": round(st["noise"], 2), "min": st["min"], "max": st["max"],
                     "health": h, "why": HEALTH_TEXT[h]})
    return rows


def _zone_of_channel(board):
    """channel -> (zone id, index within the zone), from the board's sensors."""
    out = {}
    counts = {}
    for i, s in enumerate(board["sensors"]):
        z = s.get("zone") if type(s) is dict else None
        if z is None:
            continue
        c = s.get("ch", i)
        k = counts.get(z, 0)
        counts[z] = k + 1
        out[c] = (z, k)
    return out


def zone_channels(board):
    out = {}
    for c, (z, _) in _zone_of_channel(board).items():
        out.setdefault(z, []).append(c)
    return out


def identical_zones(board, frames):
    """Pairs of zones whose channels read exactly the same values in every
    frame (a select line stuck or open makes two zones one)."""
    zc = zone_channels(board)
    if len(frames) < MIN_FRAMES:
        return []
    keys = {}
    for z, chans in sorted(zc.items()):
        series = tuple(tuple(v[c] for c in chans) for _, v in frames)
        # a zone whose channels are all flat (dead/stuck) says nothing here
        if len(set(series)) <= 1:
            continue
        keys.setdefault(series, []).append(z)
    pairs = []
    for zs in keys.values():
        for i in range(len(zs)):
            for j in range(i + 1, len(zs)):
                pairs.append((zs[i], zs[j]))
    return sorted(pairs)


def select_line_hint(board, a, b):
    """What selects zones a and b apart, where the two read as one: on an
    SPI mat the decoder address lines (A0-A3) and enables (E0, E1, ...) in
    which their sensors' selects differ; on an I2C mat the multiplexers
    (their addresses) or channels; else the multiplexer select lines of
    the zone numbers (S0 = 1 ...)."""
    w = board.get("wiring") or {}
    zc = zone_channels(board)
    for kind in ("spi", "i2c"):
        bus = w.get(kind)
        if not bus:
            continue
        sel = bus["sensors"]
        diff = 0
        dec = False
        for ca, cb in zip(zc.get(a, []), zc.get(b, [])):
            (da, oa), (db, ob) = sel[ca // 3], sel[cb // 3]
            if kind == "spi":
                diff |= oa ^ ob
            else:
                diff |= 0 if oa == ob else 1
            dec = dec or da != db
        if kind == "spi":
            out = ["A%d" % k for k in range(4) if diff & (1 << k)]
            return out + (["E%d/E%d" % (sel[zc[a][0] // 3][0], sel[zc[b][0] // 3][0])] if dec else [])
        return (["multiplexer 0x%02x/0x%02x" % (sel[zc[a][0] // 3][0], sel[zc[b][0] // 3][0])] if dec else []) + \
            (["its channel select"] if diff else [])
    d = a ^ b
    return ["S%d" % k for k in range(4) if d & (1 << k)]


def select_line_words(board):
    """What the lines select_line_hint names are, for a sentence."""
    w = board.get("wiring") or {}
    if w.get("spi"):
        return "the sensors' decoder select line"
    if w.get("i2c"):
        return "the sensors' I2C multiplexer select"
    return "multiplexer select line"


class WalkZone:
    """One step of the walk-the-zones test: frames go in; once a Bakugan has
    stood on the zone and left, the per-channel responses are known.

    A channel responds when it moves more than `k` noise units (at least
    `min_counts`) from its baseline; the zone is "placed" while its strongest
    channel moves that much, and "removed" when every channel is back."""

    def __init__(self, board, zone, baseline, noise, k=8.0, min_counts=40, settle=5):
        self.zone = zone
        self.chans = zone_channels(board).get(zone, [])
        self.base = baseline
        self.thr = [max(min_counts, k * max(1.0, noise[c])) for c in range(len(baseline))]
        self.peak = {}              # channel -> signed delta of largest magnitude while placed
        self.other_peak = {}        # channels of other zones that moved
        self.placed = False
        self.removed = False
        self._on = 0
        self._off = 0
        self.settle = settle

    def feed(self, values):
        active = False
        for c in self.chans:
            d = values[c] - self.base[c]
            if abs(d) > self.thr[c]:
                active = True
            if abs(d) > abs(self.peak.get(c, 0)):
                self.peak[c] = d
        if not self.placed:
            self._on = self._on + 1 if active else 0
            if self._on >= self.settle:
                self.placed = True
            return
        for c in range(len(values)):
            if c in self.chans:
                continue
            d = values[c] - self.base[c]
            if abs(d) > self.thr[c] and abs(d) > abs(self.other_peak.get(c, 0)):
                self.other_peak[c] = d
        self._off = self._off + 1 if not active else 0
        if self._off >= self.settle:
            self.removed = True

    def strongest(self):
        if not self.peak:
            return None, 0
        c = max(self.peak, key=lambda k: abs(self.peak[k]))
        return c, self.peak[c]

    def silent(self):
        return [c for c in self.chans if abs(self.peak.get(c, 0)) <= self.thr[c]]


def reversed_channels(walks):
    """Channels whose zone's strongest response has the opposite sign to the
    strongest responses of most other zones (same Bakugan, same polarity)."""
    signs = []
    for w in walks:
        c, d = w.strongest()
        if c is not None and d != 0 and abs(d) > w.thr[c]:
            signs.append((c, 1 if d > 0 else -1))
    if len(signs) < 3:
        return []
    pos = sum(1 for _, s in signs if s > 0)
    major = 1 if pos * 2 > len(signs) else -1
    if pos * 2 == len(signs):
        return []
    return sorted(c for c, s in signs if s != major)
