"""Hand-made boards and frames for the sensing tests (CPython and MicroPython).

A small board: zones of 64 x 90 mm with six sensors each (2 x 3 grid), a
vertical-dipole field model written out here (independent of the firmware's
own kernel), deterministic pseudo-random noise, and a Scene that turns a
list of magnets into frames.
"""
from math import sqrt

ZERO = 2048
MAXC = 4095


def board(nzones=2, noise=3, rate=50):
    zones = []
    sensors = []
    for z in range(nzones):
        x0 = 10 + 70 * z
        zones.append({"id": z, "x": x0, "y": 10, "w": 64, "h": 90})
        for r in range(3):
            for col in range(2):
                sensors.append({"ch": len(sensors), "zone": z, "x": x0 + 16 + 32 * col, "y": 10 + 15 + 30 * r})
    return {
        "name": "test",
        "zones": zones,
        "sensors": sensors,
        "sensor": {"zero_counts": ZERO, "counts_per_mT": 80, "max_counts": MAXC, "noise_counts_rms": noise},
        "sensor_plane_to_card_top_mm": 3,
        "rate_hz": rate,
        "sense": {"height_mm": 9.0},
    }


def bz(m, h, dx, dy):
    """z field (counts) of a vertical dipole of strength m at height h, seen
    at lateral offset (dx, dy): the textbook formula, m scaled so the value
    straight below is 2 m."""
    r2 = dx * dx + dy * dy
    d2 = r2 + h * h
    d = sqrt(d2)
    return m * h * h * h * (3.0 * h * h / d2 - 1.0) / (d2 * d)


class Noise:
    """Deterministic approximately normal noise (sum of 4 uniforms)."""

    def __init__(self, seed=1):
        self.s = seed & 0x7FFFFFFF or 1

    def _u(self):
        self.s = (1103515245 * self.s + 12345) & 0x7FFFFFFF
        return self.s / 2147483648.0

    def gauss(self, sigma):
        # variance of a sum of 4 U(0,1) is 1/3
        x = self._u() + self._u() + self._u() + self._u() - 2.0
        return x * sigma * 1.7320508


class Scene:
    """Magnets on the board -> frames. magnets: dict name -> (m, x, y)."""

    def __init__(self, b, seed=1, h=9.0):
        self.b = b
        self.h = h
        self.magnets = {}
        self.noise = Noise(seed)
        self.sigma = b["sensor"]["noise_counts_rms"]
        self.offset = [0.0] * len(b["sensors"])
        self.t = 0
        self.dead = {}

    def frame(self):
        out = []
        for s in self.b["sensors"]:
            c = s["ch"]
            if c in self.dead:
                out.append(self.dead[c])
                continue
            v = ZERO + self.offset[c]
            for name in self.magnets:
                m, x, y = self.magnets[name]
                v += bz(m, self.h, s["x"] - x, s["y"] - y)
            if self.sigma:
                v += self.noise.gauss(self.sigma)
            v = int(v + 0.5) if v >= 0 else 0
            if v > MAXC:
                v = MAXC
            out.append(v)
        return out

    def run(self, pipe, ms, step=None):
        """Feed `ms` milliseconds of frames; return the events seen."""
        step = step or int(1000 / self.b["rate_hz"])
        end = self.t + ms
        while self.t < end:
            pipe.feed(self.frame(), self.t)
            self.t += step


class Collect:
    def __init__(self):
        self.events = []

    def __call__(self, ev):
        self.events.append(ev)

    def kinds(self, kind):
        return [e for e in self.events if e["ev"] == kind]
