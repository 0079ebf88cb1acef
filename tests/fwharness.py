"""Runs the real firmware app (firmware/app.py) on the stateful fakes, with
a fake clock, the host end of the serial port and a directory as the
board's filesystem. Works under CPython and the micropython binary.

    rig = Rig(board_def, fs_dir)          # boots the app (hello frame)
    rig.send("cfg", header)               # host -> board frame
    rig.frames(frames)                    # feed sensor frames, one per scan
    rig.run_ms(200)                       # let the loop run
    rig.received("game")                  # [(seq, type, body)] from the board
    Rig(board_def, fs_dir, phone=True)    # with the phone page (rig.app.phone) on a
                                          # socket listening on 127.0.0.1
A watchdog or machine reset inside the firmware reboots it (Rig.boots,
world.reset_cause) like the chip would.
"""
import json
import sys

import fakes
from fakes.board import FakeMat, FakePort
from link.codec import Decoder, encode

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
REPO = HERE + "/.."


REFERENCE = "esp32s3_devkitc1_lis2"   # host_tools.boards.REFERENCE (not importable under micropython)


def _getenv(k):
    import os
    return os.getenv(k) if hasattr(os, "getenv") else None


def board_path(name=REFERENCE):
    """Where the board's definition as deployed (with its kernel table) is
    kept for this run: in $BAKUMAT_CACHE (tests/conftest.py makes one per
    run, inherited by the micropython processes), else beside this file."""
    base = _getenv("BAKUMAT_CACHE") or HERE
    return base + "/fwharness-%s.json" % name


def write_board(name=REFERENCE):
    """Build the board definition as `bakumat deploy` writes its board.json
    (mat + wiring + the kernel table of the mat's nominal world, in its chip
    form only; CPython, host_tools) into board_path(name); return it."""
    import os
    from host_tools import boards
    from host_tools.boards import kernels
    from host_tools.sim import worlds
    b = boards.load(name)
    b = kernels.for_board(b, worlds.nominal(b))
    # the float table's base64 (100 KB): the board keeps only the chip form
    # (runtime.boarddef.compact drops it), and a micropython test's heap
    # need not hold both while it parses the file
    del b["kernels"]["k"]
    path = board_path(name)
    tmp = "%s.%d" % (path, os.getpid())
    with open(tmp, "w") as f:
        json.dump(b, f, sort_keys=True, separators=(",", ":"))
    os.replace(tmp, path)
    return b


def load_board(name=REFERENCE, repo=None):
    """The board definition the firmware gets on a deployed board: the
    reference board by default, with its kernel table (the firmware senses
    with the kernel fit only). Under CPython it is built when missing;
    under micropython it must have been (tests/conftest.py does at the
    start of a run; by hand: python tests/fwharness.py)."""
    path = board_path(name)
    try:
        f = open(path)
    except OSError:
        if sys.implementation.name == "micropython":
            raise OSError("%s is missing: run the tests with pytest, or python tests/fwharness.py first" % path)
        return write_board(name)
    bd = json.load(f)
    f.close()
    return bd


def counts(bd, stands=()):
    """Every channel's counts with Bakugan standing upright in the middle of
    their zones: stands = [(zone id, moment mA m^2, signed: the pole up)],
    read through the board's own kernel table (the field the mat's fit
    expects: for the app's flows, not a test of the sensing's physics)."""
    from binascii import a2b_base64
    from struct import unpack_from
    t = bd["kernels"]
    fx = t["fixed"]
    zero = bd["sensor"]["zero_counts"]
    out = [zero] * len(bd["sensors"])
    if not stands:
        return out
    k = a2b_base64(fx["k"])      # int32: value * f + 2^22 (docs/formats/kernel-table-v1.md)
    nch = len(t["channels"])
    ix = int(round(-t["x0"] / t["step"]))
    iy = int(round(-t["y0"] / t["step"]))
    ih = len(t["heights"]) // 2
    cell = ((ih * t["ny"] + iy) * t["nx"] + ix) * nch
    for zone, m in stands:
        chs = sorted(s["ch"] for s in bd["sensors"] if s["zone"] == zone)
        for j in range(nch):
            kz = (unpack_from("<i", k, 4 * ((cell + j) * 3 + 2))[0] - (1 << 22)) / fx["f"]
            out[chs[j]] += int(round(kz * m))
    return out


def _listener():
    """A listening TCP socket on 127.0.0.1 (a free port), as the hw layer
    makes for the phone page."""
    import socket
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(socket.getaddrinfo("127.0.0.1", 0)[0][-1])
    s.listen(2)
    return s


