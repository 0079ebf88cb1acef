"""The table: what the referee hears at a table with no laptop.

It stands between the sensing (Match) and the journal (the referee plus
undo). Match hands it landings as `feed(land)` and every sensed event as
`sensed(ev)`; the loop calls `tick(t)` every frame and `button(i, gesture,
t)` for player presses. Inferences become ordinary input events, marked
"by": "infer", fed to the journal and so written to the log: a replay of the
same frames and presses reproduces them (docs/table-play.md).

Inferences (timings are constants below, documented in docs/table-play.md):
- Gate from a landing: a Bakugan only opens on a gate card, so a landing on a
  zone the referee has no gate for means the thrower put a gate there this
  turn: `gate {player, gate: their first gate in hand, zone}` is inferred
  before the landing (when the rules allow them one; otherwise it stays a
  landing without a gate, a miss by rule 4). The phone page can correct
  which card it was.
- End of a battle: when both battling Bakugan have been lifted off the zone
  and for BATTLE_GRACE_MS nobody pressed a button or played an ability,
  `resolve` is inferred.
- Move after a double landing: while a take-or-move choice is pending, the
  choosing player's Bakugan leaving and landing on another gate is
  `choose move` to that zone.
- Miss: a ball seen rolling (`roll` from the sensing) with no landing within
  MISS_WAIT_MS is a miss of the thrower's next Bakugan; the thrower's OK
  confirms it at once, BACK undoes it.

- Unsure landing: the sensing decided who landed without being sure
  (`unsure {zone, bakugan, alt}`): the zone breathes in the thrower's
  colour for QUESTION_MS; the thrower's OK says it was the one named, BACK
  that it was the other one (Match.which: the landing is taken back and the
  other one lands); the phone page asks the same (`answer`, which the
  buttons use too). No answer: the reading stands. A battle on the asked
  zone is not resolved (by a button or inferred) while the question is
  open: who landed decides it.

Buttons (two per player: OK and BACK; wiring.json names their roles):
- OK or BACK short, by the thrower, while the mat asks about an unsure
  landing: the answer (above), before any other meaning.
- OK short: resolve a pending battle (either battling player); take, when a
  take-or-move choice is the player's; confirm a pending inferred miss;
  otherwise, on the thrower's turn, declare a miss (a ball that flew off the
  mat without the sensors seeing it).
- BACK short: cancel a pending inferred miss; in rule 7 (all one's Bakugan
  standing, no opponent on the field) step the offered zone, OK takes it.
- BACK long (held 0.9 s): undo the last event.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from table.buttons import LONG, SHORT

BATTLE_GRACE_MS = const(6000)
MISS_WAIT_MS = const(2500)
QUESTION_MS = const(8000)   # an unsure landing's question is open this long
# a zone stirred at most this long, with nothing settling, is a ball rolling
# across (the sensing's `roll`); a hand hovering longer is not
ROLL_MAX_MS = const(1500)

OK = const(0)
BACK = const(1)


class Table:
    def __init__(self, journal, sink=None, roles=None, which=None, register=None):
        """journal: referee.journal.Journal. sink(ev) receives each input
        event the table sends to the referee (to log it). roles: per button
        index, (player, OK|BACK); default: 0,1 = player 0 OK/BACK, 2,3 =
        player 1 OK/BACK. which(zone, bakugan, t): a player's answer to an
        unsure landing (Match.which, through the app's session);
        register(bakugan, zone, t): teach the sensing (a phone)."""
        self.j = journal
        self.sink = sink
        self.roles = roles or ((0, OK), (0, BACK), (1, OK), (1, BACK))
        self.lifted = []  # Bakugan lifted off the pending battle's zone
        self.grace_from = -1  # time both were lifted, -1 when not armed
        self.touched = False  # a press or ability during the battle
        self.roll_at = -1  # a roll with no landing yet
        self.pending_miss = None  # inferred miss awaiting confirmation: the event
        self.offer = -1  # rule-7 zone on offer
        self.question = None  # (zone, named, alt, player, t): the mat is unsure who landed
        self.cands = None     # who could have landed, asked when the last landing was sensed
        self.which = which
        self.register = register
        self.t = 0

    # ---------------------------------------------------------- plumbing
    def _send(self, ev):
        ok = self.j.feed(ev)
        if ok and self.sink is not None:
            self.sink(ev)
        return ok

    def expects(self):
        """Who may land now (the sensing's identification context): during
        a take-or-move choice, only the choosing player's Bakugan, which may
        move to another gate; otherwise the referee's answer."""
        ch = self.j.game.choice
        if ch is not None:
            return (ch[0], [ch[2]])
        return self.j.expects()

    def finish(self, t=None):
        self.j.finish(t)

    def __getattr__(self, name):
        return getattr(self.j, name)

    # ------------------------------------------------------------ events
    def feed(self, ev):
        """An input event from the sensing (land) or a control source."""
        t = ev.get("t", self.t)
        self.t = t
        kind = ev.get("ev")
        g = self.j.game
        if kind == "land":
            self.roll_at = -1
            if self.pending_miss is not None:
                self.pending_miss = None
            z = ev.get("zone")
            b = ev.get("bakugan")
            ch = g.choice
            if ch is not None and g.bak_owner.get(b) == ch[0] and b == ch[2] and z != ch[1] and z in g.field:
                return self._send({"t": t, "ev": "choose", "player": ch[0], "action": "move", "zone": z,
                                   "by": "infer"})
            if z not in g.field and g.battle is None and g.choice is None:
                p = g.bak_owner.get(b)
                if p == g.turn and g.phase == 1 and g.placed == 0:
                    hand = g.gates_in_hand(p)
                    if hand:
                        self._send({"t": t, "ev": "gate", "player": p, "gate": hand[0], "zone": z, "by": "infer"})
        elif kind == "ability":
            self.touched = True
        elif kind == "miss":
            # a miss said by a player or a host: the roll it follows needs no
            # inference, and an inferred miss of the same thrower was this one
            self.roll_at = -1
            pm = self.pending_miss
            g = self.j.game
            if pm is not None and g.bak_owner.get(pm["bakugan"]) == g.bak_owner.get(ev.get("bakugan")):
                self.pending_miss = None
                if pm["bakugan"] == ev.get("bakugan"):
                    return True  # confirmed: already applied
                g = None   # an undo drops the game: no reference to it here (Journal.undo)
                self.j.undo(t)  # the thrower names another Bakugan: that one missed
        g = None       # (an undo event drops the game, see above)
        return self._send(ev)

    def sensed(self, ev):
        """Every sensed event (land, leave, roll, fault)."""
        kind = ev.get("ev")
        t = ev.get("t", self.t)
        self.t = t
        bt = self.j.game.battle
        if kind == "unsure":
            p = self.j.game.bak_owner.get(ev.get("bakugan"))
            if p is not None:
                self.question = (ev.get("zone"), ev.get("bakugan"), ev.get("alt"), p, t)
        elif kind == "ident":
            q = self.question
            if q is not None and q[0] == ev.get("zone"):
                self.question = None    # the mat renamed it (an `unsure` may follow)
        elif kind == "land" or kind == "unland":
            q = self.question
            if kind == "land" and q is not None and ev.get("zone") == q[0] and \
                    self.j.game.bak_owner.get(ev.get("bakugan"), q[3]) != q[3]:
                return      # the other player lands on it (a battle): the thrower may still answer
            self.question = None    # a new landing: the question is gone
            self.cands = None
            if kind == "land" and not ev.get("learned") and ev.get("bakugan") is not None:
                # Match tells us before it feeds the landing: who may land
                # now is who could have landed instead (an answer may name
                # any of them; only once per landing, never per frame)
                self.cands = self.expects()[1]
        if kind == "leave" and bt is not None and ev.get("zone") == bt[0]:
            b = ev.get("bakugan")
            if b not in self.lifted:
                self.lifted.append(b)
            if bt[1] in self.lifted and bt[2] in self.lifted and not self.touched:
                self.grace_from = t
        elif kind == "roll":
            if self.j.game.battle is None:
                self.roll_at = t

    def tick(self, t):
        self.t = t
        g = self.j.game
        if self.question is not None and t - self.question[4] >= QUESTION_MS:
            self.question = None    # no answer: the mat's reading stands
        if g.battle is None:
            if self.lifted:
                self.lifted = []    # only when needed: a tick allocates nothing
            self.grace_from = -1
            self.touched = False
        elif self.grace_from >= 0 and not self.touched and t - self.grace_from >= BATTLE_GRACE_MS and \
                not self.asked_in(g.battle):
            self.grace_from = -1
            self._send({"t": t, "ev": "resolve", "by": "infer"})
        if self.roll_at >= 0 and t - self.roll_at >= MISS_WAIT_MS:
            self.roll_at = -1
            p, cands = g.expects()
            if p is not None and cands and not g.all_standing(p):
                ev = {"t": t, "ev": "miss", "bakugan": cands[0], "by": "infer"}
                if self._send(ev):
                    self.pending_miss = ev

    def button(self, i, gesture, t):
        """A debounced press (table.buttons): apply its meaning now."""
        if i >= len(self.roles):
            return False
        player, role = self.roles[i]
        g = self.j.game
        self.t = t
        q = self.question
        if g.battle is not None and not (gesture == SHORT and q is not None and q[3] == player):
            self.touched = True     # (an answer to the mat's question is not about the battle)
        if role == BACK and gesture == LONG:
            self.pending_miss = None
            g = None   # an undo drops the game: no reference to it here (Journal.undo)
            return self.j.undo(t) is not None
        if gesture != SHORT:
            return False
        if q is not None and q[3] == player:
            # the thrower answers the mat's question: OK, it was the one it
            # named; BACK, it was the other one
            g = None   # (an amend undoes: no reference to the game here)
            return self.answer(player, q[1] if role == OK else q[2], t)
        if role == BACK:
            if self.pending_miss is not None and g.bak_owner.get(self.pending_miss["bakugan"]) == player:
                self.pending_miss = None
                g = None
                return self.j.undo(t) is not None
            if g.turn == player and g.all_standing(player) and not g.opponents_on_field(player):
                zs = sorted([g.loc[b] for b in g.standing(player)])
                later = [z for z in zs if z > self.offer]
                self.offer = later[0] if later else zs[0]
                return True
            return False
        # OK
        if self.pending_miss is not None and g.bak_owner.get(self.pending_miss["bakugan"]) == player:
            self.pending_miss = None
            return True
        if g.battle is not None:
            if self.asked_in(g.battle):
                return False    # the thrower answers first: who landed decides the battle
            return self._send({"t": t, "ev": "resolve", "by": "button"})
        if g.choice is not None:
            if g.choice[0] != player:
                return False
            return self._send({"t": t, "ev": "choose", "player": player, "action": "take", "by": "button"})
        if g.turn != player:
            return False
        if g.all_standing(player) and not g.opponents_on_field(player):
            if self.offer < 0:
                return False
            z = self.offer
            self.offer = -1
            return self._send({"t": t, "ev": "choose", "player": player, "action": "take", "zone": z, "by": "button"})
        p, cands = g.expects()
        if p == player and cands:
            return self._send({"t": t, "ev": "miss", "bakugan": cands[0], "by": "button"})
        return False

    def asked_in(self, battle):
        # the mat's question is about a landing of this battle (its zone):
        # the battle waits for the answer (at most QUESTION_MS), or a
        # game-ending resolve could come before the thrower says who it was
        q = self.question
        return q is not None and battle is not None and q[0] == battle[0]

    def answer(self, player, bakugan, t):
        """The thrower's answer to the mat's question (a button or the phone
        page): bakugan is the one that landed. Only while a question is open
        and only from the thrower (else False, the question stays open);
        bakugan must be the one named, the runner-up the mat offered (alt),
        or another of the thrower's that could have landed then (else False,
        still open). The one named: confirmed, True. Another: the question
        closes and self.which(zone, bakugan, t) (Match.which via the app:
        the landing is taken back and that one lands) gives the verdict."""
        q = self.question
        if q is None or q[3] != player or type(bakugan) is not str:
            return False
        if bakugan == q[1]:
            self.question = None
            return True
        if bakugan != q[2] and (self.cands is None or bakugan not in self.cands
                                or self.j.game.bak_owner.get(bakugan) != player):
            return False
        self.question = None
        if self.which is None:
            return False
        return self.which(q[0], bakugan, t)

    def asking_json(self):
        """asking() as the web API and the link's state say it: player,
        zone, what; with `which`, also the Bakugan the mat named and its
        runner-up (docs/formats/web-api-v1.md)."""
        p, z, what = self.asking()
        ask = {"player": p, "zone": z, "what": what}
        q = self.question
        if what == "which" and q is not None:
            ask["bakugan"] = q[1]
            ask["alt"] = q[2]
        return ask

    def asking(self):
        """What the LEDs should show as awaited: (player, zone or -1, what)."""
        g = self.j.game
        q = self.question
        if q is not None:
            return (q[3], q[0], "which")
        if g.battle is not None:
            return (g.bak_owner[g.battle[2]], g.battle[0], "battle")
        if g.choice is not None:
            return (g.choice[0], g.choice[1], "choice")
        if self.pending_miss is not None:
            return (g.bak_owner[self.pending_miss["bakugan"]], -1, "miss")
        if self.offer >= 0:
            return (g.turn, self.offer, "take")
        return (g.turn, -1, "throw")
