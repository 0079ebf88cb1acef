"""The official rules, one test class per numbered rule of issue 2's list.

Hand-written games whose outcome a reader can check. Runs under CPython
(pytest) and under the micropython binary (tests/mp_runner.py).
"""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import gamekit
import referee
from gamekit import canon
from referee.engine import UNUSED, USED


def header(first=0, target=3, abilities0=None, abilities1=None, gates0=None, gates1=None):
    return {
        "bakumat": "events", "version": 1, "mode": "official", "first": first, "target": target,
        "players": [
            {"name": "Dan",
             "bakugan": [{"id": "drago", "attr": "pyrus", "g": 450},
                         {"id": "serpenoid", "attr": "aquos", "g": 340},
                         {"id": "saurus", "attr": "pyrus", "g": 360}],
             "gates": gates0 or [{"id": "d1", "bonus": {"pyrus": 100, "haos": -50}},
                                 {"id": "d2", "bonus": {"aquos": 80}},
                                 {"id": "d3", "bonus": {}}],
             "abilities": abilities0 or [{"id": "fire-wall", "effect": {"opp_g": -50}},
                                         {"id": "boost", "effect": {"g": 100}},
                                         {"id": "null", "effect": {"nullify_gate": True}}]},
            {"name": "Runo",
             "bakugan": [{"id": "tigrerra", "attr": "haos", "g": 440},
                         {"id": "falconeer", "attr": "ventus", "g": 370},
                         {"id": "gargonoid", "attr": "haos", "g": 350}],
             "gates": gates1 or [{"id": "r1", "bonus": {"haos": 100}},
                                 {"id": "r2", "bonus": {"ventus": 90}},
                                 {"id": "r3", "bonus": {"pyrus": 10}}],
             "abilities": abilities1 or [{"id": "shield", "effect": {"opp_g": -80}},
                                         {"id": "swap", "effect": {"attr": "pyrus"}},
                                         {"id": "shade", "effect": {"g": 50}}]},
        ],
    }


class Game(gamekit.Game):
    """A game of the default header, with its set-up as one step."""

    def __init__(self, hdr=None):
        gamekit.Game.__init__(self, hdr or header())

    def setup(self):
        assert self.gate(0, "d1", 1)
        assert self.gate(1, "r1", 2)


class Rule1Pieces(unittest.TestCase):
    def test_duplicate_bakugan_id_across_players_is_refused(self):
        h = header()
        h["players"][1]["bakugan"][0]["id"] = "drago"
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h)
        self.assertIn("drago", str(cm.exception))

    def test_unknown_attribute_is_refused(self):
        h = header()
        h["players"][0]["bakugan"][0]["attr"] = "fire"
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h)
        self.assertIn("players[0].bakugan[0].attr", str(cm.exception))

    def test_missing_bonus_counts_zero(self):
        gm = Game()
        gm.setup()
        gm.land("drago", 2)  # r1: haos +100 only
        gm.land("tigrerra", 2)
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["power"]["drago"], 450)
        self.assertEqual(b["power"]["tigrerra"], 540)


class Rule2Setup(unittest.TestCase):
    def test_no_throw_before_both_opening_gates(self):
        gm = Game()
        self.assertTrue(gm.gate(0, "d1", 1))
        self.assertFalse(gm.land("drago", 1))
        self.assertIn("set-up", gm.last("reject")["reason"])

    def test_one_opening_gate_each(self):
        gm = Game()
        self.assertTrue(gm.gate(0, "d1", 1))
        self.assertFalse(gm.gate(0, "d2", 3))
        self.assertTrue(gm.gate(1, "r1", 2))

    def test_first_player_from_header_and_turns_alternate(self):
        gm = Game(header(first=1))
        gm.setup()
        self.assertFalse(gm.land("drago", 1))
        self.assertTrue(gm.land("tigrerra", 1))
        self.assertTrue(gm.miss("drago"))
        self.assertTrue(gm.miss("falconeer"))
        self.assertEqual([o[2][0][1] for o in gm.out if o[0] == "turn"], [1, 0, 1, 0])


