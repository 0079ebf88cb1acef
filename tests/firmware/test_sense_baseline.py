"""Baseline: follows slow drift on an empty zone, never absorbs a Bakugan
standing still for minutes."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import sensekit
from sense.pipeline import Pipeline


class Baseline(unittest.TestCase):
    def setUp(self):
        self.b = sensekit.board(nzones=2)
        self.col = sensekit.Collect()
        self.p = Pipeline(self.b, self.col)
        self.sc = sensekit.Scene(self.b, seed=3)
        self.sc.run(self.p, 1000)

    def drift(self, ms, rates):
        """Run ms of frames while channel offsets move at rates (counts/s)."""
        step = 20
        for _ in range(ms // step):
            for c in range(len(rates)):
                self.sc.offset[c] += rates[c] * step / 1000.0
            self.sc.run(self.p, step)

    def test_follows_slow_drift(self):
        # 1 count/s either way (120 counts in 2 minutes on some channels):
        # far beyond the landing threshold if the baseline stood still.
        rates = [1.0, -0.8, 0.5, 1.0, -1.0, 0.7, 0.9, 0.9, -0.6, 0.2, 1.0, -1.0]
        self.drift(120000, rates)
        self.assertEqual(self.col.events, [])
        # a frame's deviation: its noise (3 sigma) and the baseline's lag
        # (1 count/s over its 5 s time constant)
        for c in range(12):
            d = self.p.deviation(c)
            self.assertLessEqual(abs(d), 3 * sensekit.NOISE + 5, "channel %d lags by %d" % (c, d))
        # Landing still works after the drift.
        self.sc.magnets["a"] = (0.030, 35, 60)
        self.sc.run(self.p, 500)
        self.assertEqual([e["ev"] for e in self.col.events], ["land"])

    def test_standing_bakugan_is_not_absorbed(self):
        self.sc.magnets["a"] = (0.020, 40, 45)
        self.sc.run(self.p, 500)
        self.assertEqual(len(self.col.kinds("land")), 1)
        # Five minutes standing still while every sensor drifts together
        # (supply, temperature: 0.1 count/s, 30 counts in all) and a little
        # on its own (+-3 counts).
        rates = [0.1 + 0.01 * (c % 3 - 1) for c in range(12)]
        self.drift(300000, rates)
        self.assertEqual([e["ev"] for e in self.col.events], ["land"])
        # The zone still sees it: the deviation under it is its field plus
        # each channel's own drift (the common drift, zone 1's, taken out),
        # within a frame's noise (4 sigma).
        v = self.sc.field()
        self.assertGreater(max(abs(v[c]) for c in range(6)), 25 * sensekit.NOISE)
        for c in range(6):
            own = 300.0 * (rates[c] - 0.1)
            self.assertLessEqual(abs(self.p.deviation(c) - v[c] - own), 4 * sensekit.NOISE,
                                 (c, self.p.deviation(c), v[c], own))
        del self.sc.magnets["a"]
        self.sc.run(self.p, 500)
        self.assertEqual([e["ev"] for e in self.col.events], ["land", "leave"])
        # Idle again, no ghost landing from the drift it sat through.
        self.sc.run(self.p, 20000)
        self.assertEqual([e["ev"] for e in self.col.events], ["land", "leave"])

    def test_common_drift_follows_into_busy_zones(self):
        self.sc.magnets["a"] = (-0.025, 40, 45)
        self.sc.run(self.p, 500)
        # every channel moves 40 counts over a minute; zone 1 (empty) sees it
        # and carries it into zone 0's frozen baselines
        self.drift(60000, [40.0 / 60.0] * 12)
        del self.sc.magnets["a"]
        self.sc.run(self.p, 1000)
        self.assertEqual([e["ev"] for e in self.col.events], ["land", "leave"])
        for c in range(6):
            self.assertLessEqual(abs(self.p.deviation(c)), 3 * sensekit.NOISE + 5)


class Resume(unittest.TestCase):
    """A replay resumed from the baselines a recording began with decides
    on the very frames the live pipeline did (raw-log-v1 `baseline`)."""

    def test_resumed_pipeline_decides_as_the_live_one(self):
        b = sensekit.board(nzones=2)
        sc = sensekit.Scene(b, seed=5)
        live_ev = sensekit.Collect()
        live = Pipeline(b, live_ev)
        # (the three pipelines made first: on MicroPython's unix heap the
        # kernel table's 78 KB array may find no room among the frames)
        resumed_ev = sensekit.Collect()
        resumed = Pipeline(b, resumed_ev)
        fresh = Pipeline(b, sensekit.Collect())
        self.assertIsNone(live.baselines())
        sc.run(live, 60)                # 3 frames: the recording begins mid warm-up
        snap = live.baselines()
        self.assertEqual(snap[0], 3)
        self.assertEqual(len(snap[1]), len(b["sensors"]))
        frames = []
        step = 20
        for i in range(400):            # 8 s: two landings, one lift
            if i == 100:
                sc.magnets["a"] = (0.030, 35, 60)
            if i == 200:
                sc.magnets["b"] = (-0.024, 100, 55)
            if i == 300:
                del sc.magnets["a"]
            frames.append((sc.t, sc.frame()))
            sc.t += step
        for t, f in frames:
            live.feed(f, t)
        resumed.resume(snap[0], snap[1])
        for t, f in frames:
            resumed.feed(f, t)
            fresh.feed(f, t)
        self.assertEqual([e["ev"] for e in live_ev.events], ["land", "land", "leave"])
        self.assertEqual(resumed_ev.events, live_ev.events)
        self.assertEqual(resumed.baselines(), live.baselines())
        # started afresh on the first frame, the warm-up ends elsewhere and
        # the baselines stay apart
        self.assertNotEqual(fresh.baselines()[1], live.baselines()[1])


if __name__ == "__main__":
    unittest.main()
