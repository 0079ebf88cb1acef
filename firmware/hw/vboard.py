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
import socket

import hw
from hw.stdio import StdioPort
from hw.strip import Strip
from hw.vparts import Side, VClock, VScanner, VNeoPixel, VPWM, VWDT, FileBlockDev


_side = None   # the one side channel of this process (side())


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
                    name=board_def.get("name", "vboard"), tx_budget=w.get("tx_budget", 1024),
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
