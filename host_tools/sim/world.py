"""Turn a scenario into ADC frames, control events and ground truth.

Each Bakugan on the mat is an object made of timed phases (rolling ball,
opening, standing, lifted...), each phase giving the magnet's pose (position
in mm, unit moment direction) at a time. A frame sums the field of every
magnet at every sensor (standing magnets are computed once and cached), then
the sensor model turns mT into counts: per-channel offset and gain spread,
slow drift, noise with rare spikes, clipping to 0..max_counts, faults.
"""
import math
import random
from operator import add

from host_tools import boards as _boards
from host_tools.sim import bakugan as _bak
from host_tools.sim import field as F
from host_tools.sim import worlds as _worlds
from host_tools.sim.scenario import ScenarioError

# Sensors farther than this from a magnet get no field: at 250 mm the
# strongest magnet (0.07 A m^2) gives 0.45 uT, 3 counts of a LIS2MDL (20
# counts rms of noise), so the cut is a step well under a frame's noise (at
# 100 mm it was 26 counts for a typical 0.039 A m^2 magnet, 60 for a lifted
# one dropped at 90 mm up).
REACH_MM = 250.0
AIR_MM = 90.0  # a lifted Bakugan is raised this far, then carried out of reach
CARRY_MS = 500  # ... in this long (REACH_MM further up: its field fades out)
OPEN_MS = 80  # a Bakugan takes this long to pop open
LIFT_MS = 300
DRIFT_STEP_FRAMES = 50
_NOISE_VARIANTS = 8
_NOISE_CACHE: dict = {}


# --------------------------------------------------------------- geometry

def _rot(v, k, a):
    """Rotate vector v about unit axis k by angle a (Rodrigues)."""
    c = math.cos(a)
    s = math.sin(a)
    kx, ky, kz = k
    vx, vy, vz = v
    d = (kx * vx + ky * vy + kz * vz) * (1.0 - c)
    return (vx * c + (ky * vz - kz * vy) * s + kx * d,
            vy * c + (kz * vx - kx * vz) * s + ky * d,
            vz * c + (kx * vy - ky * vx) * s + kz * d)


def _unit(v):
    n = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) or 1.0
    return (v[0] / n, v[1] / n, v[2] / n)


def _rand_unit(rng):
    z = rng.uniform(-1.0, 1.0)
    a = rng.uniform(0.0, 2.0 * math.pi)
    r = math.sqrt(max(0.0, 1.0 - z * z))
    return (r * math.cos(a), r * math.sin(a), z)


def _tilted(pol, tilt_deg, az):
    t = math.radians(tilt_deg)
    return (pol * math.sin(t) * math.cos(az), pol * math.sin(t) * math.sin(az), pol * math.cos(t))


_AXES = {"x": (1.0, 0.0, 0.0), "y": (0.0, 1.0, 0.0), "z": (0.0, 0.0, 1.0),
         "-x": (-1.0, 0.0, 0.0), "-y": (0.0, -1.0, 0.0), "-z": (0.0, 0.0, -1.0)}


def channel_axis(sensor):
    """Unit vector a channel measures along: "axis" of a board sensor entry
    (x, y, z, -x, -y, -z or [ax, ay, az]); z when absent (v1 boards)."""
    a = sensor.get("axis", "z")
    if isinstance(a, str):
        if a not in _AXES:
            raise _worlds.WorldError("sensor channel %s: axis %r is not one of %s"
                                     % (sensor.get("ch"), a, ", ".join(_AXES)))
        return _AXES[a]
    return _unit(tuple(float(v) for v in a))


class Geometry:
    def __init__(self, board, world=None):
        self.board = board
        self.world = _worlds.get(world or board.get("world") or _worlds.default_name(board))
        self.card_top = float(board["sensor_plane_to_card_top_mm"])
        card = board.get("card") or {}
        self.card_w = float(card.get("w", 62.0))
        self.card_h = float(card.get("h", 88.0))
        self.card_t = float(card.get("thickness_mm", 1.2))
        self.mat_top = self.card_top - self.card_t
        plate = dict(board.get("plate") or {})
        plate.setdefault("attenuation", 1.0)
        plate.setdefault("spread_mm", 0.0)
        plate.setdefault("capture", 0.0)
        self.plate = plate
        self.plate_z = self.card_top - float(plate.get("depth_mm", 0.6))
        pw = float(plate.get("w", self.card_w - 6.0))
        ph = float(plate.get("h", self.card_h - 6.0))
        self.zones = board["zones"]
        self.rects = []
        self.centres = []
        for z in self.zones:
            cx = z["x"] + z["w"] / 2.0
            cy = z["y"] + z["h"] / 2.0
            self.centres.append((cx, cy))
            self.rects.append((cx - pw / 2.0, cy - ph / 2.0, cx + pw / 2.0, cy + ph / 2.0))
        outline = board.get("outline") or {}
        xs = [z["x"] + z["w"] for z in self.zones]
        ys = [z["y"] + z["h"] for z in self.zones]
        self.mat_w = float(outline.get("w", max(xs) + min(z["x"] for z in self.zones)))
        self.mat_h = float(outline.get("h", max(ys) + min(z["y"] for z in self.zones)))

    def zone_at(self, x, y):
        for z in self.zones:
            if z["x"] <= x <= z["x"] + z["w"] and z["y"] <= y <= z["y"] + z["h"]:
                return z["id"]
        return None

    def on_mat(self, x, y):
        return 0.0 <= x <= self.mat_w and 0.0 <= y <= self.mat_h

    def plate_under(self, x, y, cards):
        """(zone, rect) of a placed card whose plate lies under (x, y), else None."""
        for zi in cards:
            r = self.rects[zi]
            if r[0] <= x <= r[2] and r[1] <= y <= r[3]:
                return r
        return None

    def card_under(self, x, y, cards):
        for zi in cards:
            cx, cy = self.centres[zi]
            if abs(x - cx) <= self.card_w / 2.0 and abs(y - cy) <= self.card_h / 2.0:
                return True
        return False


