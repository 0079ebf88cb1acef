"""龙争虎斗 (mode "longhu") and the variant after it with support cards
("longhu_support"): hand-written games, one class per rule of
docs/modes/longhu.md and longhu_support.md. Runs under CPython and MicroPython."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import referee
from referee.engine import OUT, SETUP
from cnkit import Game, header, player


def hdr(mode="longhu", g0=(300, 250), g1=(280, 260), cards0=((100, 10), (0, 20)), cards1=((50, 30), (0, 40)),
        abil=None):
    return header(mode, [player(0, g=g0, cards=list(cards0), abilities=abil and abil[0]),
                         player(1, g=g1, cards=list(cards1), abilities=abil and abil[1])])


def started(**kw):
    gm = Game(hdr(**kw))
    assert gm.gate(0, "c00", 12) and gm.gate(0, "c01", 13)
    assert gm.gate(1, "c10", 0) and gm.gate(1, "c11", 1)
    assert gm.land("b00", 12) and gm.land("b01", 13)
    assert gm.land("b10", 0) and gm.land("b11", 1)
    return gm


class Setup(unittest.TestCase):
    def test_cards_in_ones_row_then_the_bakugan_on_them(self):
        gm = Game(hdr())
        self.assertFalse(gm.gate(0, "c00", 0))
        self.assertIn("zone 12 or 13 or 14 or 15", gm.reason())
        gm.gate(0, "c00", 12)
        gm.gate(0, "c01", 13)
        gm.gate(1, "c10", 0)
        self.assertFalse(gm.land("b00", 0))   # not his card
        self.assertIn("own cards", gm.reason())
        self.assertTrue(gm.land("b00", 12))
        self.assertFalse(gm.land("b00", 13))  # placed once, never changed
        self.assertIn("already placed", gm.reason())
        gm.gate(1, "c11", 1)
        gm.land("b01", 13)
        gm.land("b10", 0)
        self.assertEqual(gm.g.phase, SETUP)
        self.assertEqual(gm.g.expects(), (1, ["b11"]))
        gm.land("b11", 1)
        self.assertEqual(gm.last("turn"), {"player": 0})
        self.assertEqual(gm.g.expects(), (0, ["b00", "b01"]))

    def test_bakugan_on_the_cards_as_the_player_likes(self):
        """"在4张卡片中可随玩家自己喜好放置爆丸，一旦放置就不能更改": several
        Bakugan on one card, a card without any; the defender picks which
        fights (the default: the one placed first)."""
        gm = Game(hdr())
        gm.gate(0, "c00", 12)
        gm.gate(0, "c01", 13)
        gm.gate(1, "c10", 0)
        gm.gate(1, "c11", 1)
        self.assertTrue(gm.land("b00", 12))
        self.assertTrue(gm.land("b01", 12))   # a second one on the same card
        self.assertEqual(gm.g.stand[12], ["b00", "b01"])
        self.assertFalse(gm.land("b01", 13))  # never changed
        gm.land("b10", 0)
        gm.land("b11", 0)
        self.assertEqual(gm.last("turn"), {"player": 0})
        self.assertTrue(gm.land("b00", 0))     # Dan 300 from c00 (+100) on c10 (+50)
        self.assertEqual(gm.last("pick"), {"player": 1, "zone": 0, "options": ["b10", "b11"], "for": "fight"})
        self.assertTrue(gm.pick(1, "b11"))
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual((b["attacker"], b["defender"], b["winner"]), ("b00", "b11", "b00"))
        self.assertEqual(gm.g.loc["b10"], 0)    # still on its position, its card taken
        self.assertNotIn(0, gm.g.field)
        self.assertIn(0, gm.g.active)
        self.assertEqual(gm.g.loc["b01"], 12)   # likewise, its card out of play
        self.assertIn("c00", gm.g.void_c)
        self.assertEqual(gm.g.expects()[1], ["b10"])
        self.assertTrue(gm.land("b10", 12))     # guarded, no card on either side: G only
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["parts"], {"b10": [280, 0, 0], "b01": [250, 0, 0]})

    def test_the_sheets_four_cards_and_four_bakugan(self):
        """"每位玩家必须准备4张基础卡、爆丸4个": the default kit; the header's kit
        changes the counts."""
        four = [(0, 0)] * 4
        ok = header("longhu", [player(0, g=(1, 2, 3, 4), cards=four), player(1, g=(1, 2, 3, 4), cards=four)],
                    sheet_kit=True)
        referee.new_game(ok)
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(header("longhu", [player(0, g=(1, 2, 3), cards=four), player(1, g=(1, 2, 3, 4), cards=four)],
                                    sheet_kit=True))
        self.assertIn("players[0].bakugan", str(cm.exception))
        self.assertIn("爆丸4个", str(cm.exception))
        referee.new_game(hdr(g1=(280, 260, 240)))  # kit 0: any number
        with self.assertRaises(referee.SetupError):
            referee.new_game(hdr(g0=(1, 2, 3, 4, 5), cards0=[(0, 0)] * 5))  # the row holds 4


class Attack(unittest.TestCase):
    def test_both_cards_count_for_both_fighters(self):
        gm = started()
        self.assertTrue(gm.land("b00", 0))    # from c00 (+100) onto c10 (+50)
        self.assertEqual(gm.last("move"), {"bakugan": "b00", "from": 12, "to": 0})
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["parts"]["b00"], [300, 150, 0])
        self.assertEqual(b["parts"]["b10"], [280, 150, 0])
        self.assertEqual(b["winner"], "b00")

    def test_failed_attacks_leave_the_bakugan_home(self):
        gm = started()
        self.assertTrue(gm.land("b00", 13))   # own card
        self.assertIn("no guarded card of Runo", gm.last("miss")["reason"])
        self.assertEqual(gm.g.loc["b00"], 12)
        self.assertEqual(gm.last("turn"), {"player": 1})
        self.assertTrue(gm.land("b10", 6))    # nothing there
        self.assertEqual(gm.g.loc["b10"], 0)
        self.assertTrue(gm.miss("b00"))
        self.assertEqual(gm.g.loc["b00"], 12)
        self.assertEqual(gm.last("turn"), {"player": 1})

    def test_tie_goes_to_the_attacker(self):
        gm = started(g1=(300, 260), cards1=((100, 30), (0, 40)))
        gm.land("b00", 0)     # both 300 + 200
        gm.resolve()
        self.assertEqual(gm.last("battle")["winner"], "b00")
        gm2 = started(g1=(300, 260), cards1=((100, 30), (0, 40)), g0=(300, 250))
        gm2.miss("b00")
        gm2.land("b10", 12)
        gm2.resolve()
        self.assertEqual(gm2.last("battle")["winner"], "b10")


class AfterTheBattle(unittest.TestCase):
    def test_winner_takes_losers_bakugan_and_card_and_loses_its_own(self):
        gm = started()
        gm.land("b01", 1)     # Dan 250 + 0 + 0 attacks Runo's b11 260
        gm.resolve()
        self.assertEqual(gm.last("battle")["winner"], "b11")
        self.assertEqual(gm.g.seized[1], ["b01"])
        self.assertEqual(gm.g.captured[1], ["c01"])   # the attacker's own card
        self.assertEqual(gm.g.loc["b11"], OUT)
        self.assertIn("c11", gm.g.void_c)
        self.assertEqual(gm.g.active, [0, 12])
        self.assertEqual(gm.g.score(1), 250 + 20)
        self.assertFalse(gm.land("b11", 12))

    def test_the_game_ends_when_a_side_has_no_bakugan_and_scores_decide(self):
        gm = started()
        gm.land("b00", 0)     # Dan wins: b10 280 + c10 hsp 30
        gm.resolve()
        self.assertIsNone(gm.g.winner)
        gm.land("b11", 13)    # Runo 260 + 0 vs b01 250 + 0: Runo wins: b01 250 + c01 20
        gm.resolve()
        sc = gm.last("score")
        self.assertEqual(sc["scores"], [310, 270])
        self.assertEqual(sc["left"], [0, 0])
        self.assertEqual(gm.last("win")["player"], 0)
        self.assertEqual(gm.finish()["winner"], 0)


class Support(unittest.TestCase):
    def abil(self):
        return [[{"id": "s0", "effect": {"g": 60}}, {"id": "s1", "effect": {"g": 10}}],
                [{"id": "t0", "effect": {"g": 100}}, {"id": "t1", "effect": {"g": 100}}]]

    def test_longhu_has_no_support_cards(self):
        with self.assertRaises(referee.SetupError):
            referee.new_game(hdr(abil=self.abil()))

    def test_two_support_cards_played_when_behind(self):
        gm = started(mode="longhu_support", abil=self.abil())
        gm.land("b01", 1)     # Dan 250 vs Runo 260
        self.assertFalse(gm.ability(1, "t0"))
        self.assertTrue(gm.ability(0, "s1"))   # 260: level, and ties go to the attacker
        self.assertFalse(gm.ability(0, "s0"))
        self.assertIn("only when behind", gm.reason())
        self.assertTrue(gm.ability(1, "t0"))   # the defender level is behind
        self.assertTrue(gm.ability(0, "s0"))   # 320 vs 360
        self.assertFalse(gm.ability(0, "s0"))
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["power"], {"b01": 320, "b11": 360})
        h = hdr(mode="longhu_support", abil=self.abil())
        h["players"][0]["abilities"].append({"id": "s2", "effect": {"g": 1}})
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h)
        self.assertIn("at most 2", str(cm.exception))


    def test_support_variant_voids_only_the_winners_card(self):
        """"战斗过的胜方卡片也作废": the winner's card is out of play, the
        winner's Bakugan is not; it goes back to its own position."""
        gm = started(mode="longhu_support", abil=self.abil())
        gm.land("b00", 0)     # Dan 300 + 150 vs 280 + 150
        gm.resolve()
        self.assertEqual(gm.last("battle")["winner"], "b00")
        self.assertEqual(gm.g.seized[0], ["b10"])
        self.assertEqual(gm.g.captured[0], ["c10"])
        self.assertIn("c00", gm.g.void_c)
        self.assertNotIn("b00", gm.g.void_b)
        self.assertEqual(gm.g.loc["b00"], 12)
        self.assertEqual(gm.last("move"), {"bakugan": "b00", "from": 0, "to": 12})
        self.assertEqual(gm.g.view()["put_back"], [["b00", 12]])
        n = len(gm.out)
        self.assertTrue(gm.land("b00", 12))   # put back by hand: silent
        self.assertEqual(len(gm.out), n)
        gm2 = started()                       # the base game: both out
        gm2.land("b00", 0)
        gm2.resolve()
        self.assertIn("b00", gm2.g.void_b)


if __name__ == "__main__":
    unittest.main()
