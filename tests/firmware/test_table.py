"""Table play: buttons, undo and the inferences, on canned events.
(tests/host/test_table_sim.py drives the same code with simulated frames.)"""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

from referee.journal import Journal
from table import controller
from table.buttons import LONG, SHORT, Buttons
from table.controller import Table
from test_referee_rules import header


class ButtonGestures(unittest.TestCase):
    def setUp(self):
        self.got = []
        self.b = Buttons(4, lambda i, g, t: self.got.append((i, g, t)))

    def run_levels(self, seq):
        for t, mask in seq:
            self.b.update(mask, t)

    def test_bounce_is_ignored_and_short_press_reported_on_release(self):
        seq = [(0, 0), (10, 1), (12, 0), (14, 1), (16, 0), (18, 1)]  # bouncing
        seq += [(t, 1) for t in range(20, 200, 10)]
        seq += [(200, 0), (203, 1), (206, 0)] + [(t, 0) for t in range(210, 300, 10)]
        self.run_levels(seq)
        self.assertEqual(len(self.got), 1)
        i, g, t = self.got[0]
        self.assertEqual((i, g), (0, SHORT))
        self.assertLessEqual(t, 240)

    def test_glitch_shorter_than_debounce_is_no_press(self):
        self.run_levels([(0, 0), (10, 2), (20, 0)] + [(t, 0) for t in range(30, 300, 10)])
        self.assertEqual(self.got, [])

    def test_long_press_fires_while_held_and_once(self):
        self.run_levels([(t, 2) for t in range(0, 2000, 10)] + [(2000, 0), (2030, 0), (2060, 0)])
        self.assertEqual([(i, g) for i, g, t in self.got], [(1, LONG)])
        self.assertLess(self.got[0][2], 1000)


class Undo(unittest.TestCase):
    def test_undo_last_restores_the_previous_state(self):
        out = []
        j = Journal(header(), out.append)
        j.feed({"t": 1, "ev": "gate", "player": 0, "gate": "d1", "zone": 1})
        j.feed({"t": 2, "ev": "gate", "player": 1, "gate": "r1", "zone": 2})
        j.feed({"t": 3, "ev": "land", "zone": 1, "bakugan": "drago"})
        before = (dict(j.game.loc), j.game.turn)
        self.assertTrue(j.feed({"t": 4, "ev": "land", "zone": 1, "bakugan": "tigrerra"}))
        self.assertIsNotNone(j.game.battle)
        undone = j.undo(5)
        self.assertEqual(undone["bakugan"], "tigrerra")
        self.assertIsNone(j.game.battle)
        self.assertEqual((dict(j.game.loc), j.game.turn), before)
        self.assertEqual(out[-1][0], "undo")
        self.assertEqual(len(j.events), 3)
        # the game goes on from there
        self.assertTrue(j.feed({"t": 6, "ev": "land", "zone": 2, "bakugan": "tigrerra"}))

    def test_undo_out_of_memory_keeps_the_game(self):
        # the rebuild runs out of memory (setting up the game again: in the
        # old game's object or a new one): the undo fails, the game is as it was
        j = Journal(header(), [].append)
        j.feed({"t": 1, "ev": "gate", "player": 0, "gate": "d1", "zone": 1})
        j.feed({"t": 2, "ev": "gate", "player": 1, "gate": "r1", "zone": 2})
        j.feed({"t": 3, "ev": "land", "zone": 1, "bakugan": "drago"})
        calls = []
        cls = type(j.game)
        real = cls.__init__

        def scarce(g, h, sink=None):
            calls.append(1)
            if len(calls) == 1:
                raise MemoryError("memory allocation failed")
            real(g, h, sink)
        cls.__init__ = scarce
        try:
            with self.assertRaises(MemoryError):
                j.undo(4)
        finally:
            cls.__init__ = real
        self.assertEqual(len(calls), 2)    # the failed rebuild, then the game as it was
        self.assertEqual(len(j.events), 3)
        self.assertEqual(j.game.loc.get("drago"), 1)
        self.assertTrue(j.feed({"t": 5, "ev": "land", "zone": 2, "bakugan": "tigrerra"}))

    def test_nothing_to_undo(self):
        out = []
        j = Journal(header(), out.append)
        self.assertIsNone(j.undo(1))
        self.assertEqual(out[-1][0], "reject")


