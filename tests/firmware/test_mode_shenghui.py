"""圣徽召唤 (mode "shenghui"): the rules it adds to zhulu, hand-written
(docs/modes/shenghui.md). Runs under CPython and MicroPython."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import referee
from cnkit import Game, header, player


def hdr(boost=(100, 100)):
    ps = []
    for i in range(2):
        ps.append(player(i, g=(300 + 20 * i, 250, 200), cards=[(0, 10 * (i + 1)), (0, 5), (0, 7)],
                         abilities=[{"id": "s%d" % i, "effect": {"g": boost[i]}}]))
    return header("shenghui", ps)


def started(boost=(100, 100)):
    gm = Game(hdr(boost))
    assert gm.gate(0, "c00", 5)
    assert gm.gate(1, "c10", 6)
    return gm


class SupportCard(unittest.TestCase):
    def test_one_support_card_each(self):
        h = hdr()
        h["players"][0]["abilities"].append({"id": "s9", "effect": {"g": 10}})
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h)
        self.assertIn("at most 1", str(cm.exception))

    def test_only_when_behind_and_it_turns_the_battle(self):
        gm = started()
        gm.land("b00", 5)   # Dan 300 defends
        gm.land("b10", 5)   # Runo 320 attacks
        self.assertFalse(gm.ability(1, "s1"))
        self.assertIn("only when behind", gm.reason())
        self.assertTrue(gm.ability(0, "s0"))  # Dan 400 now
        self.assertFalse(gm.ability(0, "s0"))
        self.assertTrue(gm.ability(1, "s1"))  # Runo behind now: 420
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["power"], {"b00": 400, "b10": 420})
        self.assertEqual(b["parts"]["b10"], [320, 0, 100])

    def test_a_defender_level_with_the_attacker_is_behind(self):
        gm = started(boost=(20, 20))
        gm.land("b01", 5)   # Dan 250
        gm.land("b12", 5)   # Runo 200
        self.assertTrue(gm.ability(1, "s1"))   # 220 < 250
        self.assertFalse(gm.ability(0, "s0"))  # Dan leads
        gm.resolve()
        gm.gate(1, "c11", 5)
        gm.land("b02", 6)   # Dan 200 on Runo's card
        gm.land("b11", 6)   # Runo 250 attacks; Dan behind
        self.assertTrue(gm.ability(0, "s0"))    # 220: still behind
        gm.resolve()
        self.assertEqual(gm.last("battle")["winner"], "b11")

    def test_support_outside_a_battle_or_by_a_bystander_is_rejected(self):
        h = header("shenghui", [player(i, cards=[(0, 1), (0, 1)], abilities=[{"id": "s%d" % i, "effect": {"g": 50}}])
                                for i in range(3)])
        gm = Game(h)
        for i in range(3):
            gm.gate(i, "c%d0" % i, (5, 6, 9)[i])
        self.assertFalse(gm.ability(0, "s0"))
        self.assertIn("outside a battle", gm.reason())
        gm.land("b00", 5)
        gm.land("b10", 5)
        self.assertFalse(gm.ability(2, "s2"))
        self.assertIn("not in this battle", gm.reason())


class Cards(unittest.TestCase):
    def test_the_winners_own_card_is_out_of_play(self):
        gm = started()
        gm.land("b00", 5)   # on Dan's card c00
        gm.land("b11", 5)   # Runo 250 loses to 300
        gm.resolve()
        self.assertEqual(gm.g.captured[0], [])
        self.assertIn("c00", gm.g.void_c)
        self.assertEqual(gm.last("void"), {"what": "card", "id": "c00", "reason": "the winner's own card"})
        self.assertEqual(gm.g.seized[0], ["b11"])

    def test_the_losers_card_is_captured(self):
        gm = started()
        gm.land("b00", 6)   # on Runo's card c10
        gm.land("b11", 6)
        gm.resolve()
        self.assertEqual(gm.g.captured[0], ["c10"])
        self.assertEqual(gm.g.score(0), 250 + 20)


if __name__ == "__main__":
    unittest.main()
