"""A match: the sensing pipeline wired to the referee.

    import referee
    from match import Match
    g = referee.new_game(header, referee_sink)
    m = Match(board_def, g, sensed_sink)
    m.frame(adc_frame, t_ms)       # every frame
    m.control(ev)                  # gate, miss, ability, resolve, choose, register,
                                   # which {zone, bakugan} (a player's answer)

Sensed landings become referee `land` events; identification asks the
referee who may land now (`g.expects()`), so only the current player's
usable Bakugan are candidates. A landing is reported at once with the
pipeline's best guess; when the settled, averaged level names another
Bakugan (`ident`), the guess is taken back with `undo` (game: a
referee.journal.Journal, or anything with its `events` and undo input) and
the named one lands. `register {bakugan, zone}` teaches the
pipeline the next Bakugan that settles on that zone; that landing is a
lesson, not a throw, and is not passed to the referee. A `miss` the
referee refuses because the mat named the player's landing as that very
Bakugan, and asked about it, answers the question (the landing was the
other one) and is fed again. Every sensed event
(land, ident, unland, unsure, leave, fault) also goes to `sink` when one
is given.

The board (firmware main loop), raw-log replay and the tests all drive this
same object.
"""
from sense.pipeline import Pipeline

CONTROLS = ("gate", "miss", "ability", "resolve", "choose")
AMEND_BACK = 6   # an amend takes back at most this many events after the landing


