"""The family of physical worlds the simulator can run in (CPython only).

A world fixes what is not known yet about the real mat: the gate card's steel
plate (relative permeability mu_r and thickness t, or no plate), the
Bakugan's magnet material (NdFeB, or ferrite at 0.32 of its strength) and the
range of magnet heights. `capture` is the old assumed plate model
(hardware/sensing-physics.md, "the capture world"), kept for comparison and as
the default of the simulator for a mat that names no nominal world (the
Hall mat `reference`); a mat that does (`"nominal_world"` in its file, as
amr2's "mu300-t0.2") is simulated in it unless told otherwise.

Computed worlds use the exact field of an infinite slab below a dipole: each
spatial mode k of the field is passed by
    T(k) = 4 mu e^(-kt) / ((mu+1)^2 - (mu-1)^2 e^(-2kt)),
which expands into a series of images, T(k) e^(-kg) =
    c * sum_n r^(2n) e^(-k (g + t + 2 n t)),  c = 4 mu / (mu+1)^2, r = (mu-1)/(mu+1):
below the slab the field is c * sum_n r^(2n) times the free field of the
magnet raised by 2 n t. The sums depend only on the lateral distance rho and
the height h of the magnet above the sensor, so a world's kernel is four
tables S(rho, h) (cached on disk, seconds to build), any magnet orientation
and every field component follow from them. `host_tools/sim/mom.py` checks
this against a method-of-moments solve of the finite plate with
magpylib-material-response (hardware/sensing-physics.md shows the check).

Units: mm, A m^2, mT; z up from the sensor plane.
"""
import hashlib
import math
import os

from host_tools.errors import UserError

K_MT = 1.0e5  # mu0/(4 pi) with r in mm and B in mT
PLATE_UNDERSIDE_BELOW_CARD_TOP_MM = 1.2  # the plate lies on the card's underside
FERRITE_SHARE = 0.32  # a ferrite magnet of the same size: J 0.38 T against 1.2 T
NOMINAL = "mu300-t0.2"
DEFAULT = "capture"  # only for a mat naming no nominal world: the retired Hall mat (every offered mat names one)
# Worlds no product path offers (hardware/retired.md): `offered` refuses them.
RETIRED = {
    "capture": "its plate model was proved wrong: the computed plate lets out about 20 times less flux "
               "(hardware/sensing-physics.md), and only the retired Hall mat ran in it",
}
KERNEL_VERSION = 1
ALIKE_MAGNET = {"moment": 0.025, "polarity": 1, "height": 3.2}   # the `alike` world's one magnet


def _plate(mu, t):
    return {"mu_r": float(mu), "t_mm": float(t)}


def _registry():
    w = {"capture": {"model": "capture", "magnet": "ndfeb", "heights": (2.5, 4.0),
                     "about": "the old assumed plate: half the captured flux leaves as a sheet (plate.capture)"},
         "none": {"model": "slab", "plate": None, "magnet": "ndfeb", "heights": (2.5, 5.0),
                  "about": "no steel in the card: the bare dipole"}}
    for mu, t in ((100, 0.1), (100, 0.2), (100, 0.3), (300, 0.2), (1000, 0.1), (1000, 0.2), (1000, 0.3),
                  (5000, 0.2)):
        name = "mu%d-t%g" % (mu, t)
        w[name] = {"model": "slab", "plate": _plate(mu, t), "magnet": "ndfeb", "heights": (2.5, 5.0),
                   "about": "steel plate mu_r %d, %g mm (mu_r t = %g mm)" % (mu, t, mu * t)}
    for base in ("none", "mu100-t0.2", "mu1000-t0.2"):
        d = dict(w[base])
        d["magnet"] = "ferrite"
        d["about"] = d["about"] + ", ferrite magnet"
        w["ferrite-" + base] = d
    # every Bakugan with the same magnet (moment, polarity, height): the mat
    # can tell them apart only by the game (who may throw which), so it must
    # ask (issue #16: questions per game there, and sure-and-wrong must hold)
    d = dict(w[NOMINAL])
    d["alike"] = dict(ALIKE_MAGNET)
    d["about"] = d["about"] + ", every Bakugan the same magnet"
    w["alike"] = d
    return w


