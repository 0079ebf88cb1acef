"""The computed worlds (host_tools/sim/worlds.py): the slab kernel against the
exact image sums and the k-space integral it stands for, and the fast path
against a direct method-of-moments solve of the finite plate with
magpylib-material-response (host_tools/sim/mom.py)."""
import json
import math

import numpy as np
import pytest

from host_tools import boards, sim
from host_tools.sim import mom, worlds


def test_unknown_world_is_a_clear_error():
    with pytest.raises(worlds.WorldError, match="unknown world 'steel' .*capture"):
        worlds.get("steel")


def test_mu_one_is_the_free_dipole():
    rho = np.array([0.0, 3.0, 10.0, 40.0])
    h = np.full(4, 5.2)
    for a, b in zip(worlds.slab_sums(rho, h, 1.0, 0.2), worlds.free_sums(rho, h)):
        assert np.allclose(a, b, rtol=1e-12)


def test_image_series_is_the_slab_transfer_integral():
    """Bz straight below a vertical dipole: the image sums against
    (mu0 m / 4 pi) * integral of k^2 T(k) e^(-k (d - t)) dk."""
    from scipy.integrate import quad
    d = 5.2
    for mu, t in ((100.0, 0.2), (1000.0, 0.1), (5000.0, 0.3)):
        def f(k, mu=mu, t=t):
            tk = 4 * mu * math.exp(-k * t) / ((mu + 1) ** 2 - (mu - 1) ** 2 * math.exp(-2 * k * t))
            return k * k * tk * math.exp(-k * (d - t))
        want = quad(f, 0, 60, limit=400)[0]
        sa, _, _, sd = worlds.slab_sums(np.array([0.0]), np.array([d]), mu, t)
        got = 3 * sd[0] - sa[0]
        assert got == pytest.approx(want, rel=2e-3), (mu, t)


def test_kernel_interpolates_the_exact_sums_within_one_percent():
    w = worlds.get("mu1000-t0.2")
    rng = np.random.default_rng(5)
    rho = rng.uniform(0.0, 80.0, 200)
    h = rng.uniform(3.0, 40.0, 200)
    got = w.kernel().sums(rho, h)
    exact = worlds.slab_sums(rho, h, 1000.0, 0.2)
    for g, e in zip(got, exact):
        assert np.max(np.abs(g - e) / np.abs(e)) < 0.01


def test_kernel_is_cached_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("BAKUMAT_CACHE", str(tmp_path))   # a cache of its own: the run's shared one has others
    plate = {"mu_r": 300.0, "t_mm": 0.2}
    worlds.SlabKernel.load_or_build(plate)
    files = [p for p in (tmp_path / "kernels").iterdir() if not p.name.endswith(".lock")]
    assert len(files) == 1 and files[0].name.startswith("slab-")
    k = worlds.SlabKernel.load_or_build(plate)
    assert k.sums(np.array([5.0]), np.array([6.0]))[0][0] > 0


def test_field_components_follow_the_moment():
    """A tilted magnet is the sum of its vertical and horizontal parts, and
    a horizontal moment along x gives no By on the x axis."""
    w = worlds.get("mu100-t0.2")
    sx = np.array([0.0, 5.0, -7.0])
    sy = np.array([0.0, 0.0, 4.0])
    a = math.radians(25)
    tilt = w.field(0.02, (0, 0, 6.0, math.sin(a), 0, math.cos(a)), sx, sy)
    up = w.field(0.02, (0, 0, 6.0, 0, 0, 1), sx, sy)
    side = w.field(0.02, (0, 0, 6.0, 1, 0, 0), sx, sy)
    assert np.allclose(tilt, math.cos(a) * up + math.sin(a) * side)
    assert abs(side[1, 1]) < 1e-12


def test_ferrite_world_scales_the_moment():
    a = worlds.get("mu100-t0.2").field(0.02, (0, 0, 6, 0, 0, 1), [3.0], [1.0])
    b = worlds.get("ferrite-mu100-t0.2").field(0.02, (0, 0, 6, 0, 0, 1), [3.0], [1.0])
    assert np.allclose(b, worlds.FERRITE_SHARE * a)


