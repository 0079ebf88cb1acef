"""The shared referee engine: input events, placing gates, throws,
rejection. Below it: referee/battle.py (battle arithmetic, ability cards)
and referee/state.py (the pieces and where they are, capture and the turn
order, the snapshot, the view). A mode (referee/modes/*.py)
subclasses Engine and overrides the hooks listed below where its rules
differ; the official game is the engine's own behaviour, so
modes/official.py is almost empty.

Hooks a mode may override (each decides one rule; the default is the
official sheet's; docs/modes/README.md, "Writing a mode"):
    variant(header)           the class that plays a header (optional rules)
    place_card(p, g, z, t)    when and where a gate card goes down now
    check_gate_zone(p, z)     where a gate may go (touching one already down)
    ready(p)                  may p throw now (not during set-up or a refill)
    check_throw(b)            may b be thrown from the hand (or be reported missed)
    throw_failed(b, why, t)   what a failed throw does to b
    double(p, b, z, own, t)   b opened where p's own Bakugan `own` stand
    stood(p, b, z, t)         b opened alone on zone z
    start_battle(z, a, d, t)  a clash begins
    check_ability(p, card)    conditions on playing an ability card
    no_card(p, card)          the reject when p has no such ability card
    battle_cards(b, z, att)   the cards whose values add to b's power
    card_effects(b, z, att)   effects of cards besides the abilities played
    battle_parts(...)         [G, cards, abilities] of a battler
    battle_winner(a, d, pa, pd)  who wins on these powers
    after_battle(z, w, l, t)  what the battle's result does to the pieces
    check_win(p, t)           has p won after a capture
    end_turn(t), next_player(p), refresh_hand(p, t)   the turn order
    pending(kind), settle(kind, t)   what an event of `kind` settles first
    expected()                who throws next and with which Bakugan
    STATE, _extra_save(), _extra_load(x), view()   more state, more view

Input events are dicts as in the event log ({"t", "ev", ...}). Output events
go to `sink(kind, t, pairs)` where pairs is a tuple of (key, value); see
referee/events.py for their encoding and docs/formats/event-log-v1.md for the
list. Determinism: no clocks, no randomness, no dict-order dependence (ids are
kept in lists in header order), so CPython and MicroPython print the same.

An event that breaks a rule raises Reject before it changes anything. When a
battle or a choice is pending, the next other event first resolves it; if
that event is then rejected the engine restores the snapshot it took, so a
rejected event never changes the state (the snapshot is taken only then,
once per battle at most, never on the common path). One exception: when
resolving it ends the game, the result stands (its outputs first, then the
event's `reject`: the game is over) and feed returns True, as the event
decided the battle.
"""
from referee.errors import Reject, SetupError
from referee import header as _header
from referee.battle import Battle
from referee.state import (UNUSED, USED, OUT, SETUP, PLAY, REFILL, OVER,  # noqa: F401 (modes import them here)
                           COLS, touching, placed)

INPUTS = ("gate", "land", "miss", "ability", "resolve", "choose", "reveal")


