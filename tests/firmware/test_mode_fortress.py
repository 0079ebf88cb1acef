"""终极堡垒 Ultimate Fortress (mode "fortress"): hand-written games, one
class per rule of docs/modes/fortress.md. Runs under CPython and MicroPython."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import referee
from referee.engine import UNUSED
from cnkit import Game, header, player

# Dan: fortress 12, attack 15, defence 9 and 10. Runo: fortress 3, attack 0,
# defence 6 and 5.
DAN = [(0, 0), (100, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)]
RUNO = [(0, 0), (50, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)]


def hdr(cards0=DAN, cards1=RUNO, effect=None):
    h = header("fortress", [player(0, g=(300, 250, 200), cards=cards0), player(1, g=(300, 250, 200), cards=cards1)])
    if effect:
        h["players"][1]["gates"][1]["effect"] = effect
    return h


def started(**kw):
    gm = Game(hdr(**kw))
    for j, z in enumerate((12, 15, 9, 10)):
        assert gm.gate(0, "c0%d" % j, z)
    for j, z in enumerate((3, 0, 6, 5)):
        assert gm.gate(1, "c1%d" % j, z)
    return gm


class Setup(unittest.TestCase):
    def test_four_cards_on_ones_own_roles(self):
        gm = Game(hdr())
        self.assertFalse(gm.gate(0, "c00", 3))
        self.assertIn("zone 12 or 15 or 9 or 10", gm.reason())
        for j, z in enumerate((12, 15, 9, 10)):
            self.assertTrue(gm.gate(0, "c0%d" % j, z))
        self.assertFalse(gm.gate(0, "c04", 5))
        for j, z in enumerate((3, 0, 6, 5)):
            gm.gate(1, "c1%d" % j, z)
        self.assertEqual(gm.last("turn"), {"player": 0})
        roles = gm.g.view()["roles"]
        self.assertEqual(roles[12], [0, "fortress"])
        self.assertEqual(roles[0], [1, "attack"])
        self.assertEqual(roles[5], [1, "defence"])
        self.assertEqual(gm.g.view()["zones"][15]["role"], "attack")

    def test_the_sheets_set_seven_cards_and_three_attributes(self):
        """"每位玩家准备7张对战卡（包括所有爆丸卡）、4张基地卡、3个不同属性的
        爆丸": 7 cards and 3 Bakugan of different attributes per player by
        default; the header's kit changes a count for other sets."""
        attrs = ("pyrus", "aquos", "haos")

        def h(cards0=DAN, attrs0=attrs, kit=None):
            hd = header("fortress", [player(0, g=(300, 250, 200), attrs=attrs0, cards=cards0),
                                     player(1, g=(300, 250, 200), attrs=attrs, cards=RUNO)], sheet_kit=True)
            if kit is not None:
                hd["kit"] = kit
            return hd
        referee.new_game(h())
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h(cards0=DAN[:4]))
        self.assertEqual(str(cm.exception), "players[0].gates: mode fortress needs 7 cards per player, got 4 "
                                            "(the sheet: 7张对战卡; header.kit.cards changes the count)")
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h(attrs0=("pyrus", "pyrus", "haos")))
        self.assertIn("players[0].bakugan: mode fortress needs 3 different attributes per player, got 2",
                      str(cm.exception))
        self.assertIn("3个不同属性的爆丸", str(cm.exception))
        referee.new_game(h(attrs0=("pyrus",) * 3, kit={"attributes": 1}))
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h(kit={"cards": 6}))
        self.assertIn("players[0].gates: mode fortress needs 6 cards per player, got 7 (header.kit.cards)",
                      str(cm.exception))
        for bad, field in (({"card": 7}, "header.kit.card"), ({"cards": -1}, "header.kit.cards"), ([], "header.kit")):
            with self.assertRaises(referee.SetupError) as cm:
                referee.new_game(h(kit=bad))
            self.assertTrue(str(cm.exception).startswith(field + ":"), str(cm.exception))

    def test_header_checks(self):
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(hdr(cards0=DAN[:3]))
        self.assertIn("players[0].gates", str(cm.exception))
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(hdr(effect={"jump": 1}))
        self.assertIn("players[1].gates[1].effect", str(cm.exception))


