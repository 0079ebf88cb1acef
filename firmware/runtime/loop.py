"""The app's one cooperative loop, on a tick scheduler.

    loop = Loop(board, period_ms, link, health, session, requests, feedback, buttons, phone)
    loop.run()                       # forever (tests: run(until=...))

Why a tick scheduler and not asyncio: the only hard deadline is the scan
(every 1000/rate_hz ms) and everything else is bounded work that can wait
one tick. A fixed order per tick (scan -> sense+referee -> link input ->
feedback -> link output -> watchdog) makes the worst case the plain sum of
the stage budgets, which is measured (bench runtime) instead of hoped for;
asyncio would add a task queue, per-await objects and fairness that
depends on every task yielding often enough, with no priority for the scan.
Between ticks the loop only reads serial input (until the next scan is due)
and sleeps in board.idle(), which returns early when input arrives.

Bounded work per tick: the link reads at most rx_budget bytes and handles
at most MSGS_PER_TICK messages; output drains at most board.tx_budget
bytes; feedback redraws at most every 40 ms. A game event's outputs (link
frames, LED and buzzer cues) go one per tick from the next tick on
(link.later and pump, in the feedback stage): the tick that decides an
event does the referee step and the save, not the outputs too. A tick that starts more than a
period late is counted in `overruns`; the schedule then restarts from now
rather than bursting to catch up.

The watchdog is fed at the end of a tick that scanned and ran every stage
without an exception. A stage that raises is reported (a `log` frame) and
the loop goes on; after MAX_FAILS failing ticks in a row it stops feeding,
so the watchdog resets the board, as it does when anything hangs.
"""
import gc
import sys

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

MSGS_PER_TICK = const(2)
HELD_MAX = const(8)        # frames waiting behind outputs before requests wait too
MAX_FAILS = const(10)
TX_RESERVE = const(2048)   # free TX bytes needed before taking a request
WEB_MS = const(3)         # phone page budget per tick (ms)
# stage indices for the per-stage timing (health.STAGES)
_ST_SCAN = const(0)
_ST_SENSE = const(1)
_ST_LINK = const(2)
_ST_SHOW = const(3)
_ST_TX = const(4)


class Loop:
    def __init__(self, board, period_ms, link, health, session, requests, feedback, buttons=None, phone=None):
        """board: hw.Board; link: link.server.Link; health: runtime.health.Health;
        session: runtime.session.Session; requests: runtime.requests.Requests;
        feedback: show.feedback.Feedback; buttons: runtime.buttons.ButtonPanel
        or None; phone: runtime.phone.PhonePage or None."""
        self.board = board
        self.clock = board.clock
        self._us = board.clock.ticks_us     # bound methods cached once: taking one allocates
        self._diff = board.clock.ticks_diff
        self.link = link
        self.health = health
        self.session = session
        self.requests = requests
        self.buttons = buttons
        self.phone = phone
        self.feedback = feedback
        self.period = period_ms

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
                    self.health.overruns += 1
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
                    self.board.idle(wait)        # returns early on input

    def tick(self, now):
        clock = self.clock
        us = self._us
        diff = self._diff
        health = self.health
        session = self.session
        requests = self.requests
        profile = health.profile
        if profile:
            a0 = gc.mem_alloc()
            health.busy = False
        t0 = us()
        ok = True
        waiting = len(self.link.held)   # outputs of earlier ticks: one goes out in 4.
        # 1. scan: nothing before it, so a scan is never late by more than
        # the previous tick's overrun
        frame = self.board.scanner.scan()
        health.scans += 1
        t1 = us()
        # 2. sensing and referee
        try:
            if session.match is not None:
                gt = session.gtime(now)
                session.match.frame(frame, gt)
                session.table.tick(gt)
            if requests.stream_frames and not requests.new_baud:
                self.link.send("frame", {"t": session.gtime(now), "c": list(frame)}, bulk=True)
        except Exception as e:
            ok = False
            self._fail("sense", e)
        t2 = us()
        # 3. link input: a few messages at most
        try:
            link = self.link
            link.service(clock.ticks_add(now, self.period // 2))
            for _ in range(MSGS_PER_TICK if link.inbox else 0):
                # back-pressure: a request is taken only when its reply fits
                # and not many frames wait behind earlier outputs
                if link.tx_free() < TX_RESERVE or len(link.held) > HELD_MAX:
                    break
                m = link.next()
                if m is None:
                    break
                requests.handle(m[0], m[1], m[2])
            if self.buttons is not None:
                self.buttons.poll(session.gtime(now))
        except Exception as e:
            ok = False
            self._fail("link", e)
        # 3b. the phone page, after the link, with a small budget
        if self.phone is not None:
            try:
                self.phone.service(clock.ticks_add(now, WEB_MS))
            except Exception as e:
                ok = False
                self._fail("web", e)
        t3 = us()
        # 4. feedback: the oldest output of an earlier tick goes out (its
        # frame, its cue), then the LEDs follow the game
        try:
            if waiting:
                self.link.pump()
            elif not self.link.held:
                session.idle()       # no output waits: what was put off (a checkpoint)
            session.show()
            if requests.selftest is not None:
                requests.selftest_step(now)
            self.feedback.tick(now)
        except Exception as e:
            ok = False
            self._fail("show", e)
        t4 = us()
        # 5. link output, bounded; then what a request asked for once its
        # reply is out (a line speed, a restart)
        if self.link.flush(self.board.tx_room()) and profile:
            health.busy = True
        if requests.new_baud or requests.restart:
            requests.after_reply()
        t5 = us()
        # 6. watchdog: only a healthy tick feeds it
        if ok:
            health.failing_ticks = 0
        if health.failing_ticks < MAX_FAILS and self.board.wdt is not None:
            self.board.wdt.feed()
        d = diff(t5, t0)
        if d > health.loop_us_max:
            health.loop_us_max = d
        health.ticks += 1
        if profile:
            health.tick_alloc(a0, gc.mem_alloc())
            health.stage(_ST_SCAN, diff(t1, t0))
            health.stage(_ST_SENSE, diff(t2, t1))
            health.stage(_ST_LINK, diff(t3, t2))
            health.stage(_ST_SHOW, diff(t4, t3))
            health.stage(_ST_TX, diff(t5, t4))

    def _fail(self, stage, e):
        self.health.failing_ticks += 1
        try:
            self.health.log("%s stage failed: %s: %s" % (stage, type(e).__name__, e))
        except Exception:
            pass
        if self.health.failing_ticks == 1 and hasattr(sys, "print_exception"):
            sys.print_exception(e)
