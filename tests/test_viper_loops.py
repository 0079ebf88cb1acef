"""The viper kernels of the per-frame loops (firmware/sense/viperloops.py)
against the plain-Python loops they stand in for: on the real `micropython`
binary (which compiles viper), two pipelines fed the same frames, one with
the kernels and one with the plain loops only, send the same events and end
every frame with the same state, array by array. Frames: a simulated
official game on the reference mat (lis2: 16-bit frames, its kernel table)
and a simulated game on the 20-bit amr2 mat (32-bit frames as the chip's
array('L'), counts >> ish, its kernel table), each with channels made to fail (stuck, dead, saturated) so that the health kernel's
hand-over to Python runs too."""
import json
import os
import struct

import pytest

from mptools import REPO, micropython

SCRIPT = r"""
import sys, json
sys.path.insert(0, %(fw)r)
from array import array
from sense import frames as F, health as H
from sense.pipeline import Pipeline
assert F.viperloops is not None and H.viperloops is not None, "viper kernels not compiled on the unix port"
board = json.loads(open(%(board)r).read())
TC = %(tc)r
evs = ([], [])
fast = Pipeline(board, evs[0].append)
plain = Pipeline(board, evs[1].append)
plain.fr.fast = False
plain.hl.fast = False
# count the zones and channels the kernels hand to Python
handed = [0, 0]
zf = fast.fr._plain
def zcount(frame, t, first, end, bk):
    handed[0] += 1
    zf(frame, t, first, end, bk)
fast.fr._plain = zcount
hf = fast.hl._plain
def hcount(frame, t, base, dev, first, end):
    handed[1] += 1
    hf(frame, t, base, dev, first, end)
fast.hl._plain = hcount
n = fast.n
fr = array(TC, [0] * n)
raw = bytearray(%(isz)d * n)
f = open(%(frames)r, "rb")
tb = bytearray(4)
NAMES = ("base", "dev", "svf", "acc", "acw", "ema", "nacc", "wact", "bpk", "burst", "bt0", "wt0", "tw0", "hold",
         "rfn", "rfe", "zdead", "on_t", "con_t", "tol_t", "coh_t")
HN = ("bad", "last", "same", "rail")
def same_state(k):
    for nm in NAMES:
        if bytes(getattr(fast.fr, nm)) != bytes(getattr(plain.fr, nm)):
            raise SystemExit("DIFF frame %%d: frames.%%s" %% (k, nm))
    for nm in HN:
        if bytes(getattr(fast.hl, nm)) != bytes(getattr(plain.hl, nm)):
            raise SystemExit("DIFF frame %%d: health.%%s" %% (k, nm))
    if fast.fr.dg != plain.fr.dg:
        raise SystemExit("DIFF frame %%d: dg" %% k)
    if len(evs[0]) != len(evs[1]) or (evs[0] and repr(evs[0][-1]) != repr(evs[1][-1])):
        raise SystemExit("DIFF frame %%d: events %%r / %%r" %% (k, evs[0][-1:], evs[1][-1:]))
k = 0
while f.readinto(tb) == 4:
    f.readinto(raw)
    t = tb[0] | (tb[1] << 8) | (tb[2] << 16) | (tb[3] << 24)
    for c in range(n):
        if %(isz)d == 2:
            fr[c] = raw[2 * c] | (raw[2 * c + 1] << 8)
        else:
            fr[c] = raw[4 * c] | (raw[4 * c + 1] << 8) | (raw[4 * c + 2] << 16) | (raw[4 * c + 3] << 24)
    fast.feed(fr, t)
    plain.feed(fr, t)
    same_state(k)
    k += 1
kinds = {}
for e in evs[0]:
    kinds[e["ev"]] = kinds.get(e["ev"], 0) + 1
print("SAME", k, len(evs[0]), handed[0], handed[1], json.dumps(kinds))
"""


def _frames_with_faults(res, max_counts, seed):
    """(t, counts) of the simulated game, with three channels failing in
    its second half: one stuck at its last count, one dead (0), one
    saturated (full scale)."""
    import random
    rng = random.Random(seed)
    frames = [(t, list(c)) for t, c in res.frames]
    n = len(frames[0][1])
    stuck, dead, sat = rng.sample(range(n), 3)
    half = len(frames) // 2
    for i in range(half, len(frames)):
        c = frames[i][1]
        c[stuck] = frames[half][1][stuck]
        if i >= half + 300:
            c[dead] = 0
        if i >= half + 600:
            c[sat] = max_counts
    return frames


