"""Raw log v1: round trip and every bad-input error, naming the line."""
import io
import json
import os
import subprocess
import sys

import pytest

from host_tools import boards, fwpath, sim
from host_tools.boards import kernels
from host_tools.logs import rawlog
from host_tools.errors import UserError

SAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                      "host_tools", "samples", "official.ndjson")


def game_header():
    with open(SAMPLE, encoding="utf-8") as f:
        h = json.loads(f.readline())
    return {k: h[k] for k in ("mode", "first", "target", "players")}


@pytest.fixture(scope="module")
def board():
    return boards.load(boards.REFERENCE)


@pytest.fixture(scope="module")
def good_lines(board):
    sc = sim.parse_scenario("""
        gate 0 dan-gold on zone 4 at 0.2s
        register drago on zone 4 at 0.4s
        place drago on zone 4 at 0.8s
        remove drago at 1.2s
        miss drago at 1.5s
    """)
    res = sim.run(board, sc, seed=3)
    return res, res.raw_lines(game_header())


def read(lines):
    return rawlog.read_lines(io.StringIO("".join(ln + "\n" for ln in lines)))


def err(lines, raw_text=None):
    src = io.StringIO(raw_text if raw_text is not None else "".join(ln + "\n" for ln in lines))
    with pytest.raises(rawlog.RawLogError) as e:
        rawlog.read_lines(src)
    return e.value


def test_round_trip(good_lines):
    res, lines = good_lines
    log = read(lines)
    assert log.header["bakumat"] == "raw" and log.header["version"] == 1
    assert log.header["board"] == boards.REFERENCE and log.header["rate_hz"] == 50
    assert log.header["players"] == game_header()["players"]
    assert log.frames == [(t, v) for t, v in res.frames]
    assert log.controls == res.controls
    assert [c["ev"] for c in log.controls] == ["gate", "register", "miss"]


def test_write_and_read_file(tmp_path, good_lines, board):
    res, _ = good_lines
    p = tmp_path / "g.ndjson"
    rawlog.write(str(p), rawlog.make_header(board, game_header()), res.frames, res.controls)
    log = rawlog.read(str(p))
    assert len(log.frames) == len(res.frames)
    assert log.controls == res.controls


def test_control_before_frames_of_same_ms(good_lines):
    _, lines = good_lines
    i = next(i for i, ln in enumerate(lines) if '"ev":"gate"' in ln)
    assert json.loads(lines[i])["t"] == 200
    assert json.loads(lines[i + 1])["t"] == 200 and "v" in json.loads(lines[i + 1])
    assert json.loads(lines[i - 1])["t"] == 180


def _mut(lines, idx, fn):
    out = list(lines)
    obj = json.loads(out[idx])
    fn(obj)
    out[idx] = json.dumps(obj)
    return out


def test_wrong_channel_count(good_lines):
    _, lines = good_lines
    e = err(_mut(lines, 3, lambda o: o["v"].pop()))
    assert e.line == 4 and "95 values" in str(e) and "96 channels" in str(e)


def test_value_out_of_range(good_lines):
    _, lines = good_lines
    e = err(_mut(lines, 2, lambda o: o["v"].__setitem__(17, 65536)))
    assert e.line == 3 and "channel 17" in str(e) and "0..65535" in str(e)
    e = err(_mut(lines, 2, lambda o: o["v"].__setitem__(0, -1)))
    assert e.line == 3 and "out of range" in str(e)
    e = err(_mut(lines, 2, lambda o: o["v"].__setitem__(5, 12.5)))
    assert "integer" in str(e)


def test_time_goes_backwards(good_lines):
    _, lines = good_lines
    e = err(_mut(lines, 5, lambda o: o.__setitem__("t", 0)))
    assert e.line == 6 and "backwards" in str(e)
    e = err(_mut(lines, 5, lambda o: o.pop("t")))
    assert e.line == 6 and "'t'" in str(e)


def test_bad_json_and_truncated_last_line(good_lines):
    _, lines = good_lines
    bad = list(lines)
    bad[4] = bad[4][:-7]
    e = err(bad)
    assert e.line == 5 and "not valid JSON" in str(e)
    text = "".join(ln + "\n" for ln in lines[:10]) + lines[10][:30]
    e = err(None, text)
    assert e.line == 11 and "truncated last line" in str(e)
    # a complete last line without its newline is fine
    log = rawlog.read_lines(io.StringIO("".join(ln + "\n" for ln in lines[:10]) + lines[10]))
    assert len(log.frames) >= 8


