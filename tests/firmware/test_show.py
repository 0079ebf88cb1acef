"""Feedback layer on the fakes: colours, cues, caps, non-blocking."""
try:
    import unittest
except ImportError:
    import mpunit as unittest

import fakes
from hw.strip import Strip
from show.feedback import Feedback, led_layout
from show import palette as P

HEADER = {"mode": "official", "first": 0, "players": [
    {"name": "A", "bakugan": [{"id": "a1", "attr": "pyrus", "g": 400}], "gates": [], "abilities": []},
    {"name": "B", "bakugan": [{"id": "b1", "attr": "haos", "g": 400}], "gates": [], "abilities": []}]}


def board(count=18, cap=255, budget=None):
    led = {"pin": 5, "count": count, "max_brightness": cap}
    if budget is not None:
        led["budget_ma"] = budget
    return {"zones": [{"id": z} for z in range(4)], "wiring": {"led": led, "buzzer": {"pin": 4}}}


def rgb(c, lvl=255, cap=255):
    sc = lvl * cap // 255
    return (((c >> 16) & 255) * sc // 255, ((c >> 8) & 255) * sc // 255, (c & 255) * sc // 255)


class ShowCase(unittest.TestCase):
    def make(self, **kw):
        self.world = fakes.install(start_ms=1000)
        import machine
        import neopixel
        bd = board(**kw)
        self.np = neopixel.NeoPixel(machine.Pin(5), bd["wiring"]["led"]["count"])
        self.pwm = machine.PWM(machine.Pin(4), freq=1000, duty_u16=0)
        self.clock = self.world.clock
        self.fb = Feedback(Strip(self.np), self.pwm, self.clock, bd)
        self.fb.configure(HEADER)
        return self.fb

    def tearDown(self):
        fakes.uninstall()

    def now(self):
        return self.clock.ticks_ms()


class TestLayout(unittest.TestCase):
    def test_even_split_with_status_leds(self):
        zl, st = led_layout(board(count=18))
        self.assertEqual(zl, [(0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15)])
        self.assertEqual(st, (16, 17))

    def test_fewer_leds_than_zones_share(self):
        zl, st = led_layout(board(count=2))
        self.assertEqual(zl, [(0,), (0,), (1,), (1,)])


class TestFeedback(ShowCase):
    def test_stand_lights_zone_and_beeps_in_the_same_tick(self):
        fb = self.make()
        fb.tick(self.now())
        t0 = self.clock.now_ms()
        out = ("stand", 5000, (("player", 1), ("bakugan", "b1"), ("zone", 2)))
        fb.event(out)
        fb.sync({"zones": {2: {"gate": "g", "owner": 0, "bakugan": ["b1"]}}, "turn": 0, "phase": "play"})
        fb.tick(self.now())
        # no time passed: light and sound happened at the decision instant
        self.assertEqual(self.clock.now_ms(), t0)
        self.assertEqual(self.np.writes[-1][0], t0)
        self.assertEqual(self.np.shown(8), rgb(P.PLAYER[1]))
        self.assertEqual(self.np.shown(0), (0, 0, 0))
        self.assertEqual(self.pwm.notes()[-1], (t0, None, 1320))
        # the 40 ms cue ends on the first tick at or after 40 ms
        for _ in range(3):
            self.clock.advance(20)
            fb.tick(self.now())
        self.assertFalse(self.pwm.sounding())
        self.assertEqual(self.pwm.notes()[-1], (t0, t0 + 40, 1320))

    def test_gate_owner_dim_and_battle_alternates(self):
        fb = self.make()
        fb.sync({"zones": {0: {"gate": "g", "owner": 1, "bakugan": []},
                           1: {"gate": "h", "owner": 0, "bakugan": ["a1", "b1"]}},
                 "turn": 0, "phase": "play", "battle": {"zone": 1}})
        fb.tick(self.now())
        self.assertEqual(self.np.shown(0), rgb(P.PLAYER[1], P.GATE_LEVEL))
        seen = set()
        for _ in range(20):
            self.clock.advance(50)
            fb.tick(self.now())
            seen.add(self.np.shown(4))
        self.assertIn(rgb(P.PLAYER[0]), seen)
        self.assertIn(rgb(P.PLAYER[1]), seen)

    def test_asking_shows_whose_input_and_which_zone(self):
        fb = self.make()
        fb.sync({"zones": {3: {"gate": "g", "owner": 0, "bakugan": ["b1"]}}, "turn": 0, "phase": "play"})
        fb.asking((1, 3, "take"))  # player 1 is offered the gate on zone 3
        seen = set()
        status = set()
        for _ in range(40):
            self.clock.advance(50)
            fb.tick(self.now())
            seen.add(self.np.shown(12))
            status.add(self.np.shown(16))
        self.assertGreater(len(seen), 3)  # breathing
        shades = [rgb(P.PLAYER[1], lvl) for lvl in range(256)]
        for c in seen:  # always player 1's colour, at some level
            self.assertIn(c, shades)
        self.assertGreater(len(status), 3)  # the status LEDs breathe too: input awaited

    def test_unsure_landing_breathes_until_a_battle_stands_there(self):
        fb = self.make()
        # player 1's landing on zone 1 the mat is unsure of: the zone breathes
        fb.sync({"zones": {1: {"gate": "g", "owner": 0, "bakugan": ["b1"]}}, "turn": 0, "phase": "play"})
        fb.asking((1, 1, "which"))
        seen = set()
        for _ in range(40):
            self.clock.advance(50)
            fb.tick(self.now())
            seen.add(self.np.shown(4))
        self.assertGreater(len(seen), 3)
        self.assertNotIn(rgb(P.PLAYER[1]), seen)     # never the steady stand level
        # player 0 lands there (a battle) while the question is still open:
        # that landing lights the zone in the same tick, then alternates
        t0 = self.clock.now_ms()
        fb.event(("stand", 0, (("player", 0), ("bakugan", "a1"), ("zone", 1))))
        fb.sync({"zones": {1: {"gate": "g", "owner": 0, "bakugan": ["b1", "a1"]}},
                 "turn": 1, "phase": "play", "battle": {"zone": 1}})
        fb.asking((1, 1, "which"))
        fb.tick(self.now())
        self.assertEqual(self.np.writes[-1][0], t0)
        self.assertEqual(self.np.shown(4), rgb(P.PLAYER[0]))
        seen = set()
        status = set()
        for _ in range(20):
            self.clock.advance(50)
            fb.tick(self.now())
            seen.add(self.np.shown(4))
            status.add(self.np.shown(16))
        self.assertEqual(seen, {rgb(P.PLAYER[0]), rgb(P.PLAYER[1])})
        self.assertGreater(len(status), 3)    # the status LEDs still ask the thrower

    def test_reject_flashes_red_then_restores(self):
        fb = self.make()
        view = {"zones": {3: {"gate": "g", "owner": 0, "bakugan": []}}, "turn": 0, "phase": "play"}
        fb.sync(view)
        fb.tick(self.now())
        before = self.np.shown(12)
        fb.event(("reject", 0, (("input", "land"), ("reason", "x"))), zone=3)
        fb.tick(self.now())
        self.assertEqual(self.np.shown(12), rgb(P.REJECT))
        self.assertEqual(self.np.shown(0), (0, 0, 0))    # only zone 3
        self.assertEqual(self.pwm.notes()[-1][2], 200)
        reds = 0
        for _ in range(30):
            self.clock.advance(20)
            fb.tick(self.now())
            if self.np.shown(12) == rgb(P.REJECT):
                reds += 1
        self.assertEqual(self.np.shown(12), before)
        self.assertGreaterEqual(reds, 4)

    def test_brightness_cap(self):
        fb = self.make(cap=64)
        fb.sync({"zones": {z: {"gate": "g", "owner": 0, "bakugan": ["a1"]} for z in range(4)},
                 "turn": 0, "phase": "play"})
        fb.tick(self.now())
        self.assertLessEqual(max(self.np.writes[-1][1]), 64)
        self.assertEqual(self.np.shown(0), rgb(P.PLAYER[0], 255, 64))

    def test_current_budget_scales_frame(self):
        fb = self.make(count=18, budget=120)
        fb.event(("win", 0, (("player", 1),)))
        best = 0
        for _ in range(60):
            self.clock.advance(40)
            fb.tick(self.now())
            data = self.np.writes[-1][1]
            est = 18 + sum(data) * 20 // 255
            self.assertLessEqual(est, 120)
            best = max(best, est)
        self.assertGreater(fb.limited, 0)
        self.assertGreater(best, 100)

    def test_fault_blinks_magenta_with_cue(self):
        fb = self.make()
        fb.fault(1, True)
        cols = set()
        for _ in range(30):
            self.clock.advance(50)
            fb.tick(self.now())
            cols.add(self.np.shown(4))
        self.assertIn(rgb(P.FAULT), cols)
        self.assertIn((0, 0, 0), cols)
        self.assertEqual(self.pwm.notes()[0][2], 2000)
        fb.fault(1, False)
        self.clock.advance(50)
        fb.tick(self.now())
        self.assertEqual(self.np.shown(4), (0, 0, 0))

    def test_still_scene_is_not_rewritten(self):
        fb = self.make()
        fb.sync({"zones": {0: {"gate": "g", "owner": 1, "bakugan": ["b1"]}}, "turn": 0, "phase": "play"})
        fb.tick(self.now())
        n = len(self.np.writes)
        for _ in range(50):
            self.clock.advance(20)
            fb.tick(self.now())
        self.assertEqual(len(self.np.writes), n)

    def test_cue_priority_and_never_sleeps(self):
        fb = self.make()
        t0 = self.clock.now_ms()
        fb.event(("win", 0, (("player", 0),)))
        fb.event(("stand", 0, ()))            # lower priority: ignored
        self.assertEqual(self.clock.now_ms(), t0)
        self.assertEqual(self.clock.slept_ms, 0)
        freqs = []
        for _ in range(40):
            self.clock.advance(20)
            fb.tick(self.now())
        for s, e, f in self.pwm.notes():
            freqs.append(f)
        self.assertEqual(freqs, [523, 659, 784, 1046])


if __name__ == "__main__":
    unittest.main()


class TestEdgeStatus(ShowCase):
    def test_only_the_turn_players_edge_lights(self):
        self.world = fakes.install(start_ms=1000)
        import machine
        import neopixel
        bd = board(count=18)
        bd["wiring"]["led"]["edge"] = [{"player": 0, "led": 16}, {"player": 1, "led": 17}]
        self.np = neopixel.NeoPixel(machine.Pin(5), 18)
        self.clock = self.world.clock
        fb = Feedback(Strip(self.np), None, self.clock, bd)
        fb.configure(HEADER)
        fb.sync({"zones": {}, "turn": 1, "phase": "play"})
        fb.tick(self.now())
        self.assertEqual(self.np.shown(16), (0, 0, 0))
        self.assertEqual(self.np.shown(17), rgb(P.PLAYER[1], P.GATE_LEVEL))
        fb.sync({"zones": {}, "turn": 0, "phase": "play"})
        fb.tick(self.now())
        self.assertEqual(self.np.shown(16), rgb(P.PLAYER[0], P.GATE_LEVEL))
        self.assertEqual(self.np.shown(17), (0, 0, 0))
