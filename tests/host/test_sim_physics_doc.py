"""hardware/sensing-physics.md quotes figures computed by host_tools/sim/physics.py
from the reference mat: the generated block must be current, and the prose
figures must match what the model says."""
import math
import os
import re

import pytest

from host_tools import boards
from host_tools.sim import physics

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                   "hardware", "sensing-physics.md")


@pytest.fixture(scope="module")
def fig():
    return physics.figures()


@pytest.fixture(scope="module")
def doc():
    with open(DOC, encoding="utf-8") as f:
        return f.read()


def test_generated_block_is_current(fig, doc):
    m = re.search(r"<!-- physics:begin -->\n(.*?)<!-- physics:end -->", doc, re.S)
    assert m, "the doc lost its generated block"
    assert m.group(1) == physics.markdown(fig), "run: python -m host_tools.sim.physics and paste the output"


def _row(fig, layout, case):
    for r in fig["coverage"]:
        if r[0] == layout and r[1] == case:
            return r
    raise KeyError((layout, case))


def test_prose_figures(fig, doc):
    name, case, typ, worst, worst_max, xt, xt_max = _row(fig, "2x3 (6)", "nominal")
    assert "around %d" % round(typ) in doc
    assert "about %d per" % round(worst) in doc
    assert "%.1f over two frames" % (worst * math.sqrt(2)) in doc
    assert "about %d counts, under 3 sigma" % round(worst_max) in doc and worst_max < 3 * 4
    assert "about %d per frame" % round(_row(fig, "2x3 (6)", "half capture")[3]) in doc
    assert "up to ~%d mT" % round(fig["bare_axis_strong_mT"]) in doc
    assert "%.1f-%.1f ms per 96-channel" % (fig["scan"][0][1], fig["scan"][-1][1]) in doc
    assert "A1 gives %d counts/mT" % round(fig["cpm_A1"]) in doc
    assert "7-10 mm off axis" in doc
    assert 7.0 <= fig["zero_cross_min_mm"] and fig["zero_cross_max_mm"] <= 10.0
    b = boards.load("reference")
    assert b["sensor"]["counts_per_mT"] == round(fig["cpm_A1"])
    assert b["sensor"]["zero_counts"] == round(fig["zero_counts"])


def test_design_claims_hold(fig):
    # the mat's layout is the 2 x 3 the doc chose
    assert fig["layout_is_2x3"]
    # zones do not trigger each other: neighbour SNR under 1 sigma in every case
    assert all(r[5] < 1.0 for r in fig["coverage"])
    # nominal plate: the weakest Bakugan at the worst spot clears 5 sigma per frame
    assert _row(fig, "2x3 (6)", "nominal")[3] > 5.0
    # no standing Bakugan leaves the ADC's linear range
    assert fig["strong_peak_counts"] < fig["linear_headroom_counts"]
    # the slowest scan still fits the frame
    assert fig["scan"][-1][1] < fig["frame_ms"]
    # Bz zero crossing: the model's own, at sqrt(2) h
    from host_tools.sim import field as F
    h = fig["h_min_mm"]
    assert F.dipole_bz(0.02, 0, 0, 1, 0, 0, h, fig["zero_cross_min_mm"] - 0.01, 0) > 0
    assert F.dipole_bz(0.02, 0, 0, 1, 0, 0, h, fig["zero_cross_min_mm"] + 0.01, 0) < 0
