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


def magnet(h_mm, j_t=1.2, d_mm=3.0, len_mm=3.0, x=0.0, y=0.0):
    import magpylib as magpy
    return magpy.magnet.Cylinder(dimension=(d_mm * 1e-3, len_mm * 1e-3), polarization=(0.0, 0.0, j_t),
                                 position=(x * 1e-3, y * 1e-3, h_mm * 1e-3))


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