class Match:
    def __init__(self, board, game, sink=None, use_context=True, params=None, context=None):
        self.game = game
        self.sink = sink
        self.use_context = use_context
        # context: who may land now; the referee's expects() unless a caller
        # (a benchmark) supplies another.
        ctx = context or self._context
        self.pipeline = Pipeline(board, self._sensed, ctx if use_context else None, params,
                                 stays=self._stays if use_context else None)
        self.zones = set(self.pipeline.zone_ids)
        self.guess = {}   # zone -> the land event fed for the pipeline's first guess
        self.before = {}  # zone -> the one before it there (a battle: an answer may be about it)
        self.alt = {}     # zone -> (named, other answer) of the mat's last question there
        # zone -> the Bakugan the mat named for its last landing there when
        # the referee refused that name (not the thrower's, or used): the
        # thrower's answer is then the landing (which)
        self.refused = {}

    def _context(self):
        player, ids = self.game.expects()
        return ids

    def _stays(self, zone, bakugan):
        # the referee keeps it standing there, no battle or choice is
        # pending (which would take it off the field), and it is not one
        # that may land next (a move: a standing Bakugan lifted and put down
        # on another gate, rule 7, the fortress game's moves)
        g = self.game
        stand = getattr(g, "stand", None)
        if stand is None or getattr(g, "battle", None) is not None or getattr(g, "choice", None) is not None:
            return False
        if bakugan not in stand.get(zone, ()):
            return False
        return bakugan not in g.expects()[1]

    def frame(self, frame, t):
        self.pipeline.feed(frame, t)

    def control(self, ev):
        """Apply a control event; returns the referee's verdict (True if
        accepted), True for an accepted register, False for a bad one."""
        kind = ev.get("ev")
        if kind == "which":
            return self.which(ev.get("zone"), ev.get("bakugan"), ev.get("t", 0))
        if kind == "miss":
            return self.game.feed(ev) or self._missed(ev)
        if kind == "register":
            b = ev.get("bakugan")
            z = ev.get("zone")
            if type(b) is not str or not b or type(z) is not int or z not in self.zones:
                return False
            self.pipeline.register(b, z)
            return True
        return self.game.feed(ev)

    def finish(self, t=None):
        self.game.finish(t)

    def _sensed(self, ev):
        if self.sink is not None:
            self.sink(ev)
        kind = ev["ev"]
        if kind == "land" and not ev.get("learned"):
            # the pipeline's first guess; remembered so that an `ident` can
            # amend it while it is still the referee's last event
            land = None
            if ev["bakugan"] is not None:
                land = {"t": ev["t"], "ev": "land", "zone": ev["zone"], "bakugan": ev["bakugan"]}
                if not self.game.feed(land):
                    land = None
            if land is None:
                self.refused[ev["zone"]] = ev["bakugan"]
            else:
                self.refused.pop(ev["zone"], None)
            self.before[ev["zone"]] = self.guess.get(ev["zone"])
            self.guess[ev["zone"]] = land
        elif kind == "ident" or kind == "unland":
            self._amend(ev)
        elif kind == "unsure":
            self.alt[ev["zone"]] = (ev["bakugan"], ev["alt"])

    def _missed(self, ev):
        # A player says their Bakugan b missed, and the referee refuses it:
        # it holds b as landed, because the mat named a landing b and asked
        # about it (`unsure`). The player's word answers the question: that
        # landing was the other one. Then the miss is fed again; refused
        # still, the answer is taken back.
        b = ev.get("bakugan")
        t = ev.get("t", 0)
        for z in self.alt:
            named, other = self.alt[z]
            if named != b:
                continue
            for land in (self.guess.get(z), self.before.get(z)):
                if land is not None and land["bakugan"] == b:
                    if not self.which(z, other, t):
                        return False
                    if self.game.feed(ev):
                        return True
                    self.which(z, b, t)
                    return False
        return False

    def which(self, zone, bakugan, t):
        """A player says which Bakugan the zone's last landing by them was
        (the answer to `unsure`, from a button or the phone page via
        Table.answer, or a link `ctl`): it lands instead of the one the mat
        named (see _amend: also after the players went on, up to AMEND_BACK
        events; and when the other player has landed on the zone since, a
        battle, the answer is about the landing before). True when the game
        took it."""
        if type(bakugan) is not str or zone not in self.zones:
            return False
        land = self.guess.get(zone)
        prev = self.before.get(zone)
        owner = self._owner(bakugan)
        if land is not None and prev is not None and owner is not None and \
                self._owner(land["bakugan"]) != owner and self._owner(prev["bakugan"]) == owner:
            land = prev
        if land is None:
            return self._answer_refused(zone, bakugan, t)
        if land["bakugan"] == bakugan:
            return True
        old = land["bakugan"]
        if not self._amend({"ev": "ident", "t": t, "zone": zone, "bakugan": bakugan}, land):
            return False
        self.pipeline.rename(zone, old, bakugan)
        return True

    def _answer_refused(self, zone, bakugan, t):
        """which() for a zone whose last landing the referee refused under
        the mat's name (seen: a battle's second Bakugan read in the tail of
        its spread, named as one the referee does not expect, asked about,
        and the thrower's answer had no landing to amend): the one the
        thrower names lands now. True when the game took it."""
        old = self.refused.get(zone)
        if old is None:
            return False
        new = {"t": t, "ev": "land", "zone": zone, "bakugan": bakugan}
        if not self.game.feed(new):
            return False
        del self.refused[zone]
        self.before[zone] = self.guess.get(zone)
        self.guess[zone] = new
        self.pipeline.rename(zone, old, bakugan)
        return True

    def _owner(self, bakugan):
        g = getattr(self.game, "game", self.game)   # a Journal, or the game itself
        owners = getattr(g, "bak_owner", None)
        return owners.get(bakugan) if owners is not None else None

    def _amend(self, ev, land=None):
        """The pipeline names another Bakugan for the landing it reported on
        ev's zone (`ident`, or a player's answer), or takes that landing back
        (`unland`): take the guess back (`undo`, an ordinary input event of
        the log) and land the one named. When the players went on meanwhile
        (an ability, the battle resolved: they act within a second, the
        thrower answers the mat's question within seconds), the events after
        the landing are taken back too and fed again after it, stamped with
        the amend's time and "by": "amend", at most AMEND_BACK events back;
        should the referee refuse one of them now, the history is put back
        as it was. Everything stays in the log: the first version, the
        undos, the new one."""
        z = ev["zone"]
        slot = self.guess
        if land is None:
            land = self.guess.get(z)
        elif land is not self.guess.get(z):
            slot = self.before
        if z in slot:
            del slot[z]
        t = ev["t"]
        new = None
        if ev["ev"] == "ident" and ev["bakugan"] is not None:
            new = {"t": t, "ev": "land", "zone": ev["zone"], "bakugan": ev["bakugan"]}
        orig = later = ()
        if land is not None:
            evs = getattr(self.game, "events", None)
            if not evs:
                return False
            k = len(evs) - 1
            while k >= 0 and k >= len(evs) - 1 - AMEND_BACK and evs[k] is not land:
                k -= 1
            if k < 0 or evs[k] is not land:
                return False   # too far back: the players can still undo by hand
            orig = evs[k + 1:]
            later = [self._again(e, t) for e in orig]
            for _ in range(len(later) + 1):
                self.game.feed({"t": t, "ev": "undo"})
        ok = new is not None and self.game.feed(new)
        fed = 0
        for e in later:
            if not self.game.feed(e):
                break
            fed += 1
        if (new is not None and not ok) or fed < len(later):
            # The referee does not take the rewritten history whole: put it
            # back as it was (one game at a time: a scratch game to check
            # first would be the heap's peak on the board).
            for _ in range(fed + (1 if ok else 0)):
                self.game.feed({"t": t, "ev": "undo"})
            if land is not None:
                back = self._again(land, t)
                if self.game.feed(back):
                    slot[z] = back
            for e in later:
                self.game.feed(e)
            self._moved(orig, later)
            return False
        self._moved(orig, later)
        if ok:
            slot[z] = new   # (a later answer may amend it again)
        elif new is None and slot is self.guess and z in self.before:
            self.guess[z] = self.before.pop(z)   # taken back: the one before is the last again
        return ok

    def _moved(self, orig, later):
        # the events fed again are copies: the landings remembered follow them
        for d in (self.guess, self.before):
            for z in d:
                x = d[z]
                for i in range(len(orig)):
                    if x is orig[i]:
                        d[z] = later[i]

    @staticmethod
    def _again(e, t):
        e = dict(e)
        e["t"] = t
        e["by"] = "amend"
        return e
