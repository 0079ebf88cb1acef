"""A game recorded from the virtual board replays to the very events the
board gave: what the board learnt before (a lesson taught with `register`
before the recording), lessons and answers during it, and its calibration
travel in the raw log (docs/formats/raw-log-v1.md), so `bakumat replay`
decides as the board did. `record --events` writes an event log that
`replay` accepts."""
import json
import signal
import subprocess
import time

import pytest

from host_tools import boards
from host_tools.logs import boardstate
from host_tools.commands.game import sample_header
from host_tools.device.link import codec, open_link
from host_tools.vboard import Live, VBoard
from mptools import tool

BOARD = boards.REFERENCE
AMR2 = "esp32s3_devkitc1_amr2"


def board_def(name=BOARD):
    """The board as the virtual board runs it: the amr2 reference board with
    the kernel table of its nominal world (as `bakumat vboard` installs it)."""
    from host_tools.boards import kernels
    b = kernels.for_board(boards.load(name))
    b["wiring"]["tx_budget"] = 1024     # the raw stream needs it (see test_board_e2e.board_def)
    return b


def header():
    h = sample_header("official")
    return {"bakumat": "events", "version": 1, "mode": "official", "first": 0, "target": 3,
            "players": h["players"]}


def bakumat(*args, timeout=120):
    return subprocess.run([tool("bakumat")] + list(args), capture_output=True, text=True, timeout=timeout)


class Sent:
    """What the board sent on its serial port since `mark` (from the virtual
    board's console: every link frame it printed), decoded."""

    def __init__(self, vb, mark=0):
        self.vb = vb
        self.mark = mark

    def frames(self):
        out = []
        dec = codec.Decoder(lambda seq, typ, body: out.append((typ, body)), lambda *a: None, max_len=1 << 20)
        start = self.mark - self.vb.console_dropped
        assert start >= 0, "the virtual board's console let go of what was sent since the mark"
        dec.feed(bytes(self.vb.console[start:]))
        return out

    def wait(self, typ, pred, timeout=30, what=""):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for t, body in self.frames():
                if t == typ and pred(body):
                    return body
            time.sleep(0.05)
        tail = bytes(self.vb.console[-2000:]).decode("utf-8", "replace")
        raise AssertionError("the board never sent %s %s; it sent %s; its console ends: %s"
                             % (typ, what, [f for f in self.frames() if f[0] != "frame"][-20:], tail))


def diff(board, replay):
    text = ["board:"] + [json.dumps(e, sort_keys=True) for e in board]
    text += ["replay:"] + [json.dumps(e, sort_keys=True) for e in replay]
    return "\n".join(text)


def _vboard(tmp_path, name):
    work = tmp_path / "board"
    work.mkdir()
    v = VBoard(board_def(name), paced=True, workdir=str(work))
    v.start()
    return v


@pytest.fixture(params=[BOARD, AMR2])
def vb(tmp_path, request):
    """The Hall board and the reference board (sensed with the kernel fit;
    its raw log names the table's world, so the replay fits the same)."""
    v = _vboard(tmp_path, request.param)
    yield v
    v.stop()


