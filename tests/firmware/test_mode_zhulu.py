"""逐鹿中原 (mode "zhulu"): hand-written games, one class per rule of
docs/modes/zhulu.md. Runs under CPython and MicroPython."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import referee
from referee.engine import OUT, UNUSED
from cnkit import Game, header, player


def hdr(n=4, first=0):
    ps = []
    for i in range(n):
        ps.append(player(i, g=(300 + 10 * i, 250, 200), cards=[(50, 10 * (i + 1)), (0, 5), (0, 7)]))
    return header("zhulu", ps, first=first)


def started(n=4, first=0):
    gm = Game(hdr(n, first))
    zones = (5, 6, 9, 10)
    for i in range(n):
        assert gm.gate(i, "c%d0" % i, zones[i])
    return gm


class Setup(unittest.TestCase):
    def test_one_card_each_on_the_battlefield_then_turns(self):
        gm = Game(hdr())
        self.assertFalse(gm.gate(0, "c00", 0))
        self.assertIn("zone 5 or 6 or 9 or 10", gm.reason())
        self.assertTrue(gm.gate(0, "c00", 5))
        self.assertFalse(gm.gate(0, "c01", 6))
        self.assertIn("placed all", gm.reason())
        self.assertFalse(gm.land("b00", 5))
        self.assertIn("set-up", gm.reason())
        self.assertTrue(gm.gate(1, "c10", 6))
        self.assertTrue(gm.gate(2, "c20", 9))
        self.assertNotIn("turn", gm.kinds())
        self.assertTrue(gm.gate(3, "c30", 10))
        self.assertEqual(gm.last("turn"), {"player": 0})

    def test_players_2_to_4(self):
        with self.assertRaises(referee.SetupError):
            referee.new_game(header("zhulu", [player(i, cards=[(0, 1)]) for i in range(5)]))
        with self.assertRaises(referee.SetupError):
            referee.new_game(header("zhulu", [player(0, cards=[(0, 1)])]))

    def test_no_ability_cards_in_this_mode(self):
        h = hdr()
        h["players"][1]["abilities"] = [{"id": "x", "effect": {"g": 50}}]
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h)
        self.assertIn("players[1].abilities", str(cm.exception))

    def test_bad_hsp_is_refused(self):
        h = hdr()
        h["players"][2]["gates"][1]["hsp"] = -3
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h)
        self.assertIn("players[2].gates[1].hsp", str(cm.exception))


class TurnsAndThrows(unittest.TestCase):
    def test_clockwise_one_throw_each(self):
        gm = started(first=2)
        self.assertFalse(gm.land("b00", 5))
        self.assertIn("Marucho's turn", gm.reason())
        self.assertTrue(gm.land("b20", 5))
        self.assertEqual(gm.last("turn"), {"player": 3})
        self.assertTrue(gm.miss("b30"))
        self.assertEqual(gm.last("turn"), {"player": 0})

    def test_failed_throw_returns_to_the_hand(self):
        gm = started()
        self.assertTrue(gm.land("b00", 3))  # no card on zone 3
        self.assertEqual(gm.last("miss")["reason"], "no card on zone 3")
        self.assertEqual(gm.g.loc["b00"], UNUSED)
        self.assertEqual(gm.last("turn"), {"player": 1})

    def test_a_standing_bakugan_is_not_thrown_again(self):
        gm = started(n=2)
        gm.land("b00", 5)
        gm.miss("b10")
        self.assertFalse(gm.land("b00", 6))
        self.assertIn("not in the hand", gm.reason())


class OneOwnBakuganPerCard(unittest.TestCase):
    def test_default_keeps_the_one_already_there(self):
        gm = started(n=2)
        gm.land("b00", 5)
        gm.miss("b10")
        self.assertTrue(gm.land("b01", 5))
        self.assertEqual(gm.last("pick")["for"], "stay")
        self.assertTrue(gm.miss("b11"))  # settles the pick by default
        self.assertEqual(gm.g.loc["b00"], 5)
        self.assertEqual(gm.g.loc["b01"], UNUSED)
        self.assertEqual(gm.last("back")["bakugan"], "b01")

    def test_pick_keeps_the_newcomer(self):
        gm = started(n=2)
        gm.land("b00", 5)
        gm.miss("b10")
        gm.land("b01", 5)
        self.assertFalse(gm.pick(1, "b10"))
        self.assertTrue(gm.pick(0, "b01"))
        self.assertEqual(gm.g.loc["b01"], 5)
        self.assertEqual(gm.g.loc["b00"], UNUSED)
        self.assertEqual(gm.last("turn"), {"player": 1})


class Battles(unittest.TestCase):
    def test_power_is_g_plus_the_card_value_and_winner_takes_all(self):
        gm = started(n=2)
        gm.land("b01", 6)  # 250 + c10's pyrus 50 = 300
        gm.land("b10", 6)  # 310 + 50 = 360
        self.assertEqual(gm.last("clash")["attacker"], "b10")
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["power"], {"b10": 360, "b01": 300})
        self.assertEqual(b["winner"], "b10")
        self.assertEqual(gm.g.seized[1], ["b01"])
        self.assertEqual(gm.g.loc["b10"], OUT)  # the winner's Bakugan is retired
        self.assertIn("b10", gm.g.void_b)
        # zhulu: the winner takes the battled card even when it is their own
        self.assertEqual(gm.g.captured[1], ["c10"])
        self.assertEqual(gm.last("refill"), {"player": 0, "zone": 6})

    def test_tie_goes_to_the_attacker(self):
        h = hdr(2)
        h["players"][1]["bakugan"][0]["g"] = 300
        gm = Game(h)
        gm.gate(0, "c00", 5)
        gm.gate(1, "c10", 6)
        gm.land("b00", 5)
        gm.land("b10", 5)
        gm.resolve()
        self.assertEqual(gm.last("battle")["winner"], "b10")

    def test_seized_bakugan_cannot_be_thrown(self):
        gm = started(n=2)
        gm.land("b01", 6)
        gm.land("b10", 6)
        gm.resolve()
        gm.gate(0, "c01", 6)
        self.assertFalse(gm.land("b01", 5))
        self.assertIn("out of the game", gm.reason())


class Reveal(unittest.TestCase):
    def test_values_entered_when_the_card_is_turned_over(self):
        gm = started(n=2)
        gm.land("b01", 6)
        gm.land("b10", 6)
        before = gm.state()
        self.assertFalse(gm.ev("reveal", player=1, gate="c10", bonus={"pyrus": 10}, hsp=-1))
        self.assertEqual(gm.state(), before)
        self.assertTrue(gm.ev("reveal", player=1, gate="c10", bonus={"pyrus": 200}, hsp=77))
        self.assertIsNotNone(gm.g.battle)  # a reveal does not resolve the battle
        self.assertEqual(gm.last("reveal"), {"player": 1, "gate": "c10", "bonus": {"pyrus": 200}, "hsp": 77})
        gm.resolve()
        self.assertEqual(gm.last("battle")["power"], {"b10": 510, "b01": 450})
        self.assertEqual(gm.g.score(1), 250 + 77)


class Refill(unittest.TestCase):
    def test_the_loser_refills_before_anyone_throws(self):
        gm = started(n=2)
        gm.land("b01", 6)
        gm.land("b10", 6)
        gm.resolve()
        self.assertEqual(gm.g.view()["phase"], "refill")
        before = gm.state()
        self.assertFalse(gm.land("b00", 5))
        self.assertIn("Dan must first place a card on zone 6", gm.reason())
        self.assertFalse(gm.gate(1, "c11", 6))
        self.assertFalse(gm.gate(0, "c01", 9))
        self.assertIn("zone 6", gm.reason())
        self.assertEqual(gm.state(), before)
        self.assertTrue(gm.gate(0, "c01", 6))
        self.assertEqual(gm.last("turn"), {"player": 0})
        self.assertTrue(gm.land("b00", 6))

    def test_cards_are_placed_only_at_setup_or_refill(self):
        gm = started(n=2)
        self.assertFalse(gm.gate(0, "c01", 9))
        self.assertIn("only at set-up", gm.reason())


class Leaving(unittest.TestCase):
    def test_placing_every_card_is_not_losing_them(self):
        """"玩家输完爆丸或卡片则要退场": only a player who has LOST all their
        cards leaves; Dan's reserve cards went down as refills, and cards of
        his still lie on the battlefield: he stays."""
        gm = started(n=3)
        gm.land("b01", 6)   # Dan 250+50 vs Runo's 310+50 later
        gm.land("b10", 6)
        gm.resolve()
        gm.gate(0, "c01", 6)
        gm.miss("b20")
        gm.land("b02", 9)   # Dan 200 on c20 (+50)
        gm.land("b11", 9)   # Runo 250 + 50 wins
        gm.resolve()
        self.assertTrue(gm.gate(0, "c02", 9))
        self.assertIsNone(gm.last("leave"))
        self.assertEqual(gm.g.loc["b00"], UNUSED)  # still his to throw
        self.assertEqual(gm.last("turn"), {"player": 2})

    def test_a_player_who_lost_all_cards_leaves_and_field_bakugan_still_fight(self):
        """"玩家输完爆丸或卡片则要退场，手中剩余的爆丸或卡片作废。如在战场上仍有
        爆丸，发生战斗时仍然有效": Dan's only card is taken; he leaves, the
        Bakugan in his hand are out of play, the one on the field fights."""
        h = header("zhulu", [player(0, g=(300, 300, 100), cards=[(0, 1)]),
                             player(1, g=(320, 200), cards=[(0, 1), (0, 1)]),
                             player(2, g=(200, 200), cards=[(0, 1), (0, 1)])])
        gm = Game(h)
        gm.gate(0, "c00", 5)
        gm.gate(1, "c10", 6)
        gm.gate(2, "c20", 9)
        gm.land("b00", 6)      # Dan stands on Runo's card
        gm.miss("b10")
        gm.miss("b20")
        gm.land("b02", 5)      # Dan's 100 on his own card
        gm.land("b10", 5)      # Runo 320 takes b02 and Dan's only card
        gm.resolve()
        self.assertEqual(gm.g.captured[1], ["c00"])
        self.assertEqual(gm.last("leave"), {"player": 0, "reason": "lost all their cards"})
        self.assertEqual(gm.g.loc["b01"], OUT)   # the hand is out of play
        self.assertEqual(gm.g.loc["b00"], 6)     # still on the battlefield
        gm.land("b21", 6)      # Marucho 200 attacks Dan's b00 (300): it still fights
        gm.resolve()
        self.assertEqual(gm.last("battle")["winner"], "b00")
        self.assertEqual(gm.g.seized[0], ["b21"])

    def test_all_bakugan_on_cards_is_not_leaving_and_a_refill_follows(self):
        """"玩家输完爆丸或卡片则要退场": a player whose Bakugan all stand on
        cards has lost none; the turns pass them by (nothing to throw), and
        after a lost battle with another Bakugan still on a card they
        refill the card; the battle that takes the last one makes them
        leave at once, with no refill owed."""
        h = header("zhulu", [player(0, g=(300, 300), cards=[(0, 1), (0, 1), (0, 1)]),
                             player(1, g=(400, 400, 200), cards=[(0, 1), (0, 1)]),
                             player(2, g=(200, 200), cards=[(0, 1), (0, 1)])])
        gm = Game(h)
        gm.gate(0, "c00", 5)
        gm.gate(1, "c10", 6)
        gm.gate(2, "c20", 9)
        self.assertTrue(gm.land("b00", 5))
        gm.miss("b12")
        gm.miss("b20")
        self.assertTrue(gm.land("b01", 6))
        self.assertIsNone(gm.last("leave"))
        gm.miss("b12")
        gm.miss("b20")
        self.assertEqual(gm.last("turn"), {"player": 1})  # Dan has nothing to throw: skipped
        self.assertEqual(gm.g.expects()[0], 1)
        gm.land("b10", 5)      # Runo 400 beats Dan's b00 (300); b01 still stands on zone 6
        gm.resolve()
        self.assertIsNone(gm.last("leave"))
        self.assertEqual(gm.g.refills, [[0, 5]])
        self.assertTrue(gm.gate(0, "c01", 5))  # Dan refills the card
        self.assertEqual(gm.last("turn"), {"player": 2})
        gm.miss("b20")
        gm.land("b11", 6)      # Runo 400 beats b01, Dan's last Bakugan
        n = len(gm.out)
        gm.resolve()
        self.assertEqual(gm.last("leave"), {"player": 0, "reason": "lost all their Bakugan"})
        self.assertNotIn("refill", gm.kinds()[n:])
        self.assertEqual(gm.g.refills, [])
        self.assertEqual(gm.g.gloc["c02"], OUT)  # the card left in his hand is out of play
        self.assertEqual(gm.last("turn"), {"player": 2})


class LeavingAtOnce(unittest.TestCase):
    """The sheet (000, 逐鹿中原): "玩家输完爆丸或卡片则要退场，手中剩余的爆丸或卡片
    作废" (a player who has lost all their Bakugan or all their cards must
    leave; what is left in their hand is void) and "当只剩一位玩家同时有爆丸和
    卡片时，该局游戏结束" (when only one player still has both Bakugan and
    cards, the game ends). The loser of their last Bakugan leaves right
    after the battle: no refill is waited for, the game ends there."""

    def test_three_players_one_out_a_second_loses_the_last_bakugan_the_third_wins(self):
        h = header("zhulu", [player(0, g=(100, 300), cards=[(0, 1)]),
                             player(1, g=(200,), cards=[(0, 5), (0, 50)]),
                             player(2, g=(400, 400, 400), cards=[(0, 10), (0, 1)])])
        gm = Game(h)
        gm.gate(0, "c00", 5)
        gm.gate(1, "c10", 6)
        gm.gate(2, "c20", 9)
        gm.land("b00", 5)      # Dan's 100 on his only card
        gm.miss("b10")
        gm.land("b20", 5)      # Marucho's 400 takes it and Dan's only card
        gm.resolve()
        self.assertEqual(gm.last("leave"), {"player": 0, "reason": "lost all their cards"})
        self.assertEqual(gm.last("turn"), {"player": 1})
        gm.land("b10", 9)      # Runo's only Bakugan
        gm.land("b21", 9)      # Marucho's 400 beats it
        n = len(gm.out)
        gm.resolve()
        new = gm.kinds()[n:]
        # Runo still holds card c11, but has lost his last Bakugan: he
        # leaves at once, owing no refill, and c11 is void
        self.assertEqual(gm.last("leave"), {"player": 1, "reason": "lost all their Bakugan"})
        self.assertNotIn("refill", new)
        self.assertEqual(gm.g.gloc["c11"], OUT)
        # only Marucho still has both Bakugan (b22) and cards (c21): the
        # game ends right after the battle, without waiting for anyone
        self.assertEqual(gm.last("score"), {"scores": [0, 0, 100 + 1 + 200 + 10], "left": [0, 1, 2],
                                            "reason": "one player left"})
        self.assertEqual(gm.last("win"), {"player": 2})
        self.assertEqual(new[-1], "win")
        gm.finish()
        self.assertEqual(gm.last("end")["winner"], 2)

    def test_two_players_lose_their_last_bakugan_in_one_battle_hands_are_void(self):
        """A tie on score: "计算总分时如果出现同分则核算自己剩下的爆丸和卡片，多的一方
        胜" (the one with more pieces left wins); the cards still in a hand
        are void ("手中剩余的…卡片作废"), so only the pieces on the field
        count: Runo's refill card c11 beats Dan's two cards in the hand."""
        h = header("zhulu", [player(0, g=(300, 250), cards=[(0, 10), (0, 1), (0, 1)]),
                             player(1, g=(300, 250), cards=[(0, 10), (0, 1), (0, 1)])])
        gm = Game(h)
        gm.gate(0, "c00", 5)
        gm.gate(1, "c10", 6)
        gm.land("b00", 5)
        gm.land("b11", 5)      # Runo's 250 loses to Dan's 300
        gm.resolve()
        self.assertEqual(gm.g.refills, [[1, 5]])  # Runo still has b10: he refills
        self.assertTrue(gm.gate(1, "c11", 5))
        gm.land("b01", 6)      # Dan's last Bakugan
        gm.land("b10", 6)      # Runo's last: 300 beats 250
        n = len(gm.out)
        gm.resolve()
        # Dan lost b01 (seized), Runo b10 (out of play after winning):
        # both leave at once, in seating order; both hands are void
        self.assertEqual(gm.all("leave")[-2:], [{"player": 0, "reason": "lost all their Bakugan"},
                                                {"player": 1, "reason": "lost all their Bakugan"}])
        self.assertNotIn("refill", gm.kinds()[n:])
        for c in ("c01", "c02", "c12"):
            self.assertEqual(gm.g.gloc[c], OUT, c)
        sc = gm.last("score")
        # each seized a 250 and captured a card of HSP 10
        self.assertEqual(sc["scores"], [260, 260])
        # pieces left: Dan none (his cards in the hand are void); Runo c11,
        # still on the battlefield
        self.assertEqual(sc["left"], [0, 1])
        self.assertEqual(sc["reason"], "no player left")
        self.assertEqual(gm.last("win"), {"player": 1})


class EndAndScore(unittest.TestCase):
    def test_last_player_standing_ends_and_scores(self):
        """"当只剩一位玩家同时有爆丸和卡片时，该局游戏结束" and "最终分数计算方法：
        夺取的爆丸G值总和+夺取的卡片HSP值总和=该局分数"."""
        h = header("zhulu", [player(0, g=(300, 100), cards=[(0, 40), (0, 1)]),
                             player(1, g=(200,), cards=[(0, 30), (0, 1)])])
        gm = Game(h)
        gm.gate(0, "c00", 5)
        gm.gate(1, "c10", 6)
        gm.land("b00", 6)
        # Runo throws his only Bakugan at Dan's: a battle, nobody leaves yet
        gm.land("b10", 6)
        self.assertIsNotNone(gm.g.battle)
        self.assertIsNone(gm.last("leave"))
        gm.resolve()
        # Runo has lost his only Bakugan: he leaves at once (his card c11
        # in the hand is void, no refill is owed) and the game is scored
        self.assertEqual(gm.last("leave"), {"player": 1, "reason": "lost all their Bakugan"})
        self.assertNotIn("refill", gm.kinds())
        sc = gm.last("score")
        # Dan (defender 300) beats b10 (200): seizes 200 + card c10 HSP 30
        self.assertEqual(sc["scores"], [230, 0])
        self.assertEqual(gm.last("win")["player"], 0)
        self.assertFalse(gm.land("b01", 5))
        self.assertIn("over", gm.reason())
        gm.finish()
        self.assertEqual(gm.last("end")["winner"], 0)

    def test_equal_scores_go_to_the_player_with_more_pieces_left(self):
        g = referee.new_game(hdr(2))
        g.seized[0] = ["b11"]
        g.seized[1] = ["b01"]  # both 250
        self.assertEqual(g.tiebreak(0), 3 + 3)
        out = []
        g.sink = out.append
        g.loc["b00"] = OUT
        g.final(0, "test")
        g._flush()
        self.assertEqual(out[0][0], "score")
        self.assertEqual(g.winner, 1)

    def test_full_tie_is_a_draw(self):
        out = []
        g = referee.new_game(hdr(2), out.append)
        g.final(0, "test")
        g._flush()
        self.assertEqual([o[0] for o in out], ["score", "stalemate"])
        self.assertIsNone(g.winner)