class Rule3Gates(unittest.TestCase):
    def test_one_extra_gate_per_turn_by_current_player(self):
        gm = Game()
        gm.setup()
        self.assertFalse(gm.gate(1, "r2", 3))  # not Runo's turn
        self.assertTrue(gm.gate(0, "d2", 3))
        self.assertFalse(gm.gate(0, "d3", 4))  # second in the same turn
        self.assertTrue(gm.miss("drago"))
        self.assertTrue(gm.gate(1, "r2", 4))

    def test_occupied_zone_refused(self):
        gm = Game()
        gm.setup()
        self.assertFalse(gm.gate(0, "d2", 2))
        self.assertIn("zone 2 already holds", gm.last("reject")["reason"])

    def test_empty_field_asks_every_player_with_gates(self):
        gm = Game(header(gates0=[{"id": "d1"}, {"id": "d2"}], gates1=[{"id": "r1"}]))
        gm.setup()  # d1 on 1, r1 on 2
        gm.land("drago", 1)
        gm.land("tigrerra", 2)
        gm.land("serpenoid", 1)  # own twice, other gate has own? no: tigrerra on 2
        # Dan has drago+serpenoid on 1, another gate (2) exists with no own -> choice
        self.assertEqual(gm.last("choice")["zone"], 1)
        gm.choose(0, "take")
        gm.land("falconeer", 2)  # own twice on 2, no other gate -> capture at once
        self.assertEqual(gm.last("capture")["reason"], "double")
        needed = gm.last("gates_needed")
        self.assertEqual(needed["players"], [0])  # only Dan has a gate left
        self.assertFalse(gm.land("saurus", 5))
        self.assertTrue(gm.gate(0, "d2", 5))
        self.assertTrue(gm.land("saurus", 5))


class Rule3GatePlacement(unittest.TestCase):
    """Sheet 004: "Карту можно положить в любое место на поле, так, чтобы она
    касалась уже лежащих карт либо стороной к стороне, либо углом к углу"
    (a card may go anywhere on the field so that it touches the cards
    already down, side to side or corner to corner): checked on the
    reference mat's 4 x 4 zone grid."""

    def test_a_gate_touches_a_card_already_down(self):
        gm = Game()
        gm.setup()  # d1 on 1, r1 on 2
        before = gm.state()
        self.assertFalse(gm.gate(0, "d2", 8))
        self.assertEqual(gm.reason(), "zone 8 touches no card on the field (a gate goes side to side "
                                      "or corner to corner with one already down)")
        self.assertEqual(gm.state(), before)
        self.assertTrue(gm.gate(0, "d2", 3))    # side to side with r1 on 2

    def test_side_and_corner_touch_a_far_zone_does_not(self):
        from referee.engine import touching
        self.assertTrue(touching(5, 6) and touching(5, 9) and touching(5, 10) and touching(6, 9))
        self.assertFalse(touching(5, 7) or touching(5, 13) or touching(3, 4) or touching(5, 5))
        gm = Game()
        self.assertTrue(gm.gate(0, "d1", 0))     # the first card: anywhere
        self.assertFalse(gm.gate(1, "r1", 15))   # the second opening card must touch it
        self.assertIn("zone 15 touches no card", gm.reason())
        self.assertFalse(gm.gate(1, "r1", 3))    # same row, not beside
        self.assertTrue(gm.gate(1, "r1", 5))     # corner to corner
        self.assertTrue(gm.gate(0, "d2", 6))     # side to side with r1
        gm.miss("drago")
        self.assertFalse(gm.gate(1, "r2", 12))
        self.assertTrue(gm.gate(1, "r2", 11))    # corner to corner with d2

    def test_an_empty_field_takes_a_gate_anywhere(self):
        gm = Game(header(gates0=[{"id": "d1"}, {"id": "d2"}], gates1=[{"id": "r1"}]))
        gm.setup()
        gm.land("drago", 1)
        gm.land("tigrerra", 2)
        gm.land("serpenoid", 1)
        gm.choose(0, "take")
        gm.land("falconeer", 2)  # the field is empty now
        self.assertEqual(gm.last("gates_needed")["players"], [0])
        self.assertTrue(gm.gate(0, "d2", 15))


class Rule4Throws(unittest.TestCase):
    def test_wrong_player_and_used_bakugan_rejected(self):
        gm = Game()
        gm.setup()
        self.assertFalse(gm.land("tigrerra", 1))
        self.assertTrue(gm.miss("drago"))
        self.assertTrue(gm.miss("tigrerra"))
        self.assertFalse(gm.land("drago", 1))
        self.assertIn("used pile", gm.last("reject")["reason"])

    def test_landing_without_gate_is_a_miss(self):
        gm = Game()
        gm.setup()
        self.assertTrue(gm.land("drago", 9))
        self.assertEqual(gm.g.loc["drago"], USED)
        self.assertIn("no gate", gm.last("miss")["reason"])
        self.assertEqual(gm.g.turn, 1)

    def test_used_become_unused_when_none_left(self):
        gm = Game()
        gm.setup()
        for b, o in (("drago", "tigrerra"), ("serpenoid", "falconeer"), ("saurus", "gargonoid")):
            gm.miss(b)
            gm.miss(o)
        self.assertEqual(gm.g.loc["drago"], UNUSED)
        self.assertEqual(gm.last("reuse")["player"], 0)  # Dan's turn comes first
        self.assertEqual(gm.last("reuse")["bakugan"], ["drago", "serpenoid", "saurus"])
        self.assertTrue(gm.land("drago", 1))


