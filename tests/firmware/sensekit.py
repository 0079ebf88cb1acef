"""Hand-made kernel-fit boards and frames for the sensing tests (CPython and
MicroPython).

A board shaped like the reference lis2 mat: zones of 64 x 90 mm, 70 mm
apart, two three-axis magnetometers a zone (22 mm either side of the
zone's centre along y), offset binary counts (zero field at 32768,
16 bits), a few counts of noise, and a kernel table
(docs/formats/kernel-table-v1.md) of the free dipole (no plate). The field
model is written out here, independently of host_tools/boards/kernels.py
(which needs numpy and the worlds): a point dipole of moment m (A m^2)
along a unit axis, its centre h mm above the card top. The same model
gives the table and the Scene's frames, so a fit reads the moment it was
given (within the table's grid and the noise).

Levels (the pipeline's signatures) are fitted moments in mA m^2, signed by
the moment's vertical part.

Where on the card a moment reads well: two three-axis sensors give six
channels for six unknowns (the moment vector, x, y, height), and the far
sensor reads a few counts, so in much of the card a weaker magnet
elsewhere, or leaning, reads nearly alike: noise-free the fit is within a
few per cent almost everywhere, but a few counts of noise move it by 10-30
% on the line through the sensors, midway between them towards the card's
sides, and over a sensor. Within 8 mm of the zone's centre across and 5-15
mm from it along the sensors' line (board x = zone centre +-8, y = centre
+-(5..15)) 3 frames' worth of noise moves it by 5 % at most: tests that
read a Bakugan's moment (identification, learning) put it there. Deterministic pseudo-random noise, and a Scene
that turns magnets into frames.
"""
from binascii import b2a_base64
from math import cos, pi, sin, sqrt
from struct import pack_into

K_MT = 1.0e5           # mu0 / 4 pi, r in mm, B in mT, m in A m^2
ZERO = 32768           # offset binary (the LIS2MDL read as unsigned)
MAXC = 65535
CPM = 2000.0           # counts per mT (+-16 mT before the rails)
NOISE = 4              # counts rms (2 uT)
TOP = 2.7              # sensor plane to card top, mm
HEIGHT = 3.0           # a standing Bakugan's magnet centre above the card top, mm
ZW = 64
ZH = 90
PITCH = 70             # zone to zone along x, as on the lis2 mat
SENSORS = ((0.0, -22.0), (0.0, 22.0))   # from the zone's centre; x, y, z channels each
AXES = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
NAMES = ("x", "y", "z")
UP = (0.0, 0.0, 1.0)
# the table's grid: the card where a magnet's centre can be (9 mm inside
# its edges), cells 3 mm apart, three heights
HEIGHTS = (2.5, 3.75, 5.0)
STEP = 3.0
NX = 15
NY = 24
MOMENTS = (15.0, 40.0)   # mA m^2, the table's moment_range


def dipole(m, u, px, py, pz, sx, sy):
    """B (mT, 3 components) at (sx, sy, 0) of moment m (A m^2) along unit u at (px, py, pz)."""
    rx = sx - px
    ry = sy - py
    rz = -pz
    r2 = rx * rx + ry * ry + rz * rz
    r = sqrt(r2)
    mr = (u[0] * rx + u[1] * ry + u[2] * rz) / r
    k = K_MT * m / (r2 * r)
    return (k * (3.0 * mr * rx / r - u[0]), k * (3.0 * mr * ry / r - u[1]), k * (3.0 * mr * rz / r - u[2]))


def readings(m, u, x, y, h):
    """The six channels' counts (no offset) of a magnet at (x, y) mm from the zone's centre, h above the card."""
    out = []
    for sx, sy in SENSORS:
        b = dipole(m, u, x, y, TOP + h, sx, sy)
        for a in AXES:
            out.append(CPM * (b[0] * a[0] + b[1] * a[1] + b[2] * a[2]))
    return out


def tilted(deg, az, pol=1):
    """The unit axis of a magnet leaning deg degrees towards azimuth az (radians); pol -1: upside down."""
    t = deg * pi / 180.0
    return (pol * sin(t) * cos(az), pol * sin(t) * sin(az), pol * cos(t))


def _table():
    x0 = -(NX - 1) * STEP / 2.0
    y0 = -(NY - 1) * STEP / 2.0
    raw = bytearray(4 * 18 * NX * NY * len(HEIGHTS))
    i = 0
    for h in HEIGHTS:
        for iy in range(NY):
            for ix in range(NX):
                per = [readings(1e-3, a, x0 + ix * STEP, y0 + iy * STEP, h) for a in AXES]
                for j in range(6):
                    for d in range(3):
                        pack_into("<f", raw, i, per[d][j])
                        i += 4
    return {"format": "bakumat-kernels", "version": 1, "board": "test", "world": "none",
            "unit": "counts per mA m^2", "x0": x0, "y0": y0, "step": STEP, "nx": NX, "ny": NY,
            "heights": list(HEIGHTS), "moment_range": list(MOMENTS),
            "channels": [[s[0], s[1], list(a)] for s in SENSORS for a in AXES],
            "k": b2a_base64(raw).decode().strip()}


