"""The BakuMat application: one cooperative loop on a tick scheduler.

    import app
    a = app.App(board, board_def)    # board: hw.Board from hw.esp32 / hw.vboard
    a.boot()                         # resume the stored game, say hello, start the WDT
    a.run()                          # forever (tests: run(until=...))

Why a tick scheduler and not asyncio: the only hard deadline is the scan
(every 1000/rate_hz ms) and everything else is bounded work that can wait
one tick. A fixed order per tick (scan -> sense+referee -> link input ->
feedback -> link output -> watchdog) makes the worst case the plain sum of
the stage budgets, which is measured (bench_runtime) instead of hoped for;
asyncio would add a task queue, per-await objects and fairness that
depends on every task yielding often enough, with no priority for the scan.
Between ticks the loop only reads serial input (until the next scan is due)
and sleeps in board.idle(), which returns early when input arrives.

Bounded work per tick: the link reads at most rx_budget bytes and handles
at most MSGS_PER_TICK messages; output drains at most board.tx_budget
bytes; feedback redraws at most every 40 ms. A tick that starts more than a
period late is counted in `overruns`; the schedule then restarts from now
rather than bursting to catch up.

The watchdog is fed at the end of a tick that scanned and ran every stage
without an exception. A stage that raises is reported (a `log` frame) and
the loop goes on; after MAX_FAILS failing ticks in a row it stops feeding,
so the watchdog resets the board, as it does when anything hangs.
"""
import gc
import json
import sys

import referee
from referee.events import encode_json
from referee.journal import Journal
from match import Match
from table.buttons import Buttons, SHORT
from table.controller import Table, OK, BACK, ROLL_MAX_MS
from show.feedback import Feedback
from link.server import Link
from store.state import State, StoreError
from store.eventcheck import FIELDS, LogError, check_event, _Ids
from referee import header as game_header

try:
    import micropython
    from micropython import const
except ImportError:
    micropython = None

    def const(x):
        return x

from version import FW as FW_VERSION

# the sensing reports balls rolling across (the table's miss inference)
ROLL_PARAMS = {"roll_max_ms": ROLL_MAX_MS}
PROTO = const(1)
MSGS_PER_TICK = const(2)
MAX_FAILS = const(10)
TX_RESERVE = const(2048)   # free TX bytes needed before taking a request
WDT_MS = const(3000)
WEB_MS = const(3)         # phone page budget per tick (ms)
WEB_DIR = "web"
WEB_FILES = ("phone.html", "phone.js", "mat.js", "mat.css")   # "/" is phone.html
BAUDS = (115200, 230400, 460800, 921600)   # line speeds `raw` may switch to
CONTROLS = ("gate", "miss", "ability", "resolve", "choose", "register", "undo", "which")
# stage indices for the per-stage timing (bench_runtime)
ST_SCAN = const(0)
ST_SENSE = const(1)
ST_LINK = const(2)
ST_SHOW = const(3)
ST_TX = const(4)
STAGES = ("scan", "sense", "link", "show", "tx")


# what the app reads from the board definition once the hardware is built
# and the app made: what a new game's pipeline reads (the feedback, the
# buttons' roles and the phone page's board are taken at construction)
# (and "kernels": the kernel table a computed-physics mat's detector fits, sense/fit.py)
_BD_KEEP = ("name", "rate_hz", "plate", "card", "magnet", "sense", "sensor_plane_to_card_top_mm", "kernels")
_DROP = ("part", "pin", "sides", "module")     # descriptions and pins: hardware is built already
_ZF = const(5)     # zone fields in the compact zone array: id, x, y, w, h


def _slim(d):
    if type(d) is not dict:
        return d
    out = {}
    for k in d:
        if k not in _DROP:
            out[k] = d[k]
    return out


def _compact(board_def):
    """A copy of the board definition with only what a new game's pipeline
    reads: no wiring, no outline, no descriptions; the sensor list (one
    dict per channel: the biggest thing in it, tens of KB of heap) is one
    float array, the zone list one double array; _expand() rebuilds what
    the pipeline reads, for a new game only. board_def itself is not
    changed."""
    from array import array
    bd = {}
    for k in _BD_KEEP:
        if k in board_def:
            bd[k] = board_def[k]
    if type(board_def.get("sensor")) is dict:
        bd["sensor"] = _slim(board_def["sensor"])
    sens = board_def.get("sensors")
    if type(sens) is list:
        a = array("f", bytearray(16 * len(sens)))
        for i in range(len(sens)):
            s = sens[i]
            a[4 * i] = s["ch"]
            a[4 * i + 1] = s["zone"]
            a[4 * i + 2] = s["x"]
            a[4 * i + 3] = s["y"]
        bd["sensors"] = a
    zones = board_def.get("zones")
    if type(zones) is list:
        a = array("d", bytearray(8 * _ZF * len(zones)))
        for i in range(len(zones)):
            z = zones[i]
            a[_ZF * i] = z["id"]
            a[_ZF * i + 1] = z["x"]
            a[_ZF * i + 2] = z["y"]
            a[_ZF * i + 3] = z["w"]
            a[_ZF * i + 4] = z["h"]
        bd["zones"] = a
    return bd


