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
from sense.fit import KBIAS, KBITS, Kernels  # noqa: E402


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
    top = amr2["sensor_plane_to_card_top_mm"]
    pose = (x, y, top + table["heights"][ih]) + tuple(u)
    # the card's own plate with its edges, as the simulator computes a
    # magnet over a card (the plate centred on the zone)
    b = w.field(1e-3, pose, [sx], [sy], 0.0, True, (0.0, 0.0), top)
    want = sum(b[0][i] * ax[i] for i in range(3)) * amr2["sensor"]["counts_per_mT"]
    got = vals[(((ih * table["ny"] + iy) * table["nx"] + ix) * nch + ch) * 3 + d]
    assert abs(got - want) <= 1e-4 * abs(want) + 1e-3
    # ... which is not the infinite slab's near the plate's edge
    slab = kernels.build(amr2, "mu300-t0.2", step=table["step"], finite=False)
    sv = array("f", base64.b64decode(slab["k"]))
    edge = ((1 * table["ny"] + 0) * table["nx"] + 0) * nch * 3   # a corner cell, middle height
    diff = max(abs(vals[edge + i] - sv[edge + i]) for i in range(nch * 3))
    assert diff > 0.05 * max(abs(vals[edge + i]) for i in range(nch * 3))
    # the grid covers the card where a magnet's centre can be
    assert table["x0"] <= -22.0 + table["step"] and table["y0"] <= -35.0 + table["step"]
    assert table["moment_range"] == [15.0, 40.0]


def test_the_firmware_reads_it_back(table):
    k = Kernels(json.loads(kernels.dumps(table)), 6)
    assert k.ncell == table["nx"] * table["ny"] * 3
    raw = array("f", base64.b64decode(table["k"]))
    # held in fixed point (the largest value 2^KBITS, stored plus KBIAS):
    # within half a unit of the table's
    big = max(abs(v) for v in raw)
    assert k.kf == pytest.approx(big / (1 << KBITS))
    for i in (0, 1000, len(raw) - 1):
        assert abs((k.k[i] - KBIAS) * k.kf - raw[i]) <= 0.5 * k.kf


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
    """A tilted magnet computed by the world itself (over the card's own
    plate, as the simulator computes it), between the cells."""
    w = worlds.get("mu300-t0.2")
    k = Kernels(table, 6)
    sx = [c[0] for c in table["channels"]]
    sy = [c[1] for c in table["channels"]]
    t = math.radians(10.0)
    pose = (7.3, -18.2, amr2["sensor_plane_to_card_top_mm"] + 3.6, math.sin(t) * 0.6, math.sin(t) * 0.8, math.cos(t))
    b = w.field(0.027, pose, sx, sy, 0.0, True, (0.0, 0.0), amr2["sensor_plane_to_card_top_mm"])
    v = [sum(b[j][i] * table["channels"][j][2][i] for i in range(3)) * amr2["sensor"]["counts_per_mT"]
         for j in range(6)]
    m, x, y, h, g, vv, var = k.fit(v, bytearray(b"\x01" * 6))
    assert abs(m - 27.0) < 0.05 * 27.0
    assert math.hypot(x - 7.3, y + 18.2) < 1.5


def test_the_benchmark_gives_the_pipeline_the_worlds_table(amr2, monkeypatch):
    from host_tools.bench import bench_sensing
    ref = boards.load("reference")
    monkeypatch.delenv("BAKUMAT_WORLD", raising=False)
    b = bench_sensing.with_detector(dict(amr2, world="mu100-t0.2"))
    assert b["kernels"]["world"] == "mu100-t0.2"
    with pytest.raises(kernels.KernelError):
        bench_sensing.with_detector(ref)          # the Hall mat's capture world has no table, and no detector


def _slow(table):
    """The table without its chip form: the firmware decodes k itself."""
    t = dict(table)
    t.pop("fixed")
    return t


def test_the_chip_form_is_what_the_firmware_decodes(table):
    """The table's field "fixed" (k in the firmware's fixed point and the
    whitened middle height) is exactly what Kernels makes of k, so the
    board copies it instead of decoding k in the tick that sets a game up."""
    fx = table["fixed"]
    assert (fx["kbits"], fx["qbits"]) == (KBITS, 14)
    fast = Kernels(table, 6, 0.25)
    slow = Kernels(_slow(table), 6, 0.25)
    assert fast.k.tobytes() == slow.k.tobytes()
    assert fast.q.tobytes() == slow.q.tobytes()
    assert fast.kf == slow.kf and fast.kfix == slow.kfix
    assert len(fast.q) == table["nx"] * table["ny"] * 3 * 6


