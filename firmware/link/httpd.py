"""A small HTTP/1.0 server that never blocks the scan loop.

The board's loop calls `service(deadline)` once per tick: it polls the
listening socket and the clients without waiting (select.poll, ipoll where
MicroPython has it, so polling allocates nothing), accepts, reads, parses
and answers in bounded steps, and returns at the deadline. Everything is
sized up front: at most MAX_CLIENTS connections, each with one buffer of
HDR_MAX + BODY_MAX bytes; a request that does not fit is answered 431/413
and closed, a client that stalls is dropped after IDLE_MS, garbage is
answered 400 at once (a line not ended by CR LF, two Content-Lengths that
differ, a Transfer-Encoding). One connection, one request (Connection:
close): no keep-alive state to go wrong.

Slow clients cannot hold the page: a request must arrive whole within
REQ_MS of its connection (not per byte: a byte a second does not keep it
alive), and a connection lives at most LIFE_MS. When every slot is taken, a
new client evicts the oldest one still sending its request after EVICT_MS;
if there is none, it is answered 503.

The listening socket is made by the board's hardware layer (Wi-Fi AP or
station on the ESP32, a loopback port on the unix port) and passed in; the
answers come from `app.handle(method, path, query, body, peer)` for /api/
paths and from static files in `web_dir` (a fixed list, streamed in chunks,
`.gz` variants preferred) for the rest. docs/formats/web-api-v1.md.
"""
import select

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

MAX_CLIENTS = const(4)
HDR_MAX = const(1024)
BODY_MAX = const(512)
IDLE_MS = const(5000)
REQ_MS = const(3000)      # the whole request, from the connection
LIFE_MS = const(15000)    # a connection, answer included
EVICT_MS = const(500)     # a slot still reading after this may go to a new client
CHUNK = const(512)

_FREE = const(0)
_READ = const(1)
_SEND = const(2)  # sending `out` then the file, then closing
_DRAIN = const(3)  # after an error answer: read and drop what the client
# still sends, so closing does not reset the connection before it has read
# the answer (a "lingering close"), for at most DRAIN_MS
DRAIN_MS = const(1000)

_POLLIN = select.POLLIN
_POLLOUT = select.POLLOUT
_POLLERR = getattr(select, "POLLERR", 8) | getattr(select, "POLLHUP", 16)

STATUS = {200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
          409: "Conflict", 413: "Payload Too Large", 431: "Request Header Fields Too Large",
          500: "Internal Server Error", 503: "Service Unavailable"}

TYPES = {"html": "text/html; charset=utf-8", "js": "text/javascript", "css": "text/css",
         "json": "application/json", "svg": "image/svg+xml", "png": "image/png"}


def _recv_into(sock, buf):
    """bytes read into buf (a memoryview), 0 at EOF, -1 when nothing yet."""
    try:
        if hasattr(sock, "readinto"):  # MicroPython stream sockets
            n = sock.readinto(buf)
            return -1 if n is None else n
        return sock.recv_into(buf)  # pragma: no cover - CPython
    except OSError as e:
        if e.args and e.args[0] in (11, 35, 115):  # EAGAIN / EWOULDBLOCK / EINPROGRESS
            return -1
        return 0


def _send(sock, data):
    try:
        n = sock.send(data)
        return 0 if n is None else n
    except OSError as e:
        if e.args and e.args[0] in (11, 35):
            return 0
        return -1


class _Client:
    def __init__(self):
        self.sock = None
        self.state = _FREE
        self.buf = bytearray(HDR_MAX + BODY_MAX)
        self.mv = memoryview(self.buf)
        self.n = 0
        self.since = 0
        self.start = 0     # when the connection was accepted
        self.out = b""
        self.off = 0
        self.file = None
        self.peer = None
        self.drain = False


