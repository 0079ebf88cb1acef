"""CPython and the real MicroPython interpreter replay the same generated
games of the official extras modes (big, multi, the extra rules) to
byte-identical NDJSON: at least 30 games per mode."""
import io

import pytest

from host_tools import mpscripts
from host_tools.gen import gamegen_official
from host_tools.commands.replay import replay_events
from mptools import FIRMWARE, micropython

N_GAMES = 40  # official+x: enough short games for 10+ gear events
MODES = sorted(gamegen_official.SPECS)


@pytest.mark.parametrize("mode", MODES)
def test_cpython_and_micropython_transcripts_are_byte_identical(tmp_path, mode):
    paths = []
    expected = io.StringIO()
    winners = 0
    for seed in range(N_GAMES):
        hdr, evs = gamegen_official.random_game(seed, mode)
        p = tmp_path / ("%s%03d.ndjson" % (mode, seed))
        text = gamegen_official.gamegen.to_lines(hdr, evs)
        p.write_text(text)
        paths.append(str(p))
        expected.write("== %s\n" % p)
        g = replay_events(text.splitlines(keepends=True), str(p), True, expected)
        winners += g.winner is not None
    r = micropython([mpscripts.path("replay_logs.py"), FIRMWARE] + paths)
    assert r.returncode == 0, r.stderr[-2000:]
    exp = expected.getvalue()
    assert winners >= N_GAMES * 3 // 4, winners
    for kind in gamegen_official.EXPECTED_KINDS[mode]:
        assert exp.count('"ev": "%s"' % kind) >= 10, kind
    if r.stdout != exp:
        a, b = r.stdout.splitlines(), exp.splitlines()
        for i, (x, y) in enumerate(zip(a, b)):
            assert x == y, "first difference at output line %d" % (i + 1)
        assert len(a) == len(b)
    assert r.stdout.encode() == exp.encode()


SAMPLES = ("big", "multi", "official-extras")


@pytest.mark.parametrize("mode", SAMPLES)
def test_sample_plays_to_a_winner_on_both_interpreters(mode):
    import os
    from host_tools import fwpath
    path = os.path.join(fwpath.REPO_DIR, "host_tools", "samples", mode + ".ndjson")
    with open(path) as f:
        lines = f.read().splitlines(keepends=True)
    out = io.StringIO()
    g = replay_events(lines, path, True, out)
    assert g.MODE == mode.split("-")[0] and g.winner is not None
    r = micropython([mpscripts.path("replay_logs.py"), FIRMWARE, path])
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout == "== %s\n" % path + out.getvalue()
