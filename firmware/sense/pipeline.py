"""The per-frame sensing pipeline: ADC frames in, sensed events out.

    p = Pipeline(board_def, sink, context=None)
    p.register("drago", 4)     # the next Bakugan settling on zone 4 is drago
    p.feed(frame, t_ms)        # every frame, channel order, t in ms (monotonic)

sink receives plain dicts:
    {"ev": "land",  "t": ms, "zone": z, "bakugan": id}   (+ "learned": True
                                                           when it answered a register)
    {"ev": "ident", "t": ms, "zone": z, "bakugan": id}   (the last land was another one)
    {"ev": "unland", "t": ms, "zone": z, "bakugan": id}  (the last land is taken back)
    {"ev": "unsure", "t": ms, "zone": z, "bakugan": id, "alt": id}
    {"ev": "leave", "t": ms, "zone": z, "bakugan": id}
    {"ev": "fault", "t": ms, "ch": c, "kind": "dead" | "stuck" | "saturated"}
t is the time of the frame at which the pipeline decided; bakugan is None
when nothing registered fits.

context: optional callable returning the ids that may land now (the
referee's `g.expects()[1]`), or None for "anything registered and not on the
mat". It is called only while a landing is being decided.

How it works (docs/sensing-pipeline.md has the reasoning and the figures):

- Baseline per channel: an exponential average (fixed point) that follows
  slow drift, updated only while the channel's zone is empty and quiet, so a
  Bakugan standing still for minutes is never absorbed. When a zone is
  found empty again after a leave, its baselines are re-zeroed on the mean
  of the frames that showed it.
- Per zone, against its current steady state (0 when empty): E = the sum of
  |change| above a per-channel dead band, C = |sum of changes| (a gate
  card spreads a Bakugan's field over all the zone's sensors, so C sees weak
  magnets well). E or C over its threshold opens a window; the window
  restarts whenever a frame departs from the window's mean by more than the
  noise allows (sum of |departures|, |sum of departures|); a window that
  holds still for the dwell time is a new steady state. A ball rolling
  across never holds still, so it never counts.
- A new steady state is explained (sense.decide; not per frame): all
  left (the field is back to the baseline), one occupant left (the change
  is minus its contribution), the last arrival still settling (more of the
  same field within settle_ms), or a new Bakugan: a field with the shape a
  Bakugan on the card gives, identified by its signature among the
  candidates. While two candidates remain plausible the decision waits for
  more frames (up to max_wait_ms), which averages the noise down. Anything
  else is absorbed silently.
- Signatures: learnt at the landing that answers `register`, refined on
  the frames that follow while it stands still.
- Channel health: a channel pinned at a rail with nothing to explain it, or
  returning exactly the same count for seconds despite sensor noise, is
  reported once as a fault and left out; its zone keeps working on the
  others (thresholds scale with the number of healthy channels).

Per frame: integer arithmetic on preallocated arrays; nothing is allocated
unless a zone is deciding something.

The stages, one module each (docs/sensing-pipeline.md names them; this
class wires them and is all a caller sees):
    sense.health     channel health: rail / stuck counters, faults
    sense.frames     baselines, deviations, zone windows, dwell (the per-frame loop)
    sense.decide     the decision steps of a zone that settled
    sense.battles    a second Bakugan on a zone: arrivals, leave holds, pairs
    sense.identify   signatures, identification, early land, refinement
    sense.occupants  what stands where; early landings not yet decided
    sense.fit        the kernel fit: a change's moment, place and height
    sense.signature  the naming maths: a level's posterior over the signatures
Views, replays and tests read the pipeline through the probes below
(`trigger`, `thresholds`, `stir`, `deviation`, `standing`, ...), never
through the stages' arrays.
"""
from array import array

from sense.battles import Battles
from sense.decide import Decide
from sense.frames import Frames
from sense.health import FAULT_KINDS, Health   # (FAULT_KINDS: fault code -> its name in `fault`)
from sense.identify import Identifier
from sense.occupants import Occupants


