"""抢滩登陆战2 Beach Landing 2 (mode "beach2"): the item rules it adds to
beach, hand-written (docs/modes/beach2.md). Runs under CPython and MicroPython."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import referee
from referee.engine import OUT
from cnkit import Game, header, player

CARDS = [(0, 10), (0, 20), (0, 30), (0, 40)]


def items(i, attrs=("pyrus", "pyrus", None), cmds=("quake", "gale", "quake")):
    res = []
    for j in range(3):
        it = {"id": "i%d%d" % (i, j), "effect": {"g": 100 * (j + 1)}, "command": cmds[j], "hsp": 5 * (j + 1)}
        if attrs[j]:
            it["attr"] = attrs[j]
        res.append(it)
    return res


def started():
    h = header("beach2", [player(0, g=(300,) * 6, cards=CARDS, abilities=items(0)),
                          player(1, g=(310,) * 6, attrs=("pyrus",) * 5 + ("haos",), cards=CARDS,
                                 abilities=items(1))])
    gm = Game(h)
    for j in range(3):
        gm.gate(0, "c0%d" % j, 4 + j)
        gm.gate(1, "c1%d" % j, 8 + j)
    return gm


class SetItems(unittest.TestCase):
    def test_first_item_is_set_and_item_swaps_it(self):
        gm = started()
        self.assertEqual(gm.g.set_item, ["i00", "i10"])
        self.assertEqual(gm.g.view()["items"], ["i00", "i10"])
        self.assertTrue(gm.item(0, "i01"))
        self.assertEqual(gm.g.set_item[0], "i01")
        self.assertFalse(gm.item(0, "i01"))
        self.assertFalse(gm.item(0, "i10"))
        self.assertIn("no item card", gm.reason())

    def test_only_the_set_item_may_be_played(self):
        gm = started()
        gm.land("b00", 4)
        gm.land("b10", 4)
        gm.pass_(1)
        self.assertFalse(gm.ability(0, "i01"))
        self.assertIn("only the item set", gm.reason())


class AttackerFirst(unittest.TestCase):
    def test_defender_waits_for_the_attacker(self):
        gm = started()
        gm.land("b00", 4)    # defender Dan
        gm.land("b10", 4)    # attacker Runo
        self.assertFalse(gm.ability(0, "i00"))
        self.assertIn("attacker Runo chooses first", gm.reason())
        self.assertTrue(gm.pass_(1))
        self.assertFalse(gm.pass_(1))
        self.assertFalse(gm.ability(1, "i10"))
        self.assertIn("already decided", gm.reason())
        self.assertTrue(gm.ability(0, "i00"))
        gm.resolve()
        self.assertEqual(gm.last("battle")["power"], {"b10": 310, "b00": 400})

    def test_items_need_a_matching_attribute_not_a_lag(self):
        gm = started()
        gm.land("b00", 4)
        gm.land("b15", 4)    # Runo's haos Bakugan attacks
        self.assertFalse(gm.ability(1, "i10"))
        self.assertIn("only for a pyrus Bakugan", gm.reason())
        self.assertTrue(gm.pass_(1))
        self.assertTrue(gm.ability(0, "i00"))  # Dan leads already: allowed


class ItemsChangeHands(unittest.TestCase):
    def test_winner_takes_the_losers_set_item_and_loses_its_own(self):
        gm = started()
        gm.land("b00", 4)
        gm.land("b10", 4)
        gm.ability(1, "i10")  # Runo 410
        gm.resolve()
        self.assertEqual(gm.last("battle")["winner"], "b10")
        self.assertEqual(gm.g.prizes[1], [[0, "i00"]])
        self.assertIn([1, "i10"], gm.g.void_i)
        self.assertEqual(gm.g.set_item, ["i01", "i11"])
        # score: seized b00 300 + card c00 10 + item i00 5
        self.assertEqual(gm.g.score(1), 315)
        self.assertFalse(gm.item(0, "i00"))
        self.assertIn("out of Dan's hand", gm.reason())

    def test_never_the_same_command_twice(self):
        gm = started()
        gm.land("b00", 4)
        gm.land("b10", 4)
        gm.ability(1, "i10")   # command quake
        gm.resolve()           # Runo wins; sets i11 (gale)
        gm.gate(0, "c03", 4)
        self.assertTrue(gm.item(1, "i12"))   # also quake
        gm.land("b01", 5)
        gm.land("b11", 5)
        self.assertFalse(gm.ability(1, "i12"))
        self.assertIn("already used the command quake", gm.reason())


class SheetRules(unittest.TestCase):
    def test_items_are_swapped_only_at_the_end_of_a_round(self):
        """"每回合结束，玩家可以根据自己的战术选择道具卡替换布置在阵地中的道具卡":
        once per player when a round is over, never while its battle or
        refill is pending."""
        gm = started()
        self.assertTrue(gm.item(0, "i01"))     # set-up over: a round's end
        self.assertFalse(gm.item(0, "i02"))
        self.assertIn("already swapped", gm.reason())
        self.assertTrue(gm.item(1, "i11"))
        gm.land("b00", 4)                      # Dan's round
        self.assertTrue(gm.item(0, "i02"))     # its end: again
        gm.land("b10", 4)                      # Runo attacks: battle pending
        before = gm.state()
        self.assertFalse(gm.item(1, "i12"))    # settling the battle leaves a refill owed
        self.assertIn("end of a round", gm.reason())
        self.assertEqual(gm.state(), before)   # the battle is still pending
        gm.pass_(1)
        gm.pass_(0)
        gm.resolve()                           # Runo 310 beats Dan 300
        self.assertEqual(gm.g.refills, [[0, 4]])
        self.assertEqual(gm.g.set_item[0], "i00")  # set anew after the battle
        self.assertFalse(gm.item(0, "i01"))
        self.assertIn("refill zone 4 first", gm.reason())
        self.assertTrue(gm.gate(0, "c03", 4))
        self.assertTrue(gm.item(0, "i01"))     # the round is over

    def test_a_seized_bakugan_is_never_thrown(self):
        """"夺取的爆丸不能用来射击": neither by its owner nor by the taker."""
        gm = started()
        gm.land("b00", 4)
        gm.land("b10", 4)
        gm.pass_(1)
        gm.pass_(0)
        gm.resolve()
        self.assertEqual(gm.g.seized[1], ["b00"])
        gm.gate(0, "c03", 4)
        self.assertEqual(gm.last("turn"), {"player": 0})
        self.assertNotIn("b00", gm.g.expects()[1])
        before = gm.state()
        self.assertFalse(gm.land("b00", 5))
        self.assertIn("out of the game", gm.reason())
        self.assertFalse(gm.miss("b00"))
        self.assertEqual(gm.state(), before)
        gm.miss("b01")
        self.assertFalse(gm.land("b00", 5))    # Runo's turn: not his to throw either
        self.assertEqual(gm.g.loc["b00"], OUT)

    def test_the_sheets_set_twelve_bakugan_and_six_cards(self):
        """"每位玩家3张基地卡、6张基础卡、3张道具卡、12个爆丸": the default kit."""
        six = [(0, 0)] * 6

        def h(nb):
            return header("beach2", [player(0, g=(300,) * nb, cards=six, abilities=items(0)),
                                     player(1, g=(300,) * 12, cards=six, abilities=items(1))], sheet_kit=True)
        referee.new_game(h(12))
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h(6))
        self.assertIn("players[0].bakugan: mode beach2 needs 12 bakugan per player, got 6", str(cm.exception))
        self.assertIn("12个爆丸", str(cm.exception))
        hk = h(6)
        hk["players"][1]["bakugan"] = hk["players"][1]["bakugan"][:6]
        hk["kit"] = {"bakugan": 6}             # the players' own sets
        referee.new_game(hk)


if __name__ == "__main__":
    unittest.main()
