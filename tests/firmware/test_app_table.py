"""The app at a table (fakes; CPython and micropython): the players'
buttons go through table.buttons and table.controller, and what they do is
saved in the stored game log like any other accepted input."""
try:
    import unittest
except ImportError:
    import mpunit as unittest

import json

from fwharness import Rig, counts, load_board, REPO
from test_store import tmpdir, rmtree
from store.state import State
from table.controller import QUESTION_MS


def sample_header():
    f = open(REPO + "/host_tools/samples/official.ndjson")
    h = json.loads(f.readline())
    f.close()
    return h


def stored(d):
    """The stored game's events, through the store's reader."""
    return State(d).game_load()[1]


def gates_placed(d, phone=False):
    """A rig with the sample game configured and both gold gates placed."""
    rig = Rig(load_board(), d, phone=phone)
    rig.request("cfg", sample_header())
    rig.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6})
    rig.request("ctl", {"ev": "gate", "player": 1, "gate": "runo-gold", "zone": 5})
    return rig


class ButtonsAtTheTable(unittest.TestCase):
    def setUp(self):
        self.d = tmpdir()
        self.rig = gates_placed(self.d)
        self.rig.received()

    def tearDown(self):
        self.rig.close()
        rmtree(self.d)

    def pin(self, name):
        return [p for n, p in self.rig.board.buttons if n == name][0]

    def test_long_back_undoes_the_last_event_and_it_is_saved(self):
        back = self.pin("p1_back")
        back.drive(0)
        self.rig.run_ms(1100)     # held past the long-press time
        back.drive(1)
        self.rig.run_ms(60)
        presses = [m[2] for m in self.rig.received("mat") if m[2].get("ev") == "button"]
        self.assertEqual([(p["name"], p["press"]) for p in presses], [("p1_back", "long")])
        games = [m[2]["ev"] for m in self.rig.received("game")]
        self.assertEqual(games, ["undo"])
        self.assertEqual([e["ev"] for e in stored(self.d)], ["gate", "gate", "undo"])
        t, s = self.rig.request("state")
        self.assertNotIn("5", s["view"]["zones"])
        self.assertIn("6", s["view"]["zones"])

    def test_ok_on_the_throwers_turn_declares_a_miss_saved_by_button(self):
        ok = self.pin("p0_ok")
        ok.drive(0)
        self.rig.run_ms(80)
        ok.drive(1)
        games = [m[2] for m in self.rig.wait_for("game", max_ms=500)]
        self.assertEqual([g["ev"] for g in games][:1], ["miss"])
        last = stored(self.d)[-1]
        self.assertEqual((last["ev"], last["by"], last["bakugan"]), ("miss", "button", games[0]["bakugan"]))
        # after a reset the stored game (with the button's miss) comes back
        t, before = self.rig.request("state")
        self.rig.reboot()
        t, after = self.rig.request("state")
        self.assertEqual(after["view"], before["view"])


class QuestionAtTheTable(unittest.TestCase):
    """The mat is unsure who Dan threw: Dan's BACK button and Dan's phone
    answer alike (Table.answer, then Session.which: the link echoes `which`,
    the game log has the landing taken back and the other one landed)."""

    def setUp(self):
        self.d = tmpdir()
        self.rig = gates_placed(self.d, phone=True)
        app = self.rig.app.session
        # as the pipeline reports it to the match: serpenoid lands on zone 6,
        # decided without being sure (runner-up drago)
        t = app.gtime(self.rig.clock.ticks_ms())
        app.match._sensed({"ev": "land", "t": t, "zone": 6, "bakugan": "serpenoid"})
        app.match._sensed({"ev": "unsure", "t": t, "zone": 6, "bakugan": "serpenoid", "alt": "drago"})
        self.rig.run_ms(40)
        self.rig.received()
        self.assertEqual(app.table.asking(), (0, 6, "which"))

    def tearDown(self):
        self.rig.close()
        rmtree(self.d)

    def answered(self):
        t, s = self.rig.request("state")     # (lets the link send what is queued)
        echo = [m[2] for m in self.rig.received("input")]
        log = [(e["ev"], e.get("bakugan")) for e in stored(self.d)]
        return [(e["ev"], e.get("zone"), e.get("bakugan")) for e in echo], log, s["view"]["zones"]["6"]["bakugan"]

    def want(self, got):
        # echoed: the amend's undo (an accepted input) and the answer
        self.assertEqual(got, ([("undo", None, None), ("which", 6, "drago")],
                               [("gate", None), ("gate", None), ("land", "serpenoid"), ("undo", None),
                                ("land", "drago")],
                               ["drago"]))
        self.assertNotEqual(self.rig.app.session.table.asking()[2], "which")

    def shades(self, ms):
        """How many colours zone 6's first LED shows over the next ms."""
        from show.feedback import led_layout
        bd = load_board()
        zl, _ = led_layout(bd)
        i = zl[[z["id"] for z in bd["zones"]].index(6)][0]
        strip = self.rig.strip()
        t0 = self.rig.clock.now_ms()
        self.rig.run_ms(ms)
        return len(set([data[3 * i:3 * i + 3] for t, data in strip.writes if t >= t0]))

    def test_the_zone_breathes_while_the_mat_asks_and_not_after(self):
        self.assertGreater(self.shades(1500), 3)      # asking: the zone breathes
        ok = [p for n, p in self.rig.board.buttons if n == "p0_ok"][0]
        ok.drive(0)
        self.rig.run_ms(80)
        ok.drive(1)
        self.rig.run_ms(500)
        self.assertNotEqual(self.rig.app.session.table.asking()[2], "which")
        self.assertLessEqual(self.shades(1500), 1)    # confirmed: the gate's colour, steady
        # asked again with no landing then (the sensing kept its early
        # guess), and nobody answers: the zone breathes, then stops
        app = self.rig.app.session
        t = app.gtime(self.rig.clock.ticks_ms())
        app.match._sensed({"ev": "unsure", "t": t, "zone": 6, "bakugan": "serpenoid", "alt": "drago"})
        self.assertGreater(self.shades(1500), 3)
        self.rig.run_ms(QUESTION_MS)
        self.assertNotEqual(app.table.asking()[2], "which")
        self.assertLessEqual(self.shades(1500), 1)

    def test_the_links_state_says_whom_the_mat_asks(self):
        t, s = self.rig.request("state")
        self.assertEqual(s["asking"], {"player": 0, "zone": 6, "what": "which", "bakugan": "serpenoid",
                                       "alt": "drago"})

    def test_back_button(self):
        back = [p for n, p in self.rig.board.buttons if n == "p0_back"][0]
        back.drive(0)
        self.rig.run_ms(80)
        back.drive(1)
        self.rig.run_ms(60)
        self.want(self.answered())

    def test_phone(self):
        web = self.rig.app.phone.web
        st, _, body = web.handle("POST", "/api/claim", "", '{"player": 0}', None)
        self.assertEqual(st, 409)     # play has started: a late claim needs the side's button
        web.open_claim(0)             # (as a press of p0's button does: runtime.buttons)
        st, _, body = web.handle("POST", "/api/claim", "", '{"player": 0}', None)
        code = json.loads(body)["code"]
        st, _, body = web.handle("GET", "/api/state", "", "", None)
        self.assertEqual(json.loads(body)["asking"], {"player": 0, "zone": 6, "what": "which",
                                                      "bakugan": "serpenoid", "alt": "drago"})
        st, _, body = web.handle("POST", "/api/input", "", json.dumps(
            {"code": code, "ev": "which", "bakugan": "drago"}), None)
        self.assertEqual((st, json.loads(body)), (200, {"ok": True, "reason": None}))
        self.rig.run_ms(40)
        self.want(self.answered())


