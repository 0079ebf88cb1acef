"""Two Bakugan on one zone (a battle): the second arrival is seen, of either
polarity, and each leave names the one that left."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import sensekit
from sense.pipeline import Pipeline

LEVEL = {"drago": 0.034, "tigrerra": -0.022, "preyas": 0.018}   # moments, A m^2


class Battle(unittest.TestCase):
    def setUp(self):
        self.b = sensekit.board(nzones=2)
        self.col = sensekit.Collect()
        self.p = Pipeline(self.b, self.col)
        self.sc = sensekit.Scene(self.b, seed=11)
        self.sc.run(self.p, 1000)
        # Teach the mat the Bakugan on zone 1 (where the two sensors tell a
        # magnet's strength well, see sensekit).
        for name in ("drago", "tigrerra", "preyas"):
            self.p.register(name, 1)
            self.sc.magnets[name] = (LEVEL[name], 108, 45)
            self.sc.run(self.p, 1000)
            del self.sc.magnets[name]
            self.sc.run(self.p, 1000)
        self.assertEqual([(e["ev"], e["bakugan"]) for e in self.col.events],
                         [("land", "drago"), ("leave", "drago"), ("land", "tigrerra"), ("leave", "tigrerra"),
                          ("land", "preyas"), ("leave", "preyas")])
        self.col.events = []

    def seq(self):
        return [(e["ev"], e["zone"], e["bakugan"]) for e in self.col.events]

    def put(self, name, x, y, ms=1500):
        self.sc.magnets[name] = (LEVEL[name], x, y)
        self.sc.run(self.p, ms)

    def take(self, name, ms=1500):
        del self.sc.magnets[name]
        self.sc.run(self.p, ms)

    def test_same_polarity_arrival_and_leaves(self):
        self.put("drago", 38, 45)
        self.put("preyas", 46, 65)
        self.assertEqual(self.seq(), [("land", 0, "drago"), ("land", 0, "preyas")])
        self.take("drago")          # the loser goes
        self.assertEqual(self.seq()[2:], [("leave", 0, "drago")])
        self.take("preyas")
        self.assertEqual(self.seq()[3:], [("leave", 0, "preyas")])

    def test_other_polarity_arrival(self):
        self.put("drago", 38, 45)
        self.put("tigrerra", 46, 65)
        self.assertEqual(self.seq(), [("land", 0, "drago"), ("land", 0, "tigrerra")])
        self.take("tigrerra")
        self.take("drago")
        self.assertEqual(self.seq()[2:], [("leave", 0, "tigrerra"), ("leave", 0, "drago")])

    def test_both_removed_at_once(self):
        self.put("drago", 38, 45)
        self.put("tigrerra", 46, 65)
        self.sc.magnets = {}
        self.sc.run(self.p, 1500)
        ev = self.seq()
        self.assertEqual(ev[:2], [("land", 0, "drago"), ("land", 0, "tigrerra")])
        self.assertEqual(sorted(ev[2:]), [("leave", 0, "drago"), ("leave", 0, "tigrerra")])

    def test_the_second_is_read_against_the_first_as_refined(self):
        # drago's moment still rises over its first frames (decided on them);
        # preyas landing next to it is read against drago's refined field,
        # not against the state of drago's decision: it reads its learnt
        # signature, within the fit's scatter from landing to landing at one
        # place (+-5 % here). (Each mA m^2 of drago's field left in preyas's
        # change reads about 10 mA m^2 more of preyas: fitted noise-free.)
        for k in range(10):
            self.sc.magnets["drago"] = (0.030 + 0.0004 * k, 38, 45)
            self.sc.run(self.p, 20)
        self.put("drago", 38, 45, 2000)
        self.put("preyas", 46, 65, 2000)
        self.assertEqual(self.seq(), [("land", 0, "drago"), ("land", 0, "preyas")])
        bid, level = self.p.standing(0)[-1]
        learnt = self.p.signatures()["preyas"]
        self.assertLess(abs(level / learnt - 1.0), 0.06, (level, learnt))

    def test_neighbour_zone_does_not_trigger(self):
        # A Bakugan at the edge of zone 0 (its magnet's centre as near zone
        # 1 as the card lets it be), next to zone 1. (Not within 2 s of
        # the lessons' last leave on zone 1: a fit on the grid's bound
        # then is taken for that one's field, sense.decide LEAK_MS.)
        self.sc.run(self.p, 2000)
        self.put("drago", 63, 80, 3000)
        self.assertEqual(self.seq(), [("land", 0, "drago")])


if __name__ == "__main__":
    unittest.main()
