# Runs under the micropython binary (host_tools/bench/chipclock.py):
#   micropython decisioncost.py FIRMWARE_DIR BOARD_JSON FRAMES_BIN REPS
# What a sensing decision costs, in the firmware's own terms: a pipeline of
# the board fed a game's frames (FRAMES_BIN: per frame, t as uint32 then the
# channels as uint32, little-endian) counts, per frame, the kernel fit's
# solves (Kernels.solves), its fits (Kernels._fit) and the decisions
# (Decide.settled) it ran; fresh pipelines fed the same frames REPS times,
# without the counting, time each frame (the least of the runs: the game is
# deterministic, other load and the collector only ever add time). Prints
# "F index us solves fits settles" for every frame that decided, "Q us" the
# median frame that did not, then "PYSTONE per-second" measured here.
import sys
import time

sys.path.insert(0, sys.argv[1])
import json  # noqa: E402
from array import array  # noqa: E402

from sense import decide, fit  # noqa: E402
from sense.pipeline import Pipeline  # noqa: E402

board = json.loads(open(sys.argv[2]).read())
reps = int(sys.argv[4])


def frames():
    f = open(sys.argv[3], "rb")
    n = len(board["sensors"])
    raw = bytearray(4 * n)
    tb = bytearray(4)
    fr = array("L", [0] * n)
    while f.readinto(tb) == 4:
        f.readinto(raw)
        for c in range(n):
            fr[c] = raw[4 * c] | (raw[4 * c + 1] << 8) | (raw[4 * c + 2] << 16) | (raw[4 * c + 3] << 24)
        yield tb[0] | (tb[1] << 8) | (tb[2] << 16) | (tb[3] << 24), fr
    f.close()


cnt = [0, 0, 0]
kept = (fit.Kernels._fit, decide.Decide.settled)


def fitted(self, vs, use):
    n = self.solves
    r = kept[0](self, vs, use)
    cnt[0] += self.solves - n
    cnt[1] += 1
    return r


def settled(self, zi, t):
    cnt[2] += 1
    kept[1](self, zi, t)


fit.Kernels._fit = fitted
decide.Decide.settled = settled
p = Pipeline(board, lambda e: None)
counts = {}
k = 0
for t, fr in frames():
    cnt[0] = cnt[1] = cnt[2] = 0
    p.feed(fr, t)
    if cnt[2]:
        counts[k] = (cnt[0], cnt[1], cnt[2])
    k += 1
fit.Kernels._fit, decide.Decide.settled = kept
best = {}
quiet = []
for r in range(reps):
    p = Pipeline(board, lambda e: None)
    k = 0
    for t, fr in frames():
        t0 = time.ticks_us()
        p.feed(fr, t)
        us = time.ticks_diff(time.ticks_us(), t0)
        if k in counts:
            if us < best.get(k, 1 << 30):
                best[k] = us
        elif r == 0:
            quiet.append(us)
        k += 1
quiet.sort()
for k in sorted(best):
    s, f, d = counts[k]
    print("F", k, best[k], s, f, d)
print("Q", quiet[len(quiet) // 2] if quiet else 0)
import pystone  # noqa: E402
print("PYSTONE", max(pystone.pystones(20000)[1] for _ in range(3)))
