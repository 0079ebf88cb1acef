"""The saved game is the live game (CPython and micropython): `end` goes
through the journal and the power-safe save and ends the game; a refused
configuration leaves the running game playing; every zone and id of an
input is checked against the board and the game, and fields an input's
kind does not have are never stored."""
try:
    import unittest
except ImportError:
    import mpunit as unittest

import json

from fwharness import Rig, load_board
from test_app import sample_header, kinds
from test_store import tmpdir, rmtree
from store.state import State


def stored(d):
    """The stored game as the store's reader gives it (board-state v2: the
    header in game.ndj, an event per file), as the bytes of its event log."""
    return b"".join(json.dumps(obj).encode() + b"\n" for _, obj in State(d).game_lines())


class LiveIsSaved(unittest.TestCase):
    def setUp(self):
        self.d = tmpdir()
        self.rig = Rig(load_board(), self.d)
        self.rig.request("cfg", sample_header())
        self.ok(self.rig.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6}))
        self.ok(self.rig.request("ctl", {"ev": "gate", "player": 1, "gate": "runo-gold", "zone": 5}))
        self.rig.received()

    def tearDown(self):
        self.rig.close()
        rmtree(self.d)

    def ok(self, reply):
        self.assertEqual(reply, ("ack", {"ok": True}))

    def power_cut(self):
        self.rig.world.reboot(1)
        self.rig.reboot()

    def battle(self):
        rig = self.rig
        t = rig.app.session.gtime(rig.clock.ticks_ms())
        # two landings on Runo's gate: a battle, pending
        self.assertTrue(rig.app.session.rec.feed({"t": t, "ev": "land", "zone": 5, "bakugan": "drago"}))
        self.assertTrue(rig.app.session.rec.feed({"t": t + 1, "ev": "land", "zone": 5, "bakugan": "tigrerra"}))
        self.assertIsNotNone(rig.app.session.game.battle)

    def test_end_is_saved_and_ends_the_game(self):
        rig = self.rig
        self.battle()
        self.ok(rig.request("end"))
        t, s = rig.request("state")
        self.assertEqual(s["view"]["phase"], "over")
        self.assertIsNone(s["view"]["battle"])
        captured = s["view"]["captured"]
        self.assertEqual(sum([len(c) for c in captured]), 1)      # the battle's gate, awarded
        before = stored(self.d)
        self.assertIn(b'"ev": "end"', before)
        # later inputs are refused, and change nothing stored
        t, b = rig.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-silver", "zone": 7})
        self.assertEqual((b["ok"], b["why"]), (False, "the game is over"))
        self.assertEqual(rig.request("end"), ("ack", {"ok": False, "why": "the game is over"}))
        self.assertEqual(rig.request("ctl", {"ev": "undo"})[1]["ok"], False)
        self.assertEqual(stored(self.d), before)
        # `end` is the last game event sent (event-log-v1): the refusals
        # are in the acks only
        sent = kinds(rig.received("game"))
        self.assertEqual((sent.count("end"), sent[-1]), (1, "end"))
        # a power cut: the game comes back over, with the capture
        self.power_cut()
        t, s2 = rig.request("state")
        self.assertEqual((s2["view"]["phase"], s2["view"]["captured"]), ("over", captured))

    def test_a_refused_cfg_leaves_the_game_playing(self):
        rig = self.rig
        t, before = rig.request("state")
        data = stored(self.d)
        for bad in ({"mode": "official", "players": []}, {"mode": "nosuchmode", "players": []}, {"players": 3},
                    {"mode": "official"}):
            t, b = rig.request("cfg", bad)
            self.assertEqual((t, b["code"]), ("err", "setup"))
            t, s = rig.request("state")
            self.assertEqual((s["configured"], s["view"], s["events"]), (True, before["view"], 2))
            self.assertEqual(stored(self.d), data)
        self.ok(rig.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-silver", "zone": 7}))

    def test_a_cfg_the_mode_refuses_deeper_brings_the_stored_game_back(self):
        rig = self.rig
        t, before = rig.request("state")
        h = sample_header()
        h["mode"] = "compass"      # a good header, but not for Golden Compass: its own check refuses it
        t, b = rig.request("cfg", h)
        self.assertEqual(t, "err")
        t, s = rig.request("state")
        self.assertEqual((s["configured"], s["view"]), (True, before["view"]))

    def test_zones_and_ids_are_checked_at_every_entry(self):
        rig = self.rig
        data = stored(self.d)
        for z in (99999999999999999999, 1e20, -1, 16, 40, "6"):
            t, b = rig.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-silver", "zone": z})
            self.assertEqual(b["ok"], False)
        t, b = rig.request("ctl", {"ev": "gate", "player": 0, "gate": "nosuchgate", "zone": 7})
        self.assertEqual(b["ok"], False)
        self.assertIn("nosuchgate", b["why"])
        t, b = rig.request("ctl", {"ev": "gate", "player": 7, "gate": "dan-silver", "zone": 7})
        self.assertEqual(b["ok"], False)
        # the table's own inputs too (buttons, inference): through the same check
        self.assertFalse(rig.app.session.rec.feed({"t": 5, "ev": "land", "zone": 1000, "bakugan": "drago"}))
        self.assertEqual(stored(self.d), data)
        # fields the event does not have are dropped, not stored
        self.ok(rig.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-silver", "zone": 7,
                                    "note": "<script>alert(1)</script>"}))
        self.assertNotIn(b"script", stored(self.d))

    def test_an_input_that_cannot_be_saved_is_refused(self):
        rig = self.rig
        app = rig.app
        data = stored(self.d)
        t, before = rig.request("state")
        real = app.store.game_append

        def full(ev):
            raise OSError(28, "No space left on device")
        app.store.game_append = full
        for body in ({"ev": "gate", "player": 0, "gate": "dan-silver", "zone": 7}, {"ev": "undo"}):
            t, b = rig.request("ctl", body)
            self.assertEqual(b["ok"], False)
            self.assertIn("not saved: filesystem full", b["why"])
            t, s = rig.request("state")
            self.assertEqual((s["view"], s["events"]), (before["view"], 2))    # live = saved
        self.assertEqual(rig.request("end")[1]["ok"], False)
        self.assertEqual(rig.request("state")[1]["view"]["phase"], before["view"]["phase"])
        self.assertEqual(stored(self.d), data)
        app.store.game_append = real
        self.ok(rig.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-silver", "zone": 7}))

    def test_a_sides_button_opens_a_late_claim(self):
        self.rig.close()
        self.rig = Rig(load_board(), self.d, phone=True)     # the stored game, with the phone page
        web = self.rig.app.phone.web
        st, _, _ = web.handle("POST", "/api/claim", "", '{"player": 1}', None)
        self.assertEqual(st, 409)
        pin = [p for name, p in self.rig.board.buttons if name == "p1_back"][0]
        pin.drive(0)
        self.rig.run_ms(60)
        pin.drive(1)
        self.rig.run_ms(60)
        st, _, _ = web.handle("POST", "/api/claim", "", '{"player": 1}', None)
        self.assertEqual(st, 200)

    def test_claims_are_kept_in_the_store(self):
        app = self.rig.app
        app.session.keep_claims(["0123456789abcdef", None])
        self.assertEqual(app.store.load_claims(), ["0123456789abcdef", None])
        self.power_cut()
        self.assertEqual(self.rig.app.store.load_claims(), ["0123456789abcdef", None])
        self.rig.request("cfg", sample_header())         # a new game: claimed again
        self.assertIsNone(self.rig.app.store.load_claims())


if __name__ == "__main__":
    unittest.main()
