# Runs inside the 32-bit MicroPython WebAssembly port (tools/mp32/run.mjs), or
# (for stage timings) under the unix port's micropython binary, in the folder
# host_tools/bench/heap32.py prepared:
#   fw/          the firmware compiled to .mpy (as `bakumat deploy` installs it),
#                or the same in a ROMFS image at /rom (params path)
#   board.json   the board definition (as deploy writes it)
#   frames.bin   one sensor frame per loop tick, u16 LE counts in channel order
#   host.bin     the host's bytes: records (due tick u32 LE, length u32 LE, bytes)
#   params.json  {"ticks": N, "phone": bool, "modules": [...], "path": code dir,
#                 "wasm": bool, "plain": bool (unix: the per-frame loops without
#                 their viper kernels, sense.viperloops), "intern": a file
#                 of names or null}
#   names.json   (a frozen run) the app's names, interned before the base:
#                their pools are then not counted, as a frozen image keeps
#                them in flash (its ROM qstr pool)
#   pystone.py   the speed yardstick
# and writes out.bin (everything the board sent on its serial link).
#
# run.mjs calls step() again and again, one loop tick per call; garbage is
# collected between calls (exactly: no stack roots at JS's top level). Lines
# "HEAP32 key value" carry the figures (bytes of GC heap):
#   base    live after the harness was set up (before any firmware import)
#   code    live after importing the firmware modules, minus base
#   live    the most live at the start of a tick, minus base (code + data)
#   peak    the most in use at the end of a tick (live + all the tick allocated
#           without a collection), minus base, over the game's ticks but setup
#   worst_tick   the tick where peak was reached
#   setup   the same for the tick that set the game up (cfg), at setup_tick
#   tick_alloc   the most one tick allocated (setup included)
#   alloc_total  all the game's ticks allocated
#   alloc_setup  of which the setup tick's
#   gc_us   one full collection of the heap the game left (WebAssembly run)
import gc
import io
import json
import micropython
import os
import sys
import time

f = open("params.json")
P = json.load(f)
f.close()
f = None
sys.path.insert(0, P["path"])      # /bench/fw: .mpy files; /rom: a ROMFS image


class Clock:
    """time-like, virtual ms (the driver moves it one period per tick). The
    rest is the time module's own functions, as on a chip (whose board
    clock is the time module: hw.esp32): a Python method here would count
    its call in every stage that reads the clock."""
    def __init__(self):
        self.now = 1000
        self.ticks_us = time.ticks_us
        self.ticks_diff = time.ticks_diff
        self.ticks_add = time.ticks_add

    def ticks_ms(self):
        return self.now

    def sleep_ms(self, ms):
        pass


class Port:
    """The serial port: the host's bytes arrive at their tick, the board's go
    to out.bin (a file write: nothing on the heap)."""
    def __init__(self, n):
        self.rx = bytearray(n)
        self.rn = 0
        self.ro = 0
        self.out = open("out.bin", "wb")
        self.rx_bytes = 0
        self.tx_bytes = 0
        self.queued = 0
        self.t = 0

    def any(self):
        return self.ro < self.rn

    def wait(self, ms):
        return self.ro < self.rn

    def read_into(self, buf, maxn):
        n = 0
        while n < maxn and self.ro < self.rn:
            buf[n] = self.rx[self.ro]
            self.ro += 1
            n += 1
        self.rx_bytes += n
        return n

    def room(self):
        # the UART FIFO's free room, as hw.stdio.StdioPort estimates it
        # (128 bytes at 115,200 baud) on the virtual clock
        d = min(1000, B["clock"].now - self.t)
        q = self.queued - d * 115200 // 10000
        return 128 - (q if q > 0 else 0)

    def write(self, data):
        self.queued = 128 - self.room() + len(data)
        self.t = B["clock"].now
        self.out.write(data)
        self.tx_bytes += len(data)


class _Up:
    pass