class Inference(unittest.TestCase):
    def setUp(self):
        self.out = []
        self.logged = []
        self.table = Table(Journal(header(), self.out.append), self.logged.append)
        self.table.feed({"t": 0, "ev": "gate", "player": 0, "gate": "d1", "zone": 1})
        self.table.feed({"t": 10, "ev": "gate", "player": 1, "gate": "r1", "zone": 2})

    def kinds(self):
        return [o[0] for o in self.out]

    def test_landing_without_gate_infers_the_throwers_gate(self):
        self.assertTrue(self.table.feed({"t": 100, "ev": "land", "zone": 7, "bakugan": "drago"}))
        g = self.table.j.game
        self.assertEqual(g.field[7], "d2")
        self.assertEqual(g.loc["drago"], 7)
        inferred = [e for e in self.logged if e.get("by") == "infer"]
        self.assertEqual(inferred[0]["ev"], "gate")
        # Runo: a second gate this turn is not allowed after placing one
        self.table.feed({"t": 150, "ev": "gate", "player": 1, "gate": "r2", "zone": 8})
        self.table.feed({"t": 200, "ev": "land", "zone": 9, "bakugan": "tigrerra"})
        self.assertNotIn(9, g.field)
        self.assertEqual(self.out[-2][0], "miss")

    def test_both_lifted_then_quiet_resolves_the_battle(self):
        t = self.table
        t.feed({"t": 100, "ev": "land", "zone": 2, "bakugan": "drago"})
        t.feed({"t": 200, "ev": "land", "zone": 2, "bakugan": "tigrerra"})
        t.sensed({"t": 1000, "ev": "leave", "zone": 2, "bakugan": "drago"})
        t.tick(1000 + controller.BATTLE_GRACE_MS + 10)
        self.assertNotIn("battle", self.kinds())  # only one lifted
        t.sensed({"t": 9000, "ev": "leave", "zone": 2, "bakugan": "tigrerra"})
        t.tick(9000 + controller.BATTLE_GRACE_MS - 10)
        self.assertNotIn("battle", self.kinds())
        t.tick(9000 + controller.BATTLE_GRACE_MS)
        self.assertIn("battle", self.kinds())
        self.assertEqual(self.logged[-1]["by"], "infer")

    def test_a_press_during_the_battle_stops_the_auto_resolve(self):
        t = self.table
        t.feed({"t": 100, "ev": "land", "zone": 2, "bakugan": "drago"})
        t.feed({"t": 200, "ev": "land", "zone": 2, "bakugan": "tigrerra"})
        t.sensed({"t": 1000, "ev": "leave", "zone": 2, "bakugan": "drago"})
        t.feed({"t": 1100, "ev": "ability", "player": 0, "card": "boost"})
        t.sensed({"t": 1200, "ev": "leave", "zone": 2, "bakugan": "tigrerra"})
        t.tick(60000)
        self.assertNotIn("battle", self.kinds())
        self.assertTrue(t.button(2, SHORT, 61000))  # Runo's OK resolves
        self.assertIn("battle", self.kinds())

    def test_roll_without_landing_is_a_miss_and_back_undoes_it(self):
        t = self.table
        t.sensed({"t": 100, "ev": "roll", "zone": 5})
        t.tick(100 + controller.MISS_WAIT_MS)
        self.assertEqual(self.out[-2][0], "miss")
        self.assertEqual(self.table.j.game.turn, 1)
        self.assertTrue(t.button(1, SHORT, 3000))  # Dan's BACK: it was not a miss
        self.assertEqual(self.out[-1][0], "undo")
        self.assertEqual(self.table.j.game.turn, 0)

    def test_a_said_miss_confirms_the_inferred_one(self):
        t = self.table
        t.sensed({"t": 100, "ev": "roll", "zone": 5})
        t.tick(100 + controller.MISS_WAIT_MS)
        n = len(self.out)
        self.assertTrue(t.feed({"t": 3000, "ev": "miss", "bakugan": "drago"}))  # the host says it too
        self.assertEqual(self.out[n:], [])  # nothing twice
        self.assertEqual(t.j.game.turn, 1)
        # a said miss before the inference fires cancels it
        t.sensed({"t": 4000, "ev": "roll", "zone": 5})
        self.assertTrue(t.feed({"t": 4100, "ev": "miss", "bakugan": "tigrerra"}))
        t.tick(4000 + 2 * controller.MISS_WAIT_MS)
        self.assertEqual(self.kinds().count("miss"), 2)
        self.assertEqual(t.j.game.turn, 0)

    def test_roll_followed_by_landing_is_no_miss(self):
        t = self.table
        t.sensed({"t": 100, "ev": "roll", "zone": 5})
        t.feed({"t": 600, "ev": "land", "zone": 1, "bakugan": "drago"})
        t.tick(100 + 2 * controller.MISS_WAIT_MS)
        self.assertNotIn("miss", self.kinds())

    def test_choice_then_moving_the_bakugan_is_a_move(self):
        t = self.table
        t.feed({"t": 100, "ev": "land", "zone": 1, "bakugan": "drago"})
        t.feed({"t": 200, "ev": "land", "zone": 2, "bakugan": "tigrerra"})
        t.feed({"t": 300, "ev": "land", "zone": 1, "bakugan": "serpenoid"})
        self.assertIsNotNone(t.j.game.choice)
        t.sensed({"t": 900, "ev": "leave", "zone": 1, "bakugan": "serpenoid"})
        t.feed({"t": 1500, "ev": "land", "zone": 2, "bakugan": "serpenoid"})
        self.assertEqual(self.logged[-1]["action"], "move")
        self.assertIn("clash", self.kinds())


