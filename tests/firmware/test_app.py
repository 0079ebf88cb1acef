"""The firmware app on the fakes (CPython and micropython): link requests,
game control over the link, resume after reset, watchdog, faults."""
try:
    import unittest
except ImportError:
    import mpunit as unittest

import json

from fwharness import Rig, load_board, REPO
from test_store import tmpdir, rmtree


def sample_header():
    f = open(REPO + "/host_tools/samples/official.ndjson")
    h = json.loads(f.readline())
    f.close()
    return h


def kinds(msgs):
    return [m[2]["ev"] for m in msgs]


class AppCase(unittest.TestCase):
    def setUp(self):
        self.d = tmpdir()
        self.bd = load_board()
        self.rig = Rig(self.bd, self.d)

    def tearDown(self):
        self.rig.close()
        rmtree(self.d)


class TestRequests(AppCase):
    def test_hello_at_boot(self):
        hello = self.rig.received("hello")
        self.assertEqual(len(hello), 1)
        self.assertEqual(hello[0][2]["cause"], "power")
        self.assertEqual(hello[0][2]["resumed"], 0)
        self.assertEqual(hello[0][2]["proto"], 1)

    def test_queries(self):
        t, v = self.rig.request("version")
        self.assertEqual(t, "version")
        self.assertEqual(v["board"], "esp32s3_devkitc1_lis2")
        t, h = self.rig.request("health")
        self.assertTrue(h["wdt"])
        self.assertGreater(h["scans"], 0)
        t, p = self.rig.request("ping")
        self.assertEqual(t, "pong")
        t, s = self.rig.request("state")
        self.assertFalse(s["configured"])

    def test_unknown_and_bad_requests(self):
        t, b = self.rig.request("frobnicate", {})
        self.assertEqual((t, b["code"]), ("err", "unknown"))
        t, b = self.rig.request("ctl", {"ev": "resolve"})
        self.assertEqual((t, b["code"]), ("err", "nogame"))
        t, b = self.rig.request("ctl", {"ev": "land", "zone": 1, "bakugan": "x"})
        self.assertEqual((t, b["code"]), ("err", "bad"))
        t, b = self.rig.request("cfg", {"mode": "nope", "players": []})
        self.assertEqual((t, b["code"]), ("err", "setup"))
        t, b = self.rig.request("raw", [1])
        self.assertEqual((t, b["code"]), ("err", "bad"))

    def test_raw_on_carries_the_baselines_of_its_first_frame(self):
        # a recording's replay resumes from them (raw-log-v1 `baseline`)
        from runtime.boarddef import expand
        from runtime.session import ROLL_PARAMS
        from sense.pipeline import Pipeline
        self.rig.close()
        # room on the link for every raw frame (as test_board_e2e's board)
        self.bd["wiring"]["tx_budget"] = 1024
        self.rig = rig = Rig(self.bd, self.d)
        self.assertEqual(rig.request("raw", {"on": True}), ("ack", {"ok": True}))    # no game: none
        rig.request("raw", {"on": False})
        rig.received("frame")
        rig.request("cfg", sample_header())
        t, b = rig.request("raw", {"on": True})
        self.assertEqual(t, "ack")
        self.assertTrue(b["frames"] >= 1)
        self.assertEqual(len(b["base"]), len(self.bd["sensors"]))
        self.assertEqual(rig.received("frame"), [])    # none streamed before the ack
        rig.run_ms(1000)
        rig.request("raw", {"on": False})
        frames = [m[2] for m in rig.received("frame")]
        self.assertTrue(len(frames) >= 45, len(frames))
        for i in range(1, len(frames)):
            self.assertEqual(frames[i]["t"] - frames[i - 1]["t"], rig.app.period)   # none lost
        live = rig.app.session.match.pipeline
        p = Pipeline(expand(rig.app.session.bd), None, params=ROLL_PARAMS)
        p.resume(b["frames"], b["base"])
        for f in frames:
            p.feed(f["c"], f["t"])
        self.assertEqual(p.baselines(), live.baselines())   # (frames taken, baselines)

    def test_raw_switches_the_line_speed_after_its_ack(self):
        rig = self.rig
        t, b = rig.request("raw", {"on": True, "baud": 921600})
        self.assertEqual((t, b), ("ack", {"ok": True}))          # this port cannot: the host stays
        rig.request("raw", {"on": False})
        t, b = rig.request("raw", {"on": True, "baud": 12345})
        self.assertEqual((t, b["code"]), ("err", "bad"))
        rig.port.can_baud = True
        before = rig.port.tx_bytes
        t, b = rig.request("raw", {"on": True, "baud": 921600})
        self.assertEqual((t, b.get("baud")), ("ack", 921600))
        rig.run_ms(200)
        self.assertEqual(len(rig.port.bauds), 1)
        sent, baud = rig.port.bauds[0]
        self.assertEqual(baud, 921600)
        # the ack (and everything queued before it) went out at the old speed
        acks = [w for _, w in rig.port.tx_log if b" ack " in w]
        self.assertTrue(sent >= before + len(acks[-1]))
        t, b = rig.request("raw", {"on": False, "baud": 115200})
        self.assertEqual(b.get("baud"), 115200)
        rig.run_ms(100)
        self.assertEqual(rig.port.bauds[-1][1], 115200)

    def test_garbage_on_the_link_is_survived(self):
        junk = bytes(bytearray((i * 37 + 11) & 0xFF for i in range(3000)))
        self.rig.send_raw(junk + b"\x1eB1 5 ctl {\"ev\": 1} dead\n" + b"\x1e" * 50)
        self.rig.run_ms(600)
        t, h = self.rig.request("health")
        self.assertEqual(t, "health")
        self.assertGreater(h["rx_garbage"], 1000)
        self.assertGreater(h["rx_errors"], 0)
        self.assertEqual(self.rig.resets, [])
        errs = self.rig.received("err")
        self.assertGreater(len(errs), 0)
        self.assertLessEqual(len(errs), 4 * 2)     # rate limited

    def test_burst_of_input_never_delays_a_scan(self):
        # time passes inside hardware calls as on an ESP32: 96 ADC reads
        # (4.8 ms), a 68-LED write (2 ms), 30 us per serial byte read
        self.rig.close()
        self.rig = rig = Rig(self.bd, self.d, costs=True)
        rig.request("cfg", sample_header())
        rig.app.feedback.event(("win", 0, (("player", 1),)))     # whole-mat animation
        rig.mat.scan_times = []
        for i in range(40):
            rig.send("state")
        rig.send_raw(b"x" * 20000)       # 0.6 s of reading if read in one go
        rig.run_ms(3000)
        t, h = rig.request("health")
        self.assertEqual(h["overruns"], 0)
        self.assertEqual(len(rig.received("state")), 40)
        self.assertGreater(h["rx_garbage"], 19000)
        st = rig.mat.scan_times
        period_us = rig.app.period * 1000
        gaps = [st[i + 1] - st[i] for i in range(len(st) - 1)]
        self.assertGreater(len(gaps), 100)
        self.assertLessEqual(max(gaps), 2 * period_us)      # never more than a period late
        self.assertGreater(len(rig.strip().writes), 50)     # the animation ran meanwhile

