"""The shared referee engine: pieces, zones, turn order, battle arithmetic,
capture, rejection. A mode (referee/modes/*.py) subclasses Engine and
overrides the hooks where its rules differ; the official game is the engine's
own behaviour, so modes/official.py is almost empty.

Input events are dicts as in the event log ({"t", "ev", ...}). Output events
go to `sink(kind, t, pairs)` where pairs is a tuple of (key, value); see
referee/events.py for their encoding and docs/formats/event-log-v1.md for the
list. Determinism: no clocks, no randomness, no dict-order dependence (ids are
kept in lists in header order), so CPython and MicroPython print the same.

An event that breaks a rule raises Reject before it changes anything. When a
battle or a choice is pending, the next other event first resolves it; if
that event is then rejected the engine restores the snapshot it took, so a
rejected event never changes the state (the snapshot is taken only then,
once per battle at most, never on the common path).
"""
from referee.errors import Reject, SetupError
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

INPUTS = ("gate", "land", "miss", "ability", "resolve", "choose", "reveal")


class Engine:
    MODE = "official"
    # Input events this mode accepts; each has a handler on_<ev>. Modes that
    # add control events extend it: INPUTS = Engine.INPUTS + ("trap",).
    INPUTS = INPUTS
    # Inputs that may come while a battle is pending without resolving it
    # first (modes add their in-battle control events: traps, gear...).
    BATTLE_INPUTS = ("ability", "resolve", "reveal")
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2
    OPENING_GATES = 1  # gates each player places before the first throw
    TARGET = 3  # gates to capture when the header has no "target"

    @classmethod
    def variant(cls, header):
        """The class that plays this header: a mode returns a subclass when
        optional header fields switch on extra rules (referee.new_game calls
        it; see referee/modes/extras.py). Default: the class itself."""
        return cls

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

    def feed(self, ev):
        """Apply one input event. Returns True if accepted, False if rejected
        (a `reject` output event says why; the state is unchanged)."""
        t = ev.get("t", self.t)
        kind = ev.get("ev")
        mark = len(self._buf)
        # Handlers check before they change anything; only settling what is
        # pending (a battle, a choice) changes state before the event's own
        # checks, so the snapshot is taken only then.
        snap = self._save() if self.pending(kind) else None
        try:
            if self.phase == OVER:
                raise Reject("the game is over")
            if kind not in self.INPUTS:
                raise Reject("unknown event %r" % (kind,))
            if snap is not None:
                self.settle(kind, t)
                if self.phase == OVER:
                    raise Reject("the game is over")
            getattr(self, "on_" + kind)(ev, t)
        except Reject as e:
            if snap is not None:
                self._load(snap)
            del self._buf[mark:]
            self.emit("reject", t, (("input", kind), ("reason", str(e))))
            self._flush()
            return False
        except (KeyError, TypeError, ValueError) as e:
            # A malformed event from a live link: never crash the referee.
            # (Only the key is named: other exception texts differ between
            # CPython and MicroPython, and transcripts must not.)
            if snap is not None:
                self._load(snap)
            del self._buf[mark:]
            self.emit("reject", t, (("input", kind), ("reason", "malformed event: %s" % _errtext(e))))
            self._flush()
            return False
        self.t = t
        self._flush()
        return True

    def pending(self, kind):
        """True when an event of `kind` first settles something (so feed
        snapshots the state in case the event is then rejected)."""
        return ((self.battle is not None and kind not in self.BATTLE_INPUTS)
                or (self.choice is not None and kind != "choose"))

    def settle(self, kind, t):
        """Resolve what is pending and not addressed by an event of `kind`
        (rule 9: a battle resolves before any other input; rule 6: no
        choice means take). Modes with other pending states override it."""
        if self.battle is not None and kind not in self.BATTLE_INPUTS:
            self.resolve_battle(t)
        elif self.choice is not None and kind != "choose":
            self._take(self.choice[0], self.choice[1], "take", t)

    def finish(self, t=None):
        """End of input: resolve what is pending, then emit `end`."""
        if t is None:
            t = self.t
        if self.phase != OVER:
            if self.battle is not None:
                self.resolve_battle(t)
            elif self.choice is not None:
                self._take(self.choice[0], self.choice[1], "take", t)
        self.phase = OVER       # ended: the view says so, further input is refused
        self.emit("end", t, (("captured", [list(c) for c in self.captured]), ("winner", self.winner)))
        self._flush()

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
        """Modes with more state return a copy of it here."""
        return None

    def _extra_load(self, extra):
        pass

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
        z = self.loc[b]
        if z >= 0:
            return "standing on zone %d" % z
        if z == USED:
            return "in the used pile"
        if z == OUT:
            return "out of the game"
        return "unused"

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

    # ------------------------------------------------------------ handlers
    def on_gate(self, ev, t):
        p = self._player(ev)
        gid = ev["gate"]
        z = self._zone(ev)
        if gid not in self.gate_owner:
            raise Reject("unknown gate card %r" % (gid,))
        if self.gate_owner[gid] != p:
            raise Reject("gate %s belongs to %s, not %s" % (gid, self.names[self.gate_owner[gid]], self.names[p]))
        if self.gloc[gid] != UNUSED:
            raise Reject("gate %s is already %s" % (gid, "on the field" if self.gloc[gid] >= 0 else "captured"))
        if z in self.field:
            raise Reject("zone %d already holds gate %s" % (z, self.field[z]))
        self.check_gate_zone(p, z)
        if self.phase == SETUP or self.phase == REFILL:
            if self.owe[p] <= 0:
                raise Reject("%s has already placed their gate; waiting for %s" % (
                    self.names[p], ", ".join([self.names[i] for i in range(self.n) if self.owe[i] > 0])))
            self.owe[p] -= 1
            if self.phase == REFILL and p == self.turn:
                self.placed += 1  # a refill gate is the turn's one gate
        else:
            if p != self.turn:
                raise Reject("it is %s's turn, not %s's" % (self.names[self.turn], self.names[p]))
            if self.placed >= 1:
                raise Reject("only one gate may be placed per turn")
            self.placed += 1
        self.gloc[gid] = z
        self.field[z] = gid
        self.emit("placed", t, (("player", p), ("gate", gid), ("zone", z)))
        if self.phase != PLAY and not sum(self.owe):
            self.phase = PLAY
            self.emit("turn", t, (("player", self.turn),))

    def check_gate_zone(self, p, z):
        """Modes restrict where gates go (fixed layouts); official: anywhere."""
        pass

    def _ready_to_throw(self, p):
        if self.phase == SETUP or self.phase == REFILL:
            waiting = [self.names[i] for i in range(self.n) if self.owe[i] > 0]
            if self.phase == SETUP:
                raise Reject("set-up: %s must place a gate first" % ", ".join(waiting))
            raise Reject("no gate on the field: %s must place a gate first" % ", ".join(waiting))

    def on_land(self, ev, t):
        b = self._bakugan(ev)
        z = self._zone(ev)
        p = self.bak_owner[b]
        self._ready_to_throw(p)
        if p != self.turn:
            raise Reject("it is %s's turn, %s belongs to %s" % (self.names[self.turn], b, self.names[p]))
        w = self.loc[b]
        if self.all_standing(p):
            if w < 0:
                raise Reject("%s is %s" % (b, self.where(b)))
            if w == z:
                raise Reject("%s already stands on zone %d" % (b, z))
            # Rule 7: a standing Bakugan moves to another gate.
            self.stand[w].remove(b)
            if not self.stand[w]:
                del self.stand[w]
            self.loc[b] = UNUSED
            self.emit("move", t, (("bakugan", b), ("from", w), ("to", z)))
        elif w != UNUSED:
            raise Reject("%s is %s, not unused" % (b, self.where(b)))
        if z not in self.field:
            self.loc[b] = USED
            self.emit("miss", t, (("player", p), ("bakugan", b), ("reason", "no gate on zone %d" % z)))
            self.end_turn(t)
            return
        self.arrive(b, z, t)

    def on_miss(self, ev, t):
        b = self._bakugan(ev)
        p = self.bak_owner[b]
        self._ready_to_throw(p)
        if p != self.turn:
            raise Reject("it is %s's turn, %s belongs to %s" % (self.names[self.turn], b, self.names[p]))
        if self.all_standing(p):
            raise Reject("all of %s's Bakugan stand on the field: move one (land) or take a gate (choose)" % self.names[p])
        if self.loc[b] != UNUSED:
            raise Reject("%s is %s, not unused" % (b, self.where(b)))
        self.loc[b] = USED
        self.emit("miss", t, (("player", p), ("bakugan", b), ("reason", "missed")))
        self.end_turn(t)

    def arrive(self, b, z, t):
        """Bakugan b opened on zone z, which holds a gate (rules 5 and 6)."""
        p = self.bak_owner[b]
        here = self.stand.get(z)
        if not here:
            self.stand[z] = [b]
            self.loc[b] = z
            self.emit("stand", t, (("player", p), ("bakugan", b), ("zone", z)))
            self.end_turn(t)
            return
        defender = None
        for o in here:
            if self.bak_owner[o] != p:
                defender = o
                break
        here.append(b)
        self.loc[b] = z
        self.emit("stand", t, (("player", p), ("bakugan", b), ("zone", z)))
        if defender is not None:
            self.start_battle(z, b, defender, t)
            return
        # Own Bakugan already here (rule 6).
        other_gate = False
        for gz in self.field:
            if gz != z:
                other_gate = True
                break
        own_elsewhere = False
        for o in self.standing(p):
            if self.loc[o] != z:
                own_elsewhere = True
                break
        if not other_gate or own_elsewhere:
            self.capture(p, z, "double", t)
            self.end_turn(t)
        else:
            self.choice = [p, z, b]
            self.emit("choice", t, (("player", p), ("zone", z), ("bakugan", b)))

    def start_battle(self, z, attacker, defender, t):
        self.battle = [z, attacker, defender, []]
        self.emit("clash", t, (("zone", z), ("attacker", attacker), ("defender", defender)))

    def on_ability(self, ev, t):
        p = self._player(ev)
        card = ev["card"]
        if card not in self.abil[p]:
            raise Reject("%s has no ability card %r" % (self.names[p], card))
        if card in self.used_abil[p]:
            raise Reject("ability %s was already used this game" % card)
        bt = self.battle
        if bt is None:
            raise Reject("ability %s outside a battle" % card)
        if self.bak_owner[bt[1]] != p and self.bak_owner[bt[2]] != p:
            raise Reject("%s is not in this battle" % self.names[p])
        self.check_ability(p, card)
        self.used_abil[p].append(card)
        bt[3].append((p, card))
        self.emit("ability", t, (("player", p), ("card", card)))

    def check_ability(self, p, card):
        """Modes add conditions (levels, attribute matching)."""
        pass

    def on_reveal(self, ev, t):
        """The values printed on a gate card on the field, entered when it
        is turned over (the phone page): they replace the header's."""
        p = self._player(ev)
        gid = ev["gate"]
        bonus = ev["bonus"]
        if gid not in self.gate_owner:
            raise Reject("unknown gate card %r" % (gid,))
        if self.gloc[gid] < 0:
            raise Reject("gate %s is not on the field" % gid)
        if self.gate_owner[gid] != p:
            raise Reject("gate %s belongs to %s" % (gid, self.names[self.gate_owner[gid]]))
        if type(bonus) is not dict:
            raise Reject("bonus must be an object {attribute: value}")
        for a in bonus:
            if a not in _header.ATTRIBUTES or type(bonus[a]) is not int:
                raise Reject("bonus: %r is not an attribute with an integer value" % (a,))
        self.gate_bonus[gid] = dict(bonus)
        self.emit("reveal", t, (("player", p), ("gate", gid), ("bonus", dict(bonus))))

    def on_resolve(self, ev, t):
        if self.battle is None:
            raise Reject("no battle to resolve")
        self.resolve_battle(t)

    def on_choose(self, ev, t):
        p = self._player(ev)
        action = ev["action"]
        if action != "take" and action != "move":
            raise Reject("choose action must be 'take' or 'move', got %r" % (action,))
        ch = self.choice
        if ch is None:
            # Rule 7: all own Bakugan standing, no opponent on the field.
            self._ready_to_throw(p)
            if p != self.turn:
                raise Reject("nothing to choose for %s" % self.names[p])
            if action != "take" or not self.all_standing(p) or self.opponents_on_field(p):
                raise Reject("nothing to choose now")
            z = self._zone(ev)
            if z not in self.stand or self.bak_owner[self.stand[z][0]] != p:
                raise Reject("%s has no Bakugan on zone %d" % (self.names[p], z))
            self.capture(p, z, "unopposed", t)
            for b in self.standing(p):
                self._vacate(b)
                self.loc[b] = USED
            self.end_turn(t)
            return
        if p != ch[0]:
            raise Reject("the choice is %s's" % self.names[ch[0]])
        if action == "take":
            if "zone" in ev and ev["zone"] != ch[1]:
                raise Reject("the choice is about zone %d" % ch[1])
            self._take(p, ch[1], "take", t)
            return
        z = self._zone(ev)
        if z == ch[1]:
            raise Reject("move to another gate than zone %d" % z)
        if z not in self.field:
            raise Reject("no gate on zone %d" % z)
        self.choice = None
        b = ch[2]
        self._vacate(b)
        self.emit("move", t, (("bakugan", b), ("from", ch[1]), ("to", z)))
        self.arrive(b, z, t)

    def _vacate(self, b):
        z = self.loc[b]
        if z >= 0:
            s = self.stand[z]
            s.remove(b)
            if not s:
                del self.stand[z]
        self.loc[b] = UNUSED

    def _take(self, p, z, reason, t):
        self.choice = None
        self.capture(p, z, reason, t)
        self.end_turn(t)

    # ------------------------------------------------------ battle, capture
    def battle_parts(self, b, opp, gate, mods):
        """(G, gate bonus, ability total) for Bakugan b against opp."""
        p = self.bak_owner[b]
        attr = self.bak_attr[b]
        ab = 0
        nullify = False
        for (q, card) in mods:
            eff = self.abil[q][card]
            if q == p:
                if "g" in eff:
                    ab += eff["g"]
                if "attr" in eff:
                    attr = eff["attr"]
            else:
                if "opp_g" in eff:
                    ab += eff["opp_g"]
            if "nullify_gate" in eff:
                nullify = True
        bonus = 0 if nullify or gate is None else self.gate_bonus[gate].get(attr, 0)
        return (self.bak_g[b], bonus, ab)

    def battle_winner(self, attacker, defender, pa, pd):
        """Official: higher power wins, a tie goes to the one that stood first."""
        return attacker if pa > pd else defender

    def resolve_battle(self, t):
        z, att, dfd, mods = self.battle
        self.battle = None
        gate = self.field.get(z)
        a = self.battle_parts(att, dfd, gate, mods)
        d = self.battle_parts(dfd, att, gate, mods)
        pa = a[0] + a[1] + a[2]
        pd = d[0] + d[1] + d[2]
        win = self.battle_winner(att, dfd, pa, pd)
        power = {}
        power[att] = pa
        power[dfd] = pd
        parts = {}
        parts[att] = [a[0], a[1], a[2]]
        parts[dfd] = [d[0], d[1], d[2]]
        self.last_battle = (z, att, dfd, parts, win)
        self.emit("battle", t, (("zone", z), ("attacker", att), ("defender", dfd), ("power", power),
                                ("parts", parts), ("winner", win)))
        self.after_battle(z, win, att if win == dfd else dfd, t)

    def after_battle(self, z, winner, loser, t):
        self.capture(self.bak_owner[winner], z, "battle", t)
        self.end_turn(t)

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

    # ----------------------------------------------------------------- turn
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
    def expects(self):
        """(player, [Bakugan ids that may open next]) for identification:
        what the next landing can be, pending battles or choices resolved."""
        if self.phase == OVER:
            return (None, [])
        snap = None
        if self.battle is not None or self.choice is not None:
            snap = self._save()
            mark = len(self._buf)
            if self.battle is not None:
                self.resolve_battle(self.t)
            else:
                self._take(self.choice[0], self.choice[1], "take", self.t)
        p = self.turn
        if self.phase == OVER:
            res = (None, [])
        elif self.all_standing(p):
            res = (p, self.standing(p))
        else:
            res = (p, self.owned(p, UNUSED) or self.owned(p, USED))
        if snap is not None:
            del self._buf[mark:]
            self._load(snap)
        return res

    def view(self):
        """A plain snapshot for displays and the link's state query."""
        zones = {}
        for z in self.field:
            g = self.field[z]
            zones[z] = {"gate": g, "owner": self.gate_owner[g], "bakugan": list(self.stand.get(z, ()))}
        bt = None
        if self.battle is not None:
            bt = {"zone": self.battle[0], "attacker": self.battle[1], "defender": self.battle[2],
                  "abilities": [c for (_, c) in self.battle[3]]}
        lb = None
        if self.last_battle is not None:
            z, a, d, parts, w = self.last_battle
            lb = {"zone": z, "attacker": a, "defender": d, "parts": parts, "winner": w}
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


def _errtext(e):
    if isinstance(e, KeyError):
        return "missing field %s" % (e.args[0] if e.args else "?",)
    return "bad field"


def check_players(header, lo, hi):
    """Raise SetupError unless the header is valid for lo..hi players."""
    _header.check(header, lo, hi)


__all__ = ("Engine", "Reject", "SetupError", "UNUSED", "USED", "OUT")
