"""The finite plate's term: what a gate card's 56 x 82 mm plate adds to the
infinite-slab fast path of host_tools/sim/worlds.py (CPython only).

The infinite slab carries the magnet's flux sideways for ever; a real plate
must let it out again, mostly near its edges (hardware/sensing-physics.md
section 8: a same-sign leak of 0.03-0.04 mT inside the mid-edges for stiff
plates), and it lacks the slab's screening charges beyond its edges.

Model: a thin sheet of in-plane permeance P = t (mu-1)^2 / mu (the slab's
T(k) to first order in k t), cut into panels carrying magnetic charge q.
Each panel's potential is the source's plus every panel's (1/(4 pi r), the
self term of a uniform rectangle); the charge is what the sheet's in-plane
flux leaves behind: q_i = sum_j P (l_ij / d_ij) (psi_j - psi_i), no flux
across the plate's edges. The same panels extended by geometrically growing
ones to 1.5 m stand in for the infinite slab; the finite plate's term is
the field of (finite plate's charges - extended sheet's charges), so the
panels' own error near the magnet cancels and only what the edges change is
left. It is added to the exact slab series.

Reciprocity makes it fast: for each sensor site (relative to the plate's
centre) and each of its three axes, the sheets are solved once for a unit
dipole at the site; the field those charges make where the magnet is gives
the site's reading for any magnet pose. The tables (site x axis x magnet
component on a grid of magnet positions) are cached on disk next to the
slab kernels and built in seconds; a site's mirror images share one table.
`python -m host_tools.sim.plate` reruns the check against the method-of-
moments study (hardware/plate-term-check.json; tests/host/test_sim_plate.py).

Units: mm, A m^2, mT; z up from the sensor plane.
"""
import hashlib
import math
import os

import numpy as np

from host_tools import cachefiles

PLATE_W = 56.0
PLATE_H = 82.0
CELL_MM = 2.0
GROWTH = 1.5
EXTENT_MM = 1500.0
VERSION = 1
K_MT = 1.0e5  # mu0/(4 pi), r in mm, B in mT
GRID_X = np.arange(-30.0, 30.01, 2.0)
GRID_Y = np.arange(-44.0, 44.01, 2.0)
GRID_Z = np.array([4.0, 4.6, 5.2, 6.0, 7.0, 8.0, 10.0, 13.0, 18.0, 25.0, 40.0])  # magnet above the sensor plane


def permeance(mu, t):
    """The sheet's in-plane permeance (mm): chi t to leading order, exact to
    first order in k t against the slab's T(k)."""
    return t * (mu - 1.0) ** 2 / mu


def _edges(half, cell):
    n = max(1, int(round(2.0 * half / cell)))
    inner = np.linspace(-half, half, n + 1)
    out = [half]
    d = 2.0 * half / n
    while out[-1] < EXTENT_MM:
        d *= GROWTH
        out.append(out[-1] + d)
    outer = np.array(out[1:])
    return np.concatenate([-outer[::-1], inner, outer]), len(outer)


