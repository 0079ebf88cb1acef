"""The virtual board: the real firmware (firmware/app.py and everything it
imports) running in the `micropython` unix-port binary, with simulated
sensors, LEDs, buzzer and watchdog (CPython host side).

    vb = VBoard(boards.REFERENCE, lockstep=True)
    vb.start()                         # process up, app booted
    link = vb.link()                   # HostLink over socket://127.0.0.1:PORT
    vb.play(res.frames, res.controls, link)   # a simulated stretch, lockstep
    vb.leds, vb.tones                  # what the strip and the buzzer did
    vb.stop()

The process's stdin/stdout/stderr are a pty (raw: a 0x03 byte is a byte, as
on a board's UART; the app has its keyboard interrupt off, and at the REPL
MicroPython reads Ctrl-C itself), bridged to a TCP server on 127.0.0.1:PORT:
pyserial (`socket://127.0.0.1:PORT`), `bakumat` commands and real `mpremote
connect socket://127.0.0.1:PORT resume ...` talk to it as to a board. The
side channel (firmware/hw/vboard.py documents it) carries sensor frames to
the firmware and LED/buzzer/watchdog events back; scenario control stays
here, so the firmware only ever sees sensor frames.

Lockstep mode: the board's clock is virtual and advances when the host
answers its sleep requests, so a whole game runs as fast as the interpreter
allows and identically every time. Realtime mode (the `bakumat vboard`
command): the board's clock is real time.

The board's filesystem is the work directory (board.json, game.ndj and the
game's event directories, ...: docs/formats/board-state-v2.md; read the
stored game with host_tools.logs.boardstate) or, with lfs=PATH, a littlefs
image file.
"""
import json
import os
import select
import shutil
import socket
import struct
import subprocess
import tempfile
import termios
import threading
import time
import tty

from host_tools import boards, fwpath, programs
from host_tools.errors import UserError
from host_tools.words import stamp

HDR = struct.Struct("<BII")
BOOT_MS = 300           # virtual time a (re)boot takes
DEFAULT_PORT = 7000     # `bakumat vboard` serves its serial link on 127.0.0.1:7000
CONSOLE_MAX = 8 << 20   # bytes of the board's output kept (VBoard.console)


def micropython_exe():
    return programs.need("micropython", "the micropython binary is not installed: install the project with its "
                         "dependencies")


class IdleField:
    """Sensor readings of an empty mat: every channel at its zero-field
    count plus deterministic noise (a healthy sensor never repeats): uniform
    within +-noise counts, by default the board's rms noise (at least 4)."""

    def __init__(self, board, noise=None, seed=7):
        self.zero = board["sensor"]["zero_counts"]
        self.n = len(board["sensors"])
        if noise is None:
            noise = max(4, int(round(board["sensor"]["noise_counts_rms"])))
        self.noise = noise
        self.x = seed

    def _rnd(self):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 16) % (2 * self.noise + 1) - self.noise

    def frame_at(self, t):
        return [self.zero + self._rnd() for _ in range(self.n)]


