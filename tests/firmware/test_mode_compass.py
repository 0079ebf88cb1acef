"""黄金罗盘 Golden Compass (mode "compass"): hand-written games, one class
per rule of docs/modes/compass.md. Runs under CPython and MicroPython."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import referee
from referee.engine import UNUSED
from cnkit import Game, header, player


def hdr(first=0):
    # Quadrant cards: c00 (+100 pyrus) on 5, c01 (0) on 6, c10 (+50) on 10, c11 (+20) on 9.
    return header("compass", [player(0, g=(300, 250, 200, 150), cards=[(100, 0), (0, 0)]),
                              player(1, g=(300, 250, 200), cards=[(50, 0), (20, 0)])], first=first)


def started(first=0):
    gm = Game(hdr(first))
    assert gm.gate(0, "c00", 5)
    assert gm.gate(1, "c10", 10)
    assert gm.gate(0, "c01", 6)
    assert gm.gate(1, "c11", 9)
    return gm


class Setup(unittest.TestCase):
    def test_four_cards_in_the_quadrants(self):
        gm = Game(hdr())
        self.assertFalse(gm.gate(0, "c00", 0))
        self.assertIn("not zone 0", gm.reason())
        gm.gate(0, "c00", 5)
        gm.gate(0, "c01", 6)
        self.assertFalse(gm.gate(0, "c01", 9))
        self.assertFalse(gm.land("b00", 5))
        gm.gate(1, "c10", 10)
        gm.gate(1, "c11", 9)
        self.assertEqual(gm.last("turn"), {"player": 0})
        self.assertEqual(sorted(gm.g.view()["roles"]), [5, 6, 9, 10])

    def test_three_bakugan_and_two_cards_needed(self):
        h = hdr()
        h["players"][1]["bakugan"].pop()
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h)
        self.assertIn("players[1].bakugan", str(cm.exception))
        h = hdr()
        h["players"][0]["gates"].pop()
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h)
        self.assertIn("players[0].gates", str(cm.exception))
        h = hdr()
        h["players"].append(player(2, cards=[(0, 0), (0, 0)]))
        with self.assertRaises(referee.SetupError):
            referee.new_game(h)


class Throws(unittest.TestCase):
    def test_one_throw_per_turn_and_failed_throw_back_to_hand(self):
        gm = started()
        self.assertTrue(gm.land("b00", 0))
        self.assertEqual(gm.g.loc["b00"], UNUSED)
        self.assertEqual(gm.last("turn"), {"player": 1})
        self.assertFalse(gm.land("b01", 5))
        self.assertTrue(gm.land("b10", 5))
        self.assertEqual(gm.last("turn"), {"player": 0})

    def test_two_own_on_a_card_one_goes_back(self):
        gm = started()
        gm.land("b00", 5)
        gm.miss("b10")
        gm.land("b01", 5)
        self.assertEqual(gm.last("pick"), {"player": 0, "zone": 5, "options": ["b00", "b01"], "for": "stay"})
        self.assertTrue(gm.pick(0, "b01"))
        self.assertEqual(gm.g.loc["b00"], UNUSED)
        self.assertEqual(gm.g.stand[5], ["b01"])


class BattleAndRotation(unittest.TestCase):
    def test_loser_back_winner_stays_then_the_base_cards_turn(self):
        gm = started()
        gm.land("b00", 5)   # 300 + 100
        gm.land("b11", 6)   # Runo on 6
        gm.land("b02", 10)  # Dan on 10
        gm.land("b10", 5)   # 300 + 0 (his attr is pyrus: c00 gives +100 too)
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["power"], {"b10": 400, "b00": 400})
        self.assertEqual(b["winner"], "b10")  # tie: the attacker
        self.assertEqual(gm.g.loc["b00"], UNUSED)
        self.assertEqual(gm.last("rotate"), {"moves": [[5, 6], [6, 10], [10, 9], [9, 5]]})
        # Bakugan moved with their base cards; the battle cards stayed.
        self.assertEqual(gm.g.loc["b10"], 6)
        self.assertEqual(gm.g.loc["b11"], 10)
        self.assertEqual(gm.g.loc["b02"], 9)
        self.assertEqual(gm.g.field, {5: "c00", 6: "c01", 10: "c10", 9: "c11"})
        k = gm.kinds()
        self.assertLess(k.index("battle"), k.index("rotate"))

    def test_moved_bakugan_are_expected_back_on_their_new_zones(self):
        gm = started()
        gm.land("b00", 5)
        gm.land("b11", 6)
        gm.land("b01", 6)   # Dan 250 vs Runo 250: attacker Dan wins, then the turn
        gm.resolve()
        self.assertEqual(sorted(gm.g.view()["put_back"]), [["b00", 6], ["b01", 10]])
        p, ids = gm.g.expects()
        self.assertEqual(p, 1)
        self.assertIn("b00", ids)
        self.assertIn("b01", ids)
        n = len(gm.out)
        self.assertTrue(gm.land("b01", 10))   # put down on the new zone: no throw
        self.assertEqual(len(gm.out), n)
        self.assertEqual(gm.g.put_back, ["b00"])
        self.assertEqual(gm.last("turn"), {"player": 1})
        self.assertFalse(gm.land("b01", 10))
        self.assertIn("already stands on zone 10", gm.reason())

    def test_the_next_battle_uses_the_new_quadrants_card(self):
        gm = started()
        gm.land("b00", 5)
        gm.land("b10", 5)
        gm.resolve()        # b10 wins, moves to 6 (card c01: 0)
        gm.land("b01", 6)   # Dan 250 + 0 attacks b10 300 + 0
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["zone"], 6)
        self.assertEqual(b["parts"]["b10"], [300, 0, 0])
        self.assertEqual(b["winner"], "b10")
        self.assertEqual(gm.g.loc["b10"], 10)  # turned again


class Winning(unittest.TestCase):
    def test_three_own_bakugan_on_three_cards(self):
        gm = started()
        gm.land("b00", 5)
        gm.miss("b10")
        gm.land("b01", 6)
        gm.miss("b10")
        self.assertIsNone(gm.g.winner)
        gm.land("b02", 10)
        self.assertEqual(gm.last("win")["player"], 0)
        self.assertEqual(gm.finish()["winner"], 0)

    def test_a_winner_of_a_battle_can_complete_three(self):
        gm = started()
        gm.miss("b00")
        gm.land("b10", 5)
        gm.miss("b00")
        gm.land("b11", 6)
        gm.land("b00", 10)  # Dan on 10
        gm.land("b12", 10)  # Runo 200 + 50 vs Dan 300 + 50: Dan wins, rotation
        gm.resolve()
        self.assertEqual(gm.last("battle")["winner"], "b00")
        self.assertIsNone(gm.g.winner)
        self.assertEqual(sorted([gm.g.loc[b] for b in ("b10", "b11")]), [6, 10])


if __name__ == "__main__":
    unittest.main()
