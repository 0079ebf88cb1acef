"""The physical situation of each landing and each false landing of a
simulated game, from the simulator's truth (CPython only; issue #33, point 4).

The sensing bench counts its errors by situation, so that the next change
aims at a class rather than a seed. A landing (a true opening) is in:
- `over card`: a throw that rolled over another zone's card before it opened
  (truth "crossed");
- `second`: a Bakugan opening where another already stands (a battle's
  second Bakugan; truth "on");
- `lift`: a Bakugan lifted off the mat (truth "leave") from LIFT_BEFORE_MS
  before the opening to LIFT_AFTER_MS after it, within REACH_MM of the zone;
- `lesson off-centre`: a registration lesson put down outside the
  +-lesson_spot box the register command asks for (host_tools/sim/game.py);
- `taught off-centre`: a game landing of a Bakugan whose lesson was so;
- `clipped`: a channel of the zone driven to 0 or max_counts by a magnet
  from EARLY_MS before the opening to LATE_MS after it (SimResult.clipped);
- `plate far`: the game's plate far from the world its calibration picked
  (family.plate_far: straight-under shares more than FAR_SHARE apart; only
  in the family of worlds);
- `moment below range`, `moment above range`, `height off-range`: the
  Bakugan's magnet moment below or above, or its standing height outside,
  the range the mat file declares ("magnet":
  moment_Am2, above_card_mm), which the detector's model assumes (truth
  "m", "h" of the opening);
- `none`: none of these.
A false landing (a sensed land matching no opening) is put in the same
classes by what happened near it: a ball rolling onto a card on its zone
(`over card`, a throw's own arrival apart), two Bakugan standing on its zone
(`second`), a lift near it, an off-centre lesson standing on its zone, a
clipped channel of its zone, the game's plate. A landing may be in several
classes: the rows overlap.
"""
import math

from host_tools.sim import game as _game

NAMES = ("over card", "second", "lift", "lesson off-centre", "taught off-centre", "clipped", "plate far",
         "moment below range", "moment above range", "height off-range", "none")
LIFT_BEFORE_MS = 1500
LIFT_AFTER_MS = 500
REACH_MM = 100.0
EARLY_MS = 500
LATE_MS = 1000
FALSE_BEFORE_MS = 1500   # a false landing is put down to what happened this long before it
FALSE_AFTER_MS = 500


def _centres(board):
    return {z["id"]: (z["x"] + z["w"] / 2.0, z["y"] + z["h"] / 2.0) for z in board["zones"]}


def _zone_channels(board):
    out = {}
    for s in board["sensors"]:
        out.setdefault(s["zone"], []).append(s["ch"])
    return out


def _clipped_near(clipped, chans, t0, t1):
    for ch in chans:
        for a, b in clipped.get(ch, ()):
            if a <= t1 and b >= t0:
                return True
    return False


def _off_centre(o, centres, spot):
    cx, cy = centres[o["zone"]]
    return max(abs(o["x"] - cx), abs(o["y"] - cy)) > spot + 0.05


def _lift_near(leaves, centres, zone, t0, t1):
    cx, cy = centres[zone]
    return any(t0 <= e["t"] <= t1 and math.hypot(e["x"] - cx, e["y"] - cy) <= REACH_MM for e in leaves)


