"""Shared base of the Chinese variant modes (rule sheets 000 and 001):
fortress, snooker, zhulu, shenghui, zhanguo, longhu, longhu_support,
normandy, beach, beach2, baolie, compass. Rules and decisions of each:
docs/modes/<mode>.md; the control events added here: docs/modes/README.md.

What the variants share and the official game does not have:
- zones with a card position ("active" zones) that may lose their card for a
  while (a consumed card is refilled from the loser's hand: a blocking
  `refill`, settled by a `gate` event);
- a throw is one Bakugan from the hand or from the card it stands on; a
  throw that does not open on a card it may reach fails (`miss`);
- ties go to the attacker (the one that landed later);
- Bakugan seized by the battle winner (scored, never thrown again), Bakugan
  and cards put out of play (`void`), scores as seized G + captured HSP with
  a tie-break on the pieces left;
- two own Bakugan on one card: the player picks one (`pick`), the default
  being that the one already there stays;
- support and item cards (the header's abilities): played only when behind,
  attribute matching, once per game, no command twice;
- players leaving the game and clockwise turns skipping them.

This base hooks into the engine (the hooks: referee/engine.py) and adds
its own for the modes (listed below, under "mode hooks"); its table (the
state above, the score, the view) is modes/variant_state.py. What is pending
(a battle, a pick) is settled by settle() before an event not addressed to
it. As in the engine, handlers check everything before changing anything,
and a snapshot restores what settling changed when the event is then
rejected, so a rejected event changes nothing.
"""
from referee.engine import Engine, OVER, PLAY, REFILL, SETUP, UNUSED
from referee.errors import Reject
from referee.modes.variant_state import VariantState, _show  # noqa: F401 (modes import _show here)


