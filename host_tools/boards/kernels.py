"""The kernel table a board carries (docs/formats/kernel-table-v1.md;
CPython only, built on the host from host_tools/sim/worlds.py).

For the mat's calibrated world: what each channel of a zone reads, in
counts per mA m^2 of moment along x, y and z, for a magnet at (x, y) on a
grid over the card and at a few heights. firmware/sense/fit.py fits
the readings of a settled zone with it.

    table = kernels.build(board, "mu300-t0.2")   # a dict, the format's fields
    text = kernels.dumps(table)                   # the JSON file deploy puts on the board
"""
import base64
import json
import math
from array import array

from host_tools.errors import UserError
from host_tools.sim import worlds as _worlds

FORMAT = "bakumat-kernels"
VERSION = 1
STEP_MM = 3.0        # grid pitch over the card (what it costs: docs/sensing-pipeline.md, "The kernel fit")
INSET_MM = 9.0       # the magnet's centre stays this far inside the card's edge (as the simulator)
HEIGHT_SHARES = (0.0, 0.5, 1.0)   # heights: these shares of the world's range of magnet heights
MOMENT_UNIT = 1e-3   # A m^2: the table is per mA m^2


class KernelError(UserError):
    """A board whose zones the table cannot describe, or a malformed table file."""


_AXES = {"x": (1.0, 0.0, 0.0), "y": (0.0, 1.0, 0.0), "z": (0.0, 0.0, 1.0),
         "-x": (-1.0, 0.0, 0.0), "-y": (0.0, -1.0, 0.0), "-z": (0.0, 0.0, -1.0)}


def _axis(s):
    a = s.get("axis", "z")
    if isinstance(a, str):
        if a not in _AXES:
            raise KernelError("sensor channel %s: axis %r is not one of %s" % (s.get("ch"), a, ", ".join(_AXES)))
        return _AXES[a]
    n = math.sqrt(sum(float(v) * float(v) for v in a)) or 1.0
    return tuple(float(v) / n for v in a)


def zone_layout(board):
    """[(dx, dy, axis vector)] of a zone's channels in channel order,
    relative to the zone's centre; KernelError unless every zone has the same."""
    zones = {z["id"]: z for z in board["zones"]}
    per = {}
    for s in sorted(board["sensors"], key=lambda s: s["ch"]):
        z = zones[s["zone"]]
        cx = z["x"] + z["w"] / 2.0
        cy = z["y"] + z["h"] / 2.0
        per.setdefault(s["zone"], []).append((round(float(s["x"]) - cx, 3), round(float(s["y"]) - cy, 3), _axis(s)))
    lays = list(per.values())
    for zid, lay in per.items():
        if lay != lays[0]:
            raise KernelError("board %r: zone %s's channels are not laid out as zone %s's (one kernel table serves"
                              " every zone)" % (board["name"], zid, list(per)[0]))
    return lays[0]


def heights(world):
    lo, hi = world.heights
    return [round(lo + s * (hi - lo), 3) for s in HEIGHT_SHARES]