# ----------------------------------------------------------------- phases

class Static:
    """The magnet stays put (standing, or a closed ball at rest)."""
    static = True

    def __init__(self, t0, t1, pose):
        self.t0 = t0
        self.t1 = t1
        self.p = pose

    def pose(self, t):
        return self.p


class Tween:
    """Straight move between two poses with an easing exponent."""
    static = False

    def __init__(self, t0, t1, a, b, ease=1.0):
        self.t0 = t0
        self.t1 = t1
        self.a = a
        self.b = b
        self.ease = ease

    def pose(self, t):
        u = (t - self.t0) / float(self.t1 - self.t0) if self.t1 > self.t0 else 1.0
        u = min(1.0, max(0.0, u)) ** self.ease
        a = self.a
        b = self.b
        x = a[0] + (b[0] - a[0]) * u
        y = a[1] + (b[1] - a[1]) * u
        z = a[2] + (b[2] - a[2]) * u
        d = _unit((a[3] + (b[3] - a[3]) * u, a[4] + (b[4] - a[4]) * u, a[5] + (b[5] - a[5]) * u))
        return (x, y, z, d[0], d[1], d[2])


class Roll:
    """A closed ball rolling along a straight line, decelerating from v0 to v1
    (mm/ms), its magnet turning with it (rolling without slipping) plus a
    spin about the vertical; the magnet's moment points along -pol * d where d
    is the magnet's offset direction from the ball centre."""
    static = False

    def __init__(self, t0, p0, p1, v0, v1, d0, pol, geo, cards_at, lift=None, spin=0.0):
        self.geo = geo
        self.cards_at = cards_at
        self.p0 = p0
        dx = p1[0] - p0[0]
        dy = p1[1] - p0[1]
        self.L = math.sqrt(dx * dx + dy * dy) or 1e-6
        self.dir = (dx / self.L, dy / self.L)
        self.axis = (-self.dir[1], self.dir[0], 0.0)
        self.v0 = v0
        self.v1 = v1
        self.T = 2.0 * self.L / (v0 + v1)
        self.t0 = t0
        self.t1 = t0 + self.T
        self.d0 = d0
        self.pol = pol
        self.lift = lift  # (z_start, z_end) extra height of the ball centre (bounces)
        self.spin = spin  # rad/ms about z

    def s_at(self, t):
        tau = min(max(t - self.t0, 0.0), self.T)
        return self.v0 * tau + (self.v1 - self.v0) * tau * tau / (2.0 * self.T)

    def xy(self, t):
        s = self.s_at(t)
        return (self.p0[0] + self.dir[0] * s, self.p0[1] + self.dir[1] * s)

    def d_at(self, t):
        s = self.s_at(t)
        d = _rot(self.d0, self.axis, s / _bak.BALL_RADIUS)
        if self.spin:
            d = _rot(d, (0.0, 0.0, 1.0), self.spin * (t - self.t0))
        return d

    def pose(self, t):
        x, y = self.xy(t)
        top = self.geo.card_top if self.geo.card_under(x, y, self.cards_at(t)) else self.geo.mat_top
        zc = top + _bak.BALL_RADIUS
        if self.lift:
            u = min(max((t - self.t0) / self.T, 0.0), 1.0)
            zc += self.lift[0] + (self.lift[1] - self.lift[0]) * u
        d = self.d_at(t)
        r = _bak.MAGNET_RADIUS
        p = self.pol
        return (x + r * d[0], y + r * d[1], zc + r * d[2], -p * d[0], -p * d[1], -p * d[2])


class Obj:
    def __init__(self, bid, props):
        self.bid = bid
        self.props = props
        self.phases = []
        self.zone = None  # standing zone, while building
        self.stand = None  # the Static standing phase

    @property
    def t0(self):
        return self.phases[0].t0

    @property
    def t1(self):
        return self.phases[-1].t1

    def phase_at(self, t):
        for ph in self.phases:
            if ph.t0 <= t < ph.t1:
                return ph
        return None