class Rig:
    def __init__(self, board_def, fs_dir, start_ms=1000, wdt_ms=3000, profile=False, noise=4, costs=False,
                 phone=False):
        self.bd = board_def
        self.fs = fs_dir
        self.world = fakes.install(start_ms)
        self.clock = self.world.clock
        self.mat = FakeMat(board_def["wiring"], noise=noise)
        self.port = FakePort(self.clock)
        if costs:
            # ESP32-like costs of hardware calls (field notes): a sensor's
            # SPI read, an LED of a WS2812 write, a byte of serial input
            self.world.spi_us = 60
            self.world.led_us = 30
            self.port.us_per_byte = 30
        self.wdt_ms = wdt_ms
        self.profile = profile
        self.listener = _listener() if phone else None
        self.inbox = []
        self.errors = []
        self.dec = Decoder(self._frame, self._error, max_len=1 << 16, keep_text=True)
        self.seq = 0
        self.boots = 0
        self.resets = []
        self.boot()

    def _frame(self, seq, typ, body):
        self.inbox.append((seq, typ, body))

    def _error(self, code, seq, detail):
        self.errors.append((code, detail))

    def boot(self):
        import hw.esp32
        import app
        self.board = hw.esp32.build(self.bd, clock=self.clock, port=self.port)
        self.board.fs_root = self.fs
        if self.listener is not None:
            self.board.listener = self.listener
        self.app = app.App(self.board, self.bd, wdt_ms=self.wdt_ms, profile=self.profile)
        self.boots += 1
        self.app.boot()
        self.app.link.drain_all()
        self.pump()

    def close(self):
        if self.listener is not None:
            self.listener.close()
        fakes.uninstall()

    # ------------------------------------------------------------ host
    def pump(self):
        data = self.port.host_take()
        if data:
            self.dec.feed(data)

    def send(self, typ, body=None):
        self.seq += 1
        self.port.host_send(encode(self.seq, typ, {} if body is None else body))
        return self.seq

    def send_raw(self, data):
        self.port.host_send(data)

    def received(self, typ=None, take=True):
        self.pump()
        out = [m for m in self.inbox if typ is None or m[1] == typ]
        if take:
            self.inbox = [m for m in self.inbox if not (typ is None or m[1] == typ)]
        return out

    def reply(self, seq, max_ms=2000):
        """Run until the reply to seq arrives; return (type, body)."""
        waited = 0
        while True:
            self.pump()
            for m in self.inbox:
                if m[0] == seq and m[1] in ("ack", "err", "pong", "version", "health", "state"):
                    self.inbox.remove(m)
                    return m[1], m[2]
            if waited >= max_ms:
                raise AssertionError("no reply to %d within %d ms" % (seq, max_ms))
            self.run_ms(self.app.period)
            waited += self.app.period

    def request(self, typ, body=None, max_ms=2000):
        return self.reply(self.send(typ, body), max_ms)

    def wait_for(self, typ, max_ms=2000):
        """Run until a message of type typ has arrived (a game event goes out
        a tick or more after the tick that decided it); return those
        received (taken), at once when some are waiting already."""
        waited = 0
        while not self.received(typ, take=False):
            if waited >= max_ms:
                raise AssertionError("no %s message within %d ms" % (typ, max_ms))
            self.run_ms(self.app.period)
            waited += self.app.period
        return self.received(typ)

    # ---------------------------------------------------------- board
    def run_ms(self, ms):
        """Run the firmware loop for ms of board time (rebooting it after a
        watchdog or machine reset)."""
        import machine
        end = self.clock.now_ms() + ms
        while self.clock.now_ms() < end:
            try:
                self.app.run(until=lambda: self.clock.now_ms() >= end)
            except machine.WatchdogReset:
                self.resets.append((self.clock.now_ms(), "wdt"))
                self.reboot()
            except machine.MachineReset:
                self.resets.append((self.clock.now_ms(), "reset"))
                self.reboot()
        self.pump()

    def reboot(self):
        self.world.neopixels = []
        self.boot()

    def play(self, frames, controls=(), extra_ms=500):
        """Play a simulated stretch: the mat shows frames [(t, counts)] as
        time passes (frame i from start + (t_i - t_0)), and the host sends
        each control event {"t", "ev", ...} as a `ctl` frame at its time.
        Returns the seqs of the controls sent, in order."""
        t0 = frames[0][0]
        start = self.clock.now_ms()
        ts = [f[0] for f in frames]
        mat = self.mat

        def provider():
            now = self.clock.now_ms() - start + t0
            lo = 0
            hi = len(ts) - 1
            while lo < hi:              # last frame at or before now
                mid = (lo + hi + 1) // 2
                if ts[mid] <= now:
                    lo = mid
                else:
                    hi = mid - 1
            return frames[lo][1]
        mat.provider = provider
        sent = []
        pending = list(controls)
        end = start + (ts[-1] - t0) + extra_ms
        while self.clock.now_ms() < end:
            nxt = end
            if pending:
                due = start + pending[0]["t"] - t0
                if due <= self.clock.now_ms():
                    ev = dict(pending.pop(0))
                    ev.pop("t", None)
                    sent.append(self.send("ctl", ev))
                    continue
                nxt = min(end, due)
            self.run_ms(max(1, nxt - self.clock.now_ms()))
        mat.provider = None
        return sent

    def strip(self):
        return self.world.neopixels[-1] if self.world.neopixels else None

    def pwm(self):
        return self.world.pwms[-1] if self.world.pwms else None


if __name__ == "__main__":
    print(board_path())
    write_board()
