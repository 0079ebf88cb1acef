"""Magnet signatures and identification (event-time maths, floats allowed).

Called only while a zone's field has settled into a new state (a landing, a
leave), never in the per-frame path of an idle mat.

What a zone's sensors see of a Bakugan standing on its card (the model of
hardware/sensing-physics.md): the gate card's steel plate captures part of
the magnet's flux and lets it out of its underside, which gives every sensor
under the card nearly the same field, b * g_i (g_i = the plate's solid angle
seen from sensor i over 2 pi, about 0.9); on top of it the attenuated dipole
adds a local bump at the one or two sensors nearest the magnet. The signed
sheet level b does not depend on where on the card the Bakugan stands (only
on its magnet: strength, polarity, height, a little on tilt), so it is the
signature: `level` estimates it robustly (the median-trimmed mean of
v_i / g_i, dropping the sensor the bump lands on).

Boards whose plate captures nothing (no sheet term) fall back to `fit`: a
vertical dipole at an effective height h,

    v_i = a * k(r_i),   k(r) = h^3 (2 h^2 - r^2) / (h^2 + r^2)^(5/2)

(k(0) = 2, zero at r = sqrt(2) h, weakly negative beyond), position and a
found by a grid search. The signed a is then the signature.

Identification (`posterior`) is Bayesian over the candidates the referee
allows: each learnt signature is a Gaussian around its value; the caller
waits for more frames while no candidate is clearly the one.
"""
from math import atan2, exp, log, pi, sqrt

_STEPS = (8.0, 3.0, 1.0)
UNKNOWN_SPAN = 4.0     # a never-registered Bakugan: flat over +-4 x the level


def effective_height(board):
    """Height (mm above the sensor plane) of the dipole seen through the plate."""
    sense = board.get("sense") or {}
    if "height_mm" in sense:
        return float(sense["height_mm"])
    above = 3.0
    mag = board.get("magnet") or {}
    rng = mag.get("above_card_mm")
    if type(rng) in (list, tuple) and len(rng) == 2:
        above = (float(rng[0]) + float(rng[1])) / 2.0
    elif type(rng) in (int, float):
        above = float(rng)
    plate = board.get("plate") or {}
    return float(board.get("sensor_plane_to_card_top_mm", 3.0)) + above + float(plate.get("spread_mm", 0.0))


def sheet(rect, plate_z, sx, sy):
    """Share of the plate's underside field a sensor at (sx, sy) sees: the
    solid angle of the plate rectangle rect = (x1, y1, x2, y2), plate_z mm
    above the sensor plane, over 2 pi (1 deep under a large plate)."""
    dz = plate_z if plate_z > 1e-6 else 1e-6

    def f(x, y):
        return atan2(x * y, dz * sqrt(x * x + y * y + dz * dz))

    ax = rect[0] - sx
    bx = rect[2] - sx
    ay = rect[1] - sy
    by = rect[3] - sy
    return (f(bx, by) - f(ax, by) - f(bx, ay) + f(ax, ay)) / (2.0 * pi)


