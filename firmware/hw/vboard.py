"""The virtual board: the firmware on the MicroPython unix port, with its
hardware simulated by the host (host_tools/vboard/__init__.py, `bakumat vboard`).

The only module that builds the virtual board's hardware. The REPL's
stdin/stdout are a pty the host bridges to socket://127.0.0.1:PORT (the
serial link, exactly as on a board). Everything else goes over a side
channel socket (BAKUMAT_VBOARD=host:port) that only this module speaks:

  firmware -> host (9-byte header: type, a = u32 LE, n = u32 LE payload length)
    H  hello (payload: JSON)            -> reply H, payload JSON {"now", "lockstep"}
    S  a = T: sleep until T (lockstep)  -> reply S, a = the new time
    F  a = T: the sensor frame at T     -> reply F, payload = counts, u16 LE, channel order
    D  a = timeout ms: watchdog started;  W  a = T: watchdog fed;  P: watchdog parked
    L  a = T, payload = the LED strip buffer (GRB, as NeoPixel.buf)
    T  a = T, payload = buzzer freq u16 LE, duty u16 LE
    R  a = cause (2 hard): reset me (the host restarts the process)

So the firmware still only sees sensor frames: the scenario (throws,
faults, power cuts) lives on the host. In lockstep mode (tests,
benchmarks) the clock is virtual and advances only when the host answers S,
so a whole game runs as fast as the interpreter allows; otherwise the
clock is real time.

Environment: BAKUMAT_VBOARD (side channel address), BAKUMAT_RESET_CAUSE
(power|hard|wdt|soft, set by the host at each start), BAKUMAT_LFS (a
littlefs image file to use as the board's filesystem instead of the current
directory), BAKUMAT_WEB (a port: serve the phone page on 127.0.0.1:PORT; off
when unset), BAKUMAT_WEB_DIR (the page's files; default web), BAKUMAT_PROFILE (stage timings and allocation counts in the
health reply), BAKUMAT_HEAP_BUDGET (e.g. 64K: load the code first, then
leave only that much heap free, as on a board with frozen modules).
"""
import os
import sys
import time
import socket

import hw
from hw.stdio import StdioPort
from hw.strip import Strip

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
    """Same interface as hw.mux.MuxScanner: the frame comes from the host
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


_side = None


def side():
    global _side
    if _side is None:
        _side = Side(os.getenv("BAKUMAT_VBOARD") or "127.0.0.1:7001")
    return _side


def mount_fs():
    """The board's filesystem root: the current directory, or the littlefs
    image named by BAKUMAT_LFS mounted at /flash."""
    img = os.getenv("BAKUMAT_LFS")
    if not img:
        return ""
    import vfs
    bd = FileBlockDev(img)
    # The stubs want an AbstractBlockDev subclass; the protocol (readblocks,
    # writeblocks, ioctl) is what VfsLfs2 really calls.
    try:
        fs = vfs.VfsLfs2(bd)  # type: ignore[abstract, arg-type]
    except OSError:
        vfs.VfsLfs2.mkfs(bd)  # type: ignore[arg-type]
        fs = vfs.VfsLfs2(bd)  # type: ignore[abstract, arg-type]
    vfs.mount(fs, "/flash")
    return "/flash"


def web_listener():
    """The phone page's listening socket on 127.0.0.1:BAKUMAT_WEB, or None."""
    spec = os.getenv("BAKUMAT_WEB")
    if not spec:
        return None
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(socket.getaddrinfo("127.0.0.1", int(spec))[0][-1])
    s.listen(4)
    return s


