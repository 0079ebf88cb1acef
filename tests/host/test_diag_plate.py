"""`bakumat diag plate` on the virtual board in several simulated worlds: the
maker's five steps (empty zone, a Bakugan on a plain card at mark A and at
mark B, on a gate card at A and at B) are simulated scenes; the command must recover the
world the virtual board runs in and save the figures in the calibration.

Its figures need the sensor under mark A to read the Bakugan without
clipping. On the reference mat a Bakugan standing 3 mm up straight over a
LIS2MDL takes it past its +-4.9 mT range, and the command refuses in one
line; the world is recovered with a Bakugan standing 8 mm up (on a spacer),
which the sensor reads whole.

Each scene is shown as simulated, without the per-run sensor spread the
simulator draws (offsets, gains, drift, noise set to 0 in the scenes): the
real mat keeps its sensors between the steps; the virtual board's own idle
noise (4 counts) stays."""
import json
import os
import subprocess
import threading
import time

import pytest

from host_tools import boards, sim
from host_tools.vboard import Recorded, VBoard
from mptools import tool

BOARD = boards.REFERENCE
QUIET = "set noise 0\nset spikes 0\nset drift 0\nset offset_spread 0\nset gain_spread 0\n"
MAGNET = "bakugan drago moment 0.0203 height 3.0 polarity up tilt 0\n"
# the same magnet raised: about 3.3 of the LIS2MDL's 4.9 mT straight below it on a plain card
TALL = "bakugan drago moment 0.0203 height 8.0 polarity up tilt 0\n"


pytestmark = pytest.mark.usefixtures("own_cache")  # one .mpy cache for the module (tests/conftest.py)


def start(tmp_path, world):
    b = boards.load(BOARD)
    b["wiring"]["tx_budget"] = 1024   # room for the raw stream (test_board_e2e.py says why)
    b["world"] = world
    work = tmp_path / "board"
    work.mkdir()
    v = VBoard(b, lockstep=False, workdir=str(work), mpy_dir=str(work))
    v.start()
    return v


def show(vb, text, magnet):
    res = sim.run(vb.board, sim.parse_scenario(QUIET + magnet + text), seed=0)
    vb.source = Recorded(res.frames, vb.vnow + 50, vb.board)
    return res.frames[-1][0]


def wait_for(lines, text, proc, timeout=60):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if any(text in ln for ln in lines) or proc.poll() is not None:
            break
        time.sleep(0.05)
    assert any(text in ln for ln in lines), "".join(lines)


def settle(vb, ms):
    t0 = vb.vnow
    end = time.monotonic() + 30
    while vb.vnow < t0 + ms and time.monotonic() < end:
        time.sleep(0.05)


def run_plate(vb, a, magnet, last="5/5"):
    """`diag plate --zone 5` through the maker's steps up to `last` with the
    Bakugan `magnet`, mark A at `a` (mm from the zone's centre); returns
    (process, stdout, stderr lines)."""
    p = subprocess.Popen([tool("bakumat"), "diag", "plate", "--zone", "5", "--port", vb.url, "--json"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    err = []
    out = []
    threading.Thread(target=lambda: err.extend(p.stderr), daemon=True).start()
    threading.Thread(target=lambda: out.extend(p.stdout), daemon=True).start()
    a = "at (%g, %g) mm tilt 0" % a
    b = "at (0, 0) mm tilt 0"
    steps = [("1/5", ""),
             ("2/5", "card on zone 5 at 0.2s\nplace drago on zone 5 at 0.4s, %s\ncard off zone 5 at 0.6s\n" % a),
             ("3/5", "card on zone 5 at 0.2s\nplace drago on zone 5 at 0.4s, %s\ncard off zone 5 at 0.6s\n" % b),
             ("4/5", "card on zone 5 at 0.2s\nplace drago on zone 5 at 0.4s, %s\n" % a),
             ("5/5", "card on zone 5 at 0.2s\nplace drago on zone 5 at 0.4s, %s\n" % b)]
    for tag, text in steps:
        wait_for(err, tag, p)
        if text:
            end_ms = show(vb, text, magnet)
            settle(vb, end_ms + 300)
        p.stdin.write("\n")
        p.stdin.flush()
        if tag == last:
            break
    return p, out, err


def test_diag_plate_refuses_a_sensor_that_saturates_under_mark_a(tmp_path):
    vb = start(tmp_path, "mu300-t0.2")
    try:
        # mark A as the command names it: straight over the z channel nearest the zone's centre
        p, out, err = run_plate(vb, (0, -22), MAGNET, last="2/5")
        assert p.wait(120) == 2, "".join(err)
        time.sleep(0.1)
        text = "".join(err)
        said = [ln for ln in err if "error" in ln]
        assert "straight over channel 32" in text, text
        assert len(said) == 1 and "the sensor under mark A saturates" in said[0] and "4.9 mT" in said[0], text
        assert "Traceback" not in text and out == []
        cal = os.path.join(vb.workdir, "calib.json")
        assert not os.path.exists(cal) or "plate" not in json.load(open(cal))   # nothing saved
    finally:
        vb.stop()


@pytest.mark.parametrize("world", ["none", "mu100-t0.2", "mu1000-t0.2", "ferrite-mu100-t0.2"])
def test_diag_plate_finds_the_world(tmp_path, world):
    vb = start(tmp_path, world)
    try:
        p, out, err = run_plate(vb, (0, -22), TALL)
        assert p.wait(120) == 0, "".join(err)
        time.sleep(0.1)
        r = json.loads("".join(out))
        assert r["world"] == world, r
        assert r["saved"]
        with open(os.path.join(vb.workdir, "calib.json")) as f:
            assert json.load(f)["plate"]["world"] == world   # the mat's calibration keeps it
        if world == "none":
            # zeroing the sensors again keeps the plate figures
            r = subprocess.run([tool("bakumat"), "calibrate", "--force", "--port", vb.url], capture_output=True,
                               text=True, timeout=120)
            assert r.returncode == 0, r.stderr
            with open(os.path.join(vb.workdir, "calib.json")) as f:
                cal = json.load(f)
            assert cal["plate"]["world"] == "none" and len(cal["zero"]) == len(vb.board["sensors"])
    finally:
        vb.stop()
