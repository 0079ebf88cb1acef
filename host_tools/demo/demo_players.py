"""The demo's simulated players, who watch the mat (host_tools/demo/demo_game.py).

The players play the random game of host_tools/sim/game.py; its own referee
is their record of what they did at the table (the Bakugan they threw, where
it opened, the controls they gave). Like people at a real table they look at
the mat after every pause (the generator's `look` hook) and compare what the
board's referee -- the firmware -- shows with what they did. When the two
differ, they correct the mat the ways the table allows (docs/table-play.md):

- the mat took a Bakugan for another one, put it on the wrong zone, saw one
  open where none did, or took a control the players did not give: "undo
  last" (a long press of BACK, or the phone's Undo), as many times as needed
  to get back to a state they agree with;
- a landing the mat missed (or had to take back): the Bakugan lifted and put
  down again, opened, on its zone;
- a control the board refused because its state was different then: given
  again.

The firmware still decides everything from the sensor frames and the
control events; the players only do what a person can do at the table. If
TRIES rounds of corrections do not bring the mat in line, they give up
(GiveUp, with the reason) and the game ends without a winner. When the
board's referee ends the game itself, they stop (MatOver).
"""
import json

from host_tools.sim import game as sgame
from host_tools.words import Words, plain

TRIES = 6  # rounds of corrections before the players give up
LOOK_AGAIN_MS = 800  # the mat may still be deciding: look again this much later
HISTORY = 8  # how many of their last events the players remember to redo
UNDOS = 4  # undo presses in a row, at most, in one round
SWAP_AFTER = 1  # a misread landing put down again this often: play the Bakugan the mat reads


class GiveUp(Exception):
    """The players could not get the mat to agree with what they did."""


class MatOver(Exception):
    """The board's referee ended the game."""


def canon(view):
    """A view as comparable text (JSON keys as strings, sorted)."""
    if view is None:
        return None
    return json.dumps(json.loads(json.dumps(view)), sort_keys=True)


def describe(board_view, table_view, words=None):
    """What differs between the mat's view and the players' (short text,
    in the mat's words: host_tools/words.py)."""
    from host_tools.words import Words
    w = words or Words()
    if board_view is None:
        return "the board has no game"
    bv = json.loads(board_view)
    tv = json.loads(table_view)
    out = []
    bz = bv.get("zones") or {}
    tz = tv.get("zones") or {}

    def gate(x):
        return w.gate(x) if x else "no gate card"

    def baks(x):
        return " and ".join(x or ()) or "nothing"
    for z in sorted(set(bz) | set(tz), key=int):
        b = bz.get(z) or {}
        t = tz.get(z) or {}
        if b.get("gate") != t.get("gate"):
            out.append("on zone %s the mat has %s, the players put %s" % (z, gate(b.get("gate")),
                                                                         gate(t.get("gate"))))
        elif b.get("bakugan") != t.get("bakugan"):
            out.append("on zone %s the mat has %s, the players have %s" % (z, baks(b.get("bakugan")),
                                                                          baks(t.get("bakugan"))))
    said = {"turn": lambda v: "%s's turn" % w.who(v) if v is not None else "nobody's turn",
            "winner": lambda v: "%s won" % w.who(v) if v is not None else "no winner",
            "captured": lambda v: "captures " + "-".join(str(len(c)) for c in v or ())}
    for k in ("phase", "turn", "captured", "battle", "choice", "winner"):
        if not out and bv.get(k) != tv.get(k):
            say = said.get(k, lambda v, k=k: "%s %s" % (k, plain(v)))
            out.append("the mat has %s, the players %s" % (say(bv.get(k)), say(tv.get(k))))
    return "; ".join(out) or "the mat's state differs"


