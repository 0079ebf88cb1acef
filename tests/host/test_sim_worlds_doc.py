"""hardware/sensing-physics.md section 8 quotes figures computed by the
project's own code (host_tools/sim/worldsdoc.py): the generated block must
be current, the stored mesh study must match the fast path it was run
against, and the prose's claims about it must hold."""
import json
import os
import re

import numpy as np
import pytest

from host_tools.boards import layouts
from host_tools.sim import mom, worldsdoc

DOC = os.path.join(worldsdoc.REPO, "hardware", "sensing-physics.md")



@pytest.fixture(scope="module")
def study():
    with open(worldsdoc.STUDY, encoding="utf-8") as f:
        return json.load(f)


def test_generated_block_is_current():
    with open(DOC, encoding="utf-8") as f:
        doc = f.read()
    m = re.search(r"<!-- worlds:begin -->\n(.*?)<!-- worlds:end -->", doc, re.S)
    assert m, "the doc lost its generated block"
    assert m.group(1) == worldsdoc.markdown(), "run: python -m host_tools.sim.worldsdoc and paste the output"


def test_stored_study_matches_the_fast_path_of_today(study):
    src = mom.magnet(study["height_mm"])
    pts = [(x, y, mom.SENSOR_Z) for x, y in study["points_mm"]]
    for pl in study["plates"]:
        now = mom.slab_field(pl["mu_r"], pl["t_mm"], src, pts)[:, 2]
        assert np.allclose(now, pl["slab_mT"], atol=2e-5), (pl["mu_r"], pl["t_mm"])


def test_the_doc_claims_about_the_study_hold(study):
    for pl in study["plates"]:
        lim = pl["richardson_mT"]
        slab = pl["slab_mT"]
        assert abs(lim[0] - slab[0]) / slab[0] < 0.03          # straight below: within 3 %
        for i in (1, 2):                                          # 3 and 6 mm: within 35 %
            assert abs(lim[i] - slab[i]) / abs(slab[i]) < 0.35
        if pl["mu_r"] * pl["t_mm"] >= 100:                        # the edge leak the slab leaves out
            assert 0.03 <= lim[5] <= 0.045 and 0.03 <= lim[7] <= 0.045
            assert abs(slab[5]) < 0.005 and abs(slab[7]) < 0.005


def test_reference_layout_is_the_cheapest_that_senses_and_keeps_the_frame():
    """Of the layouts whose worst spot passes the nominal world, whose scan
    at the high per-call bound fits a quarter frame and whose parts the
    ESP32 reads itself (a helper microcontroller is a second firmware, in C,
    that nothing here builds or tests), the reference is the cheapest of
    known price, and none of unknown price senses better."""
    rows = layouts.table(worlds=("mu300-t0.2",))
    ok = [r for r in rows if r["snr"]["mu300-t0.2"] >= layouts.TARGET_SNR and r["cost"]["qualifies"]
          and not r["cost"]["helper"]]
    priced = [r for r in ok if r["cost"]["usd"] is not None]
    assert min(priced, key=lambda r: r["cost"]["usd"])["layout"] == layouts.REFERENCE
    ref = [r for r in rows if r["layout"] == layouts.REFERENCE][0]
    assert all(r["snr"]["mu300-t0.2"] < ref["snr"]["mu300-t0.2"] for r in ok if r["cost"]["usd"] is None)


def test_the_i2c_mats_cannot_keep_the_frame_and_the_reference_can():
    from host_tools.bench import chiptime
    amr2 = layouts.costs("amr2")
    assert not amr2["qualifies"] and amr2["scan_ms_low"] > 20.0       # over the whole frame even at the low bound
    ref = layouts.costs(layouts.REFERENCE)
    assert ref["bus"] == "spi" and ref["qualifies"] and ref["scan_ms_high"] <= layouts.SCAN_LIMIT_MS
    lo, hi = chiptime.CALL_US["spi"]
    wire = 32 * 7 * 8 * 1e3 / chiptime.SPI_HZ
    assert ref["scan_ms_high"] == pytest.approx(wire + (32 * hi + 34 * chiptime.CALL_US["pin"][1]) / 1000.0)
    assert ref["scan_ms_low"] == pytest.approx(wire + (32 * lo + 34 * chiptime.CALL_US["pin"][0]) / 1000.0)


def test_amr2_hardware_block_is_current():
    from host_tools import boards
    with open(os.path.join(worldsdoc.REPO, "hardware", "amr2.md"), encoding="utf-8") as f:
        doc = f.read()
    m = re.search(r"<!-- amr2:begin -->\n(.*?)<!-- amr2:end -->", doc, re.S)
    assert m, "hardware/amr2.md lost its generated block"
    assert m.group(1) == layouts.amr2_markdown(boards.load("amr2")), "regenerate it from layouts.amr2_markdown"


def test_amr2_wiring_reaches_every_channel_once():
    from host_tools import boards
    b = boards.load("amr2")
    w = layouts.amr2_wiring(b)
    assert len({(m, c) for m, c, _, _, _ in w}) == len(w) == len(b["sensors"]) // 3
    assert sorted(ch for *_, chs in w for ch in chs) == list(range(len(b["sensors"])))
    assert all(c < 8 for _, c, _, _, _ in w)


def test_stored_layout_check_matches_the_layout_of_today():
    """hardware/mom-layout-check.json was run on today's reference layout and
    worst spots; the real magnet on the infinite slab reads like the fast
    path's dipole (within 10 %)."""
    with open(worldsdoc.CHECK, encoding="utf-8") as f:
        check = json.load(f)
    # run on amr2, whose sites the reference shares (the worst spot is the
    # same for any part of uniform noise on them)
    assert layouts.LAYOUTS[check["layout"]][1] == layouts.LAYOUTS[layouts.REFERENCE][1]
    for w in check["worlds"]:
        snr, (x, y, h, u) = layouts.worst_snr(w["world"], check["layout"], finite=False)
        assert [x, y, h] == w["spot_mm"] and list(u) == pytest.approx(w["direction"])
        assert snr == pytest.approx(w["fast_snr"], abs=0.01)
        assert w["slab_cylinder_snr"] == pytest.approx(snr, rel=0.1)
