"""The family of worlds: every unknown of the physics drawn per game and per
Bakugan from its plausible range (CPython only; issue #33, point 1).

A named world (host_tools/sim/worlds.py, e.g. mu300-t0.2) fixes the plate and
the magnet; the family draws them instead, from the game's seed, so that a
detector measured in it cannot lean on one exact world:
- per game: the plate's mu_r log-uniform 100-1000 and t uniform 0.1-0.3 mm,
  the finite plate's edge term scaled 0-1, the noise 1-1.5x the declared
  figure, per-channel gains +-7 %, offsets, a drift rate and rare spikes;
- per Bakugan: magnet moment 0.01-0.07 A m^2, standing height 2-6 mm, tilt
  0-20 degrees (each landing adds a few), its lesson in the card's middle
  (half the Bakugan) or anywhere on the card at least 9 mm from its edge.
`Game` carries one game's draw into a scenario and the World it is simulated
in (the drawn plate's exact slab, its finite plate's term scaled by the
drawn edge share); bench_sensing.simulate plays `--worlds family` with it.
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
LESSON_MIDDLE_SHARE = 0.5        # of the Bakugan: lesson in the middle, as asked; the others anywhere
# diag plate's share measurement: relative error (an assumption until a card
# is measured; a few marked spots, noise-limited readings)
DIAG_SHARE_ERROR = 0.10
# a game's plate is far from its calibrated world when their straight-under
# shares differ by more than this factor (a quarter of the games)
FAR_SHARE = 1.25


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


def draw_bakugan(rng, card_half_mm=(31.0, 44.0)):
    """One Bakugan's magnet and where on a card a child puts its lesson:
    in the middle (as `bakumat register` asks, half the Bakugan) or anywhere
    at least LESSON_EDGE_MM inside the card's edge. tilt: the piece's own
    lean (each landing adds a few degrees, host_tools/sim/world.py)."""
    hx, hy = card_half_mm
    lx, ly = max(0.0, hx - LESSON_EDGE_MM), max(0.0, hy - LESSON_EDGE_MM)
    d = {"moment": rng.uniform(*MOMENT_RANGE), "height": rng.uniform(*HEIGHT_RANGE_MM),
         "tilt_deg": rng.uniform(0.0, TILT_MAX_DEG)}
    spot = (rng.uniform(-lx, lx), rng.uniform(-ly, ly))
    d["lesson_xy_mm"] = None if rng.random() < LESSON_MIDDLE_SHARE else (round(spot[0], 1), round(spot[1], 1))
    return d


def bakugan_draw(seed, bid, card_half_mm=(31.0, 44.0)):
    """The draw of Bakugan `bid` in game `seed` (its own stream: a Bakugan
    swapped in later does not shift the others')."""
    return draw_bakugan(random.Random("family-%d-bakugan-%s" % (int(seed), bid)), card_half_mm)


def draw_game(seed, channels, bids=(), card_half_mm=(31.0, 44.0)):
    """Everything the family draws for game `seed` (`channels` sensor
    channels, Bakugan `bids`): reproducible from the seed."""
    rng = game_rng(seed)
    return {"plate": draw_plate(rng), "noise_factor": rng.uniform(*NOISE_FACTOR_RANGE),
            "spike_rate": SPIKE_RATE_PER_FRAME, "channels": draw_channels(rng, channels),
            "bakugan": {b: bakugan_draw(seed, b, card_half_mm) for b in bids}}


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


def calibrated_share(name):
    from host_tools.sim import worlds
    p = worlds.WORLDS[name]["plate"]
    return straight_share(p["mu_r"], p["t_mm"])


def plate_far(plate, calib):
    """True when the drawn plate lets through more than FAR_SHARE times, or
    less than 1/FAR_SHARE of, what the calibrated world's plate does
    straight under a magnet (the share `diag plate` measures)."""
    r = straight_share(plate["mu_r"], plate["t_mm"]) / calibrated_share(calib)
    return abs(math.log(r)) > math.log(FAR_SHARE)


def world_of(draw, seed):
    """The simulator's World for a game's drawn plate: the exact slab kernel
    of that plate (built in about a second, cached on disk by
    worlds.SlabKernel), with the finite plate's term of that plate (its
    edges, host_tools/sim/plate.py) scaled by the drawn edge_scale."""
    from host_tools.sim import worlds
    p = draw["plate"]
    spec = {"model": "slab", "plate": {"mu_r": p["mu_r"], "t_mm": p["t_mm"]}, "magnet": "ndfeb",
            "heights": HEIGHT_RANGE_MM, "edge_scale": p["edge_scale"],
            "about": "family draw of game %d: mu_r %.0f, t %.3f mm, edge term x %.2f"
                     % (seed, p["mu_r"], p["t_mm"], p["edge_scale"])}
    return worlds.World("family-%d" % seed, spec)


def _card_half(board):
    card = board.get("card") or {}
    return float(card.get("w", 62.0)) / 2.0, float(card.get("h", 88.0)) / 2.0


class Game:
    """What the family fixes for game `seed` on `board`: the drawn world
    the game is simulated in (`world`), the named world the mat's
    calibration picks (`calib`: the detector's kernels), whether the plate
    is far from it (`far`), the sensor settings and every Bakugan's magnet."""

    def __init__(self, board, seed):
        self.seed = int(seed)
        self.card_half = _card_half(board)
        self.draw = draw_game(seed, len(board["sensors"]), (), self.card_half)
        self.calib = calibrated_world(self.draw["plate"], random.Random("family-diag-%d" % self.seed))
        self.far = plate_far(self.draw["plate"], self.calib)
        self._world = None

    @property
    def world(self):
        if self._world is None:
            self._world = world_of(self.draw, self.seed)
        return self._world

    def bakugan(self, bid):
        return bakugan_draw(self.seed, bid, self.card_half)

    def lesson_at(self, bid):
        """Where Bakugan bid's lesson is put down (mm from the card's middle), None: the middle."""
        return self.bakugan(bid)["lesson_xy_mm"]

    def settings(self, board):
        """The sensor model's settings (host_tools/sim/world.py SensorModel)."""
        d = self.draw
        return {"noise": float(board["sensor"]["noise_counts_rms"]) * d["noise_factor"],
                "spikes": d["spike_rate"], "channels": d["channels"]}

    def apply(self, sc, board):
        """Put the draws into scenario sc: every Bakugan of its header gets
        its drawn magnet, the sensor model the drawn channels and noise."""
        for pl in (sc.header or {}).get("players", ()):
            for b in pl.get("bakugan", ()):
                d = self.bakugan(b["id"])
                sc.bakugan.setdefault(b["id"], {}).update(
                    {"moment": d["moment"], "height": d["height"], "tilt": d["tilt_deg"]})
        sc.settings.update(self.settings(board))
        return sc
