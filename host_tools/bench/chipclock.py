"""The sensing benchmark on the chip's clock (`bakumat bench sensing
--chip-clock`): what the mat senses when each decision takes as long as it
would on the ESP32-S3, not the no time it takes in a simulation.

A sensing decision (Decide.settled, and the kernel fit it runs) is the
longest work of the loop: on the reference board about 40-80 solves of the
fit's 3 x 3 system, each several hundred microseconds on an S3. While it
runs, the loop scans nothing (docs/runtime.md: a tick that overruns restarts
the schedule from now), so the frames that fall in it are never read, and
the players see the decision only when it is done. The game is played as
the chip would play it:

- the cost model: per frame, the fit's solves (Kernels.solves), fits
  (Kernels._fit) and decisions (Decide.settled) are counted; what each
  costs is measured on the `micropython` binary (host_tools/mpscripts/
  decisioncost.py: a game of the board, each deciding frame's time, the
  least of 3 runs, least squares on the three counts; solves and fits go
  together, about 40 to one, so only their sum is well measured) and
  projected onto the S3 by pystone in the same run
  (host_tools/bench/chiptime.py);
- a frame's tick on the chip is the board's quiet tick (QUIET_MS: the scan,
  the link, the show, as `bakumat bench runtime` projects them) plus its
  decisions' cost; a tick longer than the period drops the frames that fall
  in it (the next scan is the first frame at or after its end);
- what a tick decided is seen at its end: the latency is (the tick's start +
  its length) - the true opening.

The counting is deterministic (the same game gives the same ticks on any
machine); only the cost per count is measured, once a run.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

from host_tools import fwpath, mpscripts
from host_tools.bench import chiptime

CHIP = 0         # chiptime.CHIPS[0]: the reference board's ESP32-S3 @ 240 MHz
PERIOD_MS = 20
# The quiet tick on the S3 (`bakumat bench runtime`, one run): the lis2
# mat (the reference board) 9.0 ms at the high per-call bound (8.0 and 9.0
# in two `--quick` runs on an idle machine: the higher); the retired Hall
# board 8.7 ms; the amr2 board 15.0 ms with its I2C bus alone (44 ms with
# the 430 us a call micropython PR #8718 measured on an S2: then every tick
# overruns; chiptime.I2C_CALL_US), the least that chip can take.
QUIET_MS = {"lis2": 9.0, "amr2": 15.0, "reference": 8.7}


class Costs:
    """us on the chip per solve, per fit, per decision (beyond the solves
    and fits), from one measurement; and what it was measured with."""

    def __init__(self, solve, fit, settle, pystones, resid, n):
        self.solve = solve
        self.fit = fit
        self.settle = settle
        self.pystones = pystones
        self.resid = resid     # the model's error, rms over the deciding frames, relative to their mean
        self.n = n             # deciding frames it was fitted on

    def ms(self, solves, fits, settles):
        return (self.solve * solves + self.fit * fits + self.settle * settles) / 1000.0


def measure(board, seed=3, reps=3):
    """Costs of `board`'s decisions (its kernel table, if any, in it), from
    a simulated game of seed on the micropython binary."""
    import numpy as np
    from host_tools import sim
    from host_tools.bench.bench_sensing import simulate
    mp = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(mp):
        import shutil
        mp = shutil.which("micropython")
    if not mp:
        raise RuntimeError("micropython not found: install the dev extras")
    _, res = simulate(board, seed)
    del sim
    with tempfile.TemporaryDirectory() as d:
        bp = os.path.join(d, "board.json")
        fp = os.path.join(d, "frames.bin")
        with open(bp, "w") as f:
            json.dump(board, f)
        with open(fp, "wb") as f:
            for t, counts in res.frames:
                f.write(struct.pack("<I", t) + struct.pack("<%dI" % len(counts), *counts))
        r = subprocess.run([mp, "-X", "heapsize=16M", mpscripts.path("decisioncost.py"), fwpath.FIRMWARE_DIR,
                            bp, fp, str(reps)], capture_output=True, text=True, timeout=900,
                           cwd=os.path.dirname(mpscripts.path("decisioncost.py")))
    if r.returncode != 0:
        raise RuntimeError("micropython failed: %s" % (r.stdout + r.stderr)[-2000:])
    rows = []
    quiet = 0.0
    ps = 0.0
    for line in r.stdout.splitlines():
        p = line.split()
        if p[:1] == ["F"]:
            rows.append([float(x) for x in p[2:6]])
        elif p[:1] == ["Q"]:
            quiet = float(p[1])
        elif p[:1] == ["PYSTONE"]:
            ps = float(p[1])
    if not rows or ps <= 0:
        raise RuntimeError("micropython: no deciding frame measured: %s" % r.stdout[-500:])
    a = np.array([x[1:] for x in rows])
    y = np.array([x[0] for x in rows]) - quiet
    coef = np.linalg.lstsq(a, y, rcond=None)[0]
    coef = np.maximum(coef, 0.0)
    resid = float(np.sqrt(np.mean((a @ coef - y) ** 2)) / max(1e-9, float(np.mean(y))))
    k = ps / float(chiptime.CHIPS[CHIP][1])
    return Costs(coef[0] * k, coef[1] * k, coef[2] * k, ps, resid, len(rows))


class Clock:
    """Counts, in this process, what each frame's decisions did (wrapping
    the firmware's three methods once; the firmware is unchanged) and turns
    it into the frame's tick on the chip."""

    def __init__(self, costs, quiet_ms, period_ms=PERIOD_MS):
        self.costs = costs
        self.quiet_ms = quiet_ms
        self.period_ms = period_ms
        self.n = [0, 0, 0]
        self.ticks = 0
        self.over = 0          # ticks over the period
        self.dropped = 0       # frames the chip would not have scanned
        self.worst_ms = 0.0
        self.long = []         # each tick over the period, ms
        _count(self)

    def start(self):
        self.n[0] = self.n[1] = self.n[2] = 0

    def tick_ms(self):
        ms = self.quiet_ms + self.costs.ms(self.n[0], self.n[1], self.n[2])
        self.ticks += 1
        if ms > self.worst_ms:
            self.worst_ms = ms
        if ms > self.period_ms:
            self.over += 1
            self.long.append(ms)
        return ms


_active = [None]


def _count(clock):
    fwpath.ensure()
    from sense import decide, fit
    _active[0] = clock
    if getattr(fit.Kernels, "_clocked", False):
        return
    fn = fit.Kernels._fit

    def fitted(self, *a):
        c = _active[0]
        n = self.solves
        r = fn(self, *a)
        if c is not None:
            c.n[0] += self.solves - n
            c.n[1] += 1
        return r
    fit.Kernels._fit = fitted
    dn = decide.Decide.settled

    def settled(*a):
        c = _active[0]
        if c is not None:
            c.n[2] += 1
        return dn(*a)
    decide.Decide.settled = settled
    fit.Kernels._clocked = True


def chip_name():
    return chiptime.CHIPS[CHIP][0]