def level(vs, gs):
    """(b, n_used, spread): the sheet level of deviations vs (one frame or a
    mean), robust to the dipole bump: the mean of v/g without the value
    farthest from the median. spread is the rms of the kept values around b
    (noise plus whatever the model does not explain)."""
    r = [vs[i] / gs[i] for i in range(len(vs)) if gs[i] > 0.2]
    n = len(r)
    if n == 0:
        return 0.0, 0, 0.0
    if n >= 4:
        r.sort()
        med = (r[(n - 1) // 2] + r[n // 2]) / 2.0
        if abs(r[0] - med) > abs(r[-1] - med):
            r.pop(0)
        else:
            r.pop()
        n -= 1
    b = sum(r) / n
    ss = 0.0
    for x in r:
        ss += (x - b) * (x - b)
    return b, n, sqrt(ss / n)


def kernel(h, dx, dy):
    h2 = h * h
    r2 = dx * dx + dy * dy
    s = h2 + r2
    return h2 * h * (2.0 * h2 - r2) / (s * s * sqrt(s))


def _score(xs, ys, vs, h, px, py):
    sdk = 0.0
    skk = 0.0
    for i in range(len(vs)):
        k = kernel(h, xs[i] - px, ys[i] - py)
        sdk += vs[i] * k
        skk += k * k
    if skk <= 0.0:
        return 0.0, 1e30
    a = sdk / skk
    return a, -a * sdk   # residual minus sum(v^2), constant for given vs


def fit(xs, ys, vs, rect, h, margin=0.0):
    """Best (a, px, py, rel_residual) of one vertical dipole for deviations
    vs at sensors (xs, ys); rect = (x, y, w, h) of the zone, searched with
    `margin` mm around it. rel_residual in 0..1: sqrt of the share of the
    signal energy the dipole leaves unexplained."""
    vv = 0.0
    for v in vs:
        vv += v * v
    if vv <= 0.0 or not vs:
        return 0.0, rect[0] + rect[2] / 2.0, rect[1] + rect[3] / 2.0, 1.0
    x0 = rect[0] - margin
    y0 = rect[1] - margin
    x1 = rect[0] + rect[2] + margin
    y1 = rect[1] + rect[3] + margin
    best = None
    ba = bx = by = 0.0
    y = y0
    while y <= y1 + 1e-9:
        x = x0
        while x <= x1 + 1e-9:
            a, r = _score(xs, ys, vs, h, x, y)
            if best is None or r < best:
                best, ba, bx, by = r, a, x, y
            x += _STEPS[0]
        y += _STEPS[0]
    for si in range(1, len(_STEPS)):
        step = _STEPS[si]
        n = int(_STEPS[si - 1] / step + 0.999)
        cx, cy = bx, by
        for j in range(-n, n + 1):
            for i in range(-n, n + 1):
                x = cx + i * step
                y = cy + j * step
                if x < x0 or x > x1 or y < y0 or y > y1:
                    continue
                a, r = _score(xs, ys, vs, h, x, y)
                if r < best:
                    best, ba, bx, by = r, a, x, y
    res = vv + best
    if res < 0.0:
        res = 0.0
    return ba, bx, by, sqrt(res / vv)


def loglik(x, sx, s, rel, n=1, tail=0.0, trel=0.25):
    """(log-likelihood, z score) of a level x (standard error sx) for a
    Bakugan of learnt signature s (None: never registered, a flat likelihood
    over +-UNKNOWN_SPAN times |x|). rel: a landing's spread around the
    Bakugan's own level (tilt, position), relative; the signature's own
    error is that spread over sqrt(n) (n landings averaged into it). tail:
    the share of landings read far off (measured on the kernel fit: 1 in 5
    lies beyond two core spreads, up to 20-25 %: a magnet near the card's
    edge, a battle's field read against the other one's), a second Gaussian
    trel * |s| wide; 0: the core Gaussian alone."""
    if s is None:
        return -log(2.0 * UNKNOWN_SPAN * (abs(x) + 3.0 * sx) + 1e-9), 0.0
    sd = sqrt(sx * sx + (rel * s) * (rel * s) / n + (rel * x) * (rel * x)) + 1e-9
    z = (x - s) / sd
    ll = -0.5 * z * z - log(sd * 2.5066283)
    if tail > 0.0:
        st = sqrt(sd * sd + (trel * s) * (trel * s)) + 1e-9
        zt = (x - s) / st
        lt = -0.5 * zt * zt - log(st * 2.5066283)
        # log((1 - tail) e^ll + tail e^lt), without overflow
        if ll >= lt:
            ll = ll + log((1.0 - tail) + tail * exp(lt - ll))
        else:
            ll = lt + log(tail + (1.0 - tail) * exp(ll - lt))
    return ll, z


def posterior(x, sx, candidates, sigs, rel, others=(), other_prior=0.0, counts=None, tail=0.0, trel=0.25,
              second=None, priors=None):
    """Who among `candidates` has signature x (measured with standard error
    sx)? sigs: {id: learnt signed level}; rel, tail, trel: loglik's; counts:
    {id: landings averaged into its signature} (None: 1 each). Returns
    (best id, its posterior probability, its z score); with `second` (a
    list) it also receives [runner-up id or None, its posterior].
    Candidates have equal priors; `others` (ids the referee does not expect,
    which may land all the same when the referee's picture is wrong) share
    a prior of other_prior each, or priors[id] when given. A candidate never registered gets a flat
    likelihood over +-UNKNOWN_SPAN times |x|. (None, 0, 0) without
    candidates."""
    best = None
    bl = -1e30
    bz = 0.0
    nd = None
    nl = -1e30
    lls = []
    lp = log(other_prior) if other_prior > 0.0 else -1e30
    for group, prior in ((candidates, 0.0), (others, lp)):
        for b in group:
            ll, z = loglik(x, sx, sigs.get(b), rel, counts.get(b, 1) if counts else 1, tail, trel)
            if prior != 0.0 and priors and b in priors:
                ll += log(priors[b])
            else:
                ll += prior
            lls.append(ll)
            if ll > bl:
                nd, nl = best, bl
                best, bl, bz = b, ll, z
            elif ll > nl:
                nd, nl = b, ll
    if best is None:
        return None, 0.0, 0.0
    tot = 0.0
    for ll in lls:
        d = ll - bl
        if d > -50.0:
            tot += exp(d)
    if second is not None:
        second.append(nd)
        second.append(exp(nl - bl) / tot if nd is not None and nl - bl > -50.0 else 0.0)
    return best, 1.0 / tot, abs(bz)
