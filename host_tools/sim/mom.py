"""Direct solve of a gate card's finite steel plate with magpylib-material-response
(method of moments, Newell interaction), the check of the fast slab kernels
in host_tools/sim/worlds.py (CPython only, seconds to a minute per solve).

The plate (56 x 82 mm, its underside 1.2 mm below the card top) is cut into
one layer of cuboid cells; each responds to the magnet's field at its centre
(a magpylib Cylinder, 3 x 3 mm, axial J) and to every other cell. Piecewise
constant cells converge slowly on a thin stiff sheet (the error falls about
linearly with the cell size), so `extrapolate` takes the Richardson limit of
two meshes; hardware/sensing-physics.md shows the study.

Coordinates here: mm, z = 0 at the card top, sensors below it.
"""
import numpy as np

PLATE_W = 56.0
PLATE_H = 82.0
UNDERSIDE = -1.2
SENSOR_Z = -2.7


def magnet(h_mm, j_t=1.2, d_mm=3.0, len_mm=3.0, x=0.0, y=0.0, direction=(0.0, 0.0, 1.0)):
    """The Bakugan's magnet: a magpylib Cylinder, its centre h_mm above the
    card top at (x, y), its axis (and J) along `direction`."""
    import magpylib as magpy
    from scipy.spatial.transform import Rotation
    c = magpy.magnet.Cylinder(dimension=(d_mm * 1e-3, len_mm * 1e-3), polarization=(0.0, 0.0, j_t),
                              position=(x * 1e-3, y * 1e-3, h_mm * 1e-3))
    u = np.asarray(direction, float)
    u = u / np.linalg.norm(u)
    if not np.allclose(u, (0.0, 0.0, 1.0)):
        axis = np.cross((0.0, 0.0, 1.0), u)
        ang = np.arccos(np.clip(u[2], -1.0, 1.0))
        c.orientation = Rotation.from_rotvec(axis / np.linalg.norm(axis) * ang)
    return c


def magnet_moment(j_t=1.2, d_mm=3.0, len_mm=3.0):
    """m = J V / mu0 (A m^2)."""
    import math
    return j_t * math.pi * (d_mm * 1e-3 / 2.0) ** 2 * len_mm * 1e-3 / (4e-7 * math.pi)


def plate_cells(t_mm, cell_mm):
    import magpylib as magpy
    nx = max(1, int(round(PLATE_W / cell_mm)))
    ny = max(1, int(round(PLATE_H / cell_mm)))
    dx = PLATE_W / nx
    dy = PLATE_H / ny
    xs = (np.arange(nx) + 0.5) * dx - PLATE_W / 2.0
    ys = (np.arange(ny) + 0.5) * dy - PLATE_H / 2.0
    zc = UNDERSIDE + t_mm / 2.0
    return [magpy.magnet.Cuboid(dimension=(dx * 1e-3, dy * 1e-3, t_mm * 1e-3), polarization=(0.0, 0.0, 0.0),
                                position=(x * 1e-3, y * 1e-3, zc * 1e-3)) for y in ys for x in xs]


def solve(mu_r, t_mm, cell_mm, src, points_mm):
    """B (mT, (n, 3)) at points_mm with the plate solved around source `src`
    (a magpylib magnet that does not respond). Returns (B, cells)."""
    import magpylib as magpy
    import magpylib_material_response as mmr
    from magpylib_material_response.demag import apply_demag
    mmr.disable_logging()
    pts = np.asarray(points_mm, dtype=float) * 1e-3
    cells = plate_cells(t_mm, cell_mm)
    centres = np.array([c.position for c in cells])
    bext = src.getB(centres)
    coll = magpy.Collection(*cells)
    for c, b in zip(coll.sources_all, bext):
        c.H_ext = tuple(b)  # the magnet's field at each cell, as the applied field
    out = apply_demag(coll, susceptibility=mu_r - 1.0, interaction="newell", solver_tol=1e-8)
    b = src.getB(pts) + magpy.getB(out.sources_all, pts, sumup=True)
    return np.asarray(b) * 1e3, len(cells)


def extrapolate(coarse, fine, h_coarse, h_fine):
    """Richardson limit of a first-order method from two cell sizes."""
    coarse = np.asarray(coarse)
    fine = np.asarray(fine)
    return fine - (coarse - fine) * h_fine / (h_coarse - h_fine)


def slab_field(mu_r, t_mm, src, points_mm):
    """B (mT, (n, 3)) below an infinite slab of the same mu_r and t, the fast
    path's image series applied to the real magnet `src` instead of a dipole:
    c * sum_n r^(2n) * (the field of src raised by 2 n t)."""
    from host_tools.sim import worlds
    w, dz = worlds.image_weights(mu_r, t_mm)
    pts = np.asarray(points_mm, dtype=float) * 1e-3
    src = src.copy()
    base = np.array(src.position, dtype=float)
    src.position = base + np.outer(dz * 1e-3, (0.0, 0.0, 1.0))
    b = np.asarray(src.getB(pts)).reshape(len(dz), len(pts), 3)
    return np.tensordot(w, b, axes=(0, 0)) * 1e3


