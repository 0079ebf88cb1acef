"""The computed-worlds block of hardware/sensing-physics.md, generated
(`python -m host_tools.sim.worldsdoc` prints it; tests/host/test_sim_worlds_doc.py
fails when the doc is out of date).

Three parts: the plate figures of issue 15's table recomputed by this
project's code, the mesh study of the finite plate (stored in
hardware/mom-study.json by `python -m host_tools.sim.mom`, minutes to
rerun, so the doc and CI only read it), and the layout comparison of
host_tools/boards/layouts.py.
"""
import json
import os

import numpy as np

from host_tools.boards import layouts as L
from host_tools.sim import mom
from host_tools.sim import worlds as W

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STUDY = os.path.join(REPO, "hardware", mom.STUDY_FILE)
CHECK = os.path.join(REPO, "hardware", mom.CHECK_FILE)
TERM_CHECK = os.path.join(REPO, "hardware", "plate-term-check.json")  # host_tools/sim/plate.py CHECK_FILE
PLATE_ROWS = ("none", "mu100-t0.2", "mu300-t0.2", "mu1000-t0.1", "mu1000-t0.2", "mu5000-t0.2")
SIGMA = 0.05  # mT, the DRV5055A1 on the ESP32 ADC
HALL6 = [(-16.0, -30.0), (16.0, -30.0), (-16.0, 0.0), (16.0, 0.0), (-16.0, 30.0), (16.0, 30.0)]
H_ISSUE = 2.5


def below(name):
    """Bz (mT) straight below the real magnet (cylinder), h 2.5 mm."""
    w = W.get(name)
    src = mom.magnet(H_ISSUE)
    pts = [(0.0, 0.0, mom.SENSOR_Z)]
    if w.plate is None:
        return float(np.asarray(src.getB(np.asarray(pts) * 1e-3)).reshape(-1, 3)[0, 2] * 1e3)
    return float(mom.slab_field(w.plate["mu_r"], w.plate["t_mm"], src, pts)[0, 2])


def hall6_worst(name):
    """(best |Bz| of the six sensors, best |B| of six 3-axis sensors) at the
    worst spot of the plate (magnet upright, h 2.5 mm)."""
    w = W.get(name)
    xs = np.arange(-27.0, 27.01, 1.0)
    ys = np.arange(-40.0, 40.01, 1.0)
    X, Y = np.meshgrid(xs, ys)
    px = X.ravel()[:, None]
    py = Y.ravel()[:, None]
    sx = np.array([s[0] for s in HALL6])[None, :]
    sy = np.array([s[1] for s in HALL6])[None, :]
    b = w.field(mom.magnet_moment(), (px, py, mom.SENSOR_Z * -1 + H_ISSUE, 0.0, 0.0, 1.0), sx, sy)
    bz = np.abs(b[..., 2]).max(-1).min()
    bn = np.linalg.norm(b, axis=-1).max(-1).min()
    return float(bz), float(bn)


def plate_table(study):
    free = below("none")
    edge = {}
    pts = [tuple(p) for p in study["points_mm"]]
    for pl in study["plates"]:
        name = "mu%g-t%g" % (pl["mu_r"], pl["t_mm"])
        edge[name] = (pl["richardson_mT"][pts.index((27.0, 0.0))], pl["richardson_mT"][pts.index((0.0, 40.0))])
    out = ["| world | Bz straight below (share of no plate) | finite plate, 1 mm inside the mid-edges (mesh study) "
           "| best of the 6 Bz sensors at the worst spot | 6 three-axis sensors, abs(B), worst spot |",
           "|---|---|---|---|---|"]
    for name in PLATE_ROWS:
        b = below(name)
        bz, bn = hall6_worst(name)
        e = "%+.3f / %+.3f mT" % edge[name] if name in edge else "-"
        out.append("| %s | %.2f mT (%.1f %%) | %s | %.3f mT (%.1f sigma) | %.3f mT (%.1f sigma) |"
                   % (name, b, 100.0 * b / free, e, bz, bz / SIGMA, bn, bn / SIGMA))
    return "\n".join(out) + "\n"


def study_table(study):
    pts = study["points_mm"]
    head = "| plate | mesh | " + " | ".join("(%g, %g)" % tuple(p) for p in pts) + " |"
    out = [head, "|---|---|" + "---|" * len(pts)]
    out.append("| no plate | - | " + " | ".join("%.3f" % v for v in study["free_bz_mT"]) + " |")
    for pl in study["plates"]:
        tag = "mu %g, %g mm" % (pl["mu_r"], pl["t_mm"])
        for m in pl["meshes"]:
            out.append("| %s | %g mm (%d cells, %g s) | " % (tag, m["cell_mm"], m["cells"], m["seconds"])
                       + " | ".join("%.3f" % v for v in m["bz_mT"]) + " |")
        out.append("| %s | Richardson limit | " % tag + " | ".join("%.3f" % v for v in pl["richardson_mT"]) + " |")
        out.append("| %s | **infinite slab (fast path)** | " % tag
                   + " | ".join("%.3f" % v for v in pl["slab_mT"]) + " |")
    return "\n".join(out) + "\n"