# ------------------------------------------------------------ sensor model

class SensorModel:
    """Per-channel zero offset and gain spread, slow drift (a common part like
    a supply or reference change, plus an independent random walk per
    channel), noise from a seeded Gaussian table with rare spikes, clipping."""

    def __init__(self, board, rng, settings):
        s = board["sensor"]
        self.n = len(board["sensors"])
        self.maxc = int(s["max_counts"])
        self.cpm = float(s["counts_per_mT"])
        sigma = float(settings.get("noise", s["noise_counts_rms"]))
        chans = settings.get("channels")
        self.rate = None   # counts per ms of each channel's own steady drift (the family's), or None
        if chans is not None:
            # every channel's gain, offset and drift rate given (host_tools/sim/family.py draws them)
            if len(chans) != self.n:
                raise _worlds.WorldError("the sensor settings give %d channels; board %r has %d"
                                         % (len(chans), board["name"], self.n))
            self.gain = [self.cpm * float(c["gain"]) for c in chans]
            self.offset = [float(s["zero_counts"]) + float(c["offset_mT"]) * self.cpm for c in chans]
            self.rate = [float(c["drift_mT_per_min"]) * self.cpm / 60000.0 for c in chans]
        else:
            self.gain = [self.cpm * (1.0 + rng.gauss(0.0, settings.get("gain_spread", 0.04))) for _ in range(self.n)]
            self.offset = [float(s["zero_counts"]) + rng.gauss(0.0, settings.get("offset_spread", 20.0))
                           for _ in range(self.n)]
        drift = settings.get("drift", 1.0)
        self.common_amp = drift * rng.uniform(6.0, 20.0)
        self.common_period = rng.uniform(300.0, 1200.0) * 1000.0
        self.common_phase = rng.uniform(0.0, 2.0 * math.pi)
        self.walk_sigma = drift * 4.0  # stationary rms of each channel's own drift
        self.walk_tau = 300000.0  # ms
        self.walk = [rng.gauss(0.0, self.walk_sigma) for _ in range(self.n)]
        self.rng = rng
        size = 1 << 16
        spikes = settings.get("spikes", 1e-4)
        # The noise table is the costly part of a run; a few variants per
        # (sigma, spikes, n) are kept (which one is picked by the seeded rng),
        # each frame then reads it at a random offset.
        key = (sigma, spikes, self.n, rng.randrange(_NOISE_VARIANTS))
        table = _NOISE_CACHE.get(key)
        if table is None:
            trng = random.Random("noise:%r" % (key,))
            table = [int(round(trng.gauss(0.0, sigma))) for _ in range(size + self.n)]
            if spikes > 0:
                for _ in range(int(len(table) * spikes)):
                    i = trng.randrange(len(table))
                    table[i] = int(trng.choice((-1, 1)) * trng.uniform(6.0, 15.0) * max(sigma, 1.0))
            _NOISE_CACHE[key] = table
        self.table = table
        self.size = size

    def base(self, t):
        c = self.common_amp * math.sin(2.0 * math.pi * t / self.common_period + self.common_phase)
        if self.rate is not None:
            return [int(round(o + c + w + r * t)) for o, w, r in zip(self.offset, self.walk, self.rate)]
        return [int(round(o + c + w)) for o, w in zip(self.offset, self.walk)]

    def step_drift(self, dt_ms):
        a = math.exp(-dt_ms / self.walk_tau)
        k = self.walk_sigma * math.sqrt(1.0 - a * a)
        g = self.rng.gauss
        self.walk = [w * a + k * g(0.0, 1.0) for w in self.walk]


# ------------------------------------------------------------------ result

class SimResult:
    def __init__(self, board, frames, controls, truth, props, clipped=None):
        self.board = board
        self.frames = frames
        self.controls = controls
        self.truth = truth
        self.bakugan = props  # id -> the magnet properties used
        # channel -> [[t_first, t_last] ms] of the runs of frames where a
        # magnet drove it to 0 or max_counts
        self.clipped = clipped or {}

    def raw_lines(self, header):
        """Raw log v1 lines (strings without newline): header, then frames and
        control events merged by time (a control event goes before the frames
        of the same millisecond)."""
        from host_tools.logs import rawlog
        return list(rawlog.lines(rawlog.make_header(self.board, header), self.frames, self.controls))


# -------------------------------------------------------------------- run

