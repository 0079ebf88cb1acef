"""The app at a table (fakes; CPython and micropython): the players'
buttons go through table.buttons and table.controller, and what they do is
saved in the stored game log like any other accepted input."""
try:
    import unittest
except ImportError:
    import mpunit as unittest

import json

from fwharness import Rig, load_board, REPO
from test_store import tmpdir, rmtree


def sample_header():
    f = open(REPO + "/host_tools/samples/official.ndjson")
    h = json.loads(f.readline())
    f.close()
    return h


def stored(d):
    f = open(d + "/game.ndj")
    lines = [json.loads(x) for x in f.read().split("\n") if x]
    f.close()
    return lines[1:]


class ButtonsAtTheTable(unittest.TestCase):
    def setUp(self):
        self.d = tmpdir()
        self.rig = Rig(load_board(), self.d)
        self.rig.request("cfg", sample_header())
        self.rig.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6})
        self.rig.request("ctl", {"ev": "gate", "player": 1, "gate": "runo-gold", "zone": 5})
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
        self.rig.run_ms(60)
        games = [m[2] for m in self.rig.received("game")]
        self.assertEqual([g["ev"] for g in games][:1], ["miss"])
        last = stored(self.d)[-1]
        self.assertEqual((last["ev"], last["by"], last["bakugan"]), ("miss", "button", games[0]["bakugan"]))
        # after a reset the stored game (with the button's miss) comes back
        t, before = self.rig.request("state")
        self.rig.reboot()
        t, after = self.rig.request("state")
        self.assertEqual(after["view"], before["view"])


if __name__ == "__main__":
    unittest.main()