class HttpServer:
    def __init__(self, listener, app, clock, web_dir="web", files=(), index="index.html"):
        """listener: a bound, listening socket (made by the hw layer).
        files: names under web_dir that may be served (anything else 404);
        index: the file served for "/"."""
        self.index = index
        self.lsock = listener
        listener.setblocking(False)
        self.app = app
        self.clock = clock
        self.web_dir = web_dir
        self.files = files
        self.clients = [_Client() for _ in range(MAX_CLIENTS)]
        self.poller = select.poll()
        self.poller.register(listener, _POLLIN)
        self._ipoll = getattr(self.poller, "ipoll", None)
        self._fdmap = {}  # CPython's poll answers file numbers
        self.stats = {"served": 0, "refused": 0, "bad": 0, "dropped": 0, "evicted": 0}
        self._chunk = bytearray(CHUNK)

    def close(self):
        for c in self.clients:
            self._close(c)
        try:
            self.lsock.close()
        except OSError:
            pass

    # ------------------------------------------------------------ loop
    def service(self, deadline):
        """Do what can be done without waiting, until the deadline."""
        clock = self.clock
        ready = self._ipoll(0) if self._ipoll is not None else self.poller.poll(0)
        for item in ready:
            obj = item[0]
            if obj is self.lsock or obj == self._fileno(self.lsock):
                self._accept()
                continue
            c = self._client_for(obj)
            if c is None:
                continue
            if item[1] & _POLLERR and c.state == _READ:
                self._drop(c)
            elif c.state == _READ:
                self._read(c)
            elif c.state == _SEND:
                self._write(c)
            elif c.state == _DRAIN:
                if _recv_into(c.sock, c.mv) == 0:
                    self._close(c)
            if clock.ticks_diff(deadline, clock.ticks_ms()) <= 0:
                break
        now = clock.ticks_ms()
        for c in self.clients:
            if c.state == _DRAIN:
                if clock.ticks_diff(now, c.since) > DRAIN_MS:
                    self._close(c)
            elif c.state != _FREE and (clock.ticks_diff(now, c.since) > IDLE_MS
                                       or clock.ticks_diff(now, c.start) > LIFE_MS
                                       or (c.state == _READ and clock.ticks_diff(now, c.start) > REQ_MS)):
                self._drop(c)

    def _fileno(self, s):
        f = getattr(s, "fileno", None)
        return f() if f is not None else None

    def _client_for(self, obj):
        if type(obj) is int:
            return self._fdmap.get(obj)
        for c in self.clients:
            if c.sock is obj:
                return c
        return None

    # --------------------------------------------------------- accept
    def _accept(self):
        try:
            s, peer = self.lsock.accept()
        except OSError:
            return
        free = None
        for c in self.clients:
            if c.state == _FREE:
                free = c
                break
        if free is None:
            # full: the oldest client that is done (lingering after an
            # error answer) or still sending its request after EVICT_MS
            now = self.clock.ticks_ms()
            diff = self.clock.ticks_diff
            for c in self.clients:
                if c.state == _DRAIN:
                    if free is None or free.state != _DRAIN:
                        free = c
                elif c.state == _READ and diff(now, c.start) > EVICT_MS:
                    if free is None or (free.state == _READ and diff(c.start, free.start) < 0):
                        free = c
            if free is not None:
                self.stats["evicted"] += 1
                self._close(free)
        if free is None:
            self.stats["refused"] += 1
            try:
                s.setblocking(False)
                _send(s, b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                s.close()
            except OSError:
                pass
            return
        s.setblocking(False)
        free.sock = s
        free.peer = peer
        free.state = _READ
        free.n = 0
        free.since = self.clock.ticks_ms()
        free.start = free.since
        free.out = b""
        free.off = 0
        self.poller.register(s, _POLLIN)
        fn = self._fileno(s)
        if fn is not None:
            self._fdmap[fn] = free

    def _close(self, c):
        if c.sock is not None:
            try:
                self.poller.unregister(c.sock)
            except (OSError, KeyError, ValueError):
                pass
            fn = self._fileno(c.sock)
            if fn is not None and fn in self._fdmap:
                del self._fdmap[fn]
            try:
                c.sock.close()
            except OSError:
                pass
        if c.file is not None:
            try:
                c.file.close()
            except OSError:
                pass
        c.sock = None
        c.file = None
        c.out = b""
        c.drain = False
        c.state = _FREE

    def _drop(self, c):
        self.stats["dropped"] += 1
        self._close(c)

    # ----------------------------------------------------------- read
    def _read(self, c):
        room = len(c.buf) - c.n
        if room <= 0:
            self._answer(c, 413, {"error": "request too large"})
            return
        n = _recv_into(c.sock, c.mv[c.n:])
        if n < 0:
            return
        if n == 0:  # the client went away mid-request
            self._drop(c)
            return
        c.n += n
        c.since = self.clock.ticks_ms()
        buf = c.buf
        end = buf.find(b"\r\n\r\n", 0, c.n)
        # every line of the head ends in CR LF: a bare LF is answered at once
        i = buf.find(b"\n", max(c.n - n, 1) - 1, c.n if end < 0 else end + 4)
        while i >= 0:
            if i == 0 or buf[i - 1] != 13:
                self.stats["bad"] += 1
                self._answer(c, 400, {"error": "malformed request: lines must end in CR LF"})
                return
            i = buf.find(b"\n", i + 1, c.n if end < 0 else end + 4)
        if end < 0:
            if c.n >= HDR_MAX:
                self._answer(c, 431, {"error": "headers too large"})
            return
        if end > HDR_MAX:
            self._answer(c, 431, {"error": "headers too large"})
            return
        head = bytes(buf[:end])
        length = 0
        try:
            lines = head.split(b"\r\n")
            method, target, _ = lines[0].split(b" ", 2)
            method = method.decode()
            target = target.decode()
            seen = None
            for line in lines[1:]:
                low = line[:18].lower()
                if low[:15] == b"content-length:":
                    v = line[15:].strip()
                    if not v.isdigit() or len(v) > 6 or (seen is not None and v != seen):
                        raise ValueError     # two lengths that differ: which body is it?
                    seen = v
                    length = int(v)
                elif low == b"transfer-encoding:":
                    raise ValueError         # no chunked bodies here
        except (ValueError, IndexError, UnicodeError):
            self.stats["bad"] += 1
            self._answer(c, 400, {"error": "malformed request"})
            return
        if length > BODY_MAX:
            self._answer(c, 413, {"error": "body over %d bytes" % BODY_MAX})
            return
        if c.n < end + 4 + length:
            return  # body still coming
        body = bytes(buf[end + 4:end + 4 + length])
        try:
            self._dispatch(c, method, target, body)
        except Exception as e:  # never let a request take the loop down
            self.stats["bad"] += 1
            self._answer(c, 500, {"error": "internal error: %s" % type(e).__name__})

    def _dispatch(self, c, method, target, body):
        q = target.find("?")
        path = target if q < 0 else target[:q]
        query = "" if q < 0 else target[q + 1:]
        if path.startswith("/api/"):
            status, ctype, text = self.app.handle(method, path, query, body, c.peer)
            self._answer_raw(c, status, ctype, text.encode() if type(text) is str else text)
            return
        if method != "GET":
            self._answer(c, 405, {"error": "method not allowed"})
            return
        name = self.index if path == "/" else path[1:]
        if name not in self.files:
            self._answer(c, 404, {"error": "no such page"})
            return
        self._serve_file(c, name)

    # ---------------------------------------------------------- write
    def _answer(self, c, status, obj):
        import json
        self._answer_raw(c, status, "application/json", json.dumps(obj).encode())

    def _answer_raw(self, c, status, ctype, body, extra=""):
        c.drain = status >= 400
        c.out = ("HTTP/1.0 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n%sCache-Control: no-store\r\n"
                 "Connection: close\r\n\r\n" % (status, STATUS.get(status, "?"), ctype, len(body), extra)).encode() + body
        c.off = 0
        self._start_send(c)

    def _serve_file(self, c, name):
        ext = name[name.rfind(".") + 1:]
        path = self.web_dir + "/" + name
        gz = ""
        f = None
        try:
            f = open(path + ".gz", "rb")
            gz = "Content-Encoding: gzip\r\n"
        except OSError:
            try:
                f = open(path, "rb")
            except OSError:
                self._answer(c, 404, {"error": "no such page"})
                return
        size = f.seek(0, 2)
        f.seek(0)
        c.file = f
        c.out = ("HTTP/1.0 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n%sConnection: close\r\n\r\n"
                 % (TYPES.get(ext, "application/octet-stream"), size, gz)).encode()
        c.off = 0
        self._start_send(c)

    def _start_send(self, c):
        c.state = _SEND
        c.since = self.clock.ticks_ms()
        try:
            self.poller.modify(c.sock, _POLLOUT)
        except (OSError, ValueError):
            pass
        self._write(c)

    def _write(self, c):
        if c.off >= len(c.out):
            if c.file is not None:
                n = c.file.readinto(self._chunk)
                if n:
                    c.out = bytes(self._chunk[:n]) if n < CHUNK else bytes(self._chunk)
                    c.off = 0
                else:
                    self.stats["served"] += 1
                    self._close(c)
                    return
            else:
                self.stats["served"] += 1
                if c.drain:
                    c.state = _DRAIN
                    c.since = self.clock.ticks_ms()
                    try:
                        self.poller.modify(c.sock, _POLLIN)
                    except (OSError, ValueError):
                        pass
                else:
                    self._close(c)
                return
        n = _send(c.sock, memoryview(c.out)[c.off:])
        if n < 0:
            self._drop(c)
            return
        if n:
            c.off += n
            c.since = self.clock.ticks_ms()
