"""The model-based fit of a settled zone (docs/sensing-pipeline.md, "The
kernel fit"): the board's kernel table (docs/formats/kernel-table-v1.md:
what each channel of a zone reads per mA m^2 of moment along x, y and z of
a magnet at (x, y) and height h over the card, in the mat's calibrated
world) against the change a zone settled into.

At each grid cell the moment vector is linear least squares (a 3 x 3
normal system); the cell whose fit explains most of the change's energy is
the magnet's place, refined between the cells on the interpolated kernels.
The signature is the moment's size, signed by its vertical part (the pole
facing down): a Bakugan leans a few degrees (its own lean plus each
landing's), and an upright-only model reads that lean as 10-20 % of
moment (measured, docs/sensing-pipeline.md), a 3-D moment as 3 %.
Nothing vs one magnet is the chi2 improvement against the declared noise.

Runs only when a zone has settled: floats allowed, never per frame. The
table is decoded once into one preallocated array.
"""
from array import array

try:
    from binascii import a2b_base64
except ImportError:  # some MicroPython builds
    from ubinascii import a2b_base64   # type: ignore
from math import sqrt
from struct import unpack_from
import sys

try:
    from sense.fitkernels import gain, kernels_at, scan, search   # machine code, where the interpreter compiles it
except (ImportError, SyntaxError, ValueError, NameError):   # CPython, no native emitter, another arch's .mpy
    from sense.fitplain import gain, kernels_at, scan, search

QBITS = 14     # the whitened kernels' fixed point (entries within +-1: int16)
VBITS = 12     # a change is scaled so its largest channel is under 2^VBITS
KBITS = 21     # the kernels' fixed point: |k| <= 2^21
# Arrays viper reads hold values >= 0 (a 32-bit load is not sign-extended
# on a 64-bit port): kernels and changes are stored plus these biases
# (the literals 4194304 and 4096 in the viper functions).
KBIAS = 1 << 22
VBIAS = 1 << VBITS
START = 0.5    # the search between the cells: its first step, in cells ...
FINEST = 1.0 / 8.0   # ... and its last
MAX_SOLVES = 80      # ... and at most this many solves


def _b64(text):
    """The bytes of base64 text: a C binascii (the ESP32's, CPython's) takes
    the str itself; micropython-lib's Python one (the WebAssembly port's)
    only bytes."""
    try:
        return a2b_base64(text)
    except TypeError:
        return a2b_base64(text.encode())


# a table's chip form (field "fixed") is little-endian int32 / uint16, as
# the ESP32s and the host's arrays are; elsewhere k is decoded instead
_LITTLE = getattr(sys, "byteorder", "little") == "little"


