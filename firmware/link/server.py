"""Board side of the serial link: bounded work per loop tick.

service(deadline) reads the port only until `deadline` (a ticks_ms value)
or `rx_budget` bytes, whichever comes first, and stops reading while
`max_inbox` decoded messages wait; the app takes at most a few messages per
tick with next(). Replies and events go to a TX ring drained by
flush(budget) with a byte budget per tick, so neither a burst of input nor a
slow host can hold up the scan. Bulk frames (raw sensor frames) are queued
only while the ring is less than half full; when the ring is full a frame
is dropped and counted (reported by the health query).

Requests in B2 frames carry an identity (codec: host session - boot id):
one addressed to an earlier boot of the board (sent while it was off or
restarting) or repeating an older sequence number of the same session is
refused (`err stale`, with this boot's id), never applied; the reply to an
accepted one carries the same identity. B1 requests are taken as before.

later(fn, a, b) runs fn(a, b) in a later tick instead of now, and every
frame queued meanwhile (a reply, an echo, a sensed event) waits behind it:
pump() runs the oldest such call per tick with the frames around it, so
what leaves the board is in the order it would have had, spread over
ticks. The session sends a game event's outputs this way (docs/runtime.md:
a battle's four outputs were 20 ms of one tick on an ESP32-S3).
"""
import json

from link.codec import MAX_LEN, START, Decoder, crc16

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_ERR_PER_S = const(4)
_HELD_MAX = const(32)   # more waiting than this: pump() runs them all
_HEX = b"0123456789abcdef"


def _dumps(value):
    # compact, as codec.encode: a Big Game header must fit MAX_LEN
    return json.dumps(value, separators=(",", ":")).encode()


def _head(seq, typ):
    if type(seq) is tuple:      # (identity, seq) of a B2 request
        return ("B2 %s %d %s " % (seq[0], seq[1] & 0xFFFF, typ)).encode()
    return ("B1 %d %s " % (seq & 0xFFFF, typ)).encode()


def boot_id():
    """8 hex digits from the board's random source: this boot's id."""
    try:
        from os import urandom
        b = urandom(4)
    except ImportError:  # pragma: no cover - ports without os.urandom
        import random
        b = bytes([random.getrandbits(8) for _ in range(4)])
    return "%02x%02x%02x%02x" % (b[0], b[1], b[2], b[3])


