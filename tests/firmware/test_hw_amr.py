"""The AMR magnetometer scanner (firmware/hw/amr.py) against a fake I2C bus
with TCA9548A multiplexers and MMC5603NJ sensors (CPython and micropython)."""
try:
    import unittest
except ImportError:
    import mpunit as unittest

import gc

from hw.amr import AmrScanner


class FakeBus:
    """Muxes at 0x70 + n; behind each channel an MMC5603NJ whose 20-bit x, y,
    z the test sets (its registers as the part lays them out: the 16-bit
    mode's Xout0..Zout1 first, the 20-bit low nibbles after). Two sensors visible at once is an error. Allocation-free
    while scanning (state in preallocated bytearrays), so the scanner's own
    allocations can be measured."""

    def __init__(self, n_mux, present):
        self.mask = bytearray(n_mux)
        self.present = bytearray(8 * n_mux)
        for m, c in present:
            self.present[8 * (m - 0x70) + c] = 1
        self.out = [bytearray(9) for _ in range(8 * n_mux)]
        self.regs = {}
        for k in range(8 * n_mux):
            self.set(0x70 + k // 8, k % 8, (524288, 524288, 524288))

    def set(self, m, c, xyz):
        x, y, z = xyz
        o = self.out[8 * (m - 0x70) + c]
        vals = (x >> 12, (x >> 4) & 255, y >> 12, (y >> 4) & 255, z >> 12, (z >> 4) & 255,
                (x & 15) << 4, (y & 15) << 4, (z & 15) << 4)
        for i in range(9):
            o[i] = vals[i]

    def _visible(self):
        found = -1
        for k in range(len(self.present)):
            if self.present[k] and (self.mask[k >> 3] >> (k & 7)) & 1:
                if found >= 0:
                    raise OSError("two sensors answer at 0x30")
                found = k
        if found < 0:
            raise OSError("no sensor answers at 0x30")
        return found

    def writeto(self, addr, buf):
        self.mask[addr - 0x70] = buf[0]

    def writeto_mem(self, addr, reg, buf):
        k = self._visible()
        self.regs[(0x70 + k // 8, k % 8, reg)] = buf[0]

    def readfrom_mem(self, addr, reg, n):
        self._visible()
        return bytes([0x10 if reg == 0x39 else 0] * n)

    def readfrom_mem_into(self, addr, reg, buf):
        o = self.out[self._visible()]
        for i in range(len(buf)):
            buf[i] = o[reg + i]
        self.read_bytes = len(buf)


SENSORS = [(0x70, 0), (0x70, 1), (0x70, 7), (0x71, 0), (0x71, 3)]


class TestAmrScanner(unittest.TestCase):
    def setUp(self):
        self.bus = FakeBus(2, SENSORS)
        self.s = AmrScanner(self.bus, SENSORS)

    def test_sensors_start_in_continuous_mode_with_auto_set_reset(self):
        for m, c in SENSORS:
            r = self.bus.regs
            self.assertEqual(r[(m, c, 0x1B)], 0x80 | 0x20)
            self.assertEqual(r[(m, c, 0x1D)], 0x10)
            self.assertEqual(r[(m, c, 0x1A)], 100)
        self.assertEqual(self.s.missing, [])

    def test_scan_reads_each_sensors_three_axes_in_channel_order(self):
        # the 16-bit mode: bits 19..4 of each 20-bit result, six bytes a read
        for i, (m, c) in enumerate(SENSORS):
            self.bus.set(m, c, (524288 + 16000 * i + 7, 524288 - 48 * i - 17, 1048575 - i))
        f = self.s.scan()
        self.assertEqual(len(f), 15)
        self.assertEqual(self.bus.read_bytes, 6)
        for i in range(len(SENSORS)):
            self.assertEqual(list(f[3 * i:3 * i + 3]), [32768 + 1000 * i, 32768 - 3 * i - 2, 65535])

    def test_switching_muxes_turns_the_other_off(self):
        # the fake raises when two sensors answer at 0x30 at once
        for _ in range(3):
            self.s.scan()
        self.assertEqual(self.s.scans, 3)

    def test_scan_does_not_allocate(self):
        self.s.scan()
        if not hasattr(gc, "mem_alloc"):
            return
        gc.collect()
        a = gc.mem_alloc()
        self.s.scan()
        self.assertEqual(gc.mem_alloc(), a)

    def test_a_missing_sensor_is_named(self):
        bus = FakeBus(1, [(0x70, 0), (0x70, 2)])
        orig = bus.readfrom_mem

        def product_id(addr, reg, n):
            if bus.mask[0] == 1 << 2:
                return bytes([0x00] * n)      # a part that does not answer as an MMC5603NJ
            return orig(addr, reg, n)
        bus.readfrom_mem = product_id
        s = AmrScanner(bus, [(0x70, 0), (0x70, 2)])
        self.assertEqual(s.missing, [1])

    def test_a_channel_beyond_the_mux_is_refused(self):
        self.assertRaises(ValueError, AmrScanner, FakeBus(1, [(0x70, 0)]), [(0x70, 8)])


class TestEsp32BuildsTheAmrMat(unittest.TestCase):
    """hw.esp32.build makes the AMR scanner when the wiring has an "i2c"
    section (the board folder of an amr2 mat), on the pins it names."""

    def setUp(self):
        import fakes
        fakes.install()
        import machine
        self.machine = machine
        self.bus = FakeBus(2, SENSORS)
        self.opened = []

        def i2c(bus_id, scl=None, sda=None, freq=0):
            self.opened.append((bus_id, scl, sda, freq))
            return self.bus
        self.had = getattr(machine, "I2C", None)
        machine.I2C = i2c

    def tearDown(self):
        import fakes
        if self.had is None:
            del self.machine.I2C
        else:
            self.machine.I2C = self.had
        fakes.uninstall()

    def test_build_reads_the_sensors_the_wiring_lists(self):
        import hw.esp32
        from fakes.board import FakePort
        from fakes.clock import FakeClock
        clock = FakeClock(0)
        wiring = {"mcu": "esp32s3", "i2c": {"id": 0, "scl": 9, "sda": 8, "freq": 400000,
                                            "sensors": [list(s) for s in SENSORS]}}
        b = hw.esp32.build({"name": "amr-test", "rate_hz": 50, "wiring": wiring}, clock=clock, port=FakePort(clock))
        self.assertEqual(len(self.opened), 1)
        self.assertEqual(self.opened[0][0], 0)
        self.assertEqual(self.opened[0][3], 400000)
        self.assertEqual(b.scanner.n, 15)
        self.bus.set(0x71, 3, (524288 + 16 * 4242, 524288, 524288))
        self.assertEqual(b.scanner.scan()[12], 32768 + 4242)


if __name__ == "__main__":
    unittest.main()