class Recorded:
    """Frames [(t, counts)] from the simulator, shown from board time
    `start`; after the last one the last field stays, with noise (with
    steady=True the median of the last half second, so that one frame's
    noise or spike does not stay for good)."""

    def __init__(self, frames, start, board, noise=None, steady=False):
        self.frames = frames
        self.ts = [f[0] for f in frames]
        self.t0 = frames[0][0]
        self.start = start
        self.idle = IdleField(board, noise)
        self.last = frames[-1][1]
        self.still = ()
        if steady:
            tail = [f[1] for f in frames[-25:]]
            self.last = [sorted(col)[len(col) // 2] for col in zip(*tail)]
            # a dead or stuck channel stays exactly as it is
            self.still = [min(col) == max(col) for col in zip(*tail)]

    def frame_at(self, t):
        import bisect
        st = t - self.start + self.t0
        i = bisect.bisect_right(self.ts, st) - 1
        if i < 0:
            i = 0
        if i >= len(self.frames) - 1 and st > self.ts[-1] + 100:
            if self.still:
                return [c if still else c + self.idle._rnd() for c, still in zip(self.last, self.still)]
            return [c + self.idle._rnd() for c in self.last]
        return self.frames[i][1]


def no_wiring(board):
    """The error for a bare mat given where a board folder is needed,
    naming the folders that wire that mat."""
    mat = board.get("mat") or board.get("name")
    folders = []
    for n in boards.names():
        try:
            b = boards.load(n)
        except UserError:
            continue
        if b.get("wiring") and b.get("mat") == mat:
            folders.append(n)
    return ("board %s has no wiring (a bare mat): the virtual board needs a board folder%s"
            % (board.get("name"), ", e.g. %s" % boards.REFERENCE if not folders else
               " that wires it: %s" % ", ".join(folders)))


class Faults:
    """Hardware faults the host injects under the firmware: a dead channel
    (reads a fixed value), a hung sensor bus (frame requests never answered)."""

    def __init__(self):
        self.dead = {}
        self.hang = False

    def apply(self, counts):
        if self.dead:
            counts = list(counts)
            for ch, v in self.dead.items():
                counts[ch] = v
        return counts


_KERNELS: dict = {}     # (mat, world) -> the kernel table a board definition carries: built once a process


def with_kernels(board):
    """The board as deploy installs it: a mat designed in a computed world
    ("nominal_world") senses with the kernel table of the world it is
    simulated in (host_tools/boards/kernels.py); a board that carries a
    table, or a mat of no computed world, as it is."""
    from host_tools.sim import worlds
    if "kernels" in board or not worlds.nominal(board):
        return board
    from host_tools.boards import kernels
    key = (board.get("mat"), board.get("world") or worlds.default_name(board))
    if key not in _KERNELS:
        _KERNELS[key] = kernels.for_board(board, key[1]).get("kernels")
    if _KERNELS[key] is None:
        return board
    b = dict(board)
    b["kernels"] = _KERNELS[key]
    return b


class VBoard:
    def __init__(self, board=boards.REFERENCE, workdir=None, lockstep=True, port=0, heapsize=None,
                 lfs=None, wdt_backstop_s=3.0, quiet=True, mpy_dir=None, profile=False, heap_budget=None,
                 web=None, paced=False):
        from host_tools import boards
        self.board_name = board
        self.board = boards.load(board) if isinstance(board, str) else board
        if "wiring" not in self.board:
            raise UserError(no_wiring(self.board))
        self.board = with_kernels(self.board)
        if self.board["sensor"]["max_counts"] > 0xFFFF:
            # the side channel's frame reply carries u16 counts (docs/formats/vboard-side-channel-v1.md)
            raise UserError("board %s: sensor.max_counts %d does not fit the virtual board's 16-bit frames"
                            % (self.board.get("name"), self.board["sensor"]["max_counts"]))
        self._own_dir = workdir is None
        self.workdir = workdir or tempfile.mkdtemp(prefix="bakumat-vboard-")
        # paced: lockstep, with board time let pass no faster than the wall
        # clock. The board then sees every frame whatever this machine's load
        # (a slow tick delays board time instead of skipping frames), so what
        # it decides does not depend on how busy the host is.
        self.paced = paced
        self.lockstep = lockstep or paced
        self._pace_base = None      # paced: (board ms, wall s) board time is counted from
        self.want_port = port
        self.heapsize = heapsize
        self.lfs = lfs
        self.wdt_backstop_s = wdt_backstop_s
        self.quiet = quiet
        self.mpy_dir = mpy_dir
        self.profile = profile
        self.heap_budget = heap_budget
        self.web = web              # phone page port (0: any free port), None: off
        self.web_url = None
        self.source = IdleField(self.board)
        self.faults = Faults()
        self.on_advance = None      # callable(T) in lockstep, before time moves to T
        self.on_takeover = None     # callable(): a client connected while another held the link
        self.max_resets = None      # run_for() gives up after more restarts than this
        self.vnow = 1000            # board time (ms) last seen
        self.leds = []              # (T, bytes of the strip buffer, GRB)
        self.tones = []             # (T, freq, duty)
        self.resets = []            # (T, cause) of every restart
        self.boots = 0
        self.hellos = []
        self.console = bytearray()  # everything the board printed (also forwarded), its last CONSOLE_MAX bytes
        self.console_dropped = 0    # ... and how many bytes before them were let go
        self.proc = None
        self._procs = []            # every process started (stop() makes sure none is left)
        self.exit_codes = []
        self._lock = threading.RLock()
        self._pty_lock = threading.Lock()
        self._client = None
        self._forwarded = 0         # client bytes written into the pty
        self._received = 0          # client bytes read from the client socket
        self._stop = False
        self._wdt = None            # timeout ms while a watchdog runs
        self._wdt_fed = 0
        self._wdt_parked = False
        self._last_msg = time.monotonic()
        self._waiting_reply = False
        self._booted = threading.Event()
        self._gen = 0               # process generation
        self._cv = threading.Condition()
        self._allow = self.vnow     # lockstep: board time may advance up to here
        self._holding = False       # lockstep: the board waits for us to let time pass
        self._console_mark = 0

    # ------------------------------------------------------------ setup
    def start(self, timeout=20.0):
        with open(os.path.join(self.workdir, "board.json"), "w") as f:
            json.dump(self.board, f, sort_keys=True, separators=(",", ":"))
        self._side_srv = socket.socket()
        self._side_srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._side_srv.bind(("127.0.0.1", 0))
        self._side_srv.listen(2)
        self.side_port = self._side_srv.getsockname()[1]
        self._ser_srv = socket.socket()
        self._ser_srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self._ser_srv.bind(("127.0.0.1", self.want_port))
        except OSError as e:
            raise UserError("cannot listen on 127.0.0.1:%s: %s" % (self.want_port, e.strerror or e))
        self._ser_srv.listen(1)
        self.port = self._ser_srv.getsockname()[1]
        self.url = "socket://127.0.0.1:%d" % self.port
        if self.web is not None:
            if not self.web:
                probe = socket.socket()
                probe.bind(("127.0.0.1", 0))
                self.web = probe.getsockname()[1]
                probe.close()
            self.web_url = "http://127.0.0.1:%d/" % self.web
        self.master, self.slave = os.openpty()
        self._setup_tty(self.slave)
        self._reader = threading.Thread(target=self._pty_reader, daemon=True)   # joined by stop()
        self._reader.start()
        for target in (self._bridge_acceptor, self._side_acceptor, self._watchdog):
            threading.Thread(target=target, daemon=True).start()
        self._spawn("power")
        self.wait_booted(timeout)
        return self

    def _setup_tty(self, fd):
        # raw bytes both ways (no echo, no CR/LF mapping, no signals): as a
        # board's UART. A 0x03 reaches the interpreter as a byte: the app
        # (keyboard interrupt off, micropython.kbd_intr(-1)) skips it as
        # line noise; at the REPL it interrupts as on a board. (A signal
        # would kill the unix port once the app turned the interrupt off.)
        # TCSANOW: bytes the host sent while the board was off stay queued
        # (setraw's default, TCSAFLUSH, would drop them at every boot).
        tty.setraw(fd, termios.TCSANOW)

    def _spawn(self, cause):
        env = dict(os.environ)
        path = [self.mpy_dir] if self.mpy_dir else []
        path.append(fwpath.FIRMWARE_DIR)
        env["MICROPYPATH"] = ":".join(path)
        env["BAKUMAT_VBOARD"] = "127.0.0.1:%d" % self.side_port
        env["BAKUMAT_RESET_CAUSE"] = cause
        if self.profile:
            env["BAKUMAT_PROFILE"] = "1"
        if self.heap_budget:
            env["BAKUMAT_HEAP_BUDGET"] = str(self.heap_budget)
        if self.web:
            env["BAKUMAT_WEB"] = str(self.web)
            env["BAKUMAT_WEB_DIR"] = os.path.join(fwpath.FIRMWARE_DIR, "web")
        else:
            env.pop("BAKUMAT_WEB", None)
        if self.lfs:
            env["BAKUMAT_LFS"] = os.path.abspath(self.lfs)
        else:
            env.pop("BAKUMAT_LFS", None)
        cmd = [micropython_exe()]
        if self.heapsize:
            cmd += ["-X", "heapsize=%s" % self.heapsize]
        cmd += ["-i", "-c", "import hw.vboard as v; v.main()"]
        slave = self.slave
        # the REPL of a killed process leaves the tty raw (no Ctrl-C signal):
        # a board that boots again takes Ctrl-C again
        self._setup_tty(slave)

        def child():
            os.setsid()
            import fcntl
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        self._booted.clear()
        self._console_mark = len(self.console)
        self._gen += 1
        self._wdt = None
        self._wdt_parked = False
        self.boots += 1
        self.proc = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, cwd=self.workdir, env=env,
                                     preexec_fn=child, close_fds=True)
        self._procs.append(self.proc)

    def wait_booted(self, timeout=20.0):
        deadline = time.monotonic() + timeout
        while not self._booted.wait(0.05):
            text = bytes(self.console[self._console_mark:]).decode("utf-8", "replace")
            # Under the lock: restart() kills the old process and spawns the
            # next one while holding it, so a process seen dead here is not
            # one being replaced by a reset.
            with self._lock:
                dead = self.proc is not None and self.proc.poll() is not None
            if "Traceback" in text or dead:
                time.sleep(0.1)       # let the rest of the traceback arrive
                raise UserError("the virtual board failed to start; it printed:\n%s" % self.console_text()[-2000:])
            if time.monotonic() > deadline:
                raise UserError("the virtual board did not start within %.0f s; it printed:\n%s"
                                % (timeout, text[-2000:]))

    def restart(self, cause):
        """Kill the process (as a reset or a power cut does) and boot again."""
        with self._lock:
            if self._stop:
                return          # a reset asked for while the board is being stopped
            self.resets.append((self.vnow, cause))
            p = self.proc
            if p is not None and p.poll() is None:
                p.kill()
            if p is not None:
                try:
                    self.exit_codes.append(p.wait(5))
                except subprocess.TimeoutExpired:
                    pass
            self.vnow += BOOT_MS
            with self._cv:
                self._allow = max(self._allow, self.vnow)
                self._cv.notify_all()
            self._spawn(cause)

    def power_cycle(self, timeout=20.0):
        self.restart("power")
        self.wait_booted(timeout)

    def stop(self):
        with self._lock:        # not while restart() is spawning a process
            self._stop = True
            for p in self._procs:
                if p.poll() is None:
                    p.kill()
                    try:
                        p.wait(5)
                    except subprocess.TimeoutExpired:
                        pass
        for s in (getattr(self, "_side_srv", None), getattr(self, "_ser_srv", None), self._client):
            try:
                if s is not None:
                    s.close()
            except OSError:
                pass
        # The pty's fd numbers are reused by the next pipe the process opens
        # (a test's subprocess): the reader must be gone before they close, and
        # writers check _stop under the lock, or they would read or write
        # someone else's pipe.
        reader = getattr(self, "_reader", None)
        if reader is not None:
            reader.join(5)
        with self._pty_lock:
            for fd in (getattr(self, "master", None), getattr(self, "slave", None)):
                try:
                    if fd is not None:
                        os.close(fd)
                except OSError:
                    pass
            self.master = self.slave = None
        if self._own_dir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *a):
        self.stop()

    # ------------------------------------------------------- serial side
    def _pty_reader(self):
        while not self._stop:
            try:
                r, _, _ = select.select([self.master], [], [], 0.2)
                if not r:
                    continue
                data = os.read(self.master, 4096)
            except OSError:
                if self._stop:
                    return
                time.sleep(0.05)
                continue
            if not data:
                continue
            with self._lock:
                self.console += data
                # bounded: a raw stream is about 30 KB/s (96 channels of
                # 16-bit counts at 50 Hz), so 8 MB keep minutes of it
                if len(self.console) > CONSOLE_MAX:
                    cut = len(self.console) - CONSOLE_MAX // 2
                    del self.console[:cut]
                    self.console_dropped += cut
            c = self._client
            if c is not None:
                try:
                    c.sendall(data)
                except OSError:
                    pass

    def serial_write(self, data):
        """Write bytes into the board's serial input (as if typed)."""
        with self._pty_lock:
            if self._stop:
                raise OSError("the virtual board is stopped")
            os.write(self.master, data)

    def _accept(self, srv, serve):
        """Until stopped: each connection to srv (no Nagle delay) to serve(c)."""
        while not self._stop:
            try:
                c, _ = srv.accept()
            except OSError:
                return
            c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            serve(c)

    def _bridge_acceptor(self):
        self._accept(self._ser_srv, self._bridge_take)

    def _bridge_take(self, c):
        """A new serial client replaces the one before (as a port has one user)."""
        old = self._client
        self._client = c
        if old is not None:
            if self.on_takeover is not None:
                self.on_takeover()
            # the last client learns at once that it lost the link (a
            # plain close leaves its reader, blocked in recv in another
            # thread, holding the socket open: no EOF ever came, so a
            # `monitor` or `record` went on silently, deaf)
            try:
                old.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            try:
                old.close()
            except OSError:
                pass
        threading.Thread(target=self._bridge_client, args=(c,), daemon=True).start()

    def _bridge_client(self, c):
        while not self._stop:
            try:
                data = c.recv(4096)
            except OSError:
                break
            if not data:
                break
            with self._lock:
                self._received += len(data)
            with self._pty_lock:
                if self._stop:
                    break
                view = memoryview(data)
                while view:
                    n = os.write(self.master, view)
                    view = view[n:]
            with self._lock:
                self._forwarded += len(data)
        if self._client is c:
            self._client = None
        try:
            c.close()
        except OSError:
            pass

    def link(self, timeout=0.05):
        """A HostLink to the board's serial port (through the bridge)."""
        from host_tools.device.link import open_link
        lk = open_link(self.url, timeout=timeout)
        # make sure the bridge has this client before anything is sent
        deadline = time.monotonic() + 5
        while self._client is None and time.monotonic() < deadline:
            time.sleep(0.01)
        return lk

    def send(self, link, typ, body=None):
        """link.send(typ, body), returning (its sequence number) once its
        bytes are in the board's serial input: in lockstep the next tick
        reads them."""
        base = self._forwarded
        tx0 = link.tx_bytes
        seq = link.send(typ, body)
        self.settle_serial(base + link.tx_bytes - tx0)
        return seq

    def settle_serial(self, sent_total, timeout=5.0):
        """Wait until `sent_total` bytes sent by the client reached the pty."""
        deadline = time.monotonic() + timeout
        while self._forwarded < sent_total:
            if time.monotonic() > deadline:
                raise UserError("serial bridge stalled")
            time.sleep(0.0005)

    def console_text(self):
        return bytes(self.console).decode("utf-8", "replace")

    # --------------------------------------------------------- side channel
    def _side_acceptor(self):
        self._accept(self._side_srv, lambda c: threading.Thread(target=self._side_serve, args=(c, self._gen),
                                                                daemon=True).start())

    def _recv_exact(self, c, n):
        buf = bytearray()
        while len(buf) < n:
            d = c.recv(n - len(buf))
            if not d:
                raise EOFError
            buf += d
        return bytes(buf)

    def _reply(self, c, typ, a=0, payload=b""):
        c.sendall(HDR.pack(typ, a & 0xFFFFFFFF, len(payload)) + payload)

    def _side_serve(self, c, gen):
        try:
            while not self._stop:
                typ, a, n = HDR.unpack(self._recv_exact(c, HDR.size))
                payload = self._recv_exact(c, n) if n else b""
                if gen != self._gen:
                    return           # a killed process's leftovers
                self._last_msg = time.monotonic()
                t = chr(typ)
                if t in "FWLT":
                    self._time(a)
                if t == "H":
                    self.hellos.append(json.loads(payload or b"{}"))
                    self._pace_base = None
                    self._reply(c, typ, 0, json.dumps({"now": self.vnow, "lockstep": self.lockstep}).encode())
                    self._booted.set()
                elif t == "S":
                    target = self.vnow + (a - self.vnow) % (1 << 30)
                    if self.paced:
                        self._pace(target)
                    with self._cv:
                        while self._allow <= self.vnow and not self._stop and gen == self._gen:
                            self._holding = True
                            self._cv.wait(0.05)
                        self._holding = False
                        reached = min(target, self._allow)
                    if gen != self._gen:
                        return
                    if self.on_advance is not None:
                        self.on_advance(reached)
                    self._time(reached % (1 << 30))
                    with self._cv:
                        self._cv.notify_all()
                    self._reply(c, typ, reached % (1 << 30))
                elif t == "F":
                    while self.faults.hang and not self._stop and gen == self._gen:
                        time.sleep(0.01)      # a hung sensor bus: never answer
                    if gen != self._gen:
                        return
                    # a sensor reads no more than its range: noise on a clipped
                    # channel, or a shifted source, stays within 0..max_counts
                    top = self.board["sensor"]["max_counts"]
                    counts = self.faults.apply([0 if c < 0 else top if c > top else c
                                                for c in self.source.frame_at(a)])
                    self._reply(c, typ, a, struct.pack("<%dH" % len(counts), *counts))
                elif t == "D":
                    self._wdt = a
                    self._wdt_fed = self.vnow
                elif t == "W":
                    self._wdt_fed = a
                elif t == "P":
                    self._wdt_parked = True
                elif t == "L":
                    self.leds.append((a, payload))
                elif t == "T":
                    f, d = struct.unpack("<HH", payload)
                    self.tones.append((a, f, d))
                elif t == "R":
                    threading.Thread(target=self.restart, args=({2: "hard", 5: "soft"}.get(a, "hard"),),
                                     daemon=True).start()
                    return
        except (EOFError, OSError):
            return

    PACE_LAG_S = 0.2        # paced: a board further behind the wall clock is let fall behind

    def _pace(self, target):
        """Paced lockstep: let board time reach `target` no sooner than the
        wall clock does, counted from when pacing started. A board behind
        by more than PACE_LAG_S (a slow tick) goes on from where it is,
        never catching up in a burst."""
        now = time.monotonic()
        if self._pace_base is None:
            self._pace_base = (self.vnow, now)
        v0, w0 = self._pace_base
        due = w0 + (target - v0) / 1000.0
        if now - due > self.PACE_LAG_S:
            self._pace_base = (target, now)
        while due > now and not self._stop:
            self._holding = True
            time.sleep(min(0.05, due - now))
            now = time.monotonic()
        self._holding = False
        with self._cv:
            self._allow = max(self._allow, target)
            self._cv.notify_all()

    def _time(self, a):
        # board time is ticks (wraps at 2**30): keep it monotonic here
        if 0 <= (a - self.vnow) % (1 << 30) < (1 << 29):
            self.vnow += (a - self.vnow) % (1 << 30)
        w = self._wdt
        if w is not None and not self._wdt_parked and self.vnow - self._wdt_fed > w:
            self._wdt = None
            threading.Thread(target=self.restart, args=("wdt",), daemon=True).start()

    def _watchdog(self):
        """Real-time backstop: a board that stops talking altogether (hung)
        is reset when its watchdog runs, as the chip's would be."""
        while not self._stop:
            time.sleep(0.1)
            w = self._wdt
            if w is None or self._wdt_parked:
                continue
            # an interpreter that died with its watchdog running: a board's
            # watchdog resets the chip (not a process we stopped: restart()
            # spawns the next one under the lock)
            with self._lock:
                p = self.proc
                dead = p is not None and p.poll() is not None and not self._stop and self._wdt is not None
            if dead:
                self._wdt = None
                self.restart("wdt")
                continue
            if self._holding:
                self._last_msg = time.monotonic()    # waiting for us is not a hang
                continue
            if time.monotonic() - self._last_msg > max(w / 1000.0, self.wdt_backstop_s):
                self._wdt = None
                self.restart("wdt")

    # ----------------------------------------------------------- playing
    def allow(self, ms):
        """Lockstep: let board time run ms further than it is now."""
        with self._cv:
            self._allow = max(self._allow, self.vnow) + ms
            self._cv.notify_all()

    def run_for(self, ms, link=None, timeout=120.0):
        """Lockstep: let ms of board time pass (pumping the link if given)."""
        target = self.vnow + ms
        self.allow(ms)
        deadline = time.monotonic() + timeout
        while self.vnow < target:
            if self.max_resets is not None and len(self.resets) > self.max_resets:
                raise UserError("the virtual board restarted %d times: %s" % (len(self.resets), self.resets[-3:]))
            if time.monotonic() > deadline:
                raise UserError("the virtual board did not advance (console:\n%s)" % self.console_text()[-1500:])
            if link is not None:
                link.pump(0.01)
            else:
                with self._cv:
                    self._cv.wait(0.01)

    def _quiet_serial(self, timeout=5.0):
        deadline = time.monotonic() + timeout
        while self._forwarded < self._received and time.monotonic() < deadline:
            time.sleep(0.0005)

    def request(self, link, typ, body=None, max_ms=5000, step_ms=20):
        """Lockstep request: send it, let time pass tick by tick until the
        reply comes (board time spent is at most max_ms)."""
        from host_tools.device.link import REPLIES
        seq = self.send(link, typ, body)
        spent = 0
        while True:
            link.pump(0)
            for i, f in enumerate(link.inbox):
                if f[0] == seq and f[1] in REPLIES:
                    del link.inbox[i]
                    return f[1], f[2]
            if spent >= max_ms:
                raise UserError("no reply to %s within %d ms of board time" % (typ, max_ms))
            self.run_for(step_ms, link)
            spent += step_ms

    def play(self, frames, controls, link, header=None, extra_ms=1000, ack_ms=5000):
        """Lockstep: show the simulated frames from now on and send each
        control event over the serial link (`ctl`) when board time reaches
        its t. Returns [(control, reply body)] after the frames have run out
        (plus extra_ms) and every control has been answered."""
        if not self.lockstep:
            raise UserError("play() needs lockstep mode")
        from host_tools.device.link import REPLIES
        self._quiet_serial()
        start = self.vnow
        self.source = Recorded(frames, start, self.board)
        t0 = frames[0][0]
        end = start + (frames[-1][0] - t0) + extra_ms
        pending = [dict(c) for c in controls]
        sent = []
        base = [self._forwarded, link.tx_bytes]
        if header is not None:
            sent.append(({"cfg": True}, link.send("cfg", header)))
            self.settle_serial(base[0] + link.tx_bytes - base[1])

        def advance(T):
            # runs in the side-channel thread before board time moves to T
            while pending and start + pending[0]["t"] - t0 <= T:
                ev = pending.pop(0)
                body = dict(ev)
                body.pop("t", None)
                sent.append((ev, link.send("ctl", body)))
                # the bytes must be in the board's input before time moves on
                self.settle_serial(base[0] + link.tx_bytes - base[1])
        self.on_advance = advance
        try:
            self.run_for(end - self.vnow, link, timeout=600.0)
        finally:
            self.on_advance = None
        replies = []
        for ev, seq in sent:
            spent = 0
            while True:
                link.pump(0)
                got = [f for f in link.inbox if f[0] == seq and f[1] in REPLIES]
                if got:
                    link.inbox.remove(got[0])
                    replies.append((ev, got[0][2]))
                    break
                if spent >= ack_ms:
                    raise UserError("no reply to control %r" % (ev,))
                self.run_for(20, link)
                spent += 20
        return replies