def reference_table(rows, finite_rows):
    ref = L.REFERENCE
    part = L.PARTS[L.LAYOUTS[ref][0]]
    fin = next(r for r in finite_rows if r["layout"] == ref)
    out = ["| world | worst-spot SNR, infinite slab alone | worst-spot SNR with the finite plate's term | crosstalk "
           "(neighbour / own) | peak field at a sensor (range %g mT) |" % part["range_mT"], "|---|---|---|---|---|"]
    for r in rows:
        if r["layout"] != ref:
            continue
        for w, v in r["snr"].items():
            pk = L.peak(w, ref)
            out.append("| %s | %s | **%s** | %s | %s |" % (w, L._f(v), L._f(fin["snr"][w]), L._f(fin["crosstalk"][w]),
                                                        "-" if pk is None else "%.2f mT%s" % (
                                                            pk, " (saturates)" if pk > part["range_mT"] else "")))
    return "\n".join(out) + "\n"


def term_table(term):
    pts = [tuple(p) for p in term["points_mm"]]
    out = ["| plate | | " + " | ".join("(%g, %g)" % p for p in pts) + " |", "|---|---|" + "---|" * len(pts)]
    for pl in term["plates"]:
        tag = "mu %g, %g mm" % (pl["mu_r"], pl["t_mm"])
        out.append("| %s | the finite plate's term | " % tag + " | ".join("%+.3f" % v for v in pl["term_mT"]) + " |")
        out.append("| %s | **slab + term** | " % tag + " | ".join("%.3f" % v for v in pl["slab_plus_term_mT"]) + " |")
        out.append("| %s | direct solve, Richardson limit | " % tag
                   + " | ".join("%.3f" % v for v in pl["richardson_mT"]) + " |")
    out += ["", "| world | worst spot of the slab (x, y, h mm) | infinite slab alone | **slab + term** "
            "| direct solve of the finite plate (Richardson limit) |", "|---|---|---|---|---|"]
    for w in term["worlds"]:
        out.append("| %s | (%g, %g, %g) | %.1f | **%.1f** | %.1f |" % (w["world"], w["spot_mm"][0], w["spot_mm"][1],
                                                                 w["spot_mm"][2], w["fast_snr"], w["snr"],
                                                                 w["richardson_snr"]))
    return "\n".join(out) + "\n"


def check_table(check):
    out = ["| world | worst spot (x, y, h mm; tilt) | fast path (dipole, infinite slab) | real magnet, infinite slab "
           "| real magnet, finite plate: %s | finite plate, Richardson limit |"
           % " / ".join("%g mm" % m["cell_mm"] for m in check["worlds"][0]["meshes"]),
           "|---|---|---|---|---|---|"]
    for w in check["worlds"]:
        x, y, h = w["spot_mm"]
        tilt = np.degrees(np.arccos(min(1.0, w["direction"][2])))
        meshes = " / ".join("%.1f" % L.zone_snr(m["readings_mT"], check["layout"]) for m in w["meshes"])
        out.append("| %s | (%g, %g, %g; %.0f deg) | %.1f | %.1f | %s | **%.1f** |"
                   % (w["world"], x, y, h, tilt, w["fast_snr"], w["slab_cylinder_snr"], meshes, w["richardson_snr"]))
    return "\n".join(out) + "\n"


def markdown():
    with open(STUDY, encoding="utf-8") as f:
        study = json.load(f)
    rows = L.table(finite=False)
    finite_rows = L.table(layouts=[L.REFERENCE])
    parts = ["Issue 15's plate figures, recomputed (magnet: cylinder 3 x 3 mm, J 1.2 T, %g mm above the card top, "
             "upright; sensors %g mm below the card top; worst spot over the plate's area, 1 mm grid, by the fast "
             "path; sigma = %g mT):\n\n" % (H_ISSUE, -mom.SENSOR_Z, SIGMA),
             plate_table(study),
             "\nMesh study (Bz in mT below the card at (x, y) mm from the magnet's axis, magnet %g mm above the card; "
             "finite 56 x 82 mm plate, magpylib-material-response, Newell interaction):\n\n" % study["height_mm"],
             study_table(study),
             "\n" + L.markdown(rows, finite=False),
             "\nReference layout **%s** (%s), per world (`bakumat hw layouts --layout %s`):\n\n"
             % (L.REFERENCE, L.LAYOUTS[L.REFERENCE][2], L.REFERENCE),
             reference_table(rows, finite_rows),
             "\nBelow SNR %g by the infinite slab alone: %s; with the finite plate's term: %s.\n"
             % (L.TARGET_SNR, ", ".join(L.failing_worlds(rows)) or "none",
                ", ".join(L.failing_worlds(finite_rows)) or "none")]
    if os.path.exists(TERM_CHECK):
        with open(TERM_CHECK, encoding="utf-8") as f:
            term = json.load(f)
        parts += ["\nThe finite plate's term (host_tools/sim/plate.py: a thin sheet of panels, the finite plate's "
                  "charges minus those of the same sheet extended to 1.5 m, reciprocal tables per sensor site) "
                  "against the direct solves (`python -m host_tools.sim.plate`, hardware/plate-term-check.json; "
                  "Bz in mT, magnet upright 2.5 mm above the plate's centre; then the reference layout's zone SNR "
                  "at the slab's worst spots):\n\n", term_table(term)]
    if os.path.exists(CHECK):
        with open(CHECK, encoding="utf-8") as f:
            check = json.load(f)
        parts += ["\nThe worst spot on the reference layout's sites in the stiffest worlds, solved directly with the "
                  "finite plate for %s (the same sites; `python -m host_tools.sim.mom --layout-check`, hardware/%s; "
                  "zone SNR):\n\n" % (check["layout"], mom.CHECK_FILE),
                  check_table(check)]
    return "".join(parts)


if __name__ == "__main__":
    import sys
    sys.stdout.write(markdown())