_TABLE = []


def table():
    """The kernel table (built once per process: pure Python, 3240 cells'
    worth of dipoles; the callers only read it)."""
    if not _TABLE:
        _TABLE.append(_table())
    return _TABLE[0]


def centre(z):
    return z["x"] + z["w"] / 2.0, z["y"] + z["h"] / 2.0


def board(nzones=2, noise=NOISE, rate=50):
    zones = []
    sensors = []
    for zi in range(nzones):
        z = {"id": zi, "x": 10 + PITCH * zi, "y": 10, "w": ZW, "h": ZH}
        zones.append(z)
        cx, cy = centre(z)
        for sx, sy in SENSORS:
            for name in NAMES:
                sensors.append({"ch": len(sensors), "zone": zi, "x": cx + sx, "y": cy + sy, "axis": name})
    b = {
        "version": 2,
        "name": "test",
        "zones": zones,
        "sensors": sensors,
        "sensor": {"zero_counts": ZERO, "counts_per_mT": CPM, "max_counts": MAXC, "noise_counts_rms": noise},
        "sensor_plane_to_card_top_mm": TOP,
        "rate_hz": rate,
        "card": {"w": 62, "h": 88},
        "magnet": {"moment_Am2": [MOMENTS[0] / 1000.0, MOMENTS[1] / 1000.0],
                   "above_card_mm": [HEIGHTS[0], HEIGHTS[-1]]},
        "kernels": table(),
    }
    return b


class Noise:
    """Deterministic approximately normal noise (sum of 4 uniforms)."""

    def __init__(self, seed=1):
        self.s = seed & 0x7FFFFFFF or 1

    def _u(self):
        self.s = (1103515245 * self.s + 12345) & 0x7FFFFFFF
        return self.s / 2147483648.0

    def gauss(self, sigma):
        x = self._u() + self._u() + self._u() + self._u() - 2.0
        return x * sigma * 1.7320508


class Scene:
    """Bakugan on the board -> frames. magnets: name -> (m, x, y) or (m, x,
    y, h) or (m, x, y, h, u): moment m in A m^2 (signed: negative, the
    other pole down), (x, y) mm in board coordinates, h mm above the card
    top (HEIGHT when left out), u the unit axis (upright when left out).
    offset: per channel, counts added (drift); dead: channel -> the count it
    is pinned at."""

    def __init__(self, b, seed=1):
        self.b = b
        self.magnets = {}
        self.noise = Noise(seed)
        self.sigma = b["sensor"]["noise_counts_rms"]
        self.offset = [0.0] * len(b["sensors"])
        self.t = 0
        self.dead = {}
        # per sensor place: (x, y, its channels [(ch, axis index)])
        places = []
        at = {}
        for s in b["sensors"]:
            key = (s["x"], s["y"])
            if key not in at:
                at[key] = len(places)
                places.append((s["x"], s["y"], []))
            places[at[key]][2].append((s["ch"], NAMES.index(s["axis"])))
        self.places = places
        self.v = [0.0] * len(b["sensors"])

    def field(self):
        """The counts (no offset, no noise) of every channel."""
        v = self.v
        for i in range(len(v)):
            v[i] = 0.0
        for name in self.magnets:
            g = self.magnets[name]
            m = g[0]
            h = g[3] if len(g) > 3 else HEIGHT
            u = g[4] if len(g) > 4 else UP
            for sx, sy, chs in self.places:
                bb = dipole(m, u, g[1], g[2], TOP + h, sx, sy)
                for c, a in chs:
                    v[c] += CPM * bb[a]
        return v

    def frame(self):
        v = self.field()
        out = []
        for c in range(len(v)):
            if c in self.dead:
                out.append(self.dead[c])
                continue
            x = ZERO + self.offset[c] + v[c]
            if self.sigma:
                x += self.noise.gauss(self.sigma)
            x = int(x + 0.5) if x >= 0 else 0
            if x > MAXC:
                x = MAXC
            out.append(x)
        return out

    def run(self, pipe, ms, step=None):
        """Feed `ms` milliseconds of frames."""
        step = step or int(1000 / self.b["rate_hz"])
        end = self.t + ms
        while self.t < end:
            pipe.feed(self.frame(), self.t)
            self.t += step


class Collect:
    def __init__(self):
        self.events = []

    def __call__(self, ev):
        self.events.append(ev)

    def kinds(self, kind):
        return [e for e in self.events if e["ev"] == kind]
