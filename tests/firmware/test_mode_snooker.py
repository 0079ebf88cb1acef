"""爆丸斯诺克 Bakugan Snooker (mode "snooker"): hand-written games, one
class per rule of docs/modes/snooker.md. Runs under CPython and MicroPython."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import referee
from referee.engine import UNUSED
from cnkit import Game, header, player


def hdr(n=2, shots=3, first=0):
    ps = [player(0, g=(300, 300), cards=[(0, 2), (0, 3), (0, 7)])]
    ps[0]["gates"].append({"id": "plain", "bonus": {}})  # no hsp: 1 point
    for i in range(1, n):
        ps.append(player(i, g=(300, 300)))
    return header("snooker", ps, first=first, shots=shots)


def started(n=2, shots=3, first=0):
    gm = Game(hdr(n, shots, first))
    for gid, z in (("c00", 0), ("c01", 3), ("c02", 12), ("plain", 15)):
        assert gm.gate(0, gid, z)
    return gm


class Setup(unittest.TestCase):
    def test_every_card_is_placed_before_the_first_shot(self):
        gm = Game(hdr())
        gm.gate(0, "c00", 0)
        self.assertFalse(gm.land("b00", 0))
        self.assertIn("set-up", gm.reason())
        gm.gate(0, "c01", 3)
        gm.gate(0, "c02", 12)
        self.assertFalse(gm.gate(0, "plain", 12))
        gm.gate(0, "plain", 15)
        self.assertEqual(gm.last("turn"), {"player": 0})

    def test_the_sheets_six_cards_and_six_bakugan(self):
        """"游戏人数：不限 … 准备6张基地卡，爆丸6个": 6 cards in all (here
        shared out between the players) and 6 Bakugan each player shoots; any
        number of players, up to the mode's 6."""
        six = (300,) * 6

        def h(n=2, g=six, cards=((0, 1),) * 3, kit=None):
            ps = [player(i, g=g, cards=list(cards), name="P%d" % i) for i in range(n)]
            hd = header("snooker", ps, sheet_kit=True)
            if kit is not None:
                hd["kit"] = kit
            return hd
        referee.new_game(h())
        referee.new_game(h(n=6, cards=((0, 1),)))
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h(n=3))
        self.assertEqual(str(cm.exception), "header.players: mode snooker needs 6 cards in all, got 9 "
                                            "(the sheet: 准备6张基地卡; header.kit.cards changes the count)")
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h(g=(300,) * 3))
        self.assertIn("players[0].bakugan: mode snooker needs 6 bakugan per player, got 3", str(cm.exception))
        referee.new_game(h(n=3, g=(300,) * 3, kit={"cards": 9, "bakugan": 3}))
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h(n=7, cards=((0, 1),), kit={"cards": 0}))
        self.assertIn("1 to 6 players", str(cm.exception))

    def test_the_end_line_says_the_scoring_is_the_projects(self):
        """The sheet says only "最分数高的获胜" (the highest score wins): how a
        shot scores and the tie-break are the project's, and the end says so."""
        gm = started(n=1, shots=1)
        gm.miss("b00")
        end = gm.finish()
        self.assertIn("the project's own", end["note"])
        from referee.events import encode_text
        line = encode_text(gm.out[-1], gm.g)
        self.assertIn("winner: Dan (scoring and tie-break are the project's own", line)

    def test_header_checks(self):
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(hdr(shots=0))
        self.assertIn("header.shots", str(cm.exception))
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(header("snooker", [player(0), player(1)]))
        self.assertIn("at least one card", str(cm.exception))
        referee.new_game(hdr(n=1))
        referee.new_game(hdr(n=6))


class Rounds(unittest.TestCase):
    def test_a_round_is_the_given_number_of_shots_then_the_next_player(self):
        gm = started()
        self.assertTrue(gm.land("b00", 0))
        self.assertEqual(gm.last("shot"), {"player": 0, "bakugan": "b00", "zone": 0, "points": 2,
                                           "total": 2, "left": 2})
        self.assertFalse(gm.land("b10", 3))
        self.assertIn("Dan's turn", gm.reason())
        self.assertTrue(gm.miss("b01"))
        self.assertEqual(gm.last("shot")["points"], 0)
        self.assertEqual(gm.kinds().count("turn"), 1)
        self.assertTrue(gm.land("b01", 5))  # no card: 0
        self.assertEqual(gm.last("miss")["reason"], "no card on zone 5")
        self.assertEqual(gm.last("turn"), {"player": 1})

    def test_a_bakugan_may_be_thrown_again_from_a_card(self):
        gm = started()
        gm.land("b00", 12)
        self.assertTrue(gm.land("b00", 12 - 9))
        self.assertEqual(gm.last("move"), {"bakugan": "b00", "from": 12, "to": 3})
        self.assertEqual(gm.last("shot")["total"], 10)
        self.assertTrue(gm.land("b00", 3))  # again onto the same card: a shot too
        self.assertEqual(gm.last("shot")["total"], 13)
        self.assertNotIn("clash", gm.kinds())
        # the round is over: the cards are cleared
        self.assertEqual(gm.g.stand, {})
        self.assertEqual(gm.g.loc["b00"], UNUSED)

    def test_a_card_without_hsp_scores_one(self):
        gm = started()
        gm.land("b00", 15)
        self.assertEqual(gm.last("shot")["points"], 1)


class Scoring(unittest.TestCase):
    def test_highest_total_after_every_round_wins(self):
        gm = started()
        for z in (12, 0, 5):
            gm.land("b00", z)   # 7 + 2 + 0
        for z in (12, 3, 15):
            gm.land("b10", z)   # 7 + 3 + 1
        sc = gm.last("score")
        self.assertEqual(sc["scores"], [9, 11])
        self.assertEqual(gm.last("win")["player"], 1)

    def test_tie_goes_to_more_hits_then_draw(self):
        gm = started()
        gm.land("b00", 12)  # 7
        gm.miss("b00")
        gm.miss("b00")
        gm.land("b10", 3)   # 3 + 3 + 1 = 7 in three hits
        gm.land("b10", 3)
        gm.land("b10", 15)
        self.assertEqual(gm.last("score")["left"], [1, 3])
        self.assertEqual(gm.last("win")["player"], 1)
        gm = started()
        for _ in range(3):
            gm.miss("b00")
        for _ in range(3):
            gm.miss("b10")
        self.assertEqual(gm.last("stalemate")["reason"], "draw: Dan and Runo tie on score and pieces left")
        self.assertIsNone(gm.finish()["winner"])

    def test_one_player_practice(self):
        gm = Game(hdr(n=1, shots=2))
        for gid, z in (("c00", 0), ("c01", 3), ("c02", 12), ("plain", 15)):
            gm.gate(0, gid, z)
        gm.land("b00", 0)
        gm.land("b01", 3)
        self.assertEqual(gm.last("score")["scores"], [5])
        self.assertEqual(gm.last("win")["player"], 0)


if __name__ == "__main__":
    unittest.main()