def _button():
    """A button nobody presses (active low: value() true), read by a C
    function as a chip's machine.Pin.value is: gc.isenabled returns True
    and allocates nothing (a Python method would count its call in the link
    stage every tick; time.time, used before, returns a float: 16 bytes of
    heap a button a tick on the unix port, which a chip's pin does not)."""
    p = _Up()
    p.value = gc.isenabled
    return p



class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, n):
        self.n = n
        self.bpp = 3
        self.buf = bytearray(3 * n)

    def __len__(self):
        return self.n

    def write(self):
        pass


class PWM:
    def freq(self, f=None):
        return 1000

    def duty_u16(self, d=None):
        return 0


def _listener():
    """The phone page's listening socket: on the unix port a real one on
    the loopback that nobody connects to (polled in C, as a chip's socket
    is), else (the WebAssembly port: no sockets) the stand-in below."""
    try:
        import socket
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(socket.getaddrinfo("127.0.0.1", 0)[0][-1])
        s.listen(2)
        s.setblocking(False)
        return s
    except (ImportError, OSError, AttributeError):
        return Listener()


class Listener(io.IOBase):
    """The phone page's listening socket: nobody connects (the server, its
    client buffers and the page's web app are all built). ioctl: what
    select.poll asks a stream (no event ready)."""
    def ioctl(self, req, arg):
        return 0

    def setblocking(self, flag):
        pass

    def accept(self):
        raise OSError(11)


def report(key, value):
    print("HEAP32", key, value)


S = {"phase": 0, "tick": 0, "live": 0, "peak": 0, "worst": 0, "setup": 0, "setup_tick": -1, "grow": 0}
B = {}
gc.collect()


def step():
    ph = S["phase"]
    if ph == 0:
        # the harness, then nothing else: the base
        bd = _board()
        w = bd["wiring"]
        from hw.strip import Strip
        if w.get("i2c"):
            # an I2C board (the amr2 mat): its bus in a file of its own, whose
            # names would otherwise shift this port's name pools in every run
            import i2cbus
            mat = i2cbus.mat(w)
        else:
            # an SPI board (the lis2 mat), likewise in a file of its own
            import spibus
            mat = spibus.mat(w)
        B["mat"] = mat
        B["frames"] = open("frames.bin", "rb")
        B["host"] = open("host.bin", "rb")
        B["hdr"] = bytearray(8)
        B["port"] = Port(4096)
        B["clock"] = Clock()
        B["parts"] = Strip
        B["next_due"] = _next_host()
        from array import array
        B["prev"] = array("i", [0] * 14)
        B["rec"] = array("i", [0] * 14)
        S["tick_save_us"] = S["tick_save_bytes"] = 0
        B["ticks"] = open("ticks.bin", "wb")
        if P.get("intern"):
            f = open(P["intern"])
            for n in json.load(f):
                hasattr(None, n)       # interns n (mp_obj_str_get_qstr)
            f.close()
            f = n = None
        S["phase"] = 1
        gc.collect()
        return True
    if ph == 1:
        S["base"] = gc.mem_alloc()
        report("base", S["base"])
        if P.get("intern"):
            micropython.qstr_info()    # the names' pools at the base (and at the end: names made after it)
        for m in P["modules"]:
            __import__(m)
        if P.get("plain"):
            import looptime
            looptime.plain()
        S["phase"] = 2
        gc.collect()
        return True
    if ph == 2:
        report("code", gc.mem_alloc() - S["base"])
        _build()
        S["phase"] = 3
        gc.collect()
        return True
    if ph == 4:
        gc.collect()       # (the game's garbage: the harness's own steps now)
        _speed()
        if not P["wasm"]:
            return False
        S["phase"] = 5
        S["gc"] = []
        return True
    if ph == 5:
        return _gc_pause()
    # the game, one tick per step
    a0 = gc.mem_alloc() - S["base"]
    if a0 > S["live"]:
        S["live"] = a0
    if S["tick"] >= P["ticks"]:
        if P.get("intern"):
            micropython.qstr_info()
        report("live", S["live"])
        report("peak", S["peak"])
        report("worst_tick", S["worst"])
        report("setup", S["setup"])
        report("setup_tick", S["setup_tick"])
        report("tick_alloc", S["grow"])
        report("alloc_total", S.get("alloc_total", 0))
        report("alloc_setup", S.get("alloc_setup", 0))
        if P.get("stack"):
            report("stack_depth", S["depth"])
            report("stack_c", S["cstack"])
            report("stack_py", S["pystack"])
        report("ticks", S["tick"])
        report("collections", S["collections"])
        report("overruns", B["app"].health.overruns)
        report("fails", B["app"].health.failing_ticks)
        B["port"].out.close()
        B["ticks"].close()
        S["phase"] = 4
        return True
    configured = B["app"].session.game is not None
    _tick()
    _record()
    a1 = gc.mem_alloc() - S["base"]
    if not configured and B["app"].session.game is not None:
        # the tick that set the game up (cfg): its garbage (the pipeline's
        # float maths) is collected by the app's own gc.collect() on a chip,
        # which this port defers to the end of the tick: reported apart
        S["setup"] = a1
        S["setup_tick"] = S["tick"]
        S["alloc_setup"] = a1 - a0
    elif a1 > S["peak"]:
        S["peak"] = a1
        S["worst"] = S["tick"]
    if a1 - a0 > S["grow"]:
        S["grow"] = a1 - a0
    S["alloc_total"] = S.get("alloc_total", 0) + a1 - a0
    S["tick"] += 1
    if not P["wasm"] and S["tick"] % 250 == 0:
        _pystone(500)             # samples through the game, between ticks
    if P["wasm"]:
        micropython.mem_info()     # run.mjs keeps the largest block
        gc.collect()               # (the heap figures: what each tick left live, exactly)
    elif gc.mem_alloc() - S["gc_from"] >= S["gc_th"]:
        # The unix run (the times): the heap is collected as often as the
        # app's gc.threshold collects on a chip (app.main: a quarter of the
        # free heap), between ticks (the pause is the bench's GC pause
        # figure, apart), not after every tick as the heap runs must: a
        # collection sweeps the whole heap, and the tick after it ran with
        # the host's caches cold (measured, Hall board: every quiet tick
        # 0.5-0.8 ms slower on the S3's projection), which no chip's tick does.
        gc.collect()
        S["gc_from"] = gc.mem_alloc()
        S["collections"] += 1
    return True