class TestGame(AppCase):
    def test_controls_drive_the_referee_and_the_leds(self):
        rig = self.rig
        self.assertEqual(rig.request("cfg", sample_header()), ("ack", {"ok": True}))
        t, b = rig.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6})
        self.assertEqual(b, {"ok": True})
        games = rig.received("game")
        self.assertEqual(kinds(games), ["placed"])
        self.assertEqual(games[0][2]["zone"], 6)
        rig.run_ms(40)
        np = rig.strip()
        # zone 6 -> LEDs 24..27 glow in player 0's colour (blue), dimly
        r, g, b = np.shown(24)
        self.assertTrue(b > r and b > 0, (r, g, b))
        self.assertEqual(np.shown(0), (0, 0, 0))
        # a rule-breaking input is rejected: state unchanged, reject event, red flash, low buzz
        t, b = rig.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-silver", "zone": 7})
        self.assertEqual(b["ok"], False)
        self.assertIn("why", b)
        self.assertEqual(kinds(rig.received("game")), ["reject"])
        self.assertEqual(rig.pwm().notes()[-1][2], 200)
        t, s = rig.request("state")
        self.assertEqual(s["events"], 1)
        self.assertEqual(list(s["view"]["zones"].keys()), ["6"])   # JSON object keys are strings

    def test_resume_after_reset_and_after_power_cut(self):
        rig = self.rig
        rig.request("cfg", sample_header())
        rig.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6})
        rig.request("ctl", {"ev": "gate", "player": 1, "gate": "runo-gold", "zone": 5})
        t, before = rig.request("state")
        rig.received()
        self.assertEqual(rig.request("reset"), ("ack", {"ok": True}))
        rig.run_ms(100)
        hello = rig.received("hello")
        self.assertEqual(hello[-1][2]["cause"], "hard")
        self.assertEqual(hello[-1][2]["resumed"], 2)
        t, after = rig.request("state")
        self.assertEqual(after["view"], before["view"])
        self.assertEqual(after["events"], 2)
        # a power cut: the firmware just stops; boot again from the same files
        rig.world.reboot(1)
        rig.reboot()
        t, again = rig.request("state")
        self.assertEqual(again["view"], before["view"])
        # the game goes on where it was
        t, b = rig.request("ctl", {"ev": "gate", "player": 1, "gate": "runo-silver", "zone": 9})
        self.assertEqual(b["ok"], False)   # not runo's turn to place again: rejected as before the reset

    def test_end_sends_end_event(self):
        self.rig.request("cfg", sample_header())
        self.assertEqual(self.rig.request("end"), ("ack", {"ok": True}))
        self.assertEqual(kinds(self.rig.received("game")), ["end"])


