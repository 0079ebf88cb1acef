"""The kernel fit's two integer loops (sense/fit.py) as @micropython.viper
functions: machine code on the chip. sense/fitplain.py is the same code in
plain Python, for CPython and interpreters without viper (fit.py imports
this module where it compiles, that one elsewhere); tests/test_viper_loops.py
proves both give the same integers on the same arrays. Apart from fit.py
because viper's ptr16/ptr32 are names only the viper compiler knows: lint
and type checks cannot follow them (as in sense/viperloops.py). Loaded with
the fit, only by a board with a kernel table. The values they read are
biased to stay >= 0 (fit.KBIAS = 2^22, fit.VBIAS = 2^12, the literals
below): a 32-bit load is not sign-extended on a 64-bit port.
"""
# ruff: noqa: F821
# mypy: ignore-errors
import micropython


@micropython.viper
def scan(q: ptr16, vi: ptr32, gs: ptr32, n: int) -> int:
    """The explained energy |Q^T v|^2 of every cell (gs[c], in vi's units
    squared) and the best cell. q: the cells' whitened kernels (nch x 3 per
    cell, int16 in 2^14 stored unsigned), vi: the change in fixed point
    plus VBIAS (|vi - VBIAS| < 2^12, so every product and sum stays under 2^31 on a 32-bit
    chip and Python's integers give the same numbers). n: cells << 8 |
    channels (a viper function takes four arguments)."""
    ncell = n >> 8
    nch = n & 255
    best = -1
    bc = 0
    b = 0
    w = nch * 3
    c = 0
    while c < ncell:
        tot = 0
        d = 0
        while d < 3:
            s = 0
            i = b + d
            j = 0
            while j < nch:
                x = int(q[i])
                x -= (x & 0x8000) << 1
                s += x * (int(vi[j]) - 4096)
                i += 3
                j += 1
            s = s >> 14
            tot += s * s
            d += 1
        gs[c] = tot
        if tot > best:
            best = tot
            bc = c
        b += w
        c += 1
    return bc


@micropython.viper
def kernels_at(k: ptr32, vi: ptr32, ne: ptr32, g: ptr32):
    """The fixed-point kernels at a place between the cells and their
    normal equations against the change vi (|vi| < 2^12). g: the place
    [x, y, height in 1/256 of a cell from the grid's first, each >= 0
    (the caller clamps: a 32-bit load is not sign-extended on a 64-bit
    port), clamped here to the grid's far end], then nx, ny, heights,
    channels. ne[0:3 nch] = the kernels
    trilinear between the eight cells around, plus KBIAS (k + KBIAS <
    2^23, so x 256 stays under 2^31; a convex sum of biased values is the
    biased sum); ne[3 nch:] = K^T K (00, 01, 02, 11, 12, 22) and
    K^T v, with K shifted right until |K| < 2^13 (every sum stays under
    2^31; the energy the kernels explain does not depend on their
    scale)."""
    nx = g[3]
    ny = g[4]
    nh = g[5]
    nch = g[6]
    x = g[0]
    y = g[1]
    h = g[2]
    top = (nx - 1) << 8
    if x >= top:
        x = top - 1
    if x < 0:
        x = 0
    top = (ny - 1) << 8
    if y >= top:
        y = top - 1
    if y < 0:
        y = 0
    w = nch * 3
    sh = nx * ny * w
    if nh > 1:
        top = (nh - 1) << 8
        if h >= top:
            h = top - 1
        if h < 0:
            h = 0
    else:
        h = 0
        sh = 0
    ax = x & 255
    ay = y & 255
    ah = h & 255
    bx = 256 - ax
    by = 256 - ay
    bh = 256 - ah
    sy = nx * w
    b = (((h >> 8) * ny + (y >> 8)) * nx + (x >> 8)) * w
    big = 0
    j = 0
    while j < w:
        i = b + j
        v0 = (((k[i] * bx + k[i + w] * ax) >> 8) * by + ((k[i + sy] * bx + k[i + sy + w] * ax) >> 8) * ay) >> 8
        i += sh
        v1 = (((k[i] * bx + k[i + w] * ax) >> 8) * by + ((k[i + sy] * bx + k[i + sy + w] * ax) >> 8) * ay) >> 8
        v = (v0 * bh + v1 * ah) >> 8
        ne[j] = v
        v -= 4194304
        if v < 0:
            v = 0 - v
        if v > big:
            big = v
        j += 1
    s = 0
    while (big >> s) >= 8192:
        s += 1
    a00 = 0
    a01 = 0
    a02 = 0
    a11 = 0
    a12 = 0
    a22 = 0
    r0 = 0
    r1 = 0
    r2 = 0
    j = 0
    i = 0
    while j < nch:
        kx = (int(ne[i]) - 4194304) >> s
        ky = (int(ne[i + 1]) - 4194304) >> s
        kz = (int(ne[i + 2]) - 4194304) >> s
        v = int(vi[j]) - 4096
        a00 += kx * kx
        a01 += kx * ky
        a02 += kx * kz
        a11 += ky * ky
        a12 += ky * kz
        a22 += kz * kz
        r0 += kx * v
        r1 += ky * v
        r2 += kz * v
        i += 3
        j += 1
    ne[w] = a00
    ne[w + 1] = a01
    ne[w + 2] = a02
    ne[w + 3] = a11
    ne[w + 4] = a12
    ne[w + 5] = a22
    ne[w + 6] = r0
    ne[w + 7] = r1
    ne[w + 8] = r2


