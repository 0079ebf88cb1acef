"""A game at a simulated table, for the virtual board: the players' moves
(throws, cards, control events) become a scenario script for the magnetic
simulator (host_tools/sim), and what the players do with their hands
because the referee said so (take Bakugan off the mat, put one back on its
card, turn the compass, lift a captured card) follows from a shadow referee
on the host fed with the same moves.

    t = Table(header)                  # lessons (register) first
    t.gate(0, "d1", 5)                 # a card laid on zone 5: `gate` control + the card
    t.throw("drago", 5)                # the Bakugan opens on zone 5 (the sensors must see it)
    t.resolve()                        # any control: t.ctl({"ev": "ability", ...})
    res = t.simulate(board)            # frames and controls (t.text(): the scenario)
    t.expected                         # what the referee must say, from the shadow (JSON dicts)

Nothing of the shadow reaches the board: the board gets the simulated
sensor frames and the control events of the script, nothing else. The
shadow only decides the physical consequences (who lifts what) and gives
the event stream the board's referee must produce when its sensing
identified every landing right.

Magnets. The mat tells Bakugan apart by one signed number (polarity times
strength); the simulator's landings of one magnet spread about +-15 % around
its mean (the spot on the card), so only magnets far apart are told apart
reliably (docs/sensing-pipeline.md, "Lessons": the mat tells the players
which of their Bakugan it cannot tell apart): 3 strengths per polarity, each
1.5-1.67 times the next (0.020, 0.033, 0.050 A*m^2, a 3 x 2 mm to a 6 x 2 mm
disc, 2.6 mm above the card: levels of about 24, 40 and 61 counts, each
landing within about 10 %; the simulator's default range is 0.015-0.040). Identification chooses among the Bakugan the referee expects (the current
player's, plus any it wants put back) but lets an unexpected one win on a
clearly better fit, so two Bakugan with the same magnet are a risk even in
different hands (their learnt levels differ by a few per cent): magnets
are unique in the game when 6 are enough, otherwise unique per player. And a Bakugan landing on a card where a Bakugan of the
OPPOSITE polarity stands was long not sensed reliably (the sensing took the
sum for the occupant leaving; test_opposite_polarity_battle now passes, but
a near-exact cancellation is still the hardest case): the magnets
are therefore assigned after the script is written, the same polarity to
every Bakugan that ever shares a card with another (union-find), strengths
distinct per player and polarity (unique when possible). Every landing of the script is then
checked: no other Bakugan the referee expects at that moment has the same
magnet (TableError otherwise: the script would test luck, not the mat).
A game may set some magnets itself (Table(magnets=...)) where the
assignment's meet a case the mat misreads (said at the game).

Positions: Bakugan open at realistic spots, apart on a shared card and
near its middle: the first on the card's far half, the second on its near
half, a third across the middle (SPOTS).
"""
import json
import random

from host_tools import fwpath, sim

fwpath.ensure()
import referee  # noqa: E402
from referee.events import encode_json  # noqa: E402

MOMENTS = (0.020, 0.033, 0.050)
HEIGHT = 2.6         # mm: the magnet low in the Bakugan (2.5-4.0), so even the weakest reads well above noise
# mm from the card centre: 1st, 2nd, 3rd Bakugan. Near the middle, between
# the card's two sensors (at 0, -22 and 0, +22 on the reference mat), not over
# one: a magnet right over a sensor can take it past its range.
SPOTS = ((0.0, -10.0), (0.0, 10.0), (-14.0, 0.0))

THROW_MS = 2200      # a throw: opens at T, decided 0.05-0.9 s later (the sensing waits out lifts nearby),
                     # and a second landing within settle_ms (0.6 s) of that would merge with it
PLACE_MS = 2200
TEACH_MS = 2500      # a lesson stands longer than the sensing's refine window (1.5 s)
LIFT_MS = 800        # one Bakugan lifted off the mat
CARD_MS = 400
CTL_MS = 600
BY_HAND = False
GATE_MS = 700