class ButtonMeanings(unittest.TestCase):
    def setUp(self):
        self.out = []
        self.table = Table(Journal(header(), self.out.append))
        self.table.feed({"t": 0, "ev": "gate", "player": 0, "gate": "d1", "zone": 1})
        self.table.feed({"t": 10, "ev": "gate", "player": 1, "gate": "r1", "zone": 2})

    def test_ok_declares_a_miss_for_the_thrower_only(self):
        self.assertFalse(self.table.button(2, SHORT, 100))  # Runo: not his turn
        self.assertTrue(self.table.button(0, SHORT, 200))
        self.assertEqual(self.out[-2][0], "miss")

    def test_ok_takes_on_a_choice_and_long_back_undoes(self):
        t = self.table
        t.feed({"t": 100, "ev": "land", "zone": 1, "bakugan": "drago"})
        t.feed({"t": 200, "ev": "land", "zone": 2, "bakugan": "tigrerra"})
        t.feed({"t": 300, "ev": "land", "zone": 1, "bakugan": "serpenoid"})
        self.assertFalse(t.button(2, SHORT, 400))  # not Runo's choice
        self.assertTrue(t.button(0, SHORT, 500))
        self.assertEqual(t.j.game.captured[0], ["d1"])
        self.assertTrue(t.button(3, LONG, 600))  # anyone may undo the last event
        self.assertEqual(t.j.game.captured[0], [])
        self.assertIsNotNone(t.j.game.choice)

    def test_asking_names_whose_input_is_awaited(self):
        t = self.table
        self.assertEqual(t.asking(), (0, -1, "throw"))
        t.feed({"t": 100, "ev": "land", "zone": 2, "bakugan": "drago"})
        t.feed({"t": 200, "ev": "land", "zone": 2, "bakugan": "tigrerra"})
        self.assertEqual(t.asking(), (0, 2, "battle"))