def _next_host():
    h = B["hdr"]
    if B["host"].readinto(h) != 8:
        return -1
    return h[0] | (h[1] << 8) | (h[2] << 16) | (h[3] << 24)


def _board():
    f = open("board.json")
    bd = json.load(f)
    f.close()
    return bd


def _build():
    """As app.main does on a board: the definition read, the hardware
    built, the wiring tables dropped, the app made and booted."""
    import hw
    import app
    Strip = B["parts"]
    bd = _board()
    w = bd["wiring"]
    mat = B["mat"]
    if w.get("i2c"):
        import i2cbus
        scanner = i2cbus.scanner(mat, w)
    else:
        import spibus
        scanner = spibus.scanner(mat, w)
    led = w.get("led") or {}
    strip = Strip(NeoPixel(led["count"])) if led.get("count") else None
    buttons = []
    for i, b in enumerate(w.get("buttons", [])):
        buttons.append((b.get("name", "b%d" % i) if isinstance(b, dict) else "b%d" % i, _button()))
    board = hw.Board(B["clock"], scanner, B["port"], strip=strip, buzzer=PWM() if w.get("buzzer") else None,
                     buttons=buttons, reset_cause="power", fs_root="" if P["wasm"] else _mount_flash(), name=bd.get("name", "esp32"),
                     tx_budget=w.get("tx_budget", 256), listener=_listener() if P["phone"] else None)
    for k in ("channels", "adc_pins", "mux_select"):      # as app.main does
        w.pop(k, None)
    B["parts"] = None
    a = app.App(board, bd, profile=True)
    bd = None
    if not P["wasm"]:
        _time_saves(a.store)
    a.boot()
    B["app"] = a
    gc.collect()
    S["gc_from"] = gc.mem_alloc()
    S["gc_th"] = gc.mem_free() // 4 + gc.mem_alloc()     # as app.main sets gc.threshold
    S["collections"] = 0


