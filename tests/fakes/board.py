"""The physical side of a fake board, for tests. TEST CODE: DO NOT UPLOAD TO
A BOARD.

FakeMat routes per-channel sensor counts (`values`, or what `provider()`
returns at the moment of the read) through the multiplexer, as the wiring
says: reading ADC pin P returns the value of the channel wired to
(P's adc index, the mux input the select pins currently choose), so a scanner
that sets the wrong select pins reads the wrong channel. Unwired inputs
float (read `floating`).

FakePort is the host end of the USB serial: the firmware sees any(),
wait(ms), read_into(buf, n), write(data); the test writes with host_send()
and reads what the board wrote with host_take().
"""
from fakes import machine as _machine


class FakeMat:
    def __init__(self, wiring, shift=4, floating=12345, world=None, noise=0, seed=1):
        """noise: uniform +-noise counts added to every healthy read
        (a real Hall sensor never reads exactly the same twice)."""
        self.world = world or _machine.world
        self.noise = noise
        self._rnd = seed
        self.shift = shift
        self.floating = floating
        self.selects = list(wiring.get("mux_select", []))
        chans = wiring["channels"]
        self.values = [0] * len(chans)
        self.dead = {}            # channel -> stuck value
        self.provider = None      # callable() -> counts in channel order, read at every ADC read
        self.scan_times = []      # clock (us) of every read of channel 0: when scans happened
        self.route = {}
        for ch in range(len(chans)):
            a, m = chans[ch][0], chans[ch][1]
            self.route[(a, m)] = ch
        for a, pin in enumerate(wiring["adc_pins"]):
            self.world.adc_sources[pin] = self._source(a)

    def _source(self, a):
        def read():
            m = 0
            for k in range(len(self.selects)):
                m |= self.world.pin(self.selects[k]).out << k
            ch = self.route.get((a, m))
            if ch is None:
                return self.floating
            if ch == 0:
                self.scan_times.append(self.world.clock.us)
            if ch in self.dead:
                return self.dead[ch] << self.shift
            v = self.provider()[ch] if self.provider is not None else self.values[ch]
            if self.noise:
                self._rnd = (self._rnd * 1103515245 + 12345) & 0x7FFFFFFF
                v += (self._rnd >> 16) % (2 * self.noise + 1) - self.noise
            return v << self.shift
        return read

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
