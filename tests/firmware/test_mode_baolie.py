"""爆裂旋风 (mode "baolie"): hand-written games, one class per rule of
docs/modes/baolie.md. Runs under CPython and MicroPython."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import referee
from referee.engine import OUT, UNUSED
from cnkit import Game, header, player

BASE = (9, 5, 6, 10)


def hdr(first=0):
    ps = []
    for i in range(4):
        ps.append(player(i, g=(300 + 10 * i, 250, 200), cards=[(50, 10 * (i + 1)), (0, 5), (0, 6), (0, 7)]))
    return header("baolie", ps, first=first)


def started(first=0):
    gm = Game(hdr(first))
    for i in range(4):
        assert gm.gate(i, "c%d0" % i, BASE[(i + 2) % 4])
    return gm


class Setup(unittest.TestCase):
    def test_each_card_goes_to_the_opposite_quadrant(self):
        gm = Game(hdr())
        self.assertFalse(gm.gate(0, "c00", 9))   # his own quadrant
        self.assertIn("zone 6", gm.reason())
        self.assertTrue(gm.gate(0, "c00", 6))
        self.assertTrue(gm.gate(1, "c10", 10))
        self.assertTrue(gm.gate(2, "c20", 9))
        self.assertFalse(gm.land("b00", 9))
        self.assertTrue(gm.gate(3, "c30", 5))
        self.assertEqual(gm.last("turn"), {"player": 0})
        v = gm.g.view()
        self.assertEqual(v["zones"][9]["owner"], 0)   # quadrant owner
        self.assertEqual(v["zones"][9]["gate"], "c20")
        self.assertEqual(v["roles"][6], [2, "quadrant"])

    def test_four_players(self):
        h = hdr()
        h["players"].pop()
        with self.assertRaises(referee.SetupError):
            referee.new_game(h)


class Throws(unittest.TestCase):
    def test_clockwise_and_failed_throws_go_back(self):
        gm = started(first=3)
        self.assertTrue(gm.land("b30", 0))
        self.assertEqual(gm.g.loc["b30"], UNUSED)
        self.assertEqual(gm.last("turn"), {"player": 0})
        self.assertTrue(gm.land("b00", 9))
        self.assertEqual(gm.last("turn"), {"player": 1})


class TwoOwnBakugan(unittest.TestCase):
    def test_two_own_capture_the_quadrant_card_refill_and_one_goes_back(self):
        gm = started()
        gm.land("b00", 6)     # Dan on the top-right quadrant (his own card c00 lies there)
        for i in (1, 2, 3):
            gm.miss("b%d0" % i)
        gm.land("b01", 6)
        self.assertEqual(gm.last("capture"), {"player": 0, "gate": "c00", "zone": 6, "reason": "double"})
        self.assertEqual(gm.last("refill"), {"player": 0, "zone": 6})
        self.assertEqual(gm.last("pick")["for"], "stay")
        self.assertTrue(gm.pick(0, "b01"))
        self.assertEqual(gm.g.loc["b00"], UNUSED)
        self.assertFalse(gm.land("b10", 5))
        self.assertTrue(gm.gate(0, "c01", 6))
        self.assertEqual(gm.last("turn"), {"player": 1})
        self.assertEqual(gm.g.score(0), 10)

    def test_the_refill_settles_the_pick_by_default(self):
        gm = started()
        gm.land("b00", 6)
        for i in (1, 2, 3):
            gm.miss("b%d0" % i)
        gm.land("b01", 6)
        self.assertTrue(gm.gate(0, "c02", 6))
        self.assertEqual(gm.g.loc["b00"], 6)
        self.assertEqual(gm.g.loc["b01"], UNUSED)


class Battle(unittest.TestCase):
    def test_winner_stays_takes_the_bakugan_and_the_card(self):
        gm = started()
        gm.land("b00", 5)     # Dan 300 on c30 (+50)
        gm.land("b11", 5)     # Runo 250 + 50 attacks
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["power"], {"b00": 350, "b11": 300})
        self.assertEqual(gm.g.loc["b00"], 5)         # the winner stays
        self.assertEqual(gm.g.seized[0], ["b11"])
        self.assertEqual(gm.g.captured[0], ["c30"])
        self.assertEqual(gm.last("refill"), {"player": 1, "zone": 5})
        gm.gate(1, "c11", 5)
        self.assertEqual(gm.last("turn"), {"player": 2})

    def test_tie_goes_to_the_attacker(self):
        gm = started()
        gm.land("b01", 5)     # Dan 250
        gm.land("b11", 5)     # Runo 250
        gm.resolve()
        self.assertEqual(gm.last("battle")["winner"], "b11")
        self.assertEqual(gm.g.loc["b01"], OUT)


class LeaveAndEnd(unittest.TestCase):
    def test_players_leave_when_they_lost_all_and_the_game_ends(self):
        """Borrowed from 逐鹿中原: "玩家输完爆丸或卡片则要退场" (a player whose
        Bakugan all stand on cards stays) and "当只剩一位玩家同时有爆丸和卡片
        时，该局游戏结束"; when nobody left can throw, the game is scored."""
        h = header("baolie", [player(i, g=(300 - 10 * i,), cards=[(0, 10), (0, 1)]) for i in range(4)])
        gm = Game(h)
        for i in range(4):
            gm.gate(i, "c%d0" % i, BASE[(i + 2) % 4])
        gm.land("b00", 9)
        self.assertIsNone(gm.last("leave"))  # standing on a card is not losing it
        gm.land("b10", 9)     # Runo 290 attacks Dan 300: Dan wins, Runo refills
        gm.resolve()
        self.assertEqual(gm.g.refills, [[1, 9]])
        gm.gate(1, "c11", 9)
        self.assertEqual(gm.last("leave"), {"player": 1, "reason": "lost all their Bakugan"})
        gm.land("b20", 6)     # Marucho stands; Dan and Marucho have nothing to throw
        self.assertEqual(gm.last("turn"), {"player": 3})
        gm.land("b30", 6)     # Shun 270 attacks Marucho 280 and loses
        gm.resolve()
        gm.gate(3, "c31", 6)
        self.assertEqual(gm.last("leave"), {"player": 3, "reason": "lost all their Bakugan"})
        sc = gm.last("score")
        self.assertEqual(sc["reason"], "no Bakugan left in any hand")
        self.assertEqual(sc["scores"], [290 + 10, 0, 270 + 10, 0])
        self.assertEqual(gm.last("win")["player"], 0)


if __name__ == "__main__":
    unittest.main()