WORLDS = _registry()


def names():
    return list(WORLDS)


def nominal(board):
    """The world the mat file declares nominal ("nominal_world"), or None."""
    name = board.get("nominal_world") if isinstance(board, dict) else None
    return name if name in WORLDS else None


def default_name(board=None):
    """The world the simulator runs when neither the caller nor the board
    names one: $BAKUMAT_WORLD (`bakumat bench ... --world`), else the
    board's nominal world, else DEFAULT."""
    return os.environ.get("BAKUMAT_WORLD") or nominal(board) or DEFAULT


def measured(calib):
    """The world `bakumat diag plate` found nearest to the real cards, as
    kept in a board's calibration (calib.json: {"plate": {"world": ...}}),
    or None when the calibration has no (known) measured world."""
    plate = calib.get("plate") if isinstance(calib, dict) else None
    name = plate.get("world") if isinstance(plate, dict) else None
    return name if name in WORLDS else None


def choose(explicit=None, board=None, calib=None):
    """(world name, why): the one named on the command line, else the
    board's "world", else $BAKUMAT_WORLD, else the one the calibration's
    `diag plate` measured, else the mat's nominal world, else DEFAULT."""
    if explicit:
        get(explicit)
        return explicit, "named"
    if board and board.get("world"):
        return board["world"], "the board's"
    if os.environ.get("BAKUMAT_WORLD"):
        return os.environ["BAKUMAT_WORLD"], "$BAKUMAT_WORLD"
    m = measured(calib)
    if m:
        return m, "measured by diag plate (the board's calibration)"
    n = nominal(board)
    if n:
        return n, "the mat's nominal world"
    return DEFAULT, "the default"


class WorldError(UserError):
    """An unknown world, or a board the world cannot simulate."""


def get(name):
    """The World called `name`; WorldError naming the known ones otherwise."""
    if isinstance(name, World):
        return name
    if name not in WORLDS:
        raise WorldError("unknown world %r (known: %s)" % (name, ", ".join(WORLDS)))
    return World(name, WORLDS[name])


def offered(name):
    """The world `name` for a command the user gave it to (as get); a
    retired one raises WorldError saying why."""
    if name in RETIRED:
        raise WorldError("world %r is retired: %s (hardware/retired.md); use the mat's nominal world %s"
                         % (name, RETIRED[name], NOMINAL))
    return get(name)


def with_world(board, name):
    """A copy of board dict `board` that simulates in world `name`
    (WorldError for an unknown one); None leaves the board as it is."""
    if name is None:
        return board
    get(name)
    b = dict(board)
    b["world"] = name
    return b