class TestFaults(AppCase):
    def test_hung_loop_is_reset_by_the_watchdog(self):
        rig = self.rig
        rig.request("cfg", sample_header())
        rig.received()
        clock = rig.clock
        hang = [True]

        def stuck():
            # a sensor read that never returns: time passes, nothing else runs
            while hang[0]:
                hang[0] = False
                clock.advance(10000)
            return [2180] * 96
        rig.mat.provider = stuck
        rig.run_ms(200)
        rig.mat.provider = None
        self.assertEqual(len(rig.resets), 1)
        self.assertEqual(rig.resets[0][1], "wdt")
        hello = rig.received("hello")
        self.assertEqual(hello[-1][2]["cause"], "wdt")
        t, h = rig.request("health")
        self.assertEqual(h["cause"], "wdt")

    def test_led_self_test_drives_each_led_alone_then_all_and_gives_the_strip_back(self):
        rig = self.rig
        n = self.bd["wiring"]["led"]["count"]
        rig.run_ms(200)
        strip = rig.strip()
        before = list(strip.writes)
        seq = rig.send("test", {"what": "leds"})
        t, b = rig.reply(seq, max_ms=(3 * n + 40) * rig.app.period)
        cap = rig.app.feedback.cap
        self.assertEqual((t, b), ("ack", {"ok": True, "leds": n, "writes": 3 * n + 1, "level": cap}))
        # (the feedback's own animation may write between the steps)
        shown = [data for _, data in strip.writes[len(before):]]
        alone = [[(i, v) for i, v in enumerate(data) if v] for data in shown]
        alone = [lit[0] for lit in alone if len(lit) == 1]
        self.assertEqual([(i // 3, v) for i, v in alone], [(k // 3, cap) for k in range(3 * n)])
        every = [data for data in shown if len(set(data)) == 1 and data[0]]    # then all alike,
        self.assertEqual(len(every), 1)                                        # within the power budget
        rig.run_ms(100)                  # the feedback draws its own frame again
        self.assertNotEqual(strip.writes[-1][1], every[0])

    def test_buzzer_self_test_says_what_it_played(self):
        from show import palette
        t, b = self.rig.request("test", {"what": "buzzer"}, max_ms=5000)
        self.assertEqual((t, b), ("ack", {"ok": True, "notes": list(palette.CUE_WIN[0]), "why": None}))
        self.assertEqual(self.rig.request("test", {"what": "lamp"})[0], "err")

    def test_failing_stage_stops_feeding_the_watchdog(self):
        rig = self.rig
        rig.request("cfg", sample_header())

        class Boom:
            def frame(self, f, t):
                raise ValueError("pipeline bug")
        rig.app.session.match = Boom()
        rig.run_ms(5000)
        self.assertEqual([r[1] for r in rig.resets], ["wdt"])
        logs = [m[2]["msg"] for m in rig.received("log")]
        self.assertTrue(any("pipeline bug" in m for m in logs), logs)

    def test_dead_channel_is_reported_and_shown(self):
        rig = self.rig
        rig.request("cfg", sample_header())
        rig.received()
        rig.mat.dead[31] = 0          # zone 5's second sensor reads 0
        rig.run_ms(4000)
        faults = rig.received("fault")
        self.assertEqual(len(faults), 1)
        self.assertEqual(faults[0][2]["ch"], 31)
        self.assertEqual(faults[0][2]["zone"], 5)
        np = rig.strip()
        cols = set()
        for t, data in np.writes[-40:]:
            cols.add((data[20 * 3 + 1], data[20 * 3], data[20 * 3 + 2]))
        self.assertTrue(any(r > 0 and b > 0 and g == 0 for r, g, b in cols), cols)   # magenta blink
        t, h = rig.request("health")
        self.assertEqual(h["faults"], [31])

    def test_maintenance_request_reboots_without_app(self):
        import maint
        rig = self.rig
        self.assertEqual(rig.request("maint", {"on": True})[0], "ack")
        rig.run_ms(100)
        self.assertEqual([r[1] for r in rig.resets], ["reset"])
        self.assertTrue(maint.active(self.d))
        maint.leave(self.d)
        self.assertFalse(maint.active(self.d))


if __name__ == "__main__":
    unittest.main()


class TestUndo(AppCase):
    def test_undo_takes_back_the_last_event_and_survives_a_reset(self):
        rig = self.rig
        rig.request("cfg", sample_header())
        rig.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6})
        rig.request("ctl", {"ev": "gate", "player": 1, "gate": "runo-gold", "zone": 5})
        rig.received()
        self.assertEqual(rig.request("ctl", {"ev": "undo"}), ("ack", {"ok": True}))
        self.assertEqual(kinds(rig.received("game")), ["undo"])
        t, s = rig.request("state")
        self.assertEqual(list(s["view"]["zones"].keys()), ["6"])
        rig.request("reset")
        rig.run_ms(100)
        t, s2 = rig.request("state")
        self.assertEqual(s2["view"], s["view"])


class TestMain(AppCase):
    def test_maintenance_mode_boots_without_app_or_watchdog(self):
        import app
        import maint
        maint.enter(self.d)
        built = []
        a = app.main(build=lambda bd: built.append(bd), board_path="/nonexistent/board.json", root=self.d)
        self.assertIsNone(a)
        self.assertEqual(built, [])

    def test_ok_button_is_reported(self):
        rig = self.rig
        rig.request("cfg", sample_header())
        rig.received()
        pin = [p for name, p in rig.board.buttons if name == "p0_ok"][0]
        pin.drive(0)
        rig.run_ms(60)
        pin.drive(1)
        rig.run_ms(60)
        presses = [m[2] for m in rig.received("mat") if m[2].get("ev") == "button"]
        self.assertEqual([p["name"] for p in presses], ["p0_ok"])
