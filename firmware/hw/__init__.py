"""Hardware layer: the ONE place per board where hardware objects are built.

`hw.esp32.build(board_def)` (real board) and `hw.vboard.build(board_def, ...)`
(unix-port virtual board) each return a `hw.Board`; everything else in the
firmware receives the objects from it and only calls them. Tests build a
Board from the fakes in tests/fakes (tests/firmware/hwkit.py).

A Board has:
    clock      time-like object: ticks_ms ticks_us ticks_diff ticks_add sleep_ms
    scanner    hw.lis2.Lis2Scanner (or hw.amr.AmrScanner): .n channels, .frame
               array('H'), .scan()
    strip      hw.strip.Strip over a NeoPixel, or None
    buzzer     PWM object (freq(), duty_u16()), or None
    buttons    [(name, Pin)] active-low push buttons (may be empty)
    port       serial link port (hw.stdio.StdioPort on boards)
    tx_room()  bytes the link may write this tick (tx_budget, and the port's
               free room where it knows it: writes never wait for the line)
    idle(ms)   wait up to ms, returning early when serial input arrives
    wdt_start(timeout_ms) -> object with feed(); wdt_park() keeps it fed
               outside the app (REPL after Ctrl-C); see docs/runtime.md
    reset_cause  "power" | "hard" | "wdt" | "soft" | "deepsleep" | "unknown"
    reset()    hard reset
    fs_root    directory prefix for stored state ("" = current directory)
    listener   a bound, listening TCP socket for the phone page, or None
               (esp32: Wi-Fi from wifi.json; vboard: BAKUMAT_WEB=port)
    web_dir    directory of the page's static files ("web" on a board)
"""


class Board:
    def __init__(self, clock, scanner, port, strip=None, buzzer=None, buttons=None,
                 idle=None, wdt_factory=None, wdt_park=None, reset_cause="unknown",
                 reset=None, fs_root="", name="board", tx_budget=512, listener=None, web_dir="web"):
        self.clock = clock
        self.scanner = scanner
        self.port = port
        self.strip = strip
        self.buzzer = buzzer
        self.buttons = buttons or []
        self._idle = idle
        self._wdt_factory = wdt_factory
        self._wdt_park = wdt_park
        self.wdt = None
        self.reset_cause = reset_cause
        self._reset = reset
        self.fs_root = fs_root
        self.name = name
        self.tx_budget = tx_budget   # bytes the link may write per loop tick
        self._room = getattr(port, "room", None)   # the port's free room, where it knows it
        self.listener = listener
        self.web_dir = web_dir

    def idle(self, ms):
        if self._idle is not None:
            self._idle(ms)
        elif ms > 0:
            self.clock.sleep_ms(ms)

    def tx_room(self):
        """Bytes the link may write this tick: tx_budget, and no more than
        the port takes without waiting (hw.stdio.StdioPort.room)."""
        n = self.tx_budget
        if self._room is not None:
            k = self._room()
            if k is not None and k < n:
                n = k if k > 0 else 0
        return n

    def can_set_baud(self):
        f = getattr(self.port, "can_set_baud", None)
        return f is not None and f()

    def set_baud(self, baud):
        """Switch the serial line's speed (False where the port cannot)."""
        f = getattr(self.port, "set_baud", None)
        return f(baud) if f is not None else False

    def wdt_start(self, timeout_ms):
        if self.wdt is None and self._wdt_factory is not None:
            self.wdt = self._wdt_factory(timeout_ms)
        return self.wdt

    def wdt_park(self):
        if self.wdt is not None and self._wdt_park is not None:
            self._wdt_park(self.wdt)

    def reset(self):
        if self._reset is not None:
            self._reset()


# machine.reset_cause() values are the same on every port that has them.
_CAUSES = {1: "power", 2: "hard", 3: "wdt", 4: "deepsleep", 5: "soft"}


def cause_name(code):
    return _CAUSES.get(code, "unknown")


WIRING_MINOR = 1   # the wiring's minor versions this firmware builds: 1 adds "spi" (board-definition-v2.md)


def wiring_of(board_def):
    w = board_def.get("wiring")
    if w is None:
        raise ValueError("board definition has no wiring (needs a board folder, not a bare mat)")
    if w.get("minor", 0) > WIRING_MINOR:
        raise ValueError("board wiring minor version %d is newer than this firmware builds (%d): update the app"
                         % (w.get("minor", 0), WIRING_MINOR))
    return w
