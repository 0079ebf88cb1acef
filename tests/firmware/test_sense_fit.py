"""The kernel fit (sense/fit.py) and the pipeline on a board that carries a
kernel table (docs/formats/kernel-table-v1.md): a tilted magnet between the
grid's cells is found with its moment; a zone of two three-axis sensors
lands, names and leaves Bakugan by their fitted moments.

The table here is the free dipole's (no plate), written out in this file
independently of host_tools/boards/kernels.py (which needs numpy and the worlds).
"""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

from binascii import b2a_base64
from math import cos, pi, sin, sqrt
from struct import pack_into

from sense.fit import Kernels
from sense.pipeline import Pipeline

K_MT = 1.0e5           # mu0 / 4 pi, r in mm, B in mT, m in A m^2
CPM = 2000.0           # counts per mT
TOP = 2.7              # sensor plane to card top, mm
SENSORS = ((0.0, -22.0), (0.0, 22.0))   # from the zone's centre; x, y, z channels each
AXES = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
HEIGHTS = (2.5, 3.75, 5.0)
STEP = 3.0
NX = 15
NY = 24


def dipole(m, u, px, py, pz, sx, sy):
    """B (mT, 3 components) at (sx, sy, 0) of moment m (A m^2) along unit u at (px, py, pz)."""
    rx = sx - px
    ry = sy - py
    rz = -pz
    r2 = rx * rx + ry * ry + rz * rz
    r = sqrt(r2)
    mr = (u[0] * rx + u[1] * ry + u[2] * rz) / r
    k = K_MT * m / (r2 * r)
    return (k * (3.0 * mr * rx / r - u[0]), k * (3.0 * mr * ry / r - u[1]), k * (3.0 * mr * rz / r - u[2]))


def readings(m, u, x, y, h):
    """The six channels' counts (no offset) of a magnet at (x, y) mm from the zone's centre, h above the card."""
    out = []
    for sx, sy in SENSORS:
        b = dipole(m, u, x, y, TOP + h, sx, sy)
        for a in AXES:
            out.append(CPM * (b[0] * a[0] + b[1] * a[1] + b[2] * a[2]))
    return out


def table():
    x0 = -(NX - 1) * STEP / 2.0
    y0 = -(NY - 1) * STEP / 2.0
    raw = bytearray(4 * 18 * NX * NY * len(HEIGHTS))
    i = 0
    for h in HEIGHTS:
        for iy in range(NY):
            for ix in range(NX):
                per = [readings(1e-3, a, x0 + ix * STEP, y0 + iy * STEP, h) for a in AXES]
                for j in range(6):
                    for d in range(3):
                        pack_into("<f", raw, i, per[d][j])
                        i += 4
    return {"format": "bakumat-kernels", "version": 1, "board": "test", "world": "none",
            "unit": "counts per mA m^2", "x0": x0, "y0": y0, "step": STEP, "nx": NX, "ny": NY,
            "heights": list(HEIGHTS), "moment_range": [15.0, 40.0],
            "channels": [[s[0], s[1], list(a)] for s in SENSORS for a in AXES],
            "k": b2a_base64(raw).decode().strip()}


TABLE = table()


def tilted(deg, az, pol=1):
    t = deg * pi / 180.0
    return (pol * sin(t) * cos(az), pol * sin(t) * sin(az), pol * cos(t))


class Fit(unittest.TestCase):
    def test_a_tilted_magnet_between_the_cells(self):
        k = Kernels(TABLE, 6)
        use = bytearray(b"\x01" * 6)
        for x, y, h, deg, pol in ((4.3, -7.7, 3.1, 8.0, 1), (-15.2, 20.6, 4.4, 14.0, -1), (9.9, 31.1, 2.8, 3.0, 1)):
            v = readings(0.025, tilted(deg, 1.0, pol), x, y, h)
            m, fx, fy, fh, g, vv, var = k.fit(v, use)
            self.assertLess(abs(m - pol * 25.0), 0.05 * 25.0, (x, y, m))
            self.assertLess(sqrt((fx - x) ** 2 + (fy - y) ** 2), 1.5, (x, y, fx, fy))
            self.assertGreater(g, 0.99 * vv)
            # the field along the fit's shape reads the moment back
            s = k.shape
            sv = sum(s[j] * v[j] for j in range(6))
            ss = sum(s[j] * s[j] for j in range(6))
            self.assertLess(abs(sv / ss - m), 0.01 * abs(m))

    def test_a_channel_left_out(self):
        k = Kernels(TABLE, 6)
        use = bytearray(b"\x00\x01\x01\x01\x01\x01")
        v = readings(0.03, tilted(5.0, 2.0), -6.0, 12.0, 3.5)
        v[0] = 99999.0   # a dead channel's nonsense is ignored
        m, fx, fy, fh, g, vv, var = k.fit(v, use)
        # five channels: the moment is taken upright, the place and height
        # less certain (a zone with a dead channel tells Bakugan apart less
        # well: docs/sensing-pipeline.md), but the dead channel's value
        # plays no part
        self.assertTrue(k.upright)
        self.assertTrue(20.0 < m < 45.0, m)
        v[0] = 0.0
        self.assertEqual(k.fit(v, use)[0], m)

    def test_a_malformed_table_is_refused(self):
        bad = dict(TABLE)
        bad["nx"] = NX + 1
        with self.assertRaises(ValueError):
            Kernels(bad, 6)
        with self.assertRaises(ValueError):
            Kernels(TABLE, 3)


