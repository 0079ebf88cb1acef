"""The BakuMat application: the composition root, where the parts are made
and wired; each part has one job, in firmware/runtime/ (docs/runtime.md).

    import app
    a = app.App(board, board_def)    # board: hw.Board from hw.esp32 / hw.vboard
    a.boot()                         # resume the stored game, say hello, start the WDT
    a.run()                          # forever (tests: run(until=...))

    runtime/loop.py       the tick scheduler: scan, sense, link, show, tx, watchdog
    runtime/health.py     the counters and the per-stage profile (`health`)
    runtime/session.py    the game in play: new, resume, drop; its inputs and outputs
    runtime/recorder.py   every accepted input checked and saved
    runtime/requests.py   the link's requests, one handler each
    runtime/selftest.py   the `test` request's LED and buzzer steps (loaded when asked)
    runtime/buttons.py    the board's buttons, polled every tick
    runtime/phone.py      the phone page's server and web app (loaded when served)
    runtime/boarddef.py   the board definition as the app keeps it
"""
import gc
import json

from link.server import Link
from show.feedback import Feedback
from store.state import State
from runtime.boarddef import compact, button_roles
from runtime.health import Health
from runtime.session import Session, RESUME_ERRORS
from runtime.requests import Requests, PROTO
from runtime.loop import Loop
from runtime.buttons import ButtonPanel
from version import FW as FW_VERSION

try:
    import micropython
    from micropython import const
except ImportError:
    micropython = None

    def const(x):
        return x

WDT_MS = const(3000)


class App:
    def __init__(self, board, board_def, wdt_ms=WDT_MS, profile=False):
        """board: hw.Board (its hardware built); board_def: the whole board
        definition (the app keeps a compact copy); profile: per-stage times
        and the heap each tick allocated, in `health` (bench runtime)."""
        self.board = board
        self.wdt_ms = wdt_ms
        self.period = 1000 // board_def.get("rate_hz", 50)
        self.link = Link(board.port, board.clock)
        self.feedback = Feedback(board.strip, board.buzzer, board.clock, board_def)
        self.store = State(board.fs_root)
        self.health = Health(board, self.link, profile)
        roles = button_roles(board_def, board.buttons)
        # the phone page: the hw layer made the listening socket (or not)
        self.phone = None
        if getattr(board, "listener", None) is not None:
            from runtime.phone import PhonePage
            self.phone = PhonePage(board.listener, board.clock, board_def, board.strip, self.store,
                                   getattr(board, "web_dir", None) or "web")
        self.session = Session(board, compact(board_def), self.link, self.feedback, self.store, self.health,
                               roles, self.phone)
        self.requests = Requests(board, self.link, self.session, self.store, self.feedback, self.health)
        buttons = None
        if board.buttons:
            buttons = ButtonPanel(board.buttons, roles, self.link, self.session, self.phone)
        self.loop = Loop(board, self.period, self.link, self.health, self.session, self.requests, self.feedback,
                         buttons, self.phone)

    def boot(self):
        """Start the watchdog, resume the stored game, say hello; returns
        how many stored events were replayed."""
        # the watchdog first: whatever goes wrong from here on (a stored
        # game too big for the heap, a bug) ends in a reset, not a dead board
        self.board.wdt_start(self.wdt_ms)
        self.store.cleanup()
        resumed = 0
        try:
            resumed = self.session.resume()
        except RESUME_ERRORS as e:
            self.health.log("stored game not resumed: %s" % e)
            self.session.drop()
        if self.phone is not None:
            self.phone.open()     # the page answers "no game" until a cfg
        self.link.send("hello", {"fw": FW_VERSION, "proto": PROTO, "board": self.session.bd.get("name"),
                                 "cause": self.board.reset_cause, "resumed": resumed, "boot": self.link.boot})
        self.feedback.event(("boot", 0, ()))
        return resumed

    def run(self, until=None, max_ticks=None):
        """The loop (runtime.loop.Loop.run)."""
        return self.loop.run(until, max_ticks)


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
