# Runs in mpscripts/heap32.py's game (the WebAssembly port or the unix
# port's micropython) for a board whose sensors are on SPI (the lis2 mat),
# copied beside it by host_tools/bench/heap32.run. A file of its own: its
# names would otherwise shift the name pools of every board's heap run.


class Bus:
    """machine.SPI with LIS2MDL magnetometers, each selected by one output
    of a 74HC154 decoder (four shared address lines, an active-low enable a
    decoder), reading the current frame (u16 LE counts in channel order,
    three channels a sensor: heap32's frames.bin). The firmware's real
    scanner (hw.lis2) drives it through Pin stand-ins (SelPin). Counts the
    transfers, their bytes and the select-pin writes: the chip's SPI time is
    added on the host from the bits on the wire and the per-call bounds
    (bench/chiptime.py). Nothing is allocated per transaction."""

    def __init__(self, sensors, n_dec):
        self.frame = bytearray(6 * len(sensors))
        self.where = bytearray(16 * n_dec)     # decoder * 16 + output -> sensor + 1
        for i in range(len(sensors)):
            d, o = sensors[i]
            self.where[d * 16 + o] = i + 1
        self.addr = 0
        self.en = bytearray(n_dec)
        for d in range(n_dec):
            self.en[d] = 1                      # no decoder enabled: no sensor selected
        self.calls = self.nbytes = self.selects = 0

    def _selected(self):
        en = self.en
        for d in range(len(en)):
            if not en[d]:
                return self.where[d * 16 + self.addr] - 1
        return -1

    def write(self, buf):
        self.calls += 1
        self.nbytes += len(buf)

    def write_readinto(self, tx, rx):
        self.calls += 1
        self.nbytes += len(tx)
        s = self._selected()
        if s < 0:
            return
        if tx[0] == 0xCF:                       # read WHO_AM_I (0x4F): the LIS2MDL's id
            rx[1] = 0x40
            return
        f = self.frame
        j = 6 * s
        rx[1] = f[j]                            # offset binary in the frame, two's complement on the bus
        rx[2] = f[j + 1] ^ 0x80
        rx[3] = f[j + 2]
        rx[4] = f[j + 3] ^ 0x80
        rx[5] = f[j + 4]
        rx[6] = f[j + 5] ^ 0x80


class SelPin:
    """A decoder's address line (kind 0, bit i) or enable (kind 1, decoder i)."""

    def __init__(self, bus, kind, i):
        self.bus = bus
        self.kind = kind
        self.i = i

    def value(self, v):
        b = self.bus
        b.selects += 1
        if self.kind:
            b.en[self.i] = 1 if v else 0
        elif v:
            b.addr |= 1 << self.i
        else:
            b.addr &= ~(1 << self.i)


def mat(w):
    """The bus over the board's sensors (wiring.spi.sensors)."""
    spi = w["spi"]
    return Bus([(s[0], s[1]) for s in spi["sensors"]], len(spi["select"]["enable"]))


def scanner(bus, w):
    """The scanner as hw.esp32.build makes it on the board."""
    from hw.lis2 import Lis2Scanner
    spi = w["spi"]
    sel = spi["select"]
    return Lis2Scanner(bus, [SelPin(bus, 0, i) for i in range(len(sel["address"]))],
                       [SelPin(bus, 1, i) for i in range(len(sel["enable"]))],
                       [(s[0], s[1]) for s in spi["sensors"]], spi.get("odr_hz", 100))


class _Stand:
    pass


def report(sc, report, w):
    """One scan's transactions as the chip would make them (scan_spi_calls,
    scan_spi_bytes, scan_spi_selects), then a scanner of the same wiring
    whose transfers and pin writes are calls that do nothing (machine code
    where the port compiles viper: mpscripts/i2cnop.py; a C function
    otherwise), for heap32 to time the scan loop alone. Returns it."""
    bus = sc.spi
    c0, n0, s0 = bus.calls, bus.nbytes, bus.selects
    sc.scan()
    report("scan_spi_calls", bus.calls - c0)
    report("scan_spi_bytes", bus.nbytes - n0)
    report("scan_spi_selects", bus.selects - s0)
    try:
        from i2cnop import nop1, nop2  # type: ignore[import-not-found]  # (beside the script on the port)
    except (ImportError, SyntaxError):      # no native emitter (the WebAssembly port: its clock is not used)
        def nop1(a):
            pass

        def nop2(a, b):
            pass
    spi = _Stand()
    spi.write = nop1
    spi.write_readinto = nop2
    sel = w["spi"]["select"]
    pins = []
    for _ in range(len(sel["address"]) + len(sel["enable"])):
        p = _Stand()
        p.value = abs                       # as Pin.value(v): one C call
        pins.append(p)
    from hw.lis2 import Lis2Scanner
    na = len(sel["address"])
    return Lis2Scanner(spi, pins[:na], pins[na:], [(s[0], s[1]) for s in w["spi"]["sensors"]],
                       w["spi"].get("odr_hz", 100))
