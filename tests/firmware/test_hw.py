"""Hardware layer against the stateful fakes (CPython and micropython)."""
try:
    import unittest
except ImportError:
    import mpunit as unittest

import sys

import fakes
from fakes.board import FakeMat, FakePort

WIRING = {
    "mcu": "esp32s3",
    # 4 LIS2MDL parts (12 channels) on two decoders, as the lis2 mat wires them
    "spi": {"id": 1, "sck": 12, "mosi": 11, "miso": 13, "baudrate": 10000000, "odr_hz": 100,
            "select": {"address": [4, 5, 6, 7], "enable": [1, 2]},
            "sensors": [[0, 0], [0, 1], [1, 0], [1, 3]]},
    "led": {"pin": 15, "count": 6, "max_brightness": 128, "budget_ma": 200},
    "buzzer": {"pin": 16},
    "buttons": [{"name": "p1", "pin": 17}, 18],
}


def board_def():
    return {"name": "test", "rate_hz": 50, "sensor": {"max_counts": 65535}, "wiring": WIRING}


class TestEsp32Build(unittest.TestCase):
    def setUp(self):
        self.world = fakes.install()
        self.mat = FakeMat(WIRING)
        self.port = FakePort(self.world.clock)
        import hw.esp32
        self.b = hw.esp32.build(board_def(), clock=self.world.clock, port=self.port)

    def tearDown(self):
        fakes.uninstall()

    def test_scan_reads_each_channel_from_its_sensor(self):
        vals = [1000 + 4999 * i for i in range(12)]
        self.mat.set(vals)
        f = self.b.scanner.scan()
        self.assertEqual(list(f), vals)
        vals2 = [65535 - v for v in vals]
        self.mat.set(vals2)
        self.assertEqual(list(self.b.scanner.scan()), vals2)

    def test_a_wiring_without_magnetometers_is_refused(self):
        import hw.esp32
        bd = board_def()
        bd["wiring"] = {"mcu": "esp32", "adc_pins": [36, 39], "mux_select": [13, 14, 15],
                        "channels": [[0, 0], [1, 0]]}        # the retired Hall mats' ADC wiring
        with self.assertRaises(ValueError) as cm:
            hw.esp32.build(bd, clock=self.world.clock, port=self.port)
        self.assertIn("spi", str(cm.exception))

    def test_the_cpu_runs_at_240_mhz_after_build(self):
        # a stock image boots at 160 MHz; building the board sets 240
        import machine
        self.assertEqual(machine.freq(), 240000000)
        fakes.install()
        self.assertEqual(machine.freq(), 160000000)
        import hw.esp32
        bd = board_def()
        bd["wiring"] = dict(WIRING, cpu_hz=160000000)     # a board folder may say otherwise
        hw.esp32.build(bd, clock=self.world.clock, port=self.port)
        self.assertEqual(machine.freq(), 160000000)

    def test_buttons_read_active_low_with_pullup(self):
        names = [n for n, p in self.b.buttons]
        self.assertEqual(names, ["p1", "b1"])
        pin = self.b.buttons[0][1]
        self.assertEqual(pin.value(), 1)
        pin.drive(0)
        self.assertEqual(pin.value(), 0)

    def test_strip_and_buzzer_built_from_definition(self):
        self.assertEqual(self.b.strip.n, 6)
        self.b.strip.set(2, 10, 20, 30)
        self.b.strip.write()
        np = self.world.neopixels[0]
        self.assertEqual(np.shown(2), (10, 20, 30))
        self.assertEqual(np.buf[6:9], bytearray([20, 10, 30]))  # GRB on the wire
        self.assertFalse(self.b.buzzer.sounding())

    def test_reset_cause_and_watchdog(self):
        self.assertEqual(self.b.reset_cause, "power")
        wdt = self.b.wdt_start(1000)
        clock = self.world.clock
        for i in range(5):
            clock.advance(900)
            wdt.feed()
        import machine
        with self.assertRaises(machine.WatchdogReset):
            clock.advance(1001)
        self.assertEqual(machine.reset_cause(), machine.WDT_RESET)

    def test_parked_watchdog_is_fed_by_timer(self):
        wdt = self.b.wdt_start(900)
        self.b.wdt_park()
        self.world.clock.advance(5000)  # would fire without the timer
        self.assertGreater(wdt.feeds, 10)