class _SensorList:
    """The sensor list as the pipeline reads it (len(), then each item's
    ["ch"], ["zone"], ["x"], ["y"] once, in order), served from the compact
    array through one reused item: no dict per sensor."""

    def __init__(self, a):
        self.a = a
        self.i = 0

    def __len__(self):
        return len(self.a) // 4

    def __iter__(self):
        for i in range(0, len(self.a), 4):
            self.i = i
            yield self

    def __getitem__(self, k):
        a = self.a
        i = self.i
        if k == "ch":
            return int(a[i])
        if k == "zone":
            return int(a[i + 1])
        if k == "x":
            return a[i + 2]
        if k == "y":
            return a[i + 3]
        raise KeyError(k)


def _expand(bd):
    """The compact board definition as the pipeline reads it: the sensors
    served from their array, the zones as a list of dicts again (garbage
    once the pipeline is built: it keeps its own arrays)."""
    out = dict(bd)
    a = bd.get("sensors")
    if a is not None and type(a) is not list:
        out["sensors"] = _SensorList(a)
    a = bd.get("zones")
    if a is not None and type(a) is not list:
        zl = []
        for i in range(0, len(a), _ZF):
            zl.append({"id": int(a[i]), "x": a[i + 1], "y": a[i + 2], "w": a[i + 3], "h": a[i + 4]})
        out["zones"] = zl
    return out


class Recorder:
    """The game's journal (referee.journal.Journal) as the table sees it:
    every accepted input event -- landings, controls from the link, button
    presses, phone inputs, inferences, `undo` included -- is saved (store)
    before the loop goes on, so a replay of the stored log reproduces them;
    the sink knows which zone the input was about (for reject feedback).
    Anything else (game, expects(), view()) is the journal's."""

    def __init__(self, journal, app):
        self.j = journal
        self.app = app

    def feed(self, ev):
        self.app._input_zone = ev.get("zone")
        why = self.app._check_input(ev)
        if why is not None:
            if self.j.sink is not None:
                t = ev.get("t")
                self.j.sink(("reject", t if type(t) is int else self.j.game.t,
                             (("input", ev.get("ev") if type(ev.get("ev")) is str else "?"), ("reason", why))))
            return False
        before = list(self.j.events)
        ok = self.j.feed(ev)
        if ok and not self.app._accepted(ev):
            self._unsaved(before, ev)
            ok = False
        self.app._view_dirty = True
        return ok

    def undo(self, t):
        """Take back the last event (a button's long press, a phone): saved
        as an `undo` input event like the link's."""
        before = list(self.j.events)
        last = self.j.undo(t)
        if last is not None:
            ev = {"t": t, "ev": "undo"}
            if not self.app._accepted(ev):
                self._unsaved(before, ev)
                last = None
        self.app._view_dirty = True
        return last

    def _unsaved(self, before, ev):
        """The input was accepted but its save failed (a full filesystem,
        a flash error): the game goes back to what is saved, and the
        input is refused, so the live game never differs from the saved."""
        self.j.restore(before)
        if self.j.sink is not None:
            self.j.sink(("reject", ev.get("t", 0), (("input", ev.get("ev")),
                                                    ("reason", "not saved: %s" % self.app._save_error))))

    def finish(self, t=None):
        self.j.finish(t)
        self.app._view_dirty = True

    def __getattr__(self, name):
        return getattr(self.j, name)


