"""诺曼底 Normandy (mode "normandy"): the item rules it adds to longhu,
hand-written (docs/modes/normandy.md). Runs under CPython and MicroPython."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

from cnkit import Game, header, player


def started():
    items0 = [{"id": "i0", "effect": {"g": 50}, "attr": "pyrus", "command": "fire"},
              {"id": "i1", "effect": {"g": 50}, "command": "fire"}]
    items1 = [{"id": "j0", "effect": {"opp_g": -100}, "attr": "haos", "command": "light"},
              {"id": "j1", "effect": {"g": 30}, "command": "shade"}]
    h = header("normandy", [player(0, g=(300, 250, 200), cards=[(0, 10), (0, 20), (0, 30)], abilities=items0),
                            player(1, g=(280, 400, 380), attrs=("pyrus", "haos", "haos"),
                                   cards=[(0, 10), (0, 20), (0, 30)], abilities=items1)])
    gm = Game(h)
    for j in range(3):
        gm.gate(0, "c0%d" % j, 12 + j)
        gm.gate(1, "c1%d" % j, j)
    for j in range(3):
        gm.land("b0%d" % j, 12 + j)
        gm.land("b1%d" % j, j)
    return gm


class Items(unittest.TestCase):
    def test_when_behind_with_a_matching_attribute(self):
        gm = started()
        gm.land("b00", 1)     # Dan pyrus 300 vs Runo haos 400
        self.assertFalse(gm.ability(1, "j0"))
        self.assertIn("only when behind", gm.reason())
        self.assertTrue(gm.ability(0, "i0"))   # pyrus item on a pyrus Bakugan: 350
        gm.resolve()
        self.assertEqual(gm.last("battle")["parts"]["b00"], [300, 0, 50])

    def test_item_of_another_attribute_is_refused(self):
        gm = started()
        gm.miss("b00")
        gm.land("b10", 12)    # Runo pyrus 280 attacks Dan 300: Runo behind
        self.assertFalse(gm.ability(1, "j0"))
        self.assertIn("only for a haos Bakugan; b10 is pyrus", gm.reason())
        self.assertTrue(gm.ability(1, "j1"))   # no attribute: any Bakugan
        self.assertEqual(gm.g.used_abil[1], ["j1"])

    def test_never_the_same_command_twice(self):
        gm = started()
        gm.land("b00", 1)     # Dan 300 vs 400
        self.assertTrue(gm.ability(0, "i0"))   # command fire
        gm.resolve()          # Runo wins anyway
        gm.land("b12", 14)    # Runo 380 attacks Dan's b02 200
        self.assertFalse(gm.ability(0, "i1"))  # also fire
        self.assertIn("already used the command fire", gm.reason())


class TieBreak(unittest.TestCase):
    def test_pieces_left_separate_a_tied_score(self):
        """"如果最终分数出现同分则核算自己剩下的爆丸和卡片，多的一方胜", which
        can decide only because "在4张卡片中可随玩家自己喜好放置爆丸": Dan puts
        both Bakugan on one card and keeps a card unguarded."""
        h = header("normandy", [player(0, g=(300, 250), cards=[(0, 0), (0, 0)]),
                                player(1, g=(250, 250), cards=[(0, 0), (0, 0)])])
        gm = Game(h)
        gm.gate(0, "c00", 12)
        gm.gate(0, "c01", 13)
        gm.gate(1, "c10", 0)
        gm.gate(1, "c11", 1)
        gm.land("b00", 12)
        gm.land("b01", 12)
        gm.land("b10", 0)
        gm.land("b11", 1)
        gm.land("b00", 1)     # 300 v 250: Dan seizes b11 and takes c11; b00 and c00 out
        gm.resolve()
        self.assertIsNone(gm.g.winner)
        gm.land("b10", 12)    # 250 v 250 on the position of c00: the attacker wins
        gm.resolve()
        sc = gm.last("score")
        self.assertEqual(sc["scores"], [250, 250])
        self.assertEqual(sc["left"], [1, 0])    # Dan's unguarded c01 is left
        self.assertEqual(sc["reason"], "Dan has no Bakugan left")
        self.assertEqual(gm.last("win"), {"player": 0})


if __name__ == "__main__":
    unittest.main()
