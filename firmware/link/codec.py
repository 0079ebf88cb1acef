"""BakuMat serial protocol v1: framing, checksum, incremental decoding.

A frame is one line of printable text that starts with the byte 0x1E
(ASCII "record separator", never typed at a REPL and never sent by mpremote):

    0x1E "B1" SP seq SP type SP body SP crc "\n"

seq: decimal 0..65535; type: [a-z]{1,12}; body: JSON (no newline); crc:
4 lowercase hex digits, CRC-16/CCITT-FALSE of the bytes from "B1" up to and
including the space before crc. A request may instead be a "B2" frame,

    0x1E "B2" SP id SP seq SP type SP body SP crc "\n"

id: the request's identity, "SSSSSSSS-BBBBBBBB" (8 hex digits of the host
session, chosen at random per session, and the board's boot id as the host
knows it); the reply to it is a B2 frame with the same id, so the host
matches replies by (id, seq), and the board refuses a request addressed to
an earlier boot or repeated (docs/formats/serial-protocol-v1.md). Bytes outside frames (REPL text, prints,
line noise) are not frames: the decoder skips them (and can keep them, for
the host's console view). A 0x1E inside a frame starts a new frame (the
broken one is reported as "truncated"); a frame longer than max_len is
dropped up to its end ("oversized"). Runs unchanged on MicroPython and
CPython; no allocation while skipping garbage.
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

import json

VERSION = const(1)
START = const(0x1E)
MAX_LEN = const(2048)       # longest frame the board accepts (start to newline)
MAX_TYPE = const(12)

_IDLE = const(0)
_IN = const(1)
_DROP = const(2)
_SB = b"\x1e"              # START, as find() takes it
_NL = b"\n"
_CR = b"\r"
_FIND = hasattr(bytearray, "find")


def _table():
    from array import array
    t = array("H", [0] * 256)
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        t[i] = c & 0xFFFF
    return t


_T = _table()

try:
    from link.crcviper import crc as _fast   # machine code, where the interpreter compiles viper
except (ImportError, SyntaxError, ValueError, NameError):   # CPython, the WebAssembly port
    _fast = None


def crc16(data, start=0, end=None, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of data[start:end]."""
    if end is None:
        end = len(data)
    if _fast is not None:
        return _fast(data, start, end, crc)
    t = _T
    for i in range(start, end):
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ data[i]) & 0xFF]
    return crc


_HEX = b"0123456789abcdef"


def encode(seq, typ, value, ident=None):
    """One frame as bytes carrying `value` as its JSON body."""
    # compact: a Big Game header must fit MAX_LEN
    return encode_json(seq, typ, json.dumps(value, separators=(",", ":")), ident)


def encode_json(seq, typ, body, ident=None):
    """One frame as bytes; body is JSON text already (one line); with
    ident, a B2 frame carrying that identity."""
    if ident is None:
        core = ("B1 %d %s " % (seq & 0xFFFF, typ) + body + " ").encode()
    else:
        core = ("B2 %s %d %s " % (ident, seq & 0xFFFF, typ) + body + " ").encode()
    c = crc16(core)
    out = bytearray(len(core) + 6)
    out[0] = START
    out[1:len(core) + 1] = core
    k = len(core) + 1
    out[k] = _HEX[(c >> 12) & 15]
    out[k + 1] = _HEX[(c >> 8) & 15]
    out[k + 2] = _HEX[(c >> 4) & 15]
    out[k + 3] = _HEX[c & 15]
    out[k + 4] = 10
    return bytes(out)


def _hexval(b):
    if 48 <= b <= 57:
        return b - 48
    if 97 <= b <= 102:
        return b - 87
    return -1


