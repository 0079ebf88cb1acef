"""referee.jsonw: the JSON the board sends and the phone page serves is the
same text whichever writer made it. Under micropython, dumps and an output
event's line go through the interpreter's own json.dumps (a tree of
OrderedDicts); under CPython, through the Python writer (dumps_py). Both
are compared here on every kind of value and on a played game's outputs,
and (CPython) against json.dumps itself. Runs under CPython and
micropython (tests/mp_runner.py)."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

import json

import gamekit
from referee import jsonw
from referee.events import encode_json
from referee.jsonw import Pairs, dumps, dumps_event, dumps_py

HEADER = {
    "bakumat": "events", "version": 1, "mode": "official", "first": 0, "target": 2,
    "players": [
        {"name": "D\u00e4n \"the\" \\ first\t",
         "bakugan": [{"id": "drago", "attr": "pyrus", "g": 450},
                     {"id": "serpenoid", "attr": "aquos", "g": 340},
                     {"id": "saurus", "attr": "pyrus", "g": 360}],
         "gates": [{"id": "d1", "bonus": {"pyrus": 100, "haos": -50}}, {"id": "d2", "bonus": {"aquos": 80}},
                   {"id": "d3", "bonus": {}}],
         "abilities": [{"id": "boost", "effect": {"g": 100}}]},
        {"name": "\u6f22\u5b57",
         "bakugan": [{"id": "tigrerra", "attr": "haos", "g": 440},
                     {"id": "falconeer", "attr": "ventus", "g": 370},
                     {"id": "gargonoid", "attr": "haos", "g": 350}],
         "gates": [{"id": "r1", "bonus": {"haos": 100}}, {"id": "r2", "bonus": {"ventus": 90}},
                   {"id": "r3", "bonus": {"pyrus": 10}}],
         "abilities": [{"id": "shield", "effect": {"opp_g": -80}}]},
    ],
}

# every control character, the two JSON must-escapes, non-ASCII of 2-4 bytes
TEXTS = ["", "a", "drago", "\"", "\\", "a\"b\\c", "\u00e9", "\u6f22\u5b57", "\U0001f409", "\x7f"] + \
    [chr(c) for c in range(32)] + ["x" + chr(c) + "y" for c in range(32)]

VALUES = [None, True, False, 0, -1, 7, 2 ** 40, -(2 ** 62), [], (), {}, Pairs(()),
          [1, "a", None, True, [False, []]], (1, (2, (3,))),
          {"b": 1, "a": [2, {"z": None, "y": "\u00e9"}]}, {3: "three", 1: "one", 2: [2]},
          Pairs((("zone", 3), ("parts", {"drago": [450, "d1", None]}), ("who", Pairs((("b", 1), ("a", 2)))))),
          Pairs((("a\"", "\n"),))] + TEXTS


def played():
    """The outputs of a short official game: gates, stands, a battle with its
    parts and powers, an ability, a capture, a win."""
    g = gamekit.Game(HEADER)
    g.gate(0, "d1", 1)
    g.gate(1, "r1", 2)
    g.land("drago", 1)
    g.land("tigrerra", 1)
    g.ability(0, "boost")
    g.resolve()
    g.land("falconeer", 2)
    g.land("serpenoid", 2)
    g.resolve()
    g.land("saurus", 3)
    g.ev("nonsense")
    return g.out


class Writers(unittest.TestCase):
    def test_the_same_text_for_every_kind_of_value(self):
        for v in VALUES:
            self.assertEqual(dumps(v), dumps_py(v), repr(v))

    def test_the_text_is_json_that_reads_back(self):
        for v in VALUES:
            back = json.loads(dumps(v))
            if type(v) is str:
                self.assertEqual(back, v)
        self.assertEqual(json.loads(dumps({3: "x", 1: "y"})), {"3": "x", "1": "y"})
        self.assertEqual(dumps({3: "x", 1: "y"}), '{"1": "y", "3": "x"}')
        self.assertEqual(dumps(Pairs((("b", 1), ("a", (2, None))))), '{"b": 1, "a": [2, null]}')

    def test_only_the_escapes_json_needs(self):
        self.assertEqual(dumps("\u00e9\t\r\n\"\\\x01\x1f"), '"\u00e9\\t\\r\\n\\"\\\\\\u0001\\u001f"')
        self.assertEqual(dumps_py("\u00e9\t\r\n\"\\\x01\x1f"), '"\u00e9\\t\\r\\n\\"\\\\\\u0001\\u001f"')

    def test_floats_and_other_types_are_refused(self):
        for v in (1.5, [0.0], {"a": 1e3}, Pairs((("x", 2.0),)), b"x", object()):
            for f in (dumps, dumps_py):
                with self.assertRaises(ValueError):
                    f(v)
        with self.assertRaises(ValueError):
            dumps_event("x", 0, (("a", 1.0),))

    def test_a_key_twice_is_written_twice_by_both(self):
        v = Pairs((("a", 1), ("a", 2)))
        self.assertEqual(dumps(v), '{"a": 1, "a": 2}')
        self.assertEqual(dumps_event("e", 5, (("t", 1),)), '{"ev": "e", "t": 5, "t": 1}')

    def test_a_games_outputs(self):
        out = played()
        kinds = [o[0] for o in out]
        for k in ("placed", "stand", "battle", "capture", "turn", "reject"):
            self.assertIn(k, kinds)
        for o in out:
            line = encode_json(o)
            self.assertEqual(line, dumps_py(Pairs((("ev", o[0]), ("t", o[1])) + tuple(o[2]))))
            self.assertEqual(line, dumps_event(o[0], o[1], o[2]))
            back = json.loads(line)
            self.assertEqual(back["ev"], o[0])
            self.assertEqual(back["t"], o[1])
            self.assertEqual(sorted(back), sorted(["ev", "t"] + [k for k, _ in o[2]]))

    def test_which_writer_this_interpreter_takes(self):
        # micropython's json.dumps keeps non-ASCII as it is; CPython's
        # escapes it, so CPython takes the Python writer
        self.assertEqual(jsonw._C, json.dumps("\u00e9") == '"\u00e9"')


class AsCPythonWrites(unittest.TestCase):
    """Under CPython: the Python writer is json.dumps with sorted dicts and
    ensure_ascii=False, except for the escapes of \\b and \\f (written as
    micropython writes them: \\u0008, \\u000c)."""

    def test_against_json_dumps(self):
        try:
            json.dumps("x", ensure_ascii=False)
        except TypeError:       # micropython: no such argument
            return
        for v in VALUES:
            if isinstance(v, Pairs) or (type(v) is dict and any(type(k) is not str for k in v)):
                continue
            want = json.dumps(v, ensure_ascii=False, sort_keys=True)
            want = want.replace("\\b", "\\u0008").replace("\\f", "\\u000c")
            self.assertEqual(dumps_py(v), want, repr(v))


if __name__ == "__main__":
    unittest.main()
