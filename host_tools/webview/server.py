"""The localhost HTTP server of `bakumat view` and `bakumat demo --view`.

Serves the page (firmware/web/, the same files the board serves) and the
web API (docs/formats/web-api-v1.md) plus the laptop's extensions
(docs/formats/web-view-v1.md): GET /api/info, /api/timeline,
/api/traces?zone=Z, POST /api/throw. Standard library only
(http.server.ThreadingHTTPServer); the page polls GET /api/state?since=N.

    src = LogSource(timeline)                 # or LiveSource(...)
    srv = start(src, port=0)                  # serves in a daemon thread
    srv.url                                   # http://127.0.0.1:PORT/
    srv.shutdown()
"""
import json
import os
import sys
import threading
import webbrowser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from host_tools.fwpath import FIRMWARE_DIR

WEB_DIR = os.path.join(FIRMWARE_DIR, "web")
MAX_BODY = 512
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".json": "application/json",
         ".png": "image/png", ".ico": "image/x-icon"}


class ApiError(Exception):
    def __init__(self, status, msg):
        super().__init__(msg)
        self.status = status
        self.msg = msg


class Source:
    """What the server shows. Subclasses fill in the parts they have."""
    title = ""

    def info(self):
        return {"api": 1, "title": self.title, "timeline": False, "traces": False, "live": False, "input": False}

    def state(self, since=None):
        raise NotImplementedError

    def timeline(self):
        raise ApiError(404, "this view has no timeline (it is not a log)")

    def traces(self, zone):
        raise ApiError(404, "sensor traces exist only for raw sensor logs")

    def input(self, body):
        raise ApiError(403, "this view only watches: no input is taken here")

    def throw(self, body):
        raise ApiError(403, "no human player in this game")


class LogSource(Source):
    """A replayed log: a fixed timeline; /api/state is its last step."""

    def __init__(self, timeline):
        self.tl = timeline
        self.title = "%s log %s" % ("raw sensor" if timeline.kind == "raw" else "event", timeline.title)
        self._json = json.dumps(timeline.json(), separators=(",", ":")).encode()
        self._traces = {}

    def info(self):
        d = Source.info(self)
        d["timeline"] = True
        d["traces"] = self.tl.probe is not None
        d["steps"] = len(self.tl.steps)
        if self.tl.probe is not None:
            d["trace_zone"] = self.tl.probe.busiest_zone()
        return d

    def state(self, since=None):
        st = self.tl.final_state()
        if since is not None and since >= st["seq"]:
            return {"api": 1, "seq": st["seq"], "same": True, "leds": st["leds"]}
        return st

    def timeline_bytes(self):
        return self._json

    def traces(self, zone):
        if self.tl.probe is None:
            raise ApiError(404, "sensor traces exist only for raw sensor logs; this is an event log")
        if zone not in self._traces:
            d = self.tl.traces(zone)
            if d is None:
                raise ApiError(404, "no zone %r on this board" % (zone,))
            self._traces[zone] = json.dumps(d, separators=(",", ":")).encode()
        return self._traces[zone]


class LiveSource(Source):
    """A game being played: a driver thread updates a state.Tracker under
    `lock` and calls changed(). Input handlers are optional callables taking
    the request body and returning a reply dict (or raising ApiError)."""

    def __init__(self, title, board_obj, on_input=None, on_throw=None):
        self.title = title
        self.board_obj = board_obj
        self.lock = threading.Lock()
        self.tracker = None
        self.header_seq = 0
        self.running = True
        self.on_input = on_input
        self.on_throw = on_throw
        self.extra = {}  # merged into every state (e.g. "throw": the Bakugan a human throws now)

    def set_tracker(self, tracker):
        with self.lock:
            # a new game: clients must refetch the header
            self.header_seq = (self.tracker.seq if self.tracker else 0) + 1
            if tracker.seq < self.header_seq:
                tracker.seq = self.header_seq
            self.tracker = tracker

    def info(self):
        d = Source.info(self)
        d["live"] = True
        d["input"] = self.on_throw is not None
        return d

    def state(self, since=None):
        with self.lock:
            tr = self.tracker
            if tr is None:
                return {"api": 1, "seq": 0, "board": self.board_obj, "header": None, "view": None,
                        "leds": [], "events": [], "live": self.running, "you": {"player": None}}
            st = tr.state(since, self.board_obj, self.header_seq, self.running)
        st.update(self.extra)
        return st

    def input(self, body):
        if self.on_input is None:
            return Source.input(self, body)
        return self.on_input(body)

    def throw(self, body):
        if self.on_throw is None:
            return Source.throw(self, body)
        return self.on_throw(body)