class World:
    def __init__(self, name, spec):
        self.name = name
        self.spec = spec
        self.model = spec["model"]
        self.plate = spec.get("plate")
        self.magnet = spec["magnet"]
        self.moment_scale = FERRITE_SHARE if self.magnet == "ferrite" else 1.0
        self.heights = tuple(spec["heights"])
        self.alike = spec.get("alike")   # the one magnet every Bakugan has, or None
        # the finite plate's term times this (a family world's drawn edge leak); None: as computed
        self.edge_scale = spec.get("edge_scale")
        self.about = spec["about"]
        self._kernel = None
        self._plate_terms = {}

    @property
    def computed(self):
        return self.model == "slab"

    def mu_t(self):
        return 0.0 if not self.plate else self.plate["mu_r"] * self.plate["t_mm"]

    def kernel(self):
        if self._kernel is None:
            self._kernel = SlabKernel.load_or_build(self.plate)
        return self._kernel

    def plate_term(self, card_top=2.7):
        """The finite plate's term (host_tools/sim/plate.py) for sensors
        card_top mm below the card top; None without a plate."""
        if self.plate is None:
            return None
        key = round(float(card_top), 3)
        if key not in self._plate_terms:
            from host_tools.sim import plate
            self._plate_terms[key] = plate.PlateTerm(self.plate, key)
        return self._plate_terms[key]

    def field(self, m, pose, sx, sy, sz=0.0, over_plate=True, plate_centre=None, card_top=2.7):
        """B (mT) as an (n, 3) numpy array at the sensors (sx, sy, sz) of a
        dipole of moment m (A m^2, before the world's magnet scale) at pose
        (x, y, z, ux, uy, uz). over_plate: the magnet stands over a card's
        plate (else the free field). plate_centre (x, y): that plate's
        centre, which adds the finite plate's term (its edges) to the
        infinite slab's field for the sensors under it (card_top: the
        sensor plane's depth below the card top); None: the slab alone."""
        import numpy as np
        m = m * self.moment_scale
        sx = np.asarray(sx, dtype=float)
        sy = np.asarray(sy, dtype=float)
        x, y, z, ux, uy, uz = pose
        dx = sx - x
        dy = sy - y
        h = z - sz
        if over_plate and self.plate is not None:
            sa, sb, sc, sd = self.kernel().sums(np.hypot(dx, dy), np.broadcast_to(h, dx.shape))
        else:
            sa, sb, sc, sd = free_sums(np.hypot(dx, dy), np.broadcast_to(h, dx.shape))
        mr = ux * dx + uy * dy
        bx = 3.0 * dx * (mr * sb + uz * sc) - ux * sa
        by = 3.0 * dy * (mr * sb + uz * sc) - uy * sa
        bz = 3.0 * (mr * sc + uz * sd) - uz * sa
        b = K_MT * m * np.stack([bx, by, bz], axis=-1)
        if over_plate and self.plate is not None and plate_centre is not None and not sz:
            term = self.plate_term(card_top).field(m, pose, sx, sy, plate_centre)
            b = b + (term if self.edge_scale is None else self.edge_scale * term)
        return b


def free_sums(rho, h):
    """The four sums for no plate: one term, the dipole itself.
    With r = (rho, -h): Sa = 1/r^3, Sb = 1/r^5, Sc = -h/r^5, Sd = h^2/r^5."""
    import numpy as np
    r2 = np.maximum(rho * rho + h * h, 1e-6)
    r5 = r2 * r2 * np.sqrt(r2)
    return 1.0 / (r2 * np.sqrt(r2)), 1.0 / r5, -h / r5, h * h / r5


def image_weights(mu, t, tol=1e-7, nmax=6000):
    """(c r^(2n), 2 n t) for the image series of an infinite slab, cut where a
    term falls below tol of the first or at nmax terms."""
    import numpy as np
    c = 4.0 * mu / (mu + 1.0) ** 2
    r2 = ((mu - 1.0) / (mu + 1.0)) ** 2
    if r2 <= 0.0:
        n = 1  # mu 1: the free field alone
    else:
        n = min(nmax, int(math.log(tol) / math.log(r2)) + 1)
    k = np.arange(max(n, 1))
    return c * r2 ** k, 2.0 * k * t


def slab_sums(rho, h, mu, t):
    """The four sums over the images, exact for an infinite slab (rho, h
    arrays of one shape, h the magnet's height above the sensor)."""
    import numpy as np
    w, dz = image_weights(mu, t)
    rho = np.asarray(rho, dtype=float)[..., None]
    hn = np.asarray(h, dtype=float)[..., None] + dz
    r2 = rho * rho + hn * hn
    r3 = r2 * np.sqrt(r2)
    r5 = r3 * r2
    sa = (w / r3).sum(-1)
    sb = (w / r5).sum(-1)
    sc = (-w * hn / r5).sum(-1)
    sd = (w * hn * hn / r5).sum(-1)
    return sa, sb, sc, sd


# Kernel grid: rho = 2 sinh(u), h geometric; the sums are single-signed, so
# their logarithms are interpolated (bilinear), accurate to well under 1 %.
_RHO_MAX = 160.0
_H_MIN = 1.0
_H_MAX = 200.0
_NU = 160
_NH = 120


