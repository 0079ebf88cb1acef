"""The kernel fit (sense/fit.py) and the pipeline on a board that carries a
kernel table (docs/formats/kernel-table-v1.md): a tilted magnet between the
grid's cells is found with its moment; a zone of two three-axis sensors
lands, names and leaves Bakugan by their fitted moments.

The table is the free dipole's (no plate) of tests/firmware/sensekit.py,
written out there independently of host_tools/boards/kernels.py (which
needs numpy and the worlds).
"""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

from math import sqrt

import sensekit
from sensekit import NX, NY, readings, tilted
from sense.fit import Kernels
from sense.pipeline import Pipeline

TABLE = sensekit.table()


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

    def test_the_integer_scan_finds_the_float_solves_cell(self):
        # the viper scan (whitened int16 kernels, the change in 12 bits)
        # against the 3 x 3 float solve at every cell of the searched height:
        # the cell that explains most
        k = Kernels(TABLE, 6)
        use = bytearray(b"\x01" * 6)
        per = NX * NY
        for x, y, h, deg, pol in ((4.3, -7.7, 3.75, 8.0, 1), (-15.2, 20.6, 3.75, 14.0, -1), (12.0, 30.0, 3.75, 3.0, 1)):
            v = readings(0.025, tilted(deg, 1.0, pol), x, y, h)
            c, g = k.best_cell(v, use)
            best = -1.0
            mine = 0.0
            for i in range(per):
                cx, cy, ch = k.cell_xyh(per + i)
                k.at(cx, cy, ch)
                gi = k._solve(k.kb, 0, v, use)
                best = max(best, gi)
                if per + i == c:
                    mine = gi
            # the same cell, or one within the fixed point's rounding of it
            # (two neighbours 3e-5 apart are a tie at 12 bits)
            self.assertGreater(mine, (1.0 - 1e-3) * best, (x, y))
            self.assertLess(abs(g - mine), 0.01 * mine)

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


class Scene(sensekit.Scene):
    """The kit's scene on a one-zone board; mag: (m, u, x, y, h) from the
    zone's centre (as readings() takes them), or None."""

    def __init__(self, p, b):
        sensekit.Scene.__init__(self, b, seed=12345)
        self.p = p
        self.mag = None
        self.cx, self.cy = sensekit.centre(b["zones"][0])

    def run(self, ms):
        self.magnets = {}
        if self.mag:
            m, u, x, y, h = self.mag
            self.magnets["a"] = (m, self.cx + x, self.cy + y, h, u)
        sensekit.Scene.run(self, self.p, ms)


def scene():
    evs = []
    b = sensekit.board(nzones=1)
    p = Pipeline(b, evs.append)
    return evs, p, Scene(p, b)


class Landings(unittest.TestCase):
    def test_land_name_and_leave_by_the_fitted_moment(self):
        evs, p, s = scene()
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
        evs, p, s = scene()
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
