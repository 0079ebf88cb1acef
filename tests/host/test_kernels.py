"""The kernel table a board carries (host_tools/boards/kernels.py,
docs/formats/kernel-table-v1.md): built from the worlds' physics, checked
on reading, and what the firmware's fit decodes of it."""
import base64
import json
import math
from array import array

import pytest

from host_tools import boards, fwpath
from host_tools.boards import kernels
from host_tools.sim import worlds

fwpath.ensure()
from sense.fit import Kernels  # noqa: E402


@pytest.fixture(scope="module")
def amr2():
    return boards.load("amr2")


@pytest.fixture(scope="module")
def table(amr2):
    return kernels.build(amr2, "mu300-t0.2")


def test_the_values_are_the_worlds_field(amr2, table):
    w = worlds.get("mu300-t0.2")
    vals = array("f", base64.b64decode(table["k"]))
    nch = len(table["channels"])
    assert nch == 6
    assert len(vals) == table["nx"] * table["ny"] * len(table["heights"]) * nch * 3
    ix, iy, ih, ch, d = 4, 7, 2, 5, 1
    x = table["x0"] + ix * table["step"]
    y = table["y0"] + iy * table["step"]
    sx, sy, ax = table["channels"][ch]
    u = [0.0, 0.0, 0.0]
    u[d] = 1.0
    b = w.field(1e-3, (x, y, amr2["sensor_plane_to_card_top_mm"] + table["heights"][ih]) + tuple(u), [sx], [sy])
    want = sum(b[0][i] * ax[i] for i in range(3)) * amr2["sensor"]["counts_per_mT"]
    got = vals[(((ih * table["ny"] + iy) * table["nx"] + ix) * nch + ch) * 3 + d]
    assert abs(got - want) <= 1e-4 * abs(want) + 1e-3
    # the grid covers the card where a magnet's centre can be
    assert table["x0"] <= -22.0 + table["step"] and table["y0"] <= -35.0 + table["step"]
    assert table["moment_range"] == [15.0, 40.0]


def test_the_firmware_reads_it_back(table):
    k = Kernels(json.loads(kernels.dumps(table)), 6)
    assert k.ncell == table["nx"] * table["ny"] * 3
    raw = array("f", base64.b64decode(table["k"]))
    assert k.k[1000] == raw[1000]


def test_a_ferrite_world_scales_the_moment_range(amr2):
    t = kernels.build(amr2, "ferrite-mu100-t0.2", step=6.0)
    assert t["moment_range"] == [round(15.0 * worlds.FERRITE_SHARE, 3), round(40.0 * worlds.FERRITE_SHARE, 3)]


def test_errors_name_the_problem(amr2, table, tmp_path):
    with pytest.raises(kernels.KernelError, match="not computed physics"):
        kernels.build(amr2, "capture")
    bad = dict(table, nx=table["nx"] + 1)
    p = tmp_path / "k.json"
    p.write_text(json.dumps(bad))
    with pytest.raises(kernels.KernelError, match="field 'k' holds"):
        kernels.load(str(p))
    p.write_text(json.dumps(dict(table, version=2)))
    with pytest.raises(kernels.KernelError, match="version 2"):
        kernels.load(str(p))
    p.write_text(kernels.dumps(table))
    assert kernels.load(str(p))["world"] == "mu300-t0.2"
    odd = json.loads(json.dumps(amr2))
    odd["sensors"][0]["x"] += 1.0
    with pytest.raises(kernels.KernelError, match="not laid out as"):
        kernels.zone_layout(odd)


def test_the_fit_finds_a_magnet_of_the_world(amr2, table):
    """A tilted magnet computed by the world itself, between the cells."""
    w = worlds.get("mu300-t0.2")
    k = Kernels(table, 6)
    sx = [c[0] for c in table["channels"]]
    sy = [c[1] for c in table["channels"]]
    t = math.radians(10.0)
    pose = (7.3, -18.2, amr2["sensor_plane_to_card_top_mm"] + 3.6, math.sin(t) * 0.6, math.sin(t) * 0.8, math.cos(t))
    b = w.field(0.027, pose, sx, sy)
    v = [sum(b[j][i] * table["channels"][j][2][i] for i in range(3)) * amr2["sensor"]["counts_per_mT"]
         for j in range(6)]
    m, x, y, h, g, vv, var = k.fit(v, bytearray(b"\x01" * 6))
    assert abs(m - 27.0) < 0.05 * 27.0
    assert math.hypot(x - 7.3, y + 18.2) < 1.5


def test_the_benchmark_gives_the_pipeline_the_worlds_table(amr2, monkeypatch):
    from host_tools.bench import bench_sensing
    ref = boards.load("reference")
    monkeypatch.delenv("BAKUMAT_WORLD", raising=False)
    assert "kernels" not in bench_sensing.with_detector(ref)          # capture: the sheet level
    b = bench_sensing.with_detector(dict(amr2, world="mu100-t0.2"))
    assert b["kernels"]["world"] == "mu100-t0.2"
    assert "kernels" not in bench_sensing.with_detector(dict(amr2, world="mu100-t0.2"), "classic")
    with pytest.raises(kernels.KernelError):
        bench_sensing.with_detector(ref, "kernels")                     # capture has no table