class Decoder:
    """Feed bytes; complete frames go to on_frame(seq, type, body) with body
    already parsed from JSON; problems go to on_error(code, seq, detail).

    Error codes: "truncated" (frame cut by a new start byte or by
    expire()), "oversized", "checksum", "syntax" (bad header or fields),
    "version" (another protocol version), "json" (body is not JSON).
    seq is None when the frame could not be trusted that far. .ident is
    the last frame's identity (B2), None for a B1 frame.
    keep_text=True keeps the bytes outside frames in .text (host side).
    """

    def __init__(self, on_frame, on_error=None, max_len=MAX_LEN, keep_text=False):
        self.on_frame = on_frame
        self.on_error = on_error
        self.max_len = max_len
        self.buf = bytearray(max_len)
        self.n = 0
        self.state = _IDLE
        self.garbage = 0
        self.frames = 0
        self.errors = 0
        self.keep_text = keep_text
        self.text = bytearray() if keep_text else None
        self.last_byte = 0
        self.ident = None

    def feed(self, data, n=None, now=0):
        """Take data[:n] (a bytes-like object; n: its length)."""
        if n is None:
            n = len(data)
        self.last_byte = now
        if _FIND and hasattr(data, "find"):
            self._feed_spans(data, n)
        else:  # pragma: no cover - an interpreter whose bytearray has no find()
            self._feed_bytes(data, n)

    def _feed_spans(self, data, n):
        # runs of bytes between the start bytes, newlines and CRs found by
        # find() (C) and copied by slices, instead of a Python step per
        # byte: a 95-byte request, its checks and JSON included, 37 -> 22
        # us on the unix port (about 1.5 ms less a request on an ESP32-S3
        # by the pystone ratio); skipping garbage allocates
        # nothing (find only), a frame's bytes one slice per run
        i = 0
        while i < n:
            j = data.find(_SB, i, n)
            if self.state == _IDLE:
                e = n if j < 0 else j
                if e > i:
                    self.garbage += e - i
                    if self.keep_text:
                        self.text.extend(data[i:e])
                if j < 0:
                    return
                self.state = _IN
                self.n = 0
                i = j + 1
                continue
            stop = n if j < 0 else j
            k = data.find(_NL, i, stop)
            e = stop if k < 0 else k
            while i < e and self.state == _IN:
                c = data.find(_CR, i, e)
                r = e if c < 0 else c
                m = r - i
                if m > 0:
                    if self.n + m > self.max_len - 2:
                        self.state = _DROP
                        self._err("oversized", None, "frame longer than %d bytes" % self.max_len)
                        break
                    self.buf[self.n:self.n + m] = data[i:r]
                    self.n += m
                i = r + 1 if c >= 0 else r
            i = e
            if k >= 0:                   # the newline: the frame's end
                st = self.state
                self.state = _IDLE
                if st == _IN:
                    self._frame()
                i = k + 1
            elif j >= 0:                 # a start byte: a new frame
                if self.state == _IN and self.n > 0:
                    self._err("truncated", None, "new frame started before the end of the last")
                self.state = _IN
                self.n = 0
                i = j + 1

    def _feed_bytes(self, data, n):
        """feed, one byte at a time (where find() is missing; the reference
        tests/firmware/test_link.py compares _feed_spans with)."""
        buf = self.buf
        for i in range(n):
            b = data[i]
            st = self.state
            if b == START:
                if st == _IN and self.n > 0:
                    self._err("truncated", None, "new frame started before the end of the last")
                self.state = _IN
                self.n = 0
                continue
            if st == _IDLE:
                self.garbage += 1
                if self.keep_text:
                    self.text.append(b)
                continue
            if b == 10:
                if st == _IN:
                    self.state = _IDLE
                    self._frame()
                else:
                    self.state = _IDLE
                continue
            if st == _DROP or b == 13:
                continue
            if self.n >= self.max_len - 2:
                self.state = _DROP
                self._err("oversized", None, "frame longer than %d bytes" % self.max_len)
                continue
            buf[self.n] = b
            self.n += 1

    def expire(self):
        """The line went quiet in the middle of a frame: drop it."""
        if self.state == _IN and self.n > 0:
            self._err("truncated", None, "frame not finished")
        self.state = _IDLE
        self.n = 0

    def pending(self):
        return self.state == _IN and self.n > 0

    def _err(self, code, seq, detail):
        self.errors += 1
        if self.on_error is not None:
            self.on_error(code, seq, detail)

    def _frame(self):
        buf = self.buf
        n = self.n
        self.n = 0
        for i in range(n):
            if buf[i] < 32:
                return self._err("syntax", None, "control byte 0x%02x in frame" % buf[i])
        if n < 2 or buf[0] != 66:    # 'B'
            return self._err("syntax", None, "frame does not start with B")
        if n >= 3 and buf[1] != 49 and buf[1] != 50 and 48 <= buf[1] <= 57 and buf[2] == 32:
            return self._err("version", None, "protocol version %s not supported (this is 1)" % chr(buf[1]))
        if n < 12 or (buf[1] != 49 and buf[1] != 50) or buf[2] != 32 or buf[n - 5] != 32:
            return self._err("syntax", None, "bad frame layout")
        c = 0
        for i in range(n - 4, n):
            v = _hexval(buf[i])
            if v < 0:
                return self._err("syntax", None, "checksum is not 4 hex digits")
            c = (c << 4) | v
        if crc16(buf, 0, n - 4) != c:
            return self._err("checksum", None, "checksum mismatch")
        # B2: the identity, [0-9a-f-]{1,24}
        i = 3
        ident = None
        if buf[1] == 50:
            while i < n and (48 <= buf[i] <= 57 or 97 <= buf[i] <= 102 or buf[i] == 45):
                i += 1
            if i == 3 or i - 3 > 24 or i >= n or buf[i] != 32:
                return self._err("syntax", None, "bad identity")
            ident = bytes(buf[3:i]).decode()
            i += 1
        # seq
        i0 = i
        seq = 0
        while i < n and 48 <= buf[i] <= 57:
            seq = seq * 10 + buf[i] - 48
            i += 1
        if i == i0 or i >= n or buf[i] != 32 or seq > 0xFFFF:
            return self._err("syntax", None, "bad sequence number")
        i += 1
        j = i
        while j < n and 97 <= buf[j] <= 122:
            j += 1
        if j == i or j - i > MAX_TYPE or buf[j] != 32:
            return self._err("syntax", seq, "bad message type")
        typ = bytes(buf[i:j]).decode()
        body = bytes(buf[j + 1:n - 5])
        try:
            obj = json.loads(body)
        except (ValueError, UnicodeError):
            return self._err("json", seq, "body is not JSON")
        self.frames += 1
        self.ident = ident
        self.on_frame(seq, typ, obj)
