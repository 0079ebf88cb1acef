"""The game in play on the board: one at a time, saved as it goes.

    s = Session(board, bd, link, feedback, store, health, roles, phone)
    s.resume()                 # the stored game again (boot): events replayed
    s.new_game(header)         # a `cfg`: the previous game is dropped first
    s.control(ev)              # a control from the link; s.last_reject says why not
    s.gtime(now)               # game time (ms) at board time now

A game is its header, the referee's journal, the recorder (the journal as
the table sees it: every accepted input saved), the table (inferences and
the buttons), the match (the sensing pipeline wired to the referee) and the
game time, which starts at 0 and never goes back. Its outputs go to the
link, the LEDs and buzzer (show.feedback) and the phone page.
"""
import gc

import referee
from referee.events import encode_json
from referee.journal import Journal
from match import Match
from table.controller import Table, ROLL_MAX_MS
from store.state import StoreError
from store.eventcheck import Ids
from runtime.boarddef import expand, zone_ids, channel_zones
from runtime.recorder import Recorder

# the sensing reports balls rolling across (the table's miss inference)
ROLL_PARAMS = {"roll_max_ms": ROLL_MAX_MS}
# pack the heap while a game is built only on a heap this small or smaller
# (a DevKitC's ~110 KB; an S3's PSRAM heap is megabytes)
_PACK = hasattr(gc, "threshold") and gc.mem_free() + gc.mem_alloc() <= 512 * 1024
# what a stored game that cannot be resumed raises
RESUME_ERRORS = (StoreError, referee.SetupError, ValueError, KeyError, TypeError)


