"""Steady state allocates nothing: on the real `micropython` binary, a
configured game's per-frame path (Match.frame, then Table.tick, as the
app's sense stage runs them) on a quiet, noisy mat allocates no heap at
all over 500 frames. (The bench, `bakumat bench runtime`, counts the same
on the virtual board's whole loop.)"""
import json
import os

from mptools import HERE, REPO, micropython

SCRIPT = r"""
import sys, gc, json
sys.path.insert(0, %(fw)r)
sys.path.insert(0, %(tests)r)
from fwharness import load_board
import app
from runtime.boarddef import compact, expand
from runtime.session import ROLL_PARAMS
from referee.journal import Journal
from table.controller import Table
from match import Match
from array import array
h = json.loads(%(header)r)
t = Table(Journal(h, None), None, ())
m = Match(expand(compact(load_board())), t, None, params=ROLL_PARAMS)
n = m.pipeline.n
fr = array("H", [2180] * n)
seed = [1]
def noisy():
    for c in range(n):
        seed[0] = (seed[0] * 1103515245 + 12345) & 0x7FFFFFFF
        fr[c] = 2180 + (seed[0] >> 16) %% 9 - 4
def step(tt):
    m.frame(fr, tt)
    t.tick(tt)
tt = 0
for i in range(300):            # baselines settle
    noisy()
    tt += 20
    step(tt)
def measure(tt):
    ticks = 0
    total = 0
    d = 0
    for i in range(500):
        noisy()
        tt += 20
        gc.collect()
        a0 = gc.mem_alloc()
        step(tt)
        d = gc.mem_alloc() - a0
        if d:
            ticks += 1
            total += d
    return ticks, total
ticks, total = measure(tt)
print("ALLOC", ticks, total, len(m.pipeline.waits))
"""


def alloc_line(script, args=(), **subs):
    """Run script (with the firmware's and the tests' paths, the sample
    header and subs filled in; args: the interpreter's options) on
    micropython; the fields of its last ALLOC line."""
    with open(os.path.join(REPO, "host_tools", "samples", "official.ndjson")) as f:
        header = f.readline().strip()
    json.loads(header)
    vals = {"fw": os.path.join(REPO, "firmware"), "tests": HERE, "header": header}
    vals.update(subs)
    r = micropython(list(args) + ["-c", script % vals])
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    line = [x for x in out.splitlines() if x.startswith("ALLOC ")]
    assert line, out
    return line[-1].split()[1:]


def test_quiet_frames_allocate_nothing_on_micropython():
    ticks, total, waits = alloc_line(SCRIPT)
    assert (int(ticks), int(total)) == (0, 0), "quiet frames allocated heap: %s ticks, %s bytes" % (ticks, total)
    assert int(waits) == 0, "the quiet mat was not quiet: the pipeline started deciding"


SCRIPT_AMR = r"""
import sys, gc, json
sys.path.insert(0, %(fw)r)
from sense.pipeline import Pipeline
from array import array
board = json.loads(open(%(board)r).read())
p = Pipeline(board, None)
n = p.n
fr = array("H", [32768] * n)
seed = [1]
def noisy():
    for c in range(n):
        seed[0] = (seed[0] * 1103515245 + 12345) & 0x7FFFFFFF
        fr[c] = 32768 + (seed[0] >> 16) %% 69 - 34
tt = 0
for i in range(300):
    noisy()
    tt += 20
    p.feed(fr, tt)
def measure(tt):
    # locals only: a module global made inside the loop would be counted
    ticks = 0
    total = 0
    feed = p.feed
    for i in range(500):
        noisy()
        tt += 20
        gc.collect()
        a0 = gc.mem_alloc()
        feed(fr, tt)
        d = gc.mem_alloc() - a0
        if d:
            ticks += 1
            total += d
    return ticks, total
ticks, total = measure(tt)
print("ALLOC", ticks, total, len(p.waits))
"""


def test_the_amr2_mat_with_its_kernel_table_allocates_nothing(tmp_path):
    """The magnetometer mat (16-bit counts, 1 mG each), its pipeline holding
    the kernel table of the nominal world (sense.fit): quiet frames (uniform
    noise of 20 counts rms) allocate nothing either."""
    from host_tools import boards
    from host_tools.boards import kernels
    b = boards.load("amr2")
    b["kernels"] = kernels.build(b, "mu300-t0.2")
    bp = tmp_path / "board.json"
    bp.write_text(json.dumps(b))
    ticks, total, waits = alloc_line(SCRIPT_AMR, ["-X", "heapsize=4M"], board=str(bp))
    assert (int(ticks), int(total)) == (0, 0), "quiet frames allocated heap: %s ticks, %s bytes" % (ticks, total)
    assert int(waits) == 0, "the quiet mat was not quiet: the pipeline started deciding"


SCRIPT_LEDS = r"""
import sys, gc, json, time
sys.path.insert(0, %(fw)r)
sys.path.insert(0, %(tests)r)
from fwharness import load_board
from hw.strip import Strip
from show.feedback import Feedback


class Pixels:
    # the NeoPixel interface the Strip drives: a buffer and write()
    def __init__(self, n):
        self.n = n
        self.bpp = 3
        self.buf = bytearray(3 * n)
        self.ORDER = (1, 0, 2, 3)
        self.writes = 0

    def __len__(self):
        return self.n

    def write(self):
        self.writes += 1


bd = load_board()
n = bd["wiring"]["led"]["count"]
px = Pixels(n)
fb = Feedback(Strip(px), None, time, bd)
import referee
h = json.loads(%(header)r)
fb.configure(h)
fb.sync(referee.new_game(h, None).view())    # the set-up phase: the status LEDs breathe
now = 1000
for i in range(50):
    now += 20
    fb.tick(now)
w0 = px.writes
ticks = total = 0
for i in range(500):
    now += 20
    gc.collect()
    a0 = gc.mem_alloc()
    fb.tick(now)
    d = gc.mem_alloc() - a0
    if d:
        ticks += 1
        total += d
print("ALLOC", ticks, total, px.writes - w0)
"""


def test_animated_leds_redraw_without_allocating_on_micropython():
    """The LED redraws of a breathing mat (every 40 ms, the strip written
    each time) allocate nothing: the copy of what was written is a slice
    assignment, which MicroPython makes without a heap slice."""
    ticks, total, writes = alloc_line(SCRIPT_LEDS)
    assert int(writes) >= 50, "the strip was not redrawn while breathing: %s writes" % writes
    assert (int(ticks), int(total)) == (0, 0), "LED redraws allocated heap: %s ticks, %s bytes" % (ticks, total)
