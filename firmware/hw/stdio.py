"""Serial link port over the REPL's USB serial (sys.stdin/sys.stdout).

Reads are non-blocking: poll stdin (select.poll, ipoll: no allocation) and
read one byte at a time with readinto, because a larger read blocks until
it is full [micropython #16550]. Ctrl-C still reaches MicroPython's
keyboard interrupt, so the host can always stop the app and get the REPL.

Writes never wait for the line: on an ESP32 the REPL's stdout goes to a
UART whose TX FIFO holds 128 bytes, and writing more sleeps an RTOS tick
(~10 ms) at a time until it drains. The port cannot be asked how full the
FIFO is, so room() estimates it from the bytes written and the time since
at the line's speed; the board writes at most that much per tick
(hw.Board.tx_room). Without a baud rate (the virtual board's pty) room()
is None: no limit.
"""
import sys
import select


class StdioPort:
    def __init__(self, stdin=None, stdout=None, clock=None, baud=0, fifo=128, set_line=None, txbuf=2048):
        """set_line(baud): switches the REPL's UART to another speed (built
        by the board's hw module) and returns the UART object to write to
        at that speed (a driver TX ring of txbuf bytes), or None to keep
        writing to stdout; set_line None: the port cannot switch."""
        self._in = stdin if stdin is not None else sys.stdin
        # sys.stdin.buffer where the port has it (binary readinto), else stdin
        self._inb = getattr(self._in, "buffer", self._in)
        out = stdout if stdout is not None else sys.stdout
        self._out = getattr(out, "buffer", out)
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)
        self._one = bytearray(1)
        self.rx_bytes = 0
        self.tx_bytes = 0
        self._clock = clock
        self._baud = baud if clock is not None else 0
        self._fifo = self._fifo0 = fifo
        self._stdout = self._out
        self._set_line = set_line
        self._txbuf = txbuf
        self._queued = 0       # bytes in the FIFO at _t (estimate)
        self._t = clock.ticks_ms() if self._baud else 0

    def _in_fifo(self):
        c = self._clock
        d = c.ticks_diff(c.ticks_ms(), self._t)
        if d > 1000:
            d = 1000            # (d * baud stays a small int: no heap)
        q = self._queued - d * self._baud // 10000     # 8N1: 10 bits a byte
        return q if q > 0 else 0

    def room(self):
        """Bytes a write can take now without waiting for the line, or None
        when there is no limit."""
        if not self._baud:
            return None
        return self._fifo - self._in_fifo()

    def any(self):
        for _ in self._poll.ipoll(0):
            return True
        return False

    def wait(self, ms):
        """Block up to ms for input; True if input is waiting."""
        for _ in self._poll.ipoll(ms):
            return True
        return False

    def read_into(self, buf, maxn):
        """Read up to maxn waiting bytes into buf; return how many."""
        n = 0
        one = self._one
        while n < maxn and self.any():
            if not self._inb.readinto(one):  # type: ignore[union-attr]  # stdin.buffer has it
                break
            buf[n] = one[0]
            n += 1
        self.rx_bytes += n
        return n

    def can_set_baud(self):
        return self._set_line is not None

    def set_baud(self, baud):
        """The line's new speed (`raw` with a baud, for `bakumat record`):
        after what was written has left the FIFO (at most ~11 ms once), so
        no byte goes at the wrong speed. False where the port cannot."""
        if self._set_line is None:
            return False
        if self._baud:
            for _ in range(50):
                if self._in_fifo() == 0:
                    break
                self._clock.sleep_ms(1)
            self._clock.sleep_ms(1)      # the shift register's last byte
        uart = self._set_line(baud)
        if uart is not None:
            # the fast line: written through the UART driver's own TX ring
            # (the REPL's stdout writes to the FIFO and waits when it is
            # full, so a stream of frames would never fit 128 bytes a tick)
            self._out, self._fifo = uart, self._txbuf
        else:
            self._out, self._fifo = self._stdout, self._fifo0
        if self._baud:
            self._baud = baud
            self._t = self._clock.ticks_ms()
            self._queued = 0
        return True

    def write(self, data):
        if self._baud:
            self._queued = self._in_fifo() + len(data)
            self._t = self._clock.ticks_ms()
        self._out.write(data)
        self.tx_bytes += len(data)
        f = getattr(self._out, "flush", None)
        if f is not None:
            f()