def build(board_def, root=None):
    import json
    sd = side()
    sd.call(72, 0, json.dumps({"board": board_def.get("name")}).encode())    # 'H'
    # the reply's payload is JSON: {"now": ms, "lockstep": bool}
    info = json.loads(bytes(sd.payload)) if sd.payload else {}
    clock = VClock(sd, info.get("now", 0), info.get("lockstep", False))
    n = len(board_def["sensors"])
    scanner = VScanner(sd, clock, n)
    w = board_def.get("wiring") or {}
    led = w.get("led") or {}
    strip = Strip(VNeoPixel(sd, clock, led["count"])) if led.get("count") else None
    buzzer = VPWM(sd, clock) if (w.get("buzzer") or {}).get("pin") is not None else None
    port = StdioPort()

    if clock.lockstep:
        def idle(ms):
            clock.sleep_ms(ms)
    else:
        def idle(ms):
            if ms > 0:
                port.wait(ms)

    def wdt_factory(timeout_ms):
        return VWDT(sd, clock, timeout_ms)

    def wdt_park(wdt):
        sd.send(80)                                                   # 'P'

    def reset():
        sd.send(82, 2)                                                # 'R'
        sys.exit(3)

    return hw.Board(clock, scanner, port, strip=strip, buzzer=buzzer, buttons=[],
                    idle=idle, wdt_factory=wdt_factory, wdt_park=wdt_park,
                    reset_cause=os.getenv("BAKUMAT_RESET_CAUSE") or "power", reset=reset,
                    fs_root=mount_fs() if root is None else root,
                    name=board_def.get("name", "vboard"), tx_budget=w.get("tx_budget", 512),
                    listener=web_listener(), web_dir=os.getenv("BAKUMAT_WEB_DIR") or "web")


def _heap_budget():
    """BAKUMAT_HEAP_BUDGET=64K: load every module the game needs first,
    then hold the rest of the heap as ballast so that only the budget is
    free. This stands in for an ESP32 whose modules are frozen (or in
    ROMFS) and run from flash, so the heap only holds the game's data.
    Loading .mpy files leaves free holes between the code's objects (and
    the odd object high up in the heap); on such a board there is no code
    in the heap, so none of them: every free block is held except the
    heap's last free run, and the budget is the end of that run."""
    spec = os.getenv("BAKUMAT_HEAP_BUDGET")
    if not spec:
        return None
    import gc
    import app  # noqa: F401  (and everything it imports)
    import referee
    referee.load("official")
    if os.getenv("BAKUMAT_WEB"):
        import link.httpd  # noqa: F401  (the phone page's code: frozen too)
        import link.webapp  # noqa: F401
    n = int(spec.rstrip("Kk")) * 1024 if spec[-1] in "Kk" else int(spec)
    gc.collect()
    try:
        import uctypes
    except ImportError:
        uctypes = None
    if uctypes is None:
        free = gc.mem_free()
        return bytearray(free - n - 64) if free > n + 64 else None
    held = [None, None, 0]
    _hold_all_but_last(held, uctypes.addressof)
    gc.collect()       # frees the last run, whose size is held[2]
    if held[2] <= n + 128:
        return None
    return (held, bytearray(held[2] - n - 128))


def _hold_all_but_last(held, addressof):
    """held = [the free runs but the last one, a chain filling every hole,
    the size of the heap's last free run]; that run is dropped on return
    (a function of its own: no stale reference to it on the stack)."""
    runs = []
    while True:
        s = _largest()
        if s < 1024:
            break
        runs.append(bytearray(s))
    if not runs:
        return
    last = runs[0]
    for r in runs:
        if addressof(r) > addressof(last):
            last = r
    chain = None
    try:
        while True:
            chain = (chain, None)      # one block each: fills every hole
    except MemoryError:
        pass
    runs.remove(last)
    held[0] = runs
    held[1] = chain
    held[2] = len(last)


def _largest():
    """Size of the largest bytearray that can be allocated now."""
    import gc
    lo = 0
    hi = gc.mem_free()
    while hi - lo > 256:
        mid = (lo + hi) // 2
        try:
            bytearray(mid)       # allocated, then garbage
            lo = mid
        except MemoryError:
            hi = mid
    return lo


_ballast = None


def main():
    """Entry point of the micropython process the host starts."""
    global _ballast
    _ballast = _heap_budget()
    import app
    root = mount_fs()
    return app.main(build=lambda bd: build(bd, root), board_path="board.json", root=root,
                    profile=bool(os.getenv("BAKUMAT_PROFILE")))