def without_amended(evs):
    """The board's events without what a landing the sensing amended made:
    `ident`/`unland` take a first guess back with `undo` (docs/table-play.md),
    so the outputs of that land (same time) and the undo go."""
    out = []
    for e in evs:
        if e.get("ev") == "undo" and e.get("undone") == "land":
            while out and out[-1].get("t") == e.get("at") and out[-1].get("ev") != "undo":
                out.pop()
            continue
        out.append(e)
    return out


def announced(evs):
    """The times the landings were first announced, one per `stand` of the
    game as it stands: a landing the sensing amended (`ident` after the
    first guess) stands at the amend's time, but was announced at its first
    guess's (the undone land's `at`)."""
    out = []
    first = None   # (the undo's time, the undone land's): the amend lands at the undo's time
    for e in evs:
        if e.get("ev") == "undo" and e.get("undone") == "land":
            if first is None or first[0] != e.get("t"):
                first = (e.get("t"), e.get("at"))
        elif e.get("ev") == "stand":
            out.append(first[1] if first is not None and first[0] == e["t"] else e["t"])
            first = None
    return out


def strip_t(events):
    out = []
    for e in events:
        e = dict(e)
        e.pop("t", None)
        out.append(e)
    return out


def compare(got, expected):
    """Match the board's events (t stripped) against the expected ones,
    event for event, with one tolerance: a landing the sensing saw where no
    Bakugan landed (a lift misread) that the referee refused ("reject" of a
    `land`: state unchanged) is set aside. Returns (phantoms, None) or
    (phantoms, (i, j)): where the two first differ."""
    phantoms = []
    i = j = 0
    while i < len(got) or j < len(expected):
        if i < len(got) and j < len(expected) and got[i] == expected[j]:
            i += 1
            j += 1
        elif i < len(got) and got[i]["ev"] == "reject" and got[i].get("input") == "land":
            phantoms.append(got[i])
            i += 1
        else:
            return phantoms, (i, j)
    return phantoms, None


class TableError(Exception):
    """The scripted game is not what the shadow referee accepts, or the mat
    could not tell its Bakugan apart."""