class Sheets:
    """The finite plate and its extension, solved for one permeance and
    one sheet height (zp, the plate's mid-plane above the sensor plane)."""

    def __init__(self, perm, zp, cell=CELL_MM):
        import scipy.linalg as sl
        self.zp = zp
        xe, nxo = _edges(PLATE_W / 2.0, cell)
        ye, nyo = _edges(PLATE_H / 2.0, cell)
        xc = 0.5 * (xe[1:] + xe[:-1])
        yc = 0.5 * (ye[1:] + ye[:-1])
        dx = np.diff(xe)
        dy = np.diff(ye)
        nx, ny = len(xc), len(yc)
        X, Y = np.meshgrid(xc, yc, indexing="ij")
        DX, DY = np.meshgrid(dx, dy, indexing="ij")
        self.x = X.ravel()
        self.y = Y.ravel()
        inner = np.zeros((nx, ny), bool)
        inner[nxo:nx - nxo, nyo:ny - nyo] = True
        self.inner = np.nonzero(inner.ravel())[0]
        big = self._solver(perm, X, Y, DX, DY, np.ones((nx, ny), bool))
        sub = (slice(nxo, nx - nxo), slice(nyo, ny - nyo))
        fin = self._solver(perm, X[sub], Y[sub], DX[sub], DY[sub], np.ones(X[sub].shape, bool))
        self._big = sl.lu_factor(big[0])
        self._kbig = big[1]
        self._fin = sl.lu_factor(fin[0])
        self._kfin = fin[1]

    @staticmethod
    def _solver(perm, X, Y, DX, DY, mask):
        """(I - K G, K): q = K psi, psi = psi_ext + G q."""
        nx, ny = X.shape
        x = X.ravel()
        y = Y.ravel()
        n = len(x)
        r = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :])
        np.fill_diagonal(r, 1.0)
        g = 1.0 / (4.0 * math.pi * r)
        a = DX.ravel() / 2.0
        b = DY.ravel() / 2.0
        g[np.arange(n), np.arange(n)] = 4.0 * (a * np.arcsinh(b / a) + b * np.arcsinh(a / b)) / (
            4.0 * math.pi * 4.0 * a * b)
        import scipy.sparse as sp
        idx = np.arange(n).reshape(nx, ny)
        rows, cols, vals = [], [], []
        for i0, i1, w in ((idx[:-1, :], idx[1:, :], DY[:-1, :] / (X[1:, :] - X[:-1, :])),
                          (idx[:, :-1], idx[:, 1:], DX[:, :-1] / (Y[:, 1:] - Y[:, :-1]))):
            i0 = i0.ravel()
            i1 = i1.ravel()
            w = perm * w.ravel()
            rows += [i0, i1, i0, i1]
            cols += [i1, i0, i0, i1]
            vals += [w, w, -w, -w]
        k = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n))
        m = -(k @ g)
        m[np.arange(n), np.arange(n)] += 1.0
        return m, k

    def charges(self, psi):
        """Finite plate's minus the extended sheet's charges for the
        source potential psi at every panel (columns: several sources)."""
        import scipy.linalg as sl
        qb = sl.lu_solve(self._big, self._kbig @ psi)
        qf = sl.lu_solve(self._fin, self._kfin @ psi[self.inner])
        dq = -qb
        dq[self.inner] += qf
        return dq

    def dipole_psi(self, sx, sy, sz, axis):
        """Potential of a unit dipole at (sx, sy, sz) along axis at every panel."""
        rx = self.x - sx
        ry = self.y - sy
        rz = self.zp - sz
        r3 = (rx * rx + ry * ry + rz * rz) ** 1.5
        return (axis[0] * rx + axis[1] * ry + axis[2] * rz) / (4.0 * math.pi * r3)

    def field(self, dq, px, py, pz):
        """H (per unit source moment, mm^-3) of charges dq ((N,) or (N, k):
        k sets of charges) at points p: (n, 3) or (n, 3, k)."""
        dq2 = dq.reshape(len(self.x), -1)
        out = np.zeros((len(px), 3, dq2.shape[1]))
        for s in range(0, len(px), 512):
            rx = px[s:s + 512, None] - self.x[None, :]
            ry = py[s:s + 512, None] - self.y[None, :]
            rz = pz[s:s + 512, None] - self.zp
            inv = 1.0 / (4.0 * math.pi * (rx * rx + ry * ry + rz * rz) ** 1.5)
            out[s:s + 512, 0] = (inv * rx) @ dq2
            out[s:s + 512, 1] = (inv * ry) @ dq2
            out[s:s + 512, 2] = (inv * rz) @ dq2
        return out[..., 0] if dq.ndim == 1 else out


def site_table(sheets, sx, sy):
    """(3 sensor axes, 3 magnet components, GRID_X, GRID_Y, GRID_Z) of mT
    per A m^2: the finite plate's term at sensor (sx, sy, 0) for a magnet
    anywhere on the grid."""
    PX, PY, PZ = np.meshgrid(GRID_X, GRID_Y, GRID_Z, indexing="ij")
    psi = np.stack([sheets.dipole_psi(sx, sy, 0.0, a) for a in np.eye(3)], -1)
    dq = sheets.charges(psi)
    h = sheets.field(dq, PX.ravel(), PY.ravel(), PZ.ravel())  # (points, magnet component, sensor axis)
    return (4.0 * math.pi * K_MT * np.transpose(h, (2, 1, 0))).reshape((3, 3) + PX.shape)


