"""Inferences from simulated sensor frames (docs/table-play.md): a gate
inferred from a landing, a move after a take-or-move choice, a battle
resolved after both Bakugan are lifted and the grace passes. First the
firmware's Match + Table under CPython, then the same frames through the
app on the virtual board: the board sends the same events, and its stored
game log (inferences marked "by": "infer") replays to the same game."""
import json

import pytest

from host_tools.logs import boardstate
from host_tools import boards, fwpath, sim
from host_tools.commands.game import sample_header
from host_tools.vboard import VBoard, with_kernels

fwpath.ensure()
from match import Match  # noqa: E402
from referee.events import encode_json  # noqa: E402
from referee.journal import Journal  # noqa: E402
from store import eventlog  # noqa: E402
from table import controller  # noqa: E402
from table.controller import Table  # noqa: E402

BOARD = boards.REFERENCE

# No gate control for zone 4: the card is simply put there and Drago opens
# on it. Serpenoid joins Drago (a take-or-move choice), is picked up and
# opened on zone 6: a move. Falconeer attacks it there; both are lifted and
# nobody presses anything.
GAME = """gate 0 dan-gold on zone 6 at 0.5s
gate 1 runo-gold on zone 5 at 1s
card on zone 4 at 1.5s
throw drago -> zone 4 at 2s
throw tigrerra -> zone 5 at 4s
throw serpenoid -> zone 4 at 6s
remove serpenoid at 8s
place serpenoid on zone 6 at 9s
throw falconeer -> zone 6 at 11s
remove zone 6 at 13s
idle 8s
"""


def game_header():
    h = sample_header("official")
    return {"bakumat": "events", "version": 1, "mode": "official", "first": 0, "target": 3,
            "players": h["players"]}


@pytest.fixture(scope="module")
def played():
    board = with_kernels(boards.load(BOARD))   # the detector on its kernel table, as deploy installs it
    header = game_header()
    res = sim.run(board, sim.scenario.parse(GAME), seed=1, header=header)
    out, logged, leaves = [], [], []
    table = Table(Journal(header, lambda o: out.append(json.loads(encode_json(o)))), logged.append)

    def sensed(ev):
        if ev["ev"] == "leave":
            leaves.append(ev)
        table.sensed(ev)
    m = Match(board, table, sensed)
    ci = 0
    for t, fr in res.frames:
        while ci < len(res.controls) and res.controls[ci]["t"] <= t:
            m.control(dict(res.controls[ci]))
            ci += 1
        m.frame(fr, t)
        table.tick(t)
    return board, header, res, out, logged, leaves


def test_gate_inferred_from_a_landing(played):
    _b, _h, _r, out, logged, _l = played
    i = logged.index({"t": logged[2]["t"], "ev": "gate", "player": 0, "gate": "dan-silver", "zone": 4, "by": "infer"})
    assert logged[i + 1] == {"t": logged[i]["t"], "ev": "land", "zone": 4, "bakugan": "drago"}
    assert {"ev": "placed", "t": logged[i]["t"], "player": 0, "gate": "dan-silver", "zone": 4} in out


def test_move_inferred_after_a_choice(played):
    _b, _h, _r, out, logged, _l = played
    choice = [e for e in out if e["ev"] == "choice"]
    assert [(e["player"], e["zone"], e["bakugan"]) for e in choice] == [(0, 4, "serpenoid")]
    moves = [e for e in logged if e["ev"] == "choose"]
    assert moves == [{"t": moves[0]["t"], "ev": "choose", "player": 0, "action": "move", "zone": 6, "by": "infer"}]
    assert {"ev": "stand", "t": moves[0]["t"], "player": 0, "bakugan": "serpenoid", "zone": 6} in out or \
        any(e["ev"] == "stand" and e["bakugan"] == "serpenoid" and e["zone"] == 6 for e in out)


def test_battle_resolved_after_both_lifted_and_the_grace(played):
    _b, _h, _r, out, logged, leaves = played
    clash = [e for e in out if e["ev"] == "clash"]
    assert [(e["zone"], e["attacker"], e["defender"]) for e in clash] == [(6, "falconeer", "serpenoid")]
    lifted = [e for e in leaves if e["zone"] == 6 and e["t"] > clash[0]["t"]]
    assert sorted(e["bakugan"] for e in lifted) == ["falconeer", "serpenoid"]
    resolves = [e for e in logged if e["ev"] == "resolve"]
    assert [e.get("by") for e in resolves] == ["infer"]
    second = max(e["t"] for e in lifted)
    # not before the grace, and at the first frame after it
    assert second + controller.BATTLE_GRACE_MS <= resolves[0]["t"] <= second + controller.BATTLE_GRACE_MS + 40
    battle = [e for e in out if e["ev"] == "battle"]
    assert len(battle) == 1 and battle[0]["t"] == resolves[0]["t"]