class Paths(unittest.TestCase):
    def test_enter_on_the_own_fortress_first(self):
        gm = started()
        self.assertTrue(gm.land("b00", 9))
        self.assertEqual(gm.last("miss")["reason"], "a Bakugan enters on its own fortress (zone 12)")
        self.assertEqual(gm.g.loc["b00"], UNUSED)
        self.assertEqual(gm.last("turn"), {"player": 1})

    def test_fortress_defence_opponent_defence_opponent_fortress_wins(self):
        gm = started()
        gm.land("b00", 12)
        gm.land("b10", 3)
        self.assertTrue(gm.land("b00", 6))    # opponent's defence from the fortress: no
        self.assertIn("cannot be reached from zone 12 (fortress)", gm.last("miss")["reason"])
        self.assertEqual(gm.g.loc["b00"], 12)  # back where it was thrown from
        self.assertEqual(gm.g.view()["put_back"], [["b00", 12]])
        self.assertIn("b00", gm.g.expects()[1])  # offered to identification
        n = len(gm.out)
        self.assertTrue(gm.land("b00", 12))   # put back by hand: a silent confirmation
        self.assertEqual(len(gm.out), n)
        self.assertEqual(gm.g.put_back, [])
        self.assertEqual(gm.last("turn"), {"player": 1})
        before = gm.state()
        self.assertFalse(gm.land("b00", 12))  # again: not a throw either
        self.assertEqual(gm.reason(), "b00 already stands on zone 12")
        self.assertEqual(gm.state(), before)
        gm.land("b10", 6)
        gm.land("b00", 9)
        self.assertTrue(gm.land("b10", 12))   # the opponent's fortress from one's defence: no
        self.assertEqual(gm.g.loc["b10"], 6)
        self.assertTrue(gm.land("b00", 5))    # own defence -> opponent's defence
        self.assertEqual(gm.last("move"), {"bakugan": "b00", "from": 9, "to": 5})
        gm.miss("b11")
        self.assertTrue(gm.land("b00", 3))    # opponent's defence -> fortress: taken
        self.assertEqual(gm.last("win"), {"player": 0, "reason": "takes the fortress"})

    def test_attack_cards_lead_only_into_the_opponents_half(self):
        gm = started()
        gm.land("b00", 12)
        gm.land("b10", 3)
        self.assertTrue(gm.land("b00", 0))    # the opponent's attack card from the fortress
        self.assertEqual(gm.g.loc["b00"], 0)
        gm.miss("b11")
        self.assertTrue(gm.land("b00", 9))    # back to an own card: no
        self.assertEqual(gm.g.loc["b00"], 0)
        self.assertIn("cannot be reached", gm.last("miss")["reason"])
        gm.miss("b11")
        self.assertTrue(gm.land("b00", 3))    # the fortress from an attack card
        self.assertEqual(gm.g.battle[1:3], ["b00", "b10"])  # Runo's b10 guards his fortress
        gm.resolve()
        self.assertEqual(gm.last("win")["player"], 0)

    def test_at_most_two_own_bakugan_per_card(self):
        gm = started()
        gm.land("b00", 12)
        gm.miss("b10")
        gm.land("b01", 12)
        gm.miss("b10")
        self.assertTrue(gm.land("b02", 12))
        self.assertEqual(gm.last("miss")["reason"], "two of Dan's Bakugan already stand on zone 12")
        self.assertEqual(gm.g.loc["b02"], UNUSED)
        self.assertEqual(gm.g.expects(), (1, ["b10", "b11", "b12"]))