class Variant(VariantState):
    ABILITY = "card"  # how rejects name an ability card
    TIES_TO_ATTACKER = True  # the attacker landed later
    INPUTS = Engine.INPUTS + ("pick", "pass", "item")
    # Inputs addressed to a pending battle (any other resolves it first).
    BATTLE_INPUTS = Engine.BATTLE_INPUTS + ("pick", "pass")
    # Ability cards: None (the mode has none), "support" (played only when
    # behind), "item" (support + attribute match + no command twice),
    # "set_item" (beach2: the item set in one's area, attacker first).
    ABILITIES = None
    RELAND = False  # snooker: a Bakugan may be thrown again onto its own card
    def __init__(self, header, sink=None):
        VariantState.__init__(self, header, sink)
        self.check_kit(header)
        self.check_header(header)
        self.owe = [self.opening(i) for i in range(self.n)]
        self.init_state()

    # ------------------------------------------------------------ mode hooks
    def check_header(self, header):
        """Mode-specific header checks: raise SetupError naming the field."""
        pass

    def init_state(self):
        pass

    def opening(self, p):
        """Cards player p places at set-up."""
        return 1

    def setup_zones(self, p):
        """Zones where player p may place set-up cards (None: any zone)."""
        return None

    def setup_done(self):
        """Besides the set-up cards (longhu: Bakugan pre-placed too)."""
        return True

    def setup_land(self, b, z, t):
        self.ready(self.bak_owner[b])

    def setup_expects(self):
        return (self.turn, [])

    def throwable(self, p):
        """Bakugan player p may throw now (for identification)."""
        return self.owned(p, UNUSED)

    def check_throw(self, b):
        """Raise Reject unless b may be thrown now (default: from the hand)."""
        if self.loc[b] != UNUSED:
            raise Reject("%s is %s, not in the hand" % (b, self.where(b)))

    def targets(self, b):
        """Zones where b may open this throw (default: every card position)."""
        return self.active

    def target_problem(self, b, z):
        """Why landing b on zone z is a failed throw, or None."""
        if z not in self.active:
            return "no card on zone %d" % z
        if z not in self.targets(b):
            w = self.loc[b]
            return "zone %d cannot be reached from %s" % (z, "zone %d" % w if w >= 0 else "the hand")
        return None

    def throw_failed(self, b, reason, t):
        """Default: the Bakugan goes back where it was thrown from."""
        self.emit("miss", t, (("player", self.bak_owner[b]), ("bakugan", b), ("reason", reason)))
        if self.loc[b] >= 0:
            self.expect_back(b)

    def double(self, p, b, z, own, t):
        """b landed where p's Bakugan `own` already stand (no opponent).
        Default: one own Bakugan per card, the player picks which stays."""
        self.choice = [p, z, b]
        self.emit("pick", t, (("player", p), ("zone", z), ("options", own + [b]), ("for", "stay")))

    def after_battle(self, z, win, lose, t):
        """After the battle arithmetic: move the pieces (mode rules).
        Default: the loser goes back to the hand."""
        self.send_back(lose, "lost the battle", t)

    def check_end(self, t):
        """After each resolved throw or refill: leaving, game over."""
        pass

    def turn_done(self):
        return True

    def new_turn(self, t):
        pass

    # ------------------------------------------------------------------ I/O
    def settle(self, kind, t):
        """Resolve what is pending and not addressed by an event of `kind`."""
        while self.phase != OVER:
            if self.battle is not None:
                if kind in self.BATTLE_INPUTS:
                    return
                self.resolve_battle(t)
            elif self.choice is not None:
                if kind == "pick":
                    return
                ch = self.choice
                keep = [o for o in self.stand[ch[1]] if o != ch[2] and self.bak_owner[o] == ch[0]]
                self.choice = None
                self.keep(ch[0], ch[1], keep[0], t)
                self.end_turn(t)
            else:
                return

    # -------------------------------------------------------------- helpers
    def ready(self, p):
        if self.phase == SETUP:
            raise Reject("set-up: %s" % self.setup_waiting())
        if self.refills:
            r = self.refills[0]
            raise Reject("%s must first place a card on zone %d" % (self.names[r[0]], r[1]))

    def setup_waiting(self):
        w = [self.names[i] for i in range(self.n) if self.owe[i] > 0]
        if w:
            return "%s must place their cards first" % ", ".join(w)
        return "set-up is not finished"

    def behind(self, p):
        """Would p lose the pending battle as it stands (ties go to the
        attacker)?"""
        z, att, dfd, mods = self.battle
        a = self.battle_parts(att, dfd, z, mods, att)
        d = self.battle_parts(dfd, att, z, mods, att)
        pa = a[0] + a[1] + a[2]
        pd = d[0] + d[1] + d[2]
        if self.bak_owner[att] == p:
            return pa < pd
        return pd <= pa

    # ------------------------------------------------------------- handlers
    def place_card(self, p, gid, z, t):
        """Cards go down at set-up (on the zones setup_zones() allows) and
        to refill a zone a player owes a card (refills)."""
        if self.phase == SETUP:
            if self.owe[p] <= 0:
                raise Reject("%s has placed all their set-up cards" % self.names[p])
            if z in self.field:
                raise Reject("zone %d already holds card %s" % (z, self.field[z]))
            zs = self.setup_zones(p)
            if zs is not None and z not in zs:
                raise Reject("%s's set-up cards go on zone %s, not zone %d" % (
                    self.names[p], " or ".join([str(x) for x in zs]), z))
            self.owe[p] -= 1
            self.put_card(p, gid, z, t)
            self.maybe_start(t)
            return
        mine = [r[1] for r in self.refills if r[0] == p]
        if not mine:
            if self.refills:
                r = self.refills[0]
                raise Reject("%s owes no card; %s must place a card on zone %d" % (self.names[p], self.names[r[0]], r[1]))
            raise Reject("cards are placed only at set-up and to refill a zone")
        if z not in mine:
            raise Reject("%s must place the card on zone %s" % (self.names[p], " or ".join([str(x) for x in mine])))
        for i in range(len(self.refills)):
            if self.refills[i][0] == p and self.refills[i][1] == z:
                del self.refills[i]
                break
        self.put_card(p, gid, z, t)
        if self.refills:
            return
        self.check_end(t)
        if self.phase == OVER:
            return
        if self.skips(self.turn):
            self.turn = self.next_player(self.turn)
            self.new_turn(t)
        self.phase = PLAY
        self.emit("turn", t, (("player", self.turn),))

    def maybe_start(self, t):
        if self.phase == SETUP and not sum(self.owe) and self.setup_done():
            self.phase = PLAY
            self.check_end(t)
            if self.phase == OVER:
                return
            if self.skips(self.turn):
                self.turn = self.next_player(self.turn)
            self.emit("turn", t, (("player", self.turn),))

    def on_land(self, ev, t):
        # The variants' own throw (not the engine's rule 7 move): from the
        # hand or from the card it stands on, to the zones it can reach
        # (targets), a failed one going back (throw_failed), a Bakugan put
        # back by hand confirmed silently.
        b = self._bakugan(ev)
        z = self._zone(ev)
        p = self.bak_owner[b]
        if self.phase == SETUP:
            self.setup_land(b, z, t)
            return
        if b in self.put_back and self.loc[b] == z:
            self.put_back.remove(b)
            return
        self.ready(p)
        if self.loc[b] == z and not self.RELAND:
            # Put back by hand where the referee already has it (after a
            # failed throw from a card, a step back, a turn): not a throw.
            raise Reject("%s already stands on zone %d" % (b, z))
        self.check_turn(p, b)
        self.check_throw(b)
        why = self.target_problem(b, z)
        if why is not None:
            self.throw_failed(b, why, t)
            self.end_turn(t)
            return
        w = self.loc[b]
        self.prev[b] = w
        if w >= 0:
            self.lift(b)
            self.emit("move", t, (("bakugan", b), ("from", w), ("to", z)))
        self.arrive(b, z, t)

    def start_battle(self, z, attacker, defender, t):
        Engine.start_battle(self, z, attacker, defender, t)
        q = self.bak_owner[defender]
        mine = self.own_on(q, z)
        if len(mine) > 1:
            self.emit("pick", t, (("player", q), ("zone", z), ("options", mine), ("for", "fight")))

    def on_pick(self, ev, t):
        p = self._player(ev)
        b = self._bakugan(ev)
        if self.battle is not None:
            z = self.battle[0]
            q = self.bak_owner[self.battle[2]]
            mine = self.own_on(p, z)
            if p != q or len(mine) < 2:
                raise Reject("%s has nothing to pick in this battle" % self.names[p])
            if b not in mine:
                raise Reject("%s does not stand on zone %d" % (b, z))
            self.battle[2] = b
            self.emit("picked", t, (("player", p), ("bakugan", b), ("for", "fight")))
            return
        ch = self.choice
        if ch is None:
            raise Reject("nothing to pick")
        if p != ch[0]:
            raise Reject("the pick is %s's" % self.names[ch[0]])
        if b not in self.own_on(p, ch[1]):
            raise Reject("%s does not stand on zone %d" % (b, ch[1]))
        self.choice = None
        self.keep(p, ch[1], b, t, True)
        self.end_turn(t)

    def on_reveal(self, ev, t):
        """The engine's reveal (a card's values entered when it is turned
        over), plus an optional "hsp": the card's printed score value."""
        hsp = ev.get("hsp")
        if hsp is not None and (type(hsp) is not int or hsp < 0):
            raise Reject("hsp must be a non-negative integer")
        Engine.on_reveal(self, ev, t)
        if hsp is not None:
            self.hsp[ev["gate"]] = hsp
            kind, t0, pairs = self._buf[-1]
            self._buf[-1] = (kind, t0, pairs + (("hsp", hsp),))

    def on_choose(self, ev, t):
        """choose, pass and item, in a mode that has none of them."""
        k = ev["ev"]
        if k == "pass":
            raise Reject("nothing to pass")
        raise Reject(("mode %s sets no item cards" if k == "item" else
                      "mode %s has no take-or-move choice (pick names a Bakugan)") % self.MODE)

    on_pass = on_item = on_choose

    # --------------------------------------------------------------- battle
    def no_card(self, p, card):
        if self.ABILITIES is None:
            return "mode %s has no ability cards" % self.MODE
        return "%s has no card %r" % (self.names[p], card)

    def check_ability(self, p, card):
        """The sheets' conditions on support and item cards (ABILITIES)."""
        bt = self.battle
        fighter = bt[1] if self.bak_owner[bt[1]] == p else bt[2]
        if p in self.acted and self.ABILITIES == "set_item":
            raise Reject("%s has already decided for this battle" % self.names[p])
        kind = self.ABILITIES
        if kind == "item" or kind == "set_item":
            need = self.abil_attr[p][card]
            if need is not None and need != self.bak_attr[fighter]:
                raise Reject("item %s works only for a %s Bakugan; %s is %s" % (card, need, fighter, self.bak_attr[fighter]))
            cmd = self.abil_cmd[p][card]
            for c in self.used_abil[p]:
                if self.abil_cmd[p][c] == cmd:
                    raise Reject("%s already used the command %s (card %s)" % (self.names[p], cmd, c))
        if kind == "support" or kind == "item":
            if not self.behind(p):
                raise Reject("%s may play %s only when behind in the battle" % (self.names[p], card))

    # ----------------------------------------------------------------- turn
    def end_turn(self, t):
        if self.phase == OVER or self.battle is not None or self.choice is not None:
            return
        self.check_end(t)
        if self.phase == OVER:
            return
        changed = False
        if self.turn_done() or self.skips(self.turn):
            self.turn = self.next_player(self.turn)
            changed = True
            self.new_turn(t)
        if self.refills:
            self.phase = REFILL
        elif changed or self.phase != PLAY:
            self.phase = PLAY
            self.emit("turn", t, (("player", self.turn),))

    # ---------------------------------------------------------------- views
    def expected(self):
        if self.phase == SETUP:
            return self.setup_expects()
        ids = self.throwable(self.turn)
        for b in self.put_back:
            if b not in ids:
                ids.append(b)
        return (self.turn, ids)
