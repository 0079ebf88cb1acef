# Runs in mpscripts/heap32.py's game (the WebAssembly port or the unix
# port's micropython) for a board whose sensors are on I2C (the amr2 mat),
# copied beside it by host_tools/bench/heap32.run. A file of its own: its
# names would otherwise shift the name pools of every board's heap run.


class Bus:
    """machine.I2C with TCA9548A muxes (0x70..0x77) and one MMC5603NJ (0x30,
    16-bit mode) behind each mux channel, reading the current frame (u16 LE
    counts in channel order, three channels a sensor: heap32's frames.bin).
    Counts the transactions: the chip's I2C time is added on the host from
    the bus's bits and the driver's cost per call (bench/chiptime.py).
    Nothing is allocated per transaction."""

    def __init__(self, sensors):
        self.frame = bytearray(6 * len(sensors))
        self.where = bytearray(64)        # (mux - 0x70) * 8 + channel -> sensor + 1
        self.mux = bytearray(len(sensors))
        for i in range(len(sensors)):
            m, c = sensors[i]
            self.where[(m - 0x70) * 8 + c] = i + 1
            self.mux[i] = m - 0x70
        self.bit = bytearray(256)         # a mux's select byte -> its lowest channel
        for b in range(1, 256):
            c = 0
            while not (b >> c) & 1:
                c += 1
            self.bit[b] = c
        self.cur = -1
        self.writes = self.reads = 0

    def writeto(self, addr, buf):
        self.writes += 1
        b = buf[0]
        m = addr - 0x70
        if b:
            self.cur = self.where[m * 8 + self.bit[b]] - 1
        elif self.cur >= 0 and self.mux[self.cur] == m:
            self.cur = -1

    def readfrom_mem(self, addr, reg, n):
        return bytes([0x10 if reg == 0x39 else 0] * n)    # the product id, at set-up

    def writeto_mem(self, addr, reg, buf):
        pass

    def readfrom_mem_into(self, addr, reg, buf):
        self.reads += 1
        f = self.frame
        j = 6 * self.cur
        buf[0] = f[j + 1]        # MSB first on the bus, LE in the frame
        buf[1] = f[j]
        buf[2] = f[j + 3]
        buf[3] = f[j + 2]
        buf[4] = f[j + 5]
        buf[5] = f[j + 4]


def mat(w):
    """The bus over the board's sensors (wiring.i2c.sensors)."""
    return Bus([(s[0], s[1]) for s in w["i2c"]["sensors"]])


def scanner(bus, w):
    """The scanner as hw.esp32.build makes it on the board."""
    from hw.amr import AmrScanner
    return AmrScanner(bus, [(s[0], s[1]) for s in w["i2c"]["sensors"]], w["i2c"].get("odr_hz", 100))


class _Stand:
    pass


def report(sc, report):
    """One scan's transactions on the bus as the chip would make them
    (scan_i2c_writes, scan_i2c_reads), then the scanner handed a stand whose
    writeto and readfrom_mem_into are machine code that does nothing (where
    the port compiles viper: mpscripts/i2cnop.py; a call to it costs what a
    call to a C function does, no Python frame) for heap32 to time the scan
    loop alone. Returns the scanner."""
    bus = sc.i2c
    w0, r0 = bus.writes, bus.reads
    sc.scan()
    report("scan_i2c_writes", bus.writes - w0)
    report("scan_i2c_reads", bus.reads - r0)
    o = _Stand()
    try:
        from i2cnop import nop2, nop3
    except (ImportError, SyntaxError):      # no native emitter (the WebAssembly port: its clock is not used)
        def nop2(a, b):
            pass

        def nop3(a, b, c):
            pass
    o.writeto = nop2
    o.readfrom_mem_into = nop3
    sc.i2c = o
    return sc
