"""A manual clock with the API of MicroPython's `time` module (ticks_ms,
ticks_us, ticks_diff, ticks_add, sleep_ms, sleep_us). TEST CODE: DO NOT
UPLOAD TO A BOARD.

Time only moves when someone sleeps on it or calls advance(); ticks wrap at
2**30 like MicroPython's, so firmware that forgets ticks_diff() breaks here.
Watchers (the fake WDT, fake Timers) are told every time the clock moves.
"""

TICKS_PERIOD = 1 << 30
_HALF = TICKS_PERIOD // 2


class FakeClock:
    def __init__(self, start_ms=0):
        self.us = start_ms * 1000   # absolute microseconds, never wraps
        self.watchers = []
        self.slept_ms = 0           # total time spent in sleep_ms/sleep_us

    # --- the `time` API -------------------------------------------------
    def ticks_ms(self):
        self._tell()
        return (self.us // 1000) % TICKS_PERIOD

    def ticks_us(self):
        self._tell()
        return self.us % TICKS_PERIOD

    def ticks_cpu(self):
        return self.ticks_us()

    def ticks_diff(self, a, b):
        return ((a - b + _HALF) % TICKS_PERIOD) - _HALF

    def ticks_add(self, a, d):
        return (a + d) % TICKS_PERIOD

    def sleep_ms(self, ms):
        if ms > 0:
            self.slept_ms += ms
            self.advance_us(ms * 1000)

    def sleep_us(self, us):
        if us > 0:
            self.advance_us(us)

    def sleep(self, s):
        self.sleep_ms(int(s * 1000))

    def time(self):
        return self.us // 1000000

    # --- test control ---------------------------------------------------
    def now_ms(self):
        """Absolute ms since the clock started (no wrap), for assertions."""
        return self.us // 1000

    def advance(self, ms):
        self.advance_us(ms * 1000)

    def advance_us(self, us):
        self.us += us
        self._tell()

    def _tell(self):
        for w in list(self.watchers):
            w(self)
