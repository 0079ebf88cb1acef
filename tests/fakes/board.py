"""The physical side of a fake board, for tests. TEST CODE: DO NOT UPLOAD TO
A BOARD.

FakeMat is the mat's sensors as the board's SPI bus sees them (the `spi`
wiring: LIS2MDL parts selected by decoder outputs, hardware/
esp32s3_devkitc1_lis2/spi.md). It routes per-channel counts (`values`, or
what `provider()` returns at the moment of the read; offset binary, zero
field at 32768, three channels a sensor in the wiring's order) to the part
the select pins choose: decoder d is selected by its enable pin low,
output o by the four address lines, so a scanner that selects the wrong
part reads the wrong channels. A read with no part selected, or with two,
reads zero field.

FakePort is the host end of the USB serial: the firmware sees any(),
wait(ms), read_into(buf, n), write(data); the test writes with host_send()
and reads what the board wrote with host_take().
"""
from fakes import machine as _machine

_ZERO = 32768


class FakeMat:
    def __init__(self, wiring, world=None, noise=0, seed=1):
        """noise: uniform +-noise counts added to every healthy read
        (a real magnetometer never reads exactly the same twice)."""
        spi = wiring.get("spi")
        if not spi:
            raise ValueError("FakeMat: the wiring has no \"spi\" sensors")
        self.world = world or _machine.world
        self.noise = noise
        self._rnd = seed
        self.address = list(spi["select"]["address"])
        self.enable = list(spi["select"]["enable"])
        self.part = {}            # (decoder, output) -> sensor index
        for i, s in enumerate(spi["sensors"]):
            self.part[(s[0], s[1])] = i
        n = 3 * len(spi["sensors"])
        self.values = [_ZERO] * n
        self.dead = {}            # channel -> stuck value (counts)
        self.provider = None      # callable() -> counts in channel order, read at every sensor read
        self.scan_times = []      # clock (us) of every read of channel 0: when scans happened
        self.world.spi_select = self._selected
        self.world.spi_fields = self
        self.world.spi_transfers = None   # (a game's frames: not kept)

    def _selected(self, world):
        low = [d for d in range(len(self.enable)) if not world.pin(self.enable[d]).out]
        if len(low) != 1:
            return None
        o = 0
        for b in range(len(self.address)):
            o |= world.pin(self.address[b]).out << b
        return (low[0], o)

    def get(self, key, default):
        """The selected part's x, y, z (signed counts), as the fake SPI bus
        reads world.spi_fields."""
        i = self.part.get(key)
        if i is None:
            return default
        if i == 0:
            self.scan_times.append(self.world.clock.us)
        vals = self.provider() if self.provider is not None else self.values
        out = []
        for ch in range(3 * i, 3 * i + 3):
            if ch in self.dead:
                v = self.dead[ch]
            else:
                v = vals[ch]
                if self.noise:
                    self._rnd = (self._rnd * 1103515245 + 12345) & 0x7FFFFFFF
                    v += (self._rnd >> 16) % (2 * self.noise + 1) - self.noise
            v = 0 if v < 0 else (65535 if v > 65535 else v)
            out.append(v - _ZERO)
        return out

    def set(self, counts):
        for i in range(len(counts)):
            self.values[i] = counts[i]


class FakePort:
    def __init__(self, clock, rx_limit=1 << 20):
        self.clock = clock
        self.rx = bytearray()     # host -> board, not yet read
        self.tx = bytearray()     # board -> host, not yet taken
        self.rx_bytes = 0
        self.tx_bytes = 0
        self.tx_log = []          # (t_ms, bytes) of every write
        self.us_per_byte = 0      # cost of reading one byte (ESP32: poll + readinto, ~30 us)
        self.can_baud = False     # a port whose line speed the board can switch (set by a test)
        self.bauds = []           # (tx_bytes written before, baud) of every switch

    # board side
    def any(self):
        return len(self.rx) > 0

    def wait(self, ms):
        if self.rx:
            return True
        if ms > 0:
            self.clock.sleep_ms(ms)
        return len(self.rx) > 0

    def read_into(self, buf, maxn):
        n = min(maxn, len(self.rx))
        for i in range(n):
            buf[i] = self.rx[i]
        self.rx = self.rx[n:]
        self.rx_bytes += n
        if self.us_per_byte and n:
            self.clock.advance_us(self.us_per_byte * n)
        return n

    def can_set_baud(self):
        return self.can_baud

    def set_baud(self, baud):
        if not self.can_baud:
            return False
        self.bauds.append((self.tx_bytes, baud))
        return True

    def write(self, data):
        self.tx += data
        self.tx_bytes += len(data)
        self.tx_log.append((self.clock.now_ms(), bytes(data)))

    # host side
    def host_send(self, data):
        self.rx += data

    def host_take(self):
        d = bytes(self.tx)
        self.tx = bytearray()
        return d