class TeachFromThePhone(unittest.TestCase):
    """A player teaches the mat a Bakugan from the phone: the sensing's
    register (echoed on the link for a recording), then the lesson shows on
    the page as `learnt`, with what it reads like."""

    def setUp(self):
        self.d = tmpdir()
        self.rig = Rig(load_board(), self.d, phone=True)
        self.rig.request("cfg", sample_header())
        self.rig.received()

    def tearDown(self):
        self.rig.close()
        rmtree(self.d)

    def test_register_then_the_lesson_on_the_page(self):
        app = self.rig.app.session
        web = self.rig.app.phone.web
        st, _, body = web.handle("POST", "/api/claim", "", '{"player": 0}', None)
        code = json.loads(body)["code"]
        own = app.table.header["players"][0]["bakugan"][0]["id"]
        other = app.table.header["players"][1]["bakugan"][0]["id"]
        st, _, body = web.handle("POST", "/api/input", "", json.dumps(
            {"code": code, "ev": "register", "bakugan": own, "zone": 4}), None)
        self.assertEqual((st, json.loads(body)), (200, {"ok": True, "reason": None}))
        self.assertEqual(app.match.pipeline.pending(4), own)
        self.rig.request("state")     # (lets the link send what is queued)
        echo = [m[2] for m in self.rig.received("input")]
        self.assertEqual([(e["ev"], e["bakugan"], e["zone"]) for e in echo], [("register", own, 4)])
        # the lesson, as the pipeline reports it
        t = app.gtime(self.rig.clock.ticks_ms())
        app.match._sensed({"ev": "land", "t": t, "zone": 4, "bakugan": own, "learned": True, "alike": [other]})
        st, _, body = web.handle("GET", "/api/state", "", "", None)
        learnt = [e[1] for e in json.loads(body)["events"] if e[1]["ev"] == "learnt"]
        self.assertEqual(learnt, [{"ev": "learnt", "t": t, "bakugan": own, "zone": 4, "alike": [other]}])
        # not a game event: the stored game log has none of it
        self.assertEqual([e["ev"] for e in stored(self.d) if e["ev"] in ("register", "learnt", "land")], [])

    def test_a_lesson_makes_the_bakugan_taught(self):
        # the sensing itself learns it (a field held still on the zone after
        # `register`); the link's state and the phone's say it is taught
        rig = self.rig
        app = rig.app.session
        web = rig.app.phone.web
        own = app.table.header["players"][0]["bakugan"][1]["id"]
        self.assertEqual(rig.request("state")[1]["taught"], [])
        self.assertEqual(json.loads(web.handle("GET", "/api/state", "", "", None)[2])["taught"], [])
        self.assertEqual(rig.request("ctl", {"ev": "register", "bakugan": own, "zone": 4})[1]["ok"], True)
        rig.mat.values = counts(load_board(), [(4, 30.0)])    # a Bakugan of 30 mA m^2 held on zone 4
        rig.run_ms(1500)
        self.assertEqual(rig.request("state")[1]["taught"], [own])
        self.assertEqual(json.loads(web.handle("GET", "/api/state", "", "", None)[2])["taught"], [own])


if __name__ == "__main__":
    unittest.main()
