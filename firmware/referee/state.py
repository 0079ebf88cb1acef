"""The table the referee keeps: the pieces of the header (Bakugan, gate
cards, ability cards), where each one is now, capture and the turn order
(rules 2-4 of sheet 004), the output buffer, the snapshot that undoes a
rejected event, and the plain view for displays. Battles are
referee/battle.py, the input events and the hook list referee/engine.py
(class Engine, a subclass of both); the modes are referee/modes/.
"""
from referee.errors import Reject
from referee import header as _header

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# Where a Bakugan or a gate is, besides a zone number (>= 0).
UNUSED = const(-1)  # Bakugan: in hand, may be thrown.  Gate: not placed yet.
USED = const(-2)  # Bakugan: in its owner's used pile.  Gate: captured.
OUT = const(-3)  # Bakugan removed from play (modes that retire pieces).

# Phases.
SETUP = const(0)  # each player places their opening gate(s)
PLAY = const(1)
REFILL = const(2)  # field empty: players with gates in hand place one
OVER = const(3)

# The zone grid of the reference mat (boards/mats/reference.json): zones
# numbered row by row, COLS to a row, as the modes' fixed layouts assume
# (tests/host/test_referee_grid.py checks it against the mat file).
COLS = const(4)


def touching(a, b):
    """Zones a and b touch side to side or corner to corner."""
    dr = a // COLS - b // COLS
    dc = a % COLS - b % COLS
    return a != b and -1 <= dr <= 1 and -1 <= dc <= 1


def _copy(x):
    t = type(x)
    if t is list:
        return [_copy(v) for v in x]
    if t is dict:
        d = {}
        for k in x:
            d[k] = _copy(x[k])
        return d
    return x


def placed(w, words):
    """Words for location w: words[0] on a zone (with its number if it
    has a %d), else words[-w] (UNUSED, USED, OUT are -1, -2, -3)."""
    if w < 0:
        return words[-w]
    s = words[0]
    return s % w if "%" in s else s