DEFAULTS: dict = {  # mixed int and float values: a plain dict to mypy
    # `roll {t, zone}` when an empty zone was stirred for at most this long
    # and went quiet again without anything settling (a ball rolling across,
    # a bounce): the table's miss inference. 0 = not reported.
    "roll_max_ms": 0,
    "dwell_ms": 40,          # a new state must hold still this long
    "dead_sigma": 2,         # per-channel dead band of E, noise rms
    "on_sigma": 4,           # E threshold (sum above the dead bands), noise rms
    "coh_on_sigma": 5,       # C threshold, noise rms * sqrt(channels)
    "tol_quarters": 7,       # stability: sum |departure| per channel, noise rms / 4
    "coh_quarters": 12,      # stability: |sum of departures|, noise rms * sqrt(2 k) / 4
    "min_counts": 1,         # floor of the noise unit
    "baseline_tau_ms": 5000, # baseline time constant
    "settled_tau_ms": 5000,  # drift tracking of an occupied zone's state
    "rail_ms": 2000,         # pinned at a rail this long -> dead / saturated
    "stuck_ms": 3000,        # exactly constant this long -> stuck
    "rail_margin": 8,        # counts from 0 / max_counts that count as rail
    "leave_match": 0.35,     # a leave removes an occupant's own field, to this share
    "settle_ms": 600,        # after a landing, more of the same field is still it
    "lift_ms": 120,          # a partial drop holding this long is not a lift
    "leave_hold_ms": 200,    # a leave must hold this long: a ball rolling to a stop on an
                             # occupied zone may cancel the occupant's field for a moment
    "leave_quiet_ms": 160,   # ... then the window starts again: still frames for this long
    "tail_share": 0.3,       # what a lift leaves for a moment, of the field...
    "tail_ms": 300,          # ... and for how long at most
    "residue_ms": 400,       # what is left of a lift the referee expects, of another shape
    "quiet_sigma": 4.0,      # a zone is empty when its mean is this close to the baseline
    "refine_ms": 1500,       # after a landing, frames averaged into its signature
    "min_level_sigma": 4.0,  # a landing's level must be this many standard errors
    "fit_decide_p": 0.99,    # identification: posterior needed to decide at once and not ask
                             # (the reliability table, docs/sensing-pipeline.md)
    "certain_p": 0.9999,     # ... to refine the signature from this landing
    "match_z": 3.5,          # ... and the field must match the candidate this well
    "force_z": 6.0,          # a decision forced by max_wait_ms: no candidate this close, no landing
    # the kernel fit's moment from landing to landing (identify.spread):
    # a core Gaussian and a tail of landings read far off. Measured over
    # the family of worlds (plates, heights, tilts, gains drawn per game;
    # bakumat bench sensing --worlds family): a landing's fitted moment
    # against its Bakugan's signature, log ratio sd 0.12, 1.48 MAD 0.11
    # (0.06 in the nominal world alone); at 0.035 / 0.15 the mat was sure
    # and wrong for 12 % of the landings of amr2's family, at these 3.6 %.
    "fit_rel_spread": 0.075,
    "fit_tail": 0.05,
    "fit_tail_rel": 0.3,
    "doubt_max": 0.15,       # a Bakugan named, asked about and not answered: its prior later, at most (identify)
    "learn_max": 8,          # a confirmed landing refines its signature by 1/(landings + 1), at least 1/(this + 1)
    "learn_rel": 0.25,       # ... when its level is this close to the signature
    "other_prior": 0.002,    # prior of a Bakugan the referee does not expect
    "max_wait_ms": 160,      # decide anyway after the level has held still this long
    "trend_max_ms": 300,     # a level still moving after this long is taken as it is
    "ramp_ms": 100,          # see _identify
    "trend_sigma": 2.5,      # a landing's level must not be still moving
    "ramp_share": 0.8,
    "slope_sigma": 2.5,      # a landing's level must not still be climbing (window slope)
    "absorb_ms": 1000,       # an unexplained steady field becomes the new state
    "fit_moment_slack": 1.5,   # a landing's moment within the plausible range, this factor wider
    "lesson_moment_slack": 3.0,  # ... a lesson's (identify.bounds)
    # a faulty channel in the zone (dead, stuck): the
    # moment is fitted upright, which reads a Bakugan's lean as 10-20 % of
    # its moment (docs/sensing-pipeline.md, "The kernel fit"), against the
    # signatures learnt with every channel: its error is at least this share
    # of it, so the landing is still decided (measured without it: a zone
    # with a dead channel never decided a landing, tests/host/
    # test_sensing_sim.py; a clipped channel is left as it was: widening it
    # there too cost mu100-t0.2's identity, 0.94 -> 0.87 after the questions)
    "fit_upright_rel": 0.15,
    # `land` at the first still frames of a Bakugan-shaped field, with the
    # best guess of who it is; `ident` later when the averaged level names
    # another one (0: land only once identified, as before).
    "early": 1,
    "early_ms": 40,          # ... once the window has held still this long
    "early_z": 3.5,          # ... and the level is this close to the guess's
    "lesson_ms": 300,        # a register's landing: its level held still this long
    "pair_ms": 1500,         # after one of a battle's pair went, the other's going is a leave
}




