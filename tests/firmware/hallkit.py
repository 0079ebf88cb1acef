"""The retired Hall mat's hand-made boards (no kernel table: the classic
detector), for the sensing tests not yet on sensekit's kernel-fit boards.

A small board shaped like the reference mat: zones of 64 x 90 mm with six
sensors each (2 x 3 grid), gate cards whose steel plate spreads a standing
Bakugan's field over the whole zone. The field model is written out here,
independently of the firmware's: a standing Bakugan of level b at (x, y)
gives every sensor of its zone b * (the plate's solid angle seen from the
sensor / 2 pi), plus the bump of a vertical dipole (2 b straight below, at
`height` mm) on the sensors near it. Deterministic pseudo-random noise, and
a Scene that turns magnets into frames.
"""
from math import atan2, pi, sqrt

ZERO = 2048
MAXC = 4095
HEIGHT = 10.0
PLATE = (56.0, 82.0, 2.1)   # plate w, h (centred on the zone) and height above the sensors


def board(nzones=2, noise=3, rate=50, plate=True):
    zones = []
    sensors = []
    for z in range(nzones):
        x0 = 10 + 70 * z
        zones.append({"id": z, "x": x0, "y": 10, "w": 64, "h": 90})
        for r in range(3):
            for col in range(2):
                sensors.append({"ch": len(sensors), "zone": z, "x": x0 + 16 + 32 * col, "y": 10 + 15 + 30 * r})
    b = {
        "name": "test",
        "zones": zones,
        "sensors": sensors,
        "sensor": {"zero_counts": ZERO, "counts_per_mT": 80, "max_counts": MAXC, "noise_counts_rms": noise},
        "sensor_plane_to_card_top_mm": 2.7,
        "rate_hz": rate,
        "sense": {"height_mm": HEIGHT},
    }
    if plate:
        b["card"] = {"w": 62, "h": 88}
        b["plate"] = {"w": PLATE[0], "h": PLATE[1], "depth_mm": 0.6, "attenuation": 0.3, "spread_mm": 4.0,
                      "capture": 0.5}
    return b


def solid_share(zone, sx, sy):
    """The zone's plate's solid angle seen from (sx, sy), over 2 pi."""
    cx = zone["x"] + zone["w"] / 2.0
    cy = zone["y"] + zone["h"] / 2.0
    dz = PLATE[2]
    total = 0.0
    for ex, ey, sign in ((1, 1, 1), (-1, 1, -1), (1, -1, -1), (-1, -1, 1)):
        x = cx + ex * PLATE[0] / 2.0 - sx
        y = cy + ey * PLATE[1] / 2.0 - sy
        total += sign * atan2(x * y, dz * sqrt(x * x + y * y + dz * dz))
    return total / (2.0 * pi)


def bump(b, dx, dy):
    """Dipole part of a Bakugan of level b at lateral offset (dx, dy)."""
    h = HEIGHT
    r2 = dx * dx + dy * dy
    d2 = r2 + h * h
    d = sqrt(d2)
    return 2.0 * b * h * h * h * (3.0 * h * h / d2 - 1.0) / (2.0 * d2 * d)


def bz(m, h, dx, dy):
    """A bare vertical dipole (no plate): m scaled so the value straight
    below is 2 m; for the dipole-fit tests."""
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
        x = self._u() + self._u() + self._u() + self._u() - 2.0
        return x * sigma * 1.7320508


class Scene:
    """Bakugan on the board -> frames. magnets: name -> (level, x, y)."""

    def __init__(self, b, seed=1):
        self.b = b
        self.magnets = {}
        self.noise = Noise(seed)
        self.sigma = b["sensor"]["noise_counts_rms"]
        self.offset = [0.0] * len(b["sensors"])
        self.t = 0
        self.dead = {}
        self.zones = b["zones"]

    def zone_at(self, x, y):
        for z in self.zones:
            if z["x"] <= x <= z["x"] + z["w"] and z["y"] <= y <= z["y"] + z["h"]:
                return z
        return None

    def field(self, s):
        v = 0.0
        for name in self.magnets:
            lv, x, y = self.magnets[name]
            z = self.zone_at(x, y)
            if z is not None and z["id"] == s["zone"]:
                v += lv * solid_share(z, s["x"], s["y"])
            v += bump(lv, s["x"] - x, s["y"] - y)
        return v

    def frame(self):
        out = []
        for s in self.b["sensors"]:
            c = s["ch"]
            if c in self.dead:
                out.append(self.dead[c])
                continue
            v = ZERO + self.offset[c] + self.field(s)
            if self.sigma:
                v += self.noise.gauss(self.sigma)
            v = int(v + 0.5) if v >= 0 else 0
            if v > MAXC:
                v = MAXC
            out.append(v)
        return out

    def run(self, pipe, ms, step=None):
        """Feed `ms` milliseconds of frames."""
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
