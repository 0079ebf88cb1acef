"""LED strip driver over a NeoPixel object: writes colours straight into the
driver's own buffer in its byte order (no tuple per pixel) and pushes it with
write(). Knows nothing about brightness or meaning (that is show/)."""


class Strip:
    def __init__(self, np):
        self.np = np
        self.n = len(np)
        self.buf = np.buf
        self.bpp = getattr(np, "bpp", 3)
        order = getattr(np, "ORDER", (1, 0, 2, 3))
        self._r = order[0]
        self._g = order[1]
        self._b = order[2]
        self.writes = 0

    def set(self, i, r, g, b):
        o = i * self.bpp
        buf = self.buf
        buf[o + self._r] = r
        buf[o + self._g] = g
        buf[o + self._b] = b

    def get(self, i):
        o = i * self.bpp
        buf = self.buf
        return (buf[o + self._r], buf[o + self._g], buf[o + self._b])

    def write(self):
        self.np.write()
        self.writes += 1
