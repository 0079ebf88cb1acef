"""A board watched live over the serial link (docs/formats/serial-protocol-v1.md):
a real board on a serial port, or the virtual board at socket://127.0.0.1:PORT.

A pump thread reads the link: `game` frames are the referee's output events
(listed on the page), `mat`/`fault` frames the sensing pipeline's; every
POLL_S it asks for `state` (the referee's view, and, when the firmware sends
them, the LED colours and the game header). The result is served as web API
states by a server.LiveSource.
"""
import json
import threading
import time

from host_tools import fwpath
from host_tools.errors import UserError
from host_tools.webview import server
from host_tools.webview.state import KEEP_EVENTS, asking, board_json

POLL_S = 0.25


class Remote:
    """What the page needs, from what the board said. Quacks like
    state.Tracker for server.LiveSource (seq, state())."""

    def __init__(self, header=None):
        self.header = header
        self.names = None
        self.view = None
        self.ask = None   # the board's own `asking` (its state reply), when it sends one
        self.leds = []
        self.t = 0
        self.seq = 0
        self.events = []
        self._game = None
        self._text_for(header)

    def _text_for(self, header):
        """A referee instance only to word the transcript lines (names)."""
        self._game = None
        if header:
            fwpath.ensure()
            import referee
            try:
                self._game = referee.new_game(header)
            except Exception:  # a header this host's referee cannot load: events stay unworded
                self._game = None

    def set_header(self, header):
        if header != self.header:
            self.header = header
            self._text_for(header)
            return True
        return False

    def add_event(self, body):
        self.seq += 1
        d = dict(body)
        if self._game is not None and "ev" in d:
            from host_tools.words import Words
            if getattr(self, "_words", None) is None or self._words.header is not self.header:
                self._words = Words(self.header)
            try:
                d["text"] = self._words.line(d)
            except (KeyError, TypeError, ValueError, IndexError):
                pass
        self.events.append([self.seq, d])
        if len(self.events) > KEEP_EVENTS:
            del self.events[:len(self.events) - KEEP_EVENTS]

    def state(self, since=None, board_obj=None, header_seq=0, live=None):
        st = {"api": 1, "seq": self.seq, "t": self.t, "leds": self.leds}
        if live is not None:
            st["live"] = live
        if since is not None and since >= self.seq and self.view is not None:
            st["same"] = True
            return st
        if since is None or since < header_seq:
            st["board"] = board_obj
            st["header"] = self.header
        st["view"] = self.view
        # the board's own (with the mat's question, `which`), else one
        # derived from the view
        st["asking"] = self.ask if self.ask is not None else (asking(self.view) if self.view else None)
        lo = -1 if since is None else since
        evs = [e for e in self.events if e[0] > lo]
        st["events"] = evs if since is not None else evs[-50:]
        st["you"] = {"player": None}
        return st


def leds_of(body):
    """The state reply's LED colours as [[r, g, b], ...] (accepts that or a
    flat list of 0xRRGGBB integers), or None when absent."""
    leds = body.get("leds")
    if not isinstance(leds, list):
        return None
    out = []
    for c in leds:
        if isinstance(c, int):
            out.append([(c >> 16) & 255, (c >> 8) & 255, c & 255])
        elif isinstance(c, list) and len(c) >= 3:
            out.append([int(c[0]), int(c[1]), int(c[2])])
        else:
            return None
    return out


class LinkWatcher:
    def __init__(self, bl, src, remote, header=None):
        self.bl = bl
        self.src = src
        self.remote = remote
        self.stop = threading.Event()
        self.error = None
        self.thread = threading.Thread(target=self._run, name="bakumat-view-link", daemon=True)

    def start(self):
        self.thread.start()

    def close(self):
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join(5)
        self.bl.close()

    def _poll_state(self):
        from host_tools.device.link import LinkError
        try:
            _, body = self.bl.link.request("state", {"leds": True}, timeout=2.0)
        except LinkError as e:
            self.error = str(e)
            return
        except Exception as e:  # the port went away
            self.error = "link lost: %s" % e
            self.src.running = False
            return
        self.error = None
        r = self.remote
        header = body.get("header")
        names = body.get("names")
        if not header and names and (r.header is None or
                                     [p.get("name") for p in r.header.get("players") or ()] != names):
            # a game the view has no header for (a new one): ask the board
            header = self._header()
        with self.src.lock:
            new_view = body.get("view")
            if header and r.set_header(header):
                self.src.header_seq = r.seq + 1
                r.seq += 1
            new_ask = body.get("asking")
            if new_view != r.view or new_ask != r.ask:
                r.view = new_view
                r.ask = new_ask
                r.seq += 1
            r.t = body.get("t", r.t)
            leds = leds_of(body)
            if leds is not None:
                r.leds = leds

    def _header(self):
        """The game's header from the board (its `header` request), or None
        (firmware without it: --header FILE gives it)."""
        from host_tools.device.link import LinkError
        try:
            _, body = self.bl.link.request("header", {}, timeout=2.0)
        except LinkError:
            return None
        h = body.get("header")
        return h if isinstance(h, dict) and h.get("players") else None

    def _run(self):
        last = 0.0
        while not self.stop.is_set():
            try:
                frames = self.bl.frames(0.05)
            except Exception as e:  # the port went away (board unplugged, vboard stopped)
                self.error = "link lost: %s" % e
                self.src.running = False
                return
            if frames:
                with self.src.lock:
                    for _, typ, body in frames:
                        if typ == "game" and isinstance(body, dict):
                            self.remote.add_event(body)
                        elif typ in ("mat", "fault") and isinstance(body, dict):
                            self.remote.add_event(body)
            now = time.monotonic()
            if now - last >= POLL_S:
                last = now
                self._poll_state()
                if not self.src.running:
                    return


def source(vboard=False, port=None, board_name=None, header=None):
    """(LiveSource, watcher) for a board on `port` (or the virtual board)."""
    from host_tools.device import boardlink
    if vboard and not port:
        from host_tools import vboard as vb
        port = "socket://127.0.0.1:%d" % vb.DEFAULT_PORT  # where `bakumat vboard` serves its link
    bl = boardlink.connect(port, board_name)
    if bl.board is None:
        bl.close()
        raise UserError("the board runs a board definition this host does not know (%s): pass --board NAME"
                        % bl.version.get("board"))
    remote = Remote(header)
    title = "%s on %s" % (bl.version.get("board") or "board", bl.via or bl.port)
    src = server.LiveSource(title, board_json(bl.board))
    src.set_tracker(remote)
    w = LinkWatcher(bl, src, remote)
    w._poll_state()
    if w.error:
        bl.close()
        raise UserError("the board does not answer the state request: %s" % w.error)
    w.start()
    return src, w


def load_header(path):
    """A game header from an event log (its first line) or a JSON file."""
    from host_tools.logs.logfile import read_lines
    lines = read_lines(path)
    for line in lines:
        if line.strip():
            try:
                obj = json.loads(line)
            except ValueError as e:
                raise UserError("%s: line 1: not valid JSON (%s)" % (path, getattr(e, "msg", e)))
            if not isinstance(obj, dict) or "players" not in obj:
                raise UserError("%s: line 1: not a game header (no players)" % path)
            return obj
    raise UserError("%s: empty file" % path)
