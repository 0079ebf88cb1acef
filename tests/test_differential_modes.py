"""CPython and the real MicroPython interpreter replay the same generated
games of every Chinese variant mode (30+ each) to byte-identical NDJSON."""
import io

import referee
from host_tools import mpscripts
from host_tools.gen import gamegen_cn
from host_tools.commands.replay import replay_events
from mptools import FIRMWARE, micropython

N_GAMES = 32
MODES = [m for m in gamegen_cn.MODES if m in referee.MODES]


def test_modes_replay_byte_identical_on_cpython_and_micropython(tmp_path):
    paths = []
    expected = io.StringIO()
    per_mode = {}
    for mode in MODES:
        start = expected.tell()
        for seed in range(N_GAMES):
            hdr, evs = gamegen_cn.random_game(seed, mode)
            p = tmp_path / ("%s-%03d.ndjson" % (mode, seed))
            text = gamegen_cn.gamegen.to_lines(hdr, evs)
            p.write_text(text)
            paths.append(str(p))
            expected.write("== %s\n" % p)
            replay_events(text.splitlines(keepends=True), str(p), True, expected)
        per_mode[mode] = expected.getvalue()[start:]
    r = micropython([mpscripts.path("replay_logs.py"), FIRMWARE] + paths)
    assert r.returncode == 0, r.stderr[-2000:]
    exp = expected.getvalue()
    # Sanity: each mode's corpus really is played (battles, rejects, ends).
    for mode, text in per_mode.items():
        assert text.count('"ev": "win"') + text.count('"ev": "stalemate"') >= N_GAMES * 3 // 4, mode
        assert text.count('"ev": "reject"') >= 5, mode
        if mode != "snooker":
            assert text.count('"ev": "battle"') >= N_GAMES, mode
    if r.stdout != exp:
        a, b = r.stdout.splitlines(), exp.splitlines()
        for i, (x, y) in enumerate(zip(a, b)):
            assert x == y, "first difference at output line %d" % (i + 1)
        assert len(a) == len(b)
    assert r.stdout.encode() == exp.encode()


def test_samples_play_to_a_winner_on_both_interpreters():
    import os
    from host_tools import fwpath
    from host_tools.gen import gamegen
    paths = []
    expected = io.StringIO()
    for mode in MODES:
        path = os.path.join(fwpath.REPO_DIR, "host_tools", "samples", mode + ".ndjson")
        with open(path) as f:
            lines = f.read().splitlines(keepends=True)
        expected.write("== %s\n" % path)
        g = replay_events(lines, path, True, expected)
        assert g.MODE == mode and g.winner is not None, mode
        paths.append(path)
        # the generic entry point reaches this mode's generator too
        hdr, evs = gamegen.random_game(3, mode=mode)
        assert hdr["mode"] == mode and evs
    r = micropython([mpscripts.path("replay_logs.py"), FIRMWARE] + paths)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout == expected.getvalue()
