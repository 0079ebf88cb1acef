"""The virtual board's parts (hw/vboard.py builds them): the side channel to
the host and what speaks over it, the clock (lockstep or real time), the
sensor scanner, the LED strip, the buzzer's PWM, the watchdog, and a file
as the board's flash for littlefs. The protocol is in hw/vboard.py's
docstring and docs/formats/vboard-side-channel-v1.md.
"""
import socket
import sys
import time

_TICKS = 1 << 30


def _u32(buf, off, v):
    buf[off] = v & 255
    buf[off + 1] = (v >> 8) & 255
    buf[off + 2] = (v >> 16) & 255
    buf[off + 3] = (v >> 24) & 255


def _g32(buf, off):
    return buf[off] | (buf[off + 1] << 8) | (buf[off + 2] << 16) | (buf[off + 3] << 24)


class Side:
    """The side channel to the host. Preallocated buffers: no allocation
    per message."""

    def __init__(self, addr):
        host, port = addr.rsplit(":", 1)
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.connect(socket.getaddrinfo(host, int(port))[0][-1])
        try:
            s.setsockopt(6, 1, 1)   # IPPROTO_TCP, TCP_NODELAY: small messages go at once
        except OSError:
            pass
        self.s = s
        self.hdr = bytearray(9)
        self.rhdr = bytearray(9)
        self.payload = None
        self.rtype = 0

    def send(self, typ, a=0, payload=None):
        h = self.hdr
        h[0] = typ
        _u32(h, 1, a & 0xFFFFFFFF)
        _u32(h, 5, 0 if payload is None else len(payload))
        self.s.write(h)
        if payload is not None:
            self.s.write(payload)

    def recv(self, into=None):
        """Read one reply header (and its payload into `into`, which must
        have exactly the payload's size). Returns a; the type is in .rtype
        (no tuple: this runs every scan and must not allocate)."""
        h = self.rhdr
        self._read(h)
        n = _g32(h, 5)
        self.payload = None
        if n:
            if into is None or len(into) != n:
                into = bytearray(n)
            self._read(into)
            self.payload = into
        self.rtype = h[0]
        return _g32(h, 1)

    def _read(self, buf):
        got = self.s.readinto(buf)
        if got is None or got < len(buf):
            # a blocking stream reads in full; short means the host went away
            sys.exit(4)

    def call(self, typ, a=0, payload=None, into=None):
        self.send(typ, a, payload)
        return self.recv(into)


class VClock:
    """`time`-like clock. Lockstep: virtual ms, advanced by the host.
    ticks_us stays real so stage timings measure real interpreter time."""

    def __init__(self, side, now, lockstep):
        self.side = side
        self.lockstep = lockstep
        self.now = now % _TICKS
        self._base = time.ticks_ms()
        self._off = now

    def ticks_ms(self):
        if self.lockstep:
            return self.now
        return (self._off + time.ticks_diff(time.ticks_ms(), self._base)) % _TICKS

    def ticks_us(self):
        return time.ticks_us()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def ticks_add(self, a, d):
        return time.ticks_add(a, d)

    def sleep_ms(self, ms):
        if ms <= 0:
            return
        if self.lockstep:
            self.now = self.side.call(83, (self.now + ms) % _TICKS) % _TICKS   # 'S'

        else:
            time.sleep_ms(ms)

    def sleep_us(self, us):
        if not self.lockstep:
            time.sleep_us(us)


class VScanner:
    """Same interface as the board's scanner (hw.lis2.Lis2Scanner): the frame comes from the host
    (the simulated magnetic field at this instant)."""

    def __init__(self, side, clock, n):
        from array import array
        self.side = side
        self.clock = clock
        self.n = n
        self.frame = array("H", [0] * n)
        self._raw = bytearray(2 * n)
        self.scans = 0

    def scan(self):
        raw = self._raw
        self.side.call(70, self.clock.ticks_ms(), None, raw)       # 'F'
        f = self.frame
        for i in range(self.n):
            f[i] = raw[2 * i] | (raw[2 * i + 1] << 8)
        self.scans += 1
        return f


class VNeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, side, clock, n):
        self.side = side
        self.clock = clock
        self.n = n
        self.bpp = 3
        self.buf = bytearray(3 * n)

    def __len__(self):
        return self.n

    def write(self):
        self.side.send(76, self.clock.ticks_ms(), self.buf)          # 'L'


class VPWM:
    def __init__(self, side, clock):
        self.side = side
        self.clock = clock
        self._f = 1000
        self._d = 0
        self._p = bytearray(4)

    def _tell(self):
        p = self._p
        p[0] = self._f & 255
        p[1] = (self._f >> 8) & 255
        p[2] = self._d & 255
        p[3] = (self._d >> 8) & 255
        self.side.send(84, self.clock.ticks_ms(), p)                 # 'T'

    def freq(self, f=None):
        if f is None:
            return self._f
        self._f = f
        self._tell()

    def duty_u16(self, d=None):
        if d is None:
            return self._d
        self._d = d
        self._tell()

    def deinit(self):
        self.duty_u16(0)


class VWDT:
    """The watchdog lives in the host, which restarts the process (cause
    `wdt`) when it is not fed in time; feeds are sent at most every 100 ms."""

    def __init__(self, side, clock, timeout):
        self.side = side
        self.clock = clock
        self.timeout = timeout
        self._last = clock.ticks_ms()
        side.send(68, timeout)                                        # 'D'

    def feed(self):
        now = self.clock.ticks_ms()
        if time.ticks_diff(now, self._last) >= 100:
            self._last = now
            self.side.send(87, now)                                   # 'W'


class FileBlockDev:
    """A littlefs image in a host file, 4 KB erase blocks like ESP32 flash."""

    def __init__(self, path, block_size=4096):
        self.f = open(path, "r+b")
        self.bs = block_size
        self.f.seek(0, 2)
        self.count = self.f.tell() // block_size

    def readblocks(self, block, buf, off=0):
        self.f.seek(block * self.bs + off)
        self.f.readinto(buf)

    def writeblocks(self, block, buf, off=None):
        if off is None:
            off = 0
        self.f.seek(block * self.bs + off)
        self.f.write(buf)
        self.f.flush()

    def ioctl(self, op, arg):
        if op == 4:
            return self.count
        if op == 5:
            return self.bs
        if op == 6:
            self.f.seek(arg * self.bs)
            self.f.write(b"\xff" * self.bs)
            return 0
        return 0