ZERO = 524288
NOISE = 4


def board():
    zone = {"id": 0, "x": 10, "y": 10, "w": 64, "h": 90}
    cx = zone["x"] + zone["w"] / 2.0
    cy = zone["y"] + zone["h"] / 2.0
    sensors = []
    for sx, sy in SENSORS:
        for name in ("x", "y", "z"):
            sensors.append({"ch": len(sensors), "zone": 0, "x": cx + sx, "y": cy + sy, "axis": name})
    return {"version": 2, "name": "test-amr", "zones": [zone], "sensors": sensors,
            "sensor": {"zero_counts": ZERO, "counts_per_mT": CPM, "max_counts": 1048575, "noise_counts_rms": NOISE},
            "sensor_plane_to_card_top_mm": TOP, "rate_hz": 50, "card": {"w": 62, "h": 88},
            "magnet": {"moment_Am2": [0.015, 0.04], "above_card_mm": [2.5, 5.0]}, "kernels": TABLE}


class Scene:
    def __init__(self, p):
        self.p = p
        self.t = 0
        self.mag = None
        self.seed = 12345

    def noise(self):
        self.seed = (self.seed * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.seed >> 16) % (2 * NOISE + 1) - NOISE

    def run(self, ms):
        end = self.t + ms
        while self.t < end:
            v = readings(*self.mag) if self.mag else [0.0] * 6
            self.p.feed([ZERO + int(v[j]) + self.noise() for j in range(6)], self.t)
            self.t += 20


class Landings(unittest.TestCase):
    def test_land_name_and_leave_by_the_fitted_moment(self):
        evs = []
        p = Pipeline(board(), evs.append)
        s = Scene(p)
        s.run(2000)
        p.register("strong", 0)
        s.mag = (0.035, tilted(6.0, 0.5), 5.0, -10.0, 3.0)
        s.run(2000)
        s.mag = None
        s.run(1500)
        p.register("weak", 0)
        s.mag = (0.018, tilted(6.0, 2.5), -12.0, 18.0, 3.5)
        s.run(2000)
        s.mag = None
        s.run(1500)
        self.assertLess(abs(p.signatures()["strong"] - 35.0), 2.0, p.signatures())
        self.assertLess(abs(p.signatures()["weak"] - 18.0), 1.5, p.signatures())
        del evs[:]
        # elsewhere on the card, leaning the other way: named by its moment
        s.mag = (0.035, tilted(9.0, 4.0), -14.0, 25.0, 3.0)
        s.run(1500)
        lands = [e for e in evs if e["ev"] == "land"]
        self.assertEqual([e["bakugan"] for e in lands], ["strong"], evs)
        s.mag = None
        s.run(1500)
        self.assertEqual([e["bakugan"] for e in evs if e["ev"] == "leave"], ["strong"], evs)
        s.mag = (0.018, tilted(4.0, 1.0), 15.0, -30.0, 3.5)
        s.run(1500)
        self.assertEqual([e["bakugan"] for e in evs if e["ev"] == "land"], ["strong", "weak"], evs)

    def test_a_field_too_weak_for_a_bakugan_is_no_landing(self):
        evs = []
        p = Pipeline(board(), evs.append)
        s = Scene(p)
        s.run(2000)
        p.register("strong", 0)
        s.mag = (0.035, tilted(6.0, 0.5), 5.0, -10.0, 3.0)
        s.run(2000)
        s.mag = None
        s.run(1500)
        del evs[:]
        # a magnet on the neighbouring card, 60 mm off: a field, but a moment no Bakugan has here
        s.mag = (0.03, tilted(0.0, 0.0), 60.0, 0.0, 3.0)
        s.run(3000)
        self.assertEqual([e for e in evs if e["ev"] == "land"], [], evs)


if __name__ == "__main__":
    unittest.main()