STUDY_PLATES = ((100.0, 0.2), (1000.0, 0.1), (1000.0, 0.2))
STUDY_CELLS = (2.0, 1.4, 1.0, 0.7)
STUDY_POINTS = ((0.0, 0.0), (3.0, 0.0), (6.0, 0.0), (10.0, 0.0), (20.0, 0.0), (27.0, 0.0), (0.0, 30.0),
                (0.0, 40.0))
STUDY_HEIGHT = 2.5


def study(progress=None):
    """The mesh study quoted in hardware/sensing-physics.md: Bz below the
    plate at STUDY_POINTS for each mesh, the Richardson limit of the two
    finest and the slab series (about three minutes)."""
    import time
    src = magnet(STUDY_HEIGHT)
    pts = [(x, y, SENSOR_Z) for x, y in STUDY_POINTS]
    free = np.asarray(src.getB(np.asarray(pts) * 1e-3))[:, 2] * 1e3
    out = {"version": 1, "height_mm": STUDY_HEIGHT, "points_mm": [list(p) for p in STUDY_POINTS],
           "magnet": "cylinder 3 x 3 mm, J 1.2 T", "free_bz_mT": [round(v, 5) for v in free], "plates": []}
    for mu, t in STUDY_PLATES:
        rows = []
        for cell in STUDY_CELLS:
            t0 = time.time()
            b, n = solve(mu, t, cell, src, pts)
            rows.append({"cell_mm": cell, "cells": n, "seconds": round(time.time() - t0, 1),
                         "bz_mT": [round(v, 5) for v in b[:, 2]]})
            if progress:
                progress("mu %g t %g cell %g mm: %d cells, %.0f s" % (mu, t, cell, n, time.time() - t0))
        lim = extrapolate(rows[-2]["bz_mT"], rows[-1]["bz_mT"], STUDY_CELLS[-2], STUDY_CELLS[-1])
        slab = slab_field(mu, t, src, pts)[:, 2]
        out["plates"].append({"mu_r": mu, "t_mm": t, "meshes": rows,
                              "richardson_mT": [round(v, 5) for v in lim],
                              "slab_mT": [round(v, 5) for v in slab]})
    return out


STUDY_FILE = "mom-study.json"
CHECK_FILE = "mom-layout-check.json"
CHECK_WORLDS = ("mu1000-t0.2", "mu5000-t0.2")
CHECK_CELLS = (1.0, 0.7)


def layout_check(layout, progress=None):
    """The layout's worst spot in each of CHECK_WORLDS by the fast path,
    solved directly with the finite plate (two meshes, Richardson limit):
    the zone SNR both ways (ten minutes or so)."""
    import time
    from host_tools.boards import layouts as L
    from host_tools.sim import worlds as W
    chans = L.channels(layout)
    pts = [(c[0], c[1], SENSOR_Z) for c in chans]
    ax = np.array([c[2] for c in chans])
    out = {"version": 1, "layout": layout, "moment_Am2": L.MAGNET_M, "worlds": []}
    for name in CHECK_WORLDS:
        w = W.get(name)
        snr, (x, y, h, u) = L.worst_snr(name, layout, finite=False)  # the slab's worst spot
        src = magnet(h, x=x, y=y, direction=u)
        rows = []
        for cell in CHECK_CELLS:
            t0 = time.time()
            b, n = solve(w.plate["mu_r"], w.plate["t_mm"], cell, src, pts)
            rows.append({"cell_mm": cell, "cells": n, "seconds": round(time.time() - t0, 1),
                         "readings_mT": [round(v, 6) for v in (b * ax).sum(-1)]})
            if progress:
                progress("%s %s cell %g mm: %.0f s" % (layout, name, cell, time.time() - t0))
        lim = extrapolate(rows[0]["readings_mT"], rows[1]["readings_mT"], CHECK_CELLS[0], CHECK_CELLS[1])
        slab = (slab_field(w.plate["mu_r"], w.plate["t_mm"], src, pts) * ax).sum(-1)
        out["worlds"].append({"world": name, "spot_mm": [x, y, h], "direction": list(u), "fast_snr": round(snr, 2),
                              "meshes": rows, "richardson_mT": [round(v, 6) for v in lim],
                              "slab_cylinder_mT": [round(v, 6) for v in slab],
                              "richardson_snr": round(L.zone_snr(lim, layout), 2),
                              "slab_cylinder_snr": round(L.zone_snr(slab, layout), 2)})
    return out


def main(argv=None):
    """python -m host_tools.sim.mom: rerun the mesh study into
    hardware/mom-study.json; `--layout-check` the reference layout's worst
    spots into hardware/mom-layout-check.json instead."""
    import json
    import os
    import sys
    argv = sys.argv[1:] if argv is None else argv
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    say = lambda s: sys.stderr.write(s + "\n")  # noqa: E731
    if "--layout-check" in argv:
        from host_tools.boards import layouts
        path = os.path.join(here, "hardware", CHECK_FILE)
        res = layout_check(layouts.REFERENCE, progress=say)
    else:
        path = os.path.join(here, "hardware", STUDY_FILE)
        res = study(progress=say)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(res, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)
    print("wrote %s" % path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
