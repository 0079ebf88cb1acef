"""Share one board's serial link with other bakumat commands (watch and act
at once): the program that holds the port (`bakumat monitor`) serves the
link protocol (docs/formats/serial-protocol-v1.md) on socket://127.0.0.1:PORT.

    share = Share(link, port=7001)      # link: the HostLink that holds the port
    share.url                           # give it to other commands: --port URL
    rest = share.route(frames)          # each pump: frames the board sent (seq, type, body)
    share.serve()                       # read what the clients sent, forward it
    share.answered                      # (request type, reply type, reply body) the clients got
    share.close()

A client's request goes to the board under a sequence number of the
holder's link, and the board's reply goes back to that client under the
client's own number. Everything else the board sends (events, notes) goes to
every client, with the board's sequence numbers (so a client still counts
lost frames). Only link frames pass: mpremote (deploy, wifi changes, flash)
needs the port itself, so stop the monitor for those.

A monitor also announces what it shares (announce(), below): a command
given the board's own port then acts through the monitor (boardlink.connect)
instead of taking the port from it.
"""
import hashlib
import json
import os
import select
import socket

from host_tools import fwpath
from host_tools.errors import UserError

fwpath.ensure()
from link import codec  # noqa: E402  (firmware module)

REPLIES = ("ack", "err", "pong", "version", "health", "state")


class _Client:
    def __init__(self, sock):
        self.sock = sock
        self.got = []
        self.dec = codec.Decoder(lambda seq, typ, body: self.got.append((seq, typ, body)),
                                 lambda *a: None, max_len=1 << 16)


class Share:
    def __init__(self, link, port=0):
        self.link = link
        self.srv = socket.socket()
        self.srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.srv.bind(("127.0.0.1", port))
        except OSError as e:
            self.srv.close()
            raise UserError("cannot share the board on 127.0.0.1:%d: %s (another monitor? try --share 0)"
                            % (port, e.strerror or e))
        self.srv.listen(4)
        self.srv.setblocking(False)
        self.port = self.srv.getsockname()[1]
        self.url = "socket://127.0.0.1:%d" % self.port
        self.clients = []
        self.pending = {}       # our seq -> (client, the client's seq, request type)
        self.forwarded = 0
        # the clients' requests the board answered, oldest first, for the
        # holder to see what they did (a new game set: redraw); the holder
        # empties it
        self.answered = []

    def close(self):
        for c in self.clients:
            c.sock.close()
        self.clients = []
        self.srv.close()

    def _send(self, c, data):
        try:
            c.sock.sendall(data)
        except OSError:
            self._drop(c)

    def _drop(self, c):
        if c in self.clients:
            self.clients.remove(c)
            try:
                c.sock.close()
            except OSError:
                pass
        for k in [k for k, v in self.pending.items() if v[0] is c]:
            del self.pending[k]

    def serve(self, timeout=0.0):
        """Take new clients and forward what they sent to the board."""
        socks = [self.srv] + [c.sock for c in self.clients]
        try:
            r, _, _ = select.select(socks, [], [], timeout)
        except (OSError, ValueError):
            return
        for s in r:
            if s is self.srv:
                try:
                    sock, _ = self.srv.accept()
                except OSError:
                    continue
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                self.clients.append(_Client(sock))
                continue
            c = next((c for c in self.clients if c.sock is s), None)
            if c is None:
                continue
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if not data:
                self._drop(c)
                continue
            c.dec.feed(data)
            for seq, typ, body in c.got:
                mine = self.link.send(typ, body)
                self.pending[mine] = (c, seq, typ)
                self.forwarded += 1
            c.got.clear()

    def route(self, frames):
        """Frames the board sent: replies to clients go back to them, events
        to every client. Returns the frames that are the holder's own."""
        mine = []
        for seq, typ, body in frames:
            if typ in REPLIES:
                owner = self.pending.pop(seq, None)
                if owner is not None:
                    self._send(owner[0], codec.encode(owner[1], typ, body))
                    self.answered.append((owner[2], typ, body))
                    del self.answered[:-16]
                    continue
                mine.append((seq, typ, body))
                continue
            data = codec.encode(seq, typ, body)
            for c in list(self.clients):
                self._send(c, data)
            mine.append((seq, typ, body))
        return mine


# ---------------------------------------------------------------- finding a monitor
# A monitor sharing a board's link says so in a small file (the board's port,
# the share's URL, its pid), so a command given the board's own port acts
# through the monitor instead of taking the port from it. The file goes when
# the monitor stops; one whose process is gone or whose share does not answer
# is ignored (a monitor that was killed).

def _registry_dir():
    base = os.environ.get("BAKUMAT_CACHE")
    if not base:
        run = os.environ.get("XDG_RUNTIME_DIR")
        base = os.path.join(run, "bakumat") if run else os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "bakumat")
    return os.path.join(base, "monitors")


def _key(port):
    """One file name per board port (a device path by its real path)."""
    p = port.strip()
    if "://" in p:
        p = p.lower().rstrip("/")
    else:
        p = os.path.realpath(p)
    return hashlib.sha1(p.encode()).hexdigest()[:16] + ".json"


def announce(port, share):
    """Say that this process holds `port` and shares it at share.url.
    Returns the path written (None when it could not be: commands then
    just do not find the monitor)."""
    path = os.path.join(_registry_dir(), _key(port))
    body = json.dumps({"bakumat": "monitor", "version": 1, "port": port, "share": share.url, "pid": os.getpid()})
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = "%s.%d.tmp" % (path, os.getpid())
        with open(tmp, "w") as f:
            f.write(body)
        os.replace(tmp, path)
    except OSError:
        return None
    return path


def withdraw(path):
    """Remove what announce() wrote, if it is still this process's."""
    if not path:
        return
    try:
        with open(path) as f:
            mine = json.load(f).get("pid") == os.getpid()
        if mine:
            os.remove(path)
    except (OSError, ValueError, AttributeError):
        pass


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OSError, OverflowError, TypeError, ValueError):
        return False
    return True


def holder(port):
    """The monitor holding `port` as {"share": url, "pid": n}, or None."""
    path = os.path.join(_registry_dir(), _key(port))
    try:
        with open(path) as f:
            m = json.load(f)
    except (OSError, ValueError):
        return None
    if type(m) is not dict or type(m.get("pid")) is not int or type(m.get("share")) is not str:
        return None
    if m["pid"] == os.getpid() or not _alive(m["pid"]):
        return None
    host, _, num = m["share"].rpartition(":")
    try:
        socket.create_connection((host.rsplit("/", 1)[-1], int(num)), timeout=1.0).close()
    except (OSError, ValueError):
        return None
    return m


def refuse_if_held(port, what):
    """A UserError when a monitor holds `port` and `what` (a command that
    needs the port itself: mpremote, esptool) cannot act through it."""
    m = holder(port)
    if m is not None:
        raise UserError("a `bakumat monitor` (pid %d) holds %s: %s needs the port itself, so stop the monitor "
                        "(Ctrl-C in its terminal), then run it again" % (m["pid"], port, what))
