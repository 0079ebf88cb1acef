"""Simulator runs: determinism per seed, rule-plausible random games, what a
rolling ball or a bounce looks like next to a standing Bakugan."""
import statistics

import pytest

from host_tools import boards, fwpath, sim


@pytest.fixture(scope="module")
def board():
    return boards.load("reference")


@pytest.fixture(scope="module")
def game7(board):
    sc = sim.random_game(7, board)
    return sc, sim.run(board, sc, seed=7)


def test_same_seed_same_everything(board, game7):
    sc, res = game7
    sc2 = sim.random_game(7, board)
    assert [dict(a) for a in sc2.actions] == [dict(a) for a in sc.actions]
    res2 = sim.run(board, sc2, seed=7)
    assert res2.frames == res.frames
    assert res2.truth == res.truth and res2.controls == res.controls


def test_other_seed_other_game(board, game7):
    sc, res = game7
    sc8 = sim.random_game(8, board)
    assert [a["t"] for a in sc8.actions] != [a["t"] for a in sc.actions]
    # same scenario, other run seed: same truth times, other noise
    res_b = sim.run(board, sc, seed=8)
    assert [(e["t"], e["ev"], e["zone"]) for e in res_b.truth if e["ev"] != "roll"] == \
        [(e["t"], e["ev"], e["zone"]) for e in res.truth if e["ev"] != "roll"]
    assert res_b.frames[10][1] != res.frames[10][1]


def test_frames_at_board_rate_and_in_range(board, game7):
    _, res = game7
    ts = [t for t, _ in res.frames]
    assert ts[:3] == [0, 20, 40] and all(b - a == 20 for a, b in zip(ts, ts[1:]))
    for _, v in res.frames[::50]:
        assert len(v) == 96 and min(v) >= 0 and max(v) <= 4095
    assert res.truth[-1]["t"] < ts[-1]


def test_random_game_is_rule_plausible(board):
    """Feed the controls and the true openings (as `land`, registrations
    left out) to a fresh referee: nothing is rejected and the game ends."""
    fwpath.ensure()
    import referee
    for seed in (1, 2, 3):
        sc = sim.random_game(seed, board)
        res = sim.run(board, sc, seed=seed)
        evs = [c for c in res.controls if c["ev"] != "register"]
        evs += [{"t": e["t"], "ev": "land", "zone": e["zone"], "bakugan": e["bakugan"]}
                for e in res.truth if e["ev"] == "open" and not e.get("lesson")]
        evs.sort(key=lambda e: e["t"])
        out = []
        g = referee.new_game(sc.header, lambda ev: out.append(ev))
        for e in evs:
            assert g.feed(e), (seed, e, out[-1:])
        g.finish(evs[-1]["t"])
        kinds = [o[0] for o in out]
        assert "win" in kinds or "stalemate" in kinds
        assert "reject" not in kinds
        # variety: battles, misses, bounces or rolls, removals, registrations
        assert "battle" in kinds and "miss" in kinds
        assert sum(1 for e in res.truth if e["ev"] == "leave") >= 6
        assert sum(1 for e in res.truth if e.get("lesson")) == 6


def test_every_opening_is_on_a_card_and_everything_leaves(board, game7):
    sc, res = game7
    cards = set()
    changes = sorted([(a["t"], a["zone"], a["on"]) for a in sc.actions if a["kind"] == "card"] +
                     [(a["t"], a["ev"]["zone"], True) for a in sc.actions
                      if a["kind"] == "control" and a.get("card")])
    standing = {}
    i = 0
    for e in res.truth:
        while i < len(changes) and changes[i][0] <= e["t"]:
            (cards.add if changes[i][2] else cards.discard)(changes[i][1])
            i += 1
        if e["ev"] == "open":
            assert e["zone"] in cards
            assert e["bakugan"] not in standing
            standing[e["bakugan"]] = e["zone"]
        elif e["ev"] == "leave":
            assert standing.pop(e["bakugan"]) == e["zone"]
    assert standing == {}


def _zone_sum(board, frames, zone, base):
    chs = [s["ch"] for s in board["sensors"] if s["zone"] == zone]
    return [sum(v[c] - base[c] for c in chs) for _, v in frames]


def test_rolling_ball_does_not_look_standing(board):
    """While a ball rolls across a zone no stretch of 5 frames looks like a
    standing Bakugan (a strong, steady zone signal); a standing one does."""
    text = """
        card on zone 5 at 0.1s
        card on zone 6 at 0.1s
        roll drago across zones 5,6 and off at 1s speed 0.5
        idle 2s
        place drago on zone 5 at 4s
        idle 2s
    """
    res = sim.run(board, sim.parse_scenario(text), seed=4)
    base = res.frames[10][1]
    rolls = [e for e in res.truth if e["ev"] == "roll" and e["zone"] in (5, 6)]
    t_in, t_out = rolls[0]["t"], rolls[-1]["t"] + 200
    roll_frames = [(t, v) for t, v in res.frames if t_in <= t <= t_out]
    stand_frames = [(t, v) for t, v in res.frames if 4500 <= t <= 5500]
    ss = _zone_sum(board, stand_frames, 5, base)
    level = abs(statistics.mean(ss))
    assert level > 6 * statistics.pstdev(ss)

    def steady(xs):
        return abs(statistics.mean(xs)) > level / 2 and statistics.pstdev(xs) < level / 6

    for zone in (5, 6):
        rs = _zone_sum(board, roll_frames, zone, base)
        assert len(rs) > 10
        assert not any(steady(rs[i:i + 5]) for i in range(len(rs) - 4))
    assert steady(ss[:5]) and steady(ss[-5:])


QUIET = "set noise 0\nset drift 0\nset spikes 0\n"


@pytest.mark.parametrize("card", [True, False])
def test_bounce_is_brief(board, card):
    """Noise off: a bounce on zone 9 moves its readings only around the touch
    (a few hundred ms), then the mat reads as before."""
    text = QUIET + ("card on zone 9 at 0.1s\n" if card else "") + "bakugan skyress moment 0.035\nbounce skyress on zone 9 at 1s\n"
    res = sim.run(board, sim.parse_scenario(text), seed=5)
    base = res.frames[10][1]
    chs = [s["ch"] for s in board["sensors"] if s["zone"] in (5, 8, 9, 10, 13)]
    moved = [t for t, v in res.frames if any(abs(v[c] - base[c]) > 3 for c in chs)]
    assert moved, "the bounce is not seen at all"
    assert min(moved) >= 900 and max(moved) <= 1350
    assert res.frames[-1][1] == base


def test_drift_is_slow_and_small(board):
    frames = list(sim.idle_frames(board, 120, seed=3))
    assert len(frames) == 6000
    first = [statistics.mean(v[c] for _, v in frames[:250]) for c in range(96)]
    last = [statistics.mean(v[c] for _, v in frames[-250:]) for c in range(96)]
    moved = [abs(a - b) for a, b in zip(first, last)]
    assert max(moved) < 40 and statistics.mean(moved) > 0.3
    # noise rms about the board's figure
    ch0 = [v[0] for _, v in frames[:250]]
    assert 2.5 < statistics.pstdev(ch0) < 6
