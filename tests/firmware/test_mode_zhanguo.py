"""战国争霸 (mode "zhanguo"): the rules it adds to zhulu, hand-written
(docs/modes/zhanguo.md). Runs under CPython and MicroPython."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import referee
from cnkit import Game, header, player


def hdr(item_attr="pyrus"):
    ps = []
    for i in range(2):
        it = {"id": "i%d" % i, "effect": {"opp_g": -100}, "command": "quake"}
        if item_attr:
            it["attr"] = item_attr
        ps.append(player(i, g=(300 + 20 * i, 250, 200), attrs=("pyrus", "haos", "haos"), cards=[(0, 1), (0, 1), (0, 1)],
                         abilities=[it]))
    return header("zhanguo", ps)


def started(item_attr="pyrus"):
    gm = Game(hdr(item_attr))
    gm.gate(0, "c00", 5)
    gm.gate(1, "c10", 6)
    return gm


class ItemCard(unittest.TestCase):
    def test_item_works_only_for_its_attribute(self):
        gm = started()
        gm.land("b01", 5)   # haos 250
        gm.land("b10", 5)   # pyrus 320
        self.assertFalse(gm.ability(0, "i0"))
        self.assertIn("only for a pyrus Bakugan; b01 is haos", gm.reason())
        gm.resolve()
        gm.gate(0, "c01", 5)
        gm.land("b00", 6)   # pyrus 300 defends
        gm.land("b11", 6)   # haos 250 attacks; Runo behind, haos != pyrus
        self.assertFalse(gm.ability(1, "i1"))
        self.assertFalse(gm.ability(0, "i0"))
        self.assertIn("only when behind", gm.reason())

    def test_matching_item_when_behind_and_only_once(self):
        gm = started()
        gm.land("b00", 5)   # pyrus 300
        gm.land("b10", 5)   # pyrus 320
        self.assertTrue(gm.ability(0, "i0"))   # Runo -100 -> 220
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["parts"]["b10"], [320, 0, -100])
        self.assertEqual(b["winner"], "b00")
        self.assertEqual(gm.g.used_abil[0], ["i0"])

    def test_item_without_attribute_works_for_any(self):
        gm = started(item_attr=None)
        gm.land("b01", 5)   # haos 250
        gm.land("b10", 5)
        self.assertTrue(gm.ability(0, "i0"))

    def test_bad_item_fields_are_refused(self):
        h = hdr()
        h["players"][1]["abilities"][0]["attr"] = "fire"
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h)
        self.assertIn("players[1].abilities[0].attr", str(cm.exception))
        h = hdr()
        h["players"][0]["abilities"][0]["command"] = ""
        with self.assertRaises(referee.SetupError) as cm:
            referee.new_game(h)
        self.assertIn("players[0].abilities[0].command", str(cm.exception))

    def test_cards_as_in_shenghui(self):
        gm = started()
        gm.land("b00", 5)
        gm.land("b11", 5)
        gm.resolve()
        self.assertIn("c00", gm.g.void_c)


class Leaving(unittest.TestCase):
    def test_a_player_leaves_only_when_all_bakugan_are_lost(self):
        """"玩家输完爆丸或卡片则要退场": Dan's only Bakugan standing on a card is
        not lost; when it is seized, he leaves."""
        h = header("zhanguo", [player(0, g=(300,), cards=[(0, 1), (0, 1)]),
                               player(1, g=(400, 200), cards=[(0, 1), (0, 1)]),
                               player(2, g=(100, 100), cards=[(0, 1), (0, 1)])])
        gm = Game(h)
        gm.gate(0, "c00", 5)
        gm.gate(1, "c10", 6)
        gm.gate(2, "c20", 9)
        gm.land("b00", 5)
        self.assertIsNone(gm.last("leave"))
        gm.land("b10", 5)     # 400 v 300
        gm.resolve()
        gm.gate(0, "c01", 5)  # Dan refills, then leaves
        self.assertEqual(gm.last("leave"), {"player": 0, "reason": "lost all their Bakugan"})


if __name__ == "__main__":
    unittest.main()