def test_header_errors(good_lines):
    _, lines = good_lines
    e = err(_mut(lines, 0, lambda o: o.__setitem__("version", 2)))
    assert e.line == 1 and "newer" in str(e) and "version 2" in str(e)
    e = err(_mut(lines, 0, lambda o: o.__setitem__("bakumat", "events")))
    assert "not a BakuMat raw log" in str(e)
    e = err(_mut(lines, 0, lambda o: o.pop("board")))
    assert "board" in str(e)
    e = err(_mut(lines, 0, lambda o: o.__setitem__("board", "no-such-board")))
    assert "no-such-board" in str(e)
    e = err(_mut(lines, 0, lambda o: o.pop("rate_hz")))
    assert "rate_hz" in str(e)
    e = err(_mut(lines, 0, lambda o: o.__setitem__("channels", 95)))
    assert "channels" in str(e)
    e = err(_mut(lines, 0, lambda o: o["players"][1]["gates"][0]["bonus"].__setitem__("fire", 10)))
    assert e.line == 1 and "players[1].gates[0].bonus" in str(e)
    e = err(_mut(lines, 0, lambda o: o["players"][0].pop("bakugan")))
    assert "players[0]" in str(e) and "bakugan" in str(e)


def test_event_errors(good_lines):
    _, lines = good_lines
    i = next(i for i, ln in enumerate(lines) if '"ev":"register"' in ln)
    e = err(_mut(lines, i, lambda o: o.pop("zone")))
    assert e.line == i + 1 and "register" in str(e) and "zone" in str(e)
    e = err(_mut(lines, i, lambda o: o.__setitem__("bakugan", "nobody")))
    assert "nobody" in str(e)
    e = err(_mut(lines, i, lambda o: o.__setitem__("ev", "land")))
    assert e.line == i + 1 and "land" in str(e) and "pipeline" in str(e)
    e = err(_mut(lines, i, lambda o: o.__setitem__("ev", "teleport")))
    assert "unknown event" in str(e)
    e = err(_mut(lines, i, lambda o: o.__setitem__("v", [])))
    assert "either a frame" in str(e)
    e = err(_mut(lines, 3, lambda o: o.pop("v")))
    assert "neither" in str(e)


def test_empty_log():
    with pytest.raises(rawlog.RawLogError) as e:
        rawlog.read_lines(io.StringIO("\n\n"))
    assert "empty log" in str(e.value)


def test_read_names_the_file(tmp_path, good_lines):
    _, lines = good_lines
    p = tmp_path / "bad.ndjson"
    p.write_text("".join(ln + "\n" for ln in _mut(lines, 3, lambda o: o["v"].pop())), encoding="utf-8")
    with pytest.raises(UserError) as e:
        rawlog.read(str(p))
    assert str(p) in str(e.value) and "line 4" in str(e.value)
    with pytest.raises(UserError) as e:
        rawlog.read(str(tmp_path / "missing.ndjson"))
    assert "missing.ndjson: no such file" in str(e.value)


def test_which_is_a_control_and_replays_as_the_players_answer(tmp_path, board):
    """`which {zone, bakugan}` (a player's answer to an unsure landing) is
    read from a raw log and replayed through Match.which: the landing the
    mat named is taken back and the one named by the player lands."""
    from host_tools.logs import rawreplay
    sc = sim.parse_scenario("""
        gate 0 dan-gold on zone 4 at 0.2s
        gate 1 runo-gold on zone 5 at 0.3s
        register drago on zone 4 at 0.4s
        place drago on zone 4 at 0.8s
        remove drago at 2.5s
        throw drago -> zone 4 at 5s
        idle 3s
    """)
    res = sim.run(board, sc, seed=3)
    lines = res.raw_lines(game_header())
    log = read(lines)
    land_t = [t for t, _ in log.frames if t > 5000][0]
    # the thrower says it was serpenoid (a wrong answer on purpose: the
    # replay must follow the player, not the sensors)
    answer = json.dumps({"t": land_t + 2000, "ev": "which", "zone": 4, "bakugan": "serpenoid"},
                        separators=(",", ":"))
    i = next(i for i, ln in enumerate(lines) if i > 0 and json.loads(ln)["t"] >= land_t + 2000)
    lines = lines[:i] + [answer] + lines[i:]
    assert [c["ev"] for c in read(lines).controls][-1] == "which"
    path = tmp_path / "which.ndjson"
    path.write_text("".join(ln + "\n" for ln in lines), encoding="utf-8")
    out = io.StringIO()
    rawreplay.replay_raw(str(path), "json", out=out)
    evs = [json.loads(x) for x in out.getvalue().splitlines()]
    stands = [e["bakugan"] for e in evs if e["ev"] == "stand"]
    assert stands == ["drago", "serpenoid"], evs
    assert any(e["ev"] == "undo" for e in evs)
    # and a bad answer names its line
    bad = lines[:i] + [answer.replace('"zone":4', '"zone":"4"')] + lines[i:]
    e = err(bad)
    assert e.line == i + 1 and "zone" in str(e)