class _Builder:
    def __init__(self, board, sc, rng, header, world=None):
        self.board = board
        self.geo = Geometry(board, world)
        self.sc = sc
        self.rng = rng
        self.objs = []
        self.standing = {}  # bid -> Obj
        self.truth = []
        self.controls = []
        self.faults = []
        self.card_changes = []  # (t, zone, on)
        self.cards_now = set()
        self.props = {}
        self.owner = {}
        if header:
            for i, p in enumerate(header.get("players", [])):
                for b in p.get("bakugan", []):
                    self.owner[b["id"]] = i
        self.nz = len(board["zones"])
        self.lessons = {}  # zone -> Bakugan registered there, until it settles

    def bprops(self, bid):
        if bid not in self.props:
            self.props[bid] = _bak.props(bid, self.sc.bakugan)
            alike = getattr(self.geo.world, "alike", None)
            if alike:
                self.props[bid].update(alike)   # the `alike` world: one magnet for all
        return self.props[bid]

    def check_zone(self, z, line):
        if not 0 <= z < self.nz:
            raise ScenarioError(line, "board %r has zones 0..%d, not %d" % (self.board["name"], self.nz - 1, z))

    # cards over time, for rolling balls (static poses use the set at build time)
    def cards_at(self, t):
        s = set()
        for (tc, z, on) in self.card_changes:
            if tc > t:
                break
            if on:
                s.add(z)
            else:
                s.discard(z)
        return s

    def card(self, t, z, on):
        self.card_changes.append((t, z, on))
        if on:
            self.cards_now.add(z)
        else:
            self.cards_now.discard(z)

    def landing_point(self, z, pos, line):
        cx, cy = self.geo.centres[z]
        if pos is None:
            hw = self.geo.card_w / 2.0 - 9.0
            hh = self.geo.card_h / 2.0 - 9.0
            pos = (self.rng.uniform(-hw, hw), self.rng.uniform(-hh, hh))
        zr = self.geo.zones[z]
        x = cx + pos[0]
        y = cy + pos[1]
        if not (zr["x"] <= x <= zr["x"] + zr["w"] and zr["y"] <= y <= zr["y"] + zr["h"]):
            raise ScenarioError(line, "position (%g, %g) mm lies outside zone %d" % (pos[0], pos[1], z))
        return x, y

    def stand_pose(self, bid, x, y, tilt):
        p = self.bprops(bid)
        h = p["height"]
        if "height" not in (self.sc.bakugan or {}).get(bid, {}):
            h = _worlds.scale_height(self.geo.world, h, *_bak.HEIGHT_RANGE)
        if tilt is None:
            tilt = max(0.0, min(35.0, p["tilt"] + self.rng.gauss(0.0, 4.0)))
        d = _tilted(p["polarity"], tilt, self.rng.uniform(0.0, 2.0 * math.pi))
        return (x, y, self.geo.card_top + h, d[0], d[1], d[2])

    def transit_truth(self, bid, ph, t0, t1, last_zone=None, off_end=False):
        """roll truth: each zone the ball enters, sampled every 5 ms."""
        zone = last_zone
        t = t0
        xy = None
        while t < t1:
            pose = ph.pose(t)
            z = self.geo.zone_at(pose[0], pose[1]) if self.geo.on_mat(pose[0], pose[1]) else None
            if z is not None and z != zone:
                tr = {"t": int(t), "ev": "roll", "zone": z, "bakugan": bid, "x": round(pose[0], 1),
                      "y": round(pose[1], 1)}
                if z in self.cards_at(t):
                    tr["card"] = True   # the zone it enters has a card lying there
                self.truth.append(tr)
            zone = z
            xy = pose
            t += 5
        if off_end and xy is not None:
            self.truth.append({"t": int(t1), "ev": "roll", "zone": None, "bakugan": bid,
                               "x": round(xy[0], 1), "y": round(xy[1], 1)})
        return zone

    def cards_crossed(self, ph, target):
        """Zones other than `target` whose card the rolling ball of phase ph
        passed over (sampled every 5 ms)."""
        out = set()
        t = ph.t0
        hw = self.geo.card_w / 2.0
        hh = self.geo.card_h / 2.0
        while t < ph.t1:
            x, y = ph.xy(t)
            for zi in self.cards_at(t):
                cx, cy = self.geo.centres[zi]
                if zi != target and abs(x - cx) <= hw and abs(y - cy) <= hh:
                    out.add(zi)
            t += 5
        return sorted(out)

    def new_obj(self, bid):
        o = Obj(bid, self.bprops(bid))
        self.objs.append(o)
        return o

    def entry_point(self, bid, x, y, side):
        if side is None:
            side = self.owner.get(bid)
        if side is None:
            side = self.rng.randrange(2)
        edge_y = -25.0 if side == 0 else self.geo.mat_h + 25.0
        ex = min(max(x + self.rng.uniform(-90.0, 90.0), -10.0), self.geo.mat_w + 10.0)
        return (ex, edge_y)

    def ball_dir_ending_down(self, p0, p1, pol):
        """The initial offset direction so the magnet faces down on arrival
        (that is why the ball opens), with a little random lean."""
        dx = p1[0] - p0[0]
        dy = p1[1] - p0[1]
        L = math.sqrt(dx * dx + dy * dy) or 1e-6
        axis = (-dy / L, dx / L, 0.0)
        end = _unit((self.rng.gauss(0.0, 0.15), self.rng.gauss(0.0, 0.15), -1.0))
        return _rot(end, axis, -L / _bak.BALL_RADIUS)

    # -------------------------------------------------------------- actions
    def do(self, a):
        k = a["kind"]
        t = a["t"]
        line = a["line"]
        if k == "idle":
            return
        if k == "control":
            ev = dict(a["ev"])
            if "zone" in ev and type(ev["zone"]) is int and ev["ev"] in ("gate", "register"):
                self.check_zone(ev["zone"], line)
            out = {"t": t}
            out.update(ev)
            self.controls.append(out)
            if ev["ev"] == "register":
                self.lessons[ev.get("zone")] = ev.get("bakugan")
            if a.get("card"):
                self.card(t, ev["zone"], True)
            return
        if k == "card":
            self.check_zone(a["zone"], line)
            self.card(t, a["zone"], a["on"])
            return
        if k == "fault":
            if not 0 <= a["ch"] < len(self.board["sensors"]):
                raise ScenarioError(line, "board %r has channels 0..%d, not %d"
                                    % (self.board["name"], len(self.board["sensors"]) - 1, a["ch"]))
            self.faults.append((t, a["ch"], a["mode"], a["value"]))
            return
        if k == "remove":
            if a["bakugan"] is not None:
                o = self.standing.get(a["bakugan"])
                if o is None:
                    raise ScenarioError(line, "remove: %s is not standing on the mat at %.3fs"
                                        % (a["bakugan"], t / 1000.0))
                victims = [o]
            else:
                self.check_zone(a["zone"], line)
                victims = [o for o in self.standing.values() if o.zone == a["zone"]]
                if not victims:
                    raise ScenarioError(line, "remove: nothing stands on zone %d at %.3fs" % (a["zone"], t / 1000.0))
                victims.sort(key=lambda o: o.bid)
            for i, o in enumerate(victims):
                self.lift(o, t + 150 * i)
            return
        bid = a["bakugan"]
        if bid in self.standing:
            raise ScenarioError(line, "%s already stands on zone %d; remove it first" % (bid, self.standing[bid].zone))
        if k in ("throw", "place"):
            z = a["zone"]
            self.check_zone(z, line)
            if z not in self.cards_now:
                raise ScenarioError(line, "%s: no gate card lies on zone %d (a Bakugan opens only on a card; "
                                          "add `gate ...` or `card on zone %d` first)" % (k, z, z))
            x, y = self.landing_point(z, a["pos"], line)
            stand = self.stand_pose(bid, x, y, a.get("tilt"))
            others = sorted(s.bid for s in self.standing.values() if s.zone == z)
            crossed = ()
            o = self.new_obj(bid)
            p = o.props
            if k == "throw":
                p0 = self.entry_point(bid, x, y, a.get("side"))
                t_arrive = t - OPEN_MS
                v1 = 0.12
                v0 = (a.get("speed") or self.rng.uniform(0.6, 1.2))
                dx = x - p0[0]
                dy = y - p0[1]
                L = math.sqrt(dx * dx + dy * dy)
                T = 2.0 * L / (v0 + v1)
                d0 = self.ball_dir_ending_down(p0, (x, y), p["polarity"])
                roll = Roll(t_arrive - T, p0, (x, y), v0, v1, d0, p["polarity"], self.geo, self.cards_at)
                o.phases.append(roll)
                self.transit_truth(bid, roll, roll.t0, roll.t1)
                crossed = self.cards_crossed(roll, z)
                start = roll.pose(roll.t1 - 1e-6)
                o.phases.append(Tween(t_arrive, t, start, stand, ease=0.7))
            else:
                above = (stand[0] + self.rng.uniform(-15, 15), stand[1] - 20.0, stand[2] + 70.0,
                         stand[3], stand[4] + 0.3, stand[5])
                o.phases.append(Tween(t - LIFT_MS, t, above, stand, ease=0.5))
            st = Static(t, 1e12, stand)
            o.phases.append(st)
            o.stand = st
            o.zone = z
            self.standing[bid] = o
            tr = {"t": t, "ev": "open", "zone": z, "bakugan": bid, "x": round(x, 1), "y": round(y, 1)}
            # the magnet as it stands: its moment (after the world's magnet scale) and height above the card
            tr["m"] = round(p["moment"] * self.geo.world.moment_scale, 5)
            tr["h"] = round(stand[2] - self.geo.card_top, 2)
            if crossed:
                tr["crossed"] = crossed   # a throw that rolled over these zones' cards first
            if others:
                tr["on"] = others         # Bakugan already standing on the zone (a battle's second)
            if self.lessons.get(z) == bid:
                tr["lesson"] = True  # the registration placement: the pipeline learns, the referee never sees it
                del self.lessons[z]
            self.truth.append(tr)
            return
        if k == "roll":
            for z in a["zones"]:
                self.check_zone(z, line)
            self.roll(bid, a, t)
            return
        if k == "bounce":
            z = a["zone"]
            self.check_zone(z, line)
            self.bounce(bid, z, a, t, line)
            return
        raise ScenarioError(line, "cannot simulate %r" % k)

    def lift(self, o, t):
        st = o.stand
        st.t1 = t
        p = st.p
        up = _unit((p[3] + self.rng.uniform(-0.6, 0.6), p[4] + self.rng.uniform(-0.6, 0.6), p[5]))
        top = (p[0] + self.rng.uniform(-25, 25), p[1] + self.rng.uniform(-25, 25), p[2] + AIR_MM, up[0], up[1], up[2])
        o.phases.append(Tween(t, t + LIFT_MS, p, top, ease=2.0))
        # carried away, not dropped: a Bakugan that vanished at AIR_MM would
        # take tens of counts off its neighbours' sensors in one frame
        away = (top[0], top[1], top[2] + REACH_MM + 10.0, top[3], top[4], top[5])
        o.phases.append(Tween(t + LIFT_MS, t + LIFT_MS + CARRY_MS, top, away, ease=1.0))
        self.truth.append({"t": t, "ev": "leave", "zone": o.zone, "bakugan": o.bid,
                           "x": round(p[0], 1), "y": round(p[1], 1)})
        del self.standing[o.bid]
        o.zone = None

    def roll(self, bid, a, t):
        geo = self.geo
        rng = self.rng
        pts = []
        for z in a["zones"]:
            cx, cy = geo.centres[z]
            pts.append((cx + rng.uniform(-12, 12), cy + rng.uniform(-18, 18)))
        # enter from the mat edge nearest the first point, along the path's direction
        if len(pts) > 1:
            dx = pts[1][0] - pts[0][0]
            dy = pts[1][1] - pts[0][1]
        else:
            dx = rng.uniform(-0.5, 0.5)
            dy = 1.0 if pts[0][1] < geo.mat_h / 2 else -1.0
        n = math.sqrt(dx * dx + dy * dy) or 1.0
        dx /= n
        dy /= n
        start = (pts[0][0] - dx * 140.0, pts[0][1] - dy * 140.0)
        path = [start] + pts
        if a["off"]:
            lx, ly = pts[-1]
            if len(pts) > 1:
                ex = pts[-1][0] - pts[-2][0]
                ey = pts[-1][1] - pts[-2][1]
                en = math.sqrt(ex * ex + ey * ey) or 1.0
                ex /= en
                ey /= en
            else:
                ex, ey = dx, dy
            path.append((lx + ex * 400.0, ly + ey * 400.0))
        o = self.new_obj(bid)
        p = o.props
        v = a.get("speed") or rng.uniform(0.4, 1.0)
        d = _rand_unit(rng)
        tt = float(t)
        spin = rng.uniform(-0.01, 0.01)
        zone = None
        segs = list(zip(path[:-1], path[1:]))
        for i, (p0, p1) in enumerate(segs):
            last = i == len(segs) - 1
            v1 = v * 0.85 if not (last and not a["off"]) else 0.02
            r = Roll(tt, p0, p1, v, v1, d, p["polarity"], geo, self.cards_at, spin=spin)
            o.phases.append(r)
            zone = self.transit_truth(bid, r, r.t0, r.t1, last_zone=zone, off_end=last and a["off"])
            d = r.d_at(r.t1)
            tt = r.t1
            v = v1
        if not a["off"]:
            # rests closed where it stopped; its magnet is not facing down (else it would have opened)
            if d[2] < -0.5:
                d = _unit((d[0], d[1], -d[2]))
            last = o.phases[-1]
            x, y = last.xy(last.t1)
            top = geo.card_top if geo.card_under(x, y, self.cards_now) else geo.mat_top
            r_m = _bak.MAGNET_RADIUS
            pol = p["polarity"]
            pose = (x + r_m * d[0], y + r_m * d[1], top + _bak.BALL_RADIUS + r_m * d[2], -pol * d[0], -pol * d[1], -pol * d[2])
            st = Static(tt, 1e12, pose)
            o.phases.append(st)
            o.stand = st
            o.zone = geo.zone_at(x, y)
            self.standing[bid] = o

    def bounce(self, bid, z, a, t, line):
        geo = self.geo
        rng = self.rng
        x, y = self.landing_point(z, a.get("pos"), line)
        o = self.new_obj(bid)
        p = o.props
        ang = rng.uniform(0, 2 * math.pi)
        ux, uy = math.cos(ang), math.sin(ang)
        d = _rand_unit(rng)
        spin = rng.uniform(0.02, 0.06) * rng.choice((-1, 1))
        # falls in, touches for 40..100 ms while rolling a little, then flies off
        t_in = t - 60
        a_in = Roll(t_in, (x - ux * 25.0, y - uy * 25.0), (x, y), 0.45, 0.4, d, p["polarity"], geo, self.cards_at,
                    lift=(40.0, 0.0), spin=spin)
        o.phases.append(a_in)
        d = a_in.d_at(a_in.t1)
        touch = rng.uniform(40.0, 100.0)
        dist = 0.4 * touch
        b = Roll(a_in.t1, (x, y), (x + ux * dist, y + uy * dist), 0.4, 0.4, d, p["polarity"], geo, self.cards_at,
                 spin=spin)
        o.phases.append(b)
        d = b.d_at(b.t1)
        out = Roll(b.t1, (x + ux * dist, y + uy * dist), (x + ux * (dist + 60.0), y + uy * (dist + 60.0)),
                   0.6, 0.6, d, p["polarity"], geo, self.cards_at, lift=(0.0, REACH_MM + 20.0), spin=spin)
        o.phases.append(out)
        self.truth.append({"t": int(t), "ev": "roll", "zone": z, "bakugan": bid, "x": round(x, 1), "y": round(y, 1),
                           "card": True})
        self.truth.append({"t": int(out.t1), "ev": "roll", "zone": None, "bakugan": bid,
                           "x": round(x, 1), "y": round(y, 1)})