def build(board, world_name, step=STEP_MM, finite=True):
    """The kernel table (a dict with the format's fields) of `board` in world `world_name`.
    finite: the card's own plate with its edges (the finite plate's term,
    host_tools/sim/plate.py, as the simulator computes a magnet over a card);
    False: the infinite slab alone."""
    import numpy as np
    world = _worlds.get(world_name)
    if not world.computed:
        raise KernelError("world %r is not computed physics (no kernel table; pick one of `bakumat hw worlds`)"
                          % world.name)
    lay = zone_layout(board)
    card = board.get("card") or {}
    hw = float(card.get("w", 62.0)) / 2.0 - INSET_MM
    hh = float(card.get("h", 88.0)) / 2.0 - INSET_MM
    nx = int(math.floor(2 * hw / step + 1e-9)) + 1
    ny = int(math.floor(2 * hh / step + 1e-9)) + 1
    x0 = -(nx - 1) * step / 2.0
    y0 = -(ny - 1) * step / 2.0
    hs = heights(world)
    cpm = float(board["sensor"]["counts_per_mT"])
    top = float(board["sensor_plane_to_card_top_mm"])
    sx = np.array([c[0] for c in lay])
    sy = np.array([c[1] for c in lay])
    ax = np.array([c[2] for c in lay])
    m = MOMENT_UNIT / world.moment_scale   # the world scales moments (ferrite): undo it, per true mA m^2
    vals = []
    for h in hs:
        for iy in range(ny):
            for ix in range(nx):
                per = []
                for u in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)):
                    pose = (x0 + ix * step, y0 + iy * step, top + h) + u
                    b = world.field(m, pose, sx, sy, 0.0, True, (0.0, 0.0) if finite else None, top)
                    per.append((b * ax).sum(-1) * cpm)
                vals.extend(np.stack(per, axis=-1).ravel().tolist())   # channel-major, then x, y, z
    table = {"format": FORMAT, "version": VERSION, "board": board["name"], "world": world.name,
            "unit": "counts per mA m^2", "x0": x0, "y0": y0, "step": step, "nx": nx, "ny": ny,
            "heights": hs, "moment_range": [round(v * 1000.0 * world.moment_scale, 3) for v in
                                            (board.get("magnet") or {}).get("moment_Am2", (0.015, 0.04))],
            "channels": [[c[0], c[1], list(c[2])] for c in lay],
            "k": base64.b64encode(array("f", vals).tobytes()).decode("ascii")}
    table["fixed"] = fixed_form(table)
    return table


def fixed_form(table):
    """The table's chip form (the format's field "fixed"): k in the
    firmware's fixed point and its whitened middle height, derived by the
    firmware's own code (sense.fit.Kernels under CPython), so the board
    copies them instead of doing the float work in the tick that sets a
    game up (docs/runtime.md, "The setup tick")."""
    from host_tools import fwpath
    fwpath.ensure()
    from sense import fit
    t = dict(table)
    t.pop("fixed", None)
    kern = fit.Kernels(t, len(t["channels"]))
    return {"kbits": fit.KBITS, "qbits": fit.QBITS, "f": kern.kfix,
            "k": base64.b64encode(kern.k.tobytes()).decode("ascii"),
            "q": base64.b64encode(kern.q.tobytes()).decode("ascii")}


def for_board(board, world=None):
    """The board as its pipeline gets it: with the kernel table of `world`
    (default: the world the simulator would run it in, host_tools/sim/worlds.py
    default_name). A world of assumed physics (capture, the retired Hall
    mat's) has no table: KernelError, naming it (the firmware senses with
    the kernel fit only)."""
    w = _worlds.get(world or board.get("world") or _worlds.default_name(board))
    b = dict(board)
    b["kernels"] = build(board, w.name)
    return b


def dumps(table):
    return json.dumps(table, indent=1, sort_keys=True) + "\n"


def load(path):
    """A kernel table file, checked (KernelError naming the problem)."""
    try:
        with open(path) as f:
            t = json.load(f)
    except (OSError, ValueError) as e:
        raise KernelError("%s: not a kernel table (%s)" % (path, e))
    check(t, path)
    return t


def check(t, where="kernel table"):
    if not isinstance(t, dict) or t.get("format") != FORMAT:
        raise KernelError("%s: format is not %r" % (where, FORMAT))
    if t.get("version") != VERSION:
        raise KernelError("%s: version %r (this reader knows %d)" % (where, t.get("version"), VERSION))
    for k in ("x0", "y0", "step", "nx", "ny", "heights", "channels", "k"):
        if k not in t:
            raise KernelError("%s: field %r missing" % (where, k))
    n = t["nx"] * t["ny"] * len(t["heights"]) * len(t["channels"]) * 3
    got = len(base64.b64decode(t["k"])) // 4
    if got != n:
        raise KernelError("%s: field 'k' holds %d values, nx * ny * heights * channels * 3 is %d" % (where, got, n))
    fx = t.get("fixed")
    if fx is not None:
        for k in ("kbits", "qbits", "f", "k", "q"):
            if not isinstance(fx, dict) or k not in fx:
                raise KernelError("%s: field 'fixed' has no %r" % (where, k))
        got = len(base64.b64decode(fx["k"])) // 4
        if got != n:
            raise KernelError("%s: field 'fixed.k' holds %d values, field 'k' %d" % (where, got, n))
