"""A Bakugan opened near its card's edge, beside another card: the
neighbouring zone's sensors read its field too (through the gap between
the cards, unshielded), fitted at that card's bound. Only its own zone may
land it, whichever zone settles first (test_vboard_amr2 once saw drago,
put down on zone 5 6 mm inside the edge, land on zone 6: in 22 of 90 such
landings here before the neighbour's stirring counted as a leak)."""
import json
import os

import pytest

from host_tools import boards, fwpath, sim
from host_tools.bench.bench_sensing import run_pipeline, with_detector
from host_tools.sim import worlds

SAMPLE = os.path.join(fwpath.REPO_DIR, "host_tools", "samples", "official.ndjson")


@pytest.fixture(scope="module")
def mat():
    board = with_detector(worlds.with_world(boards.load("esp32s3_devkitc1_amr2"), "mu300-t0.2"))
    assert "kernels" in board
    with open(SAMPLE) as f:
        return board, json.loads(f.readline())


# zone 5's card: 56 x 82 mm; its neighbours 6 (+x), 4 (-x), 1 and 9 (-y, +y)
@pytest.mark.parametrize("x,y", [(20.7, -8.0), (21.5, 8.0), (-21.0, 0.0), (0.0, 33.0), (20.0, -32.0)])
def test_a_landing_at_the_edge_lands_on_its_own_zone(mat, x, y):
    board, header = mat
    wrong = []
    for seed in range(6):
        text = ("gap 1500ms\ngate 0 dan-gold on zone 6\ngate 1 runo-gold on zone 5\ncard on zone 4\n"
                "card on zone 1\ncard on zone 9\ngap 1s\nplace drago on zone 5 at 9000ms, at (%g, %g) mm\nidle 3s"
                % (x, y))
        res = sim.run(board, sim.parse_scenario(text), seed=seed, header=header)
        opens = [(e["zone"], e["bakugan"]) for e in res.truth if e["ev"] == "open"]
        assert opens == [(5, "drago")], opens
        lands = [(e["zone"], e["bakugan"]) for e in run_pipeline(board, header, res) if e["ev"] == "land"]
        if lands != [(5, "drago")]:
            wrong.append((seed, lands))
    assert not wrong, "at (%g, %g) mm on zone 5: %s" % (x, y, wrong)