class Live:
    """Scenario control of a running (realtime) virtual board: scenario
    lines (host_tools/sim syntax: `throw drago -> zone 4`, `remove zone 4`,
    `fault ch 17 dead`, `gate 0 dan-gold on zone 4`, ...) happen now, or at
    `at T` counted from when they are given.

    Each add() simulates the mat again: the lines so far, squeezed one after
    the other (only the state they leave matters), then the new lines. The
    new simulation takes over the sensors at a switch time after what is
    still moving has settled, each channel shifted so the field does not
    jump where nothing changed (so the time the simulation takes is never
    lost: the switch is placed after it has run). Control events of the new
    lines are sent over the serial link at their time, as a host app would."""

    SETTLE_MS = 1500        # squeezed past lines: spacing, and the calm before the new ones

    def __init__(self, vb, seed=0, lead_s=0.3):
        self.vb = vb
        self.seed = seed
        self.lead_ms = int(lead_s * 1000)
        self.lines = []         # (text without time, is_setting) of every line applied
        self.start = vb.vnow
        self.busy_until = vb.vnow   # board time when the last lines' motions are over
        self.res = None
        self._seq = 60000
        self._pending = []      # (board time, control event)
        self._lock = threading.Lock()
        threading.Thread(target=self._sender, daemon=True).start()

    def now_s(self):
        return (self.vb.vnow - self.start) / 1000.0

    def add(self, text):
        """Apply scenario lines (a time `at T` counts from now). Returns an
        Applied (what happens, at which board time); raises sim.ScenarioError
        (its .msg names the problem) on a bad line."""
        from host_tools import sim
        from host_tools.sim.scenario import _take_time
        new = []
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = raw.strip() if raw.lstrip().startswith("event") else raw.split("#", 1)[0].strip()
            if line:
                new.append((lineno, line))
        if not new:
            return None
        # the past, squeezed: settings first, then each action SETTLE_MS apart
        past = [t for t, setting in self.lines if setting]
        past += ["gap %dms" % self.SETTLE_MS] + [t for t, setting in self.lines if not setting]
        anchor = sim.parse_scenario("\n".join(past)).end_ms + self.SETTLE_MS
        body = ["gap 1s"]
        keep = []
        first = True
        for lineno, line in new:
            head = line.split(None, 1)[0].lower()
            setting = head in ("bakugan", "set", "gap")
            if head in ("idle", "wait") or setting:
                body.append(line)
                if setting:
                    keep.append((line, True))
                continue
            rest, t = _take_time(line) if head != "event" else _event_time(line)
            if t is None and first:
                t = self.lead_ms
            if t is not None:
                rest = "%s at %dms" % (rest.rstrip().rstrip(","), anchor + t) if head != "event" \
                    else "%s at %dms" % (rest, anchor + t)
            body.append(rest)
            keep.append((rest if t is None else _strip_time(rest), False))
            first = False
        try:
            sc = sim.parse_scenario("\n".join(past + body))
        except sim.ScenarioError as e:
            raise sim.ScenarioError(_console_line(e.line, len(past) + 1, new), e.msg)
        try:
            # run_stable: the sensor model (gains, offsets) draws from a
            # generator of its own, the same in every simulation. With run()'s
            # one generator each new simulation had other gains, and the
            # switch's shift, which matches the fields where they meet, left
            # a standing Bakugan's gain difference (about 500 counts beside
            # it) on the zone for good once it was lifted.
            res = sim.run_stable(self.vb.board, sc, seed=self.seed)
        except sim.ScenarioError as e:
            raise sim.ScenarioError(_console_line(e.line, len(past) + 1, new), e.msg)
        # the new simulation's `anchor` is board time `switch`: after it has
        # run (now) and after what the previous lines set moving has settled
        switch = max(self.vb.vnow + 50, self.busy_until)
        offset = switch - anchor
        src = Recorded(res.frames, offset + res.frames[0][0], self.vb.board, steady=True)
        self.vb.source = Switch(self.vb.source, src, switch)
        moves = [a for a in sc.actions if a["t"] >= anchor]
        end = max([a["t"] + _motion_ms(a) for a in moves] or [anchor])
        self.busy_until = offset + end
        self.lines += keep
        self.res = res
        with self._lock:
            self._pending += [(offset + c["t"], c) for c in res.controls if c["t"] >= anchor]
            self._pending.sort(key=lambda p: p[0])
        return Applied([dict(a, t=offset + a["t"]) for a in moves],
                       [dict(e, t=offset + e["t"]) for e in res.truth if e["t"] >= anchor], switch)

    def _sender(self):
        from host_tools.device.link import codec
        while not self.vb._stop:
            time.sleep(0.01)
            with self._lock:
                now = self.vb.vnow
                due = [c for t, c in self._pending if t <= now]
                self._pending = [p for p in self._pending if p[0] > now]
            for c in due:
                body = dict(c)
                body.pop("t", None)
                self._seq = self._seq + 1 if self._seq < 65535 else 60000
                try:
                    self.vb.serial_write(codec.encode(self._seq, "ctl", body))
                except OSError:
                    return


