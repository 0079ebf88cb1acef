"""Presence per zone: thresholds with hysteresis, dwell (rolling balls and
bounces do not count), leaving."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import hallkit as sensekit
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

    def test_standing_bakugan_lands_after_dwell(self):
        t0 = self.sc.t
        self.sc.magnets["a"] = (30.0, 35, 60)
        self.sc.run(self.p, 1000)
        lands = self.col.kinds("land")
        self.assertEqual(len(lands), 1, self.col.events)
        self.assertEqual(lands[0]["zone"], 0)
        lat = lands[0]["t"] - t0
        self.assertGreaterEqual(lat, self.p.params["dwell_ms"])
        self.assertLessEqual(lat, self.p.params["dwell_ms"] + 2 * PERIOD)

    def test_anywhere_on_the_card(self):
        # between sensors, at the edge, straight above one: the plate's
        # field reaches every sensor of the zone
        for x, y in ((42, 40), (22, 20), (58, 85), (42, 55), (70, 95)):
            self.sc.magnets["a"] = (-25.0, x, y)
            self.sc.run(self.p, 600)
            del self.sc.magnets["a"]
            self.sc.run(self.p, 600)
        self.assertEqual([(e["ev"], e["zone"]) for e in self.col.events], [("land", 0), ("leave", 0)] * 5)

    def test_second_zone(self):
        self.sc.magnets["a"] = (-30.0, 96 + 10, 60)
        self.sc.run(self.p, 1000)
        self.assertEqual([e["zone"] for e in self.col.kinds("land")], [1])

    def test_leave(self):
        self.sc.magnets["a"] = (30.0, 35, 60)
        self.sc.run(self.p, 1000)
        del self.sc.magnets["a"]
        t0 = self.sc.t
        self.sc.run(self.p, 1000)
        self.assertEqual([e["ev"] for e in self.col.events], ["land", "leave"])
        leave = self.col.events[1]
        self.assertEqual(leave["zone"], 0)
        # (no referee here, so no Bakugan of the other polarity can be on
        # its way: the leave is not held, see test_sense_battle)
        self.assertLessEqual(leave["t"] - t0, self.p.params["dwell_ms"] + 2 * PERIOD)
        # and it can land again afterwards
        self.sc.magnets["a"] = (30.0, 50, 30)
        self.sc.run(self.p, 1000)
        self.assertEqual([e["ev"] for e in self.col.events], ["land", "leave", "land"])

    def test_hysteresis_weak_bakugan_does_not_flicker(self):
        # Barely above the noise: it lands once and stays landed.
        self.sc.magnets["a"] = (8.0, 42, 40)
        self.sc.run(self.p, 1000)
        self.assertEqual(len(self.col.kinds("land")), 1, self.col.events)
        self.sc.run(self.p, 30000)
        self.assertEqual([e["ev"] for e in self.col.events], ["land"])

    def test_below_threshold_never_lands(self):
        self.sc.magnets["a"] = (1.5, 42, 40)
        self.sc.run(self.p, 20000)
        self.assertEqual(self.col.events, [])

    def test_rolling_across_does_not_land(self):
        # A closed ball rolling across both zones at 0.25 m/s: its magnet
        # turns as it rolls, so what the zone sees keeps changing.
        x = 0.0
        k = 0
        while x < 160.0:
            turn = (30.0, 10.0, -20.0, -30.0, -10.0, 20.0)[k % 6]
            self.sc.magnets["ball"] = (turn, x, 55.0)
            self.sc.run(self.p, PERIOD)
            x += 5.0
            k += 1
        del self.sc.magnets["ball"]
        self.sc.run(self.p, 2000)
        self.assertEqual(self.col.kinds("land"), [])

    def test_bounce_shorter_than_dwell_does_not_land(self):
        for k in range(5):
            self.sc.magnets["ball"] = (30.0, 35, 60)
            self.sc.run(self.p, self.p.params["dwell_ms"] - PERIOD)
            del self.sc.magnets["ball"]
            self.sc.run(self.p, 300)
        self.assertEqual(self.col.events, [])


if __name__ == "__main__":
    unittest.main()