class Battles(unittest.TestCase):
    def test_tie_to_the_attacker_loser_back_card_consumed_and_refilled(self):
        gm = started()
        gm.land("b00", 12)
        gm.land("b10", 3)
        gm.land("b00", 9)
        gm.land("b10", 6)
        gm.miss("b01")
        self.assertTrue(gm.land("b10", 9))    # 300 vs 300 on c02
        gm.resolve()
        self.assertEqual(gm.last("battle")["winner"], "b10")
        self.assertEqual(gm.g.loc["b00"], UNUSED)   # back to the launch point
        self.assertEqual(gm.g.loc["b10"], 9)        # the winner stays
        self.assertEqual(gm.last("void"), {"what": "card", "id": "c02", "reason": "consumed by the battle"})
        self.assertEqual(gm.last("refill"), {"player": 0, "zone": 9})
        self.assertFalse(gm.land("b00", 12))
        self.assertFalse(gm.gate(0, "c04", 10))
        self.assertTrue(gm.gate(0, "c04", 9))
        self.assertEqual(gm.last("turn"), {"player": 0})
        self.assertEqual(gm.g.field[9], "c04")

    def test_attack_cards_are_never_consumed(self):
        gm = started()
        gm.land("b00", 12)
        gm.land("b10", 3)
        gm.land("b00", 15)
        gm.land("b10", 15)    # Runo from his fortress to Dan's attack card: 300+100 each
        gm.resolve()
        self.assertEqual(gm.last("battle")["winner"], "b10")
        self.assertEqual(gm.g.field[15], "c01")
        self.assertEqual(gm.g.refills, [])

    def test_attacking_from_an_attack_card_adds_its_value_and_command(self):
        gm = started(effect={"g": 20})
        gm.land("b00", 12)
        gm.land("b10", 3)
        gm.land("b00", 15)
        gm.land("b10", 0)     # own attack card (c11: pyrus +50, command +20)
        gm.miss("b01")
        gm.land("b10", 15)    # from the attack card onto Dan's attack card (c01 +100)
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["parts"]["b10"], [300, 150, 20])
        self.assertEqual(b["parts"]["b00"], [300, 100, 0])

    def test_two_defenders_pick_the_fighter_the_other_steps_back(self):
        gm = started()
        gm.land("b00", 12)
        gm.land("b10", 3)
        gm.land("b00", 9)
        gm.land("b11", 3)
        gm.land("b01", 12)
        gm.land("b10", 6)
        gm.land("b01", 9)     # b00 and b01 on 9; b01 came from 12
        gm.land("b10", 9)
        self.assertEqual(gm.last("pick"), {"player": 0, "zone": 9, "options": ["b00", "b01"], "for": "fight"})
        self.assertFalse(gm.pick(1, "b10"))
        self.assertTrue(gm.pick(0, "b01"))    # 250 fights
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["defender"], "b01")
        self.assertEqual(b["winner"], "b10")
        self.assertEqual(gm.g.loc["b00"], 12)      # stepped back to where it came from
        self.assertEqual(gm.g.loc["b01"], UNUSED)  # lost: back to the launch point
        gm2 = started()
        for e in (("b00", 12), ("b10", 3), ("b00", 9), ("b11", 3), ("b01", 12), ("b10", 6), ("b01", 9), ("b10", 9)):
            gm2.land(*e)
        gm2.resolve()                          # default: b00, first there, fights (tie: attacker)
        self.assertEqual(gm2.last("battle")["defender"], "b00")
        self.assertEqual(gm2.g.loc["b01"], 12)     # stepped back to the card it came from
        self.assertEqual(gm2.last("move"), {"bakugan": "b01", "from": 9, "to": 12})


class Winning(unittest.TestCase):
    def test_winning_the_battle_on_the_fortress(self):
        gm = started()
        gm.land("b00", 12)
        gm.land("b12", 3)     # Runo 200 guards
        gm.land("b00", 0)
        gm.miss("b11")
        gm.land("b00", 3)
        gm.resolve()
        self.assertEqual(gm.last("win"), {"player": 0, "reason": "takes the fortress"})
        self.assertEqual(gm.finish()["winner"], 0)

    def test_defending_the_fortress_consumes_it(self):
        gm = started()
        gm.land("b02", 12)    # Dan 200 guards
        gm.land("b10", 3)
        gm.miss("b01")
        gm.land("b10", 0)
        gm.miss("b01")
        gm.land("b10", 12)    # 300 + 0 + 50 (from the attack card) beats 200: Runo takes it
        gm.resolve()
        self.assertEqual(gm.last("win")["player"], 1)
        gm = started()
        gm.land("b00", 12)    # Dan 300 guards
        gm.land("b12", 3)
        gm.miss("b01")
        gm.land("b12", 0)
        gm.miss("b01")
        gm.land("b12", 12)    # 200 + 50 loses: Runo refills Dan's fortress
        gm.resolve()
        self.assertEqual(gm.last("refill"), {"player": 1, "zone": 12})
        self.assertTrue(gm.gate(1, "c14", 12))

    def test_no_card_left_to_refill_loses(self):
        gm = started(cards0=DAN[:4])
        gm.land("b01", 12)
        gm.land("b10", 3)
        gm.land("b01", 9)
        gm.land("b10", 6)
        gm.miss("b00")
        gm.land("b10", 9)     # 300 beats 250 on Dan's defence: Dan has no card left
        gm.resolve()
        self.assertEqual(gm.last("win"), {"player": 1, "reason": "Dan has no card left to refill zone 9"})


if __name__ == "__main__":
    unittest.main()