@micropython.native
def gain(k, vi, ne, geo, o):
    """The energy the kernels at geo's place explain (fit.Kernels._gain,
    every channel used): kernels_at's normal equations (ne[o:o + 9], o = 3
    channels), then r^T A^-1 r by the 3 x 3 cofactors, in floats; -1.0 when
    A is singular. Native code (the float maths as machine code calling the
    runtime: 2.8x the bytecode on the unix port, the same operations in the
    same order, so the same floats); fitplain.gain is the same in Python."""
    kernels_at(k, vi, ne, geo)
    a00 = float(ne[o])
    a01 = float(ne[o + 1])
    a02 = float(ne[o + 2])
    a11 = float(ne[o + 3])
    a12 = float(ne[o + 4])
    a22 = float(ne[o + 5])
    r0 = float(ne[o + 6])
    r1 = float(ne[o + 7])
    r2 = float(ne[o + 8])
    c00 = a11 * a22 - a12 * a12
    c01 = a02 * a12 - a01 * a22
    c02 = a01 * a12 - a02 * a11
    det = a00 * c00 + a01 * c01 + a02 * c02
    if det <= 1e-12 * (a00 * a11 * a22 + 1e-30):
        return -1.0
    c11 = a00 * a22 - a02 * a02
    c12 = a01 * a02 - a00 * a12
    c22 = a00 * a11 - a01 * a01
    return (r0 * (c00 * r0 + c01 * r1 + c02 * r2) + r1 * (c01 * r0 + c11 * r1 + c12 * r2)
            + r2 * (c02 * r0 + c12 * r1 + c22 * r2)) / det


@micropython.native
def search(k, vi, ne, geo, st):
    """The pattern search of fit.Kernels._search (every channel used):
    from st's place [x, y, h in 1/256 of a cell; the top height hhi; the
    first and the last step; the solves allowed; o = 3 channels] on the
    explained energy of gain(), each step in +-x, +-y, +-height while it
    gains, then the step halved. Leaves the place in st[0:3], the solves
    made in st[8]; returns the energy there. Native code: the loop's
    bytecode dispatch gone (fitplain.search is the same in Python)."""
    x = st[0]
    y = st[1]
    h = st[2]
    hhi = st[3]
    s = st[4]
    fin = st[5]
    left = st[6]
    o = st[7]
    geo[0] = x if x > 0 else 0      # (clamped as in Kernels.at)
    geo[1] = y if y > 0 else 0
    geo[2] = h if h > 0 else 0
    g = gain(k, vi, ne, geo, o)
    n = 1
    while s >= fin and left > 0:
        moved = True
        back = -1   # the step back to the place just left: its energy is known to be lower
        while moved and left > 0:
            moved = False
            d = 0
            while d < 6:    # +-x, +-y, +-height
                a = -s if d & 1 else s
                ddx = a if d < 2 else 0
                ddy = a if 2 <= d < 4 else 0
                ddh = a if d >= 4 else 0
                d += 1
                if ddh and (h + ddh < 0 or h + ddh > hhi):
                    continue
                if d - 1 == back:
                    # not solved again, but counted against the budget as
                    # if it were: the search ends where the full one does
                    left -= 1
                    continue
                v = x + ddx
                geo[0] = v if v > 0 else 0
                v = y + ddy
                geo[1] = v if v > 0 else 0
                v = h + ddh
                geo[2] = v if v > 0 else 0
                g2 = gain(k, vi, ne, geo, o)
                left -= 1
                n += 1
                if g2 > g:
                    g = g2
                    x += ddx
                    y += ddy
                    h += ddh
                    moved = True
                    back = (d - 1) ^ 1
        s >>= 1
    st[0] = x
    st[1] = y
    st[2] = h
    st[8] = n
    return g