def _mount_flash():
    import vfs
    from flashdev import Flash   # beside this script (the unix run's sys.path[0])
    dev = Flash(48)
    vfs.VfsLfs2.mkfs(dev)
    vfs.mount(vfs.VfsLfs2(dev), "/lfs")
    B["flash"] = dev
    return "/lfs"


def _time_saves(st):
    """Unix run: how long each store save takes here, how many bytes the
    file it wrote has (board-state v2: the event's own file; game.ndj for a
    new game), and the flash erases and bytes programmed in each tick
    (littlefs on the Flash device). What a tick takes out of its time
    (tick_save_us): the Flash device's own Python (standing in for the
    chip's flash driver, whose time the erases and pages projects) and this
    harness's stat of the file; the firmware's save and littlefs's work
    stay in the tick, projected as the rest is."""
    from store.state import GAME
    S["save_n"] = S["save_us"] = S["save_max"] = S["save_bytes"] = 0
    S["save_erases"] = S["save_prog"] = 0
    dev = B["flash"]

    def timed(f):
        def g(*args):
            u0 = dev.us
            t0 = time.ticks_us()
            r = f(*args)
            t1 = time.ticks_us()
            d = time.ticks_diff(t1, t0)
            S["save_n"] += 1
            S["save_us"] += d
            if d > S["save_max"]:
                S["save_max"] = d
            try:
                n = os.stat(st.path(GAME) if f is start or st.game is None else st._ev(st.events - 1))[6]
            except OSError:
                n = 0
            S["tick_save_us"] += dev.us - u0 + time.ticks_diff(time.ticks_us(), t1)
            S["tick_save_bytes"] += n
            if n > S["save_bytes"]:
                S["save_bytes"] = n
            return r
        return g
    start = st.game_start
    st.game_append = timed(st.game_append)
    st.game_start = timed(start)
    def other(f):              # claims, calibration (st.save), signatures (sig/'s files)
        def g(*args):
            u0 = dev.us
            r = f(*args)
            S["tick_save_us"] += dev.us - u0
            return r
        return g
    st.save = other(st.save)
    st.save_signatures = other(st.save_signatures)


def _tick():
    clock = B["clock"]
    port = B["port"]
    t = S["tick"]
    # the host's bytes due by this tick arrive in the port's input
    while B["next_due"] >= 0 and B["next_due"] <= t:
        h = B["hdr"]
        n = h[4] | (h[5] << 8) | (h[6] << 16) | (h[7] << 24)
        if port.ro == port.rn:
            port.ro = port.rn = 0
        if port.rn + n > len(port.rx):
            break                      # the rest waits for room
        port.rn += B["host"].readinto(memoryview(port.rx)[port.rn:port.rn + n])
        B["next_due"] = _next_host()
    if B["frames"].readinto(B["mat"].frame) != len(B["mat"].frame):
        B["frames"].seek(-len(B["mat"].frame), 2)     # after the last frame the mat stays as it was
        B["frames"].readinto(B["mat"].frame)
    a = B["app"]
    if P.get("stack"):
        sys.settrace(_trace)
    a.loop.tick(clock.now)
    if P.get("stack"):
        sys.settrace(None)
    # spare time of the tick: the app reads its input as run() does
    a.link.service(clock.now + a.period)
    clock.now += a.period


