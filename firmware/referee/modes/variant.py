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

This base overrides the engine's feed() to settle what is pending (a battle,
a pick) before an event not addressed to it (INPUTS and BATTLE_INPUTS as in
the engine). As in the engine, handlers check everything before changing
anything, and a snapshot restores what settling changed when the event is
then rejected, so a rejected event changes nothing.
"""
from referee.engine import Engine, OUT, OVER, PLAY, REFILL, SETUP, UNUSED, USED
from referee.errors import Reject, SetupError
from referee import header as _header

ATTRIBUTES = _header.ATTRIBUTES


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


def _show(v):
    s = repr(v)
    return s if len(s) < 40 else s[:37] + "..."


class Variant(Engine):
    INPUTS = Engine.INPUTS + ("pick", "pass", "item")
    # Inputs addressed to a pending battle (any other resolves it first).
    BATTLE_INPUTS = Engine.BATTLE_INPUTS + ("pick", "pass")
    # Ability cards: None (the mode has none), "support" (played only when
    # behind), "item" (support + attribute match + no command twice),
    # "set_item" (beach2: the item set in one's area, attacker first).
    ABILITIES = None
    MAX_ABILITIES = 0
    HSP_DEFAULT = 0  # a card's score value when the header gives no "hsp"
    RELAND = False  # snooker: a Bakugan may be thrown again onto its own card
    # What the sheet has each player bring: ((key, count, the sheet's words),
    # ...), key "bakugan" or "cards" (exact counts) or "attributes" (at least
    # that many different attributes among a player's Bakugan).
    # The header's optional "kit" object sets another count (0: any) for
    # players who own other sets (docs/modes/README.md, "Header fields").
    KIT = ()
    KIT_TOTAL = ()  # keys counted over all players together (snooker's cards)
    END_NOTE = None  # a note for the `end` event (snooker: whose scoring rule)
    # Dynamic state besides the engine's, copied by the snapshot.
    STATE = ("active", "prev", "seized", "prizes", "void_b", "void_c", "void_i", "gone",
             "refills", "acted", "hsp", "put_back")

    def __init__(self, header, sink=None):
        Engine.__init__(self, header, sink)
        players = header["players"]
        n = self.n
        self.hsp = {}
        self.abil_attr = []
        self.abil_cmd = []
        self.abil_hsp = []
        for i in range(n):
            p = players[i]
            where = "players[%d]" % i
            gates = p["gates"]
            for j in range(len(gates)):
                gt = gates[j]
                v = gt.get("hsp", self.HSP_DEFAULT)
                if type(v) is not int or v < 0:
                    raise SetupError("%s.gates[%d].hsp: expected a non-negative integer, got %s" % (where, j, _show(v)))
                self.hsp[gt["id"]] = v
            abil = p.get("abilities", [])
            if len(abil) > self.MAX_ABILITIES:
                if self.MAX_ABILITIES == 0:
                    raise SetupError("%s.abilities: mode %s has no ability cards" % (where, self.MODE))
                raise SetupError("%s.abilities: mode %s allows at most %d per player, got %d" % (
                    where, self.MODE, self.MAX_ABILITIES, len(abil)))
            at = {}
            cmd = {}
            hs = {}
            for j in range(len(abil)):
                a = abil[j]
                w = "%s.abilities[%d]" % (where, j)
                aid = a["id"]
                v = a.get("attr")
                if v is not None and v not in ATTRIBUTES:
                    raise SetupError("%s.attr: unknown attribute %s (known: %s)" % (w, _show(v), ", ".join(ATTRIBUTES)))
                at[aid] = v
                v = a.get("command", aid)
                if type(v) is not str or not v:
                    raise SetupError("%s.command: expected a non-empty string, got %s" % (w, _show(v)))
                cmd[aid] = v
                v = a.get("hsp", 0)
                if type(v) is not int or v < 0:
                    raise SetupError("%s.hsp: expected a non-negative integer, got %s" % (w, _show(v)))
                hs[aid] = v
            self.abil_attr.append(at)
            self.abil_cmd.append(cmd)
            self.abil_hsp.append(hs)
        self.check_kit(header)
        self.check_header(header)
        self.owe = [self.opening(i) for i in range(n)]
        self.active = []  # zones with a card position, sorted
        self.prev = {}  # Bakugan -> where it was thrown from last (zone or UNUSED)
        self.seized = [[] for _ in range(n)]  # Bakugan taken by each player
        self.prizes = [[] for _ in range(n)]  # [owner, item card] taken by each player
        self.void_b = []  # Bakugan out of play, not scored
        self.void_c = []  # cards out of play
        self.void_i = []  # [owner, item card] out of play
        self.gone = [0] * n  # 1: the player has left the game
        self.refills = []  # [[player, zone]] cards owed, in order
        self.acted = []  # players who played a card or passed in this battle
        # Bakugan the referee has standing on a zone where the players still
        # have to put them by hand (after a failed throw from a card, a step
        # back, the compass turn): expects() offers them to identification,
        # and their landing there is a silent confirmation, not a throw.
        self.put_back = []
        self.init_state()

    def check_kit(self, header):
        """The sheet's counts (KIT), or the header's kit where it sets one."""
        kit = header.get("kit", {})
        if type(kit) is not dict:
            raise SetupError("header.kit: expected an object")
        keys = [k[0] for k in self.KIT]
        for k in kit:
            if k not in keys or type(kit[k]) is not int or kit[k] < 0:
                raise SetupError("header.kit.%s: mode %s counts %s, each a non-negative integer (0: any)" % (
                    k, self.MODE, ", ".join(keys) or "nothing"))
        players = header["players"]
        for (k, sheet, words) in self.KIT:
            want = kit.get(k, sheet)
            total = k in self.KIT_TOTAL
            got = 0
            for i in range(self.n):
                if k == "attributes":  # at least `want` different ones
                    seen = []
                    for b in players[i]["bakugan"]:
                        if b["attr"] not in seen:
                            seen.append(b["attr"])
                    got = len(seen)
                    bad = got < want
                else:
                    got = got + len(players[i]["gates" if k == "cards" else k]) if total else \
                        len(players[i]["gates" if k == "cards" else k])
                    bad = got != want and (not total or i == self.n - 1)
                if want and bad:
                    raise SetupError("%s: mode %s needs %d %s%s, got %d (%s)" % (
                        "header.players" if total else "players[%d].%s" % (i, "gates" if k == "cards" else "bakugan"),
                        self.MODE, want, "different attributes" if k == "attributes" else k,
                        " in all" if total else " per player", got,
                        "header.kit.%s" % k if k in kit else "the sheet: %s; header.kit.%s changes the count" % (words, k)))

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

    def check_setup_zone(self, p, z):
        zs = self.setup_zones(p)
        if zs is not None and z not in zs:
            raise Reject("%s's set-up cards go on zone %s, not zone %d" % (
                self.names[p], " or ".join([str(x) for x in zs]), z))

    def setup_done(self):
        """Besides the set-up cards (longhu: Bakugan pre-placed too)."""
        return True

    def setup_land(self, b, z, t):
        self._ready(self.bak_owner[b])

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
            return "zone %d cannot be reached from %s" % (z, self._origin(b))
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

    def stood(self, p, b, z, t):
        """b opened alone (or beside own Bakugan the mode allows)."""
        pass

    def battle_cards(self, b, z, att):
        """Cards whose value for b's attribute adds to b's power."""
        g = self.field.get(z)
        return [g] if g is not None else []

    def card_effects(self, b, z, att):
        """Extra (player, effect) pairs applying in this battle."""
        return []

    def battle_over(self, z, win, lose, t):
        """After the battle arithmetic: move the pieces (mode rules)."""
        self.send_back(lose, "lost the battle", t)

    def check_end(self, t):
        """After each resolved throw or refill: leaving, game over."""
        pass

    def turn_done(self):
        return True

    def new_turn(self, t):
        pass

    def zone_owner(self, z):
        g = self.field.get(z)
        return None if g is None else self.gate_owner[g]

    def zone_role(self, z):
        return "card"

    def roles(self):
        """{zone: [owner, role]} of the mode's fixed layout (for displays)."""
        return {}

    def tiebreak(self, p):
        """Second key of the final ranking: pieces left (own Bakugan and
        cards neither seized, captured nor out of play)."""
        k = 0
        for b in self.bak_ids:
            if self.bak_owner[b] == p and self.loc[b] != OUT:
                k += 1
        for g in self.gate_ids:
            if self.gate_owner[g] == p and self.gloc[g] != OUT and self.gloc[g] != USED:
                k += 1
        return k

    # ------------------------------------------------------------------ I/O
    # feed() is the engine's; what is pending here (a battle, a pick) is
    # settled by settle() below.
    def pending(self, kind):
        return self.battle is not None or self.choice is not None

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

    def finish(self, t=None):
        if t is None:
            t = self.t
        if self.phase != OVER:
            self.settle("end", t)
        pairs = (("captured", [list(c) for c in self.captured]), ("winner", self.winner))
        if self.END_NOTE is not None:
            pairs += (("note", self.END_NOTE),)
        self.emit("end", t, pairs)
        self._flush()

    def _extra_save(self):
        return [_copy(getattr(self, k)) for k in self.STATE]

    def _extra_load(self, extra):
        i = 0
        for k in self.STATE:
            setattr(self, k, extra[i])
            i += 1

    # -------------------------------------------------------------- helpers
    def _origin(self, b):
        w = self.loc[b]
        return "zone %d" % w if w >= 0 else "the hand"

    def _ready(self, p):
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

    def _turn_check(self, p, b):
        if p != self.turn:
            raise Reject("it is %s's turn, %s belongs to %s" % (self.names[self.turn], b, self.names[p]))

    def in_game(self):
        return [p for p in range(self.n) if not self.gone[p]]

    def skips(self, p):
        """True if p's turns are skipped: p has left (central-battlefield
        modes: or has no Bakugan in the hand, all standing on cards)."""
        return self.gone[p]

    def next_player(self, p):
        for i in range(1, self.n + 1):
            q = (p + i) % self.n
            if not self.skips(q):
                return q
        return p

    def own_on(self, p, z):
        return [o for o in self.stand.get(z, ()) if self.bak_owner[o] == p]

    def card_where(self, g):
        w = self.gloc[g]
        if w >= 0:
            return "on zone %d" % w
        if w == USED:
            return "captured"
        if w == OUT:
            return "out of play"
        return "in the hand"

    def activate(self, z):
        if z not in self.active:
            self.active.append(z)
            self.active.sort()

    def deactivate(self, z):
        if z in self.active:
            self.active.remove(z)

    def put_card(self, p, gid, z, t):
        self.gloc[gid] = z
        self.field[z] = gid
        self.activate(z)
        self.emit("placed", t, (("player", p), ("gate", gid), ("zone", z)))

    def put(self, b, z):
        s = self.stand.get(z)
        if s is None:
            s = []
            self.stand[z] = s
        s.append(b)
        self.loc[b] = z

    def _vacate(self, b):
        Engine._vacate(self, b)
        if b in self.put_back:
            self.put_back.remove(b)

    def expect_back(self, b):
        """b stands on its zone for the referee but must be put there by
        hand."""
        if b not in self.put_back:
            self.put_back.append(b)

    def lift(self, b):
        """Take b off the zone it stands on (it is being thrown or moved)."""
        self._vacate(b)

    def send_back(self, b, reason, t):
        """b goes back to its owner's launch point (the hand)."""
        self._vacate(b)
        self.emit("back", t, (("player", self.bak_owner[b]), ("bakugan", b), ("reason", reason)))

    def seize(self, p, b, t):
        """Player p takes Bakugan b (scored as its G, never thrown again)."""
        self._vacate(b)
        self.loc[b] = OUT
        self.seized[p].append(b)
        self.emit("seize", t, (("player", p), ("bakugan", b)))

    def retire(self, b, reason, t):
        """b leaves play without being scored (the sheets' 作废)."""
        self._vacate(b)
        self.loc[b] = OUT
        self.void_b.append(b)
        self.emit("void", t, (("what", "bakugan"), ("id", b), ("reason", reason)))

    def take_card(self, p, z, reason, t):
        """Player p captures the card on zone z (scored as its HSP); the
        zone keeps its position, waiting for a refill."""
        gid = self.field.pop(z)
        self.gloc[gid] = USED
        self.captured[p].append(gid)
        self.emit("capture", t, (("player", p), ("gate", gid), ("zone", z), ("reason", reason)))

    def void_card(self, z, reason, t):
        gid = self.field.pop(z)
        self.gloc[gid] = OUT
        self.void_c.append(gid)
        self.emit("void", t, (("what", "card"), ("id", gid), ("reason", reason)))

    def owe_refill(self, p, z, t):
        """p must place a card from the hand on zone z; False if p has none
        (or has left the game)."""
        if self.gone[p] or not self.gates_in_hand(p):
            return False
        self.refills.append([p, z])
        self.emit("refill", t, (("player", p), ("zone", z)))
        return True

    def keep(self, p, z, b, t, picked=False):
        """Of p's Bakugan on zone z, b stays; the others go back to the hand."""
        if picked:
            self.emit("picked", t, (("player", p), ("bakugan", b), ("for", "stay")))
        for o in self.own_on(p, z):
            if o != b:
                self.send_back(o, "one Bakugan per card", t)

    def leave(self, p, reason, t):
        """p leaves: what is left in the hand is out of play; Bakugan on
        the field still fight."""
        self.gone[p] = 1
        self.emit("leave", t, (("player", p), ("reason", reason)))
        for b in self.owned(p, UNUSED):
            self.retire(b, "left the game", t)
        for g in self.gates_in_hand(p):
            self.gloc[g] = OUT
            self.void_c.append(g)
            self.emit("void", t, (("what", "card"), ("id", g), ("reason", "left the game")))

    def check_leaves(self, t):
        """The central-battlefield rule (zhulu's sheet): "玩家输完爆丸或卡片
        则要退场": a player who has lost all their Bakugan (none in the hand
        or on the field) or all their cards (likewise) leaves; "当只剩一位
        玩家同时有爆丸和卡片时，该局游戏结束": with one player left the game
        is scored. A player whose Bakugan all stand on cards stays (skips()
        passes their turns); when nobody still in the game has a Bakugan in
        the hand, nobody can throw and the game is scored too."""
        owing = [r[0] for r in self.refills]
        for p in range(self.n):
            if self.gone[p] or p in owing:
                continue  # a player owing a refill places it first
            if not self.owned(p, UNUSED) and not self.standing(p):
                self.leave(p, "lost all their Bakugan", t)
            elif not self.gates_in_hand(p) and not self.cards_down(p):
                self.leave(p, "lost all their cards", t)
        left = self.in_game()
        if len(left) <= 1:
            self.final(t, "one player left" if left else "no player left")
            return
        if not self.refills:
            for p in left:
                if self.owned(p, UNUSED):
                    return
            self.final(t, "no Bakugan left in any hand")

    def cards_down(self, p):
        """p's cards on the field."""
        return [g for g in self.gate_ids if self.gate_owner[g] == p and self.gloc[g] >= 0]

    def declare(self, p, t, reason=None):
        self.winner = p
        self.phase = OVER
        self.battle = None
        self.choice = None
        if reason is None:
            self.emit("win", t, (("player", p),))
        else:
            self.emit("win", t, (("player", p), ("reason", reason)))

    def score(self, p):
        s = 0
        for b in self.seized[p]:
            s += self.bak_g[b]
        for g in self.captured[p]:
            s += self.hsp[g]
        for (q, c) in self.prizes[p]:
            s += self.abil_hsp[q][c]
        return s

    def final(self, t, reason):
        """Game over by the rules: rank by score, then by tiebreak()."""
        scores = [self.score(p) for p in range(self.n)]
        left = [self.tiebreak(p) for p in range(self.n)]
        self.emit("score", t, (("scores", scores), ("left", left), ("reason", reason)))
        best = max(scores)
        cands = [p for p in range(self.n) if scores[p] == best]
        if len(cands) > 1:
            most = max([left[p] for p in cands])
            cands = [p for p in cands if left[p] == most]
        if len(cands) == 1:
            self.declare(cands[0], t)
            return
        self.phase = OVER
        self.battle = None
        self.choice = None
        self.emit("stalemate", t, (("reason", "draw: %s tie on score and pieces left" % " and ".join(
            [self.names[p] for p in cands])),))

    def behind(self, p):
        """Would p lose the pending battle as it stands (ties go to the
        attacker)?"""
        z, att, dfd, mods = self.battle
        a = self.parts(att, dfd, z, mods, att)
        d = self.parts(dfd, att, z, mods, att)
        pa = a[0] + a[1] + a[2]
        pd = d[0] + d[1] + d[2]
        if self.bak_owner[att] == p:
            return pa < pd
        return pd <= pa

    # ------------------------------------------------------------- handlers
    def on_gate(self, ev, t):
        p = self._player(ev)
        gid = ev["gate"]
        z = self._zone(ev)
        if gid not in self.gate_owner:
            raise Reject("unknown card %r" % (gid,))
        if self.gate_owner[gid] != p:
            raise Reject("card %s belongs to %s, not %s" % (gid, self.names[self.gate_owner[gid]], self.names[p]))
        if self.gloc[gid] != UNUSED:
            raise Reject("card %s is %s" % (gid, self.card_where(gid)))
        if self.phase == SETUP:
            if self.owe[p] <= 0:
                raise Reject("%s has placed all their set-up cards" % self.names[p])
            if z in self.field:
                raise Reject("zone %d already holds card %s" % (z, self.field[z]))
            self.check_setup_zone(p, z)
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
        b = self._bakugan(ev)
        z = self._zone(ev)
        p = self.bak_owner[b]
        if self.phase == SETUP:
            self.setup_land(b, z, t)
            return
        if b in self.put_back and self.loc[b] == z:
            self.put_back.remove(b)
            return
        self._ready(p)
        if self.loc[b] == z and not self.RELAND:
            # Put back by hand where the referee already has it (after a
            # failed throw from a card, a step back, a turn): not a throw.
            raise Reject("%s already stands on zone %d" % (b, z))
        self._turn_check(p, b)
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

    def on_miss(self, ev, t):
        b = self._bakugan(ev)
        p = self.bak_owner[b]
        self._ready(p)
        self._turn_check(p, b)
        self.check_throw(b)
        self.throw_failed(b, "missed", t)
        self.end_turn(t)

    def arrive(self, b, z, t):
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

    def start_battle(self, z, attacker, defender, t):
        self.battle = [z, attacker, defender, []]
        self.acted = []
        self.emit("clash", t, (("zone", z), ("attacker", attacker), ("defender", defender)))
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
        raise Reject("mode %s has no take-or-move choice (pick names a Bakugan)" % self.MODE)

    def on_pass(self, ev, t):
        raise Reject("nothing to pass")

    def on_item(self, ev, t):
        raise Reject("mode %s sets no item cards" % self.MODE)

    def on_ability(self, ev, t):
        p = self._player(ev)
        card = ev["card"]
        if self.ABILITIES is None:
            raise Reject("mode %s has no ability cards" % self.MODE)
        if card not in self.abil[p]:
            raise Reject("%s has no card %r" % (self.names[p], card))
        if card in self.used_abil[p]:
            raise Reject("card %s was already used this game" % card)
        bt = self.battle
        if bt is None:
            raise Reject("card %s outside a battle" % card)
        att = bt[1]
        if self.bak_owner[att] == p:
            fighter = att
        elif self.bak_owner[bt[2]] == p:
            fighter = bt[2]
        else:
            raise Reject("%s is not in this battle" % self.names[p])
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
        self.check_ability(p, card)
        self.used_abil[p].append(card)
        bt[3].append((p, card))
        if p not in self.acted:
            self.acted.append(p)
        self.emit("ability", t, (("player", p), ("card", card)))

    # --------------------------------------------------------------- battle
    def parts(self, b, opp, z, mods, att):
        """[G, cards, abilities] of b in the battle on z (att: attacker)."""
        p = self.bak_owner[b]
        attr = self.bak_attr[b]
        effects = [(q, self.abil[q][c]) for (q, c) in mods] + self.card_effects(b, z, att)
        ab = 0
        nullify = False
        for (q, eff) in effects:
            if q == p:
                if "g" in eff:
                    ab += eff["g"]
                if "attr" in eff:
                    attr = eff["attr"]
            elif "opp_g" in eff:
                ab += eff["opp_g"]
            if "nullify_gate" in eff:
                nullify = True
        cards = 0
        if not nullify:
            for g in self.battle_cards(b, z, att):
                cards += self.gate_bonus[g].get(attr, 0)
        return [self.bak_g[b], cards, ab]

    def resolve_battle(self, t):
        z, att, dfd, mods = self.battle
        self.battle = None
        a = self.parts(att, dfd, z, mods, att)
        d = self.parts(dfd, att, z, mods, att)
        pa = a[0] + a[1] + a[2]
        pd = d[0] + d[1] + d[2]
        win = att if pa >= pd else dfd  # ties: the attacker (landed later)
        lose = dfd if win == att else att
        power = {}
        power[att] = pa
        power[dfd] = pd
        parts = {}
        parts[att] = a
        parts[dfd] = d
        self.last_battle = (z, att, dfd, parts, win)
        self.emit("battle", t, (("zone", z), ("attacker", att), ("defender", dfd), ("power", power),
                                ("parts", parts), ("winner", win)))
        self.battle_over(z, win, lose, t)
        self.acted = []
        self.end_turn(t)

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
    def expects(self):
        if self.phase == OVER:
            return (None, [])
        snap = self._save()
        mark = len(self._buf)
        self.settle("land", self.t)
        if self.phase == OVER:
            res = (None, [])
        elif self.phase == SETUP:
            res = self.setup_expects()
        else:
            ids = self.throwable(self.turn)
            for b in self.put_back:
                if b not in ids:
                    ids.append(b)
            res = (self.turn, ids)
        del self._buf[mark:]
        self._load(snap)
        return res

    def view(self):
        zones = {}
        for z in self.active:
            zones[z] = {"gate": self.field.get(z), "owner": self.zone_owner(z),
                        "bakugan": list(self.stand.get(z, ())), "role": self.zone_role(z)}
        bt = None
        if self.battle is not None:
            bt = {"zone": self.battle[0], "attacker": self.battle[1], "defender": self.battle[2],
                  "abilities": [c for (_, c) in self.battle[3]]}
        lb = None
        if self.last_battle is not None:
            z, a, d, parts, w = self.last_battle
            lb = {"zone": z, "attacker": a, "defender": d, "parts": parts, "winner": w}
        ch = None
        if self.choice is not None:
            ch = {"player": self.choice[0], "zone": self.choice[1]}
        return {
            "mode": self.MODE,
            "phase": ("setup", "play", "refill", "over")[self.phase],
            "turn": self.turn,
            "zones": zones,
            "roles": self.roles(),
            "captured": [list(c) for c in self.captured],
            "seized": [list(s) for s in self.seized],
            "scores": [self.score(p) for p in range(self.n)],
            "gone": [p for p in range(self.n) if self.gone[p]],
            "refills": [list(r) for r in self.refills],
            "put_back": [[b, self.loc[b]] for b in self.put_back],
            "winner": self.winner,
            "battle": bt,
            "choice": ch,
            "last_battle": lb,
        }
