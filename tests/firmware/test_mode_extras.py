"""The official sheet's extra rules (season 2/3 "New Vestroia" part), as
header options of modes official, big and multi: Bakugan traps, battle
gear, game level and level-limited ability cards, evolution, pure-attribute
Bakugan. Hand-written games; docs/modes/official-extras.md. Runs under
CPython and the micropython binary."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import referee
from modekit import Game
from referee.engine import OUT, UNUSED, USED
from referee.modes import official
from store import eventlog


def header(mode="official", season=None, **over):
    h = {
        "bakumat": "events", "version": 1, "mode": mode, "first": 0,
        "players": [
            {"name": "Dan",
             "bakugan": [{"id": "drago", "attr": "pyrus", "g": 450},
                         {"id": "serpenoid", "attr": "aquos", "g": 340},
                         {"id": "clear", "attr": "darkus", "g": 300, "pure": True}],
             "gates": [{"id": "d1", "bonus": {"pyrus": 100, "haos": -50}, "colour": "gold"},
                       {"id": "d2", "bonus": {"aquos": 80}, "colour": "silver"},
                       {"id": "d3", "bonus": {"darkus": 40}, "colour": "copper", "level": 3}],
             "abilities": [{"id": "fire-wall", "effect": {"opp_g": -50}},
                           {"id": "boost", "effect": {"g": 100}, "level": 3},
                           {"id": "to-aquos", "effect": {"attr": "aquos"}}],
             "traps": [{"id": "fire-trap", "attr": "pyrus", "effect": {"g": 70}}],
             "gear": [{"id": "battle-axe", "g": 60, "attr": "pyrus", "colour": "silver",
                       "extra": {"opp_g": -100}}],
             "evolutions": [{"from": "drago", "to": {"id": "delta-drago", "attr": "pyrus", "g": 550},
                             "level": 4}]},
            {"name": "Runo",
             "bakugan": [{"id": "tigrerra", "attr": "haos", "g": 440},
                         {"id": "falconeer", "attr": "ventus", "g": 370},
                         {"id": "angelo", "attr": "haos", "g": 320, "pure": True}],
             "gates": [{"id": "r1", "bonus": {"haos": 100}, "colour": "gold"},
                       {"id": "r2", "bonus": {"ventus": 90, "aquos": 30}, "colour": "silver"},
                       {"id": "r3", "bonus": {"pyrus": 10, "aquos": 200}, "colour": "copper"}],
             "abilities": [{"id": "shield", "effect": {"opp_g": -80}},
                           {"id": "swap", "effect": {"attr": "pyrus"}},
                           {"id": "shade", "effect": {"g": 50}}],
             "traps": [{"id": "haos-trap", "attr": "haos", "effect": {"attr": "aquos"}}],
             "gear": [{"id": "jetkor", "g": 50, "attr": "ventus", "colour": "gold",
                       "extra": {"nullify_gate": True}}]},
        ],
    }
    if season is not None:
        h["season"] = season
    for k in over:
        h[k] = over[k]
    return h


def start(h=None):
    gm = Game(h or header())
    assert gm.gate(0, "d1", 5)
    assert gm.gate(1, "r1", 9)
    return gm


def refused(test, h, *words):
    with test.assertRaises(referee.SetupError) as cm:
        referee.new_game(h)
    for w in words:
        test.assertIn(w, str(cm.exception))


class Switch(unittest.TestCase):
    def test_a_plain_header_plays_the_plain_class(self):
        h = header()
        for p in h["players"]:
            for k in ("traps", "gear", "evolutions"):
                if k in p:
                    del p[k]
            for key in ("bakugan", "gates", "abilities"):
                for x in p[key]:
                    for f in ("pure", "colour", "level"):
                        if f in x:
                            del x[f]
        self.assertIs(type(referee.new_game(h)), official.Game)
        self.assertFalse(referee.new_game(h).feed({"t": 1, "ev": "trap", "player": 0, "trap": "x"}))
        h["season"] = 2
        g = referee.new_game(h)
        self.assertTrue(isinstance(g, official.Game) and type(g) is not official.Game)
        self.assertEqual(g.MODE, "official")
        self.assertIs(type(g), type(referee.new_game(header())))  # built once per mode

    def test_every_mode_of_the_official_sheet_takes_the_extras(self):
        for mode in ("big", "multi"):
            cls = referee.load(mode).variant(header(mode))
            self.assertTrue(cls.EXTRAS)
            self.assertIn("trap", cls.INPUTS)
            self.assertEqual(cls.MODE, mode)


class HeaderChecks(unittest.TestCase):
    def test_bad_fields_are_named(self):
        refused(self, header(season=4), "header.season")
        h = header()
        h["players"][0]["gates"][1]["colour"] = "bronze"
        refused(self, h, "players[0].gates[1].colour", "bronze")
        h = header()
        h["players"][0]["gates"][1]["colour"] = "gold"
        refused(self, h, "players[0].gates[1].colour", "more than 1 gold")
        h = header()
        h["players"][1]["traps"][0]["effect"] = {"g": 10, "attr": "haos"}
        refused(self, h, "players[1].traps[0].effect")
        h = header()
        h["players"][1]["gear"][0]["id"] = "fire-trap"
        refused(self, h, "players[1].gear[0].id", "fire-trap")
        h = header()
        h["players"][0]["evolutions"][0]["from"] = "tigrerra"
        refused(self, h, "players[0].evolutions[0].from", "tigrerra")
        h = header()
        h["players"][0]["evolutions"][0]["to"]["id"] = "falconeer"
        refused(self, h, "players[0].evolutions[0].to.id", "falconeer")
        h = header()
        h["players"][0]["bakugan"][2]["pure"] = 1
        refused(self, h, "players[0].bakugan[2].pure")
        h = header()
        h["players"][0]["abilities"][1]["level"] = -1
        refused(self, h, "players[0].abilities[1].level")

    def test_how_many_traps_and_gear_per_season(self):
        # season 2: one trap, no gear (two traps in the Big Game)
        h = header(season=2)
        del h["players"][0]["gear"]
        del h["players"][1]["gear"]
        referee.new_game(h)
        h["players"][0]["traps"].append({"id": "trap2", "attr": "aquos", "effect": {"g": 30}})
        refused(self, h, "players[0].traps", "at most 1 trap(s)", "season-2")
        h = header(season=2)
        del h["players"][1]["gear"]
        refused(self, h, "players[0].gear[0]", "season-3")
        # season 3: two traps or gear in all (one of each here), four in the Big Game
        h = header()
        h["players"][1]["traps"].append({"id": "trap2", "attr": "aquos", "effect": {"g": 30}})
        refused(self, h, "players[1]", "at most 2 traps and battle gear", "got 3")

    def test_the_big_game_brings_twice_as_many(self):
        from modekit import player
        players = [player(i, g=(450, 340, 360, 400, 380, 420), n_gates=6, n_cards=6) for i in range(2)]
        players[0]["traps"] = [{"id": "t%d" % j, "attr": "pyrus", "effect": {"g": 10 * j}} for j in range(2)]
        players[0]["gear"] = [{"id": "e%d" % j, "g": 10} for j in range(2)]
        h = {"bakumat": "events", "version": 1, "mode": "big", "players": players}
        self.assertEqual(len(referee.new_game(h).item_ids), 4)
        players[0]["gear"].append({"id": "e9", "g": 10})
        refused(self, h, "at most 4 traps and battle gear", "of the Big Game")
        players[0]["gear"].pop()
        h["season"] = 2
        del players[0]["gear"]
        self.assertEqual(len(referee.new_game(h).item_ids), 2)


class Traps(unittest.TestCase):
    def battle(self):
        gm = start()  # d1 (pyrus +100, haos -50) on 5, r1 (haos +100) on 9
        gm.land("drago", 5)
        gm.land("tigrerra", 5)  # Runo attacks Dan on d1
        return gm

    def test_only_in_a_battle_by_a_battling_player_matching_attribute(self):
        gm = start()
        self.assertFalse(gm.ev("trap", player=0, trap="fire-trap"))
        self.assertIn("no battle", gm.reason())
        gm.land("serpenoid", 5)  # aquos
        gm.land("tigrerra", 5)
        self.assertFalse(gm.ev("trap", player=0, trap="fire-trap"))
        self.assertIn("attributes must match", gm.reason())
        self.assertFalse(gm.ev("trap", player=0, trap="haos-trap"))
        self.assertIn("belongs to Runo", gm.reason())

    def test_a_g_trap_adds_to_the_bakugan(self):
        gm = self.battle()
        self.assertTrue(gm.ev("trap", player=0, trap="fire-trap"))
        self.assertFalse(gm.ev("trap", player=0, trap="fire-trap"))  # in play now
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["parts"]["drago"], [450, 100, 70])
        self.assertEqual(b["parts"]["tigrerra"], [440, -50, 0])
        self.assertEqual(gm.g.iloc["fire-trap"], USED)

    def test_an_attribute_trap_changes_the_attribute_for_the_gate(self):
        gm = self.battle()
        self.assertTrue(gm.ev("trap", player=1, trap="haos-trap"))  # tigrerra counts as aquos
        gm.resolve()
        self.assertEqual(gm.last("battle")["parts"]["tigrerra"], [440, 0, 0])  # d1 has no aquos bonus
        t = gm.last("trap")
        self.assertEqual((t["attr"], t["g"]), ("aquos", 0))

    def test_the_trap_comes_back_with_the_bakugan(self):
        gm = self.battle()
        gm.ev("trap", player=0, trap="fire-trap")
        gm.resolve()  # Dan wins d1 with 620 against 390
        self.assertEqual(gm.last("capture")["player"], 0)
        self.assertTrue(gm.miss("serpenoid"))  # Dan
        self.assertTrue(gm.miss("falconeer"))  # Runo
        self.assertTrue(gm.miss("clear"))      # Dan: all his Bakugan used now
        self.assertIsNone(gm.last("reuse_items"))
        self.assertEqual(gm.g.iloc["fire-trap"], USED)
        self.assertTrue(gm.miss("angelo"))     # Runo; Dan's turn: all back
        self.assertEqual(gm.last("reuse")["player"], 0)
        back = gm.last("reuse_items")
        self.assertEqual((back["player"], back["items"]), (0, ["fire-trap"]))
        self.assertEqual(gm.g.iloc["fire-trap"], UNUSED)

    def test_one_trap_per_player_and_battle(self):
        h = header()
        h["players"][0]["traps"].append({"id": "trap2", "attr": "pyrus", "effect": {"g": 30}})
        del h["players"][0]["gear"]
        gm = start(h)
        gm.land("drago", 5)
        gm.land("tigrerra", 5)
        self.assertTrue(gm.ev("trap", player=0, trap="fire-trap"))
        self.assertFalse(gm.ev("trap", player=0, trap="trap2"))
        self.assertIn("already played a trap", gm.reason())


class Gear(unittest.TestCase):
    def test_gear_adds_g_and_its_extra_needs_a_match(self):
        gm = start()
        gm.land("drago", 9)  # pyrus Bakugan on r1 (gold)
        gm.land("falconeer", 9)  # ventus attacks: jetkor's attr matches
        self.assertFalse(gm.ev("gear", player=0, gear="jetkor"))
        self.assertTrue(gm.ev("gear", player=1, gear="jetkor", extra=True))  # nullify the gate
        self.assertFalse(gm.ev("gear", player=1, gear="jetkor"))
        self.assertTrue(gm.ev("gear", player=0, gear="battle-axe", extra=True))  # pyrus matches too
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["parts"]["drago"], [450, 0, 60])
        self.assertEqual(b["parts"]["falconeer"], [370, 0, 50 - 100])

    def test_the_gate_colour_also_unlocks_the_extra(self):
        gm = start()
        gm.gate(0, "d2", 6)  # silver
        gm.land("serpenoid", 6)  # aquos: battle-axe (pyrus, silver) matches by colour only
        gm.land("tigrerra", 6)
        self.assertTrue(gm.ev("gear", player=0, gear="battle-axe", extra=True))
        self.assertFalse(gm.ev("gear", player=1, gear="jetkor", extra=True))  # haos on a silver gate
        self.assertIn("extra ability needs", gm.reason())
        self.assertTrue(gm.ev("gear", player=1, gear="jetkor"))  # the G bonus alone
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["parts"]["serpenoid"], [340, 80, 60])
        self.assertEqual(b["parts"]["tigrerra"], [440, 0, 50 - 100])
        self.assertEqual(b["winner"], "serpenoid")

    def test_no_extra_on_a_non_matching_gate_and_bakugan(self):
        gm = start()
        gm.land("serpenoid", 9)  # aquos on r1 (gold)
        gm.land("tigrerra", 9)
        self.assertFalse(gm.ev("gear", player=0, gear="battle-axe", extra=True))
        self.assertTrue(gm.ev("gear", player=0, gear="battle-axe", extra=False))


class Level(unittest.TestCase):
    def test_the_level_is_the_sum_of_the_gates_in_hand(self):
        gm = Game(header())
        self.assertEqual(gm.g.level(), 1 + 1 + 3 + 1 + 1 + 1)
        gm.gate(0, "d3", 5)  # level 3
        gm.gate(1, "r1", 9)
        self.assertEqual(gm.g.level(), 4)
        self.assertEqual(gm.g.view()["level"], 4)

    def test_a_level_card_waits_until_the_level_falls_to_it(self):
        gm = start()  # d1 and r1 placed: level 1 + 3 + 1 + 1 = 6
        gm.land("drago", 5)
        gm.land("tigrerra", 5)
        self.assertFalse(gm.ability(0, "boost"))
        self.assertIn("level 3, below the game level 6", gm.reason())
        gm.resolve()
        gm.gate(0, "d3", 6)  # level 3
        gm.land("serpenoid", 6)
        gm.gate(1, "r2", 7)  # level 2
        gm.land("falconeer", 6)
        self.assertTrue(gm.ability(0, "boost"), gm.reason())


class Evolution(unittest.TestCase):
    def test_skip_the_turn_to_evolve_when_the_level_allows(self):
        gm = start()  # level 6, delta-drago needs 4
        self.assertEqual(gm.g.loc["delta-drago"], OUT)
        self.assertFalse(gm.land("delta-drago", 5))
        self.assertFalse(gm.ev("evolve", player=1, bakugan="drago"))  # Dan's turn
        self.assertFalse(gm.ev("evolve", player=0, bakugan="serpenoid"))
        self.assertIn("no evolution", gm.reason())
        self.assertTrue(gm.ev("evolve", player=0, bakugan="drago"))
        e = gm.last("evolve")
        self.assertEqual((e["from"], e["to"], e["level"]), ("drago", "delta-drago", 6))
        self.assertEqual(gm.last("turn")["player"], 1)  # the turn is skipped
        self.assertEqual((gm.g.loc["drago"], gm.g.loc["delta-drago"]), (OUT, UNUSED))
        gm.miss("tigrerra")
        self.assertFalse(gm.land("drago", 5))
        self.assertTrue(gm.land("delta-drago", 5))
        self.assertEqual(gm.g.expects()[0], 1)

    def test_level_too_low_or_gate_already_placed(self):
        gm = start()
        gm.gate(0, "d3", 6)  # level 3 < 4
        self.assertFalse(gm.ev("evolve", player=0, bakugan="drago"))
        h = header()
        h["players"][0]["evolutions"][0]["level"] = 1
        gm = start(h)
        gm.gate(0, "d2", 6)
        self.assertFalse(gm.ev("evolve", player=0, bakugan="drago"))
        self.assertIn("whole turn", gm.reason())

    def test_only_a_bakugan_in_hand_evolves_and_never_in_set_up(self):
        gm = Game(header())
        gm.gate(0, "d1", 5)
        self.assertFalse(gm.ev("evolve", player=0, bakugan="drago"))
        gm.gate(1, "r1", 9)
        gm.land("drago", 5)
        gm.miss("tigrerra")
        self.assertFalse(gm.ev("evolve", player=0, bakugan="drago"))
        self.assertIn("standing on zone 5", gm.reason())

    def test_a_used_bakugan_evolves_into_the_used_pile(self):
        gm = start()
        gm.miss("drago")
        gm.miss("tigrerra")
        self.assertTrue(gm.ev("evolve", player=0, bakugan="drago"))
        self.assertEqual(gm.g.loc["delta-drago"], USED)


class Pure(unittest.TestCase):
    def test_a_pure_bakugan_takes_the_opponents_attribute(self):
        gm = start()
        gm.land("clear", 9)  # pure on r1 (haos +100)
        gm.land("tigrerra", 9)  # haos: clear counts as haos too
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["parts"]["clear"], [300, 100, 0])
        self.assertEqual(b["parts"]["tigrerra"], [440, 100, 0])

    def test_it_follows_the_opponents_attribute_change(self):
        gm = start()
        gm.land("drago", 9)
        gm.land("angelo", 9)  # pure, against pyrus: r1 has no pyrus bonus
        gm.ability(0, "to-aquos")  # drago counts as aquos, so does angelo
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["parts"]["angelo"], [320, 0, 0])
        gm2 = start()
        gm2.gate(0, "d2", 6)  # aquos +80
        gm2.land("drago", 6)
        gm2.land("angelo", 6)
        self.assertEqual(gm2.g.battle_attr("angelo", "drago"), "pyrus")
        gm2.ability(0, "to-aquos")
        self.assertEqual(gm2.g.battle_attr("angelo", "drago"), "aquos")
        gm2.resolve()
        self.assertEqual(gm2.last("battle")["parts"]["angelo"], [320, 80, 0])

    def test_both_pure_choose_colours_before_any_card(self):
        gm = start()
        gm.land("clear", 5)  # d1: pyrus +100, haos -50
        gm.land("angelo", 5)
        self.assertFalse(gm.ev("pure", player=0, attr="fire"))
        self.assertTrue(gm.ev("pure", player=0, attr="pyrus"))
        self.assertFalse(gm.ev("pure", player=0, attr="aquos"))  # once
        gm.ability(1, "shade")
        self.assertFalse(gm.ev("pure", player=1, attr="pyrus"))  # too late: Runo's stays haos
        self.assertIn("before any card", gm.reason())
        gm.resolve()
        b = gm.last("battle")
        self.assertEqual(b["parts"]["clear"], [300, 100, 0])
        self.assertEqual(b["parts"]["angelo"], [320, -50, 50])

    def test_no_colour_choice_unless_both_are_pure(self):
        gm = start()
        gm.land("clear", 5)
        gm.land("tigrerra", 5)
        self.assertFalse(gm.ev("pure", player=0, attr="pyrus"))
        self.assertIn("both battling Bakugan are pure", gm.reason())

    def test_a_pure_bakugan_matches_traps_by_its_borrowed_attribute(self):
        gm = start()
        gm.land("clear", 9)
        gm.land("falconeer", 9)  # ventus: clear is ventus, Dan's pyrus trap does not match
        self.assertFalse(gm.ev("trap", player=0, trap="fire-trap"))
        self.assertIn("clear is ventus", gm.reason())
        gm2 = start()
        gm2.land("clear", 9)
        gm2.land("tigrerra", 9)
        gm2.ability(1, "swap")  # tigrerra counts as pyrus: so does clear
        self.assertTrue(gm2.ev("trap", player=0, trap="fire-trap"), gm2.reason())
        gm2.resolve()
        self.assertEqual(gm2.last("battle")["parts"]["clear"], [300, 0, 70])


class Rejections(unittest.TestCase):
    def test_a_rejected_extra_event_changes_nothing(self):
        from modekit import canon
        gm = start()
        gm.land("drago", 5)
        gm.land("tigrerra", 5)
        gm.ev("trap", player=0, trap="fire-trap")
        before = canon(gm.g._save())
        for ev in ({"ev": "trap", "player": 0, "trap": "fire-trap"},
                   {"ev": "gear", "player": 1, "gear": "battle-axe"},
                   {"ev": "gear", "player": 0, "gear": "jetkor"},
                   {"ev": "gear", "player": 1, "gear": "jetkor", "extra": "yes"},
                   {"ev": "pure", "player": 1, "attr": "haos"},
                   {"ev": "evolve", "player": 0, "bakugan": "serpenoid"},
                   {"ev": "evolve", "player": 1, "bakugan": "drago"},
                   {"ev": "trap", "player": 0}):
            ev["t"] = gm.t
            self.assertFalse(gm.g.feed(ev))
            self.assertEqual(canon(gm.g._save()), before)


class LogFields(unittest.TestCase):
    def lines(self, *events):
        import json
        out = [json.dumps(header()) + "\n"]
        for e in events:
            out.append(json.dumps(e) + "\n")
        return out

    def test_the_log_knows_the_extra_events_and_ids(self):
        ok = self.lines({"t": 1, "ev": "trap", "player": 0, "trap": "fire-trap"},
                        {"t": 2, "ev": "gear", "player": 1, "gear": "jetkor", "extra": True},
                        {"t": 3, "ev": "evolve", "player": 0, "bakugan": "drago"},
                        {"t": 4, "ev": "land", "zone": 5, "bakugan": "delta-drago"},
                        {"t": 5, "ev": "pure", "player": 1, "attr": "haos"})
        self.assertEqual(len(list(eventlog.iter_log(ok))), 6)
        for bad, words in (({"t": 1, "ev": "trap", "player": 1, "trap": "fire-trap"}, "player 1 has no trap"),
                           ({"t": 1, "ev": "gear", "player": 1, "gear": "jetkor", "extra": 1}, "true or false"),
                           ({"t": 1, "ev": "pure", "player": 1, "attr": "gold"}, "unknown attribute"),
                           ({"t": 1, "ev": "evolve", "player": 0}, "missing field 'bakugan'")):
            with self.assertRaises(eventlog.LogError) as cm:
                list(eventlog.iter_log(self.lines(bad)))
            self.assertIn("line 2", str(cm.exception))
            self.assertIn(words, str(cm.exception))


if __name__ == "__main__":
    unittest.main()