def _record():
    """One record per tick in ticks.bin (i32 LE): the five stages' us (scan,
    sense, link, show, tx), LED strip writes, bytes written to the serial
    port, game events, store saves (from the app's own counters); the us
    the saves took and the game file's bytes after them; the flash erases
    and bytes programmed (those three: unix run only, else 0); the heap the
    tick allocated (the app's own count: nothing on a tick where the
    sensing only ran its per-frame path)."""
    a = B["app"]
    prev = B["prev"]
    rec = B["rec"]
    stage_us = a.health.stage_us
    for i in range(5):
        rec[i] = stage_us[i] - prev[i]
        prev[i] = stage_us[i]
    k = 5
    strip = a.board.strip
    for v in (strip.writes if strip is not None else 0, B["port"].tx_bytes, a.session.events, a.store.saves):
        rec[k] = v - prev[k]
        prev[k] = v
        k += 1
    rec[9] = S["tick_save_us"]
    rec[10] = S["tick_save_bytes"]
    S["tick_save_us"] = S["tick_save_bytes"] = 0
    fl = B.get("flash")
    if fl is not None:
        rec[11] = fl.erases - prev[11]
        rec[12] = fl.prog - prev[12]
        prev[11] = fl.erases
        prev[12] = fl.prog
        if rec[11] > S["save_erases"]:
            S["save_erases"] = rec[11]
        if rec[12] > S["save_prog"]:
            S["save_prog"] = rec[12]
    h = a.health
    v = h.alloc_busy + h.quiet_alloc
    rec[13] = v - prev[13]
    prev[13] = v
    B["ticks"].write(rec)


def _speed():
    """After the game, on the same interpreter: the scan loop with its bus's
    calls stood in by C functions (each transaction's time on the chip is
    added on the host from its published figures: mpscripts/spibus.py,
    mpscripts/i2cbus.py), and pystone."""
    bd = _board()
    w = bd["wiring"]
    if w.get("i2c"):
        import i2cbus
        sc = i2cbus.report(B["app"].board.scanner, report)    # the scanner, its bus's calls stood in
    else:
        import spibus
        sc = spibus.report(B["app"].board.scanner, report, w)
    bd = None
    best = 1 << 30
    for _ in range(5):
        t0 = time.ticks_us()
        for _ in range(100):
            sc.scan()
        d = time.ticks_diff(time.ticks_us(), t0)
        if d < best:
            best = d
    report("scan_loop_us100", best)
    report("scan_reads", 0 if w.get("i2c") or w.get("spi") else sc.n)   # ADC reads (a bus's calls are counted apart)
    for _ in range(3):
        _pystone(5000)
    report("pystones", S.get("ps", 0))
    if not P["wasm"]:
        import looptime        # (its own file: its names would shift this port's name pools in the heap runs)
        looptime.run(report, _board, P)
    for k in ("save_n", "save_us", "save_max", "save_bytes", "save_erases", "save_prog"):
        if k in S:
            report(k, S[k])


def _pystone(loops):
    """The most pystones/s seen in this run (the machine's other load only
    ever slows a sample down: the least loaded one is the interpreter's)."""
    import pystone
    ps = int(pystone.pystones(loops)[1])
    if ps > S.get("ps", 0):
        S["ps"] = ps


if not P["wasm"]:
    # the unix port (timings: its ticks_us counts microseconds, the
    # WebAssembly port's only milliseconds): the same steps, looped here
    while step():
        pass


def _gc_pause():
    """WebAssembly run, after the game with its heap as the game left it: a
    step that asks for a collection (done at its end) against one that does
    not; run.mjs times each call. The least of 8 pairs: the collection."""
    import js
    g = S["gc"]
    g.append(js.mp32_last_ms)
    if len(g) == 17:
        with_gc = min(g[1::2])     # calls that collected at their end
        without = min(g[2::2])
        report("gc_us", int(1000 * (with_gc - without)))
        return False
    if len(g) % 2 == 1:
        gc.collect()
    return True


S["depth"] = S["cstack"] = S["pystack"] = 0


def _trace(frame, event, arg):
    """sys.settrace (the port's settrace build, a stack run only): at every
    call in a tick, the Python call depth and the stacks' use, kept at their
    largest. No local tracing (None): calls only."""
    if event == "call":
        n = 0
        f = frame
        while f is not None:
            n += 1
            f = f.f_back
        if n > S["depth"]:
            S["depth"] = n
        c = micropython.stack_use()
        if c > S["cstack"]:
            S["cstack"] = c
        p = micropython.pystack_use()
        if p > S["pystack"]:
            S["pystack"] = p
    return None