class Situations:
    """The situations of one game's truth: of(open) for a landing,
    of_false(land) for a false landing; each a set of NAMES."""

    def __init__(self, board, res, far=False, lesson_spot=None):
        self.centres = _centres(board)
        self.chans = _zone_channels(board)
        self.clipped = getattr(res, "clipped", None) or {}
        self.far = far
        mag = board.get("magnet") or {}
        self.moments = tuple(mag.get("moment_Am2") or (0.0, 1e9))
        self.heights = tuple(mag.get("above_card_mm") or (0.0, 1e9))
        spot = _game.DEFAULTS["lesson_spot"] if lesson_spot is None else lesson_spot
        truth = res.truth
        self.leaves = [e for e in truth if e["ev"] == "leave"]
        self.opens = [e for e in truth if e["ev"] == "open"]
        self.rolls = [e for e in truth if e["ev"] == "roll" and e.get("card") and e["zone"] is not None]
        self.off_lesson = {}   # Bakugan -> its off-centre lesson's open
        for o in self.opens:
            if o.get("lesson") and _off_centre(o, self.centres, spot):
                self.off_lesson.setdefault(o["bakugan"], o)
        # who stands where, over time: [(t_open, t_leave, zone, bakugan, open)]
        self.stays = []
        for o in self.opens:
            end = min([e["t"] for e in self.leaves if e["bakugan"] == o["bakugan"] and e["t"] >= o["t"]] or [1e18])
            self.stays.append((o["t"], end, o["zone"], o["bakugan"], o))

    def of(self, o):
        s = set()
        t = o["t"]
        z = o["zone"]
        if o.get("crossed"):
            s.add("over card")
        if o.get("on"):
            s.add("second")
        if _lift_near(self.leaves, self.centres, z, t - LIFT_BEFORE_MS, t + LIFT_AFTER_MS):
            s.add("lift")
        if o.get("lesson"):
            if self.off_lesson.get(o["bakugan"]) is o:
                s.add("lesson off-centre")
        elif o["bakugan"] in self.off_lesson:
            s.add("taught off-centre")
        if _clipped_near(self.clipped, self.chans.get(z, ()), t - EARLY_MS, t + LATE_MS):
            s.add("clipped")
        if self.far:
            s.add("plate far")
        s |= self.magnet(o)
        return s or {"none"}

    def magnet(self, o):
        """The magnet classes of open o (its truth "m" and "h")."""
        s = set()
        if "m" in o and o["m"] < self.moments[0]:
            s.add("moment below range")
        if "m" in o and o["m"] > self.moments[1]:
            s.add("moment above range")
        if "h" in o and not self.heights[0] <= o["h"] <= self.heights[1]:
            s.add("height off-range")
        return s

    def of_false(self, land):
        s = set()
        t = land["t"]
        z = land["zone"]
        t0, t1 = t - FALSE_BEFORE_MS, t + FALSE_AFTER_MS
        for r in self.rolls:
            if r["zone"] == z and t0 <= r["t"] <= t1 and not any(
                    o["bakugan"] == r["bakugan"] and o["zone"] == z and 0 <= o["t"] - r["t"] <= 2000 for o in self.opens):
                s.add("over card")
                break
        here = [st for st in self.stays if st[2] == z and st[0] <= t <= st[1]]
        if len(here) >= 2:
            s.add("second")
        if _lift_near(self.leaves, self.centres, z, t0, t1):
            s.add("lift")
        if any(st[4].get("lesson") and self.off_lesson.get(st[3]) is st[4] for st in here):
            s.add("lesson off-centre")
        if any(not st[4].get("lesson") and st[3] in self.off_lesson for st in here):
            s.add("taught off-centre")
        if _clipped_near(self.clipped, self.chans.get(z, ()), t0, t1):
            s.add("clipped")
        if self.far:
            s.add("plate far")
        for st in here:
            s |= self.magnet(st[4])
        return s or {"none"}


def tally(board, res, scored, far=False):
    """{situation: {"n", "missed", "named", "wrong", "false"}} of one game:
    scored is bench_sensing.score()'s result on res. n: landings in the
    situation; missed: of those, found by no land; named, wrong: game
    landings (no lesson) found, and those whose final name is wrong; false:
    false landings put down to it."""
    sit = Situations(board, res, far)
    out = {k: {"n": 0, "missed": 0, "named": 0, "wrong": 0, "false": 0} for k in NAMES + ("all",)}
    missed = set(id(o) for o in scored["missed"])
    found = {id(o): l for o, l in scored["matched"]}
    for o in sit.opens:
        for k in sit.of(o) | {"all"}:
            row = out[k]
            row["n"] += 1
            if id(o) in missed:
                row["missed"] += 1
            elif id(o) in found and not o.get("lesson") and not found[id(o)].get("learned"):
                row["named"] += 1
                if found[id(o)]["bakugan"] != o["bakugan"]:
                    row["wrong"] += 1
    for land in scored["false"]:
        for k in sit.of_false(land) | {"all"}:
            out[k]["false"] += 1
    return out


def merge(a, b):
    """The sum of two tallies (a may be empty)."""
    out = {k: dict(v) for k, v in a.items()}
    for k, v in b.items():
        row = out.setdefault(k, {c: 0 for c in v})
        for c, n in v.items():
            row[c] = row.get(c, 0) + n
    return out
