"""Mode "big": the Big Game (rules sheet 004, "БОЛЬШАЯ ИГРА"): 6 Bakugan,
6 gate cards, 6 ability cards per player, all different; 2 opening gates
each; 6 captured gates win; with 3-4 players the several-players rules.
Hand-written games; docs/modes/big.md. Runs under CPython and micropython."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import referee
from modekit import Game, header, player

SIX = (450, 340, 360, 400, 380, 420)


def big(n=2, g=None, first=0, target=None):
    return header("big", [player(i, g=(g[i] if g else SIX), n_gates=6, n_cards=6) for i in range(n)],
                  first=first, target=target)


def refused(test, hdr, *words):
    with test.assertRaises(referee.SetupError) as cm:
        referee.new_game(hdr)
    for w in words:
        test.assertIn(w, str(cm.exception))


class Decks(unittest.TestCase):
    def test_six_of_everything(self):
        h = big()
        h["players"][1]["bakugan"].pop()
        refused(self, h, "players[1].bakugan", "needs 6", "got 5")
        h = big()
        h["players"][0]["gates"].pop()
        refused(self, h, "players[0].gates", "got 5")
        h = big()
        h["players"][0]["abilities"].append({"id": "extra", "effect": {"g": 9}})
        refused(self, h, "players[0].abilities", "got 7")

    def test_all_cards_different(self):
        h = big()
        h["players"][0]["gates"][4]["bonus"] = {"haos": 20}  # like g01
        refused(self, h, "players[0].gates[4]", "g01", "all different")
        h = big()
        h["players"][1]["abilities"][5]["effect"] = {"g": 1}  # like c10
        refused(self, h, "players[1].abilities[5]", "c10")
        # the same card in two players' hands is fine
        h = big()
        self.assertEqual(referee.new_game(h).target, 6)

    def test_two_to_four_players(self):
        self.assertEqual(referee.new_game(big(4)).n, 4)
        refused(self, header("big", [player(0, g=SIX, n_gates=6, n_cards=6)]), "2 to 4 players")


class Opening(unittest.TestCase):
    def test_two_opening_gates_each_before_the_first_throw(self):
        gm = Game(big())
        self.assertTrue(gm.gate(1, "g10", 2))
        self.assertTrue(gm.gate(1, "g11", 3))
        self.assertFalse(gm.gate(1, "g12", 7))  # a third one is not an opening gate
        self.assertIn("already placed", gm.reason())
        self.assertTrue(gm.gate(0, "g00", 1))
        self.assertFalse(gm.land("b00", 1))
        self.assertIn("set-up", gm.reason())
        self.assertTrue(gm.gate(0, "g01", 0))
        self.assertEqual(gm.last("turn")["player"], 0)
        self.assertTrue(gm.land("b00", 0))


class Target(unittest.TestCase):
    def play_to_six(self, gm):
        caps = []
        for j, z in ((0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)):
            if z == 4:
                self.assertEqual(gm.last("gates_needed")["players"], [0, 1])
                self.assertTrue(gm.gate(0, "g02", 4))
                self.assertFalse(gm.gate(0, "g03", 6))  # one refill gate each
                self.assertTrue(gm.gate(1, "g12", 5))
            self.assertTrue(gm.land("b0%d" % j, z), gm.reason())
            self.assertTrue(gm.land("b1%d" % j, z), gm.reason())
            self.assertTrue(gm.resolve())
            caps.append(len(gm.all("capture")))
            if j == 2:
                self.assertIsNone(gm.last("win"))  # 3 gates do not win the Big Game
        return caps

    def test_six_captured_gates_win(self):
        gm = Game(big(g=((900,) * 6, (100,) * 6)))
        for p, g, z in ((0, "g00", 0), (0, "g01", 1), (1, "g10", 2), (1, "g11", 3)):
            gm.gate(p, g, z)
        self.assertEqual(self.play_to_six(gm), [1, 2, 3, 4, 5, 6])
        self.assertEqual(gm.last("win")["player"], 0)
        self.assertEqual(len(gm.finish()["captured"][0]), 6)

    def test_a_header_target_is_honoured(self):
        gm = Game(big(g=((900,) * 6, (100,) * 6), target=2))
        for p, g, z in ((0, "g00", 0), (0, "g01", 1), (1, "g10", 2), (1, "g11", 3)):
            gm.gate(p, g, z)
        gm.land("b00", 0)
        gm.land("b10", 0)
        gm.land("b01", 1)  # resolves the battle first: 1 gate
        gm.land("b11", 1)
        gm.resolve()
        self.assertEqual(gm.last("win")["player"], 0)


class SeveralPlayers(unittest.TestCase):
    def test_big_game_for_three_with_clockwise_turns_and_priority(self):
        gm = Game(big(3, first=2))
        for p in range(3):
            self.assertTrue(gm.gate(p, "g%d0" % p, 4 + 2 * p))
            self.assertTrue(gm.gate(p, "g%d1" % p, 5 + 2 * p))
        self.assertEqual(gm.last("turn")["player"], 2)
        gm.land("b20", 4)
        gm.land("b00", 4)  # Dan (0) attacks Marucho (2): after Dan comes Runo, then Marucho
        self.assertEqual(gm.g.priority(), [2, 0])
        self.assertFalse(gm.ability(1, "c10"))
        gm.resolve()
        self.assertEqual([t["player"] for t in gm.all("turn")], [2, 0, 1])

    def test_two_player_priority_is_the_official_one(self):
        gm = Game(big())
        for p, g, z in ((0, "g00", 0), (0, "g01", 1), (1, "g10", 2), (1, "g11", 3)):
            gm.gate(p, g, z)
        gm.land("b00", 2)
        gm.land("b10", 2)  # Runo attacks on his turn: he plays first
        self.assertEqual(gm.g.priority(), [1, 0])


if __name__ == "__main__":
    unittest.main()
