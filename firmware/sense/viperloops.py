"""The per-frame integer loops of sense.health (Health.scan) and sense.frames
(Frames.feed) as @micropython.viper functions: machine code on the chip, the
same arithmetic on the same preallocated arrays.

Imported only where the interpreter compiles viper (sense.frames and
sense.health try it at import: CPython, the WebAssembly port and a .mpy
built for another architecture fall back to their plain-Python loops).

Each kernel does the common, uneventful case and returns at the first
channel or zone that needs Python (a fault to report, a window that starts,
closes or settles, a roll, a refinement): before changing anything of it,
so the caller runs its plain code on exactly that one and calls the kernel
again from the next. tests/test_viper_loops.py proves both give identical
events and state on the same frames.

Viper's ptr32 loads are zero-extended on a 64-bit host (the unix port) and
the machine word on a 32-bit chip: every signed array('i') value is read as
(v << SX) >> SX, SX = 32 on a 64-bit host, 0 on the chip (measured at
import: _load32). At most four
arguments per kernel (older ports' viper limit): arrays go in a list.
"""
# ptr8 / ptr16 / ptr32 are names only the viper compiler knows: lint and
# type checks cannot see them (nor that the kernels' ints are machine words).
# ruff: noqa: F821
# mypy: ignore-errors
from array import array

import micropython


@micropython.viper
def _load32(a) -> int:
    p = ptr32(a)
    return p[0]


# word bits - 32, as the interpreter's ptr32 loads show it: -1 read back as
# -1 (a 32-bit chip) or as 2**32 - 1 (zero-extended: a 64-bit host).
# (CPython's test fakes make viper an identity: ptr32 is then unknown, a
# NameError here, and the importer takes the plain loops.)
SX = 0 if _load32(array("i", [-1])) == -1 else 32

# Health.scan's arrays, in this order, in the list A passed to scan16/scan32
# (Health._kargs: then kv, and the kernel chosen)
H_FRAME = 0     # the frame (array 'H' for scan16, 'L' / 'I' for scan32)
H_BAD = 1       # bytearray
H_RAIL = 2      # array 'h'
H_SAME = 3      # array 'i'
H_LAST = 4      # array 'i'
H_DEV = 5       # array 'i'
H_BASE = 6      # array 'i'
# Health.scan's integers in kv (array 'i'; A[7]): n, lo, hi, rail_n, stuck_n, ish
HK = 7


@micropython.viper
def scan16(c0: int, A, kv) -> int:
    """Health.scan over channels c0.. of a 16-bit frame; returns the first
    channel that reaches a fault count (a rail or stuck check: Python), or n."""
    pf = ptr16(A[0])
    pb = ptr8(A[1])
    pr = ptr16(A[2])
    ps = ptr32(A[3])
    pl = ptr32(A[4])
    pd = ptr32(A[5])
    pbs = ptr32(A[6])
    k = ptr32(kv)
    n = int(k[0])
    lo = int(k[1])
    hi = int(k[2])
    railn = int(k[3])
    stuckn = int(k[4])
    ish = int(k[5])
    sx = int(SX)
    c = c0
    while c < n:
        if pb[c]:
            c += 1
            continue
        x = int(pf[c])
        if x <= lo or x >= hi:
            r = int(pr[c]) + 1
            if r == railn:
                return c
            pr[c] = r
        elif pr[c]:
            pr[c] = 0
        if x == (int(pl[c]) << sx) >> sx:
            s = int(ps[c]) + 1
            if s == stuckn and x > lo and x < hi:
                return c
            ps[c] = s
        else:
            ps[c] = 0
            pl[c] = x
        pd[c] = (x >> ish) - (((int(pbs[c]) << sx) >> sx) + 2048 >> 12)
        c += 1
    return n


@micropython.viper
def scan32(c0: int, A, kv) -> int:
    """scan16 for a frame of unsigned 32-bit counts (array 'L' or 'I')."""
    pf = ptr32(A[0])
    pb = ptr8(A[1])
    pr = ptr16(A[2])
    ps = ptr32(A[3])
    pl = ptr32(A[4])
    pd = ptr32(A[5])
    pbs = ptr32(A[6])
    k = ptr32(kv)
    n = int(k[0])
    lo = int(k[1])
    hi = int(k[2])
    railn = int(k[3])
    stuckn = int(k[4])
    ish = int(k[5])
    sx = int(SX)
    c = c0
    while c < n:
        if pb[c]:
            c += 1
            continue
        x = int(pf[c])
        if x <= lo or x >= hi:
            r = int(pr[c]) + 1
            if r == railn:
                return c
            pr[c] = r
        elif pr[c]:
            pr[c] = 0
        if x == (int(pl[c]) << sx) >> sx:
            s = int(ps[c]) + 1
            if s == stuckn and x > lo and x < hi:
                return c
            ps[c] = s
        else:
            ps[c] = 0
            pl[c] = x
        pd[c] = (x >> ish) - (((int(pbs[c]) << sx) >> sx) + 2048 >> 12)
        c += 1
    return n


