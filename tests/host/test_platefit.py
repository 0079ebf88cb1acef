"""host_tools/logs/platefit.py: the figures `bakumat diag plate` derives, from
readings computed in each world with the median's noise (0.5 counts) added."""
import numpy as np
import pytest

from host_tools import boards
from host_tools.logs import platefit
from host_tools.sim import worlds



def readings(world, board, zone, mark, moment, h_card, with_plate, rng):
    sens = [s for s in board["sensors"] if s["zone"] == zone]
    sx = np.array([s["x"] for s in sens], float)
    sy = np.array([s["y"] for s in sens], float)
    z = board["sensor_plane_to_card_top_mm"] + h_card
    b = worlds.get(world).field(moment, (mark[0], mark[1], z, 0.0, 0.0, 1.0), sx, sy, 0.0, with_plate)[:, 2]
    noise = 0.5 / board["sensor"]["counts_per_mT"]
    return list(b + rng.normal(0.0, noise, len(b)))


@pytest.mark.parametrize("world", ["none", "mu100-t0.1", "mu300-t0.2", "mu1000-t0.2", "mu5000-t0.2",
                                   "ferrite-mu100-t0.2", "ferrite-mu1000-t0.2"])
@pytest.mark.parametrize("moment,h_card", [(0.016, 2.5), (0.035, 4.5)])
def test_the_world_is_recovered(world, moment, h_card):
    board = boards.load("reference")
    rng = np.random.default_rng(3)
    a = (96.0, 151.0)      # over channel 32 of zone 5
    b = (112.0, 151.0)     # the zone's centre
    args = [readings(world, board, 5, m, moment, h_card, p, rng)
            for m, p in ((a, False), (b, False), (a, True), (b, True))]
    r = platefit.analyse(board, 5, a, b, *args)
    assert r["world"] == world, r
    assert r["channel"] == 32
    w = worlds.get(world)
    assert r["moment_Am2"] == pytest.approx(moment * w.moment_scale, rel=0.15)
    assert r["height_mm"] == pytest.approx(board["sensor_plane_to_card_top_mm"] + h_card, abs=0.3)
    if w.plate:
        assert r["mu_r_t_mm"] == pytest.approx(w.mu_t(), rel=0.35)
