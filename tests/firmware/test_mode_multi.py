"""Mode "multi": the official game for 3 or 4 players (rules sheet 004,
"rules for several players"). Hand-written games; docs/modes/multi.md.
Runs under CPython and the micropython binary."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import referee
from modekit import Game, header, player


def four(first=0, **kw):
    return header("multi", [player(i, **kw) for i in range(4)], first=first)


def three(first=0, gs=None):
    gs = gs or ((450, 340, 360),) * 3
    return header("multi", [player(i, g=gs[i]) for i in range(3)], first=first)


def setup(gm, n):
    zones = (5, 6, 10, 9)
    for i in range(n):
        assert gm.gate(i, "g%d0" % i, zones[i]), gm.reason()


class Players(unittest.TestCase):
    def test_three_and_four_players_only(self):
        for n in (2, 5):
            with self.assertRaises(referee.SetupError) as cm:
                referee.new_game(header("multi", [player(i % 4) for i in range(n)]))
            self.assertIn("3 to 4 players", str(cm.exception))
        self.assertEqual(referee.new_game(four()).n, 4)

    def test_every_player_places_an_opening_gate_before_the_first_throw(self):
        gm = Game(four())
        setup(gm, 3)
        self.assertFalse(gm.land("b00", 5))
        self.assertIn("Shun", gm.reason())  # player 4 still owes the gate
        self.assertFalse(gm.gate(0, "g01", 4))  # one opening gate each
        self.assertTrue(gm.gate(3, "g30", 9))
        self.assertEqual(gm.last("turn")["player"], 0)


class ClockwiseTurns(unittest.TestCase):
    def test_turns_go_up_the_seating_order_and_wrap(self):
        gm = Game(four(first=2))
        setup(gm, 4)
        self.assertFalse(gm.miss("b00"))  # Marucho (2) begins
        for b in ("b20", "b30", "b00", "b10", "b21"):
            self.assertTrue(gm.miss(b), gm.reason())
        self.assertEqual([t["player"] for t in gm.all("turn")], [2, 3, 0, 1, 2, 3])

    def test_only_the_current_player_places_the_turns_gate(self):
        gm = Game(four(first=1))
        setup(gm, 4)
        self.assertFalse(gm.gate(2, "g21", 0))
        self.assertTrue(gm.gate(1, "g11", 0))
        self.assertFalse(gm.gate(1, "g12", 1))


class Battles(unittest.TestCase):
    def battle(self):
        gm = Game(three())
        setup(gm, 3)  # g00 on 5, g10 on 6, g20 on 10
        gm.land("b00", 10)  # Dan stands on Marucho's gate
        gm.land("b10", 10)  # Runo attacks Dan there
        return gm

    def test_a_player_outside_the_battle_plays_no_ability(self):
        gm = self.battle()
        self.assertEqual(gm.last("clash")["defender"], "b00")
        self.assertFalse(gm.ability(2, "c20"))
        self.assertIn("not in this battle", gm.reason())
        self.assertTrue(gm.ability(0, "c00"))
        self.assertTrue(gm.ability(1, "c12"))

    def test_the_winner_captures_a_third_players_gate(self):
        gm = self.battle()
        gm.ability(0, "c00")  # Dan +1: 451
        gm.ability(1, "c10")  # Runo +1: 451, a tie: the first on the gate wins
        gm.resolve()
        self.assertEqual(gm.last("battle")["winner"], "b00")
        cap = gm.last("capture")
        self.assertEqual((cap["player"], cap["gate"], cap["zone"]), (0, "g20", 10))
        self.assertEqual(gm.last("turn")["player"], 2)  # after Runo's throw: Marucho

    def test_priority_goes_to_the_player_whose_turn_comes_next(self):
        gm = self.battle()  # Runo (1) attacks on his turn; Dan (0) defends
        self.assertEqual(gm.g.priority(), [0, 1])  # after Runo: Marucho, then Dan, then Runo
        self.assertEqual(gm.g.view()["priority"], [0, 1])
        gm.resolve()
        self.assertEqual(gm.g.view()["priority"], [])

    def test_priority_with_four_players(self):
        gm = Game(four())
        setup(gm, 4)
        gm.miss("b00")
        gm.land("b10", 10)  # Runo stands on 10
        gm.land("b20", 5)
        gm.land("b30", 10)  # Shun (3) attacks Runo (1): after Shun come Dan, Runo
        self.assertEqual(gm.g.priority(), [1, 3])
        gm.resolve()
        gm.land("b01", 5)  # Dan (0) attacks Marucho (2): after Dan come Runo, Marucho
        self.assertEqual(gm.g.priority(), [2, 0])


class AllStanding(unittest.TestCase):
    def test_move_a_standing_bakugan_to_start_a_battle(self):
        gm = Game(three(gs=((450,), (300,), (300,))))
        setup(gm, 3)
        gm.land("b00", 5)
        gm.land("b10", 6)
        gm.land("b20", 10)
        self.assertFalse(gm.miss("b00"))
        self.assertFalse(gm.choose(0, "take", 5))  # opponents stand on the field
        self.assertTrue(gm.land("b00", 6))  # moved without a throw: battle with Runo
        self.assertEqual(gm.last("move")["from"], 5)
        gm.resolve()
        self.assertEqual(gm.last("capture")["gate"], "g10")
        self.assertEqual(gm.g.view()["zones"][5]["bakugan"], [])

    def test_take_a_gate_when_no_opponent_stands(self):
        gm = Game(three(gs=((450, 400), (300,), (300,))))
        setup(gm, 3)
        gm.land("b00", 5)
        gm.miss("b10")
        gm.miss("b20")
        gm.land("b01", 6)  # all of Dan's Bakugan stand now, on two gates
        gm.miss("b10")
        gm.miss("b20")
        self.assertTrue(gm.choose(0, "take", 6))
        cap = gm.last("capture")
        self.assertEqual((cap["player"], cap["gate"], cap["reason"]), (0, "g10", "unopposed"))
        self.assertEqual(gm.g.standing(0), [])  # every standing Bakugan of Dan left the field
        self.assertEqual(gm.g.view()["zones"][5]["bakugan"], [])


class WinAndRefill(unittest.TestCase):
    def test_first_to_three_wins_then_everything_is_rejected(self):
        gm = Game(three(gs=((900, 900, 900), (100, 100, 100), (100, 100, 100))))
        setup(gm, 3)  # 5, 6, 10
        for j, z in ((0, 5), (1, 6), (2, 10)):
            self.assertTrue(gm.land("b0%d" % j, z), gm.reason())
            self.assertTrue(gm.land("b1%d" % j, z), gm.reason())  # Runo attacks and loses
            if j < 2:
                self.assertTrue(gm.miss("b2%d" % j), gm.reason())
        self.assertTrue(gm.resolve())
        self.assertEqual(gm.last("win")["player"], 0)
        self.assertFalse(gm.miss("b20"))
        end = gm.finish()
        self.assertEqual(end["captured"], [["g00", "g10", "g20"], [], []])
        self.assertEqual(gm.kinds().count("win"), 1)

    def test_empty_field_asks_every_player_with_gates_left(self):
        h = header("multi", [player(0, g=(900,), n_gates=1), player(1, g=(100,)), player(2, g=(100,))])
        gm = Game(h)
        setup(gm, 3)  # g00 on 5, g10 on 6, g20 on 10
        gm.land("b00", 5)
        gm.land("b10", 5)  # Dan wins g00 back
        gm.land("b20", 6)
        gm.land("b00", 6)  # Dan wins g10
        gm.land("b10", 10)
        gm.land("b20", 10)  # Marucho attacks Runo on 10: tie, Runo stood first
        gm.resolve()
        self.assertEqual(gm.last("capture")["player"], 1)
        self.assertEqual(gm.last("gates_needed")["players"], [1, 2])  # Dan has no gate left
        self.assertFalse(gm.gate(0, "g00", 3))
        self.assertTrue(gm.gate(2, "g21", 3))
        self.assertTrue(gm.gate(1, "g11", 7))  # touching g21


if __name__ == "__main__":
    unittest.main()