# Frames.feed's arrays, in this order, in the list Z passed to zones
# (per zone: zoff 'h' (nz + 1 offsets into zc), zc 'h' (the zones' channels
# one after another); per channel and per zone as sense.frames keeps them)
Z_ZOFF, Z_ZC, Z_BAD, Z_DEV, Z_SVF, Z_ACC, Z_ACW, Z_EMA, Z_BASE, Z_LAST = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
Z_ON, Z_CON, Z_TOL, Z_COH, Z_WACT, Z_WT0, Z_HOLD, Z_NACC, Z_RFN, Z_DEAD, Z_BURST, Z_NOCC, Z_BPK = \
    10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22
# Frames.feed's integers in kv (array 'i'): nz, t, dwell, bk, sk, db, ish, dg,
# then usum, ucnt (read and written: the quiet zones' baseline steps)
ZK = 10


@micropython.viper
def zones(z0: int, Z, kv) -> int:
    """Frames.feed's zone loop from zone z0: a quiet zone's baselines or
    steady state, a still window's sums; returns the first zone whose
    frame needs Python (a window starts, closes, settles; a burst ends; a
    refinement), or nz."""
    zoff = ptr16(Z[0])
    zc = ptr16(Z[1])
    bad = ptr8(Z[2])
    dev = ptr32(Z[3])
    svf = ptr32(Z[4])
    acc = ptr32(Z[5])
    acw = ptr32(Z[6])
    ema = ptr32(Z[7])
    base = ptr32(Z[8])
    last = ptr32(Z[9])
    on_t = ptr32(Z[10])
    con_t = ptr32(Z[11])
    tol_t = ptr32(Z[12])
    coh_t = ptr32(Z[13])
    wact = ptr8(Z[14])
    wt0 = ptr32(Z[15])
    hold = ptr32(Z[16])
    nacc = ptr32(Z[17])
    rfn = ptr8(Z[18])
    zdead = ptr8(Z[19])
    burst = ptr8(Z[20])
    nocc = ptr8(Z[21])
    bpk = ptr32(Z[22])
    k = ptr32(kv)
    sx = int(SX)
    nz = int(k[0])
    t = (int(k[1]) << sx) >> sx
    dwell = int(k[2])
    bk = int(k[3])
    sk = int(k[4])
    db = int(k[5])
    ish = int(k[6])
    dg = (int(k[7]) << sx) >> sx
    usum = (int(k[8]) << sx) >> sx
    ucnt = int(k[9])
    zi = z0
    while zi < nz:
        if zdead[zi]:
            zi += 1
            continue
        j0 = int(zoff[zi])
        j1 = int(zoff[zi + 1])
        na = int(nacc[zi])
        e_sum = 0
        e_sig = 0
        s_sum = 0
        s_sig = 0
        j = j0
        while j < j1:
            c = int(zc[j])
            j += 1
            if bad[c]:
                continue
            d = (int(dev[c]) << sx) >> sx
            e = d - (((int(svf[c]) << sx) >> sx) >> 8)
            e_sig += e
            if e < 0:
                e = 0 - e
            if e > db:
                e_sum += e - db
            s = d * na - ((int(acc[c]) << sx) >> sx)
            s_sig += s
            if s < 0:
                s = 0 - s
            s_sum += s
        if e_sig < 0:
            e_sig = 0 - e_sig
        if e_sum >= int(on_t[zi]) or e_sig >= int(con_t[zi]):
            if not wact[zi]:
                break                      # a window starts (Python)
            lim = na * int(coh_t[zi])
            if s_sum > na * (int(tol_t[zi]) + (e_sum >> 5)) or s_sig > lim or 0 - s_sig > lim:
                break                      # the field moved: the window starts again (Python)
            if t - ((int(wt0[zi]) << sx) >> sx) >= dwell and t >= ((int(hold[zi]) << sx) >> sx):
                break                      # the window settles (Python)
            if e_sum > int(bpk[zi]):
                bpk[zi] = e_sum
            j = j0
            while j < j1:
                c = int(zc[j])
                j += 1
                d = (int(dev[c]) << sx) >> sx
                m = (int(ema[c]) << sx) >> sx
                ema[c] = m + (((d << 4) - m) >> 1)
                if na < 255:
                    acc[c] = ((int(acc[c]) << sx) >> sx) + d
                    acw[c] = ((int(acw[c]) << sx) >> sx) + na * d
            if na < 255:
                nacc[zi] = na + 1
        else:
            if wact[zi] or burst[zi]:
                break                      # the window closes, or a burst ends (Python)
            if nocc[zi]:
                if rfn[zi]:
                    break                  # refinement sums (Python)
                j = j0
                while j < j1:
                    c = int(zc[j])
                    j += 1
                    v = (int(svf[c]) << sx) >> sx
                    svf[c] = v + (((((int(dev[c]) << sx) >> sx) << 8) - v) >> sk)
            else:
                j = j0
                while j < j1:
                    c = int(zc[j])
                    j += 1
                    if not bad[c]:
                        b = (int(base[c]) << sx) >> sx
                        u = (((((int(last[c]) << sx) >> sx) >> ish) << 12) - b) >> bk
                        base[c] = b + u
                        usum += u
                        ucnt += 1
                zi += 1
                continue
        if dg:
            j = j0
            while j < j1:
                c = int(zc[j])
                j += 1
                base[c] = ((int(base[c]) << sx) >> sx) + dg
        zi += 1
    k[8] = usum
    k[9] = ucnt
    return zi


# what sense.health and sense.frames take (one name in their modules, not three)
KERNELS = (scan16, scan32, zones)