def _run(tmp_path, board, res, tc, isz):
    frames = _frames_with_faults(res, int(board["sensor"]["max_counts"]), 7)
    fp = tmp_path / "frames.bin"
    with open(fp, "wb") as f:
        for t, counts in frames:
            f.write(struct.pack("<I", t) + struct.pack("<%d%s" % (len(counts), "H" if isz == 2 else "I"), *counts))
    bp = tmp_path / "board.json"
    bp.write_text(json.dumps(board))
    r = micropython(["-X", "heapsize=8M", "-c", SCRIPT % {"fw": os.path.join(REPO, "firmware"), "board": str(bp),
                                                          "frames": str(fp), "tc": tc, "isz": isz}])
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-3000:]
    line = [x for x in out.splitlines() if x.startswith("SAME ")]
    assert line, out[-3000:]
    _, nframes, nev, zones_py, chans_py, kinds = line[-1].split(" ", 5)
    kinds = json.loads(kinds)
    assert int(nframes) == len(frames)
    return int(nev), int(zones_py), int(chans_py), kinds


def _game(name, seed, world=None):
    from host_tools import boards, sim
    board = boards.load(name)
    with open(os.path.join(REPO, "host_tools", "samples", "official.ndjson")) as f:
        header = json.loads(f.readline())
    sc = sim.random_game(seed, board, header)
    return board, sim.run(board, sc, seed=seed, header=sc.header, world=world)


def test_reference_mat_kernels_match_the_plain_loops(tmp_path):
    from host_tools import boards
    from host_tools.boards import kernels
    board, res = _game(boards.REFERENCE, 1, world="mu300-t0.2")
    board["kernels"] = kernels.build(board, "mu300-t0.2")
    # the LIS2MDL's 16-bit counts: the chip's array('H'), scan16
    nev, zones_py, chans_py, kinds = _run(tmp_path, board, res, "H", 2)
    # the game was sensed (landings), the failing channels reported, and
    # the kernels handed those zones and channels to Python
    assert kinds.get("land", 0) >= 5, kinds
    assert kinds.get("fault", 0) >= 2, kinds
    assert zones_py > 0 and chans_py >= 2


def test_amr2_mat_kernels_match_the_plain_loops(tmp_path):
    from host_tools.boards import kernels
    board, res = _game("amr2", 2, world="mu300-t0.2")
    board["kernels"] = kernels.build(board, "mu300-t0.2")
    # 'I': 4 bytes on the unix port as 'L' is on the chip ('L' is 8 bytes on
    # a 64-bit host, where the plain loop takes it)
    nev, zones_py, chans_py, kinds = _run(tmp_path, board, res, "I", 4)
    assert kinds.get("land", 0) >= 3, kinds
    assert zones_py > 0 and chans_py >= 1


# the scripts' random numbers: one LCG, the same on both interpreters
RND = r"""seed = [%(seed)d]
def rnd(n):
    seed[0] = (seed[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return seed[0] %% n
"""

FIT_SCRIPT = r"""
import sys, json
sys.path.insert(0, %(fw)r)
from array import array
from sense import fitkernels as V, fitplain as P
from sense.fit import Kernels, VBIAS
t = json.loads(open(%(table)r).read())
kern = Kernels(t, 6)
nch = 6
ncell = kern.nx * kern.ny
""" + RND + r"""same = 0
for trial in range(300):
    # a change of up to 2^12 each way (fit.py scales it so), and places
    # over the grid and past its far end (kernels_at clamps; fit.py clamps
    # below 0)
    vi = array("i", [VBIAS + rnd(8191) - 4095 for _ in range(nch)])
    g1 = array("i", bytes(4 * ncell))
    g2 = array("i", bytes(4 * ncell))
    b1 = V.scan(kern.q, vi, g1, ncell << 8 | nch)
    b2 = P.scan(kern.q, vi, g2, ncell << 8 | nch)
    if b1 != b2 or bytes(g1) != bytes(g2):
        raise SystemExit("DIFF scan trial %%d" %% trial)
    geo = array("i", kern.geo)
    geo[0] = rnd((kern.nx + 2) << 8)
    geo[1] = rnd((kern.ny + 2) << 8)
    geo[2] = rnd((len(kern.hs) + 1) << 8)
    n1 = array("i", bytes(4 * len(kern.ne)))
    n2 = array("i", bytes(4 * len(kern.ne)))
    V.kernels_at(kern.k, vi, n1, geo)
    P.kernels_at(kern.k, vi, n2, geo)
    if bytes(n1) != bytes(n2):
        raise SystemExit("DIFF kernels_at trial %%d: %%r %%r" %% (trial, list(n1)[-9:], list(n2)[-9:]))
    e1 = V.gain(kern.k, vi, n1, geo, 3 * nch)
    e2 = P.gain(kern.k, vi, n2, geo, 3 * nch)
    if e1 != e2 or bytes(n1) != bytes(n2):
        raise SystemExit("DIFF gain trial %%d: %%r %%r" %% (trial, e1, e2))
    # the search from a random cell of the middle height, as fit.py starts it
    s1 = array("i", [rnd(kern.nx) << 8, rnd(kern.ny) << 8, 256, (len(kern.hs) - 1) << 8, 128, 32, 80, 3 * nch, 0])
    s2 = array("i", s1)
    e1 = V.search(kern.k, vi, n1, array("i", kern.geo), s1)
    e2 = P.search(kern.k, vi, n2, array("i", kern.geo), s2)
    if e1 != e2 or bytes(s1) != bytes(s2) or s1[8] < 7:
        raise SystemExit("DIFF search trial %%d: %%r %%r %%r %%r" %% (trial, e1, e2, list(s1), list(s2)))
    same += 1
print("SAME", same)
"""