def cache_dir():
    d = os.environ.get("BAKUMAT_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "bakumat")
    return os.path.join(d, "kernels")


class SlabKernel:
    def __init__(self, plate, tables):
        import numpy as np
        self.plate = plate
        self.u = np.linspace(0.0, math.asinh(_RHO_MAX / 2.0), _NU)
        self.lh = np.linspace(math.log(_H_MIN), math.log(_H_MAX), _NH)
        self.logs = [np.log(np.abs(tb)) for tb in tables]  # Sc < 0, the others > 0
        self.signs = (1.0, 1.0, -1.0, 1.0)

    @staticmethod
    def key(plate):
        s = "slab v%d mu %.6g t %.6g grid %d %d %g %g %g" % (KERNEL_VERSION, plate["mu_r"], plate["t_mm"], _NU, _NH,
                                                           _RHO_MAX, _H_MIN, _H_MAX)
        return hashlib.sha1(s.encode()).hexdigest()[:16]

    @classmethod
    def build_tables(cls, plate):
        import numpy as np
        u = np.linspace(0.0, math.asinh(_RHO_MAX / 2.0), _NU)
        rho = 2.0 * np.sinh(u)
        h = np.exp(np.linspace(math.log(_H_MIN), math.log(_H_MAX), _NH))
        R, H = np.meshgrid(rho, h, indexing="ij")
        out = [np.empty_like(R) for _ in range(4)]
        for i in range(_NU):  # row by row: the image axis stays small in memory
            for k, v in enumerate(slab_sums(R[i], H[i], plate["mu_r"], plate["t_mm"])):
                out[k][i] = v
        return out

    @classmethod
    def load_or_build(cls, plate, cache=True):
        import numpy as np
        if not cache:
            return cls(plate, cls.build_tables(plate))
        from host_tools import cachefiles

        def load(path):
            with np.load(path) as z:
                return [z["sa"], z["sb"], z["sc"], z["sd"]]

        def save(tmp, tables):
            np.savez_compressed(tmp, sa=tables[0], sb=tables[1], sc=tables[2], sd=tables[3])

        path = os.path.join(cache_dir(), "slab-%s.npz" % cls.key(plate))
        return cls(plate, cachefiles.load_or_build(path, load, lambda: cls.build_tables(plate), save, ".npz"))

    def sums(self, rho, h):
        """The four sums at (rho, h) by bilinear interpolation of their logs;
        outside the grid the free dipole's (far above, the slab passes low k)."""
        import numpy as np
        rho = np.asarray(rho, dtype=float)
        h = np.asarray(h, dtype=float)
        u = np.arcsinh(rho / 2.0)
        lh = np.log(np.maximum(h, 1e-6))
        fu = (u - self.u[0]) / (self.u[1] - self.u[0])
        fh = (lh - self.lh[0]) / (self.lh[1] - self.lh[0])
        inside = (fu <= _NU - 1) & (fh >= 0) & (fh <= _NH - 1)
        fu = np.clip(fu, 0, _NU - 1.000001)
        fh = np.clip(fh, 0, _NH - 1.000001)
        i = fu.astype(int)
        j = fh.astype(int)
        a = fu - i
        b = fh - j
        out = []
        free = None if inside.all() else free_sums(rho, h)
        for k, L in enumerate(self.logs):
            v = ((1 - a) * (1 - b) * L[i, j] + a * (1 - b) * L[i + 1, j] + (1 - a) * b * L[i, j + 1]
                 + a * b * L[i + 1, j + 1])
            v = self.signs[k] * np.exp(v)
            if free is not None:
                v = np.where(inside, v, free[k])
            out.append(v)
        return out


def plate_z(card_top):
    """Height of the plate's underside above the sensor plane."""
    return card_top - PLATE_UNDERSIDE_BELOW_CARD_TOP_MM


def scale_height(world, h, lo=2.5, hi=4.0):
    """Map a Bakugan's magnet height drawn from the simulator's default range
    (lo..hi) onto the world's range."""
    wl, wh = world.heights
    if (wl, wh) == (lo, hi):
        return h
    return wl + (h - lo) * (wh - wl) / (hi - lo)