class Applied:
    """What Live.add() set going: the actions and the simulator's truth
    (opens, leaves, rolls) with board times, and when the new field took over."""

    def __init__(self, actions, truth, switch):
        self.actions = actions
        self.truth = truth
        self.switch = switch

    def describe(self):
        """One line per action, in words, with the board time it happens."""
        out = []
        for a in self.actions:
            k = a["kind"]
            if k == "idle":
                continue
            what = _ACTION_WORDS.get(k, k)
            if k == "control":
                ev = a["ev"]
                what = "sends %s" % " ".join("%s=%s" % kv for kv in sorted(ev.items()))
            elif k == "card":
                what = "a gate card %s zone %d" % ("lies on" if a["on"] else "leaves", a["zone"])
            elif k == "fault":
                what = "channel %d %s" % (a["ch"], "dead" if a["mode"] == "dead" else "stuck at %d" % a["value"])
            elif k == "remove":
                what = "lift %s" % ("zone %d" % a["zone"] if a.get("zone") is not None else a["bakugan"])
            elif k == "roll":
                what = "%s rolls across zones %s" % (a["bakugan"], ",".join(str(z) for z in a["zones"]))
            else:
                what = "%s %s zone %d" % (a["bakugan"], what, a["zone"])
            out.append("%s at %s" % (what, stamp(a["t"])))
        for e in self.truth:
            if e["ev"] == "open":
                out.append("%s opens on zone %s at %s" % (e["bakugan"], e["zone"], stamp(e["t"])))
        return out