def _cache_dir():
    from host_tools.sim import worlds
    return worlds.cache_dir()


class PlateTerm:
    """The finite plate's term of one world (plate mu_r, t) for sensors a
    given depth below the card top; tables per site built on first use."""

    def __init__(self, plate, card_top=2.7):
        from host_tools.sim import worlds
        self.plate = plate
        self.perm = permeance(plate["mu_r"], plate["t_mm"])
        self.zp = worlds.plate_z(card_top) + plate["t_mm"] / 2.0
        self._sheets = None
        self._tables = {}

    def key(self, sx, sy):
        s = "plate v%d P %.6g zp %.4g cell %g growth %g ext %g site %.1f %.1f grid %s %s %s" % (
            VERSION, self.perm, self.zp, CELL_MM, GROWTH, EXTENT_MM, sx, sy, GRID_X.tolist(), GRID_Y.tolist(),
            GRID_Z.tolist())
        return hashlib.sha1(s.encode()).hexdigest()[:16]

    def table(self, sx, sy):
        """The table of the site (|sx|, |sy|) (its mirror images share it)."""
        sx = round(abs(float(sx)), 1)
        sy = round(abs(float(sy)), 1)
        k = (sx, sy)
        if k in self._tables:
            return self._tables[k]
        path = os.path.join(_cache_dir(), "plate-%s.npy" % self.key(sx, sy))

        def build():
            if self._sheets is None:
                self._sheets = Sheets(self.perm, self.zp)
            return site_table(self._sheets, sx, sy)

        tb = cachefiles.load_or_build(path, np.load, build, np.save, ".npy")
        self._tables[k] = tb
        return tb

    def field(self, m, pose, sx, sy, centre):
        """The term (mT, (..., 3)) at sensors (sx, sy) for a dipole m (A m^2)
        at pose, the plate centred at `centre`; zero for sensors outside the
        plate and magnets beyond the table (far above or off the plate)."""
        x, y, z, ux, uy, uz = pose
        cx, cy = centre
        sx = np.asarray(sx, dtype=float) - cx
        sy = np.asarray(sy, dtype=float) - cy
        shape = np.broadcast(sx, sy, np.asarray(x), np.asarray(y), np.asarray(z)).shape
        out = np.zeros(shape + (3,))
        sxb = np.broadcast_to(sx, shape)
        syb = np.broadcast_to(sy, shape)
        px = np.broadcast_to(np.asarray(x, dtype=float) - cx, shape)
        py = np.broadcast_to(np.asarray(y, dtype=float) - cy, shape)
        pz = np.broadcast_to(np.asarray(z, dtype=float), shape)
        u = np.stack(np.broadcast_arrays(np.asarray(ux, float), np.asarray(uy, float), np.asarray(uz, float)), -1)
        u = np.broadcast_to(u, shape + (3,))
        under = (np.abs(sxb) < PLATE_W / 2.0) & (np.abs(syb) < PLATE_H / 2.0)
        sites = np.round(np.stack([sxb[under], syb[under]], -1), 1)
        if not len(sites):
            return out
        uniq, inv = np.unique(np.abs(sites), axis=0, return_inverse=True)
        inv = np.asarray(inv).ravel()
        sel = np.nonzero(under.ravel())[0]
        flat = out.reshape(-1, 3)
        pxs, pys, pzs = px.ravel()[sel], py.ravel()[sel], pz.ravel()[sel]
        us = u.reshape(-1, 3)[sel]
        for k, (ax_, ay_) in enumerate(uniq):
            j = np.nonzero(inv == k)[0]
            tb = self.table(ax_, ay_)
            fx = np.where(sites[j, 0] < 0, -1.0, 1.0)  # mirror: M(Rs, Rp) = R M(s, p) R
            fy = np.where(sites[j, 1] < 0, -1.0, 1.0)
            m_ = _interp(tb, pxs[j] * fx, pys[j] * fy, pzs[j])  # (n, 3, 3)
            r = np.stack([fx, fy, np.ones_like(fx)], -1)
            m_ = m_ * r[:, :, None] * r[:, None, :]
            flat[sel[j]] = m * np.einsum("nck,nk->nc", m_, us[j])
        return out


