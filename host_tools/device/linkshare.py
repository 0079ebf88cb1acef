"""Share one board's serial link with other bakumat commands (watch and act
at once): the program that holds the port (`bakumat monitor`) serves the
link protocol (docs/formats/serial-protocol-v1.md) on socket://127.0.0.1:PORT.

    share = Share(link, port=7001)      # link: the HostLink that holds the port
    share.url                           # give it to other commands: --port URL
    rest = share.route(frames)          # each pump: frames the board sent (seq, type, body)
    share.serve()                       # read what the clients sent, forward it
    share.close()

A client's request goes to the board under a sequence number of the
holder's link, and the board's reply goes back to that client under the
client's own number. Everything else the board sends (events, notes) goes to
every client, with the board's sequence numbers (so a client still counts
lost frames). Only link frames pass: mpremote (deploy, wifi changes, flash)
needs the port itself, so stop the monitor for those.
"""
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
        self.pending = {}       # our seq -> (client, the client's seq)
        self.forwarded = 0

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
                self.pending[mine] = (c, seq)
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
                    continue
                mine.append((seq, typ, body))
                continue
            data = codec.encode(seq, typ, body)
            for c in list(self.clients):
                self._send(c, data)
            mine.append((seq, typ, body))
        return mine
