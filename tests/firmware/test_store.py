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
        if os.stat(d + "/" + name)[0] & 0x4000:
            rmtree(d + "/" + name)
        else:
            os.remove(d + "/" + name)
    os.rmdir(d)


HEADER = {"mode": "official", "players": [{"name": "A"}, {"name": "B"}]}


def write_v1(d, events):
    """A game.ndj as the earlier firmware wrote it (board-state v1): the
    header, then the events appended to it."""
    f = open(d + "/game.ndj", "w")
    f.write('{"bakumat": "events", "version": 1, "mode": "official", "players": [{"name": "A"}, {"name": "B"}]}\n')
    for t in events:
        f.write('{"t": %d, "ev": "resolve"}\n' % t)
    f.close()


class TestState(unittest.TestCase):
    def setUp(self):
        self.d = tmpdir()
        self.st = State(self.d)

    def tearDown(self):
        rmtree(self.d)

    def test_game_is_a_header_and_one_file_per_event(self):
        self.assertIsNone(self.st.game_load())
        self.st.game_start(HEADER)
        for i in range(30):
            self.st.game_append({"t": i * 100, "ev": "miss", "bakugan": "b%d" % i})
        h, evs = self.st.game_load()
        # what the reader gives is the game's event log v1
        self.assertEqual(h["bakumat"], "events")
        self.assertEqual(h["version"], 1)
        self.assertEqual(h["players"], HEADER["players"])
        self.assertNotIn("state", h)
        self.assertNotIn("game", h)
        self.assertEqual([e["t"] for e in evs], [i * 100 for i in range(30)])
        self.assertEqual((self.st.game, self.st.events), (1, 30))
        # on flash: game.ndj is the header alone, event i is ev1.<i % 4>/<i>
        f = open(self.d + "/game.ndj")
        lines = f.read().split("\n")
        f.close()
        self.assertEqual(len(lines), 2)
        self.assertEqual(lines[1], "")
        self.assertIn('"state": 2', lines[0])
        self.assertIn('"game": 1', lines[0])
        # (and sig/, empty: the signatures' directory, made when a game starts)
        self.assertEqual(sorted(os.listdir(self.d)), ["ev1.0", "ev1.1", "ev1.2", "ev1.3", "game.ndj", "sig"])
        self.assertEqual(sorted(int(n) for n in os.listdir(self.d + "/ev1.2")), list(range(2, 30, 4)))
        self.assertEqual(safe.read(self.d + "/ev1.1/5"), b'{"t": 500, "ev": "miss", "bakugan": "b5"}\n')

    def test_resume_reads_the_events_up_to_the_first_missing_one(self):
        self.st.game_start(HEADER)
        for i in range(9):
            self.st.game_append({"t": i, "ev": "resolve"})
        os.remove(self.d + "/ev1.2/6")         # (never so on a board: saves are in order)
        st = State(self.d)                      # a boot
        st.cleanup()
        self.assertEqual([e["t"] for e in st.game_load()[1]], [0, 1, 2, 3, 4, 5])
        self.assertEqual(st.events, 6)
        st.game_append({"t": 60, "ev": "resolve"})
        self.assertEqual([e["t"] for e in State(self.d).game_load()[1]], [0, 1, 2, 3, 4, 5, 60, 7, 8])

    def test_an_event_file_a_save_did_not_complete_is_no_event(self):
        # a cut after the file was made (littlefs commits its creation at
        # open), or a write that failed half-way: no whole line
        self.st.game_start(HEADER)
        self.st.game_append({"t": 1, "ev": "resolve"})
        for part in (b"", b'{"t": 2, "ev": "res'):
            safe.write(self.d + "/ev1.1/1", part)
            st = State(self.d)
            self.assertEqual(len(st.game_load()[1]), 1)
            st.game_append({"t": 3, "ev": "resolve"})      # replaces it
            self.assertEqual([e["t"] for e in State(self.d).game_load()[1]], [1, 3])

    def test_a_broken_event_file_names_it(self):
        self.st.game_start(HEADER)
        self.st.game_append({"t": 1, "ev": "resolve"})
        safe.write(self.d + "/ev1.1/1", b'{"t": 5, "ev": \n')
        with self.assertRaises(StoreError) as cm:
            self.st.game_load()
        self.assertIn("ev1.1/1", str(cm.exception))

    def test_a_newer_or_mixed_game_file_is_refused(self):
        self.st.game_start(HEADER)
        f = open(self.d + "/game.ndj", "a")
        f.write('{"t": 5, "ev": "resolve"}\n')          # an earlier firmware's append
        f.close()
        with self.assertRaises(StoreError) as cm:
            self.st.game_load()
        self.assertIn("line 2", str(cm.exception))
        newer = b'{"bakumat": "events", "version": 1, "state": 3, "game": 1, "mode": "official"}\n'
        safe.write(self.d + "/game.ndj", newer)
        with self.assertRaises(StoreError):
            self.st.game_load()

    def test_new_game_replaces_old_and_removes_its_files(self):
        self.st.game_start(HEADER)
        for i in range(7):
            self.st.game_append({"t": i, "ev": "resolve"})
        self.st.game_start(HEADER)
        self.assertEqual(self.st.game_load()[1], [])
        self.assertEqual(self.st.game, 2)
        self.assertEqual(sorted(os.listdir(self.d)), ["ev2.0", "ev2.1", "ev2.2", "ev2.3", "game.ndj", "sig"])
        self.st.game_append({"t": 1, "ev": "resolve"})
        self.assertEqual(State(self.d).game_load()[1], [{"t": 1, "ev": "resolve"}])

    def test_a_new_game_cut_before_its_header_leaves_the_old_one(self):
        # a cut after the new game's directories were made: the old game is
        # whole, the next new game takes a fresh id and removes the leftovers
        self.st.game_start(HEADER)
        self.st.game_append({"t": 1, "ev": "resolve"})
        for k in range(4):
            os.mkdir(self.d + "/ev2.%d" % k)
        st = State(self.d)
        self.assertEqual((st.game_load()[1], st.game), ([{"t": 1, "ev": "resolve"}], 1))
        st.game_start(HEADER)
        self.assertEqual(st.game, 3)
        self.assertEqual(sorted(os.listdir(self.d)), ["ev3.0", "ev3.1", "ev3.2", "ev3.3", "game.ndj", "sig"])

    def test_resume_a_v1_game_and_go_on_in_place(self):
        # a board whose game.ndj the earlier firmware wrote: its events inline
        write_v1(self.d, [1, 2])
        st = State(self.d)
        st.cleanup()
        h, evs = st.game_load()
        self.assertEqual(h["version"], 1)
        self.assertEqual([e["t"] for e in evs], [1, 2])
        self.assertEqual((st.game, st.events), (None, 2))
        st.game_append({"t": 3, "ev": "resolve"})        # the same game, the same format
        self.assertEqual([e["t"] for e in State(self.d).game_load()[1]], [1, 2, 3])
        self.assertEqual(os.listdir(self.d), ["game.ndj"])
        st.game_start(HEADER)                             # a new game is v2
        self.assertEqual((st.game, State(self.d).game_load()[1]), (1, []))

    def test_no_temp_files_left_and_stale_ones_cleaned(self):
        self.st.game_start(HEADER)
        self.st.game_append({"t": 1, "ev": "resolve"})
        self.st.save_signatures({"drago": 812})
        names = ["ev1.0", "ev1.1", "ev1.2", "ev1.3", "game.ndj", "sig"]
        self.assertEqual(sorted(os.listdir(self.d)), names)
        self.assertEqual(os.listdir(self.d + "/sig"), ["drago"])
        f = open(self.d + "/game.ndj.tmp", "w")
        f.write('{"half": ')
        f.close()
        # a cut in a signature's save: its temp file, torn
        f = open(self.d + "/sig/drago.tmp", "w")
        f.write('["drago", 9')
        f.close()
        self.assertEqual(State(self.d).load_signatures(), {"drago": 812})
        self.st.cleanup()
        self.assertEqual(sorted(os.listdir(self.d)), names)
        self.assertEqual(os.listdir(self.d + "/sig"), ["drago"])
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

    def test_signatures_one_file_each(self):
        sigs = {"drago": 61.5, "tigrerra": -24, "gorem_2": 0.125}
        self.st.save_signatures(sigs)
        self.assertEqual(State(self.d).load_signatures(), sigs)
        self.assertEqual(sorted(os.listdir(self.d + "/sig")), ["drago", "gorem_2", "tigrerra"])
        self.assertEqual(safe.read(self.d + "/sig/drago"), b'["drago", 61.5]\n')
        self.assertNotIn("sigs.json", os.listdir(self.d))

    def test_odd_ids_are_named_by_their_hex(self):
        long = "x" * 33
        huge = "y" * 200
        sigs = {"drago red": 1.5, "dragonoid.v2": 2, "": 3, long: 4.25, "\u30c9\u30e9\u30b4": -5,
                "a/b": 6, "x.tmp": 7, "%41": 8, huge: 9, "x" * 32: 10}
        self.st.save_signatures(sigs)
        self.assertEqual(State(self.d).load_signatures(), sigs)
        names = os.listdir(self.d + "/sig")
        self.assertEqual(len(names), len(sigs))
        self.assertIn("%647261676f20726564", names)              # "drago red"
        self.assertIn("%e38389e383a9e382b4", names)              # its UTF-8 bytes
        self.assertIn("%", names)                                # the empty id
        self.assertIn("%" + "78" * 33, names)                     # longer than 32
        self.assertIn("x" * 32, names)
        self.assertIn("%253431", names)                          # "%41": never mistaken for a hex name
        self.assertEqual(len([n for n in names if n[0] == "="]), 1)   # 200 bytes: its SHA-256
        for n in names:
            self.assertLessEqual(len(n), 245)
        self.assertEqual(safe.read(self.d + "/sig/%612f62"), b'["a/b", 6]\n')

    def test_a_save_writes_only_what_changed(self):
        sigs = {}
        for i in range(8):
            sigs["b%d" % i] = 100.0 + i
        self.st.save_signatures(sigs)
        self.assertEqual(len(os.listdir(self.d + "/sig")), 8)
        st = State(self.d)                        # a boot
        st.cleanup()
        got = st.load_signatures()
        self.assertEqual(got, sigs)
        real = safe.overwrite
        wrote = []

        def counted(path, data):
            wrote.append(path[len(self.d) + 1:])
            real(path, data)
        safe.overwrite = counted
        try:
            got["b3"] = 99.5                      # a lesson: one changed, one new
            got["b9"] = -7.25
            st.save_signatures(got)
            self.assertEqual(sorted(wrote), ["sig/b3", "sig/b9"])
            del wrote[:]
            st.save_signatures(dict(got))         # nothing changed: nothing written
            self.assertEqual(wrote, [])
            got["b0"] = 1.0
            st.save_signatures(got)
            self.assertEqual(wrote, ["sig/b0"])
            # a store that did not load first reads what is there
            del wrote[:]
            got["b1"] = 2.0
            State(self.d).save_signatures(got)
            self.assertEqual(wrote, ["sig/b1"])
        finally:
            safe.overwrite = real
        self.assertEqual(State(self.d).load_signatures(), got)
        # an entry left out of the dict is dropped, as the whole file was
        del got["b5"]
        st.save_signatures(got)
        self.assertEqual(State(self.d).load_signatures(), got)
        self.assertNotIn("b5", os.listdir(self.d + "/sig"))

    def test_an_earlier_firmwares_sigs_json_is_read_and_replaced(self):
        safe.write(self.d + "/sigs.json", '{"drago": 812, "tigrerra": -640, "gorem": 33.5}')
        st = State(self.d)
        st.cleanup()
        self.assertEqual(st.load_signatures(), {"drago": 812, "tigrerra": -640, "gorem": 33.5})
        # sig/'s entries win over it (a save of this firmware cut before it
        # removed sigs.json)
        os.mkdir(self.d + "/sig")
        safe.write(self.d + "/sig/drago", '["drago", 790.5]\n')
        st = State(self.d)
        sigs = st.load_signatures()
        self.assertEqual(sigs, {"drago": 790.5, "tigrerra": -640, "gorem": 33.5})
        # the first save writes every entry into sig/, then removes sigs.json
        sigs["gorem"] = 30
        st.save_signatures(sigs)
        self.assertNotIn("sigs.json", os.listdir(self.d))
        self.assertEqual(sorted(os.listdir(self.d + "/sig")), ["drago", "gorem", "tigrerra"])
        self.assertEqual(State(self.d).load_signatures(), {"drago": 790.5, "tigrerra": -640, "gorem": 30})
        # a broken sigs.json is refused as before (never so: temp file and rename)
        safe.write(self.d + "/sigs.json", '{"drago": ')
        with self.assertRaises(StoreError):
            State(self.d).load_signatures()

    def test_unreadable_signature_files_are_skipped(self):
        self.st.save_signatures({"drago": 1.5, "tigrerra": 2.5})
        for name, data in (("gorem", '["gorem", 3'), ("preyas", ""), ("naga", '{"naga": 4}\n'),
                           ("wrong", '["drago", 9]\n'), ("elfin", '["elfin", "x"]\n'),
                           ("skyress", '["skyress", 5, 6]\n'), ("x.tmp", '["x", 1]\n')):
            safe.write(self.d + "/sig/" + name, data)
        self.assertEqual(State(self.d).load_signatures(), {"drago": 1.5, "tigrerra": 2.5})
        # and a save rewrites such a file as a whole entry
        st = State(self.d)
        st.save_signatures({"drago": 1.5, "tigrerra": 2.5, "gorem": 3.75})
        self.assertEqual(State(self.d).load_signatures(), {"drago": 1.5, "tigrerra": 2.5, "gorem": 3.75})

    def test_broken_line_names_it(self):
        write_v1(self.d, [])
        f = open(self.d + "/game.ndj", "a")
        f.write('{"t": 5, "ev": \n')
        f.close()
        with self.assertRaises(StoreError) as cm:
            self.st.game_load()
        self.assertIn("line 2", str(cm.exception))

    def test_part_line_at_the_end_is_dropped_and_mended(self):
        # what a failed append (a full filesystem) may leave when the file is
        # closed: its event was never acknowledged (a v1 game)
        write_v1(self.d, [1])
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
        write_v1(self.d, [])
        self.st.game_load()
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
