"""Channel health: a dead, stuck or saturated channel is reported once, does
not fake a landing, and its zone keeps working on the other sensors."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import sensekit
from sense.pipeline import Pipeline


class Health(unittest.TestCase):
    def setUp(self):
        self.b = sensekit.board(nzones=2)
        self.col = sensekit.Collect()
        self.p = Pipeline(self.b, self.col)
        self.sc = sensekit.Scene(self.b, seed=9)
        self.sc.run(self.p, 1000)

    def faults(self):
        return [(e["ch"], e["kind"]) for e in self.col.kinds("fault")]

    def check_zone_still_works(self):
        self.col.events = [e for e in self.col.events if e["ev"] == "fault"]
        self.sc.magnets["a"] = (0.025, 56, 83)
        self.sc.run(self.p, 600)
        del self.sc.magnets["a"]
        self.sc.run(self.p, 600)
        self.assertEqual([(e["ev"], e["zone"]) for e in self.col.events if e["ev"] != "fault"],
                         [("land", 0), ("leave", 0)])

    def test_dead_channel(self):
        self.sc.dead[2] = 0
        self.sc.run(self.p, 3000)
        self.assertEqual(self.faults(), [(2, "dead")])
        self.assertEqual(self.col.kinds("land"), [])
        self.check_zone_still_works()
        self.assertEqual(self.faults(), [(2, "dead")])

    def test_saturated_channel(self):
        self.sc.dead[3] = sensekit.MAXC
        self.sc.run(self.p, 3000)
        self.assertEqual(self.faults(), [(3, "saturated")])
        self.assertEqual(self.col.kinds("land"), [])
        self.check_zone_still_works()

    def test_stuck_channel(self):
        self.sc.dead[1] = sensekit.ZERO + 1   # frozen near its rest value
        self.sc.run(self.p, 5000)
        self.assertEqual(self.faults(), [(1, "stuck")])
        self.assertEqual(self.col.kinds("land"), [])
        self.check_zone_still_works()

    def test_strong_magnet_saturating_is_not_a_fault(self):
        # 4 mm from zone 0's first sensor: its y channel clips
        self.sc.magnets["big"] = (0.040, 42, 37)
        self.assertEqual([c for c in range(12) if self.sc.frame()[c] in (0, sensekit.MAXC)], [1])
        self.sc.run(self.p, 10000)
        self.assertEqual(self.faults(), [])
        self.assertEqual(len(self.col.kinds("land")), 1)
        # fitted without the clipped channel (upright: within the 15 %
        # the firmware allows such a fit, fit_upright_rel)
        level = self.p.standing(0)[0][1]
        self.assertLess(abs(level - 40.0), 0.15 * 40.0, level)
        del self.sc.magnets["big"]
        self.sc.run(self.p, 600)
        self.assertEqual([e["ev"] for e in self.col.events], ["land", "leave"])

    def test_whole_zone_dead_other_zone_works(self):
        for c in range(6):
            self.sc.dead[c] = 0
        self.sc.run(self.p, 3000)
        self.assertEqual(sorted(self.faults()), [(c, "dead") for c in range(6)])
        self.sc.magnets["a"] = (0.025, 105, 40)
        self.sc.run(self.p, 600)
        self.assertEqual([e["zone"] for e in self.col.kinds("land")], [1])


if __name__ == "__main__":
    unittest.main()
