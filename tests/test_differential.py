"""CPython and the real MicroPython interpreter replay the same 200+
generated games to byte-identical NDJSON."""
import io
import os

from host_tools import mpscripts
from host_tools.gen import gamegen
from host_tools.commands.replay import replay_events
from mptools import FIRMWARE, micropython

N_GAMES = 220


def test_cpython_and_micropython_transcripts_are_byte_identical(tmp_path):
    paths = []
    expected = io.StringIO()
    for seed in range(N_GAMES):
        hdr, evs = gamegen.random_game(seed)
        p = tmp_path / ("g%03d.ndjson" % seed)
        text = gamegen.to_lines(hdr, evs)
        p.write_text(text)
        paths.append(str(p))
        expected.write("== %s\n" % p)
        replay_events(text.splitlines(keepends=True), str(p), True, expected)
    r = micropython([mpscripts.path("replay_logs.py"), FIRMWARE] + paths)
    assert r.returncode == 0, r.stderr[-2000:]
    exp = expected.getvalue()
    # Sanity: the corpus really contains battles, captures, rejects and wins.
    for kind in ('"ev": "battle"', '"ev": "capture"', '"ev": "reject"', '"ev": "win"', '"ev": "ability"'):
        assert exp.count(kind) >= 20, kind
    if r.stdout != exp:
        a, b = r.stdout.splitlines(), exp.splitlines()
        for i, (x, y) in enumerate(zip(a, b)):
            assert x == y, "first difference at output line %d" % (i + 1)
        assert len(a) == len(b)
    assert r.stdout.encode() == exp.encode()