class Rule5Landing(unittest.TestCase):
    def test_empty_gate_stands_and_opponent_gate_battles(self):
        gm = Game()
        gm.setup()
        gm.land("drago", 2)
        self.assertEqual(gm.g.loc["drago"], 2)
        self.assertIsNone(gm.g.battle)
        gm.land("tigrerra", 2)
        self.assertEqual(gm.last("clash")["attacker"], "tigrerra")
        self.assertIsNotNone(gm.g.battle)


class Rule6OwnGate(unittest.TestCase):
    def test_capture_at_once_when_no_other_gate(self):
        gm = Game(header(gates1=[{"id": "r1"}]))
        gm.gate(0, "d1", 1)
        gm.gate(1, "r1", 2)
        gm.land("drago", 1)
        gm.miss("tigrerra")
        # fields: d1 on 1 (drago), r1 on 2 -> another gate exists; Dan has no other standing
        gm.land("serpenoid", 1)
        self.assertIsNotNone(gm.g.choice)
        gm.choose(0, "take")
        self.assertEqual(gm.last("capture")["gate"], "d1")
        self.assertEqual(gm.g.loc["drago"], USED)
        self.assertEqual(gm.g.loc["serpenoid"], USED)

    def test_capture_at_once_with_own_bakugan_elsewhere(self):
        gm = Game()
        gm.setup()
        gm.gate(0, "d2", 3)
        gm.land("drago", 1)
        gm.miss("tigrerra")
        gm.land("serpenoid", 3)
        gm.miss("falconeer")
        gm.land("saurus", 1)
        cap = gm.last("capture")
        self.assertEqual((cap["gate"], cap["reason"]), ("d1", "double"))
        self.assertIsNone(gm.g.choice)
        self.assertEqual(gm.g.turn, 1)

    def test_move_to_opponent_gate_battles(self):
        gm = Game()
        gm.setup()
        gm.land("drago", 1)
        gm.land("tigrerra", 2)
        gm.land("serpenoid", 1)
        self.assertTrue(gm.choose(0, "move", 2))
        self.assertEqual(gm.last("clash")["attacker"], "serpenoid")
        self.assertEqual(gm.g.stand[1], ["drago"])

    def test_move_to_empty_gate_stands(self):
        gm = Game()
        gm.setup()
        gm.gate(0, "d2", 3)
        gm.land("drago", 1)
        gm.miss("tigrerra")
        gm.land("serpenoid", 1)
        self.assertTrue(gm.choose(0, "move", 3))
        self.assertEqual(gm.g.loc["serpenoid"], 3)
        self.assertEqual(gm.g.turn, 1)

    def test_no_choice_means_take(self):
        gm = Game()
        gm.setup()
        gm.land("drago", 1)
        gm.miss("tigrerra")
        gm.land("serpenoid", 1)
        self.assertTrue(gm.land("falconeer", 2))  # next event: take first
        kinds = gm.kinds()
        self.assertLess(kinds.index("capture"), len(kinds) - 1)
        self.assertEqual(gm.g.captured[0], ["d1"])
        self.assertEqual(gm.g.loc["falconeer"], 2)


class Rule7AllStanding(unittest.TestCase):
    def _all_standing(self):
        gm = Game(header(gates0=[{"id": "d1"}, {"id": "d2"}, {"id": "d3"}],
                         gates1=[{"id": "r1"}, {"id": "r2"}, {"id": "r3"}]))
        gm.gate(0, "d1", 1)
        gm.gate(1, "r1", 2)
        gm.gate(0, "d2", 3)
        gm.land("drago", 1)
        gm.gate(1, "r2", 4)
        gm.miss("tigrerra")
        gm.gate(0, "d3", 5)
        gm.land("serpenoid", 3)
        gm.miss("falconeer")
        gm.land("saurus", 5)
        gm.miss("gargonoid")
        return gm

    def test_standing_bakugan_moves_instead_of_throw(self):
        gm = self._all_standing()
        self.assertTrue(gm.g.all_standing(0))
        self.assertFalse(gm.miss("drago"))
        self.assertTrue(gm.land("drago", 2))
        self.assertEqual(gm.g.loc["drago"], 2)
        self.assertNotIn(1, gm.g.stand)
        self.assertEqual(gm.last("move")["from"], 1)

    def test_take_without_battle_when_no_opponent(self):
        gm = self._all_standing()
        self.assertTrue(gm.choose(0, "take", 3))
        cap = gm.last("capture")
        self.assertEqual((cap["gate"], cap["reason"]), ("d2", "unopposed"))
        for b in ("drago", "serpenoid", "saurus"):
            self.assertEqual(gm.g.loc[b], USED)

    def test_take_refused_when_opponent_stands(self):
        gm = Game()
        gm.setup()
        gm.land("drago", 1)
        gm.land("tigrerra", 2)
        self.assertFalse(gm.choose(0, "take", 1))


