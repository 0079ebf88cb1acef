"""抢滩登陆战 Beach Landing (mode "beach"): hand-written games, one class per
rule of docs/modes/beach.md. Runs under CPython and MicroPython."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import referee
from referee.engine import OUT
from cnkit import Game, header, player

CARDS = [(0, 10), (50, 20), (0, 30), (0, 40), (0, 50), (0, 60)]


def hdr(g0=(300, 300, 300, 300), g1=(250, 250, 250, 250), cards0=CARDS, cards1=CARDS, mode="beach"):
    return header(mode, [player(0, g=g0, cards=cards0), player(1, g=g1, cards=cards1)])


def started(**kw):
    gm = Game(hdr(**kw))
    for j in range(3):
        assert gm.gate(0, "c0%d" % j, 4 + j)   # Dan's cards on Runo's side
        assert gm.gate(1, "c1%d" % j, 9 + j)   # Runo's cards on Dan's side
    return gm


class Setup(unittest.TestCase):
    def test_three_cards_each_on_the_other_side(self):
        gm = Game(hdr())
        self.assertFalse(gm.gate(0, "c00", 9))
        self.assertIn("zone 4 or 5 or 6 or 7", gm.reason())
        for j in range(3):
            gm.gate(0, "c0%d" % j, 4 + j)
        self.assertFalse(gm.gate(0, "c03", 7))
        self.assertFalse(gm.land("b00", 4))
        for j in range(3):
            gm.gate(1, "c1%d" % j, 8 + j)
        self.assertEqual(gm.last("turn"), {"player": 0})

    def test_the_sheets_set_twelve_bakugan_and_six_cards(self):
        """"每位玩家准备3张基地卡、6张基础卡、12个爆丸": the default kit."""
        six = [(0, 0)] * 6
        referee.new_game(header("beach", [player(0, g=(1,) * 12, cards=six), player(1, g=(1,) * 12, cards=six)],
                                sheet_kit=True))
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(header("beach", [player(0, g=(1,) * 12, cards=six[:5]),
                                              player(1, g=(1,) * 12, cards=six)], sheet_kit=True))
        self.assertEqual(str(cm.exception), "players[0].gates: mode beach needs 6 cards per player, got 5 "
                                            "(the sheet: 6张基础卡; header.kit.cards changes the count)")

    def test_three_cards_needed(self):
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(hdr(cards1=CARDS[:2]))
        self.assertIn("players[1].gates", str(cm.exception))


class OneThrowPerBakugan(unittest.TestCase):
    def test_failed_landing_puts_the_bakugan_out_of_play(self):
        """Borrowed from sheet 2 (抢滩登陆战2): "每个爆丸只有一次射击机会，"上阵失败"的爆丸作废"."""
        gm = started()
        self.assertTrue(gm.land("b00", 0))
        self.assertEqual(gm.g.loc["b00"], OUT)
        self.assertEqual(gm.last("void"), {"what": "bakugan", "id": "b00", "reason": "failed landing"})
        self.assertEqual(gm.last("turn"), {"player": 1})
        self.assertTrue(gm.miss("b10"))
        self.assertEqual(gm.g.loc["b10"], OUT)
        self.assertFalse(gm.land("b00", 4))

    def test_a_standing_bakugan_is_not_thrown_again(self):
        gm = started()
        gm.land("b00", 4)
        gm.land("b10", 5)
        self.assertFalse(gm.land("b00", 6))
        self.assertIn("not in the hand", gm.reason())


class Battle(unittest.TestCase):
    def test_winner_takes_bakugan_and_card_its_bakugan_retires_loser_refills(self):
        """"胜方夺取对方爆丸及战斗过的卡片，负方必须拿出一张卡填补战场"; the winner's
        Bakugan out of play is borrowed from sheet 2: "同时胜方的爆丸作废"."""
        gm = started()
        gm.land("b00", 5)   # 300 + 50
        gm.land("b10", 5)   # 250 + 50
        gm.resolve()
        self.assertEqual(gm.last("battle")["winner"], "b00")
        self.assertEqual(gm.g.seized[0], ["b10"])
        self.assertEqual(gm.g.captured[0], ["c01"])
        self.assertEqual(gm.g.loc["b00"], OUT)
        self.assertEqual(gm.last("refill"), {"player": 1, "zone": 5})
        self.assertFalse(gm.land("b01", 4))
        self.assertTrue(gm.gate(1, "c13", 5))
        self.assertEqual(gm.last("turn"), {"player": 0})

    def test_tie_goes_to_the_attacker(self):
        """Borrowed from sheet 2: "战斗中出现同分时攻方胜，后登上卡片的一方为攻方"."""
        gm = started(g1=(300, 300, 300, 300))
        gm.land("b00", 4)
        gm.land("b10", 4)
        gm.resolve()
        self.assertEqual(gm.last("battle")["winner"], "b10")


class TwoOwnBakugan(unittest.TestCase):
    def test_two_own_capture_even_an_own_card(self):
        """"将直接获得这张基础卡（即使该卡是本方的也计分数），但自己必须拿出一张基础卡
        补充，而上阵的2个爆丸则作废"."""
        gm = started()
        gm.land("b00", 4)    # Dan's own card c00
        gm.miss("b10")
        gm.land("b01", 4)
        self.assertEqual(gm.g.captured[0], ["c00"])
        self.assertEqual(gm.last("capture")["reason"], "double")
        self.assertEqual([gm.g.loc["b00"], gm.g.loc["b01"]], [OUT, OUT])
        self.assertIn("b01", gm.g.void_b)
        self.assertEqual(gm.last("refill"), {"player": 0, "zone": 4})
        self.assertEqual(gm.g.score(0), 10)