class NoCardToRefill(unittest.TestCase):
    def test_a_player_with_no_reserve_card_stays_while_a_card_is_down(self):
        """"玩家输完爆丸或卡片则要退场": no reserve card is not a lost card."""
        h = header("zhulu", [player(0, cards=[(0, 1)]), player(1, cards=[(0, 1), (0, 1)]),
                             player(2, cards=[(0, 1), (0, 1)])])
        gm = Game(h)
        gm.gate(0, "c00", 5)
        gm.gate(1, "c10", 6)
        gm.gate(2, "c20", 9)
        self.assertIsNone(gm.last("leave"))
        self.assertEqual(gm.last("turn"), {"player": 0})

    def test_zone_without_card_compares_g_only(self):
        h = header("zhulu", [player(0, g=(300, 300), cards=[(100, 1), (0, 1)]),
                             player(1, g=(250, 250, 250), cards=[(100, 1), (0, 1)]),
                             player(2, g=(200,), cards=[(100, 1)])])
        gm = Game(h)
        gm.gate(0, "c00", 5)
        gm.gate(1, "c10", 6)
        gm.gate(2, "c20", 9)
        gm.miss("b00")
        gm.miss("b10")
        gm.land("b20", 9)
        self.assertIsNone(gm.last("leave"))
        gm.land("b00", 9)  # 300+100 beats 200+100
        gm.resolve()
        self.assertEqual(gm.g.seized[0], ["b20"])
        self.assertEqual(gm.g.captured[0], ["c20"])
        self.assertEqual(gm.g.refills, [])  # Marucho has no card left: nobody refills
        self.assertEqual(gm.last("leave"), {"player": 2, "reason": "lost all their Bakugan"})
        self.assertNotIn(9, gm.g.field)
        self.assertIn(9, gm.g.active)
        self.assertEqual(gm.last("turn"), {"player": 1})  # Marucho is skipped
        gm.land("b10", 9)
        gm.land("b01", 9)
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["parts"]["b01"], [300, 0, 0])
        self.assertEqual(b["power"], {"b01": 300, "b10": 250})


if __name__ == "__main__":
    unittest.main()