def test_fast_path_agrees_with_a_direct_solve_of_the_finite_plate():
    """mu_r 100, t 0.2 mm, the magnet 5 mm above the card: the Richardson
    limit of two meshes of the finite plate against the slab series for the
    same magnet, within 15 % (two coarse meshes; the doc shows finer ones) where the field is more than 0.2 mT."""
    src = mom.magnet(5.0)
    pts = [(0.0, 0.0, mom.SENSOR_Z), (3.0, 0.0, mom.SENSOR_Z), (0.0, 5.0, mom.SENSOR_Z)]
    b_coarse, _ = mom.solve(100.0, 0.2, 2.0, src, pts)
    b_fine, _ = mom.solve(100.0, 0.2, 1.4, src, pts)
    lim = mom.extrapolate(b_coarse[:, 2], b_fine[:, 2], 2.0, 1.4)
    fast = mom.slab_field(100.0, 0.2, src, pts)[:, 2]
    assert np.all(np.abs(fast) > 0.2)
    assert np.all(np.abs(lim - fast) / np.abs(fast) < 0.15), (lim, fast)


def test_simulator_runs_in_a_computed_world_and_the_plate_shields():
    board = boards.load("reference")
    sc = sim.parse_scenario("set noise 0\nset spikes 0\ngate 0 g1 on zone 5 at 0.5s\nplace drago on zone 5 at 1.0s, at (0, 0) mm tilt 0\n")
    peaks = {}
    for name in ("none", "mu1000-t0.2"):
        res = sim.run(board, sc, seed=1, world=name)
        first = res.frames[5][1]
        last = res.frames[-1][1]
        chans = [s["ch"] for s in board["sensors"] if s["zone"] == 5]
        peaks[name] = max(abs(last[c] - first[c]) for c in chans)
    assert peaks["none"] > 5 * peaks["mu1000-t0.2"] > 0


def test_hw_layouts_prints_the_table_and_names_the_reference(capsys):
    from host_tools import cli
    assert cli.main(["hw", "layouts", "--world", "mu300-t0.2", "--layout", "hall6", "--layout", "lis2"]) == 0
    out = capsys.readouterr().out
    assert "| hall6 |" in out and "| lis2 |" in out and "reference layout lis2" in out
    assert cli.main(["hw", "layouts", "--world", "mu300-t0.2", "--layout", "amr2", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    (row,) = d["rows"]
    assert row["layout"] == "amr2" and row["snr"]["mu300-t0.2"] > 5 > 0 < row["crosstalk"]["mu300-t0.2"] < 1


def test_unknown_world_or_layout_is_a_one_line_error(capsys):
    from host_tools import cli
    assert cli.main(["hw", "layouts", "--world", "steel"]) == 2
    assert cli.main(["hw", "layouts", "--layout", "hall99"]) == 2
    assert cli.main(["demo", "--world", "steel", "--speed", "0"]) == 2
    err = capsys.readouterr().err
    assert "unknown world 'steel'" in err and "unknown layout 'hall99'" in err and "Traceback" not in err


def test_capture_world_refuses_a_three_axis_board_clearly():
    board = boards.load("amr2")
    sc = sim.parse_scenario("gate 0 g1 on zone 5 at 0.5s\nplace drago on zone 5 at 1.0s\n")
    with pytest.raises(worlds.WorldError, match="models Bz only"):
        sim.run(board, sc, seed=1, world="capture")
    res = sim.run(board, sc, seed=1, world="mu300-t0.2")
    assert len(res.frames[-1][1]) == 96


def test_bench_world_option_reaches_the_simulator(monkeypatch):
    from host_tools.commands import bench
    assert bench._take_world(["--games", "3", "--world", "none", "--seed", "2"]) == (["--games", "3", "--seed", "2"],
                                                                                  "none")
    assert bench._take_world(["--world=mu300-t0.2"]) == ([], "mu300-t0.2")
    assert bench._take_world(["--games", "3"]) == (["--games", "3"], None)
    board = boards.load("reference")
    sc = sim.parse_scenario("set noise 0\nset spikes 0\ngate 0 g1 on zone 5 at 0.5s\n"
                            "place drago on zone 5 at 1.0s, at (0, 0) mm tilt 0\n")
    default = sim.run(board, sc, seed=1).frames[-1][1]
    monkeypatch.setenv("BAKUMAT_WORLD", "mu1000-t0.2")
    assert sim.run(board, sc, seed=1).frames[-1][1] == sim.run(board, sc, seed=1, world="mu1000-t0.2").frames[-1][1]
    assert sim.run(board, sc, seed=1).frames[-1][1] != default
    assert sim.run(board, sc, seed=1, world="capture").frames[-1][1] == default
