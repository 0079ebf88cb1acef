"""Random but rule-plausible official games as scenarios (CPython only).

The referee itself is the oracle: every control event and every landing the
generator makes is fed to a referee instance, so the game follows the rules
(players alternate; gates are placed touching the others; Bakugan are thrown
at zones with gates; landing on an opponent starts a battle, which is
resolved and after which both Bakugan are lifted and the card leaves; misses
roll across the mat and off, or bounce off a card; a player whose Bakugan all
stand moves one by hand or takes a gate; a take-or-move choice is always
answered `take`). Registration of every Bakugan comes first
(card on a zone, `register`, the Bakugan put down opened, lifted).
Deterministic for a seed.
"""
import random

from host_tools import fwpath
from host_tools.sim.scenario import Scenario

DEFAULTS = {
    "register": True,  # teach every Bakugan first
    # mm: a lesson is put down within this of the card's middle, as
    # `bakumat register` and the phone's teach box ask (a hand's aim; None:
    # anywhere on the card, as a throw stops)
    "lesson_spot": 10.0,
    # a function of a Bakugan's id giving where its lesson is put down (mm
    # from the card's middle), None for lesson_spot's (the family of worlds,
    # host_tools/sim/family.py: a child's aim)
    "lesson_at": None,
    "long_idle": 0.04,  # chance per turn of a 20..90 s pause (Bakugan left standing)
    "miss": 0.12,  # chance a throw rolls across and off
    "bounce": 0.05,  # chance a throw bounces off a card (a miss too)
    "ability": 0.3,  # chance per battle side of playing an ability card
    "max_throws": 40,  # None: play until the referee ends the game (the guard below still holds)
}

GUARD_STEPS = 400  # at most this many turns, battles, choices and refills: a loop never runs away


def game_header(rng, header):
    """The header a generated game is played under: `header`'s mode, first,
    target and players (a random official one when None)."""
    if header is None:
        from host_tools.gen import gamegen
        header = gamegen.random_header(rng)
    out = {}
    for k in ("mode", "first", "target", "players"):
        if k in header:
            out[k] = header[k]
    out.setdefault("mode", "official")
    return out


