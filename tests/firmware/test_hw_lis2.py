"""The LIS2MDL scanner (firmware/hw/lis2.py) against a fake SPI bus whose
chip selects come from 74HC154 decoders (CPython and micropython)."""
try:
    import unittest
except ImportError:
    import mpunit as unittest

import gc

from hw.lis2 import Lis2Scanner, gray_order


class FakePin:
    """A Pin whose level lands in the bus's line bytearray (no allocation)."""

    def __init__(self, bus, line):
        self.bus = bus
        self.line = line

    def value(self, v=None):
        if v is None:
            return self.bus.lines[self.line]
        self.bus.lines[self.line] = v
        self.bus.pin_writes += 1


class FakeSpi:
    """Lines 0..3: the decoders' address A0..A3; 4 + d: decoder d's enable
    (active low). Behind each decoder output a LIS2MDL whose x, y, z (signed)
    the test sets and whose registers the scanner writes. A transfer with no
    sensor or two selected is an error; counts transfers and pin writes."""

    def __init__(self, n_dec, present):
        self.lines = bytearray(4 + n_dec)
        for d in range(n_dec):
            self.lines[4 + d] = 1
        self.n_dec = n_dec
        self.present = bytearray(16 * n_dec)
        for d, o in present:
            self.present[16 * d + o] = 1
        self.out = [bytearray(6) for _ in range(16 * n_dec)]
        self.regs = {}
        self.transfers = 0
        self.pin_writes = 0
        self.tx_bytes = 0

    def address_pins(self):
        return [FakePin(self, i) for i in range(4)]

    def enable_pins(self):
        return [FakePin(self, 4 + d) for d in range(self.n_dec)]

    def set(self, d, o, xyz):
        b = self.out[16 * d + o]
        for i in range(3):
            v = xyz[i] & 0xFFFF
            b[2 * i] = v & 255
            b[2 * i + 1] = v >> 8

    def _selected(self):
        found = -1
        for d in range(self.n_dec):
            if self.lines[4 + d] == 0:
                if found >= 0:
                    raise OSError("two decoders enabled")
                found = d
        if found < 0:
            raise OSError("no sensor selected")
        a = self.lines
        k = 16 * found + (a[0] | (a[1] << 1) | (a[2] << 2) | (a[3] << 3))
        if not self.present[k]:
            raise OSError("no sensor at decoder %d output %d" % (found, k & 15))
        return k

    def write(self, buf):
        k = self._selected()
        self.regs[(k >> 4, k & 15, buf[0])] = buf[1]

    def write_readinto(self, tx, rx):
        k = self._selected()
        self.transfers += 1
        self.tx_bytes = len(tx)
        reg = tx[0] & 0x7F
        if reg == 0x4F:
            rx[1] = 0x40
            return
        o = self.out[k]
        for i in range(6):
            rx[1 + i] = o[i]


SENSORS = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 5)]


