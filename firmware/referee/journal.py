"""The game's journal: the accepted input events, in order, and "undo last".

    j = Journal(header, sink)
    j.feed(ev)          # like Game.feed; accepted events are kept
    j.undo(t)           # take back the last accepted event
    j.feed({"t": t, "ev": "end"})   # end the game by hand: an input like any other

The referee is deterministic, so the state after the first n accepted events
is the replay of those events: undo rebuilds the game from the header and
all but the last event (output of the rebuild is discarded) and reports
`undo {ev}` with the event taken back. A kid knocking a Bakugan over must
not end the game. The same list is what the board saves to survive a power
cut (replaying it restores the game exactly).
Cost: one rebuild per undo, from the newest checkpoint (the referee's own
snapshot, State._save; the last two are kept; the game keeps what its
header set up): at most about 2 x CHECK events fed again, not the whole
game (25-60 events). An undo and the feed after it on a 25-event game,
projected on an ESP32-S3: 45 ms from the header, 3.5 ms from a checkpoint
(docs/runtime.md). A checkpoint is due once CHECK events came after the
last one and is taken by idle() (the board: a tick with nothing else to
do), not in the tick of the event: a snapshot is about 20 ms on an S3.
"""
import referee

CHECK = 8   # a checkpoint every CHECK accepted events


class Journal:
    def __init__(self, header, sink=None, events=None):
        self.header = header
        self.sink = sink
        self.events = []
        self.ended = False      # an `end` input ended the game
        self.cps = []           # [(n, snapshot, t)]: the game after its first n events, the newest last
        self.due = False        # a checkpoint is due (idle() takes it)
        self.game = referee.new_game(header, None)
        for ev in events or ():
            self.feed(ev)
        self.game.sink = sink

    def feed(self, ev):
        if self.ended:
            # `end` is the game's last output line (event-log-v1): an input
            # after it is refused without one (the caller says why: the
            # game is over)
            return False
        if ev.get("ev") == "undo":  # an input event of the log like any other
            # (the game's time is read in undo: a reference to the game
            # taken here would outlive its drop there, see undo)
            return self.undo(ev.get("t")) is not None
        if ev.get("ev") == "end":
            return self.end(ev)
        g = self.game
        ok = g.feed(ev)
        if ok:
            self.events.append(ev)
            if not self.due:
                self._due()
        return ok

    def idle(self):
        """Take the checkpoint that is due (the game after every event so
        far), if any; True when one was taken."""
        g = self.game
        if not self.due or g is None or not hasattr(g, "_save"):
            return False
        self.due = False
        cps = self.cps
        cps.append((len(self.events), g._save(), g.t))
        if len(cps) > 2:
            cps.pop(0)
        return True

    def finish(self, t=None):
        if not self.ended:      # (an `end` input finished it already)
            self.game.finish(t)

    def end(self, ev):
        """The `end` input: what is pending is resolved (Game.finish, which
        reports `end`), then the game is over: later inputs are refused
        (feed: False, with no output after `end`) and it cannot be undone.
        Kept with the other events, so a replay of the saved game ends it
        at the same point."""
        g = self.game
        g.finish(ev.get("t"))
        g.phase = 3     # over
        self.ended = True
        self.events.append(ev)
        return True

    def undo(self, t):
        """Take back the last accepted event (at time t; None: the game's
        time). Returns the event, or None (with a reject) when there is
        nothing to undo."""
        if self.ended:
            return None     # (nothing is printed after `end`: see feed)
        if t is None:
            t = self.game.t
        if not self.events or self.game.phase == 3:  # nothing, or the game is over
            if self.sink is not None:
                self.sink(("reject", t, (("input", "undo"), ("reason", "nothing to undo"))))
            return None
        last = self.events.pop()
        # The old game goes as the new one is built, not after: two games
        # at once are the heap's peak on the board (docs/runtime.md). The
        # new game is built in the old one's object (__init__ again sets
        # every attribute, so this is a new game): its state is released
        # piece by piece as it is replaced, and the object's attribute
        # table, the biggest single block of a game (37 slots), is reused
        # instead of being grown again in a fragmented heap. Should the
        # rebuild run out of memory all the same, the game comes back with
        # the event kept: the undo fails, nothing is lost. Callers must not
        # hold the game in a local meanwhile (Table drops its own; on
        # MicroPython even the C stack of an expression like
        # `self.game.t` evaluated by the caller just before keeps it).
        g = self.game
        self.game = None
        try:
            self._rebuild(g)
        except MemoryError:
            g = None
            self.events.append(last)
            self.game = self._rebuild()
            self.game.sink = self.sink
            raise
        g.sink = self.sink
        g.t = t
        self.game = g
        self._due()
        if self.sink is not None:
            self.sink(("undo", t, (("undone", last.get("ev")), ("at", last.get("t")))))
        return last

    def _rebuild(self, g=None):
        """The game after self.events: a new one, or g set up afresh; from
        the newest checkpoint within them (its snapshot loaded, and taken
        again from the game: a checkpoint keeps a copy of its own)."""
        evs = self.events
        cps = self.cps
        while cps and cps[-1][0] > len(evs):
            cps.pop()
        if g is None:
            g = referee.new_game(self.header, None)
        elif cps:
            # what the header set up stays; the snapshot below sets all the
            # rest (tests/test_journal_checkpoints.py compares every
            # attribute with a game rebuilt from the header)
            g.sink = None
            g._buf = []
        else:
            g.__init__(self.header, None)
        k = 0
        if cps:
            k, snap, t = cps[-1]
            g._load(snap)
            g.t = t
            cps[-1] = (k, g._save(), t)
        for i in range(k, len(evs)):
            ev = evs[i]
            if ev.get("ev") == "end":
                g.finish(ev.get("t"))
                g.phase = 3
            else:
                g.feed(ev)
        return g

    def restore(self, events):
        """The game after `events` again (the app: an input whose save
        failed is taken back, so the live game stays the saved one). The
        game is rebuilt in its own object, as undo does."""
        g = self.game
        self.game = None
        self.events = events
        self.cps = []           # (another history: its checkpoints are not these)
        self.ended = False
        for ev in events:
            if ev.get("ev") == "end":
                self.ended = True
        self._rebuild(g)
        g.sink = self.sink
        self.game = g
        self._due()

    def _due(self):
        cps = self.cps
        self.due = len(self.events) - (cps[-1][0] if cps else 0) >= CHECK

    def __getattr__(self, name):
        # expects(), view(), turn, ... come from the game.
        return getattr(self.game, name)