class NoCardsLeft(unittest.TestCase):
    def test_no_refill_and_g_only_battles(self):
        """Borrowed from sheet 2: "当玩家的基础卡用完后，则无需对战场进行补充，底下无
        基础卡的战斗则只比拼双方的爆丸G值"."""
        gm = started(cards1=CARDS[:3])
        gm.land("b00", 10)   # Runo's card c11 (+50)
        gm.land("b10", 10)   # 250 + 50 vs 300 + 50: Dan wins
        gm.resolve()
        self.assertEqual(gm.g.refills, [])  # Runo has no card left
        self.assertIn(10, gm.g.active)
        self.assertNotIn(10, gm.g.field)
        self.assertEqual(gm.last("turn"), {"player": 0})
        gm.land("b01", 10)   # stands where no card lies
        gm.land("b11", 10)
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["parts"]["b11"], [250, 0, 0])
        self.assertEqual(b["parts"]["b01"], [300, 0, 0])
        self.assertEqual(gm.g.captured[0], ["c11"])  # nothing more to capture


class End(unittest.TestCase):
    def test_ends_when_a_player_has_no_bakugan_left_in_the_hand(self):
        """Borrowed from sheet 2: "当一方输完手上的爆丸时，该局游戏结束。战场上的爆丸
        及卡片作废，不计算分数"."""
        gm = started(g0=(300, 300), g1=(250, 250, 250))
        gm.land("b00", 9)    # stands
        gm.land("b10", 4)    # stands
        gm.land("b01", 4)    # Dan attacks: 300 vs 250 (c00: no haos... pyrus 0)
        gm.resolve()
        # Dan won but has no Bakugan in the hand: game over.
        sc = gm.last("score")
        self.assertEqual(sc["reason"], "Dan has no Bakugan left in the hand")
        self.assertEqual(gm.g.loc["b00"], OUT)  # field Bakugan out of play
        self.assertIn("b00", gm.g.void_b)
        self.assertEqual(sc["scores"], [250 + 10, 0])
        self.assertEqual(gm.last("win")["player"], 0)
        for z in gm.g.active:
            self.assertNotIn(z, gm.g.field)
        self.assertEqual(gm.g.refills, [])
        self.assertEqual(gm.finish()["winner"], 0)


if __name__ == "__main__":
    unittest.main()