def test_baseline_header_errors(good_lines):
    _, lines = good_lines
    base = {"frames": 3, "v": [32768 << 12] * 96}
    assert read(_mut(lines, 0, lambda o: o.__setitem__("baseline", base))).header["baseline"] == base
    e = err(_mut(lines, 0, lambda o: o.__setitem__("baseline", [1, 2])))
    assert e.line == 1 and "baseline" in str(e) and "object" in str(e)
    e = err(_mut(lines, 0, lambda o: o.__setitem__("baseline", dict(base, frames=0))))
    assert "baseline.frames" in str(e)
    e = err(_mut(lines, 0, lambda o: o.__setitem__("baseline", dict(base, v=base["v"][:95]))))
    assert "baseline.v" in str(e) and "96 integers" in str(e) and "95 values" in str(e)
    e = err(_mut(lines, 0, lambda o: o.__setitem__("baseline", dict(base, v=base["v"][:17] + [65536 << 12] + base["v"][18:]))))
    assert "channel 17" in str(e) and "0..%d" % (65535 << 12) in str(e)


def _recorded_late(board, seed, k):
    """A simulated game sensed live from its first frame, and its raw log
    as a recording that began k frames later (as `bakumat record` does:
    `cfg`, then `raw on`): (the live sensed events, the log's lines, the
    pipeline's baselines when the recording began)."""
    fwpath.ensure()
    from match import Match
    from referee.journal import Journal
    sc = sim.parse_scenario("""
        gate 0 dan-gold on zone 4 at 0.2s
        gate 1 runo-gold on zone 5 at 0.3s
        throw drago -> zone 4 at 2s
        throw tigrerra -> zone 4 at 4s
        throw serpenoid -> zone 5 at 6s
        idle 2s
    """)
    res = sim.run(board, sc, seed=seed)
    start = res.frames[k][0]
    live = []
    b = kernels.for_board(board)      # as the board senses: the kernel table of its nominal world
    b["rate_hz"] = 50
    from host_tools.logs.rawreplay import board_params
    m = Match(b, Journal(game_header(), None), live.append, params=board_params())   # as the board's game
    snap = None
    ctl = list(res.controls)
    assert ctl and ctl[0]["t"] > start
    for i, (t, v) in enumerate(res.frames):
        if i == k:
            snap = m.pipeline.baselines()
        while ctl and ctl[0]["t"] <= t:      # as a replay does: before the frames of its ms
            m.control(dict(ctl.pop(0)))
        m.frame(v, t)
    assert len([e for e in live if e["ev"] == "land"]) == 3, live
    lines = list(res.raw_lines(game_header()))
    body = [ln for ln in lines[1:] if json.loads(ln)["t"] >= start]
    return [e for e in live if e["ev"] in ("land", "leave", "fault")], [lines[0]] + body, snap


def test_replay_resumes_from_the_recordings_baseline(tmp_path, board):
    """With the header's `baseline` the replay senses on the very frames the
    board did: the live events, seed by seed."""
    from host_tools.logs import rawreplay

    def replay(lines):
        path = tmp_path / "rec.ndjson"
        path.write_text("".join(ln + "\n" for ln in lines), encoding="utf-8")
        out = io.StringIO()
        rawreplay.replay_raw(str(path), "sensed", out=out)
        return [e for e in (json.loads(x) for x in out.getvalue().splitlines()) if e["ev"] in ("land", "leave", "fault")]

    for seed in range(1, 9):
        live, lines, snap = _recorded_late(board, seed, 3)
        assert snap[0] == 3
        head = json.loads(lines[0])
        head["baseline"] = {"frames": snap[0], "v": snap[1]}
        assert replay([json.dumps(head)] + lines[1:]) == live, seed


def test_signatures_header_errors(good_lines):
    _, lines = good_lines
    sigs = {"drago": 61.5, "tigrerra": -24}
    assert read(_mut(lines, 0, lambda o: o.__setitem__("signatures", sigs))).header["signatures"] == sigs
    e = err(_mut(lines, 0, lambda o: o.__setitem__("signatures", [1, 2])))
    assert e.line == 1 and "signatures" in str(e) and "object" in str(e)
    e = err(_mut(lines, 0, lambda o: o.__setitem__("signatures", {"drago": "x"})))
    assert e.line == 1 and '"drago": expected a number, got "x"' in str(e)