class WatchingGen(sgame.GameGen):
    """sim.game's generator whose players look at the mat after each pause
    and correct it. catch_up(gen) plays what was done so far on the mat;
    mat.current_view() is the board referee's view; say(gen, text) reports."""

    def __init__(self, rng, board, header, opts, mat, catch_up, say):
        sgame.GameGen.__init__(self, rng, board, header, opts)
        from referee.journal import Journal
        self.g = Journal(self.header)  # their record, with undo (for a swap)
        self.mat = mat
        self.catch_up = catch_up
        self.say = say
        self.words = Words(self.header)
        self.hist = [canon(self.g.view())]  # the players' view after each of their accepted events
        self.done = []  # their accepted events (what they did at the table)
        self.busy = False
        self.corrections = {"undo": 0, "replace": 0, "again": 0, "swap": 0}
        self.tries = {}  # (bakugan, zone) -> times put down again
        self.misread = {}  # (bakugan, zone) -> the Bakugan the mat read there instead
        self.look = WatchingGen._look

    # what the players did, in order, with the state after it
    def _record(self, ev):
        self.done.append(ev)
        self.hist.append(canon(self.g.view()))

    def control(self, ev, card=False):
        ok = sgame.GameGen.control(self, ev, card)
        if ok and ev["ev"] != "register":
            e = dict(ev)
            e.pop("t", None)
            self._record(e)
        return ok

    def feed_land(self, bid, zone, t):
        ok = sgame.GameGen.feed_land(self, bid, zone, t)
        if ok:
            self._record({"ev": "land", "bakugan": bid, "zone": zone})
        return ok

    # ------------------------------------------------------------ looking
    def _board(self):
        self.catch_up(self)
        if self.mat.over:
            raise MatOver()
        return canon(self.mat.current_view())

    def _look(self):
        if self.busy:
            return
        self.busy = True
        try:
            target = self.hist[-1]
            seen = self._board()
            if seen == target:
                return
            self.t += LOOK_AGAIN_MS
            seen = self._board()
            if seen == target:
                return
            first = describe(seen, target, self.words)
            for _ in range(TRIES):
                seen = self._correct(seen, target)
                target = self.hist[-1]  # a swap changes what the players did
                if seen == target:
                    self.say(self, "players: the mat agrees with the table again")
                    return
            raise GiveUp("after %d rounds of corrections the mat still disagrees with the table (%s; "
                         "first seen: %s)" % (TRIES, describe(seen, target, self.words), first))
        finally:
            self.busy = False

    def _known(self, seen):
        """The latest of the players' states the mat shows, or None."""
        n = len(self.hist)
        for i in range(n - 1, max(-1, n - 2 - HISTORY), -1):
            if self.hist[i] == seen:
                return i
        return None

    def _correct(self, seen, target):
        """One round: undo what the players did not do, then do again what
        the mat did not take. Returns the mat's view after it."""
        rng = self.rng
        k = self._known(seen)
        undos = 0
        while k is None and undos < UNDOS:
            # the mat took something the players did not do: undo it
            self._note_misread(seen, target)
            self.say(self, "players: %s; they undo the mat's last step (BACK held)"
                     % describe(seen, target, self.words))
            self.act("control", ev={"ev": "undo"}, card=False)
            self.corrections["undo"] += 1
            undos += 1
            self.t += int(rng.uniform(900, 1500))
            seen = self._board()
            k = self._known(seen)
        if k is None or seen == target:
            return seen
        # the mat is behind: do again what it did not take
        for ev in self.done[k:]:
            if ev["ev"] != "land":
                self.say(self, "players: the mat did not take %s; again" % _control_text(ev, self.words))
                self.act("control", ev=dict(ev), card=False)
                self.corrections["again"] += 1
                self.t += int(rng.uniform(700, 1200))
            elif not (ev is self.done[-1] and self._swap(ev["bakugan"], ev["zone"])):
                self._put_down_again(ev["bakugan"], ev["zone"])
        return self._board()

    def _note_misread(self, seen, target):
        """Remember which Bakugan the mat reads for the one the players put
        down, when it shows exactly one in its place."""
        if seen is None or not self.done or self.done[-1]["ev"] != "land":
            return
        b, z = self.done[-1]["bakugan"], self.done[-1]["zone"]
        mine = ((json.loads(seen).get("zones") or {}).get(str(z)) or {}).get("bakugan") or []
        theirs = ((json.loads(target).get("zones") or {}).get(str(z)) or {}).get("bakugan") or []
        extra = [x for x in mine if x not in theirs]
        if b in theirs and b not in mine and len(extra) == 1:
            self.misread[(b, z)] = extra[0]

    def _swap(self, b, z):
        """The mat keeps reading b as another Bakugan of the same player on
        zone z: that player plays the one the mat reads instead (b off, the
        other put down). The players' record takes the landing back and
        lands the other one; both must be legal for their referee."""
        other = self.misread.get((b, z))
        if other is None or self.tries.get((b, z), 0) < SWAP_AFTER or other in self.phys:
            return False
        last = self.g.events[-1]
        if last.get("ev") != "land" or last.get("bakugan") != b:
            return False
        self.g.undo(last["t"])
        ev = dict(last)
        ev["bakugan"] = other
        if not self.g.feed(ev):
            self.g.feed(last)  # not a legal throw for them: keep what they did
            return False
        self.done[-1] = {"ev": "land", "bakugan": other, "zone": z}
        self.hist[-1] = canon(self.g.view())
        self.say(self, "players: the mat keeps reading %s as %s on zone %d; %s is played instead" % (b, other, z, other))
        rng = self.rng
        if b in self.phys:
            self.act("remove", zone=None, bakugan=b)
            del self.phys[b]
            self.t += int(rng.uniform(600, 1200))
        self.act("place", bakugan=other, zone=z, pos=self.pos(), tilt=None, side=None, speed=None)
        self.phys[other] = z
        self.corrections["swap"] += 1
        self.t += int(rng.uniform(1000, 1600))
        return True

    def _put_down_again(self, b, z):
        """Lift b and put it down again, opened, on zone z. The second time
        for the same landing, lift everything on z and put b down first, on
        the empty zone, then the others back (the board's referee refuses
        those as landings: they already stand there)."""
        rng = self.rng
        again = self.tries.get((b, z), 0)
        self.tries[(b, z)] = again + 1
        others = sorted(o for o in self.phys if o != b and self.phys[o] == z) if again else []
        if others:
            self.say(self, "players: the mat did not take %s on zone %d; all of zone %d up, %s down first, "
                           "then %s back" % (b, z, z, b, ", ".join(others)))
        else:
            self.say(self, "players: the mat did not take %s on zone %d; put it down again" % (b, z))
        for o in [b] + others:
            if o in self.phys:
                self.act("remove", zone=None, bakugan=o)
                del self.phys[o]
                self.t += int(rng.uniform(300, 700))
        self.t += int(rng.uniform(400, 800))
        for o in [b] + others:
            self.act("place", bakugan=o, zone=z, pos=self.pos(), tilt=None, side=None, speed=None)
            self.phys[o] = z
            self.t += int(rng.uniform(1000, 1600))
        self.corrections["replace"] += 1


def _control_text(ev, words):
    """A control the players give, in the mat's words ("Dan's gate 2 on zone 6")."""
    k = ev.get("ev")
    if k == "gate":
        return "%s on zone %s" % (words.gate(ev.get("gate")), ev.get("zone"))
    if k == "ability":
        return words.card(ev.get("card"))
    bits = [("by %s" % words.who(ev[f])) if f == "player" else "%s %s" % (f, plain(ev[f]))
            for f in sorted(ev) if f not in ("ev", "t", "by")]
    return " ".join([plain(k)] + bits)