class State:
    MODE = "official"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2
    OPENING_GATES = 1  # gates each player places before the first throw
    TARGET = 3  # gates to capture when the header has no "target"
    STATE = ()  # names of a mode's own dynamic attributes, for the snapshot

    def __init__(self, header, sink=None):
        _header.check(header, self.MIN_PLAYERS, self.MAX_PLAYERS)
        self.header = header
        self.sink = sink
        self._buf = []
        players = header["players"]
        self.n = len(players)
        self.names = [p["name"] for p in players]
        self.first = header.get("first", 0)
        self.target = header.get("target", self.TARGET)
        # Static facts, in header order.
        self.bak_ids = []
        self.bak_owner = {}
        self.bak_attr = {}
        self.bak_g = {}
        self.gate_ids = []
        self.gate_owner = {}
        self.gate_bonus = {}
        self.abil = []  # per player: {card id: effect}
        self.abil_ids = []  # per player: [card ids] in header order
        for i in range(self.n):
            p = players[i]
            for b in p["bakugan"]:
                self.bak_ids.append(b["id"])
                self.bak_owner[b["id"]] = i
                self.bak_attr[b["id"]] = b["attr"]
                self.bak_g[b["id"]] = b["g"]
            for gt in p["gates"]:
                self.gate_ids.append(gt["id"])
                self.gate_owner[gt["id"]] = i
                self.gate_bonus[gt["id"]] = gt.get("bonus", {})
            ab = {}
            ids = []
            for a in p.get("abilities", []):
                ab[a["id"]] = a["effect"]
                ids.append(a["id"])
            self.abil.append(ab)
            self.abil_ids.append(ids)
        # Dynamic state (everything _save/_load copy).
        self.loc = {}
        for b in self.bak_ids:
            self.loc[b] = UNUSED
        self.gloc = {}
        for gid in self.gate_ids:
            self.gloc[gid] = UNUSED
        self.field = {}  # zone -> gate id
        self.stand = {}  # zone -> [bakugan ids, in landing order]
        self.captured = [[] for _ in range(self.n)]
        self.used_abil = [[] for _ in range(self.n)]
        self.turn = self.first
        self.phase = SETUP
        self.owe = [self.OPENING_GATES] * self.n  # gates owed in SETUP/REFILL
        self.placed = 0  # gates placed by the current player this turn
        self.battle = None  # [zone, attacker, defender, [(player, card)...]]
        self.acted = []  # players who played a card (or passed) in the battle (Battle.start_battle)
        self.choice = None  # [player, zone, bakugan]
        self.winner = None
        self.last_battle = None  # arithmetic of the last battle, for views
        self.t = 0

    # ----------------------------------------------------------------- I/O
    def emit(self, kind, t, pairs):
        self._buf.append((kind, t, pairs))

    def _flush(self):
        buf = self._buf
        if buf:
            sink = self.sink
            if sink is not None:
                for o in buf:
                    sink(o)
            self._buf = []

    # ------------------------------------------------------------ snapshot
    def _save(self):
        stand = {}
        for z in self.stand:
            stand[z] = list(self.stand[z])
        b = self.battle
        return (dict(self.loc), dict(self.gloc), dict(self.field), stand,
                [list(c) for c in self.captured], [list(u) for u in self.used_abil],
                self.turn, self.phase, list(self.owe), self.placed,
                None if b is None else [b[0], b[1], b[2], list(b[3])],
                None if self.choice is None else list(self.choice),
                self.winner, self.last_battle, dict(self.gate_bonus), self._extra_save())

    def _load(self, s):
        (self.loc, self.gloc, self.field, self.stand, self.captured, self.used_abil,
         self.turn, self.phase, self.owe, self.placed, self.battle, self.choice,
         self.winner, self.last_battle, self.gate_bonus, extra) = s
        self._extra_load(extra)

    def _extra_save(self):
        """A copy of the mode's own state: the attributes named in STATE
        (modes with other state override this and _extra_load)."""
        return [_copy(getattr(self, k)) for k in self.STATE]

    def _extra_load(self, extra):
        i = 0
        for k in self.STATE:
            setattr(self, k, extra[i])
            i += 1

    # ------------------------------------------------------------- helpers
    def _player(self, ev):
        p = ev["player"]
        if type(p) is not int or not 0 <= p < self.n:
            raise Reject("no player %r" % (p,))
        return p

    def _zone(self, ev):
        z = ev["zone"]
        if type(z) is not int or z < 0:
            raise Reject("zone must be a non-negative integer, got %r" % (z,))
        return z

    def _bakugan(self, ev):
        b = ev["bakugan"]
        if b not in self.bak_owner:
            raise Reject("unknown Bakugan %r" % (b,))
        return b

    def where(self, b):
        return placed(self.loc[b], ("standing on zone %d", "unused", "in the used pile", "out of the game"))

    def owned(self, p, where):
        """Ids of player p's Bakugan at location `where`, in header order."""
        loc = self.loc
        owner = self.bak_owner
        return [b for b in self.bak_ids if owner[b] == p and loc[b] == where]

    def standing(self, p):
        loc = self.loc
        owner = self.bak_owner
        return [b for b in self.bak_ids if owner[b] == p and loc[b] >= 0]

    def gates_in_hand(self, p):
        return [g for g in self.gate_ids if self.gate_owner[g] == p and self.gloc[g] == UNUSED]

    def all_standing(self, p):
        """Rule 7: every Bakugan the player has in play stands on the field."""
        loc = self.loc
        owner = self.bak_owner
        some = False
        for b in self.bak_ids:
            if owner[b] == p:
                w = loc[b]
                if w == UNUSED or w == USED:
                    return False
                if w >= 0:
                    some = True
        return some

    def opponents_on_field(self, p):
        for z in self.stand:
            for b in self.stand[z]:
                if self.bak_owner[b] != p:
                    return True
        return False

    def next_player(self, p):
        return (p + 1) % self.n

    def _vacate(self, b):
        z = self.loc[b]
        if z >= 0:
            s = self.stand[z]
            s.remove(b)
            if not s:
                del self.stand[z]
        self.loc[b] = UNUSED

    def put(self, b, z):
        """b stands on zone z (after those already there)."""
        s = self.stand.get(z)
        if s is None:
            s = []
            self.stand[z] = s
        s.append(b)
        self.loc[b] = z

    def put_card(self, p, gid, z, t):
        self.gloc[gid] = z
        self.field[z] = gid
        self.emit("placed", t, (("player", p), ("gate", gid), ("zone", z)))

    def check_turn(self, p, b):
        if p != self.turn:
            raise Reject("it is %s's turn, %s belongs to %s" % (self.names[self.turn], b, self.names[p]))

    # ------------------------------------------------- capture, turn order
    def capture(self, p, z, reason, t):
        """Player p takes the gate on zone z; every Bakugan on it goes to its
        owner's used pile; the gate leaves the field."""
        gid = self.field.pop(z)
        self.gloc[gid] = USED
        self.captured[p].append(gid)
        for b in self.stand.pop(z, ()):
            self.loc[b] = USED
        self.emit("capture", t, (("player", p), ("gate", gid), ("zone", z), ("reason", reason)))
        self.check_win(p, t)

    def check_win(self, p, t):
        if self.phase != OVER and len(self.captured[p]) >= self.target:
            self.winner = p
            self.phase = OVER
            self.battle = None
            self.choice = None
            self.emit("win", t, (("player", p),))

    def end_turn(self, t):
        """The throw is fully resolved: pass the turn (rule 2), ask for gates
        when the field is empty (rule 3), refill hands (rule 4)."""
        if self.phase == OVER or self.battle is not None or self.choice is not None:
            return
        p = self.next_player(self.turn)
        self.turn = p
        self.placed = 0
        if not self.field:
            owe = [1 if self.gates_in_hand(i) else 0 for i in range(self.n)]
            if not sum(owe):
                self.phase = OVER
                self.emit("stalemate", t, (("reason", "no gate left to play"),))
                return
            self.owe = owe
            self.phase = REFILL
            self.emit("gates_needed", t, (("players", [i for i in range(self.n) if owe[i]]),))
        self.refresh_hand(p, t)
        if self.phase == PLAY:
            self.emit("turn", t, (("player", p),))

    def refresh_hand(self, p, t):
        """Rule 4: a player with no unused Bakugan takes back the used ones."""
        if self.owned(p, UNUSED):
            return
        used = self.owned(p, USED)
        if used:
            for b in used:
                self.loc[b] = UNUSED
            self.emit("reuse", t, (("player", p), ("bakugan", used)))

    # ---------------------------------------------------------------- views
    def view(self):
        """A plain snapshot for displays and the link's state query."""
        zones = {}
        for z in self.field:
            g = self.field[z]
            zones[z] = {"gate": g, "owner": self.gate_owner[g], "bakugan": list(self.stand.get(z, ()))}
        bt, lb = self.view_battles()
        return {
            "mode": self.MODE,
            "phase": ("setup", "play", "refill", "over")[self.phase],
            "turn": self.turn,
            "zones": zones,
            "captured": [list(c) for c in self.captured],
            "winner": self.winner,
            "battle": bt,
            "choice": None if self.choice is None else {"player": self.choice[0], "zone": self.choice[1]},
            "last_battle": lb,
        }

    def view_battles(self):
        """(the pending battle, the last battle's arithmetic) for views."""
        bt = None
        if self.battle is not None:
            bt = {"zone": self.battle[0], "attacker": self.battle[1], "defender": self.battle[2],
                  "abilities": [c for (_, c) in self.battle[3]]}
        lb = None
        if self.last_battle is not None:
            z, a, d, parts, w = self.last_battle
            lb = {"zone": z, "attacker": a, "defender": d, "parts": parts, "winner": w}
        return bt, lb
