"""The family of worlds: every unknown of the physics drawn per game and per
Bakugan from its plausible range (CPython only; issue #33, point 1).

A named world (host_tools/sim/worlds.py, e.g. mu300-t0.2) fixes the plate and
the magnet; the family draws them instead, from the game's seed, so that a
detector measured in it cannot lean on one exact world:
- per game: the plate's mu_r log-uniform 100-1000 and t uniform 0.1-0.3 mm,
  the finite plate's edge term scaled 0-1, the noise 1-1.5x the declared
  figure, per-channel gains +-7 %, offsets, a drift rate and rare spikes;
- per Bakugan: magnet moment 0.01-0.07 A m^2, standing height 2-6 mm, tilt
  0-20 degrees, lesson spots anywhere on the card at least 9 mm from its edge.
The mat never gets the drawn plate: `calibrated_world` simulates
`bakumat diag plate` (the share one sensor sees under a Bakugan, with its
measurement error) and returns the named world that calibration would pick,
whose kernel table the detector then uses.
"""
import math
import random

MU_RANGE = (100.0, 1000.0)        # log-uniform
T_RANGE_MM = (0.1, 0.3)
EDGE_SCALE_RANGE = (0.0, 1.0)     # the mesh study's edge leak is 0.3-0.5 of the kernels' model
MOMENT_RANGE = (0.01, 0.07)       # A m^2: 4 x 2 mm disc 0.024, 6 x 2 mm 0.05 (field notes)
HEIGHT_RANGE_MM = (2.0, 6.0)
TILT_MAX_DEG = 20.0
NOISE_FACTOR_RANGE = (1.0, 1.5)
GAIN_SPREAD = 0.07
OFFSET_MT = 0.05                  # per-channel offset, uniform +-
DRIFT_MT_PER_MIN = 0.01           # per-channel drift rate, uniform +-
SPIKE_RATE_PER_FRAME = 1.0e-4
LESSON_EDGE_MM = 9.0
# diag plate's share measurement: relative error (an assumption until a card
# is measured; a few marked spots, noise-limited readings)
DIAG_SHARE_ERROR = 0.10


def _log_uniform(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def game_rng(seed):
    """The family's random stream of game `seed` (independent of the game's own)."""
    return random.Random("family-%d" % int(seed))


def draw_plate(rng):
    return {"mu_r": _log_uniform(rng, *MU_RANGE), "t_mm": rng.uniform(*T_RANGE_MM),
            "edge_scale": rng.uniform(*EDGE_SCALE_RANGE)}


def draw_channels(rng, n):
    return [{"gain": 1.0 + rng.uniform(-GAIN_SPREAD, GAIN_SPREAD),
             "offset_mT": rng.uniform(-OFFSET_MT, OFFSET_MT),
             "drift_mT_per_min": rng.uniform(-DRIFT_MT_PER_MIN, DRIFT_MT_PER_MIN)} for _ in range(n)]


def draw_bakugan(rng, card_half_mm=(26.0, 37.0)):
    """One Bakugan's magnet and where on a card its lessons may stand."""
    hx, hy = card_half_mm
    lx, ly = max(0.0, hx - LESSON_EDGE_MM), max(0.0, hy - LESSON_EDGE_MM)
    return {"moment": rng.uniform(*MOMENT_RANGE), "height": rng.uniform(*HEIGHT_RANGE_MM),
            "tilt_deg": rng.uniform(0.0, TILT_MAX_DEG), "tilt_azimuth_deg": rng.uniform(0.0, 360.0),
            "lesson_xy_mm": (rng.uniform(-lx, lx), rng.uniform(-ly, ly))}


def draw_game(seed, channels, bakugan=8):
    """Everything the family draws for game `seed`: reproducible from the seed."""
    rng = game_rng(seed)
    return {"plate": draw_plate(rng), "noise_factor": rng.uniform(*NOISE_FACTOR_RANGE),
            "spike_rate": SPIKE_RATE_PER_FRAME, "channels": draw_channels(rng, channels),
            "bakugan": [draw_bakugan(rng) for _ in range(bakugan)]}


def straight_share(mu, t, g_mm=4.0):
    """The share of Bz a sensor straight under a magnet sees through an
    infinite slab (the image series of worlds.py, on axis, dipole at height
    g above the plate's top): sum c r^(2n) ((g)/(g + t + 2 n t))^3."""
    c = 4.0 * mu / (mu + 1.0) ** 2
    r2 = ((mu - 1.0) / (mu + 1.0)) ** 2
    s, w, n = 0.0, c, 0
    while w > 1e-9 and n < 20000:
        s += w * (g_mm / (g_mm + t + 2 * n * t)) ** 3
        w *= r2
        n += 1
    return s


def calibrated_world(plate, rng):
    """The named slab world `diag plate` would choose for the drawn `plate`:
    the measured share (truth x (1 + error)) matched to the nearest named
    world's share in log. The detector gets this world's kernels, never the truth."""
    from host_tools.sim import worlds
    measured = straight_share(plate["mu_r"], plate["t_mm"]) * (1.0 + rng.gauss(0.0, DIAG_SHARE_ERROR))
    measured = max(measured, 1e-6)
    best, bd = None, None
    for name, w in worlds.WORLDS.items():
        p = w.get("plate")
        if w.get("model") != "slab" or not p or w.get("magnet") != "ndfeb" or "alike" in w:
            continue
        d = abs(math.log(straight_share(p["mu_r"], p["t_mm"]) / measured))
        if bd is None or d < bd:
            best, bd = name, d
    return best
