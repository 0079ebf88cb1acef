"""Host side of the BakuMat serial protocol v1 (docs/formats/serial-protocol-v1.md).

Uses the firmware's own codec (firmware/link/codec.py) so both ends frame
and check bytes identically.

    from host_tools.device.link import open_link
    with open_link("socket://127.0.0.1:7000") as link:     # or a serial port / pty path
        link.request("cfg", header)
        link.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6})
        for seq, typ, body in link.take("game"): ...

Text outside frames (REPL output, prints) collects in link.console.

Requests carry an identity once the board's boot id is known (from its
`hello`, or a `ping` that request() sends first): B2 frames with this
session's random id and the boot id, so a reply is matched to this
session's request only, and a request that reaches the board after it
restarted is refused (`err stale`), not applied: request() then sends it
again, once, to the board as it is now. A board without boot ids (older
firmware) gets B1 frames as before.
"""
import collections
import os
import time

from host_tools import fwpath
from host_tools.errors import UserError

fwpath.ensure()
from link import codec  # noqa: E402  (firmware module)

REPLIES = ("ack", "err", "pong", "version", "health", "state")


class LinkError(UserError):
    """The board did not answer, or answered with an error."""

    def __init__(self, message, code=None, body=None):
        super().__init__(message)
        self.err_code = code
        self.body = body


class HostLink:
    def __init__(self, stream, max_len=1 << 20):
        """stream: an open pyserial port (serial_for_url works for
        socket://host:port and for a pty path)."""
        self.stream = stream
        self.inbox = collections.deque()
        self.decode_errors = []
        self.dec = codec.Decoder(self._on_frame, self._on_error, max_len=max_len, keep_text=True)
        self._seq = 0
        self.sid = os.urandom(4).hex()      # this session's identity
        self.boot = None                    # the board's boot id; "" for a board without one
        self.tx_bytes = 0
        self.last_board_seq = None
        self.lost = 0

    # --------------------------------------------------------------- io
    def close(self):
        self.stream.close()

    def set_baud(self, baud):
        """Follow the board to another line speed (it said so in an ack)."""
        self.stream.baudrate = baud

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()

    @property
    def console(self):
        return bytes(self.dec.text).decode("utf-8", "replace")

    def write_raw(self, data):
        self.stream.write(data)
        self.stream.flush()
        self.tx_bytes += len(data)

    def send(self, typ, body=None):
        self._seq = (self._seq % 65535) + 1
        ident = "%s-%s" % (self.sid, self.boot) if self.boot else None
        self.write_raw(codec.encode(self._seq, typ, {} if body is None else body, ident))
        return self._seq

    def pump(self, timeout=0.05):
        """Read whatever arrives within timeout; return bytes read."""
        self.stream.timeout = timeout
        data = self.stream.read(4096)
        if data:
            self.dec.feed(data)
            while True:
                self.stream.timeout = 0
                more = self.stream.read(4096)
                if not more:
                    break
                self.dec.feed(more)
                data += more
        return len(data or b"")

    def _on_frame(self, seq, typ, body):
        ident = self.dec.ident
        if ident is not None and not ident.startswith(self.sid + "-"):
            return              # the reply to another session's request
        if typ == "hello" and type(body) is dict:
            self.boot = body.get("boot") or ""      # the board (re)started
        if typ not in REPLIES:
            if self.last_board_seq is not None:
                gap = (seq - self.last_board_seq - 1) % 65536
                self.lost += gap
            self.last_board_seq = seq
        self.inbox.append((seq, typ, body))

    def _on_error(self, code, seq, detail):
        self.decode_errors.append((code, detail))

    # ---------------------------------------------------------- helpers
    def wait_for(self, pred, timeout=5.0):
        """First inbox frame (seq, type, body) satisfying pred, removed from
        the inbox (frames before it stay); LinkError on timeout."""
        deadline = time.monotonic() + timeout
        while True:
            for i, fr in enumerate(self.inbox):
                if pred(fr):
                    del self.inbox[i]
                    return fr
            left = deadline - time.monotonic()
            if left <= 0:
                raise LinkError("no answer from the board within %.1f s" % timeout)
            self.pump(min(0.05, left))

    def request(self, typ, body=None, timeout=5.0, check=True):
        """Send a request and return (reply type, reply body). An `err`
        reply raises LinkError when check is true."""
        if self.boot is None and typ != "ping":
            # learn the board's boot id: a ping is harmless whenever it runs
            rtyp, pong = self.request("ping", timeout=timeout, check=False)
            if self.boot is None:      # (a board without boot ids: B1 frames, as before)
                self.boot = (pong.get("boot") or "") if rtyp == "pong" and type(pong) is dict else ""
        for attempt in (0, 1):
            seq = self.send(typ, body)
            _, rtyp, rbody = self.wait_for(lambda f: f[0] == seq and f[1] in REPLIES, timeout)
            if rtyp == "err" and type(rbody) is dict and rbody.get("code") == "stale" and attempt == 0:
                self.boot = rbody.get("boot") or ""      # the board restarted: not applied, send it again
                continue
            break
        if check and rtyp == "err":
            raise LinkError("board refused %s: %s: %s" % (typ, rbody.get("code"), rbody.get("msg")),
                            rbody.get("code"), rbody)
        return rtyp, rbody

    def take(self, typ=None):
        """Remove and return the inbox frames (of one type if given)."""
        out = [f for f in self.inbox if typ is None or f[1] == typ]
        self.inbox = collections.deque(f for f in self.inbox if not (typ is None or f[1] == typ))
        return out


def open_link(port, baudrate=115200, timeout=0.05):
    """HostLink over a serial port name, a pty path or a pyserial URL
    (socket://127.0.0.1:PORT for the virtual board)."""
    import serial
    try:
        s = serial.serial_for_url(port, baudrate=baudrate, timeout=timeout)
    except (serial.SerialException, OSError, ValueError) as e:
        raise LinkError("cannot open %s: %s" % (port, e))
    return HostLink(s)
