"""What a maker's readings say about the real gate cards (`bakumat diag plate`).

Four readings of one zone's channels (mT, the empty mat subtracted): a
Bakugan standing on a plain card (no steel, the same thickness) at mark A,
straight over one sensor, then at mark B, between sensors (`bare_a`,
`bare_b`); the same on a real gate card (`card_a`, `far`). From them:

- the magnet's height and moment: the free dipole fitted to both plain-card
  readings (at A alone moment and height trade against each other; B's
  sensors, off axis, tell the height);
- the share that gets through: card / bare at the sensor under mark A;
- mu_r t: the infinite-slab share (host_tools/sim/worlds.py) inverted at
  that height, for t = 0.2 mm (a thin sheet's share depends on mu_r t
  almost alone);
- the leak: the mean field of the channels 25 mm or more from mark B;
- the nearest simulated world, by mu_r t and magnet strength.
"""
import math

import numpy as np

from host_tools.sim import worlds as W

T_ASSUMED = 0.2
FAR_MM = 25.0
FERRITE_BELOW_AM2 = 0.014  # fitted moments under this: a ferrite magnet (the smallest NdFeB disc of sim/bakugan.py: 0.015)


def fit_dipole(readings):
    """(moment A m^2, height mm above the sensor plane, rms misfit mT) of an
    upright free dipole that best explains Bz readings: a list of
    (sx, sy, b, x, y), the magnet at (x, y) for that set."""
    best = None
    for h in np.arange(2.0, 20.0, 0.02):
        g_all = []
        b_all = []
        for sx, sy, b, x, y in readings:
            sx = np.asarray(sx, float)
            sy = np.asarray(sy, float)
            sa, _, _, sd = W.free_sums(np.hypot(sx - x, sy - y), np.full(len(sx), h))
            g_all.append(W.K_MT * (3.0 * sd - sa))
            b_all.append(np.asarray(b, float))
        g = np.concatenate(g_all)
        b = np.concatenate(b_all)
        m = float(g @ b / (g @ g))
        res = float(np.sqrt(np.mean((b - m * g) ** 2)))
        if best is None or res < best[2]:
            best = (m, float(h), res)
    return best


def slab_share(mu, t, h):
    """Bz straight below through an infinite slab / without it, height h."""
    sa, _, _, sd = W.slab_sums(np.array([0.0]), np.array([h]), mu, t)
    fa, _, _, fd = W.free_sums(np.array([0.0]), np.array([h]))
    return float((3 * sd[0] - sa[0]) / (3 * fd[0] - fa[0]))


def mu_from_share(share, h, t=T_ASSUMED):
    """mu_r whose slab passes `share` at height h (bisection on log mu);
    None when the share is 1 or more (no steel) or too small to resolve."""
    if share >= slab_share(1.0 + 1e-9, t, h) - 1e-6:
        return None
    lo, hi = 0.0, math.log(1e5)
    if share < slab_share(1e5, t, h):
        return 1e5
    for _ in range(50):
        mid = (lo + hi) / 2.0
        if slab_share(math.exp(mid), t, h) > share:
            lo = mid
        else:
            hi = mid
    return math.exp((lo + hi) / 2.0)


def nearest_world(mu_t, ferrite):
    best = None
    for name in W.names():
        w = W.get(name)
        if not w.computed or (w.magnet == "ferrite") != ferrite:
            continue
        d = abs(math.log((w.mu_t() or 1.0)) - math.log(mu_t or 1.0))
        if best is None or d < best[0]:
            best = (d, name)
    return best[1]


def bz_channels(board, zone):
    """The zone's channels that read Bz (a Hall sensor's one axis, or the z
    axis of a three-axis part), in channel order: the readings analyse takes."""
    return [s for s in board["sensors"] if s["zone"] == zone and s.get("axis", "z") == "z"]


def analyse(board, zone, mark_a, mark_b, bare, bare_b, card, far):
    """The figures from the four readings (lists of mT of the zone's Bz
    channels, bz_channels' order): plain card at A and B, gate card at A
    and B. mark_a / mark_b: (x, y) in board mm."""
    sens = bz_channels(board, zone)
    sx = [s["x"] for s in sens]
    sy = [s["y"] for s in sens]
    d_a = [math.hypot(x - mark_a[0], y - mark_a[1]) for x, y in zip(sx, sy)]
    under = int(np.argmin(d_a))
    m, h, misfit = fit_dipole([(sx, sy, bare, mark_a[0], mark_a[1]), (sx, sy, bare_b, mark_b[0], mark_b[1])])
    share = card[under] / bare[under] if bare[under] else float("nan")
    mu = mu_from_share(share, h) if share == share else None
    mu_t = 0.0 if mu is None else mu * T_ASSUMED
    far_ch = [i for i, (x, y) in enumerate(zip(sx, sy)) if math.hypot(x - mark_b[0], y - mark_b[1]) >= FAR_MM]
    leak = float(np.mean([far[i] for i in far_ch])) if far_ch else None
    ferrite = abs(m) < FERRITE_BELOW_AM2
    return {"zone": zone, "channel": sens[under]["ch"], "bare_mT": round(bare[under], 4),
            "card_mT": round(card[under], 4), "share": round(share, 4), "height_mm": round(h, 2),
            "moment_Am2": round(abs(m), 4), "fit_rms_mT": round(misfit, 4),
            "mu_r_t_mm": round(mu_t, 1), "mu_r_at_0.2mm": None if mu is None else round(mu, 0),
            "leak_mT": None if leak is None else round(leak, 4), "leak_channels": [sens[i]["ch"] for i in far_ch],
            "magnet": "ferrite" if ferrite else "ndfeb", "world": nearest_world(mu_t, ferrite)}


def text(r):
    lines = ["zone %d, channel %d under mark A: %.3f mT on a plain card, %.3f mT on the gate card"
             % (r["zone"], r["channel"], r["bare_mT"], r["card_mT"]),
             "  share that gets through: %.1f %%" % (100.0 * r["share"]),
             "  magnet: %.4f A m^2 (%s), %.1f mm above the sensors (fit within %.3f mT)"
             % (r["moment_Am2"], r["magnet"], r["height_mm"], r["fit_rms_mT"])]
    if r["mu_r_t_mm"]:
        lines.append("  implied mu_r t: %.0f mm (mu_r %.0f if the plate is 0.2 mm thick)"
                     % (r["mu_r_t_mm"], r["mu_r_at_0.2mm"]))
    else:
        lines.append("  implied mu_r t: 0 (the card passes the field whole: no steel?)")
    if r["leak_mT"] is not None:
        lines.append("  leak at mark B, channels %s: %+.4f mT" % (", ".join(map(str, r["leak_channels"])), r["leak_mT"]))
    lines.append("  nearest simulated world: %s (`bakumat hw worlds`)" % r["world"])
    return "\n".join(lines)