class GameGen:
    """Plays a game against the referee and writes it down as a Scenario
    (play() returns it). A subclass plays a side its own way by overriding
    the hooks: place_gate(p) and throw(p, bid) (a player's move),
    control(ev, card) and feed_land(bid, zone, t) (each event as it is fed
    to the referee: the demo's players record them there); `look`, a
    function of the generator, runs after each of the players' pauses."""

    def __init__(self, rng, board, header, opts):
        fwpath.ensure()
        import referee
        from referee import engine
        self.E = engine
        self.rng = rng
        self.board = board
        self.nz = len(board["zones"])
        self.opts = opts
        self.header = header
        self.g = referee.new_game(header)
        self.sc = Scenario()
        self.sc.header = header
        self.t = 500
        self.line = 0
        self.phys = {}  # bid -> zone it physically stands on
        self.cards = set()  # zones with a card lying there
        self.cols = 1
        xs = sorted(set(z["x"] for z in board["zones"]))
        ys = sorted(set(z["y"] for z in board["zones"]))
        self.grid = {}
        for z in board["zones"]:
            self.grid[z["id"]] = (xs.index(z["x"]), ys.index(z["y"]))
        # look(gen): called after every pause of the players (wait()), before
        # their next move: the live demo's players look at the mat there.
        self.look = None
        self.stopped = None  # why play() stopped: over, max_throws, guard, stuck

    # ------------------------------------------------------------ emitting
    def act(self, kind, t=None, **kw):
        self.line += 1
        a = {"kind": kind, "t": int(self.t if t is None else t), "line": self.line}
        a.update(kw)
        self.sc.add(a)
        return a

    def control(self, ev, card=False):
        a = self.act("control", ev=ev, card=card)
        ok = True
        if ev["ev"] != "register":
            e = dict(ev)
            e["t"] = a["t"]
            ok = self.g.feed(e)
        return ok

    def feed_land(self, bid, zone, t):
        return self.g.feed({"t": int(t), "ev": "land", "bakugan": bid, "zone": zone})

    def wait(self, lo, hi):
        self.t += int(self.rng.uniform(lo, hi) * 1000)
        if self.look is not None:
            self.look(self)

    # ------------------------------------------------------------ physics sync
    def sync(self):
        """Lift what the referee took off the field, then remove captured cards."""
        stand = self.g.stand
        where = {}
        for z in stand:
            for b in stand[z]:
                where[b] = z
        gone = sorted(b for b in self.phys if where.get(b) != self.phys[b])
        if gone:
            self.wait(1.0, 2.5)
            for b in gone:
                self.act("remove", zone=None, bakugan=b)
                del self.phys[b]
                self.t += int(self.rng.uniform(150, 500))
        dropped = sorted(z for z in self.cards if z not in self.g.field)
        if dropped:
            self.wait(0.4, 1.2)
            for z in dropped:
                self.act("card", on=False, zone=z)
                self.cards.discard(z)

    # ------------------------------------------------------------ choices
    def neighbours(self, z):
        cx, cy = self.grid[z]
        out = []
        for o, (x, y) in self.grid.items():
            if o != z and abs(x - cx) <= 1 and abs(y - cy) <= 1:
                out.append(o)
        return out

    def gate_zone(self, p):
        field = self.g.field
        free = [z for z in range(self.nz) if z not in field and z not in self.cards]
        if not field:
            # opening cards: the middle of the mat, one card per player end to end
            mid = [z for z in free if 0 < self.grid[z][1] < max(y for _, y in self.grid.values())]
            return self.rng.choice(mid or free)
        near = set()
        for z in field:
            near.update(self.neighbours(z))
        cand = sorted(z for z in near if z in free)
        return self.rng.choice(cand or free)

    def place_gate(self, p):
        gates = self.g.gates_in_hand(p)
        if not gates:
            return False
        z = self.gate_zone(p)
        gid = self.rng.choice(gates)
        ok = self.control({"ev": "gate", "player": p, "gate": gid, "zone": z}, card=True)
        if ok:
            self.cards.add(z)
        return ok

    def pos(self, spot=None):
        """Where on the card a Bakugan is put down (mm from its middle):
        anywhere a throw may stop, or within +-spot of the middle."""
        hx, hy = (22.0, 35.0) if spot is None else (spot, spot)
        return (round(self.rng.uniform(-hx, hx), 1), round(self.rng.uniform(-hy, hy), 1))

    # ------------------------------------------------------------ phases
    def register_all(self):
        rng = self.rng
        for i, p in enumerate(self.header["players"]):
            for b in p["bakugan"]:
                z = rng.randrange(self.nz)
                self.act("card", on=True, zone=z)
                self.t += int(rng.uniform(300, 800))
                self.control({"ev": "register", "bakugan": b["id"], "zone": z})
                self.t += int(rng.uniform(600, 1500))
                pos = self.pos(self.opts["lesson_spot"])   # drawn in any case: the game's stream stays the same
                at = self.opts.get("lesson_at")
                if at is not None and at(b["id"]) is not None:
                    pos = tuple(at(b["id"]))
                self.act("place", bakugan=b["id"], zone=z, pos=pos, tilt=None, side=None, speed=None)
                self.t += int(rng.uniform(800, 2000))
                self.act("remove", zone=None, bakugan=b["id"])
                self.t += int(rng.uniform(400, 900))
                self.act("card", on=False, zone=z)
                self.t += int(rng.uniform(300, 1000))

    def throw(self, p, bid):
        rng = self.rng
        g = self.g
        r = rng.random()
        if r < self.opts["miss"] + self.opts["bounce"]:
            if r < self.opts["miss"] or not self.cards:
                zones = self.miss_path(p)
                self.act("roll", bakugan=bid, zones=zones, off=True, speed=None)
                self.t += int(rng.uniform(1500, 2500))
            else:
                z = rng.choice(sorted(self.cards))
                self.act("bounce", bakugan=bid, zone=z, pos=self.pos())
                self.t += int(rng.uniform(700, 1600))
            self.control({"ev": "miss", "bakugan": bid})
            return
        field = sorted(g.field)
        opp = [z for z in field if any(g.bak_owner[b] != p for b in g.stand.get(z, ()))]
        own = [z for z in field if any(g.bak_owner[b] == p for b in g.stand.get(z, ()))]
        empty = [z for z in field if z not in opp and z not in own]
        if opp and (rng.random() < 0.55 or not empty):
            z = rng.choice(opp)
        elif empty and (rng.random() < 0.9 or not own):
            z = rng.choice(empty)
        elif own:
            z = rng.choice(own)
        else:
            z = rng.choice(field)
        t_open = self.t + int(rng.uniform(700, 1200))
        self.act("throw", t=t_open, bakugan=bid, zone=z, pos=self.pos(), tilt=None, side=p, speed=None)
        self.t = t_open
        self.feed_land(bid, z, t_open)
        self.phys[bid] = z

    def miss_path(self, p):
        rng = self.rng
        ncol = max(x for x, _ in self.grid.values()) + 1
        nrow = max(y for _, y in self.grid.values()) + 1
        col = rng.randrange(ncol)
        rows = list(range(nrow)) if p == 0 else list(range(nrow - 1, -1, -1))
        k = rng.randint(1, nrow)
        path = []
        for r in rows[:k]:
            col = min(ncol - 1, max(0, col + rng.choice((-1, 0, 0, 1))))
            for zid, (x, y) in self.grid.items():
                if x == col and y == r:
                    path.append(zid)
        if rng.random() < 0.4 and len(path) > 1:
            path = path[:1] + [self.rng.choice(self.neighbours(path[0]))]
        return path

    def move_standing(self, p):
        """Rule 7: every Bakugan of p stands; move one to another gate by hand."""
        g = self.g
        rng = self.rng
        b = rng.choice(g.standing(p))
        targets = [z for z in sorted(g.field) if z != g.loc[b]]
        if not targets:
            return False
        z = rng.choice(targets)
        self.act("remove", zone=None, bakugan=b)
        del self.phys[b]
        self.t += int(rng.uniform(600, 1200))
        self.act("place", bakugan=b, zone=z, pos=self.pos(), tilt=None, side=None, speed=None)
        self.feed_land(b, z, self.t)
        self.phys[b] = z
        return True

    def play(self):
        g = self.g
        E = self.E
        rng = self.rng
        opts = self.opts
        if opts["register"]:
            self.register_all()
        throws = 0
        guard = 0
        limit = opts["max_throws"]
        while g.phase != E.OVER:
            if limit is not None and throws >= limit:
                self.stopped = "max_throws"
                break
            if guard >= GUARD_STEPS:
                self.stopped = "guard"
                break
            guard += 1
            if g.phase in (E.SETUP, E.REFILL):
                for p in range(g.n):
                    if g.owe[p] > 0:
                        self.wait(0.5, 1.5)
                        self.place_gate(p)
                self.sync()
                continue
            if g.battle is not None:
                self.wait(0.8, 2.0)
                z, att, dfd = g.battle[0], g.battle[1], g.battle[2]
                for b in (att, dfd):
                    q = g.bak_owner[b]
                    cards = [c for c in g.abil_ids[q] if c not in g.used_abil[q]]
                    if cards and rng.random() < opts["ability"]:
                        self.control({"ev": "ability", "player": q, "card": rng.choice(cards)})
                        self.wait(0.5, 1.5)
                self.control({"ev": "resolve"})
                self.sync()
                continue
            if g.choice is not None:
                p, z, b = g.choice
                self.wait(1.0, 2.5)
                # Only `take`: a move is the Bakugan lifted and opened on another
                # gate, which the table infers from the sensing (docs/table-play.md)
                # but a bare raw-log replay (no table controller) cannot.
                self.control({"ev": "choose", "player": p, "action": "take"})
                self.sync()
                continue
            p = g.turn
            self.wait(1.0, 3.0)
            if rng.random() < opts["long_idle"]:
                self.wait(20.0, 90.0)
            if g.placed == 0 and g.gates_in_hand(p) and rng.random() < 0.35:
                self.place_gate(p)
                self.wait(0.5, 1.5)
            if g.all_standing(p):
                if not g.opponents_on_field(p) and rng.random() < 0.5:
                    z = g.loc[rng.choice(g.standing(p))]
                    self.control({"ev": "choose", "player": p, "action": "take", "zone": z})
                elif not self.move_standing(p):
                    z = g.loc[rng.choice(g.standing(p))]
                    self.control({"ev": "choose", "player": p, "action": "take", "zone": z})
                self.sync()
                throws += 1
                continue
            _, cands = g.expects()
            if not cands:
                self.stopped = "stuck"
                break
            self.throw(p, rng.choice(cands))
            throws += 1
            self.sync()
        if self.stopped is None:
            self.stopped = "over"
        # game over: everyone picks their Bakugan up
        self.wait(1.0, 2.5)
        for b in sorted(self.phys):
            self.act("remove", zone=None, bakugan=b)
            self.t += int(rng.uniform(200, 600))
        self.phys = {}
        self.wait(0.5, 1.0)
        self.act("idle", ms=500)
        return self.sc


def idle_frames(board, seconds, seed=0, settings=None):
    from host_tools.sim.world import idle_frames as _idle
    return _idle(board, seconds, seed, settings)


def random_game(seed, board, header=None, **options):
    """A Scenario for a random official game on `board` (dict or name).
    options override DEFAULTS (register, lesson_spot, lesson_at, long_idle, miss, bounce, ability,
    max_throws; None: until the game ends). The scenario carries the header as `sc.header`."""
    from host_tools import boards
    if isinstance(board, str):
        board = boards.load(board)
    opts = dict(DEFAULTS)
    for k in options:
        if k not in DEFAULTS:
            raise TypeError("random_game: unknown option %r" % k)
        opts[k] = options[k]
    rng = random.Random("game:%s" % (seed,))
    hdr = game_header(rng, header)
    return GameGen(rng, board, hdr, opts).play()
