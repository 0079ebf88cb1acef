"""Stateful fake of MicroPython's `neopixel` module. TEST CODE: DO NOT UPLOAD
TO A BOARD.

Same buffer layout as the real driver (GRB order, `buf` bytearray of
n*bpp bytes); write() records a (t_ms, bytes) snapshot, so tests can see
exactly what the strip showed and when.
"""
from fakes import machine as _machine


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.timing = timing
        self.writes = []
        _machine.world.neopixels.append(self)

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        off = i * self.bpp
        for k in range(self.bpp):
            self.buf[off + self.ORDER[k]] = v[k]

    def __getitem__(self, i):
        off = i * self.bpp
        return tuple(self.buf[off + self.ORDER[k]] for k in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        w = _machine.world
        if w.led_us:
            w.clock.advance_us(w.led_us * self.n)   # the real write blocks ~30 us per LED
        self.writes.append((w.clock.now_ms(), bytes(self.buf)))

    # --- test view ------------------------------------------------------
    def shown(self, i=None):
        """Colour (r, g, b) of LED i as last written (all LEDs if i is None);
        black before the first write."""
        data = self.writes[-1][1] if self.writes else bytes(len(self.buf))
        def px(j):
            off = j * self.bpp
            return tuple(data[off + self.ORDER[k]] for k in range(3))
        if i is None:
            return [px(j) for j in range(self.n)]
        return px(i)

    def first_write_after(self, t_ms, pred=None):
        """Time of the first write at or after t_ms (whose snapshot satisfies
        pred(snapshot_bytes) if given), or None."""
        for t, data in self.writes:
            if t >= t_ms and (pred is None or pred(data)):
                return t
        return None
