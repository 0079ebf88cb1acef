"""Stored state on a directory filesystem (CPython and micropython).
The power-cut proof on littlefs is tests/test_powercut.py."""
try:
    import unittest
except ImportError:
    import mpunit as unittest

import os

from store.state import State, StoreError
from store import safe


def tmpdir():
    d = "/tmp/bakumat-store-%s" % "".join("%02x" % b for b in os.urandom(6))
    os.mkdir(d)
    return d


def rmtree(d):
    for name in os.listdir(d):
        os.remove(d + "/" + name)
    os.rmdir(d)


HEADER = {"mode": "official", "players": [{"name": "A"}, {"name": "B"}]}


class TestState(unittest.TestCase):
    def setUp(self):
        self.d = tmpdir()
        self.st = State(self.d)

    def tearDown(self):
        rmtree(self.d)

    def test_game_is_an_event_log(self):
        self.assertIsNone(self.st.game_load())
        self.st.game_start(HEADER)
        for i in range(30):
            self.st.game_append({"t": i * 100, "ev": "miss", "bakugan": "b%d" % i})
        h, evs = self.st.game_load()
        self.assertEqual(h["bakumat"], "events")
        self.assertEqual(h["version"], 1)
        self.assertEqual(h["players"], HEADER["players"])
        self.assertEqual([e["t"] for e in evs], [i * 100 for i in range(30)])
        f = open(self.d + "/game.ndj")
        lines = f.read().split("\n")
        f.close()
        self.assertEqual(len(lines), 32)       # header, 30 events, final ""
        self.assertEqual(lines[-1], "")

    def test_new_game_replaces_old(self):
        self.st.game_start(HEADER)
        self.st.game_append({"t": 1, "ev": "resolve"})
        self.st.game_start(HEADER)
        self.assertEqual(self.st.game_load()[1], [])

    def test_no_temp_files_left_and_stale_ones_cleaned(self):
        self.st.game_start(HEADER)
        self.st.game_append({"t": 1, "ev": "resolve"})
        self.st.save_signatures({"drago": 812})
        self.assertEqual(sorted(os.listdir(self.d)), ["game.ndj", "sigs.json"])
        f = open(self.d + "/game.ndj.tmp", "w")
        f.write('{"half": ')
        f.close()
        self.st.cleanup()
        self.assertEqual(sorted(os.listdir(self.d)), ["game.ndj", "sigs.json"])
        self.assertEqual(len(self.st.game_load()[1]), 1)

    def test_signatures_calibration_maint(self):
        self.assertEqual(self.st.load_signatures(), {})
        self.assertIsNone(self.st.load_calibration())
        self.st.save_signatures({"drago": 812, "tigrerra": -640})
        self.st.save_calibration({"zero": [1, 2, 3]})
        self.assertEqual(self.st.load_signatures()["tigrerra"], -640)
        self.assertEqual(self.st.load_calibration(), {"zero": [1, 2, 3]})
        self.assertFalse(self.st.maint())
        self.st.set_maint(True)
        self.assertTrue(self.st.maint())
        self.st.set_maint(False)
        self.assertFalse(self.st.maint())

    def test_broken_line_names_it(self):
        self.st.game_start(HEADER)
        f = open(self.d + "/game.ndj", "a")
        f.write('{"t": 5, "ev": \n')
        f.close()
        with self.assertRaises(StoreError) as cm:
            self.st.game_load()
        self.assertIn("line 2", str(cm.exception))

    def test_part_line_at_the_end_is_dropped_and_mended(self):
        # what a failed append (a full filesystem) may leave when the file is
        # closed: its event was never acknowledged
        self.st.game_start(HEADER)
        self.st.game_append({"t": 1, "ev": "resolve"})
        good = safe.read(self.d + "/game.ndj")
        f = open(self.d + "/game.ndj", "a")
        f.write('{"t": 2, "ev": "res')
        f.close()
        self.assertEqual(len(self.st.game_load()[1]), 1)
        st = State(self.d)
        st.cleanup()                    # at boot
        self.assertEqual(st.torn, 1)
        self.assertEqual(safe.read(self.d + "/game.ndj"), good)
        st.game_append({"t": 3, "ev": "resolve"})
        self.assertEqual([e["t"] for e in st.game_load()[1]], [1, 3])

    def test_failed_append_is_mended_before_the_next(self):
        self.st.game_start(HEADER)
        real = safe.append

        def half(path, data):
            real(path, data[:len(data) // 2])
            raise OSError(28)
        safe.append = half
        try:
            with self.assertRaises(OSError):
                self.st.game_append({"t": 1, "ev": "resolve"})
        finally:
            safe.append = real
        self.st.game_append({"t": 2, "ev": "resolve"})
        self.assertEqual([e["t"] for e in self.st.game_load()[1]], [2])
        self.assertEqual(self.st.torn, 1)

    def test_cut_tail_across_chunks(self):
        p = self.d + "/x.ndj"
        safe.write(p, b"a" * 300 + b"\n" + b"b" * 700)
        self.assertFalse(safe.tail_ok(p))
        self.assertEqual(safe.cut_tail(p, bytearray(64)), 700)
        self.assertEqual(safe.read(p), b"a" * 300 + b"\n")
        self.assertTrue(safe.tail_ok(p))

    def test_append_to_missing_file_creates_it(self):
        safe.append(self.d + "/x.ndj", b"a\n")
        safe.append(self.d + "/x.ndj", b"b\n")
        self.assertEqual(safe.read(self.d + "/x.ndj"), b"a\nb\n")


if __name__ == "__main__":
    unittest.main()