def test_the_log_with_inferences_replays_to_the_same_game(played):
    _b, header, _r, out, logged, _l = played
    lines = [json.dumps(header) + "\n"] + [json.dumps(e) + "\n" for e in logged]
    again = []
    eventlog.replay(lines, lambda o: again.append(json.loads(encode_json(o))))
    assert again[:len(out)] == out


def test_the_board_infers_the_same_and_stores_it(played, tmp_path):
    board, header, res, out, logged, _l = played
    vb = VBoard(board, lockstep=True, workdir=str(tmp_path))
    vb.start()
    try:
        link = vb.link()
        replies = vb.play(res.frames, res.controls, link, header=header)
        assert all(r.get("ok") for _, r in replies), replies
        sent = [b for _, typ, b in link.take("game")]
    finally:
        vb.stop()
    # board time starts elsewhere: compare without t
    strip = lambda evs: [dict((k, v) for k, v in e.items() if k != "t") for e in evs]  # noqa: E731
    assert strip(sent) == strip(out)
    lines = boardstate.event_log(str(tmp_path))      # the stored game as an event log v1
    stored = [json.loads(x) for x in lines[1:]]
    assert strip(stored) == strip(logged)
    assert [e["ev"] for e in stored if e.get("by") == "infer"] == ["gate", "choose", "resolve"]
    again = []
    eventlog.replay(lines, lambda o: again.append(json.loads(encode_json(o))))
    assert strip(again[:len(sent)]) == strip(sent)


ROLL = """gate 0 dan-gold on zone 6 at 0.5s
gate 1 runo-gold on zone 5 at 1s
roll drago across zones 9,10 and off at 2s
idle 6s
"""


def test_roll_without_landing_is_an_inferred_miss():
    board = with_kernels(boards.load(BOARD))   # the detector on its kernel table, as deploy installs it
    header = game_header()
    # Seed 6: a path along the middle of the row. On the reference mat the
    # roll detector also names a zone beside the path in seeds 2-5 and 7 of
    # 1-8 (the ball passes near the row's edge): the sensing's business.
    res = sim.run(board, sim.scenario.parse(ROLL), seed=6, header=header)
    out, logged, rolls = [], [], []
    table = Table(Journal(header, lambda o: out.append(json.loads(encode_json(o)))), logged.append)

    def sensed(ev):
        if ev["ev"] == "roll":
            rolls.append(ev)
        table.sensed(ev)
    m = Match(board, table, sensed, params={"roll_max_ms": controller.ROLL_MAX_MS})
    ci = 0
    for t, fr in res.frames:
        while ci < len(res.controls) and res.controls[ci]["t"] <= t:
            m.control(dict(res.controls[ci]))
            ci += 1
        m.frame(fr, t)
        table.tick(t)
    assert rolls, "the sensing saw no ball rolling across"
    crossed = {e["zone"] for e in res.truth if e["ev"] == "roll" and e["zone"] is not None}
    assert {r["zone"] for r in rolls} <= crossed
    assert not [e for e in out if e["ev"] == "stand"]
    misses = [e for e in logged if e["ev"] == "miss"]
    assert len(misses) == 1 and misses[0]["by"] == "infer" and misses[0]["bakugan"] == "drago"
    last_roll = max(r["t"] for r in rolls)
    assert last_roll + controller.MISS_WAIT_MS <= misses[0]["t"] <= last_roll + controller.MISS_WAIT_MS + 40
    assert table.j.game.turn == 1
    # the thrower's BACK undoes the inferred miss: it is Dan's turn again
    assert table.button(1, 1, misses[0]["t"] + 500)
    assert table.j.game.turn == 0


def test_an_idle_mat_reports_no_roll():
    """Noise and drift never look like a ball rolling across (30 idle minutes)."""
    board = with_kernels(boards.load(BOARD))   # the detector on its kernel table, as deploy installs it
    from sense.pipeline import Pipeline
    rolls = []
    p = Pipeline(board, lambda ev: rolls.append(ev) if ev["ev"] == "roll" else None, None,
                 {"roll_max_ms": controller.ROLL_MAX_MS})
    n = 0
    for t, fr in sim.idle_frames(board, 30 * 60, seed=5):
        p.feed(fr, t)
        n += 1
    assert n >= 30 * 60 * board["rate_hz"] - 1
    assert rolls == []