def _interp(tb, px, py, pz):
    """Trilinear interpolation of a site table at magnet positions: (n, 3, 3);
    zero beyond the grid (the plate's term is a near-field effect)."""
    fx = (px - GRID_X[0]) / (GRID_X[1] - GRID_X[0])
    fy = (py - GRID_Y[0]) / (GRID_Y[1] - GRID_Y[0])
    fz = np.interp(pz, GRID_Z, np.arange(len(GRID_Z)))
    inside = (fx >= 0) & (fx <= len(GRID_X) - 1) & (fy >= 0) & (fy <= len(GRID_Y) - 1) & (pz <= GRID_Z[-1])
    fx = np.clip(fx, 0, len(GRID_X) - 1.000001)
    fy = np.clip(fy, 0, len(GRID_Y) - 1.000001)
    fz = np.clip(fz, 0, len(GRID_Z) - 1.000001)
    i, j, k = fx.astype(int), fy.astype(int), fz.astype(int)
    a, b, c = fx - i, fy - j, fz - k
    out = 0.0
    for di, wa in ((0, 1 - a), (1, a)):
        for dj, wb in ((0, 1 - b), (1, b)):
            for dk, wc in ((0, 1 - c), (1, c)):
                out = out + tb[:, :, i + di, j + dj, k + dk] * (wa * wb * wc)
    out = np.moveaxis(np.asarray(out), -1, 0)
    return np.where(inside[:, None, None], out, 0.0)


CHECK_FILE = "plate-term-check.json"


def check():
    """The fast path with the finite plate's term against the method-of-
    moments solves stored in hardware/mom-study.json (a magnet upright on the
    plate's centre) and hardware/mom-layout-check.json (the reference
    layout's worst spots): what hardware/sensing-physics.md quotes."""
    import json
    from host_tools.boards import layouts as L
    from host_tools.sim import mom, worldsdoc
    from host_tools.sim import worlds as W
    with open(worldsdoc.STUDY, encoding="utf-8") as f:
        study = json.load(f)
    with open(worldsdoc.CHECK, encoding="utf-8") as f:
        lay = json.load(f)
    m = mom.magnet_moment()
    z = -mom.SENSOR_Z + study["height_mm"]
    sx = np.array([p[0] for p in study["points_mm"]])
    sy = np.array([p[1] for p in study["points_mm"]])
    out = {"version": 1, "model": "thin sheet, %g mm panels, extended to %g mm" % (CELL_MM, EXTENT_MM),
           "points_mm": study["points_mm"], "plates": [], "layout": lay["layout"], "worlds": []}
    for pl in study["plates"]:
        term = PlateTerm({"mu_r": pl["mu_r"], "t_mm": pl["t_mm"]}, -mom.SENSOR_Z)
        c = term.field(m, (0.0, 0.0, z, 0.0, 0.0, 1.0), sx, sy, (0.0, 0.0))[:, 2]
        out["plates"].append({"mu_r": pl["mu_r"], "t_mm": pl["t_mm"], "term_mT": [round(v, 5) for v in c],
                              "slab_plus_term_mT": [round(a + b, 5) for a, b in zip(pl["slab_mT"], c)],
                              "richardson_mT": pl["richardson_mT"]})
    chans = L.channels(lay["layout"])
    for w in lay["worlds"]:
        x, y, h = w["spot_mm"]
        r = L._readings(W.get(w["world"]), np.array([x]), np.array([y]), h, w["direction"], chans)[0]
        out["worlds"].append({"world": w["world"], "spot_mm": w["spot_mm"], "fast_snr": w["fast_snr"],
                              "readings_mT": [round(v, 6) for v in r],
                              "snr": round(L.zone_snr(r, lay["layout"]), 2), "richardson_snr": w["richardson_snr"]})
    return out


def main(argv=None):
    """python -m host_tools.sim.plate: rerun the check into
    hardware/plate-term-check.json (a minute)."""
    import json
    from host_tools.sim import worldsdoc
    path = os.path.join(worldsdoc.REPO, "hardware", CHECK_FILE)
    res = check()
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(res, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)
    print("wrote %s" % path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
