"""The phone page's API (link/webapp.py) on a table with a question open:
the state names who the mat is unsure of, and only the thrower's phone may
answer, through Table.answer as the buttons do (CPython and micropython)."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import json

from link.webapp import WebApp
from referee.journal import Journal
from table.controller import Table
from test_referee_rules import header


class PhoneAnswers(unittest.TestCase):
    def setUp(self):
        self.table = Table(Journal(header(), [].append), [].append)
        self.answers = []
        self.table.which = lambda z, b, t: self.answers.append((z, b, t)) or True
        self.clock = [5000]
        self.web = WebApp("{}", self.table, lambda: self.clock[0], zones=list(range(16)))
        self.dan = self.claim(0)
        self.runo = self.claim(1)
        self.table.feed({"t": 0, "ev": "gate", "player": 0, "gate": "d1", "zone": 1})
        self.table.feed({"t": 1, "ev": "gate", "player": 1, "gate": "r1", "zone": 2})
        # as Match does: the table hears the landing, then the referee gets it
        self.table.sensed({"ev": "land", "t": 2, "zone": 1, "bakugan": "serpenoid"})
        self.table.feed({"t": 2, "ev": "land", "zone": 1, "bakugan": "serpenoid"})

    def claim(self, p):
        st, _, body = self.web.handle("POST", "/api/claim", "", json.dumps({"player": p}), None)
        self.assertEqual(st, 200)
        return json.loads(body)["code"]

    def ask(self):
        self.table.sensed({"ev": "unsure", "t": 200, "zone": 1, "bakugan": "serpenoid", "alt": "drago"})

    def asking(self):
        return json.loads(self.web.state("since=0"))["asking"]

    def post(self, obj):
        st, typ, body = self.web.handle("POST", "/api/input", "", json.dumps(obj), None)
        self.assertEqual(typ, "application/json")
        return st, json.loads(body)

    def test_the_state_names_the_question(self):
        self.assertEqual(self.asking(), {"player": 1, "zone": -1, "what": "throw"})
        self.ask()
        self.assertEqual(self.asking(), {"player": 0, "zone": 1, "what": "which", "bakugan": "serpenoid",
                                         "alt": "drago"})

    def test_only_the_thrower_answers(self):
        st, r = self.post({"ev": "which", "bakugan": "drago", "code": self.dan})
        self.assertEqual(st, 409)       # nothing asked yet
        self.assertIn("no question", r["error"])
        self.ask()
        st, r = self.post({"ev": "which", "bakugan": "drago"})
        self.assertEqual(st, 403)       # a spectator
        self.assertIn("claim a side", r["error"])
        st, r = self.post({"ev": "which", "bakugan": "drago", "code": self.runo})
        self.assertEqual(st, 403)       # the other side
        self.assertIn("asks Dan", r["error"])
        st, r = self.post({"ev": "which", "zone": 7, "bakugan": "drago", "code": self.dan})
        self.assertEqual(st, 409)       # the question is about zone 1
        st, r = self.post({"ev": "which", "bakugan": 3, "code": self.dan})
        self.assertEqual(st, 400)
        self.assertEqual(self.answers, [])
        self.assertEqual(self.asking()["what"], "which")

    def test_the_thrower_names_the_other_one(self):
        self.ask()
        st, r = self.post({"ev": "which", "bakugan": "tigrerra", "code": self.dan})
        self.assertEqual((st, r["ok"]), (200, False))   # Runo's: it could not have landed
        self.assertIn("could not have landed", r["reason"])
        self.assertEqual(self.asking()["what"], "which")
        st, r = self.post({"ev": "which", "zone": 1, "bakugan": "drago", "code": self.dan})
        self.assertEqual((st, r), (200, {"ok": True, "reason": None}))
        self.assertEqual(self.answers, [(1, "drago", 5000)])   # Table.which, at the game's time
        self.assertNotEqual(self.asking()["what"], "which")
        st, r = self.post({"ev": "which", "bakugan": "drago", "code": self.dan})
        self.assertEqual(st, 409)       # answered: no question open
        self.assertEqual(len(self.answers), 1)

    def test_the_thrower_confirms(self):
        self.ask()
        st, r = self.post({"ev": "which", "bakugan": "serpenoid", "code": self.dan})
        self.assertEqual((st, r), (200, {"ok": True, "reason": None}))
        self.assertEqual(self.answers, [])
        self.assertNotIn("alt", self.asking())

    def test_an_answer_too_late_is_refused_with_a_reason(self):
        self.ask()
        self.table.which = lambda z, b, t: False     # Match.which: the game went on
        st, r = self.post({"ev": "which", "bakugan": "drago", "code": self.dan})
        self.assertEqual((st, r["ok"]), (200, False))
        self.assertIn("game went on", r["reason"])
        self.assertNotEqual(self.asking()["what"], "which")

    def test_a_battle_the_mat_asks_about_waits_for_the_answer(self):
        self.ask()
        self.table.sensed({"ev": "land", "t": 300, "zone": 1, "bakugan": "tigrerra"})
        self.assertTrue(self.table.feed({"t": 300, "ev": "land", "zone": 1, "bakugan": "tigrerra"}))
        st, r = self.post({"ev": "resolve", "code": self.runo})
        self.assertEqual((st, r["ok"]), (200, False))
        self.assertIn("asks Dan who landed on zone 1", r["reason"])
        self.assertIsNotNone(self.table.j.game.battle)
        st, r = self.post({"ev": "which", "bakugan": "serpenoid", "code": self.dan})   # confirmed
        st, r = self.post({"ev": "resolve", "code": self.runo})
        self.assertEqual((st, r["ok"]), (200, True))
        self.assertIsNone(self.table.j.game.battle)

    def test_a_player_teaches_the_mat_their_own_bakugan(self):
        taught = []
        st, r = self.post({"ev": "register", "bakugan": "drago", "zone": 3, "code": self.dan})
        self.assertEqual(st, 409)       # no sensing wired to this table
        self.table.register = lambda b, z, t: taught.append((b, z, t)) or z < 16
        st, r = self.post({"ev": "register", "bakugan": "drago", "zone": 3, "code": self.dan})
        self.assertEqual((st, r), (200, {"ok": True, "reason": None}))
        self.assertEqual(taught, [("drago", 3, 5000)])
        st, r = self.post({"ev": "register", "bakugan": "drago", "zone": 3, "code": self.runo})
        self.assertEqual(st, 403)       # Dan's Bakugan
        st, r = self.post({"ev": "register", "bakugan": "drago", "zone": 3})
        self.assertEqual(st, 403)       # a spectator
        st, r = self.post({"ev": "register", "bakugan": "drago", "zone": "3", "code": self.dan})
        self.assertEqual(st, 400)
        st, r = self.post({"ev": "register", "bakugan": "drago", "zone": 40, "code": self.dan})
        self.assertEqual(st, 400)       # not a zone of this mat: refused before the sensing sees it
        self.assertIn("zone", r["error"])
        self.table.register = lambda b, z, t: taught.append((b, z, t)) or False
        st, r = self.post({"ev": "register", "bakugan": "drago", "zone": 4, "code": self.dan})
        self.assertEqual((st, r["ok"]), (200, False))
        self.assertIn("no zone 4", r["reason"])
        self.assertEqual(len(taught), 2)

    def test_a_journal_without_a_table_asks_nothing(self):
        web = WebApp("{}", Journal(header(), [].append), lambda: 0)
        st, _, body = web.handle("POST", "/api/claim", "", '{"player": 0}', None)
        code = json.loads(body)["code"]
        st, _, body = web.handle("POST", "/api/input", "", json.dumps({"ev": "which", "bakugan": "drago",
                                                                        "code": code}), None)
        self.assertEqual(st, 409)


class PhoneTrust(unittest.TestCase):
    """Who may act: unguessable tokens, nothing but 403 for a wrong one, a
    rate limit per client, claims closed once play starts and kept across
    a reset, undo of one's own side only, a phone's extra fields dropped."""

    def setUp(self):
        self.table = Table(Journal(header(), [].append), [].append)
        self.clock = [1000]
        self.kept = []
        self.web = self.make()

    def make(self, codes=None):
        return WebApp("{}", self.table, lambda: self.clock[0], codes=codes, keep=self.kept.append,
                      zones=list(range(16)))

    def call(self, method, path, obj=None, query="", peer=("10.0.0.2", 5000), web=None):
        st, _, body = (web or self.web).handle(method, path, query, "" if obj is None else json.dumps(obj), peer)
        return st, json.loads(body)

    def claim(self, p, peer=("10.0.0.2", 5000)):
        st, r = self.call("POST", "/api/claim", {"player": p}, peer=peer)
        self.assertEqual(st, 200)
        return r["code"]

    def test_tokens_are_64_random_bits(self):
        a, b = self.claim(0), self.claim(1)
        self.assertEqual((len(a), len(b)), (16, 16))
        self.assertEqual(int(a, 16) >= 0 and int(b, 16) >= 0, True)
        self.assertTrue(a != b)

    def test_a_wrong_code_gets_nothing_but_403(self):
        dan = self.claim(0)
        answers = []
        for guess in ("0000", "1234", "%016x" % 5, dan[:-1] + ("0" if dan[-1] != "0" else "1"), ""):
            answers.append(self.call("GET", "/api/state", query="code=" + guess, peer=("10.0.0.%d" % len(answers), 1)))
        for st, body in answers:
            self.assertEqual(st, 403)
            self.assertEqual(body, answers[0][1])      # the same answer, whatever the guess
        st, body = self.call("GET", "/api/state", query="code=" + dan)
        self.assertEqual((st, body["you"]), (200, {"player": 0}))
        st, body = self.call("GET", "/api/state")
        self.assertEqual(body["you"], {"player": None})

    def test_the_rate_limit_holds(self):
        dan = self.claim(0)
        bad = "%016x" % 7
        me = ("10.0.0.9", 4000)
        for i in range(5):
            st, _ = self.call("POST", "/api/input", {"code": bad, "ev": "resolve"}, peer=me)
            self.assertEqual(st, 403)
        # locked out: even the right code is refused now, from that client only
        st, _ = self.call("GET", "/api/state", query="code=" + dan, peer=("10.0.0.9", 4001))
        self.assertEqual(st, 429)
        st, _ = self.call("GET", "/api/state", query="code=" + dan, peer=("10.0.0.3", 1))
        self.assertEqual(st, 200)
        # spectators still watch
        st, _ = self.call("GET", "/api/state", peer=me)
        self.assertEqual(st, 200)
        self.clock[0] += 30001
        st, _ = self.call("GET", "/api/state", query="code=" + bad, peer=me)
        self.assertEqual(st, 403)       # one more try after the lock ...
        st, _ = self.call("GET", "/api/state", query="code=" + dan, peer=me)
        self.assertEqual(st, 429)       # ... then locked again
        # 1 guess per 30 s: 2**63 guesses on average take longer than any game
        self.clock[0] += 30001
        st, _ = self.call("GET", "/api/state", query="code=" + dan, peer=me)
        self.assertEqual(st, 200)

    def test_a_late_claim_needs_the_sides_button(self):
        self.claim(0)
        self.assertTrue(self.table.feed({"t": 0, "ev": "gate", "player": 0, "gate": "d1", "zone": 1}))
        st, r = self.call("POST", "/api/claim", {"player": 1})
        self.assertEqual(st, 409)
        self.assertIn("button", r["error"])
        self.web.open_claim(1)
        self.clock[0] += 1000
        runo = self.claim(1)
        self.assertEqual(len(runo), 16)
        st, r = self.call("POST", "/api/claim", {"player": 1, "code": runo})
        self.assertEqual((st, r["code"]), (200, runo))   # the same phone again (a reload)

    def test_claims_are_kept_across_a_reset(self):
        dan = self.claim(0)
        self.assertEqual(self.kept[-1], [dan, None])
        web = self.make(codes=self.kept[-1])     # the board rebooted
        st, r = self.call("GET", "/api/state", query="code=" + dan, web=web)
        self.assertEqual((st, r["you"]), (200, {"player": 0}))
        st, r = self.call("POST", "/api/claim", {"player": 0}, web=web)
        self.assertEqual(st, 409)

    def test_undo_takes_back_only_your_own_sides_input(self):
        dan, runo = self.claim(0), self.claim(1)
        st, r = self.call("POST", "/api/input", {"code": dan, "ev": "gate", "gate": "d1", "zone": 1})
        self.assertEqual(r["ok"], True)
        st, r = self.call("POST", "/api/input", {"code": runo, "ev": "undo"})
        self.assertEqual(st, 403)
        self.assertEqual(len(self.table.j.events), 1)
        st, r = self.call("POST", "/api/input", {"code": dan, "ev": "undo"})
        self.assertEqual((st, r["ok"]), (200, True))
        self.assertEqual(len(self.table.j.events), 0)

    def test_a_phone_cannot_store_what_the_game_does_not_know(self):
        dan = self.claim(0)
        for z in (1e20, 99999999999999999999, -1, 16, "5", None):
            st, r = self.call("POST", "/api/input", {"code": dan, "ev": "gate", "gate": "d1", "zone": z})
            self.assertEqual(st, 400)
        self.assertEqual(len(self.table.j.events), 0)
        st, r = self.call("POST", "/api/input", {"code": dan, "ev": "gate", "gate": "d1", "zone": 2,
                                                 "note": "<script>alert(1)</script>", "player": 1, "t": 5})
        self.assertEqual(r["ok"], True)
        ev = self.table.j.events[-1]
        self.assertEqual(sorted(ev), ["by", "ev", "gate", "player", "t", "zone"])
        self.assertEqual((ev["player"], ev["t"]), (0, 1000))


if __name__ == "__main__":
    unittest.main()