class App:
    def __init__(self, board, board_def, wdt_ms=WDT_MS, profile=False):
        self.b = board
        self.bd = _compact(board_def)
        self.clock = board.clock
        self._us = board.clock.ticks_us
        self._diff = board.clock.ticks_diff
        rate = board_def.get("rate_hz", 50)
        self.period = 1000 // rate
        self.link = Link(board.port, board.clock)
        self.fb = Feedback(board.strip, board.buzzer, board.clock, board_def)
        self.store = State(board.fs_root)
        self.wdt_ms = wdt_ms
        from array import array
        sa = self.bd.get("sensors") or ()
        za = self.bd.get("zones") or ()
        self.zone_ids = tuple(int(za[i]) for i in range(0, len(za), _ZF))
        self.ids = None              # the game's ids (store.eventlog._Ids), to check every input
        self.ch_zone = array("h", [-1] * (len(sa) // 4))     # channel -> zone id (no dict: heap)
        for i in range(0, len(sa), 4):
            self.ch_zone[int(sa[i])] = int(sa[i + 1])
        self.header = None
        self.game = None
        self.rec = None
        self.table = None
        self.match = None
        self.events = 0
        self.g_base = 0            # ticks when game time g_off started
        self.g_off = 0
        self.last_t = 0
        self.raw = False
        self.faults = []
        self.scans = 0
        self.overruns = 0
        self.loop_us_max = 0
        self.fails = 0
        self.save_errors = 0
        self.replaying = False
        self._input_zone = None
        self._view_dirty = False
        self._asked = None           # the table's question the LEDs last showed
        self._maint_pending = False
        self._reset_pending = False
        self._selftest = None
        self.boot_ms = self.clock.ticks_ms()
        self.profile = profile
        self.stage_us = array("i", [0] * len(STAGES))
        self.stage_max = array("i", [0] * len(STAGES))
        self.ticks = 0
        self._busy = False
        self.quiet_ticks = 0         # profile: ticks without any event, message or output
        self.quiet_alloc_ticks = 0   # ... of which allocated heap
        self.quiet_alloc = 0
        self.quiet_alloc_max = 0
        self.alloc_busy = 0
        self.buttons = board.buttons
        self.btns = Buttons(len(self.buttons), self._gesture) if self.buttons else None
        self.roles = _roles(board_def, self.buttons)
        # the phone page: the hw layer made the listening socket (or not);
        # the server and the web app are built when a game exists, from
        # the page's board description, encoded once here
        self.listener = getattr(board, "listener", None)
        self.page_board = None
        if self.listener is not None:
            from link.pageboard import board_json
            self.page_board = json.dumps(board_json(board_def))
        self.web = None
        self.httpd = None

    # ------------------------------------------------------------- boot
    def boot(self):
        # the watchdog first: whatever goes wrong from here on (a stored
        # game too big for the heap, a bug) ends in a reset, not a dead board
        self.b.wdt_start(self.wdt_ms)
        st = self.store
        st.cleanup()
        resumed = 0
        try:
            resumed = self._resume()
        except (StoreError, referee.SetupError, ValueError, KeyError, TypeError) as e:
            self.log("stored game not resumed: %s" % e)
            self._drop_game()
        if self.listener is not None and self.httpd is None:
            self._web_start()     # the page answers "no game" until a cfg
        self.link.send("hello", {"fw": FW_VERSION, "proto": PROTO, "board": self.bd.get("name"),
                                 "cause": self.b.reset_cause, "resumed": resumed, "boot": self.link.boot})
        self.fb.event(("boot", 0, ()))
        return resumed

    def _resume(self):
        header = None
        n = 0
        last_t = 0
        for lineno, obj in self.store.game_lines():
            if header is None:
                header = obj
                self._new_game(header, save=False)
                self.replaying = True
                continue
            if not self.game.feed(obj):
                self.replaying = False
                raise StoreError("game.ndj line %d: stored event rejected on replay" % lineno)
            n += 1
            last_t = obj.get("t", last_t)
        self.replaying = False
        if header is None:
            return 0
        self.events = n
        self.g_off = last_t
        self.last_t = last_t
        self.g_base = self.clock.ticks_ms()
        self._view_dirty = True
        return n

    def _restore(self):
        """The stored game again (after a new one failed to start)."""
        self._drop_game()
        gc.collect()
        try:
            self._resume()
        except (StoreError, referee.SetupError, ValueError, KeyError, TypeError, MemoryError, OSError) as e:
            self.log("stored game not resumed: %s" % e)
            self._drop_game()
        if self.listener is not None:
            self._web_start()

    def _drop_game(self):
        self.ids = None
        self.header = None
        self.game = None
        self.rec = None
        self.table = None
        self.match = None
        self.web = None
        if self.httpd is not None:
            self.httpd.app = _NoGame
        self.replaying = False

    def _new_game(self, header, save=True):
        """The previous game is dropped first (a board has room for one);
        the new one is saved only once it is fully built, so after a
        failure (bad header, out of memory) the stored game is still the
        previous one and comes back at the next boot."""
        # free the previous game first: a board has room for one
        self._drop_game()
        gc.collect()
        # the journal keeps the accepted events, so `undo` can take one back
        g = Journal(header, self._game_out)   # SetupError on a bad header
        ids = _Ids(header)
        rec = Recorder(g, self)
        # the table infers inputs (gate, resolve, miss, move) and takes the
        # buttons; what it feeds goes through the recorder, so it is saved
        table = Table(rec, None, self.roles)
        # building the pipeline churns much float garbage between the
        # arrays it keeps: collecting often meanwhile packs what it keeps
        # instead of leaving the free heap in small holes (a 72 KB data heap
        # takes a game, against 96 KB without)
        th = gc.threshold() if hasattr(gc, "threshold") else None
        if th is not None:
            gc.threshold(4096)
        try:
            match = Match(_expand(self.bd), table, self._sensed, params=ROLL_PARAMS)
            table.which = self._which   # the thrower's answer to an unsure landing
            table.register = self._register   # a player teaching the mat from the phone
        finally:
            if th is not None:
                gc.threshold(th)
        sigs = self.store.load_signatures()
        if sigs:
            match.pipeline.teach(sigs)
        cal = self.store.load_calibration()
        if cal and "zero" in cal and len(cal["zero"]) == self.b.scanner.n:
            match.pipeline.start(cal["zero"])
        if save:
            # a new game: the phones claim again (the claims go first: a cut
            # in between leaves the old game without claims, never the new
            # one with the old game's)
            self.store.save_claims(None)
            self.store.game_start(header)
        self.ids = ids
        self.header = header
        self.game = g
        self.rec = rec
        self.table = table
        self.match = match
        self.events = 0
        self.g_base = self.clock.ticks_ms()
        self.g_off = 0
        self.last_t = 0
        self.fb.configure(header)
        self._view_dirty = True
        if self.listener is not None:
            self._web_start()
        # building the pipeline leaves much garbage (float maths) between
        # what it keeps: collect now, not in the middle of the first landing
        gc.collect()

    def _web_start(self):
        """The phone page (docs/formats/web-api-v1.md) for this game: the
        server is made once, the web app per game."""
        if self.table is not None:
            from link.webapp import WebApp
            try:
                codes = self.store.load_claims()
            except OSError:
                codes = None
            self.web = WebApp(self.page_board, self.table, self._gnow, self._leds, taught=self._taught,
                              codes=codes, keep=self._keep_claims, zones=self.zone_ids)
        app = self.web if self.web is not None else _NoGame
        if self.httpd is None:
            from link.httpd import HttpServer
            self.httpd = HttpServer(self.listener, app, self.clock,
                                    getattr(self.b, "web_dir", None) or WEB_DIR, WEB_FILES, "phone.html")
        else:
            self.httpd.app = app

    def _keep_claims(self, codes):
        try:
            self.store.save_claims(codes)
        except OSError as e:
            self.save_errors += 1
            self.log("claims not saved: %s" % e)

    def _gnow(self):
        return self.gtime(self.clock.ticks_ms())

    def _leds(self):
        strip = self.b.strip
        if strip is None:
            return []
        return [list(strip.get(i)) for i in range(strip.n)]

    def gtime(self, now):
        t = self.g_off + self.clock.ticks_diff(now, self.g_base)
        if t < self.last_t:
            t = self.last_t
        return t

    def _check_input(self, ev):
        """Why an input event may not go into the game (None: it may): its
        fields checked as a log's are (store.eventlog: types, the game's
        ids), a zone must be one of the board's; fields its kind does not
        have are dropped (whoever sent them: link, phone, buttons), so the
        saved game holds nothing else."""
        if type(ev) is not dict:
            return "an input event must be an object"
        kind = ev.get("ev")
        if kind == "undo" or kind == "end":
            return None
        spec = FIELDS.get(kind) if type(kind) is str else None
        if spec is None or self.ids is None:
            return "unknown input"
        try:
            check_event(ev, 0, self.ids)
        except LogError as e:
            return e.msg
        except (KeyError, TypeError, ValueError):
            return "malformed event"
        z = ev.get("zone")
        if z is not None and z not in self.zone_ids:
            return "no zone %d on this mat" % z
        for k in list(ev):
            if k != "t" and k != "ev" and k != "by":
                keep = False
                for name, _typ, _req in spec:
                    if name == k:
                        keep = True
                if not keep:
                    del ev[k]
        by = ev.get("by")
        if by is not None and (type(by) is not str or len(by) > 12):
            del ev["by"]
        return None

    # ---------------------------------------------------------- outputs
    def log(self, msg):
        self._busy = True
        self.link.send("log", {"msg": msg})

    def _game_out(self, out):
        self._busy = True
        if self.replaying:
            return
        if out[0] == "reject":
            for k, v in out[2]:
                if k == "reason":
                    self._last_reject = v
        self.link.send_json("game", encode_json(out))
        self.fb.event(out, self._input_zone)
        self._view_dirty = True
        if self.web is not None:
            self.web.on_event(out)

    def _sensed(self, ev):
        self._busy = True
        kind = ev.get("ev")
        if kind == "fault":
            ch = ev.get("ch")
            zone = self.ch_zone[ch] if type(ch) is int and 0 <= ch < len(self.ch_zone) else None
            body = dict(ev)
            body["zone"] = zone
            if ch not in self.faults:
                self.faults.append(ch)
            self.link.send("fault", body)
            self.fb.fault(zone, True)
            return
        self.link.send("mat", ev)
        if self.table is not None:
            self.table.sensed(ev)
        if kind == "land" and ev.get("learned"):
            if self.web is not None:
                # the phones show what the mat learnt (and what it may take
                # it for): not a game event, only on the page
                self.web.on_event(("learnt", ev.get("t", 0), (("bakugan", ev.get("bakugan")), ("zone", ev.get("zone")),
                                                              ("alike", ev.get("alike") or []))))
            try:
                self.store.save_signatures(self.match.pipeline.signatures())
            except OSError as e:
                self.save_errors += 1
                self.log("signatures not saved: %s" % e)

    _save_error = None

    def _accepted(self, ev):
        """Save an input the journal accepted; False when the save failed
        (the Recorder then takes it back)."""
        try:
            self.store.game_append(ev)
        except OSError as e:
            self.save_errors += 1
            self._save_error = "filesystem full" if e.args and e.args[0] == 28 else str(e)
            self.log("event not saved: %s" % self._save_error)
            return False
        self.events += 1
        t = ev.get("t", 0)
        if t > self.last_t:
            self.last_t = t
        if not self.replaying and ev.get("ev") != "land" and ev.get("ev") != "end" and ev.get("by") != "amend":
            # echo accepted controls, wherever they came from (link, buttons,
            # phone, inference), so a recording host logs them all (not the
            # ones an amend feeds again: the `which` or the sensing's `ident`
            # that caused it does it again in a replay)
            self.link.send("input", ev)
        return True

    # ------------------------------------------------------------- loop
    def run(self, until=None, max_ticks=None):
        """The main loop. until(): stop when it returns true (tests);
        max_ticks: stop after that many ticks."""
        clock = self.clock
        period = self.period
        nxt = clock.ticks_ms()
        n = 0
        while True:
            if until is not None and until():
                return n
            now = clock.ticks_ms()
            if clock.ticks_diff(now, nxt) >= 0:
                if clock.ticks_diff(now, nxt) >= period:
                    self.overruns += 1
                    nxt = now
                self.tick(now)
                nxt = clock.ticks_add(nxt, period)
                n += 1
                if max_ticks is not None and n >= max_ticks:
                    return n
                continue
            # spare time until the next scan: read input, then sleep
            self.link.service(nxt)
            wait = clock.ticks_diff(nxt, clock.ticks_ms())
            if wait > 0:
                if self.link.inbox:
                    clock.sleep_ms(wait)     # messages wait for the tick
                else:
                    self.b.idle(wait)        # returns early on input

    def tick(self, now):
        clock = self.clock
        us = self._us          # bound methods cached once: taking one allocates
        diff = self._diff
        if self.profile:
            a0 = gc.mem_alloc()
            self._busy = False
        t0 = us()
        ok = True
        # 1. scan: nothing before it, so a scan is never late by more than
        # the previous tick's overrun
        frame = self.b.scanner.scan()
        self.scans += 1
        t1 = us()
        # 2. sensing and referee
        try:
            if self.match is not None:
                gt = self.gtime(now)
                self.match.frame(frame, gt)
                self.table.tick(gt)
            if self.raw and not self._baud_pending:
                self.link.send("frame", {"t": self.gtime(now), "c": list(frame)}, bulk=True)
        except Exception as e:
            ok = False
            self._fail("sense", e)
        t2 = us()
        # 3. link input: a few messages at most
        try:
            self.link.service(clock.ticks_add(now, self.period // 2))
            for _ in range(MSGS_PER_TICK):
                # back-pressure: a request is taken only when its reply fits
                if self.link.tx_free() < TX_RESERVE:
                    break
                m = self.link.next()
                if m is None:
                    break
                self.handle(m[0], m[1], m[2])
            if self.btns is not None:
                self._poll_buttons(now)
        except Exception as e:
            ok = False
            self._fail("link", e)
        # 3b. the phone page, after the link, with a small budget
        if self.httpd is not None:
            try:
                self.httpd.service(clock.ticks_add(now, WEB_MS))
            except Exception as e:
                ok = False
                self._fail("web", e)
        t3 = us()
        # 4. feedback: decisions of this tick show now
        try:
            # (the table's question opens and closes without a game event:
            # an unsure landing, an answer that confirms, no answer in time)
            if self.game is not None and (self._view_dirty or self.table.question is not self._asked):
                self._view_dirty = False
                self._asked = self.table.question
                self.fb.sync(self.game.view())
                ask = getattr(self.fb, "asking", None)
                if ask is not None:
                    ask(self.table.asking())
            if self._selftest is not None:
                self._selftest_step(now)
            self.fb.tick(now)
        except Exception as e:
            ok = False
            self._fail("show", e)
        t4 = us()
        # 5. link output, bounded
        if self.link.flush(self.b.tx_room()) and self.profile:
            self._busy = True
        if self._baud_pending and not self.link.pending_tx():
            # the ack went at the old speed: now the line's new one (raw)
            self.b.set_baud(self._baud_pending)
            self._baud_pending = 0
        if self._maint_pending or self._reset_pending:
            self._restart()
        t5 = us()
        # 6. watchdog: only a healthy tick feeds it
        if ok:
            self.fails = 0
        if self.fails < MAX_FAILS and self.b.wdt is not None:
            self.b.wdt.feed()
        d = diff(t5, t0)
        if d > self.loop_us_max:
            self.loop_us_max = d
        self.ticks += 1
        if self.profile:
            a1 = gc.mem_alloc()
            if a1 >= a0:                 # no collection ran during the tick
                if self._busy:
                    self.alloc_busy += a1 - a0
                else:
                    self.quiet_ticks += 1
                    if a1 > a0:
                        self.quiet_alloc_ticks += 1
                        self.quiet_alloc += a1 - a0
                        if a1 - a0 > self.quiet_alloc_max:
                            self.quiet_alloc_max = a1 - a0
            self._prof(ST_SCAN, diff(t1, t0))
            self._prof(ST_SENSE, diff(t2, t1))
            self._prof(ST_LINK, diff(t3, t2))
            self._prof(ST_SHOW, diff(t4, t3))
            self._prof(ST_TX, diff(t5, t4))

    def _prof(self, i, d):
        self.stage_us[i] += d
        if d > self.stage_max[i]:
            self.stage_max[i] = d

    def _fail(self, stage, e):
        self.fails += 1
        try:
            self.log("%s stage failed: %s: %s" % (stage, type(e).__name__, e))
        except Exception:
            pass
        if self.fails == 1 and hasattr(sys, "print_exception"):
            sys.print_exception(e)

    def _restart(self):
        self.link.drain_all()
        if self._maint_pending:
            self.store.set_maint(True)
        self.b.reset()

    def _poll_buttons(self, now):
        """The pins (active low) as a bit mask, debounced by table.buttons."""
        b = self.buttons
        mask = 0
        for i in range(len(b)):
            if not b[i][1].value():
                mask |= 1 << i
        self.btns.update(mask, self.gtime(now))

    def _gesture(self, i, gesture, t):
        """A debounced press: reported, then its meaning in the game state
        (docs/table-play.md) applied by the table."""
        self.link.send("mat", {"ev": "button", "name": self.buttons[i][0],
                               "press": "short" if gesture == SHORT else "long", "t": t})
        if self.web is not None:
            self.web.open_claim(self.roles[i][0])
        if self.table is not None:
            self._input_zone = None
            self.table.button(i, gesture, t)

    # ---------------------------------------------------------- requests
    def handle(self, seq, typ, body):
        self._busy = True
        link = self.link
        if typ == "ping":
            link.reply(seq, "pong", {"t": self.clock.ticks_ms(), "boot": link.boot})
        elif typ == "version":
            link.reply(seq, "version", {"fw": FW_VERSION, "proto": PROTO, "board": self.bd.get("name"),
                                        "mpy": _mpy_version()})
        elif typ == "health":
            link.reply(seq, "health", self.health())
        elif typ == "wifi":
            link.reply(seq, "ack", self._wifi())
        elif typ == "header":
            # the game's header (players, decks): what a live view names and draws
            link.reply(seq, "ack", {"ok": True, "header": self.header if self.game is not None else None})
        elif typ == "state":
            now = self.clock.ticks_ms()
            link.reply(seq, "state", {"configured": self.game is not None, "events": self.events, "now": now,
                                      "t": self.gtime(now) if self.game else 0,
                                      "view": self.game.view() if self.game is not None else None,
                                      "asking": self.table.asking_json() if self.table is not None and
                                      self.game is not None else None,
                                      "taught": self._taught() if self.game is not None else None,
                                      "names": [p["name"] for p in self.header["players"]]
                                      if self.game is not None else None})
        elif typ == "cfg":
            if type(body) is not dict:
                return link.reply(seq, "err", {"code": "bad", "msg": "cfg: the body must be an event-log header object"})
            # checked before the running game is touched: a refused
            # configuration leaves it playing
            try:
                cls = referee.load(body.get("mode"))
                game_header.check(body, cls.MIN_PLAYERS, cls.MAX_PLAYERS)
            except referee.SetupError as e:
                return link.reply(seq, "err", {"code": "setup", "msg": str(e)})
            except (KeyError, TypeError, ValueError, AttributeError) as e:
                return link.reply(seq, "err", {"code": "setup", "msg": "bad header: %s" % e})
            err = None
            try:
                self._new_game(body)
            except referee.SetupError as e:
                err = {"code": "setup", "msg": str(e)}
            except (KeyError, TypeError, ValueError) as e:
                err = {"code": "setup", "msg": "bad header: %s" % e}
            except OSError as e:
                self.save_errors += 1
                err = {"code": "store", "msg": "game not saved: %s" % e}
            except MemoryError:
                err = {"code": "memory", "msg": "not enough memory for this game"}
            if err is not None:
                # the mode's own deeper checks failed once the old game was
                # freed (a board has room for one): it comes back from the
                # store, where it is unchanged
                self._restore()
                return link.reply(seq, "err", err)
            link.reply(seq, "ack", {"ok": True})
        elif typ == "ctl":
            ev = body.get("ev") if type(body) is dict else None
            # the common controls, plus whatever control events the mode in
            # play accepts (reveal, trap, pick, item...); never a landing
            known = ev in CONTROLS or (self.game is not None and ev != "land" and ev in self.game.INPUTS)
            if not known:
                allowed = list(CONTROLS)
                if self.game is not None:
                    allowed += [k for k in self.game.INPUTS if k != "land" and k not in CONTROLS]
                return link.reply(seq, "err", {"code": "bad", "msg": "ctl: ev must be one of %s" % ", ".join(allowed)})
            if self.game is None:
                return link.reply(seq, "err", {"code": "nogame", "msg": "no game: send cfg first"})
            ok = self._control(body)
            if ok:
                link.reply(seq, "ack", {"ok": True})
            else:
                link.reply(seq, "ack", {"ok": False, "why": self._last_reject or "rejected"})
        elif typ == "end":
            if self.game is None:
                return link.reply(seq, "err", {"code": "nogame", "msg": "no game: send cfg first"})
            # an input like any other: saved, and replayed after a reset;
            # the game is over then (later inputs are refused)
            self._last_reject = None
            if not self.rec.feed({"t": self.gtime(self.clock.ticks_ms()), "ev": "end"}):
                return link.reply(seq, "ack", {"ok": False, "why": self._last_reject or "the game is over"})
            link.reply(seq, "ack", {"ok": True})
        elif typ == "raw":
            if type(body) is not dict or type(body.get("on")) is not bool:
                return link.reply(seq, "err", {"code": "bad", "msg": "raw: body must be {\"on\": true|false}"})
            baud = body.get("baud")
            if baud is not None and baud not in BAUDS:
                return link.reply(seq, "err", {"code": "bad", "msg": "raw: baud must be one of %s" %
                                               ", ".join([str(b) for b in BAUDS])})
            self.raw = body["on"]
            r = {"ok": True}
            if baud is not None and self.b.can_set_baud():
                r["baud"] = baud             # the host follows once it has this ack
                self._baud_pending = baud
            if self.raw and self.match is not None:
                # what the next scan, the first one streamed, is measured
                # against: a replay of the recording resumes from it
                b = self.match.pipeline.baselines()
                if b is not None:
                    r["frames"] = b[0]
                    r["base"] = b[1]
                # ... and the Bakugan it knows by their magnet (lessons taught before)
                r["sigs"] = self.match.pipeline.signatures()
            link.reply(seq, "ack", r)
        elif typ == "cal":
            self._calibrate(seq, body)
        elif typ == "test":
            what = body.get("what") if type(body) is dict else None
            if what not in ("leds", "buzzer"):
                return link.reply(seq, "err", {"code": "bad", "msg": "test: what must be leds or buzzer"})
            self._selftest = [what, seq, 0, self.clock.ticks_ms()]
        elif typ == "maint":
            if type(body) is not dict or body.get("on") is not True:
                return link.reply(seq, "err", {"code": "bad", "msg": "maint: body must be {\"on\": true} (leave with maint.leave() at the REPL)"})
            link.reply(seq, "ack", {"ok": True, "msg": "rebooting into maintenance mode"})
            self._maint_pending = True
        elif typ == "reset":
            link.reply(seq, "ack", {"ok": True})
            self._reset_pending = True
        else:
            link.reply(seq, "err", {"code": "unknown", "msg": "unknown request type %r" % typ})

    _last_reject = None
    _baud_pending = 0          # a line speed `raw` asked for, set once the ack is out

    def _control(self, body):
        ev = {}
        for k in body:
            ev[k] = body[k]
        ev["t"] = self.gtime(self.clock.ticks_ms())
        self._last_reject = None
        self._input_zone = ev.get("zone")
        try:
            ok = self.match.control(ev)
        except (KeyError, TypeError, ValueError) as e:
            self._last_reject = "bad event: %s" % e
            return False
        if not ok and self._last_reject is None:
            self._last_reject = "rejected by the referee" if ev["ev"] != "register" else "bad register event"
        if ok and (ev["ev"] == "register" or ev["ev"] == "which"):
            # not referee inputs as such (which's undo and land are saved in
            # the game), but a recording needs them: the raw log replays
            # lessons and answers too
            self.link.send("input", ev)
        return ok

    def _which(self, zone, bakugan, t):
        """The thrower's answer to an unsure landing (a button): as the
        link's `which`, echoed for a recording."""
        ok = self.match.which(zone, bakugan, t)
        if ok:
            self.link.send("input", {"t": t, "ev": "which", "zone": zone, "bakugan": bakugan})
        return ok

    def _register(self, bakugan, zone, t):
        """A player teaches the mat one of their Bakugan from the phone (as
        the link's `register`, echoed for a recording): the next Bakugan
        that settles on zone is that one."""
        ev = {"t": t, "ev": "register", "bakugan": bakugan, "zone": zone}
        ok = self.match.control(ev)
        if ok:
            self.link.send("input", ev)
        return ok

    def _taught(self):
        """The game's Bakugan the sensing can tell by their magnet (taught,
        or learnt from a landing it was sure of): untaught ones it names by
        the referee's context alone (`bakumat bench sensing`, untaught)."""
        if self.match is None:
            return []
        knows = self.match.pipeline.knows
        return [b["id"] for p in self.header["players"] for b in p.get("bakugan", ()) if knows(b["id"])]

    def _calibrate(self, seq, body=None):
        # `cal {"plate": {...}}` keeps what `bakumat diag plate` measured of
        # the real gate cards beside the zeros; a plain `cal` keeps it too
        old = self.store.load_calibration() or {}
        if type(body) is dict and "plate" in body:
            old["plate"] = body["plate"]
            try:
                self.store.save_calibration(old)
            except OSError as e:
                self.save_errors += 1
                return self.link.reply(seq, "ack", {"ok": False, "why": "not saved: %s" % e})
            return self.link.reply(seq, "ack", {"ok": True})
        frame = self.b.scanner.frame
        zero = list(frame)
        cal = {"zero": zero}
        if "plate" in old:
            cal["plate"] = old["plate"]
        try:
            self.store.save_calibration(cal)
        except OSError as e:
            self.save_errors += 1
            return self.link.reply(seq, "ack", {"ok": False, "why": "not saved: %s" % e})
        if self.match is not None:
            self.match.pipeline.start(zero)
        self.link.reply(seq, "ack", {"ok": True, "channels": len(zero)})

    def _selftest_step(self, now):
        what, seq, step, t0 = self._selftest
        strip = self.b.strip
        if what == "buzzer":
            if step == 0:
                from show import palette
                self.fb.sound.play(palette.CUE_WIN, now)
                self._selftest[2] = 1
            elif not self.fb.sound.busy():
                self._selftest = None
                from show import palette
                # what was driven: the notes (Hz, ms), for the host to say
                self.link.reply(seq, "ack", {"ok": self.b.buzzer is not None, "notes": list(palette.CUE_WIN[0]),
                                             "why": None if self.b.buzzer is not None else "no buzzer on this board"})
            return
        if strip is None:
            self._selftest = None
            return self.link.reply(seq, "ack", {"ok": False, "why": "no LEDs on this board"})
        n = strip.n
        if step < 3 * n:
            i = step // 3
            c = step % 3
            for j in range(n):
                strip.set(j, 0, 0, 0)
            cap = self.fb.cap
            strip.set(i, cap if c == 0 else 0, cap if c == 1 else 0, cap if c == 2 else 0)
            strip.write()
        elif step == 3 * n:
            for j in range(n):
                strip.set(j, self.fb.cap, self.fb.cap, self.fb.cap)
            self.fb._limit()
            strip.write()
        elif step > 3 * n + 25:
            self._selftest = None
            self.fb._dirty = True
            self.fb._last[0] ^= 1     # force the next redraw to be written
            # what was driven: each LED red, green, blue alone, then all at this level
            return self.link.reply(seq, "ack", {"ok": True, "leds": n, "writes": 3 * n + 1, "level": self.fb.cap})
        self._selftest[2] = step + 1

    def _wifi(self):
        """The Wi-Fi setting (wifi.json, docs/formats/wifi-v1.md) as read now,
        the password never sent, nor anything about it but whether one is
        set. Read-only, no restart."""
        try:
            with open(self.store.path("wifi.json")) as f:
                text = f.read()
        except OSError:
            return {"ok": True, "present": False}
        try:
            cfg = json.loads(text)
        except ValueError:
            return {"ok": True, "present": True, "valid": False}
        if type(cfg) is not dict:
            return {"ok": True, "present": True, "valid": False}
        key = cfg.get("key") or ""
        return {"ok": True, "present": True, "valid": True, "version": cfg.get("version"), "mode": cfg.get("mode"),
                "ssid": cfg.get("ssid"), "key_set": bool(key), "open": cfg.get("open") is True}

    def health(self):
        return {"uptime_ms": self.clock.ticks_diff(self.clock.ticks_ms(), self.boot_ms),
                "cause": self.b.reset_cause, "scans": self.scans, "overruns": self.overruns,
                "loop_us_max": self.loop_us_max, "mem_free": gc.mem_free() if hasattr(gc, "mem_free") else None,
                "rx_frames": self.link.dec.frames, "rx_errors": self.link.dec.errors,
                "rx_garbage": self.link.dec.garbage, "err_dropped": self.link.err_dropped,
                "rx_stale": self.link.stale,
                "tx_drops": self.link.tx_drops, "faults": list(self.faults),
                "wdt": self.b.wdt is not None, "saves": self.store.saves, "save_errors": self.save_errors,
                "events": self.events, "ticks": self.ticks,
                "stages": dict((STAGES[i], [self.stage_us[i], self.stage_max[i]]) for i in range(len(STAGES)))
                if self.profile else None,
                "alloc": {"quiet_ticks": self.quiet_ticks, "quiet_alloc_ticks": self.quiet_alloc_ticks,
                          "quiet_alloc_bytes": self.quiet_alloc, "quiet_alloc_max": self.quiet_alloc_max,
                          "busy_alloc_bytes": self.alloc_busy} if self.profile else None}


class _NoGame:
    """The web app between games: every API answer says so."""

    @staticmethod
    def handle(method, path, query, body, peer):
        return 503, "application/json", '{"error": "no game: the mat is not set up"}'


def _roles(bd, buttons):
    """Per board button (hw order): (player, OK|BACK) from the board
    definition's wiring buttons (matched by name; role "ok"/"back")."""
    w = (bd.get("wiring") or {}).get("buttons") or ()
    out = []
    for i in range(len(buttons)):
        name = buttons[i][0]
        role = (0, OK if i % 2 == 0 else BACK)
        for d in w:
            if type(d) is dict and d.get("name") == name:
                role = (d.get("player", 0), BACK if d.get("role") == "back" else OK)
        out.append(role)
    return tuple(out)


def _mpy_version():
    impl = sys.implementation
    v = getattr(impl, "version", None)
    if v:
        return "%s %d.%d.%d" % (impl.name, v[0], v[1], v[2])
    return impl.name


def main(build=None, board_path="board.json", root="", profile=False):
    """Start the app on a board: maintenance mode check, board definition
    from board_path, hardware from build(board_def) (hw.esp32.build by
    default), then loop. The keyboard interrupt is off while the app runs:
    a 0x03 byte on the serial line (line noise) is only a byte, and the way
    to the REPL is the framed `maint` request (docs/runtime.md). Should the
    app stop all the same (a port without kbd_intr), the watchdog is kept
    fed (board.wdt_park())."""
    import maint
    if maint.active(root):
        print("BakuMat: maintenance mode (no app, no watchdog). "
              "Leave: import maint; maint.leave(); machine.reset()")
        return None
    f = open(board_path)
    try:
        board_def = json.load(f)
    finally:
        f.close()
    if build is None:
        import hw.esp32
        build = hw.esp32.build
    board = build(board_def)
    # the hardware is built: its wiring tables are not needed any more
    w = board_def.get("wiring")
    if w:
        for k in ("channels", "adc_pins", "mux_select"):
            w.pop(k, None)
    a = App(board, board_def, profile=profile)
    board_def = None      # the app keeps a compact copy
    gc.collect()
    if hasattr(gc, "threshold"):
        # collect after a quarter of the free heap was allocated, rather than
        # only when an allocation fails: shorter pauses, garbage reclaimed
        # before it splits the free heap
        gc.threshold(gc.mem_free() // 4 + gc.mem_alloc())
    kbd = getattr(micropython, "kbd_intr", None) if micropython is not None else None
    if kbd is not None:
        kbd(-1)
    try:
        a.boot()
        a.run()
    except KeyboardInterrupt:
        board.wdt_park()
        print("BakuMat app stopped by Ctrl-C: REPL. The watchdog is kept fed until a reset; "
              "machine.reset() restarts the app, import maint; maint.enter() first for maintenance mode.")
    return a
