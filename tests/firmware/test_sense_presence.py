"""Presence per zone: thresholds with hysteresis, dwell (rolling balls and
bounces do not count), leaving."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import sensekit
from sense.pipeline import Pipeline

PERIOD = 20  # ms at 50 Hz


class Presence(unittest.TestCase):
    def setUp(self):
        self.b = sensekit.board(nzones=2, noise=3)
        self.col = sensekit.Collect()
        self.p = Pipeline(self.b, self.col)
        self.sc = sensekit.Scene(self.b, seed=7)
        self.sc.run(self.p, 1000)

    def test_idle_noise_gives_nothing(self):
        self.sc.run(self.p, 60000)
        self.assertEqual(self.col.events, [])

    def test_standing_magnet_lands_after_dwell(self):
        t0 = self.sc.t
        self.sc.magnets["a"] = (200.0, 28, 57)
        self.sc.run(self.p, 1000)
        lands = self.col.kinds("land")
        self.assertEqual(len(lands), 1, self.col.events)
        self.assertEqual(lands[0]["zone"], 0)
        lat = lands[0]["t"] - t0
        self.assertGreaterEqual(lat, self.p.dwell)
        self.assertLessEqual(lat, self.p.dwell + 2 * PERIOD)

    def test_second_zone(self):
        self.sc.magnets["a"] = (-200.0, 96 + 4, 85 - 3)
        self.sc.run(self.p, 1000)
        lands = self.col.kinds("land")
        self.assertEqual([e["zone"] for e in lands], [1])

    def test_leave(self):
        self.sc.magnets["a"] = (200.0, 28, 57)
        self.sc.run(self.p, 1000)
        del self.sc.magnets["a"]
        t0 = self.sc.t
        self.sc.run(self.p, 1000)
        self.assertEqual([e["ev"] for e in self.col.events], ["land", "leave"])
        leave = self.col.events[1]
        self.assertEqual(leave["zone"], 0)
        self.assertLessEqual(leave["t"] - t0, self.p.dwell + 2 * PERIOD)
        # and it can land again afterwards
        self.sc.magnets["a"] = (200.0, 58, 27)
        self.sc.run(self.p, 1000)
        self.assertEqual([e["ev"] for e in self.col.events], ["land", "leave", "land"])

    def test_hysteresis_weak_magnet_does_not_flicker(self):
        # Strong enough to land, weak enough that noise is a large part of it.
        self.sc.magnets["a"] = (22.0, 26, 55)
        self.sc.run(self.p, 1000)
        self.assertEqual(len(self.col.kinds("land")), 1, self.col.events)
        self.sc.run(self.p, 30000)
        self.assertEqual([e["ev"] for e in self.col.events], ["land"])

    def test_below_threshold_never_lands(self):
        self.sc.magnets["a"] = (4.0, 26, 55)   # 8 counts peak: within noise
        self.sc.run(self.p, 20000)
        self.assertEqual(self.col.events, [])

    def test_rolling_across_does_not_land(self):
        # A closed ball rolling across both zones at 0.25 m/s, its magnet
        # turning as it rolls (the sign of its vertical moment alternates).
        y = 55.0
        x = 0.0
        while x < 160.0:
            phase = int(x / 20.0) % 2
            self.sc.magnets["ball"] = (150.0 if phase else -150.0, x, y)
            self.sc.run(self.p, PERIOD)
            x += 5.0
        del self.sc.magnets["ball"]
        self.sc.run(self.p, 2000)
        self.assertEqual(self.col.kinds("land"), [])

    def test_slow_roll_without_turning_does_not_land(self):
        # Even a magnet that keeps its orientation never holds still.
        x = 20.0
        while x < 150.0:
            self.sc.magnets["ball"] = (150.0, x, 57.0)
            self.sc.run(self.p, PERIOD)
            x += 3.0
        del self.sc.magnets["ball"]
        self.sc.run(self.p, 2000)
        self.assertEqual(self.col.kinds("land"), [])

    def test_bounce_shorter_than_dwell_does_not_land(self):
        for k in range(5):
            self.sc.magnets["ball"] = (200.0, 28, 57)
            self.sc.run(self.p, self.p.dwell - PERIOD)
            del self.sc.magnets["ball"]
            self.sc.run(self.p, 200)
        self.assertEqual(self.col.events, [])


if __name__ == "__main__":
    unittest.main()
