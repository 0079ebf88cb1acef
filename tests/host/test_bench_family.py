"""`bakumat bench sensing --worlds family,...`: the family's row beside a
named world's, for both corpora, and the errors by physical situation."""
import subprocess
import sys

import pytest

pytestmark = pytest.mark.usefixtures("own_cache")


def test_bench_prints_the_family_row_and_the_situations_table():
    r = subprocess.run([sys.executable, "-m", "host_tools.cli", "bench", "sensing", "--worlds", "family,mu300-t0.2",
                        "--games", "1", "--no-micropython", "--idle-hours", "0.001", "--detection"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    rows = [l.split("|") for l in r.stdout.splitlines() if l.startswith("| ")]
    main = [(c[1].strip(), c[2].strip()) for c in rows if len(c) > 10 and c[3].strip() == "1"]
    assert main == [("family", "development"), ("family", "held-out"), ("mu300-t0.2", "development"),
                    ("mu300-t0.2", "held-out")]
    situ = {(c[1].strip(), c[2].strip(), c[3].strip().split(" (")[0]): [int(x) for x in c[4:9]]
            for c in rows if len(c) == 10 and c[4].strip().isdigit()}
    for world in ("family", "mu300-t0.2"):
        for corpus in ("development", "held-out"):
            for k in ("over card", "second", "lift", "lesson off-centre", "taught off-centre", "clipped",
                      "plate far", "moment below range", "moment above range", "height off-range", "none", "all"):
                assert (world, corpus, k) in situ
            n, missed, named, wrong, false = situ[(world, corpus, "all")]
            assert n > 5 and missed <= n and wrong <= named <= n
    # the named world's lessons are put in the middle; the family's are where a child puts them
    assert situ[("mu300-t0.2", "development", "lesson off-centre")][0] == 0
    assert situ[("mu300-t0.2", "development", "plate far")][0] == 0
    assert "plate far = the game's plate letting through more than 1.25 times" in r.stdout


def test_the_family_idle_mat_runs_at_the_familys_highest_noise(monkeypatch):
    from host_tools import boards, sim
    from host_tools.bench import bench_sensing as bs
    from host_tools.sim import family
    seen = []
    real = sim.idle_frames

    def spy(board, seconds, seed=0, settings=None):
        seen.append(settings)
        return real(board, seconds, seed, settings)
    monkeypatch.setattr(sim, "idle_frames", spy)
    b = boards.offered("amr2")
    bs.idle(bs.with_detector(dict(b, world="mu300-t0.2")), 0.0005, 1)
    bs.idle(dict(bs.with_detector(dict(b, world="mu300-t0.2")), family=True), 0.0005, 1)
    assert seen[0] is None
    assert seen[1] == {"noise": b["sensor"]["noise_counts_rms"] * family.NOISE_FACTOR_RANGE[1]}