class Rule8Battle(unittest.TestCase):
    def test_power_is_g_plus_gate_bonus(self):
        gm = Game()
        gm.setup()
        gm.land("drago", 1)  # d1 pyrus +100
        gm.land("tigrerra", 1)  # d1 haos -50
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["power"], {"drago": 550, "tigrerra": 390})
        self.assertEqual(b["winner"], "drago")
        self.assertEqual(gm.last("capture")["player"], 0)
        self.assertEqual(gm.g.loc["drago"], USED)
        self.assertEqual(gm.g.loc["tigrerra"], USED)
        self.assertNotIn(1, gm.g.field)

    def test_tie_goes_to_first_on_gate(self):
        h = header(gates0=[{"id": "d1", "bonus": {"haos": 10}}, {"id": "d2"}, {"id": "d3"}])
        gm = Game(h)
        gm.setup()
        gm.land("drago", 1)  # 450
        gm.land("tigrerra", 1)  # 440 + 10
        gm.resolve()
        self.assertEqual(gm.last("battle")["winner"], "drago")

    def test_turn_passes_after_battle(self):
        gm = Game()
        gm.setup()
        gm.land("drago", 1)
        gm.land("tigrerra", 1)
        gm.resolve()
        self.assertEqual(gm.g.turn, 0)


class Rule9Abilities(unittest.TestCase):
    def _battle(self):
        gm = Game()
        gm.setup()
        gm.land("drago", 2)  # r1 haos +100 : drago 450
        gm.land("tigrerra", 2)  # 540
        return gm

    def test_effects(self):
        gm = self._battle()
        self.assertTrue(gm.ability(0, "boost"))  # drago +100 -> 550
        self.assertTrue(gm.ability(0, "fire-wall"))  # tigrerra -50 -> 490
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["power"], {"drago": 550, "tigrerra": 490})
        self.assertEqual(b["parts"]["tigrerra"], [440, 100, -50])

    def test_attr_and_nullify(self):
        gm = self._battle()
        self.assertTrue(gm.ability(1, "swap"))  # tigrerra counts as pyrus: r1 gives 0
        gm.resolve()
        self.assertEqual(gm.last("battle")["power"]["tigrerra"], 440)
        gm2 = self._battle()
        gm2.ability(0, "null")
        gm2.resolve()
        self.assertEqual(gm2.last("battle")["power"], {"drago": 450, "tigrerra": 440})

    def test_once_per_game_and_only_in_battle(self):
        gm = Game()
        gm.setup()
        self.assertFalse(gm.ability(0, "boost"))
        self.assertIn("outside a battle", gm.last("reject")["reason"])
        gm.land("drago", 2)
        gm.land("tigrerra", 2)
        self.assertTrue(gm.ability(0, "boost"))
        self.assertFalse(gm.ability(0, "boost"))
        self.assertIn("already used", gm.last("reject")["reason"])

    def test_pending_battle_resolves_before_other_event_and_at_end(self):
        gm = self._battle()
        self.assertTrue(gm.land("serpenoid", 1))  # resolves first: tigrerra wins, then Dan throws
        kinds = gm.kinds()
        self.assertLess(kinds.index("battle"), kinds.index("stand", kinds.index("battle")))
        gm2 = self._battle()
        end = gm2.finish()
        self.assertEqual(end["captured"], [[], ["r1"]])


