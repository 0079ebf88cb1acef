"""Physical properties of a Bakugan's magnet, by id.

A Bakugan carries one small magnet (it pulls the latch open over a gate
card's steel plate). What the mat can tell pieces apart by: polarity (which
pole faces down when it stands), strength (dipole moment) and how high the
magnet sits above the card when open; tilt varies a little per landing.

Defaults come from a table seeded by the id (the same id always gets the same
magnet), overridable per scenario (`bakugan drago moment 0.02 polarity down`).
Ranges: hardware/sensing-physics.md ("Bakugan magnets").
"""
import random

MOMENT_RANGE = (0.015, 0.040)  # A*m^2: a 3x2 mm to 5x2 mm NdFeB disc
HEIGHT_RANGE = (2.5, 4.0)  # mm, magnet centre above the card top when standing
TILT_MAX = 12.0  # deg, the piece's usual lean; each landing adds a few degrees
BALL_RADIUS = 13.0  # mm, a closed Bakugan
MAGNET_RADIUS = 8.0  # mm, magnet centre from the ball centre when closed


def default_props(bid):
    rng = random.Random("bakugan:" + bid)
    return {
        "moment": round(rng.uniform(*MOMENT_RANGE), 4),
        "polarity": 1 if rng.random() < 0.5 else -1,
        "height": round(rng.uniform(*HEIGHT_RANGE), 2),
        "tilt": round(rng.uniform(0.0, TILT_MAX), 1),
    }


def props(bid, overrides=None):
    p = default_props(bid)
    if overrides and bid in overrides:
        p.update(overrides[bid])
    return p