class Session:
    def __init__(self, board, bd, link, feedback, store, health, roles=None, phone=None):
        """board: hw.Board; bd: the compact board definition
        (runtime.boarddef.compact); roles: the buttons' (player, OK|BACK);
        phone: runtime.phone.PhonePage or None."""
        self.board = board
        self.clock = board.clock
        self.bd = bd
        self.link = link
        self.feedback = feedback
        self.store = store
        self.health = health
        self.roles = roles
        self.phone = phone
        self.zone_ids = zone_ids(bd)
        self.channel_zones = channel_zones(bd)
        self.header = None
        self.game = None             # the referee's journal
        self.rec = None              # the journal as the table feeds it (runtime.recorder)
        self.table = None
        self.match = None
        self.events = 0              # the game's saved input events
        self.time_base_ms = 0        # board time (ticks_ms) when game time was time_offset
        self.time_offset = 0
        self.last_event_t = 0        # the latest saved event's time: game time never goes back
        self.replaying = False       # a stored game's events fed again: no output
        self.input_zone = None       # the zone of the input being handled (the reject's LEDs)
        self.view_changed = False    # the game's view may differ from what the LEDs show
        self.shown_question = None   # the table's question the LEDs last showed
        self.last_reject = None      # why the referee refused the last input

    # ------------------------------------------------------------ games
    def resume(self):
        """The stored game again; returns how many events were replayed.
        Raises one of RESUME_ERRORS when the store's game cannot be played."""
        header = None
        n = 0
        last_t = 0
        for lineno, obj in self.store.game_lines():
            if header is None:
                header = obj
                self.new_game(header, save=False)
                self.replaying = True
                continue
            if not self.game.feed(obj):
                self.replaying = False
                raise StoreError("stored game, line %d of its log: event rejected on replay" % lineno)
            n += 1
            last_t = obj.get("t", last_t)
        self.replaying = False
        if header is None:
            return 0
        self.events = n
        self.time_offset = last_t
        self.last_event_t = last_t
        self.time_base_ms = self.clock.ticks_ms()
        self.view_changed = True
        return n

    def restore(self):
        """The stored game again (after a new one failed to start)."""
        self.drop()
        gc.collect()
        try:
            self.resume()
        except RESUME_ERRORS + (MemoryError, OSError) as e:
            self.health.log("stored game not resumed: %s" % e)
            self.drop()
        if self.phone is not None:
            self.phone.serve(self)

    def drop(self):
        self.header = None
        self.game = None
        self.rec = None
        self.table = None
        self.match = None
        if self.phone is not None:
            self.phone.stop()
        self.replaying = False

    def new_game(self, header, save=True):
        """The previous game is dropped first (a board has room for one);
        the new one is saved only once it is fully built, so after a
        failure (bad header, out of memory) the stored game is still the
        previous one and comes back at the next boot."""
        # free the previous game first: a board has room for one
        self.drop()
        gc.collect()
        # the journal keeps the accepted events, so `undo` can take one back
        g = Journal(header, self._game_out)   # SetupError on a bad header
        rec = Recorder(g, Ids(header), self.zone_ids, self.note, self._save_input, self.changed)
        # the table infers inputs (gate, resolve, miss, move) and takes the
        # buttons; what it feeds goes through the recorder, so it is saved
        table = Table(rec, None, self.roles, which=self.which, register=self.register)
        # building the pipeline churns much float garbage between the
        # arrays it keeps: collecting often meanwhile packs what it keeps
        # instead of leaving the free heap in small holes (a 72 KB data heap
        # takes a game, against 96 KB without). Only on a small heap: each
        # collection sweeps the whole heap, and on a PSRAM heap of megabytes
        # (the reference board) collecting every 4 KB made the setup tick
        # 13 times longer (docs/runtime.md, "The setup tick")
        th = gc.threshold() if _PACK else None
        if th is not None:
            gc.threshold(4096)
        try:
            match = Match(expand(self.bd), table, self._sensed, params=ROLL_PARAMS)
        finally:
            if th is not None:
                gc.threshold(th)
        sigs = self.store.load_signatures()
        if sigs:
            match.pipeline.teach(sigs)
        cal = self.store.load_calibration()
        if cal and "zero" in cal and len(cal["zero"]) == self.board.scanner.n:
            match.pipeline.start(cal["zero"])
        if save:
            # a new game: the phones claim again (the claims go first: a cut
            # in between leaves the old game without claims, never the new
            # one with the old game's)
            self.store.save_claims(None)
            self.store.game_start(header)
        self.header = header
        self.game = g
        self.rec = rec
        self.table = table
        self.match = match
        self.events = 0
        self.time_base_ms = self.clock.ticks_ms()
        self.time_offset = 0
        self.last_event_t = 0
        self.feedback.configure(header)
        self.view_changed = True
        if self.phone is not None:
            self.phone.serve(self)
        # building the pipeline leaves much garbage (float maths) between
        # what it keeps: collect now, not in the middle of the first landing
        gc.collect()

    def gtime(self, now):
        """Game time (ms) at board time now (ticks_ms)."""
        t = self.time_offset + self.clock.ticks_diff(now, self.time_base_ms)
        if t < self.last_event_t:
            t = self.last_event_t
        return t

    def now(self):
        return self.gtime(self.clock.ticks_ms())

    # ----------------------------------------------------------- inputs
    def control(self, body):
        """A control event from the link (docs/formats: `ctl`), at game
        time now; False, with last_reject saying why, when refused."""
        ev = {}
        for k in body:
            ev[k] = body[k]
        ev["t"] = self.now()
        self.last_reject = None
        self.input_zone = ev.get("zone")
        try:
            ok = self.match.control(ev)
        except (KeyError, TypeError, ValueError) as e:
            self.last_reject = "bad event: %s" % e
            return False
        if not ok and self.last_reject is None:
            # (after `end` the journal refuses without an output line)
            self.last_reject = ("the game is over" if self.game.ended else "rejected by the referee") \
                if ev["ev"] != "register" else "bad register event"
        if ok and (ev["ev"] == "register" or ev["ev"] == "which"):
            # not referee inputs as such (which's undo and land are saved in
            # the game), but a recording needs them: the raw log replays
            # lessons and answers too
            self.link.send("input", ev)
        return ok

    def end(self):
        """The link's `end`: an input like any other, saved and replayed
        after a reset; the game is over then (later inputs are refused)."""
        self.last_reject = None
        return self.rec.feed({"t": self.now(), "ev": "end"})

    def which(self, zone, bakugan, t):
        """The thrower's answer to an unsure landing (a button): as the
        link's `which`, echoed for a recording."""
        ok = self.match.which(zone, bakugan, t)
        if ok:
            self.link.send("input", {"t": t, "ev": "which", "zone": zone, "bakugan": bakugan})
        return ok

    def register(self, bakugan, zone, t):
        """A player teaches the mat one of their Bakugan from the phone (as
        the link's `register`, echoed for a recording): the next Bakugan
        that settles on zone is that one."""
        ev = {"t": t, "ev": "register", "bakugan": bakugan, "zone": zone}
        ok = self.match.control(ev)
        if ok:
            self.link.send("input", ev)
        return ok

    def button(self, i, gesture, t):
        """A debounced press of button i: its meaning in the game state
        (docs/table-play.md), applied by the table."""
        if self.table is not None:
            self.input_zone = None
            self.table.button(i, gesture, t)

    def taught(self):
        """The game's Bakugan the sensing can tell by their magnet (taught,
        or learnt from a landing it was sure of): untaught ones it names by
        the referee's context alone (`bakumat bench sensing`, untaught)."""
        if self.match is None:
            return []
        knows = self.match.pipeline.knows
        return [b["id"] for p in self.header["players"] for b in p.get("bakugan", ()) if knows(b["id"])]

    def keep_claims(self, codes):
        """The phones' claims on the sides, kept over a reset (store)."""
        try:
            self.store.save_claims(codes)
        except OSError as e:
            self.health.save_failed("claims not saved: %s" % e)

    # ------------------------------------------------------ the recorder
    def note(self, ev):
        """The input being handled is about ev's zone (a reject shows there)."""
        self.input_zone = ev.get("zone")

    def changed(self):
        """The game's view may have changed: the LEDs follow at the next show."""
        self.view_changed = True

    def _save_input(self, ev):
        """Save an input the journal accepted; None once saved, else why
        not (the Recorder then takes it back)."""
        try:
            self.store.game_append(ev)
        except OSError as e:
            why = "filesystem full" if e.args and e.args[0] == 28 else str(e)
            self.health.save_failed("event not saved: %s" % why)
            return why
        self.events += 1
        t = ev.get("t", 0)
        if t > self.last_event_t:
            self.last_event_t = t
        if not self.replaying and ev.get("ev") != "land" and ev.get("ev") != "end" and ev.get("by") != "amend":
            # echo accepted controls, wherever they came from (link, buttons,
            # phone, inference), so a recording host logs them all (not the
            # ones an amend feeds again: the `which` or the sensing's `ident`
            # that caused it does it again in a replay)
            self.link.send("input", ev)
        return None

    def idle(self):
        """A tick with nothing else to do: the journal's due checkpoint."""
        if self.game is not None and self.game.due:
            self.game.idle()

    # ---------------------------------------------------------- outputs
    def show(self):
        """The LEDs follow the game's view when it changed (the table's
        question opens and closes without a game event: an unsure landing,
        an answer that confirms, no answer in time)."""
        if self.game is not None and (self.view_changed or self.table.question is not self.shown_question):
            self.view_changed = False
            self.shown_question = self.table.question
            self.feedback.sync(self.game.view())
            ask = getattr(self.feedback, "asking", None)
            if ask is not None:
                ask(self.table.asking())

    def _game_out(self, out):
        """A referee output: what the input's handling needs now (why it
        was refused, the phone page's record); its link frame and LED and
        buzzer cue wait for the next ticks (link.later: one output a tick,
        in order with every frame sent meanwhile), so a battle's outputs do
        not all land in the tick that decided it."""
        self.health.worked()
        if self.replaying:
            return
        if out[0] == "reject":
            for k, v in out[2]:
                if k == "reason":
                    self.last_reject = v
        if self.phone is not None:
            self.phone.on_event(out)
        # the input's zone as its sender wrote it: a reject of a malformed
        # one (a zone that is no number) flashes nowhere
        z = self.input_zone
        self.link.later(self._emit, out, z if type(z) is int else None)

    def _emit(self, out, zone):
        self.link.send_json("game", encode_json(out))
        self.feedback.event(out, zone)
        self.view_changed = True

    def _sensed(self, ev):
        self.health.worked()
        kind = ev.get("ev")
        if kind == "fault":
            ch = ev.get("ch")
            zone = self.channel_zones[ch] if type(ch) is int and 0 <= ch < len(self.channel_zones) else None
            body = dict(ev)
            body["zone"] = zone
            self.health.fault(ch)
            self.link.send("fault", body)
            self.feedback.fault(zone, True)
            return
        self.link.send("mat", ev)
        if self.table is not None:
            self.table.sensed(ev)
        if kind == "land" and ev.get("learned"):
            if self.phone is not None:
                # the phones show what the mat learnt (and what it may take
                # it for): not a game event, only on the page
                self.phone.on_event(("learnt", ev.get("t", 0), (("bakugan", ev.get("bakugan")),
                                                                ("zone", ev.get("zone")),
                                                                ("alike", ev.get("alike") or []))))
            try:
                self.store.save_signatures(self.match.pipeline.signatures())
            except OSError as e:
                self.health.save_failed("signatures not saved: %s" % e)