class Rule10Win(unittest.TestCase):
    def test_target_from_header_and_events_after_win_rejected(self):
        gm = Game(header(target=1))
        gm.setup()
        gm.land("drago", 1)
        gm.land("tigrerra", 1)
        gm.resolve()
        self.assertEqual(gm.last("win")["player"], 0)
        self.assertFalse(gm.land("drago", 2))
        self.assertIn("over", gm.last("reject")["reason"])
        end = gm.finish()
        self.assertEqual(end["winner"], 0)
        self.assertEqual(gm.kinds().count("win"), 1)

    def test_three_captures_win(self):
        gm = Game()
        gm.setup()
        gm.gate(0, "d2", 3)
        gm.land("drago", 1)
        gm.land("tigrerra", 1)  # 390 vs 550: Dan takes d1
        gm.resolve()
        gm.gate(0, "d3", 4)
        gm.land("serpenoid", 3)  # d2 aquos +80 -> 420
        gm.land("gargonoid", 3)  # 350
        gm.resolve()  # Dan takes d2
        gm.land("saurus", 2)  # r1: 360
        gm.miss("falconeer")
        self.assertTrue(gm.land("drago", 2))  # own twice, Dan has another gate (4) -> choice
        gm.choose(0, "take")
        self.assertEqual(gm.g.winner, 0)
        self.assertEqual(gm.g.captured[0], ["d1", "d2", "r1"])


class Rule11Rejections(unittest.TestCase):
    def _state(self, g):
        return repr(canon(g._save()))

    def test_rejections_leave_state_unchanged(self):
        gm = Game()
        gm.setup()
        gm.land("drago", 2)
        gm.land("tigrerra", 2)  # battle pending
        before = self._state(gm.g)
        bad = [
            {"ev": "land", "bakugan": "nobody", "zone": 1},
            {"ev": "land", "bakugan": "tigrerra", "zone": 1},  # resolves, then not Runo's turn
            {"ev": "gate", "player": 0, "gate": "d1", "zone": 4},
            {"ev": "ability", "player": 0, "card": "nope"},
            {"ev": "choose", "player": 0, "action": "fly"},
            {"ev": "teleport"},
            {"ev": "land", "zone": 1},
            {"ev": "gate", "player": 7, "gate": "d2", "zone": 5},
            {"ev": "land", "bakugan": ["x"], "zone": 1},
        ]
        for e in bad:
            e["t"] = 10000
            n = len(gm.out)
            self.assertFalse(gm.g.feed(e), e)
            self.assertEqual(self._state(gm.g), before, e)
            self.assertEqual([o[0] for o in gm.out[n:]], ["reject"], e)

    def test_game_goes_on_after_rejection(self):
        gm = Game()
        gm.setup()
        self.assertFalse(gm.land("tigrerra", 1))
        self.assertTrue(gm.land("drago", 1))


class RevealGateValues(unittest.TestCase):
    def test_values_entered_when_the_gate_is_turned_over_count(self):
        gm = Game()
        gm.setup()
        gm.land("drago", 2)
        gm.land("tigrerra", 2)  # r1: haos +100 in the header
        self.assertFalse(gm.ev("reveal", player=0, gate="r1", bonus={"pyrus": 50}))  # not Dan's card
        self.assertTrue(gm.ev("reveal", player=1, gate="r1", bonus={"pyrus": 200, "haos": 10}))
        self.assertIsNotNone(gm.g.battle)  # revealing does not decide the battle
        gm.resolve()
        self.assertEqual(gm.last("battle")["power"], {"drago": 650, "tigrerra": 450})

    def test_reveal_needs_the_gate_on_the_field_and_is_undone_by_snapshots(self):
        gm = Game()
        gm.setup()
        self.assertFalse(gm.ev("reveal", player=0, gate="d2", bonus={"pyrus": 1}))
        self.assertIn("not on the field", gm.last("reject")["reason"])
        self.assertFalse(gm.ev("reveal", player=0, gate="d1", bonus={"fire": 1}))
        gm.land("drago", 1)
        gm.land("tigrerra", 1)
        snap = gm.g._save()
        gm.ev("reveal", player=0, gate="d1", bonus={"haos": 500})
        gm.g._load(snap)
        self.assertEqual(gm.g.gate_bonus["d1"], {"pyrus": 100, "haos": -50})


class Expects(unittest.TestCase):
    def test_expects_current_player_unused(self):
        gm = Game()
        gm.setup()
        self.assertEqual(gm.g.expects(), (0, ["drago", "serpenoid", "saurus"]))
        gm.land("drago", 1)
        self.assertEqual(gm.g.expects(), (1, ["tigrerra", "falconeer", "gargonoid"]))

    def test_expects_looks_past_a_pending_battle_without_changing_it(self):
        gm = Game()
        gm.setup()
        gm.land("drago", 1)
        gm.land("tigrerra", 1)
        n = len(gm.out)
        self.assertEqual(gm.g.expects(), (0, ["serpenoid", "saurus"]))
        self.assertIsNotNone(gm.g.battle)
        self.assertEqual(len(gm.out), n)


if __name__ == "__main__":
    unittest.main()
