"""Game states for the page (docs/formats/web-api-v1.md `GET /api/state`).

A Tracker owns a referee game and the firmware's own LED feedback layer
(firmware/show/feedback.py) driving an in-memory strip, so the LEDs the page
draws are the bytes the firmware would write. Used by log replays (one
snapshot per step) and by the live demo (ticked every frame).

    tr = Tracker(board, header)
    tr.feed({"t": 0, "ev": "gate", ...})       # or drive tr.game through match.Match
    tr.tick(t_ms)                              # animations (battle blink, flashes)
    tr.state()                                 # the API dict
"""
import json

from host_tools import fwpath

API = 1
KEEP_EVENTS = 500  # output events kept for `?since` polling


class Clock:
    """The firmware clock interface (ticks_ms/ticks_diff/ticks_add) on a
    time that the caller sets: game time in ms."""

    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b

    def ticks_add(self, a, b):
        return a + b


class _Pixels:
    """A NeoPixel stand-in in RGB byte order (the Strip writes through ORDER)."""
    ORDER = (0, 1, 2, 3)

    def __init__(self, n):
        self.n = n
        self.bpp = 3
        self.buf = bytearray(3 * n)

    def __len__(self):
        return self.n

    def write(self):
        pass


def led_count(board):
    led = (board.get("wiring") or {}).get("led") or {}
    return int(led.get("count", 0))


def board_json(board):
    """What the page needs to draw `board` (a boards.load dict): the `board`
    object of the web API, built by the same firmware function the board's
    phone page uses."""
    fwpath.ensure()
    from link.pageboard import board_json as fw_board_json
    return fw_board_json(board)


def asking(view):
    """What the mat is waiting for (web API `asking`), or None."""
    if view["phase"] == "over":
        return None
    if view.get("choice"):
        return {"player": view["choice"]["player"], "zone": view["choice"]["zone"], "what": "choice"}
    if view.get("battle"):
        return {"player": None, "zone": view["battle"]["zone"], "what": "battle"}
    if view["phase"] in ("setup", "refill"):
        return {"player": None, "zone": None, "what": "gate"}
    return {"player": view["turn"], "zone": None, "what": "throw"}


def plain(view):
    """A JSON-ready copy of a referee view (zone keys become strings)."""
    return json.loads(json.dumps(view))


class Tracker:
    def __init__(self, board, header, text=True):
        fwpath.ensure()
        import referee
        from referee.journal import Journal
        from referee import events
        from show.feedback import Feedback
        from hw.strip import Strip
        self._events = events
        self.board = board
        self.header = header
        self.text = text
        self.clock = Clock()
        n = led_count(board)
        self.pixels = _Pixels(n) if n else None
        self.strip = Strip(self.pixels) if n else None
        self.fb = Feedback(self.strip, None, self.clock, board)
        self.fb.configure(header)
        self.events = []  # [seq, event dict]
        self.seq = 0
        self.rev = 0  # bumps when the view changed
        self._zone = None
        # behind a journal, as on the board: `undo` (and a sensed `ident`
        # amending the last landing) takes back the last event
        self.game = Journal(header, self._out)  # raises referee.SetupError
        self.fb.sync(self.game.view())
        self.fb.tick(0)

    # ------------------------------------------------------------ events
    def _out(self, o):
        self.seq += 1
        d = json.loads(self._events.encode_json(o))
        if self.text:
            if getattr(self, "_words", None) is None:
                from host_tools.words import Words
                self._words = Words(self.game.header)
            d["text"] = self._words.line(d)
        self.events.append([self.seq, d])
        if len(self.events) > KEEP_EVENTS:
            del self.events[:len(self.events) - KEEP_EVENTS]
        self.clock.now = max(self.clock.now, o[1])
        self.fb.event(o, self._zone, self.clock.now)
        self.rev += 1

    def feed(self, ev):
        """An input event straight to the referee. Returns its verdict."""
        self._zone = ev.get("zone")
        try:
            return self.game.feed(ev)
        finally:
            self._zone = None
            self.after()

    def finish(self, t=None):
        self.game.finish(t)
        self.after()

    def after(self):
        """Call after the game changed outside feed() (e.g. through a Match)."""
        self._zone = None
        self.fb.sync(self.game.view())
        self.fb.tick(self.clock.now)

    def tick(self, t):
        """Advance the LED animations to game time t (ms)."""
        if t > self.clock.now:
            self.clock.now = t
        self.fb.tick(self.clock.now)

    def mark_input_zone(self, zone):
        self._zone = zone

    # ------------------------------------------------------------ state
    def leds(self):
        if self.pixels is None:
            return []
        b = self.pixels.buf
        return [[b[i], b[i + 1], b[i + 2]] for i in range(0, len(b), 3)]

    def snapshot(self):
        """view, leds, asking: what a timeline step keeps."""
        v = plain(self.game.view())
        return {"t": self.clock.now, "seq": self.seq, "view": v, "leds": self.leds(), "asking": asking(v)}

    def state(self, since=None, board_json_obj=None, header_seq=0, live=None):
        """The web API state. since: the last seq the client saw."""
        st = {"api": API, "seq": self.seq}
        if since is not None and since >= self.seq:
            st["same"] = True
            st["leds"] = self.leds()
            st["t"] = self.clock.now
            if live is not None:
                st["live"] = live
            return st
        if since is None or since < header_seq:
            if board_json_obj is not None:
                st["board"] = board_json_obj
            st["header"] = self.header
        snap = self.snapshot()
        st["t"] = snap["t"]
        st["view"] = snap["view"]
        st["leds"] = snap["leds"]
        st["asking"] = snap["asking"]
        lo = -1 if since is None else since
        evs = [e for e in self.events if e[0] > lo]
        if since is None:
            evs = evs[-50:]
        st["events"] = evs
        st["you"] = {"player": None}
        if live is not None:
            st["live"] = live
        return st
