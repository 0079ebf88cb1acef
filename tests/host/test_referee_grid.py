"""The referee's zone grid (referee.engine.COLS, touching()) is the
reference mat's: zone ids row by row, and two zones touch in the grid
exactly when their rectangles in boards/mats/reference.json lie side to
side or corner to corner (apart by no more than the gap between cards)."""
import json
import os

from host_tools import fwpath

fwpath.ensure()
from referee.engine import COLS, touching  # noqa: E402


def _mat():
    with open(os.path.join(fwpath.REPO_DIR, "boards", "mats", "reference.json")) as f:
        return json.load(f)


def _gap(a0, a1, b0, b1):
    """Distance between intervals [a0, a1] and [b0, b1] (0 if they overlap)."""
    return max(0, max(a0, b0) - min(a1, b1))


def test_zone_ids_run_row_by_row_cols_to_a_row():
    zones = _mat()["zones"]
    xs = sorted(set(z["x"] for z in zones))
    ys = sorted(set(z["y"] for z in zones))
    assert len(xs) == COLS
    for z in zones:
        assert z["id"] == ys.index(z["y"]) * COLS + xs.index(z["x"]), z


def test_touching_is_the_mats_geometry():
    mat = _mat()
    zones = mat["zones"]
    near = min(mat["card"]["w"], mat["card"]["h"]) / 2  # far less than a card apart
    pairs = 0
    for a in zones:
        for b in zones:
            if a is b:
                continue
            gx = _gap(a["x"], a["x"] + a["w"], b["x"], b["x"] + b["w"])
            gy = _gap(a["y"], a["y"] + a["h"], b["y"], b["y"] + b["h"])
            geo = gx < near and gy < near
            assert touching(a["id"], b["id"]) == geo, (a["id"], b["id"])
            pairs += geo
    assert pairs == 2 * (3 * 4 * 2 + 3 * 3 * 2)  # 24 side pairs, 18 corner pairs, both ways
