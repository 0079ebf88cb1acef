"""The firmware's event-log reader, under CPython and MicroPython."""
try:
    import unittest
except ImportError:  # MicroPython
    import mpunit as unittest

from store import eventlog

HDR = ('{"bakumat": "events", "version": 1, "mode": "official", "players": ['
       '{"name": "A", "bakugan": [{"id": "a1", "attr": "pyrus", "g": 400}], "gates": [{"id": "ga"}], '
       '"abilities": [{"id": "c", "effect": {"g": 10}}]}, '
       '{"name": "B", "bakugan": [{"id": "b1", "attr": "haos", "g": 300}], "gates": [{"id": "gb"}]}]}\n')


def lines(*rest):
    return [HDR] + [x + "\n" for x in rest]


def error(ls):
    try:
        for _ in eventlog.iter_log(ls):
            pass
    except eventlog.LogError as e:
        return str(e)
    return None


class EventLogReader(unittest.TestCase):
    def test_good_log_replays(self):
        out = []
        g = eventlog.replay(lines('{"t": 0, "ev": "gate", "player": 0, "gate": "ga", "zone": 1}',
                                  '{"t": 5, "ev": "gate", "player": 1, "gate": "gb", "zone": 2}',
                                  '{"t": 9, "ev": "land", "zone": 2, "bakugan": "a1"}',
                                  '{"t": 12, "ev": "land", "zone": 2, "bakugan": "b1"}',
                                  '{"t": 13, "ev": "ability", "player": 0, "card": "c"}'), out.append)
        self.assertEqual(g.captured, [["gb"], []])
        self.assertEqual(out[-1][0], "end")

    def test_undo_in_a_log_takes_back_the_last_event(self):
        out = []
        j = eventlog.replay(lines('{"t": 0, "ev": "gate", "player": 0, "gate": "ga", "zone": 1}',
                                  '{"t": 5, "ev": "gate", "player": 1, "gate": "gb", "zone": 2}',
                                  '{"t": 9, "ev": "land", "zone": 2, "bakugan": "a1", "by": "infer"}',
                                  '{"t": 10, "ev": "undo"}',
                                  '{"t": 11, "ev": "land", "zone": 1, "bakugan": "a1"}'), out.append)
        self.assertEqual(j.game.loc["a1"], 1)
        self.assertIn("undo", [o[0] for o in out])
        self.assertEqual([e["t"] for e in j.events], [0, 5, 11])

    def test_errors_name_the_line(self):
        self.assertEqual(error(lines('{"t": 1, "ev": "land", "zone": 1}')), "line 2: land event: missing field 'bakugan'")
        self.assertEqual(error(lines('{"t": 1, "ev": "miss", "bakugan": "zz"}')), "line 2: miss event: unknown Bakugan 'zz'")
        self.assertEqual(error(lines('{"t": 9, "ev": "resolve"}', '{"t": 3, "ev": "resolve"}')),
                         "line 3: time goes backwards: t=3 after t=9")
        self.assertEqual(error(lines('[1, 2]')), "line 2: expected a JSON object")
        self.assertEqual(error(lines('{"t": 1.5, "ev": "resolve"}')),
                         "line 2: 't' must be a non-negative integer of milliseconds, got 1.5")
        self.assertEqual(error([HDR, '{"t": 1, "ev": "res']), "line 2: truncated last line: the log ends in the middle of a record")
        self.assertEqual(error([HDR, '{"t": 1, "ev": "res\n', '{"t": 2, "ev": "resolve"}\n']), "line 2: not valid JSON")
        self.assertEqual(error(lines('{"t": 1, "ev": "ability", "player": 1, "card": "c"}')),
                         "line 2: ability event: player 1 has no ability card 'c'")

    def test_newer_version_refused(self):
        msg = error([HDR.replace('"version": 1', '"version": 9')])
        self.assertIn("version 9 is newer than this reader", msg)


if __name__ == "__main__":
    unittest.main()