class Table:
    def __init__(self, header, fixed_cards=None, teach_zones=(0, 3), polarity=None, start_ms=3000, seed=0,
                 mixed=False, magnets=None):
        """fixed_cards: True when a card position keeps its (base) card once
        laid (the Chinese variants: the base card lies on top); False when a
        captured gate card leaves the mat (official, big, multi). Default:
        from the mode. polarity: {bakugan: "up"|"down"} to force some;
        mixed: let forced polarities differ on a shared card. magnets:
        {bakugan: (polarity, moment)} a game sets itself, over what the
        assignment gives (check() still refuses twins)."""
        self.header = header
        self.mode = header.get("mode", "official")
        if fixed_cards is None:
            fixed_cards = self.mode not in ("official", "big", "multi")
        self.fixed_cards = fixed_cards
        self.expected = []
        self.g = referee.new_game(header, lambda o: self.expected.append(json.loads(encode_json(o))))
        self.lines = []          # scenario lines after the magnets
        self.T = start_ms
        self.phys = {}           # Bakugan -> zone it physically stands on
        self.spot = {}           # Bakugan -> index into SPOTS while standing
        self.cards = set()       # zones with a card physically on them
        self.owner = {}
        self.twin_of = {}        # evolved Bakugan -> the one it replaces (same magnet)
        ids = []
        for i, p in enumerate(header["players"]):
            for b in p["bakugan"]:
                self.owner[b["id"]] = i
                ids.append(b["id"])
            for ev in p.get("evolutions", ()):
                self.owner[ev["to"]["id"]] = i
                ids.append(ev["to"]["id"])
                self.twin_of[ev["to"]["id"]] = ev["from"]
        self.ids = ids
        self.force = dict(polarity or {})
        self.mixed = mixed
        self.given = dict(magnets or {})
        self.parent = dict((b, b) for b in ids)
        self.landings = []       # (what, bakugan, candidates)
        self.rng = random.Random("table:%s" % seed)
        self.marks = {}
        self.by_hand = BY_HAND   # every landing put down by hand (no roll)
        self.rejected = []       # control events the referee must refuse
        self.teach(ids, teach_zones)
        self._magnets = None

    # ------------------------------------------------------------ magnets
    def _find(self, b):
        while self.parent[b] != b:
            self.parent[b] = self.parent[self.parent[b]]
            b = self.parent[b]
        return b

    def _union(self, a, b):
        ra, rb = self._find(a), self._find(b)
        if ra != rb:
            self.parent[rb] = ra

    def magnets(self):
        """{bakugan: (polarity, moment)}: one polarity per group of
        Bakugan that share cards, strengths distinct in the game when
        possible, else per player and polarity. TableError when a player
        needs more than 3 of one polarity."""
        if self._magnets is not None:
            return self._magnets
        base = [b for b in self.ids if b not in self.twin_of]
        groups = {}
        for b in base:
            groups.setdefault(self._find(b), []).append(b)
        count = {}               # (player, polarity) -> Bakugan so far
        pol = {}
        order = sorted(groups.values(), key=lambda g: (-len(g), self.ids.index(g[0])))
        for g in order:
            forced = set(self.force[b] for b in g if b in self.force)
            if len(forced) > 1 and self.mixed:
                for b in g:         # as forced (the test wants what the sensing cannot do yet)
                    pol[b] = self.force.get(b, "down")
                    count[(self.owner[b], pol[b])] = count.get((self.owner[b], pol[b]), 0) + 1
                continue
            if len(forced) > 1:
                raise TableError("Bakugan %s share cards but are forced to both polarities" % g)
            if forced:
                choice = forced.pop()
            else:
                def load(p):
                    mine = max(count.get((self.owner[b], p), 0) + sum(1 for c in g if self.owner[c] == self.owner[b])
                               for b in g)
                    return (mine, sum(1 for c in pol if pol[c] == p) + len(g))
                choice = "down" if load("down") <= load("up") else "up"
            for b in g:
                pol[b] = choice
                count[(self.owner[b], choice)] = count.get((self.owner[b], choice), 0) + 1
        out = {}
        used = {}
        glob = all(sum(1 for b in base if pol[b] == p) <= len(MOMENTS) for p in ("down", "up"))
        for g in order:
            for b in g:
                key = pol[b] if glob else (self.owner[b], pol[b])
                free = [k for k in range(len(MOMENTS)) if k not in used.get(key, ())]
                if not free:
                    raise TableError("player %d needs more than %d %s-polarity magnets (%s)"
                                     % (self.owner[b], len(MOMENTS), pol[b],
                                        [c for c in base if (self.owner[c], pol[c]) == (self.owner[b], pol[b])]))
                # Bakugan that meet on a card never share a magnet if avoidable
                mates = set(MOMENTS.index(out[c][1]) for c in g if c in out)
                k = ([k for k in free if k not in mates] or free)[0]
                used.setdefault(key, set()).add(k)
                out[b] = (pol[b], MOMENTS[k])
        out.update(self.given)
        for b, a in self.twin_of.items():
            out[b] = out[a]
        self._magnets = out
        return out

    def check(self):
        """Every landing could be told from the other expected Bakugan."""
        mags = self.magnets()
        for what, b, cand in self.landings:
            twins = [c for c in cand if c != b and mags[c] == mags[b] and not self._same_piece(b, c)]
            if twins:
                raise TableError("%s: %s has the magnet of %s, which the referee also expects" % (what, b, twins))

    def _same_piece(self, a, b):
        return self.twin_of.get(a) == b or self.twin_of.get(b) == a

    # ------------------------------------------------------------ script
    def _line(self, text, dt):
        self.lines.append("%s at %.3fs" % (text, self.T / 1000.0))
        self.T += dt

    def teach(self, ids, zones):
        """Each Bakugan taught once: register, put down in the middle of a
        spare card, lift."""
        for z in zones:
            self._line("card on zone %d" % z, 100)
        for i, b in enumerate(ids):
            z = zones[i % len(zones)]
            self._line("register %s on zone %d" % (b, z), 300)
            self._line("place %s on zone %d, at (0, 0) mm tilt 3" % (b, z), TEACH_MS)
            self._line("remove %s" % b, LIFT_MS)
        for z in zones:
            self._line("card off zone %d" % z, 100)
        self.T += 500

    def _feed(self, ev, what):
        ev = dict(ev)
        ev["t"] = self.T
        n = len(self.expected)
        if not self.g.feed(ev):
            raise TableError("%s: the referee rejects %s: %s" % (what, json.dumps(ev), self.expected[n:]))
        return self.expected[n:]

    def _where(self, zone):
        """A free spot on the card (mm from its centre), with a little jitter."""
        taken = set(self.spot[c] for c, z in self.phys.items() if z == zone)
        k = 0
        while k in taken:
            k += 1
        if k >= len(SPOTS):
            raise TableError("more than %d Bakugan on zone %d" % (len(SPOTS), zone))
        x, y = SPOTS[k]
        return k, (round(x + self.rng.uniform(-5, 5), 1), round(y + self.rng.uniform(-4, 4), 1))

    def _open(self, verb, b, zone, what):
        """b opens on zone (thrown or put down): the line, then the landing
        the sensors will report, fed to the shadow; returns its output."""
        player, cand = self.g.expects()
        if b not in cand:
            raise TableError("%s: the referee does not expect %s now (expects %s)" % (what, b, cand))
        self.landings.append((what, b, list(cand)))
        others = [c for c, z in self.phys.items() if z == zone]
        for c in others:
            self._union(b, self.twin_of.get(c, c))
        k, (x, y) = self._where(zone)
        t0 = self.T
        if verb == "throw" and not self.by_hand:
            self._line("throw %s -> zone %d, opens at (%g, %g) mm from player %d tilt 3" % (b, zone, x, y, min(self.owner[b], 1)),
                       THROW_MS)
        else:
            self._line("place %s on zone %d, at (%g, %g) mm tilt 3" % (b, zone, x, y), PLACE_MS)
        self.phys[b] = zone
        self.spot[b] = k
        t1 = self.T
        self.T = t0 + 350
        out = self._feed({"ev": "land", "zone": zone, "bakugan": b}, what)
        self.T = t1
        return out

    def _lift(self, b, dt=LIFT_MS):
        self._line("remove %s" % b, dt)
        del self.phys[b]
        del self.spot[b]

    def mark(self, name):
        """Remember where the expected stream is now (t.after(name) later)."""
        self.marks[name] = len(self.expected)

    def gate(self, player, gid, zone):
        self._feed({"ev": "gate", "player": player, "gate": gid, "zone": zone}, "gate")
        self._line("gate %d %s on zone %d" % (player, gid, zone), GATE_MS)
        self.cards.add(zone)
        self.reconcile()

    def throw(self, b, zone):
        """b is thrown and opens on zone (picked up first if it stands)."""
        if b in self.phys:
            self._lift(b, LIFT_MS + 200)
        if zone not in self.cards:
            raise TableError("throw %s: no card on zone %d, a Bakugan cannot open there (use miss)" % (b, zone))
        out = self._open("throw", b, zone, "throw %s" % b)
        self.reconcile()
        return out

    def put(self, b, zone):
        """b is put down by hand, opened (set-up placement)."""
        if b in self.phys:
            self._lift(b)
        if zone not in self.cards:
            raise TableError("put %s: no card on zone %d" % (b, zone))
        out = self._open("place", b, zone, "put %s" % b)
        self.reconcile()
        return out

    def miss(self, b, roll=None):
        """b is thrown and does not open: it rolls across `roll` zones and
        off the mat (or just leaves the hand), and the player says so."""
        if b in self.phys:
            self._lift(b, LIFT_MS + 200)
        if roll:
            self._line("roll %s across zones %s and off" % (b, ",".join(str(z) for z in roll)), 1600)
        self._feed({"ev": "miss", "bakugan": b}, "miss")
        self._line("miss %s" % b, CTL_MS)
        self.reconcile()

    def ctl(self, ev, reject=False):
        """Any control event (as the host app sends it). reject: the
        referee must refuse it (the board's ack is then ok: false)."""
        ev = dict(ev)
        if reject:
            n = len(self.expected)
            e = dict(ev)
            e["t"] = self.T
            if self.g.feed(e):
                raise TableError("%s: the referee accepts %s" % (ev.get("ev"), json.dumps(ev)))
            self.rejected.append(ev)
            self._line("event %s" % json.dumps(ev, sort_keys=True), CTL_MS)
            return self.expected[n:]
        out = self._feed(ev, ev.get("ev"))
        self._line("event %s" % json.dumps(ev, sort_keys=True), CTL_MS)
        self.reconcile()
        return out

    def resolve(self):
        return self.ctl({"ev": "resolve"})

    def ability(self, player, card, reject=False):
        return self.ctl({"ev": "ability", "player": player, "card": card}, reject)

    def idle(self, ms):
        self.T += ms

    # ------------------------------------------------------ the players' hands
    def reconcile(self):
        """Make the mat what the referee says it is: lift Bakugan it took
        off (or moved), lift captured cards, put back by hand the Bakugan it
        has standing somewhere else (each such landing is fed to the shadow:
        the referee must take it silently)."""
        v = self.g.view()
        want = {}
        for z, info in v.get("zones", {}).items():
            for b in info.get("bakugan", ()):
                want[b] = int(z)
        gone = dict((b, z) for b, z in self.phys.items() if want.get(b) != z)
        for z in sorted(set(gone.values())):
            here = [b for b in self.phys if self.phys[b] == z]
            lift = sorted(b for b in gone if gone[b] == z)
            if len(lift) > 1 and len(lift) == len(here):
                # every Bakugan on the card goes: both hands at once
                for b in lift:
                    self._line("remove %s" % b, 0)
                    del self.phys[b]
                    del self.spot[b]
                self.T += LIFT_MS + 200
            else:
                for b in lift:
                    self._lift(b)
        if not self.fixed_cards:
            gates = set(int(z) for z, info in v.get("zones", {}).items() if info.get("gate"))
            for z in sorted(self.cards - gates):
                self._line("card off zone %d" % z, CARD_MS)
                self.cards.discard(z)
        for b in sorted(want, key=lambda x: self.ids.index(x) if x in self.ids else 0):
            if b in self.phys:
                continue
            out = self._open("place", b, want[b], "put back %s" % b)
            if out:
                raise TableError("putting %s back on zone %d by hand was not silent: %s" % (b, want[b], out))

    # ------------------------------------------------------------- results
    def finish(self):
        """The host's `end` request at the end: the shadow finishes too."""
        self.T += 1000
        n = len(self.expected)
        self.g.finish(self.T)
        return self.expected[n:]

    def text(self):
        mags = self.magnets()
        head = ["bakugan %s moment %.3f polarity %s height %.1f" % (b, mags[b][1], mags[b][0], HEIGHT) for b in self.ids]
        return "\n".join(head + self.lines) + "\n"

    def scenario(self):
        self.check()
        sc = sim.parse_scenario(self.text())
        sc.header = self.header
        return sc

    def simulate(self, board, seed=1):
        return sim.run(board, self.scenario(), seed=seed, header=self.header)

    def view(self):
        return self.g.view()

    def after(self, name):
        return self.expected[self.marks[name]:]