_ACTION_WORDS = {"place": "put down opened on", "throw": "thrown to", "bounce": "bounces on"}


def _motion_ms(a):
    k = a["kind"]
    if k == "idle":
        return a["ms"]
    if k == "roll":
        return 2000
    if k in ("throw", "place", "bounce", "remove"):
        return 1000
    return 0


def _event_time(line):
    import re
    m = re.search(r"\}\s*at\s+(-?\d+(?:\.\d+)?)\s*(ms|s)\s*$", line)
    if not m:
        return line, None
    v = float(m.group(1))
    return line[:m.start() + 1], int(round(v * 1000 if m.group(2) == "s" else v))


def _strip_time(line):
    from host_tools.sim.scenario import _take_time
    if line.startswith("event"):
        return _event_time(line)[0]
    return " ".join(_take_time(line)[0].split())


def _console_line(line, first_new, new):
    """The number of the given line a ScenarioError's line refers to (or the
    composite scenario's, if it lies in the past)."""
    if line is None or line < first_new:
        return line
    k = line - first_new - 1          # the composite's "gap 1s" comes first
    n = 0
    for lineno, _ in new:
        if n == k:
            return lineno
        n += 1
    return new[-1][0]


class Switch:
    """A frame source that is `old` until board time `at`, then `new`
    shifted per channel so nothing jumps where nothing changed: the shift is
    the difference of the two sources' medians over the half second before
    the switch (one frame's noise or spike would stay in the field for good,
    and add up switch after switch)."""

    WINDOW = 25                 # frames, 20 ms apart

    def __init__(self, old, new, at):
        self.old = old
        self.new = new
        self.at = at
        self.shift = None

    def frame_at(self, t):
        if self.shift is None:
            if t < self.at:
                return self.old.frame_at(t)
            ts = [self.at - 20 * k for k in range(self.WINDOW, 0, -1)]
            before = _median([self.old.frame_at(x) for x in ts])
            after = _median([self.new.frame_at(x) for x in ts])
            self.shift = [b - a for a, b in zip(after, before)]
            self.old = None
        return [max(0, c + d) for c, d in zip(self.new.frame_at(t), self.shift)]


def _median(frames):
    return [sorted(col)[len(col) // 2] for col in zip(*frames)]


class Shifted:
    """A frame source with a constant per-channel offset."""

    def __init__(self, src, shift):
        self.src = src
        self.shift = shift

    def frame_at(self, t):
        return [max(0, c + d) for c, d in zip(self.src.frame_at(t), self.shift)]