class Link:
    def __init__(self, port, clock, rx_budget=256, tx_size=4096, max_inbox=4, max_len=MAX_LEN):
        self.port = port
        self.clock = clock
        self.rx_budget = rx_budget
        self.max_inbox = max_inbox
        self.dec = Decoder(self._on_frame, self._on_error, max_len)
        self._chunk = bytearray(32)
        self.inbox = []
        self.tx = bytearray(tx_size)
        self._one = bytearray(1)    # the start byte, and the frame's end: " " crc "\n"
        self._one[0] = START
        self._end = bytearray(b" 0000\n")
        self._head = 0      # next byte to send
        self._len = 0       # bytes queued
        self.seq = 0
        self.tx_drops = 0
        self.err_sent = 0
        self.err_dropped = 0
        self._err_window = 0
        self._err_count = 0
        self._quiet_ms = 500
        self.boot = boot_id()
        self._sid = None        # the last B2 session seen, and its last seq
        self._sid_seq = 0
        self.stale = 0
        self.held = []          # [(kind, a, b, c)]: later() calls (1) and the frames behind them (0 reply, 2 send, 3 bulk send)
        self._pumping = False

    # ----------------------------------------------------------- input
    def service(self, deadline):
        clock = self.clock
        port = self.port
        got = 0
        chunk = self._chunk
        while got < self.rx_budget and len(self.inbox) < self.max_inbox:
            if clock.ticks_diff(deadline, clock.ticks_ms()) <= 0:
                break
            n = port.read_into(chunk, min(len(chunk), self.rx_budget - got))
            if n == 0:
                break
            got += n
            self.dec.feed(chunk, n, clock.ticks_ms())
        if got == 0 and self.dec.pending():
            if clock.ticks_diff(clock.ticks_ms(), self.dec.last_byte) > self._quiet_ms:
                self.dec.expire()
        return got

    def next(self):
        """The oldest decoded message (seq, type, body), or None."""
        if self.inbox:
            return self.inbox.pop(0)
        return None

    def _on_frame(self, seq, typ, body):
        ident = self.dec.ident
        if ident is None:
            self.inbox.append((seq, typ, body))
            return
        key = (ident, seq)
        k = ident.find("-")
        sid = ident[:k] if k > 0 else ident
        why = None
        if k < 0 or ident[k + 1:] != self.boot:
            why = "addressed to an earlier start of the board: not applied"
        elif sid == self._sid and (self._sid_seq - seq) & 0xFFFF < 0x8000:
            why = "sequence number %d repeated or out of order: not applied" % seq
        if why is not None:
            self.stale += 1
            self.reply(key, "err", {"code": "stale", "msg": why, "boot": self.boot})
            return
        self._sid = sid
        self._sid_seq = seq
        self.inbox.append((key, typ, body))

    def _on_error(self, code, seq, detail):
        self.error(seq, code, detail)

    # ----------------------------------------------------------- output
    def error(self, seq, code, detail):
        now = self.clock.ticks_ms()
        if self.clock.ticks_diff(now, self._err_window) >= 1000:
            self._err_window = now
            self._err_count = 0
        if self._err_count >= _ERR_PER_S:
            self.err_dropped += 1
            return
        self._err_count += 1
        self.err_sent += 1
        self._frame(_head(0 if seq is None else seq, "err"), _dumps({"code": code, "msg": detail}))

    def reply(self, seq, typ, body):
        return self._frame(_head(seq, typ), _dumps(body))

    def send(self, typ, body, bulk=False):
        """An unsolicited frame with the board's own sequence number."""
        data = _dumps(body)
        if self._waits():
            self.held.append((3 if bulk else 2, typ, data, None))
            return True
        return self._send(typ, data, bulk)

    def _send(self, typ, data, bulk):
        head = _head(self.seq + 1, typ)
        # Bulk frames (raw sensor frames) never fill the ring past half, so
        # the room a request's reply needs (TX_RESERVE in app.py) stays free
        # and the host can always turn recording off again.
        if bulk and (self._len + len(head) + len(data) + 7) * 2 > len(self.tx):
            self.tx_drops += 1
            return False
        self.seq = (self.seq + 1) & 0xFFFF
        return self._frame(head, data, True)

    def send_json(self, typ, text):
        """Like send() with a body that is JSON text already."""
        if self._waits():
            self.held.append((2, typ, text.encode(), None))
            return True
        return self._send(typ, text.encode(), False)

    def _waits(self):
        """A frame queued now waits behind later() calls (a raw frame too:
        the stream stays in the order of the board's ticks, which a
        recording's log keeps; the board's own sequence numbers are given
        when a frame goes)."""
        return self.held and not self._pumping

    # ------------------------------------------------------ later calls
    def later(self, fn, a, b):
        """fn(a, b) in a later tick (pump); frames queued meanwhile wait
        behind it."""
        self.held.append((1, fn, a, b))

    def pump(self, calls=1):
        """Run the oldest `calls` later() calls with the frames queued
        before and between them (all, when more than _HELD_MAX wait)."""
        held = self.held
        if not held:
            return
        if len(held) > _HELD_MAX:
            calls = len(held)
        self._pumping = True
        try:
            while held:
                e = held[0]
                k = e[0]
                if k == 1:                 # a later() call
                    if calls <= 0:
                        break
                    calls -= 1
                    held.pop(0)
                    e[1](e[2], e[3])
                elif k >= 2:               # a send() (3: bulk): numbered now
                    held.pop(0)
                    self._send(e[1], e[2], k == 3)
                else:                      # a reply: the request's number
                    held.pop(0)
                    self._frame(e[1], e[2])
        finally:
            self._pumping = False

    def _frame(self, head, body, now=False):
        """Queue the frame codec.encode_json would make of head (the
        encoded "B1 seq type ") and body (the encoded JSON), written piece
        by piece into the TX ring: no copy of the whole frame. While later()
        calls wait, the frame waits behind them (now: it goes now)."""
        if not now and self._waits():
            self.held.append((0, head, body, None))
            return True
        n = len(head) + len(body) + 7
        if n > len(self.tx) - self._len:
            self.tx_drops += 1
            return False
        c = crc16(body, 0, None, crc16(head))
        end = self._end
        c = crc16(end, 0, 1, c)
        for i in range(4):
            end[4 - i] = _HEX[c & 15]
            c >>= 4
        self._put(self._one)
        self._put(head)
        self._put(body)
        self._put(end)
        return True

    def _put(self, data):
        size = len(self.tx)
        n = len(data)
        if n > size - self._len:
            self.tx_drops += 1
            return False
        tail = (self._head + self._len) % size
        first = min(n, size - tail)
        if first < n:
            mv = memoryview(data)
            self.tx[tail:tail + first] = mv[:first]
            self.tx[0:n - first] = mv[first:]
        else:
            self.tx[tail:tail + n] = data
        self._len += n
        return True

    def pending_tx(self):
        """Bytes queued, and 1 more while frames wait behind later() calls."""
        return self._len + (1 if self.held else 0)

    def tx_free(self):
        return len(self.tx) - self._len

    def flush(self, budget):
        """Write up to budget queued bytes to the port; return how many."""
        sent = 0
        size = len(self.tx)
        while self._len and sent < budget:
            n = min(self._len, size - self._head, budget - sent)
            self.port.write(memoryview(self.tx)[self._head:self._head + n])
            self._head = (self._head + n) % size
            self._len -= n
            sent += n
        return sent

    def drain_all(self):
        """Write everything queued (before a reset), what waits behind
        later() calls included."""
        self.pump(len(self.held))
        while self._len:
            self.flush(self._len)