def run(board, sc, seed=0, header=None, world=None):
    """Simulate scenario `sc` on `board` (a dict from boards.load or a name) in
    `world` (a name from host_tools/sim/worlds.py; default: the board's
    "world" key, else $BAKUMAT_WORLD, else the mat's nominal world, else
    worlds.DEFAULT)."""
    if isinstance(board, str):
        board = _boards.load(board)
    rng = random.Random("sim:%s" % (seed,))
    if header is None:
        header = getattr(sc, "header", None)
    b, end = _build(board, sc, rng, header, world)
    frames = _render(board, b, rng, sc.settings, end)
    return SimResult(board, frames, b.controls, b.truth, b.props, b.clipped)


def run_stable(board, sc, seed=0, header=None, world=None, until=0):
    """Like run(), but a longer scenario gives the very same frames for the
    times already played, so a live view can render a game as it grows and
    play only the new frames: the sensor model and the noise draw from their
    own seeded generator, not the one the scenario's actions draw from (run()
    shares one, so each re-render would shift every channel's offset and the
    pipeline would see landings everywhere). `until`: render at least up to
    this time (ms), for players who waited past their last action."""
    if isinstance(board, str):
        board = _boards.load(board)
    if header is None:
        header = getattr(sc, "header", None)
    # the generators' names are the demo's, which used this first: a seed
    # gives the same demo as before
    b, end = _build(board, sc, random.Random("demo-build:%s" % (seed,)), header, world)
    frames = _render(board, b, random.Random("demo-render:%s" % (seed,)), sc.settings, max(end, until))
    return SimResult(board, frames, b.controls, b.truth, b.props, b.clipped)