class Question(unittest.TestCase):
    """An unsure landing (`unsure` from the sensing): the mat asks the
    thrower; OK says it was the one named, BACK the other one."""

    def setUp(self):
        self.table = Table(Journal(header(), [].append), [].append)
        self.answers = []
        self.table.which = lambda z, b, t: self.answers.append((z, b, t)) or True
        self.table.feed({"t": 0, "ev": "gate", "player": 0, "gate": "d1", "zone": 1})
        self.table.feed({"t": 1, "ev": "gate", "player": 1, "gate": "r1", "zone": 2})
        # as Match does: the table hears the landing, then the referee gets it
        self.table.sensed({"ev": "land", "t": 2, "zone": 1, "bakugan": "serpenoid"})
        self.table.feed({"t": 2, "ev": "land", "zone": 1, "bakugan": "serpenoid"})
        self.table.sensed({"ev": "unsure", "t": 200, "zone": 1, "bakugan": "serpenoid", "alt": "drago"})

    def landed(self, t, zone, bakugan):
        # as Match does: the table hears the landing, then the referee gets it
        ev = {"ev": "land", "t": t, "zone": zone, "bakugan": bakugan}
        self.table.sensed(ev)
        self.assertTrue(self.table.feed(dict(ev)))

    def test_the_zone_asks_the_thrower(self):
        self.assertEqual(self.table.asking(), (0, 1, "which"))

    def test_back_says_it_was_the_other_one(self):
        self.assertFalse(self.table.button(3, SHORT, 900))   # not the thrower's button: no answer
        self.assertEqual(self.answers, [])
        self.assertTrue(self.table.button(1, SHORT, 1000))   # player 0's BACK
        self.assertEqual(self.answers, [(1, "drago", 1000)])
        self.assertNotEqual(self.table.asking()[2], "which")

    def test_ok_confirms_and_no_answer_lets_the_reading_stand(self):
        self.assertTrue(self.table.button(0, SHORT, 1000))   # player 0's OK
        self.assertEqual(self.answers, [])
        self.assertNotEqual(self.table.asking()[2], "which")
        self.table.sensed({"ev": "unsure", "t": 2000, "zone": 1, "bakugan": "serpenoid", "alt": "drago"})
        self.table.tick(2000 + controller.QUESTION_MS)
        self.assertNotEqual(self.table.asking()[2], "which")
        self.assertEqual(self.answers, [])

    def test_the_mat_renaming_it_closes_the_question_or_asks_anew(self):
        t = self.table
        t.sensed({"ev": "ident", "t": 900, "zone": 2, "bakugan": "tigrerra"})   # another zone
        self.assertEqual(t.asking(), (0, 1, "which"))
        t.sensed({"ev": "ident", "t": 1000, "zone": 1, "bakugan": "drago"})    # its refined level
        self.assertIsNone(t.question)
        t.sensed({"ev": "unsure", "t": 1000, "zone": 1, "bakugan": "drago", "alt": "serpenoid"})
        self.assertTrue(t.button(1, SHORT, 1500))          # BACK: serpenoid after all
        self.assertEqual(self.answers, [(1, "serpenoid", 1500)])

    def test_a_battle_on_the_zone_leaves_the_question_open(self):
        # Runo lands on the asked landing's zone before Dan answers: Dan may
        # still answer (Match.which amends the landing before the battle's)
        t = self.table
        t.sensed({"ev": "land", "t": 600, "zone": 1, "bakugan": "tigrerra"})
        self.assertTrue(t.feed({"t": 600, "ev": "land", "zone": 1, "bakugan": "tigrerra"}))
        self.assertEqual(t.asking(), (0, 1, "which"))
        self.assertTrue(t.button(1, SHORT, 1000))          # Dan's BACK
        self.assertEqual(self.answers, [(1, "drago", 1000)])
        # Dan's next landing elsewhere would have closed it
        self.setUp()
        self.table.sensed({"ev": "land", "t": 600, "zone": 2, "bakugan": "saurus"})
        self.assertIsNone(self.table.question)

    def test_a_battle_on_the_asked_zone_waits_for_the_answer(self):
        # Runo lands on the asked zone (a battle); Runo's OK would resolve
        # it, but the question is about one of its two: refused until Dan
        # answers
        t = self.table
        self.landed(600, 1, "tigrerra")
        self.assertFalse(t.button(2, SHORT, 900))          # Runo's OK: not yet
        self.assertIsNotNone(t.j.game.battle)
        self.assertTrue(t.button(1, SHORT, 1000))          # Dan's BACK: it was drago
        self.assertEqual(self.answers, [(1, "drago", 1000)])
        self.assertTrue(t.button(2, SHORT, 1100))          # Runo's OK resolves it now
        self.assertIsNone(t.j.game.battle)

    def battle_lifted(self):
        # Runo lands on the asked zone, then both are lifted, and the
        # battle's grace has passed with no button pressed
        t = self.table
        self.landed(600, 1, "tigrerra")
        t.sensed({"ev": "leave", "t": 1000, "zone": 1, "bakugan": "tigrerra"})
        t.sensed({"ev": "leave", "t": 1100, "zone": 1, "bakugan": "serpenoid"})
        t.tick(1100 + controller.BATTLE_GRACE_MS)
        return t

    def test_the_inferred_resolve_waits_for_the_answer_too(self):
        t = self.battle_lifted()
        self.assertIsNotNone(t.j.game.battle)              # asked: not resolved
        self.assertTrue(t.button(0, SHORT, 1200 + controller.BATTLE_GRACE_MS))   # Dan's OK: serpenoid it was
        t.tick(1300 + controller.BATTLE_GRACE_MS)          # (the answer is not a touch of the battle)
        self.assertIsNone(t.j.game.battle)

    def test_unanswered_the_battle_waits_until_the_question_times_out(self):
        t = self.battle_lifted()
        self.assertIsNotNone(t.j.game.battle)
        t.tick(200 + controller.QUESTION_MS)
        self.assertIsNone(t.j.game.battle)

    def test_a_question_about_the_battles_second_landing_holds_it_too(self):
        t = self.table
        self.landed(600, 2, "tigrerra")
        self.assertIsNone(t.question)                       # a landing elsewhere closed it
        self.landed(900, 2, "drago")
        t.sensed({"ev": "unsure", "t": 1000, "zone": 2, "bakugan": "drago", "alt": "saurus"})
        self.assertFalse(t.button(2, SHORT, 1100))         # the question is on the battle's zone
        self.table.question = None                          # (answered)
        self.assertTrue(t.button(2, SHORT, 1200))
        self.assertIsNone(t.j.game.battle)

    def test_answer_names_who_landed(self):
        t = self.table
        self.assertFalse(t.answer(1, "tigrerra", 300))     # Runo did not throw
        self.assertFalse(t.answer(0, "tigrerra", 300))     # not Dan's
        self.assertFalse(t.answer(0, None, 300))
        self.assertEqual(t.asking(), (0, 1, "which"))     # still asking
        self.assertEqual(self.answers, [])
        # Dan's third Bakugan could have landed too: the mat takes it
        self.assertTrue(t.answer(0, "saurus", 400))
        self.assertEqual(self.answers, [(1, "saurus", 400)])
        self.assertNotEqual(t.asking()[2], "which")
        self.assertFalse(t.answer(0, "drago", 500))        # no question open any more
        self.assertEqual(len(self.answers), 1)

    def test_answer_with_the_one_named_confirms(self):
        self.assertTrue(self.table.answer(0, "serpenoid", 300))
        self.assertEqual(self.answers, [])
        self.assertNotEqual(self.table.asking()[2], "which")
        self.assertIsNone(self.table.question)

    def test_the_answer_is_whatever_the_amend_says(self):
        # the game went on, Match.which refuses: the question is closed all the same
        self.table.which = lambda z, b, t: self.answers.append((z, b, t)) and False
        self.assertFalse(self.table.answer(0, "drago", 300))
        self.assertEqual(self.answers, [(1, "drago", 300)])
        self.assertIsNone(self.table.question)

    def test_an_answer_names_only_who_could_have_landed(self):
        # Runo lands tigrerra on zone 2; Dan throws again: serpenoid stands
        # on zone 1 already, so it cannot be the one that just landed
        t = self.table
        t.sensed({"ev": "land", "t": 300, "zone": 2, "bakugan": "tigrerra"})
        self.assertTrue(t.feed({"t": 300, "ev": "land", "zone": 2, "bakugan": "tigrerra"}))
        self.assertIsNone(t.question)                       # a new landing closed it
        t.sensed({"ev": "land", "t": 600, "zone": 2, "bakugan": "saurus"})
        self.assertTrue(t.feed({"t": 600, "ev": "land", "zone": 2, "bakugan": "saurus"}))
        t.sensed({"ev": "unsure", "t": 800, "zone": 2, "bakugan": "saurus", "alt": "drago"})
        self.assertEqual(t.asking(), (0, 2, "which"))
        self.assertFalse(t.answer(0, "serpenoid", 900))    # used: serpenoid stands on zone 1
        self.assertEqual(t.asking(), (0, 2, "which"))
        self.assertEqual(self.answers, [])
        self.assertTrue(t.button(1, SHORT, 1000))         # BACK: the runner-up the mat offered
        self.assertEqual(self.answers, [(2, "drago", 1000)])


if __name__ == "__main__":
    unittest.main()