class TestLis2Scanner(unittest.TestCase):
    def setUp(self):
        self.bus = FakeSpi(2, SENSORS)
        self.s = Lis2Scanner(self.bus, self.bus.address_pins(), self.bus.enable_pins(), SENSORS)

    def test_sensors_start_continuous_at_100_hz_on_four_wires(self):
        for d, o in SENSORS:
            r = self.bus.regs
            self.assertEqual(r[(d, o, 0x62)], 0x04 | 0x10 | 0x20)
            self.assertEqual(r[(d, o, 0x61)], 0x02)
            self.assertEqual(r[(d, o, 0x60)], 0x80 | (3 << 2))
        self.assertEqual(self.s.missing, [])

    def test_scan_reads_each_sensors_three_axes_in_channel_order(self):
        for i, (d, o) in enumerate(SENSORS):
            self.bus.set(d, o, (1000 * i + 7, -3 * i - 2, 32767 - i))
        f = self.s.scan()
        self.assertEqual(len(f), 21)
        self.assertEqual(self.bus.tx_bytes, 7)
        for i in range(len(SENSORS)):
            self.assertEqual(list(f[3 * i:3 * i + 3]), [32768 + 1000 * i + 7, 32768 - 3 * i - 2, 65535 - i])

    def test_the_extremes_map_to_the_ends_of_the_frame(self):
        self.bus.set(0, 0, (-32768, 0, 32767))
        f = self.s.scan()
        self.assertEqual(list(f[0:3]), [0, 32768, 65535])

    def test_a_frame_is_one_transfer_a_sensor_and_a_pin_write_a_sensor_and_two_a_decoder(self):
        self.s.scan()
        t, p = self.bus.transfers, self.bus.pin_writes
        self.s.scan()
        self.assertEqual(self.bus.transfers - t, len(SENSORS))
        # outputs 0, 1, 3, 2 then 5, 1, 0 (Gray order; 5 is not next to 1): 7 + 1 extra line, 2 x 2 enables
        self.assertEqual(self.bus.pin_writes - p, len(SENSORS) + 1 + 4)
        self.assertEqual(list(self.bus.lines[4:]), [1, 1])          # nobody selected between frames

    def test_a_full_mat_takes_34_pin_writes(self):
        full = [(k // 16, k % 16) for k in range(32)]
        bus = FakeSpi(2, full)
        s = Lis2Scanner(bus, bus.address_pins(), bus.enable_pins(), full)
        s.scan()
        p = bus.pin_writes
        s.scan()
        self.assertEqual(bus.pin_writes - p, 34)
        self.assertEqual(bus.transfers, 2 * 32 + 32)                 # the who-am-I at set-up, then two frames

    def test_gray_order_changes_one_line_at_a_time(self):
        g = gray_order(list(range(16)))
        for a, b in zip(g, g[1:]):
            x = a ^ b
            self.assertTrue(x and not x & (x - 1))
        self.assertEqual(gray_order(list(range(16)), backward=True)[-1], g[0])

    def test_scan_does_not_allocate(self):
        self.s.scan()
        if not hasattr(gc, "mem_alloc"):
            return
        gc.collect()
        a = gc.mem_alloc()
        self.s.scan()
        self.assertEqual(gc.mem_alloc(), a)

    def test_a_missing_sensor_is_named(self):
        bus = FakeSpi(1, [(0, 0), (0, 2)])
        orig = bus.write_readinto

        def who(tx, rx):
            if tx[0] & 0x7F == 0x4F and bus.lines[1]:
                rx[1] = 0x3D          # another part answers at output 2
                return
            orig(tx, rx)
        bus.write_readinto = who
        s = Lis2Scanner(bus, bus.address_pins(), bus.enable_pins(), [(0, 0), (0, 2)])
        self.assertEqual(s.missing, [1])

    def test_a_select_beyond_the_decoders_is_refused(self):
        bus = FakeSpi(1, [(0, 0)])
        self.assertRaises(ValueError, Lis2Scanner, bus, bus.address_pins(), bus.enable_pins(), [(1, 0)])
        self.assertRaises(ValueError, Lis2Scanner, bus, bus.address_pins(), bus.enable_pins(), [(0, 0)], 75)


class TestEsp32BuildsTheLis2Mat(unittest.TestCase):
    """hw.esp32.build makes the LIS2MDL scanner when the wiring has an "spi"
    section, on the SPI bus and select pins it names."""

    def setUp(self):
        import fakes
        fakes.install()
        import machine
        self.machine = machine
        self.bus = FakeSpi(2, SENSORS)
        self.opened = []
        bus = self.bus

        def spi(bus_id, baudrate=0, polarity=0, phase=0, sck=None, mosi=None, miso=None):
            self.opened.append((bus_id, baudrate, polarity, phase))
            return bus
        self.had = getattr(machine, "SPI", None)
        machine.SPI = spi
        self.had_pin = machine.Pin
        real = machine.Pin

        class PinFactory:
            """machine.Pin for the test: the select lines go to the fake bus."""
            OUT = getattr(real, "OUT", 1)
            IN = getattr(real, "IN", 0)
            PULL_UP = getattr(real, "PULL_UP", 2)
            LINES = {4: 0, 5: 1, 6: 2, 7: 3, 1: 4, 2: 5}

            def __new__(cls, n, mode=None, value=None, **kw):
                if n in cls.LINES:
                    if value is not None:
                        bus.lines[cls.LINES[n]] = value
                    return FakePin(bus, cls.LINES[n])
                return real(n) if mode is None else real(n, mode)
        pin = PinFactory
        machine.Pin = pin

    def tearDown(self):
        import fakes
        self.machine.Pin = self.had_pin
        if self.had is None:
            del self.machine.SPI
        else:
            self.machine.SPI = self.had
        fakes.uninstall()

    def test_build_reads_the_sensors_the_wiring_lists(self):
        import hw.esp32
        from fakes.board import FakePort
        from fakes.clock import FakeClock
        clock = FakeClock(0)
        wiring = {"mcu": "esp32s3", "minor": 1,
                  "spi": {"id": 1, "sck": 12, "mosi": 11, "miso": 13, "baudrate": 10000000,
                          "select": {"address": [4, 5, 6, 7], "enable": [1, 2]},
                          "sensors": [list(s) for s in SENSORS]}}
        b = hw.esp32.build({"name": "lis2-test", "rate_hz": 50, "wiring": wiring}, clock=clock, port=FakePort(clock))
        self.assertEqual(self.opened, [(1, 10000000, 0, 0)])
        self.assertEqual(b.scanner.n, 21)
        self.bus.set(1, 5, (4242, 0, 0))
        self.assertEqual(b.scanner.scan()[18], 32768 + 4242)

    def test_a_newer_wiring_is_refused_in_one_line(self):
        import hw
        try:
            hw.wiring_of({"wiring": {"minor": 9}})
        except ValueError as e:
            self.assertIn("minor version 9", str(e))
        else:
            self.fail("a newer wiring loaded")


if __name__ == "__main__":
    unittest.main()