def _build(board, sc, rng, header, world):
    """The scenario's objects, cards, controls and truth, and the time (ms)
    to render up to: its end, or the last motion, plus the `tail` setting."""
    b = _Builder(board, sc, rng, header, world)
    for a in sc.sorted_actions():
        b.do(a)
    tail = int(sc.settings.get("tail", 1.0) * 1000)
    end = max(sc.end_ms, max([a["t"] for a in sc.actions] or [0])) + tail
    for o in b.objs:
        if o.phases and o.t1 < 1e11:
            end = max(end, int(o.t1) + tail)
    b.truth.sort(key=lambda e: e["t"])
    b.controls.sort(key=lambda e: e["t"])
    return b, end


def _render(board, b, rng, settings, end_ms):
    geo = b.geo
    model = SensorModel(board, rng, settings)
    n = model.n
    sens = board["sensors"]
    sx = [float(s["x"]) for s in sens]
    sy = [float(s["y"]) for s in sens]
    gain = model.gain
    maxc = model.maxc
    rate = float(board["rate_hz"])
    nframes = int(end_ms * rate / 1000.0) + 1
    objs = sorted(b.objs, key=lambda o: o.t0)
    card_changes = b.card_changes
    faults = sorted(b.faults)
    plate = geo.plate
    reach2 = REACH_MM * REACH_MM
    table = model.table
    size = model.size
    randrange = rng.randrange
    frames = []
    cache = {}
    cards = set()
    ci = 0
    card_ver = 0
    active = []
    oi = 0
    fault_now = {}
    fi = 0
    base = model.base(0.0)
    step_ms = DRIFT_STEP_FRAMES * 1000.0 / rate
    static_key = None
    static_acc = {}
    static_pairs = []
    clipped = []   # (t, channel) of every clipped reading

    world = geo.world
    if world.computed:
        import numpy as np
        axes = np.array([channel_axis(s) for s in sens])
        gains = np.array(gain)
        sxa = np.array(sx)
        sya = np.array(sy)
    elif any(channel_axis(s) != (0.0, 0.0, 1.0) for s in sens):
        raise _worlds.WorldError("the %r world models Bz only; board %r has channels along other axes "
                                 "(pick a computed world: `bakumat hw worlds`)" % (world.name, board["name"]))

    def contribution(pose, cardset, m):
        x, y, z, ux, uy, uz = pose
        if z - geo.mat_top > REACH_MM:
            return ()
        rect = geo.plate_under(x, y, cardset)
        if world.computed:
            near = (sxa - x) ** 2 + (sya - y) ** 2 <= reach2
            idx = np.nonzero(near)[0]
            if not len(idx):
                return ()
            centre = None if rect is None else ((rect[0] + rect[2]) / 2.0, (rect[1] + rect[3]) / 2.0)
            bv = world.field(m, pose, sxa[idx], sya[idx], 0.0, rect is not None, centre, geo.card_top)
            vals = (bv * axes[idx]).sum(-1) * gains[idx]
            return list(zip(idx.tolist(), vals.tolist()))
        out = []
        for i in range(n):
            ddx = sx[i] - x
            ddy = sy[i] - y
            if ddx * ddx + ddy * ddy > reach2:
                continue
            if rect is not None:
                bz = F.plate_bz(m, ux, uy, uz, x, y, z, sx[i], sy[i], plate, rect, geo.plate_z)
            else:
                bz = F.dipole_bz(m, ux, uy, uz, x, y, z, sx[i], sy[i])
            out.append((i, bz * gain[i]))
        return out

    for fno in range(nframes):
        t = int(round(fno * 1000.0 / rate))
        if fno and fno % DRIFT_STEP_FRAMES == 0:
            model.step_drift(step_ms)
            base = model.base(t)
        while ci < len(card_changes) and card_changes[ci][0] <= t:
            _, z, on = card_changes[ci]
            if on:
                cards.add(z)
            else:
                cards.discard(z)
            card_ver += 1
            ci += 1
        while oi < len(objs) and objs[oi].t0 <= t:
            active.append(objs[oi])
            oi += 1
        while fi < len(faults) and faults[fi][0] <= t:
            _, ch, mode, val = faults[fi]
            fault_now[ch] = 0 if mode == "dead" else val
            fi += 1
        o0 = randrange(size)
        counts = list(map(add, base, table[o0:o0 + n]))
        if active:
            keep = []
            statics = []
            dyn = None
            for o in active:
                if o.t1 <= t:
                    continue
                keep.append(o)
                ph = o.phase_at(t)
                if ph is None:
                    continue
                if ph.static:
                    statics.append((ph, o.props["moment"]))
                else:
                    if dyn is None:
                        dyn = []
                    dyn.append((ph.pose(t), o.props["moment"]))
            active = keep
            key = (tuple([id(ph) for ph, _ in statics]), card_ver)
            if key != static_key:
                static_key = key
                acc = {}
                for ph, m in statics:
                    ck = (id(ph), card_ver)
                    c = cache.get(ck)
                    if c is None:
                        c = contribution(ph.p, cards, m)
                        cache[ck] = c
                    for i, v in c:
                        acc[i] = acc.get(i, 0.0) + v
                static_acc = acc
                static_pairs = [(i, int(math.floor(v + 0.5))) for i, v in sorted(acc.items())]
                static_pairs = [(i, v) for i, v in static_pairs if v]
            if dyn is None:
                pairs = static_pairs
            else:
                acc = dict(static_acc)
                for pose, m in dyn:
                    for i, v in contribution(pose, cards, m):
                        acc[i] = acc.get(i, 0.0) + v
                pairs = [(i, int(math.floor(v + 0.5))) for i, v in acc.items()]
            for i, v in pairs:
                c = counts[i] + v
                if c > maxc:
                    counts[i] = maxc
                    clipped.append((t, i))
                elif c < 0:
                    counts[i] = 0
                    clipped.append((t, i))
                else:
                    counts[i] = c
        if fault_now:
            for ch, v in fault_now.items():
                counts[ch] = v
        frames.append((t, counts))
    b.clipped = _runs(clipped, 2500.0 / rate)
    return frames