class Handler(BaseHTTPRequestHandler):
    server_version = "bakumat-view"
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet: the terminal shows the game
        if self.server.verbose:
            BaseHTTPRequestHandler.log_message(self, fmt, *args)

    def _send(self, status, body, ctype="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, obj, status=200):
        self._send(status, json.dumps(obj, separators=(",", ":")).encode())

    def _error(self, status, msg):
        self._json({"error": msg}, status)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        try:
            self._get()
        except ApiError as e:
            self._error(e.status, e.msg)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_POST(self):
        try:
            self._post()
        except ApiError as e:
            self._error(e.status, e.msg)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_PUT(self):
        self._error(405, "method not allowed")

    do_DELETE = do_PUT

    def _get(self):
        u = urlsplit(self.path)
        q = parse_qs(u.query)
        path = u.path
        src = self.server.source
        if path == "/api/state":
            since = None
            if "since" in q:
                try:
                    since = int(q["since"][0])
                except ValueError:
                    raise ApiError(400, "since: expected an integer, got %r" % q["since"][0])
            return self._json(src.state(since))
        if path == "/api/info":
            return self._json(src.info())
        if path == "/api/timeline":
            if isinstance(src, LogSource):
                return self._send(200, src.timeline_bytes())
            return self._json(src.timeline())
        if path == "/api/traces":
            try:
                zone = int(q.get("zone", [""])[0])
            except ValueError:
                raise ApiError(400, "zone: expected a zone number, e.g. /api/traces?zone=5")
            return self._send(200, src.traces(zone))
        if path.startswith("/api/"):
            raise ApiError(404, "unknown path %s" % path)
        if path == "/":
            path = "/index.html"
        name = path[1:]
        if name not in self.server.files:
            raise ApiError(404, "no such file %s" % path)
        with open(os.path.join(WEB_DIR, name), "rb") as f:
            data = f.read()
        self._send(200, data, TYPES.get(os.path.splitext(name)[1], "application/octet-stream"))

    def _post(self):
        path = urlsplit(self.path).path
        n = self.headers.get("Content-Length")
        try:
            n = int(n or 0)
        except ValueError:
            raise ApiError(400, "bad Content-Length")
        if n > MAX_BODY:
            self.close_connection = True
            raise ApiError(413, "body too large (over %d bytes)" % MAX_BODY)
        raw = self.rfile.read(n) if n else b""
        try:
            body = json.loads(raw.decode("utf-8") or "null")
        except (ValueError, UnicodeDecodeError):
            raise ApiError(400, "the body must be a JSON object")
        if type(body) is not dict:
            raise ApiError(400, "the body must be a JSON object")
        src = self.server.source
        if path == "/api/input":
            return self._json(src.input(body))
        if path == "/api/throw":
            return self._json(src.throw(body))
        if path == "/api/claim":
            raise ApiError(403, "sides are claimed on the board's own page; this view only watches")
        if path.startswith("/api/"):
            raise ApiError(404, "unknown path %s" % path)
        raise ApiError(405, "method not allowed")


class ViewServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, addr, source, verbose=False):
        self.source = source
        self.verbose = verbose
        self.files = set(f for f in os.listdir(WEB_DIR) if os.path.isfile(os.path.join(WEB_DIR, f))
                         and not f.startswith("."))
        ThreadingHTTPServer.__init__(self, addr, Handler)

    @property
    def url(self):
        host, port = self.server_address[:2]
        return "http://%s:%d/" % (host, port)


def start(source, host="127.0.0.1", port=0, verbose=False):
    """Serve `source` in a daemon thread; returns the server (see .url)."""
    try:
        srv = ViewServer((host, port), source, verbose)
    except OSError as e:
        from host_tools.errors import UserError
        raise UserError("cannot listen on %s:%d: %s" % (host, port, e.strerror or e))
    th = threading.Thread(target=srv.serve_forever, name="bakumat-view", daemon=True)
    th.start()
    srv.thread = th
    return srv


def open_browser(url, out=sys.stdout):
    try:
        ok = webbrowser.open(url)
    except Exception:  # no browser configured: the address is printed anyway
        ok = False
    if not ok:
        out.write("(no browser found: open %s yourself)\n" % url)