def test_a_recorded_game_with_lessons_replays_as_the_board_decided(vb, tmp_path):
    live = Live(vb)
    sent = Sent(vb)
    # a lesson before the recording: drago taught on zone 3 (kept by the board)
    with open_link(vb.url) as link:
        assert link.request("cfg", header(), timeout=10)[1]["ok"]
        assert link.request("ctl", {"ev": "register", "bakugan": "drago", "zone": 3}, timeout=10)[1]["ok"]
    live.add("card on zone 3")
    live.add("place drago on zone 3")
    sent.wait("mat", lambda b: b.get("learned") and b.get("bakugan") == "drago", what="drago learnt")
    live.add("remove zone 3")
    live.add("card off zone 3")
    sent.wait("mat", lambda b: b.get("ev") == "leave" and b.get("zone") == 3, what="drago lifted")
    assert "drago" in boardstate.signatures(vb.workdir)      # kept by the board (sig/)
    # the recording: a new game (the board keeps what it learnt)
    game = tmp_path / "game.json"
    game.write_text(json.dumps(header()))
    raw = tmp_path / "game.raw.ndjson"
    events = tmp_path / "game.events.ndjson"
    mark = len(vb.console)
    rec = subprocess.Popen([tool("bakumat"), "record", str(raw), "--port", vb.url, "--game", str(game),
                            "--events", str(events), "--seconds", "40"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    s = Sent(vb, mark)
    try:
        s.wait("frame", lambda b: True, what="raw frames")
        live.add("gate 0 dan-gold on zone 6")
        live.add("gate 1 runo-gold on zone 5")
        s.wait("game", lambda b: b.get("ev") == "placed" and b.get("zone") == 5)
        # a lesson during the game, from a player (as the phone's teach box does)
        live.add("register tigrerra on zone 9")
        live.add("card on zone 9")
        live.add("place tigrerra on zone 9")
        s.wait("mat", lambda b: b.get("learned") and b.get("bakugan") == "tigrerra", what="tigrerra learnt")
        live.add("remove zone 9")
        live.add("card off zone 9")
        s.wait("mat", lambda b: b.get("ev") == "leave" and b.get("zone") == 9, what="tigrerra lifted")
        live.add("throw drago -> zone 5")
        s.wait("game", lambda b: b.get("ev") == "stand" and b.get("zone") == 5)
        live.add("throw tigrerra -> zone 6")
        s.wait("game", lambda b: b.get("ev") == "stand" and b.get("zone") == 6)
        live.add("throw serpenoid -> zone 6")
        s.wait("game", lambda b: b.get("ev") == "clash", what="a clash")
        live.add("resolve")
        s.wait("game", lambda b: b.get("ev") == "battle", what="the battle")
        time.sleep(1.0)
    finally:
        rec.send_signal(signal.SIGINT)      # Ctrl-C: the recording stops, the log stays valid
        out, err = rec.communicate(timeout=60)
    assert "recorded" in err, err
    live_frames = s.frames()
    t_end = max(b["t"] for t, b in live_frames if t == "frame")
    board_sensed = [b for t, b in live_frames if t == "mat" and b.get("t", 0) <= t_end]
    board_game = [b for t, b in live_frames if t == "game" and b.get("t", 0) <= t_end]
    assert any(b.get("learned") for b in board_sensed)
    # replayed: the same sensed events, the same referee events
    r = bakumat("replay", "--sensed", str(raw))
    assert r.returncode == 0, r.stderr
    replay_sensed = [json.loads(x) for x in r.stdout.splitlines()]
    assert replay_sensed == board_sensed, diff(board_sensed, replay_sensed)
    r = bakumat("replay", "--json", str(raw))
    assert r.returncode == 0, r.stderr
    replay_game = [json.loads(x) for x in r.stdout.splitlines()]
    assert replay_game[:len(board_game)] == board_game, diff(board_game, replay_game)
    assert [e["ev"] for e in replay_game[len(board_game):]] == ["end"]     # the replay closes the game
    # --events: an event log that replays to the same referee events
    r = bakumat("replay", "--json", str(events))
    assert r.returncode == 0, r.stderr
    from_log = [json.loads(x) for x in r.stdout.splitlines()]
    # (the event log ends with its last event, the raw log with its last
    # frame; it keeps the accepted inputs, as a saved game does, so an input
    # the referee refused has no line to replay its `reject` from)
    kept = [e for e in replay_game if e["ev"] != "reject"]
    assert from_log[:-1] == kept[:-1], diff(kept, from_log)
    assert dict(from_log[-1], t=0) == dict(replay_game[-1], t=0)
    assert "event log (" in err


def test_a_recording_stopped_with_kill_keeps_a_valid_log(vb, tmp_path):
    """`kill` (SIGTERM) ends a bare `bakumat record` as Ctrl-C does: the
    board back to its line speed, the log whole and replayable."""
    raw = tmp_path / "bare.raw.ndjson"
    with open_link(vb.url) as link:
        assert link.request("cfg", header(), timeout=10)[1]["ok"]
    mark = len(vb.console)
    rec = subprocess.Popen([tool("bakumat"), "record", str(raw), "--port", vb.url],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    s = Sent(vb, mark)
    try:
        s.wait("frame", lambda b: True, what="raw frames")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (not raw.exists() or raw.stat().st_size < 4096):
            time.sleep(0.05)
    finally:
        rec.send_signal(signal.SIGTERM)
        out, err = rec.communicate(timeout=60)
    assert rec.returncode == 0, err
    assert "recorded" in err and "Traceback" not in err, err
    lines = raw.read_text().splitlines()
    assert json.loads(lines[0])["bakumat"] == "raw" and len(lines) > 10
    # the reference board says which kernel table its detector fits (the raw ack)
    want = "mu300-t0.2" if vb.board.get("nominal_world") else None      # a mat of computed physics fits its table
    assert json.loads(lines[0]).get("kernel_world") == want
    r = bakumat("replay", "--sensed", str(raw))
    assert r.returncode == 0, r.stderr
