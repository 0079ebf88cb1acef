"""Position-corrected magnet signatures and identification.

Only called when a zone's field has settled into a new state (a landing, a
leave, a move), never per frame, so floats are fine here.

Model: a Bakugan's magnet, seen through the gate card's steel plate, acts on
the sensor plane like a vertical dipole at an effective height `h` above it.
The z field a sensor at lateral distance r reads is then

    m * k(r),   k(r) = h^3 (2 h^2 - r^2) / (h^2 + r^2)^(5/2)

(k(0) = 2, zero at r = h / sqrt(2) * 2 = 1.41 h, weakly negative beyond).
`fit` finds the position (px, py) and the signed strength m (counts; its
sign is the polarity) that explain a zone's sensor deviations best, by a
coarse grid search refined twice. m does not depend on where on the card the
Bakugan stands, which makes it the signature learnt at `register`.
"""
from math import sqrt, log

# Grid search: coarse step, then two refinements around the best point.
_STEPS = (8.0, 3.0, 1.0)
_MARGIN = 8.0          # mm searched beyond the zone rectangle
UNKNOWN = 0.7          # identification distance given to a Bakugan never registered
WRONG_POLARITY = 5.0   # added to the distance when the polarities differ


def effective_height(board):
    """The dipole height (mm above the sensor plane) used by the fit.

    The magnet sits a few mm above the card top inside an opened Bakugan; the
    steel plate spreads the field, which on the sensor plane looks like a
    higher dipole. The board may give it directly as sense.magnet_height_mm.
    """
    sense = board.get("sense") or {}
    if "height_mm" in sense:
        return float(sense["height_mm"])
    h = float(board.get("sensor_plane_to_card_top_mm", 3.0)) + float(sense.get("magnet_above_card_mm", 6.0))
    plate = board.get("plate") or {}
    sp = float(plate.get("spread_mm", 0.0))
    return sqrt(h * h + sp * sp)


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
    m = sdk / skk
    return m, -m * sdk   # residual minus sum(v^2), which is constant here


def fit(xs, ys, vs, rect, h):
    """Best (m, px, py, rel_residual) for deviations vs at sensors (xs, ys).

    rect = (x, y, w, h) of the zone. rel_residual in 0..1: sqrt of the share of
    the signal energy the single dipole leaves unexplained.
    """
    vv = 0.0
    for v in vs:
        vv += v * v
    if vv <= 0.0 or not vs:
        return 0.0, rect[0] + rect[2] / 2.0, rect[1] + rect[3] / 2.0, 1.0
    x0 = rect[0] - _MARGIN
    y0 = rect[1] - _MARGIN
    x1 = rect[0] + rect[2] + _MARGIN
    y1 = rect[1] + rect[3] + _MARGIN
    best = None
    bm = 0.0
    bx = by = 0.0
    step = _STEPS[0]
    y = y0
    while y <= y1 + 1e-9:
        x = x0
        while x <= x1 + 1e-9:
            m, r = _score(xs, ys, vs, h, x, y)
            if best is None or r < best:
                best, bm, bx, by = r, m, x, y
            x += step
        y += step
    for si in range(1, len(_STEPS)):
        prev = _STEPS[si - 1]
        step = _STEPS[si]
        cx, cy = bx, by
        n = int(prev / step + 0.999)
        for j in range(-n, n + 1):
            for i in range(-n, n + 1):
                x = cx + i * step
                y = cy + j * step
                m, r = _score(xs, ys, vs, h, x, y)
                if r < best:
                    best, bm, bx, by = r, m, x, y
    res = vv + best
    if res < 0.0:
        res = 0.0
    return bm, bx, by, sqrt(res / vv)


def distance(m, sig):
    """How far a measured strength m is from a learnt signature (0 = same)."""
    if sig == 0.0 or m == 0.0:
        return WRONG_POLARITY
    d = abs(log(abs(m) / abs(sig)))
    if (m > 0.0) != (sig > 0.0):
        d += WRONG_POLARITY
    return d


def identify(m, candidates, sigs):
    """(bakugan id or None, distance, runner-up distance) for strength m.

    candidates: ids that may be there; sigs: {id: learnt strength}. A
    candidate never registered gets the fixed distance UNKNOWN, so a good
    match wins over it and a poor one does not.
    """
    best = None
    bd = 1e30
    second = 1e30
    for b in candidates:
        s = sigs.get(b)
        d = UNKNOWN if s is None else distance(m, s)
        if d < bd:
            best, bd, second = b, d, bd
        elif d < second:
            second = d
    return best, bd, second