def test_the_fit_kernels_match_their_plain_loops(tmp_path):
    """sense/fitkernels.py (viper, as the chip runs it) against
    sense/fitplain.py (CPython, the WebAssembly port) on the real
    micropython binary: the same best cell, cell scores, normal
    equations, explained energy (gain, native code against Python) and
    searched place (search) for 300 random changes and places, on the amr2
    mat's kernel table."""
    from host_tools import boards
    from host_tools.boards import kernels
    p = tmp_path / "k.json"
    p.write_text(json.dumps(kernels.build(boards.load("amr2"), "mu300-t0.2")))
    r = micropython(["-X", "heapsize=8M", "-c", FIT_SCRIPT % {"fw": os.path.join(REPO, "firmware"), "table": str(p), "seed": 12345}])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "SAME 300" in r.stdout


SENSED_SCRIPT = r"""
import sys, json
sys.path.insert(0, %(fw)r)
from array import array
from sense.pipeline import Pipeline
board = json.loads(open(%(board)r).read())
evs = []
p = Pipeline(board, evs.append)
n = p.n
fr = array("I", [0] * n)
raw = bytearray(4 * n)
tb = bytearray(4)
f = open(%(frames)r, "rb")
while f.readinto(tb) == 4:
    f.readinto(raw)
    t = tb[0] | (tb[1] << 8) | (tb[2] << 16) | (tb[3] << 24)
    for c in range(n):
        fr[c] = raw[4 * c] | (raw[4 * c + 1] << 8) | (raw[4 * c + 2] << 16) | (raw[4 * c + 3] << 24)
    p.feed(fr, t)
for e in evs:
    print("EV " + json.dumps(e))
"""


def test_the_amr2_mat_senses_alike_on_cpython_and_micropython(tmp_path):
    """The reference mat's game (its kernel table, three channels failing
    halfway) sensed by the pipeline under CPython (the fit's plain loops)
    and under the micropython binary (its viper kernels): the same sensed
    events, to the last digit of every field."""
    from host_tools import fwpath
    from host_tools.boards import kernels
    fwpath.ensure()
    from sense.pipeline import Pipeline
    board, res = _game("amr2", 2, world="mu300-t0.2")
    board["kernels"] = kernels.build(board, "mu300-t0.2")
    frames = _frames_with_faults(res, int(board["sensor"]["max_counts"]), 7)
    fp = tmp_path / "frames.bin"
    with open(fp, "wb") as f:
        for t, counts in frames:
            f.write(struct.pack("<I", t) + struct.pack("<%dI" % len(counts), *counts))
    bp = tmp_path / "board.json"
    bp.write_text(json.dumps(board))
    r = micropython(["-X", "heapsize=8M", "-c", SENSED_SCRIPT % {"fw": os.path.join(REPO, "firmware"),
                                                                 "board": str(bp), "frames": str(fp)}])
    assert r.returncode == 0, (r.stdout + r.stderr)[-3000:]
    mp = [json.loads(x[3:]) for x in r.stdout.splitlines() if x.startswith("EV ")]
    evs = []
    p = Pipeline(json.loads(bp.read_text()), evs.append)
    for t, counts in frames:
        p.feed(counts, t)
    cp = json.loads(json.dumps(evs))
    kinds = [e["ev"] for e in cp]
    assert kinds.count("land") >= 3 and "fault" in kinds, kinds
    assert mp == cp


CRC_SCRIPT = r"""
import sys
sys.path.insert(0, %(fw)r)
from link import codec
fast = codec._fast
assert fast is not None, "the viper CRC did not compile on the unix port"
""" + RND + r"""same = 0
for trial in range(300):
    n = rnd(700)
    data = bytearray(rnd(256) for _ in range(n))
    a = rnd(n + 1)
    b = a + rnd(n - a + 1)
    c = rnd(0x10000)
    codec._fast = None
    plain = codec.crc16(data, a, b, c)
    whole = codec.crc16(bytes(data))
    codec._fast = fast
    if codec.crc16(data, a, b, c) != plain or codec.crc16(bytes(data)) != whole:
        raise SystemExit("DIFF crc trial %%d" %% trial)
    same += 1
print("SAME", same, codec.crc16(b"123456789") == 0x29B1)
"""


def test_the_viper_crc_matches_the_plain_loop():
    """link/crcviper.py (viper, as the chip runs it) against codec.crc16's
    Python loop on the micropython binary: the same CRC-16 for 300 random
    buffers, slices and starting values, and the standard check value."""
    r = micropython(["-c", CRC_SCRIPT % {"fw": os.path.join(REPO, "firmware"), "seed": 777}])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "SAME 300 True" in r.stdout