def _runs(clipped, gap_ms):
    """{channel: [[t_first, t_last]]} of (t, channel) readings, a run
    broken by a gap longer than gap_ms."""
    out = {}
    for t, i in clipped:
        r = out.setdefault(i, [])
        if r and t - r[-1][1] <= gap_ms:
            r[-1][1] = t
        else:
            r.append([t, t])
    return out


def idle_frames(board, seconds, seed=0, settings=None):
    """Frames of an empty mat (noise, drift, spikes) for `seconds`, as a
    generator: cheap enough for hours of idle time."""
    if isinstance(board, str):
        board = _boards.load(board)
    rng = random.Random("idle:%s" % (seed,))
    model = SensorModel(board, rng, settings or {})
    n = model.n
    rate = float(board["rate_hz"])
    table = model.table
    size = model.size
    randrange = rng.randrange
    base = model.base(0.0)
    step_ms = DRIFT_STEP_FRAMES * 1000.0 / rate
    nframes = int(seconds * rate)
    for fno in range(nframes):
        t = int(round(fno * 1000.0 / rate))
        if fno and fno % DRIFT_STEP_FRAMES == 0:
            model.step_drift(step_ms)
            base = model.base(t)
        o0 = randrange(size)
        yield t, list(map(add, base, table[o0:o0 + n]))
