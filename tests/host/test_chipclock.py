"""The sensing benchmark on the chip's clock (host_tools/bench/chipclock.py):
the counting does not change what the mat decides, a long tick leaves its
frames unscanned and delays what it decided, and the cost per solve is
measured on the micropython binary."""
import math

import pytest

from host_tools import boards
from host_tools.bench import bench_sensing, chipclock
from host_tools.sim import worlds


@pytest.fixture(scope="module")
def mat():
    board = bench_sensing.with_detector(worlds.with_world(boards.load("amr2"), "mu300-t0.2"))
    assert "kernels" in board
    return board


@pytest.fixture(scope="module")
def game(mat):
    return bench_sensing.simulate(mat, 2)


def _plain(ev):
    return {k: v for k, v in ev.items() if k != "seen"}


def test_a_clock_that_costs_nothing_changes_nothing(mat, game):
    header, res = game
    free = chipclock.Costs(0.0, 0.0, 0.0, 1.0, 0.0, 1)
    clock = chipclock.Clock(free, 5.0)
    timed = bench_sensing.run_pipeline(mat, header, res, clock=clock)
    plain = bench_sensing.run_pipeline(mat, header, res)
    assert [_plain(e) for e in timed] == plain
    assert clock.dropped == 0 and clock.over == 0 and clock.ticks == len(res.frames)
    assert all(e["seen"] == e["t"] + 5.0 for e in timed)
    # the counts were taken: the game's decisions ran kernel fits
    assert any(e["ev"] == "land" for e in plain)


def test_long_decisions_leave_frames_unscanned_and_are_seen_late(mat, game):
    header, res = game
    slow = chipclock.Costs(800.0, 4000.0, 5000.0, 1.0, 0.0, 1)
    clock = chipclock.Clock(slow, 15.0)
    timed = bench_sensing.run_pipeline(mat, header, res, clock=clock)
    assert clock.over > 0 and clock.dropped > 0
    assert clock.ticks + clock.dropped == len(res.frames)
    assert clock.worst_ms > 20.0 and max(clock.long) == clock.worst_ms
    lands = [e for e in timed if e["ev"] == "land"]
    assert lands and all(e["seen"] >= e["t"] + 15.0 for e in lands)
    assert any(e["seen"] > e["t"] + 20.0 for e in lands)
    s = bench_sensing.score(res.truth, timed)
    plain = bench_sensing.score(res.truth, [_plain(e) for e in timed])
    assert sum(s["latency"]) > sum(plain["latency"])


def test_the_costs_are_measured_on_micropython(mat):
    # the measurement runs the board's decisions on the micropython binary
    # and fits a cost per count; how good that fit is (its residual) and
    # what it gives are figures of `bakumat bench sensing --chip-clock`,
    # which prints them, never a pass mark of a busy machine's timings
    c = chipclock.measure(mat, reps=1)
    assert c.n > 10 and c.pystones > 0
    figures = (c.solve, c.fit, c.settle, c.resid)
    assert all(math.isfinite(x) and x >= 0.0 for x in figures), figures
    assert c.ms(40, 1, 1) > 0.0          # the deciding frames cost something