class TestWifiKey(unittest.TestCase):
    """An access point is open only when wifi.json asks for it by name;
    without a key, the board makes one at its first start and keeps it."""

    def test_key_made_once_and_kept(self):
        import json
        import hw.esp32
        from test_store import tmpdir, rmtree
        d = tmpdir()
        try:
            path = d + "/wifi.json"
            cfg = {"version": 1, "mode": "ap", "ssid": "BakuMat"}
            key = hw.esp32.ap_key(cfg, path)
            self.assertEqual(len(key), 14)
            for c in key:
                self.assertIn(c, hw.esp32.KEY_CHARS)
            f = open(path)
            kept = json.load(f)
            f.close()
            self.assertEqual(kept["key"], key)
            self.assertEqual(hw.esp32.ap_key(kept, path), key)      # the next start: the same
            self.assertTrue(hw.esp32.ap_key({"mode": "ap"}, d + "/other.json") != key)
            self.assertEqual(hw.esp32.ap_key({"mode": "ap", "open": True}, d + "/open.json"), "")
            self.assertEqual(hw.esp32.ap_key({"mode": "sta", "key": "secret123"}, path), "secret123")
        finally:
            rmtree(d)


if __name__ == "__main__":
    unittest.main()


class _Sink:
    def __init__(self):
        self.data = bytearray()

    def write(self, b):
        self.data += b


class TestStdioRoom(unittest.TestCase):
    """The board's serial port never lets a write wait for the line: room()
    is the UART FIFO's free room, estimated at the line's speed."""

    def setUp(self):
        from fakes.clock import FakeClock
        import hw.stdio
        self.clock = FakeClock(1000)
        self.out = _Sink()
        stdin = getattr(sys, "__stdin__", None) or sys.stdin     # (pytest replaces sys.stdin)
        self.port = hw.stdio.StdioPort(stdin=stdin, stdout=self.out, clock=self.clock, baud=115200)

    def test_room_fills_with_writes_and_drains_with_time(self):
        p = self.port
        self.assertEqual(p.room(), 128)
        p.write(b"x" * 100)
        self.assertEqual(p.room(), 28)
        self.clock.advance(5)                  # 5 ms at 11.52 bytes/ms: 57 bytes gone
        self.assertEqual(p.room(), 28 + 57)
        self.clock.advance(60000)              # a long idle: empty, and no overflow
        self.assertEqual(p.room(), 128)
        self.assertEqual(bytes(self.out.data), b"x" * 100)

    def test_the_board_writes_no_more_than_the_room(self):
        import hw
        b = hw.Board(self.clock, None, self.port, tx_budget=256)
        self.assertEqual(b.tx_room(), 128)
        self.port.write(b"y" * 128)
        self.assertEqual(b.tx_room(), 0)
        b2 = hw.Board(self.clock, None, _Sink(), tx_budget=256)     # a port without room(): the budget
        self.assertEqual(b2.tx_room(), 256)


class TestStdioBaud(unittest.TestCase):
    """`raw` with a baud: the port switches its line once the FIFO has
    drained, and at the fast speed writes through the UART's TX ring."""

    def test_switch_waits_for_the_fifo_then_writes_to_the_uart(self):
        from fakes.clock import FakeClock
        import hw.stdio
        clock = FakeClock(1000)
        out = _Sink()
        uart = _Sink()
        lines = []

        def set_line(baud):
            lines.append((clock.now_ms(), baud))
            return None if baud == 115200 else uart
        stdin = getattr(sys, "__stdin__", None) or sys.stdin
        p = hw.stdio.StdioPort(stdin=stdin, stdout=out, clock=clock, baud=115200, set_line=set_line, txbuf=2048)
        self.assertTrue(p.can_set_baud())
        p.write(b"a" * 115)                   # 10 ms of line
        self.assertTrue(p.set_baud(921600))
        self.assertTrue(lines[0][0] >= 1010, lines)
        self.assertEqual(p.room(), 2048)
        p.write(b"b" * 1000)
        self.assertEqual(bytes(uart.data), b"b" * 1000)
        self.assertTrue(p.room() < 2048)
        clock.advance(20)                     # 921600 baud: 1,843 bytes in 20 ms
        self.assertEqual(p.room(), 2048)
        p.set_baud(115200)
        p.write(b"c")
        self.assertEqual(bytes(out.data), b"a" * 115 + b"c")
        self.assertEqual(p.room(), 127)