def test_the_chip_form_on_micropython(table, tmp_path):
    """The same on the real micropython binary: the copied arrays equal its
    own decoding of k, and copying is much less work (times printed)."""
    from mptools import FIRMWARE, micropython
    p = tmp_path / "k.json"
    p.write_text(json.dumps(table))
    script = (
        "import sys, json, time\nsys.path.insert(0, %r)\n"
        "from sense.fit import Kernels\n"
        "t = json.loads(open(%r).read())\n"
        "a = time.ticks_us(); fast = Kernels(t, 6, 0.25); b = time.ticks_us()\n"
        "del t['fixed']\n"
        "c = time.ticks_us(); slow = Kernels(t, 6, 0.25); d = time.ticks_us()\n"
        "print('SAME', bytes(fast.k) == bytes(slow.k), bytes(fast.q) == bytes(slow.q), fast.kf == slow.kf)\n"
        "print('US', time.ticks_diff(b, a), time.ticks_diff(d, c))\n" % (FIRMWARE, str(p)))
    r = micropython(["-c", script])
    assert r.returncode == 0, r.stderr
    assert "SAME True True True" in r.stdout, r.stdout
    fast_us, slow_us = (int(v) for v in r.stdout.split("US")[1].split())
    print("kernel table decoded in %d us from its chip form, %d us from k (unix port)" % (fast_us, slow_us))


def test_a_bad_chip_form_is_refused(table, tmp_path):
    bad = dict(table, fixed=dict(table["fixed"], k=table["fixed"]["k"][:-8]))
    with pytest.raises(ValueError, match="field 'fixed' holds"):
        Kernels(bad, 6)
    p = tmp_path / "k.json"
    p.write_text(json.dumps(bad))
    with pytest.raises(kernels.KernelError, match="field 'fixed.k' holds"):
        kernels.load(str(p))
    p.write_text(json.dumps(dict(table, fixed={"kbits": KBITS})))
    with pytest.raises(kernels.KernelError, match="field 'fixed' has no 'qbits'"):
        kernels.load(str(p))
    # another fixed point than this firmware's: k is decoded instead
    other = Kernels(dict(table, fixed=dict(table["fixed"], kbits=KBITS + 1)), 6)
    assert other.k.tobytes() == Kernels(table, 6).k.tobytes()


def test_the_app_keeps_only_the_chip_form(amr2, table):
    """The board definition the app keeps (runtime.boarddef.compact) holds
    the chip form without the float values: a new game's pipeline is built
    from it alike; a chip form of another firmware with no k to fall back
    on is refused in a line that says what to do."""
    from runtime.boarddef import compact, expand
    from sense.pipeline import Pipeline
    board = dict(amr2, kernels=table)
    bd = compact(board)
    assert "k" not in bd["kernels"] and "k" in table and bd["kernels"]["fixed"] is table["fixed"]
    got = Pipeline(expand(bd), lambda *a: None).idf.kern
    want = Pipeline(expand(compact(dict(amr2, kernels=_slow(table)))), lambda *a: None).idf.kern
    assert got.k.tobytes() == want.k.tobytes() and got.q.tobytes() == want.q.tobytes()
    stale = compact(dict(amr2, kernels=dict(table, fixed=dict(table["fixed"], kbits=KBITS - 1))))
    with pytest.raises(ValueError, match="deploy the board again"):
        Pipeline(expand(stale), lambda *a: None)


def test_a_fit_at_the_cards_corner_is_the_same_on_micropython(amr2, table, tmp_path):
    """The pattern search steps past the grid's first cells (places < 0):
    the fit clamps them before the viper kernel reads them, which a 64-bit
    port does not sign-extend (it read them as the grid's far end). The
    unix port's fit of a magnet at the card's corner then equals CPython's."""
    from mptools import FIRMWARE, micropython
    w = worlds.get("mu300-t0.2")
    sx = [c[0] for c in table["channels"]]
    sy = [c[1] for c in table["channels"]]
    top = amr2["sensor_plane_to_card_top_mm"]
    got = []
    for x, y in ((-21.5, -34.5), (-21.0, 34.0), (20.5, -33.0)):
        b = w.field(0.027, (x, y, top + 3.0, 0.0, 0.0, 1.0), sx, sy, 0.0, True, (0.0, 0.0), top)
        got.append([sum(b[j][i] * table["channels"][j][2][i] for i in range(3)) * amr2["sensor"]["counts_per_mT"]
                    for j in range(6)])
    p = tmp_path / "k.json"
    p.write_text(json.dumps({"table": table, "v": got}))
    script = ("import sys, json\nsys.path.insert(0, %r)\nfrom sense.fit import Kernels\n"
              "d = json.loads(open(%r).read())\nk = Kernels(d['table'], 6)\n"
              "u = bytearray(b'\\x01' * 6)\n"
              "for v in d['v']:\n    f = k.fit(v, u)[:4]\n"
              "    print('FIT', repr(f + (k._gain(v, u, -300, -40, 0), k._gain(v, u, 0, 0, 0))))\n" % (FIRMWARE, str(p)))
    r = micropython(["-X", "heapsize=8M", "-c", script])
    assert r.returncode == 0, r.stderr
    mp = [eval(line[4:]) for line in r.stdout.splitlines() if line.startswith("FIT ")]
    k = Kernels(table, 6)
    u = bytearray(b"\x01" * 6)
    for v, m in zip(got, mp):
        want = k.fit(v, u)[:4]
        assert m[:4] == pytest.approx(want, rel=1e-9, abs=1e-9)
        # a place before the grid's first cell is that cell, on both
        assert m[4] == m[5] == pytest.approx(k._gain(v, u, -300, -40, 0), rel=1e-9)
    assert len(mp) == 3
