"""Serial link port over the REPL's USB serial (sys.stdin/sys.stdout).

Reads are non-blocking: poll stdin (select.poll, ipoll: no allocation) and
read one byte at a time with readinto, because a larger read blocks until
it is full [micropython #16550]. Ctrl-C still reaches MicroPython's
keyboard interrupt, so the host can always stop the app and get the REPL.
"""
import sys
import select


class StdioPort:
    def __init__(self, stdin=None, stdout=None):
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

    def write(self, data):
        self._out.write(data)
        self.tx_bytes += len(data)
        f = getattr(self._out, "flush", None)
        if f is not None:
            f()