class Kernels:
    """A decoded kernel table: k (array 'i', fixed point plus KBIAS, index
    (((ih * ny + iy) * nx + ix) * nch + ch) * 3 + d, d the moment's axis x,
    y, z), q (the middle height whitened, array 'H'), the grid (x0, y0,
    step, nx, ny, hs) and nch; copied from the table's chip form when it
    has one, else decoded from its float32 values. Scratch arrays for the
    fit are made here, once."""

    def __init__(self, table, nch, scale=1.0):
        """table: the format's fields (a dict, as json.load gives it); nch:
        channels per zone; scale: the pipeline's units per count."""
        if table.get("format") != "bakumat-kernels" or table.get("version") != 1:
            raise ValueError("kernel table: format bakumat-kernels version 1 expected")
        if len(table["channels"]) != nch:
            raise ValueError("kernel table: %d channels per zone, the board has %d"
                             % (len(table["channels"]), nch))
        self.nch = nch
        self.world = table.get("world")    # the world it was computed in (a probe: Pipeline.kernel_world)
        self.x0 = float(table["x0"])
        self.y0 = float(table["y0"])
        self.step = float(table["step"])
        self.nx = int(table["nx"])
        self.ny = int(table["ny"])
        self.hs = array("f", [float(h) for h in table["heights"]])
        self.ncell = self.nx * self.ny * len(self.hs)
        n = self.ncell * nch * 3
        fx = table.get("fixed") if _LITTLE else None
        if fx is not None and fx.get("kbits") == KBITS and fx.get("qbits") == QBITS:
            # the chip form the host derived from k with this very code
            # (host_tools/boards/kernels.py fixed_form): two copies in C.
            # Decoding k here is about 20,000 float operations, each a heap
            # object on an ESP32: measured 28 ms on the unix port, projected
            # 1.6 s on an S3, in the tick that sets a game up.
            k = _b64(fx["k"])
            q = _b64(fx["q"])
            nq = self.nx * self.ny * 3 * nch
            if len(k) != 4 * n or len(q) != 2 * nq:
                raise ValueError("kernel table: field 'fixed' holds %d bytes of kernels and %d of whitened values, "
                                 "the grid needs %d and %d" % (len(k), len(q), 4 * n, 2 * nq))
            k = array("i", k)
            q = array("H", q)
            f = float(fx["f"])
        elif "k" not in table:
            raise ValueError("kernel table: no field 'k', and its chip form (kbits %r, qbits %r) is not this "
                             "firmware's (%d, %d): deploy the board again" % (
                                 (fx or {}).get("kbits"), (fx or {}).get("qbits"), KBITS, QBITS))
        else:
            k, f = self._decode(table, n)
            q = None
        self.k = k
        self.kfix = f             # fixed-point units per count per mA m^2
        self.kf = scale / f       # pipeline units per mA m^2 per fixed-point unit
        self.ne = array("i", bytearray(4 * (3 * nch + 9)))   # kernels_at's result
        self.geo = array("i", [0, 0, 0, self.nx, self.ny, len(self.hs), nch])   # kernels_at's place and grid
        if q is None:
            self._whiten()
        else:
            self.q = q
        self.vi = array("i", bytearray(4 * nch))     # the change in fixed point (scan)
        self.gs = array("i", bytearray(4 * self.nx * self.ny))   # each searched cell's score
        self.kb = array("f", bytearray(12 * nch))   # interpolated kernels (refine)
        self.px = self.py = self.ph = self.pg = 0.0   # the refined place and its score
        self.shape = array("f", bytearray(4 * nch))  # the last fit's field per unit of its moment
        self.upright = False   # the last fit's moment was taken upright (a channel left out)
        self.lastv = [0.0] * nch   # the last change fitted (exact values), its channels used ...
        self.lastu = bytearray(nch)
        self.last = None                             # ... and what the fit gave
        self.mv = array("f", bytearray(16))         # the last solve: moment x, y, z, its variance per noise^2
        self.st = array("i", bytearray(36))         # search's place, bounds and count
        self.solves = 0   # solves made, all fits (a probe: the benchmarks cost the decisions by it)

    @staticmethod
    def _decode(table, n):
        """(k, f): the float32 values of field k in fixed point (the largest
        2^KBITS, plus KBIAS) and the factor f that made them so: the
        interpolation between cells is then integer work (_lerp), 80 times
        faster than in floats."""
        raw = _b64(table["k"])
        if len(raw) != 4 * n:
            raise ValueError("kernel table: %d values, the grid needs %d" % (len(raw) // 4, n))
        top = 0.0
        for i in range(n):
            a = abs(unpack_from("<f", raw, 4 * i)[0])
            if a > top:
                top = a
        f = (1 << KBITS) / (top or 1.0)
        k = array("i", bytearray(4 * n))
        for i in range(n):
            k[i] = int(round(unpack_from("<f", raw, 4 * i)[0] * f)) + KBIAS
        return k, f

    def _whiten(self):
        """self.q: for each cell at the searched (middle) height, its three
        kernel columns made orthonormal (Gram-Schmidt): the explained energy
        of a change v is then |Q^T v|^2, 18 integer multiply-adds a cell
        (scan) instead of a 3 x 3 solve."""
        nch = self.nch
        w = 3 * nch
        per = self.nx * self.ny
        b0 = (len(self.hs) // 2) * per * w
        k = self.k
        q = array("H", bytearray(2 * per * w))
        col = [[0.0] * nch for _ in range(3)]
        one = float(1 << QBITS) - 1.0
        for c in range(per):
            b = b0 + c * w
            for d in range(3):
                u = col[d]
                for j in range(nch):
                    u[j] = float(k[b + 3 * j + d] - KBIAS)
                for e in range(d):
                    o = col[e]
                    p = 0.0
                    for j in range(nch):
                        p += o[j] * u[j]
                    for j in range(nch):
                        u[j] -= p * o[j]
                n = 0.0
                for j in range(nch):
                    n += u[j] * u[j]
                n = sqrt(n)
                s = 1.0 / n if n > 1e-3 else 0.0
                for j in range(nch):
                    u[j] *= s
                    q[c * w + 3 * j + d] = int(round(u[j] * one)) & 0xFFFF
        self.q = q

    def cell_xyh(self, c):
        """(x, y, h) mm of cell c: x, y from the zone's centre, h the magnet's
        centre above the card top."""
        ix = c % self.nx
        r = c // self.nx
        iy = r % self.ny
        return self.x0 + ix * self.step, self.y0 + iy * self.step, self.hs[r // self.ny]

    def _solve(self, k, b, vs, use):
        """Least-squares moment for kernels k[b + 3 j + d]: the explained
        energy m . (K^T v) (self.mv holds m), or -1 when singular. With a
        channel left out (self.upright) the moment is taken upright: a
        3-D moment and the place are six unknowns, one channel short."""
        nch = self.nch
        if self.upright:
            kv = 0.0
            kk = 0.0
            for j in range(nch):
                if use[j]:
                    kz = k[b + 3 * j + 2]
                    kv += kz * vs[j]
                    kk += kz * kz
            if kk <= 0.0:
                return -1.0
            mv = self.mv
            mv[0] = 0.0
            mv[1] = 0.0
            mv[2] = kv / kk
            mv[3] = 3.0 / kk
            return kv * kv / kk
        a00 = a01 = a02 = a11 = a12 = a22 = 0.0
        r0 = r1 = r2 = 0.0
        for j in range(nch):
            if not use[j]:
                continue
            i = b + 3 * j
            kx = k[i]
            ky = k[i + 1]
            kz = k[i + 2]
            v = vs[j]
            a00 += kx * kx
            a01 += kx * ky
            a02 += kx * kz
            a11 += ky * ky
            a12 += ky * kz
            a22 += kz * kz
            r0 += kx * v
            r1 += ky * v
            r2 += kz * v
        c00 = a11 * a22 - a12 * a12
        c01 = a02 * a12 - a01 * a22
        c02 = a01 * a12 - a02 * a11
        det = a00 * c00 + a01 * c01 + a02 * c02
        if det <= 1e-12 * (a00 * a11 * a22 + 1e-30):
            return -1.0
        c11 = a00 * a22 - a02 * a02
        c12 = a01 * a02 - a00 * a12
        c22 = a00 * a11 - a01 * a01
        m0 = (c00 * r0 + c01 * r1 + c02 * r2) / det
        m1 = (c01 * r0 + c11 * r1 + c12 * r2) / det
        m2 = (c02 * r0 + c12 * r1 + c22 * r2) / det
        mv = self.mv
        mv[0] = m0
        mv[1] = m1
        mv[2] = m2
        # the moment's standard error per unit noise, along its vertical
        # part (the signature's sign) and overall: trace of the inverse
        mv[3] = (c00 + c11 + c22) / det
        return m0 * r0 + m1 * r1 + m2 * r2

    def best_cell(self, vs, use):
        """(cell, explained energy) of the grid cell at the middle height
        that explains most (the refinement then finds the height: searching
        every height first costs three times as long and finds the same
        place, docs/sensing-pipeline.md)."""
        per = self.nx * self.ny
        c0 = (len(self.hs) // 2) * per
        if not self.upright:
            vi = self.vi
            mx = 0.0
            for j in range(self.nch):
                a = abs(vs[j])
                if a > mx:
                    mx = a
            if mx <= 0.0:
                for j in range(self.nch):
                    vi[j] = VBIAS
                return c0, 0.0
            f = ((1 << VBITS) - 1) / mx
            for j in range(self.nch):
                vi[j] = int(vs[j] * f) + VBIAS
            bc = scan(self.q, vi, self.gs, (per << 8) | self.nch)
            return c0 + bc, self.gs[bc] / (f * f)
        best = -1.0
        bc = c0
        h = (c0 // per) << 8
        for c in range(per):
            g = self._gain(vs, use, (c % self.nx) << 8, (c // self.nx) << 8, h)
            if g > best:
                best = g
                bc = c0 + c
        return bc, best

    def at(self, x, y, h):
        """self.kb = the kernels at (x, y, h) mm (pipeline units per mA
        m^2), trilinear between the grid's cells (clamped to the grid)."""
        hs = self.hs
        dh = (hs[len(hs) - 1] - hs[0]) / (len(hs) - 1) if len(hs) > 1 else 1.0
        geo = self.geo
        # clamped below here, above in kernels_at: a place < 0 read by viper
        # on a 64-bit port is not sign-extended (it would clamp to the far end)
        v = int((x - self.x0) * 256.0 / self.step + 0.5)
        geo[0] = v if v > 0 else 0
        v = int((y - self.y0) * 256.0 / self.step + 0.5)
        geo[1] = v if v > 0 else 0
        v = int((h - hs[0]) * 256.0 / dh + 0.5)
        geo[2] = v if v > 0 else 0
        kernels_at(self.k, self.vi, self.ne, geo)
        ne = self.ne
        kb = self.kb
        f = self.kf
        for j in range(len(kb)):
            kb[j] = (ne[j] - KBIAS) * f

    def _gain(self, vs, use, x, y, h):
        """The energy the kernels at (x, y, h) (1/256 of a cell from the
        grid's first) explain, comparable within one fit (every channel
        used: gain, from the integer normal equations, native code where
        the interpreter has it; a channel left out: the float solve)."""
        geo = self.geo
        geo[0] = x if x > 0 else 0      # (clamped as in at())
        geo[1] = y if y > 0 else 0
        geo[2] = h if h > 0 else 0
        self.solves += 1
        if not self.upright:
            return gain(self.k, self.vi, self.ne, geo, 3 * self.nch)
        ne = self.ne
        kernels_at(self.k, self.vi, ne, geo)
        kb = self.kb
        for j in range(len(kb)):
            kb[j] = float(ne[j] - KBIAS)
        return self._solve(kb, 0, vs, use)

    def _search(self, vs, use, c):
        """The place between the cells, from cell c: a pattern search over
        x, y and the height (in 1/256 of a cell) on the interpolated
        kernels, from START of a cell down to FINEST, at most MAX_SOLVES
        solves (measured on 150 random magnets of mu300-t0.2, noise-free:
        moment error 1.5 % rms, 40 solves on average, 61 at most; the
        float search to 1/16 of a cell it replaced: 1.1 %, 56 solves of
        80 times the cost; docs/sensing-pipeline.md). self.px, py, ph
        (mm), pg; self.mv, self.kb: the place's."""
        nx = self.nx
        per = nx * self.ny
        x = (c % nx) << 8
        y = ((c % per) // nx) << 8
        h = (c // per) << 8
        hhi = (len(self.hs) - 1) << 8
        if not self.upright:
            # every channel used: the search is one call (native code on
            # the chip: the loop's bytecode was as long as the solves' floats)
            st = self.st
            st[0] = x
            st[1] = y
            st[2] = h
            st[3] = hhi
            st[4] = int(256 * START)
            st[5] = int(256 * FINEST)
            st[6] = MAX_SOLVES
            st[7] = 3 * self.nch
            search(self.k, self.vi, self.ne, self.geo, st)
            self.solves += st[8]
            x = st[0]
            y = st[1]
            h = st[2]
            self._place(vs, use, x, y, h)
            return
        g = self._gain(vs, use, x, y, h)
        s = int(256 * START)
        left = MAX_SOLVES   # a bound on the decision's time
        while s >= int(256 * FINEST) and left > 0:
            moved = True
            back = -1   # the step back to the place just left (as in search)
            while moved and left > 0:
                moved = False
                for d in range(6):   # +-x, +-y, +-height (no tuples: nothing allocated)
                    a = -s if d & 1 else s
                    ddx = a if d < 2 else 0
                    ddy = a if 2 <= d < 4 else 0
                    ddh = a if d >= 4 else 0
                    if ddh and (h + ddh < 0 or h + ddh > hhi):
                        continue
                    if d == back:
                        left -= 1
                        continue
                    g2 = self._gain(vs, use, x + ddx, y + ddy, h + ddh)
                    left -= 1
                    if g2 > g:
                        g = g2
                        x += ddx
                        y += ddy
                        h += ddh
                        moved = True
                        back = d ^ 1
            s >>= 1
        self._place(vs, use, x, y, h)

    def _place(self, vs, use, x, y, h):
        """self.px, py, ph (mm), pg, mv, kb: the searched place's."""
        hs = self.hs
        dh = (hs[len(hs) - 1] - hs[0]) / (len(hs) - 1) if len(hs) > 1 else 0.0
        self.px = self.x0 + x * self.step / 256.0
        self.py = self.y0 + y * self.step / 256.0
        self.ph = hs[0] + h * dh / 256.0
        self.at(self.px, self.py, self.ph)
        self.pg = self._solve(self.kb, 0, vs, use)

    def fit(self, vs, use):
        """The best one-magnet fit of a zone's change vs (zone channel order;
        use[j] false: channel j left out): (signed moment mA m^2, x, y, h,
        explained energy, total energy, the moment's variance per unit
        noise^2)."""
        lv = self.lastv
        same = self.last is not None
        for j in range(self.nch):
            if lv[j] != vs[j] or self.lastu[j] != use[j]:
                same = False
                lv[j] = vs[j]
                self.lastu[j] = use[j]
        if same:
            # the same change asked again within one decision (a battle's
            # checks and the new Bakugan's read the same window): one fit
            return self.last
        self.last = r = self._fit(vs, use)
        return r

    def _fit(self, vs, use):
        vv = 0.0
        n = 0
        for j in range(self.nch):
            if use[j]:
                vv += vs[j] * vs[j]
                n += 1
        self.upright = n < self.nch
        c, g = self.best_cell(vs, use)
        x, y, h = self.cell_xyh(c)
        if g < 0.0:
            return 0.0, x, y, h, 0.0, vv, 1e30
        self._search(vs, use, c)
        x, y, h, g = self.px, self.py, self.ph, self.pg   # self.mv, self.kb: this place's
        mv = self.mv
        m = sqrt(mv[0] * mv[0] + mv[1] * mv[1] + mv[2] * mv[2])
        if mv[2] < 0.0:
            m = -m
        kb = self.kb
        sh = self.shape
        for j in range(self.nch):
            sh[j] = (kb[3 * j] * mv[0] + kb[3 * j + 1] * mv[1] + kb[3 * j + 2] * mv[2]) / m if m else 0.0
        return m, x, y, h, g, vv, mv[3] / 3.0
