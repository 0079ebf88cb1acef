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


class Kernels:
    """A decoded kernel table: k (array 'f', index (((ih * ny + iy) * nx +
    ix) * nch + ch) * 3 + d, d the moment's axis x, y, z), the grid (x0, y0,
    step, nx, ny, hs) and nch. Scratch arrays for the fit are made here,
    once."""

    def __init__(self, table, nch, scale=1.0):
        """table: the format's fields (a dict, as json.load gives it); nch:
        channels per zone; scale: the pipeline's units per count."""
        if table.get("format") != "bakumat-kernels" or table.get("version") != 1:
            raise ValueError("kernel table: format bakumat-kernels version 1 expected")
        if len(table["channels"]) != nch:
            raise ValueError("kernel table: %d channels per zone, the board has %d"
                             % (len(table["channels"]), nch))
        self.nch = nch
        self.x0 = float(table["x0"])
        self.y0 = float(table["y0"])
        self.step = float(table["step"])
        self.nx = int(table["nx"])
        self.ny = int(table["ny"])
        self.hs = array("f", [float(h) for h in table["heights"]])
        self.ncell = self.nx * self.ny * len(self.hs)
        raw = a2b_base64(table["k"])
        n = self.ncell * nch * 3
        if len(raw) != 4 * n:
            raise ValueError("kernel table: %d values, the grid needs %d" % (len(raw) // 4, n))
        k = array("f", bytearray(4 * n))
        for i in range(n):
            k[i] = unpack_from("<f", raw, 4 * i)[0] * scale
        self.k = k
        self.kb = array("f", bytearray(12 * nch))   # interpolated kernels (refine)
        self.shape = array("f", bytearray(4 * nch))  # the last fit's field per unit of its moment
        self.upright = False   # the last fit's moment was taken upright (a channel left out)
        self.mv = array("f", bytearray(16))         # the last solve: moment x, y, z, its variance per noise^2

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
        k = self.k
        step = self.nch * 3
        best = -1.0
        per = self.nx * self.ny
        c0 = (len(self.hs) // 2) * per
        bc = c0
        for c in range(c0, c0 + per):
            g = self._solve(k, c * step, vs, use)
            if g > best:
                best = g
                bc = c
        return bc, best

    def at(self, x, y, h):
        """self.kb = the kernels at (x, y, h), trilinear between the grid's
        cells (clamped to the grid)."""
        nx = self.nx
        ny = self.ny
        hs = self.hs
        nh = len(hs)
        w3 = self.nch * 3
        fx = (x - self.x0) / self.step
        fy = (y - self.y0) / self.step
        fx = 0.0 if fx < 0.0 else (nx - 1.000001 if fx > nx - 1.000001 else fx)
        fy = 0.0 if fy < 0.0 else (ny - 1.000001 if fy > ny - 1.000001 else fy)
        ih = 0
        while ih < nh - 2 and h > hs[ih + 1]:
            ih += 1
        fh = (h - hs[ih]) / (hs[ih + 1] - hs[ih]) if nh > 1 else 0.0
        fh = 0.0 if fh < 0.0 else (1.0 if fh > 1.0 else fh)
        ix = int(fx)
        iy = int(fy)
        ax = fx - ix
        ay = fy - iy
        k = self.k
        kb = self.kb
        for j in range(w3):
            kb[j] = 0.0
        for dh in range(2 if nh > 1 else 1):
            wh = fh if dh else 1.0 - fh
            if wh == 0.0:
                continue
            for dy in range(2):
                wy = wh * (ay if dy else 1.0 - ay)
                for dx in range(2):
                    w = wy * (ax if dx else 1.0 - ax)
                    if w == 0.0:
                        continue
                    b = (((ih + dh) * ny + iy + dy) * nx + ix + dx) * w3
                    for j in range(w3):
                        kb[j] += w * k[b + j]

    def _gain(self, vs, use, x, y, h):
        self.at(x, y, h)
        return self._solve(self.kb, 0, vs, use)

    def fit(self, vs, use):
        """The best one-magnet fit of a zone's change vs (zone channel order;
        use[j] false: channel j left out): (signed moment mA m^2, x, y, h,
        explained energy, total energy, the moment's variance per unit
        noise^2)."""
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
        g = self._gain(vs, use, x, y, h)
        hs = self.hs
        hlo = hs[0]
        hhi = hs[len(hs) - 1]
        hstep = (hhi - hlo) / 4.0
        s = self.step / 2.0
        while s >= self.step / 16.0:
            moved = True
            while moved:
                moved = False
                for ddx, ddy, ddh in ((s, 0.0, 0.0), (-s, 0.0, 0.0), (0.0, s, 0.0), (0.0, -s, 0.0),
                                      (0.0, 0.0, hstep), (0.0, 0.0, -hstep)):
                    if ddh != 0.0 and (h + ddh < hlo - 1e-6 or h + ddh > hhi + 1e-6):
                        continue
                    g2 = self._gain(vs, use, x + ddx, y + ddy, h + ddh)
                    if g2 > g:
                        g = g2
                        x += ddx
                        y += ddy
                        h += ddh
                        moved = True
            s /= 2.0
            hstep /= 2.0
        g = self._gain(vs, use, x, y, h)   # self.mv: this place's moment
        mv = self.mv
        m = sqrt(mv[0] * mv[0] + mv[1] * mv[1] + mv[2] * mv[2])
        if mv[2] < 0.0:
            m = -m
        kb = self.kb
        sh = self.shape
        for j in range(self.nch):
            sh[j] = (kb[3 * j] * mv[0] + kb[3 * j + 1] * mv[1] + kb[3 * j + 2] * mv[2]) / m if m else 0.0
        return m, x, y, h, g, vv, mv[3] / 3.0