def test_replay_starts_knowing_the_headers_signatures(tmp_path, board):
    """What the board learnt before a recording (header `signatures`) is
    what the replay identifies by: the same log names the landings
    differently with and without them."""
    from host_tools.logs import rawreplay
    fwpath.ensure()
    from match import Match
    from referee.journal import Journal
    sc = sim.parse_scenario("""
        bakugan drago moment 0.05 polarity down
        bakugan saurus moment 0.02 polarity down
        bakugan serpenoid moment 0.03 polarity up
        register drago on zone 3 at 0.3s
        card on zone 3 at 0.4s
        place drago on zone 3 at 0.8s
        remove zone 3 at 3.5s
        register saurus on zone 3 at 4.5s
        place saurus on zone 3 at 5s
        remove zone 3 at 8s
        register serpenoid on zone 3 at 9s
        place serpenoid on zone 3 at 9.5s
        remove zone 3 at 12.5s
        idle 1s
    """)
    res = sim.run(board, sc, seed=1)
    b = kernels.for_board(board)      # as the board senses: the kernel table of its nominal world
    b["rate_hz"] = 50
    m = Match(b, Journal(game_header(), None))
    ctl = list(res.controls)
    for t, v in res.frames:
        while ctl and ctl[0]["t"] <= t:
            m.control(dict(ctl.pop(0)))
        m.frame(v, t)
    learnt = m.pipeline.signatures()
    assert set(learnt) == {"drago", "saurus", "serpenoid"}
    # a game recorded after the lessons: drago lands on zone 4
    sc = sim.parse_scenario("""
        bakugan drago moment 0.05 polarity down
        bakugan saurus moment 0.02 polarity down
        bakugan serpenoid moment 0.03 polarity up
        gate 0 dan-gold on zone 4 at 0.2s
        gate 1 runo-gold on zone 5 at 0.3s
        throw drago -> zone 4 at 2s
        idle 2s
    """)
    lines = list(sim.run(board, sc, seed=2).raw_lines(game_header()))

    def replay(head):
        path = tmp_path / "rec.ndjson"
        path.write_text("".join(ln + "\n" for ln in [json.dumps(head)] + lines[1:]), encoding="utf-8")
        out = io.StringIO()
        rawreplay.replay_raw(str(path), "sensed", out=out)
        return [e for e in (json.loads(x) for x in out.getvalue().splitlines()) if e["ev"] in ("land", "leave", "fault")]
    head = json.loads(lines[0])
    assert "signatures" not in head
    with_sigs = replay(dict(head, signatures=learnt))
    lands = [e for e in with_sigs if e["ev"] == "land"]
    assert [(e["zone"], e["bakugan"]) for e in lands] == [(4, "drago")]
    # taught the other way round, the same frames read as the other Bakugan
    swapped = dict(learnt, drago=learnt["saurus"], saurus=learnt["drago"])
    lands = [e for e in replay(dict(head, signatures=swapped)) if e["ev"] == "land"]
    assert [(e["zone"], e["bakugan"]) for e in lands] == [(4, "saurus")]


def test_a_kernel_mat_log_says_which_table_its_detector_fitted(monkeypatch):
    """A raw log of the amr2 mat carries the world of the board's kernel
    table (`kernel_world`); reading it gives the board with that table, so a
    replay fits the model the board fitted. A log without the field (older)
    gets the mat's nominal world's; an unknown or assumed-physics world is
    refused in one line naming the field."""
    monkeypatch.delenv("BAKUMAT_WORLD", raising=False)
    amr2 = boards.load("amr2")
    b = kernels.for_board(amr2, "mu1000-t0.2")
    res = sim.run(b, sim.parse_scenario("card on zone 4 at 0.2s\nplace drago on zone 4 at 0.5s\nremove drago at 1s\n"), seed=3)
    lines = res.raw_lines(game_header())
    assert json.loads(lines[0])["kernel_world"] == "mu1000-t0.2"
    log = read(lines)
    assert log.board["kernels"]["world"] == "mu1000-t0.2"
    assert log.board["kernels"]["k"] == b["kernels"]["k"]
    old = json.loads(lines[0])
    del old["kernel_world"]
    assert read([json.dumps(old)] + lines[1:]).board["kernels"]["world"] == "mu300-t0.2"
    for bad in ("mu7", "capture", 3):
        h = dict(old, kernel_world=bad)
        e = err([json.dumps(h)] + lines[1:])
        assert e.line == 1 and "kernel_world" in str(e) and "mu300-t0.2" in str(e), str(e)
    # a log of the retired Hall mat: refused in one line (the firmware has no detector for it)
    hall = rawlog.make_header(boards.load("reference"), game_header())
    e = err([json.dumps(hall)] + lines[1:])
    assert e.line == 1 and "board 'reference' is retired" in str(e) and "no detector" in str(e), str(e)