class Pipeline:
    """feed(frame, t) every frame; register / rename from the game; the
    public attributes: params, sink, context, stays (given by Match: stays(zone
    id, bakugan) -> True while the referee has that Bakugan standing there
    with nothing that takes it off; None: every lift is plausible),
    zone_ids, n (channels), waits (reason -> count), on_wait and on_named
    (hooks, below), last_decision ((zone, level, std error, frames) of the
    last landing)."""

    def __init__(self, board, sink, context=None, params=None, stays=None):
        p = dict(DEFAULTS)
        if params:
            p.update(params)
        self.params = p
        self.sink = sink
        self.context = context
        self.stays = stays
        sensors = board["sensors"]
        zones = board["zones"]
        n = len(sensors)
        self.n = n
        nz = len(zones)
        self.zone_ids = [z["id"] for z in zones]
        zidx = {}
        for i in range(nz):
            zidx[zones[i]["id"]] = i
        self._zidx = zidx
        # geometry in double arrays, not lists of floats: a float in a list
        # is a heap object of its own (16 B on an ESP32, 32 B on x86-64)
        rects = [array("d", (float(z["x"]), float(z["y"]), float(z["w"]), float(z["h"]))) for z in zones]
        self.rects = rects   # (the decisions read a zone's neighbours from them)
        chz = array("h", [0] * n)
        lists = [[] for _ in range(nz)]
        for s in sensors:
            c = s["ch"]
            if not 0 <= c < n:
                raise ValueError("sensor channel %r out of range 0..%d" % (c, n - 1))
            zi = zidx[s["zone"]]
            chz[c] = zi
            lists[zi].append(c)
        self.chz = chz                                   # channel -> zone index
        self.zch = [array("h", sorted(l)) for l in lists]  # zone index -> its channels
        sen = board["sensor"]
        noise = float(sen["noise_counts_rms"])
        # A sensor whose counts are much finer than its noise (a 20-bit
        # magnetometer: 320 counts rms) is read in units of counts >> ish,
        # about 8 units of noise: the per-frame fixed-point sums (baselines
        # << 12, window sums of frame index x deviation) then stay small
        # ints on a 32-bit chip (and a full-scale count << 12 stays under
        # 2^29).
        ish = 0
        while noise / (1 << (ish + 1)) >= 8.0:
            ish += 1
        while (int(sen["max_counts"]) >> ish) >= 1 << 17:   # (<< 12: under 2^29)
            ish += 1
        self.ish = ish
        raw_noise = noise
        noise = noise / (1 << ish)
        unit = int(noise + 0.999)
        if unit < p["min_counts"]:
            unit = p["min_counts"]
        rate = float(board["rate_hz"])
        self.waits = {}          # why decisions waited: reason -> count (diagnostics)
        self.on_wait = None      # ... and each wait, to a replay that explains them (bakumat replay --why)
        # on_named(zone id, bakugan, posterior): each time the mat names a
        # landing (its decision, or named again from the refined level):
        # how sure it was (the benchmark's reliability table)
        self.on_named = None
        self.early = bool(p["early"])
        self.last_decision = None
        # the stages (each owns its state; they reach one another through self)
        self.hl = Health(self, n, int(sen["max_counts"]), raw_noise, rate, ish)
        self.fr = Frames(self, n, nz, unit, noise if noise > 0.3 else 0.3, rate, ish)
        self.oc = Occupants(self, nz)
        self.idf = Identifier(self, board)
        self.bt = Battles(self, nz)
        self.dc = Decide(self, nz)
        for zi in range(nz):
            self.fr.thresholds(zi)
        # feed(frame, t): one ADC frame (channel order), t in ms (monotonic).
        # The frames stage's own loop, bound here: no call in between, and
        # one function less in the heap.
        self.feed = self.fr.feed

    # -- the game's side -------------------------------------------------

    def register(self, bakugan, zone):
        """The next Bakugan that settles on `zone` is `bakugan`: learn its signature."""
        zi = self._zidx.get(zone)
        if zi is None:
            raise ValueError("no zone %r" % (zone,))
        self.idf.pending[zi] = bakugan

    def rename(self, zone, old, new):
        """The players say the Bakugan standing on zone as `old` is `new`
        (an answer to `unsure`, or a correction): the mat follows."""
        zi = self._zidx.get(zone)
        if zi is None:
            return False
        return self.oc.rename(zi, old, new)

    def teach(self, sigs):
        """Signatures learnt before (bakugan id -> level, as signatures() gave them)."""
        self.idf.sigs.update(sigs)

    def start(self, frame):
        """Take frame as the empty mat (the baselines), as the first frame does."""
        self.fr.start(frame)

    def resume(self, frames, base):
        """Take up from a recording's baselines() instead of starting afresh
        on its first frame: a replay of a recording that began on a quiet
        mat then decides on the very frames the board did. (Started afresh,
        its warm-up ends some frames apart from the board's and a baseline
        is off by a few tenths of a count: enough to tip a landing that
        reads between two Bakugan by a few hundred ms.)"""
        self.fr.resume(frames, base)

    # -- probes: what views, replays and tests may read ------------------

    def signatures(self):
        """bakugan id -> learnt signed level (a copy)."""
        return dict(self.idf.sigs)

    def kernel_world(self):
        """The world name of the kernel table the fit uses (docs/formats/
        kernel-table-v1.md `world`), or None when the table names none."""
        return self.idf.kern.world

    def knows(self, bakugan):
        """True when the mat has a signature for that Bakugan (taught, or learnt)."""
        return bakugan in self.idf.sigs

    def pending(self, zone):
        """The Bakugan a `register` will teach on zone, or None."""
        return self.idf.pending.get(self._zidx[zone])

    def occupants(self, zone):
        """The ids of the Bakugan standing on zone (None: one nothing named)."""
        return self.oc.bids(self._zidx[zone])

    def standing(self, zone):
        """[(bakugan id, its level as last measured)] on zone."""
        return self.oc.standing(self._zidx[zone])

    def baselines(self):
        """(frames taken, the channels' baselines in the pipeline's own fixed
        point: counts << 12), or None before the first frame. A recording
        starts its raw log with them (raw-log-v1 `baseline`)."""
        fr = self.fr
        return (fr.frames, list(fr.base)) if fr.started else None

    def running(self):
        """True once the first frame (or a start / resume) set the baselines."""
        return self.fr.started

    def channels(self, zi):
        """Zone index zi's channels (ascending)."""
        return list(self.zch[zi])

    def deviation(self, c):
        """Channel c's deviation from its baseline after the last frame (counts)."""
        return self.fr.dev[c]

    def trigger(self, zi):
        """(E, C) of zone index zi after the last frame: what opens a window
        (docs/sensing-pipeline.md, per frame 3)."""
        return self.fr.trigger(zi)

    def thresholds(self, zi):
        """(E threshold, C threshold) of zone index zi (they scale with its
        healthy channels)."""
        return self.fr.on_t[zi], self.fr.con_t[zi]

    def dead_band(self):
        """The per-channel dead band of E, in counts."""
        return self.fr.db

    def stir(self, zi):
        """Zone index zi stirred (its field over the threshold, not held still
        since it was last quiet or settled): the strongest E since then
        (0 or more); -1 when it is not stirred."""
        fr = self.fr
        return fr.bpk[zi] if fr.burst[zi] else -1

    # -- what the stages call ------------------------------------------------

    def _fault(self, c, kind, t):
        """Channel c failed (sense.health): it is left out of its zone."""
        self.hl.bad[c] = kind
        fr = self.fr
        fr.dev[c] = 0
        zi = self.chz[c]
        fr.thresholds(zi)
        fr.wact[zi] = 0
        fr.rfn[zi] = 0
        # The zone's steady state may have been the failing channel itself:
        # forget occupants that are not Bakugan.
        occ = self.oc.occ[zi]
        keep = [o for o in occ if o.landed]
        if len(keep) != len(occ):
            self.oc.set(zi, keep)
            if not keep:
                fr.rezero(zi, None)
        self._emit("fault", t, "ch", c, "kind", FAULT_KINDS[kind])

    def _emit(self, kind, t, a, av, b=None, bv=None):
        ev = {"ev": kind, "t": t, a: av}
        if b is not None:
            ev[b] = bv
        if self.sink is not None:
            self.sink(ev)
        return ev

    def _wait(self, zi, reason, who=None, x=0.0):
        """A decision on zone index zi waits, for `reason` (for ambiguous /
        mismatch: the Bakugan it reads as most like, and its posterior / z)."""
        self.waits[reason] = self.waits.get(reason, 0) + 1
        if self.on_wait is not None:
            self.on_wait(zi, reason, who, x)