class Engine(Battle):
    # Input events this mode accepts; each has a handler on_<ev>. Modes that
    # add control events extend it: INPUTS = Engine.INPUTS + ("trap",).
    INPUTS = INPUTS
    # The snapshot's dynamic attributes besides State._save's own (a mode
    # that names its own STATE names these too)
    STATE = ("acted",)
    # Inputs that may come while a battle is pending without resolving it
    # first (modes add their in-battle control events: traps, gear...).
    BATTLE_INPUTS = ("ability", "resolve", "reveal")
    # How rejects name the cards: (gate card, gate card in a sentence),
    # (ability card, ability card in a sentence).
    CARD = ("gate card", "gate")
    # Where a card is, for placed() (on a zone, in the hand, captured, out).
    CARD_WHERE = ("already on the field", "", "already captured", "already captured")
    END_NOTE = None  # a note for the `end` event (snooker: whose scoring rule)

    @classmethod
    def variant(cls, header):
        """The class that plays this header: a mode returns a subclass when
        optional header fields switch on extra rules (referee.new_game calls
        it; see referee/modes/extras.py). Default: the class itself."""
        return cls

    # ----------------------------------------------------------------- I/O
    def feed(self, ev):
        """Apply one input event. Returns True if accepted, False if rejected
        (a `reject` output event says why; the state is unchanged), True
        too when it settled a pending battle or choice that ended the game
        (the battle stands, its `reject` follows: _over_by_settling)."""
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
                    return self._over_by_settling(kind, t)
            getattr(self, "on_" + kind)(ev, t)
        except (Reject, KeyError, TypeError, ValueError) as e:
            # A malformed event from a live link: never crash the referee.
            # (Only the key is named: other exception texts differ between
            # CPython and MicroPython, and transcripts must not.)
            if snap is not None:
                self._load(snap)
            del self._buf[mark:]
            if isinstance(e, Reject):
                why = str(e)
            elif isinstance(e, KeyError):
                why = "malformed event: missing field %s" % (e.args[0] if e.args else "?",)
            else:
                why = "malformed event: bad field"
            self.emit("reject", t, (("input", kind), ("reason", why)))
            self._flush()
            return False
        self.t = t
        self._flush()
        return True

    def _over_by_settling(self, kind, t):
        """The input first settled what was pending (a battle, a choice) and
        that ended the game: the settlement stands and is reported first,
        then the input's own refusal (docs/formats/event-log-v1.md,
        `reject`). Accepted (True): the input decided the battle, so a
        journal keeps it and a replay of the kept inputs ends the same."""
        self.t = t
        self.emit("reject", t, (("input", kind), ("reason", "the game is over")))
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
            self.settle("end", t)
        self.phase = OVER       # ended: the view says so, further input is refused
        pairs = (("captured", [list(c) for c in self.captured]), ("winner", self.winner))
        if self.END_NOTE is not None:
            pairs += (("note", self.END_NOTE),)
        self.emit("end", t, pairs)
        self._flush()

    # ------------------------------------------------------------ handlers
    def on_gate(self, ev, t):
        p = self._player(ev)
        gid = ev["gate"]
        z = self._zone(ev)
        if gid not in self.gate_owner:
            raise Reject("unknown %s %r" % (self.CARD[0], gid))
        if self.gate_owner[gid] != p:
            raise Reject("%s %s belongs to %s, not %s" % (
                self.CARD[1], gid, self.names[self.gate_owner[gid]], self.names[p]))
        if self.gloc[gid] != UNUSED:
            raise Reject("%s %s is %s" % (self.CARD[1], gid, placed(self.gloc[gid], self.CARD_WHERE)))
        self.place_card(p, gid, z, t)

    def place_card(self, p, gid, z, t):
        """Player p puts gate gid (theirs, in the hand) on zone z: rules 1
        and 3 (set-up, refill: each player owing one) and 8 (one a turn)."""
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
        self.put_card(p, gid, z, t)
        if self.phase != PLAY and not sum(self.owe):
            self.phase = PLAY
            self.emit("turn", t, (("player", self.turn),))

    def check_gate_zone(self, p, z):
        """Sheet 004: "Карту можно положить в любое место на поле, так, чтобы
        она касалась уже лежащих карт либо стороной к стороне, либо углом к
        углу": a gate touches a card already down (any zone on an empty field)."""
        if not self.field:
            return
        for f in self.field:
            if touching(z, f):
                return
        raise Reject("zone %d touches no card on the field (a gate goes side to side or corner to corner "
                     "with one already down)" % z)

    def ready(self, p):
        """Raise Reject unless a throw may come now (rules 1 and 3)."""
        if self.phase == SETUP or self.phase == REFILL:
            waiting = [self.names[i] for i in range(self.n) if self.owe[i] > 0]
            if self.phase == SETUP:
                raise Reject("set-up: %s must place a gate first" % ", ".join(waiting))
            raise Reject("no gate on the field: %s must place a gate first" % ", ".join(waiting))

    def on_land(self, ev, t):
        b = self._bakugan(ev)
        z = self._zone(ev)
        p = self.bak_owner[b]
        self.ready(p)
        self.check_turn(p, b)
        w = self.loc[b]
        if self.all_standing(p):
            if w < 0:
                raise Reject("%s is %s" % (b, self.where(b)))
            if w == z:
                raise Reject("%s already stands on zone %d" % (b, z))
            # Rule 7: a standing Bakugan moves to another gate.
            self._vacate(b)
            self.emit("move", t, (("bakugan", b), ("from", w), ("to", z)))
        elif w != UNUSED:
            raise Reject("%s is %s, not unused" % (b, self.where(b)))
        if z not in self.field:
            self.throw_failed(b, "no gate on zone %d" % z, t)
            self.end_turn(t)
            return
        self.arrive(b, z, t)

    def on_miss(self, ev, t):
        b = self._bakugan(ev)
        p = self.bak_owner[b]
        self.ready(p)
        self.check_turn(p, b)
        self.check_throw(b)
        self.throw_failed(b, "missed", t)
        self.end_turn(t)

    def check_throw(self, b):
        """Raise Reject unless b may be thrown from the hand now (rule 7:
        not while all of the player's Bakugan stand on the field)."""
        p = self.bak_owner[b]
        if self.all_standing(p):
            raise Reject("all of %s's Bakugan stand on the field: move one (land) or take a gate (choose)" % self.names[p])
        if self.loc[b] != UNUSED:
            raise Reject("%s is %s, not unused" % (b, self.where(b)))

    def throw_failed(self, b, reason, t):
        """Official: a Bakugan that opened on no gate goes to the used pile."""
        self.loc[b] = USED
        self.emit("miss", t, (("player", self.bak_owner[b]), ("bakugan", b), ("reason", reason)))

    def arrive(self, b, z, t):
        """Bakugan b opened on zone z, which holds a card (rules 5 and 6)."""
        p = self.bak_owner[b]
        here = self.stand.get(z, ())
        opp = [o for o in here if self.bak_owner[o] != p]
        own = [o for o in here if self.bak_owner[o] == p]
        self.put(b, z)
        self.emit("stand", t, (("player", p), ("bakugan", b), ("zone", z)))
        if opp:
            self.start_battle(z, b, opp[0], t)
            return
        if own:
            self.double(p, b, z, own, t)
        else:
            self.stood(p, b, z, t)
        self.end_turn(t)

    def double(self, p, b, z, own, t):
        """Rule 6: two own Bakugan on one gate take it, unless it is the only
        gate on the field and they stand nowhere else: then take or move."""
        for gz in self.field:
            if gz != z:
                break
        else:
            self.capture(p, z, "double", t)
            return
        for o in self.standing(p):
            if self.loc[o] != z:
                self.capture(p, z, "double", t)
                return
        self.choice = [p, z, b]
        self.emit("choice", t, (("player", p), ("zone", z), ("bakugan", b)))

    def stood(self, p, b, z, t):
        """b opened alone on zone z (official: nothing more happens)."""
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

    def on_choose(self, ev, t):
        p = self._player(ev)
        action = ev["action"]
        if action != "take" and action != "move":
            raise Reject("choose action must be 'take' or 'move', got %r" % (action,))
        ch = self.choice
        if ch is None:
            # Rule 7: all own Bakugan standing, no opponent on the field.
            self.ready(p)
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

    def _take(self, p, z, reason, t):
        self.choice = None
        self.capture(p, z, reason, t)
        self.end_turn(t)

    # ---------------------------------------------------------------- views
    def expects(self):
        """(player, [Bakugan ids that may open next]) for identification:
        what the next landing can be, pending battles or choices resolved."""
        if self.phase == OVER:
            return (None, [])
        snap = None
        if self.pending("land"):
            snap = self._save()
            mark = len(self._buf)
            self.settle("land", self.t)
        res = (None, []) if self.phase == OVER else self.expected()
        if snap is not None:
            del self._buf[mark:]
            self._load(snap)
        return res

    def expected(self):
        """expects() once nothing is pending and the game is not over."""
        p = self.turn
        if self.all_standing(p):
            return (p, self.standing(p))
        return (p, self.owned(p, UNUSED) or self.owned(p, USED))


__all__ = ("Engine", "Reject", "SetupError", "UNUSED", "USED", "OUT")
