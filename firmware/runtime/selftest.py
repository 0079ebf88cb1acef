"""The `test` request: drive the LEDs or the buzzer so a person can see or
hear that they work, one step per loop tick, then answer the request.
Imported at the first `test` request only.

    t = SelfTest("leds", seq, board, feedback, link)
    while t.step(now): ...     # one step per tick; False once answered
"""
from show import palette


class SelfTest:
    def __init__(self, what, seq, board, feedback, link):
        """what: "leds" or "buzzer"; seq: the request's, for the answer."""
        self.what = what
        self.seq = seq
        self.b = board
        self.fb = feedback
        self.link = link
        self.steps_done = 0

    def step(self, now):
        """One step; False once the test is over and answered."""
        if self.what == "buzzer":
            return self._buzzer(now)
        strip = self.b.strip
        seq = self.seq
        if strip is None:
            self.link.reply(seq, "ack", {"ok": False, "why": "no LEDs on this board"})
            return False
        n = strip.n
        step = self.steps_done
        cap = self.fb.cap
        if step < 3 * n:
            # each LED red, green, blue alone
            i = step // 3
            c = step % 3
            for j in range(n):
                strip.set(j, 0, 0, 0)
            strip.set(i, cap if c == 0 else 0, cap if c == 1 else 0, cap if c == 2 else 0)
            strip.write()
        elif step == 3 * n:
            # then all at this level, as much as the supply allows
            for j in range(n):
                strip.set(j, cap, cap, cap)
            self.fb.limit_power()
            strip.write()
        elif step > 3 * n + 25:
            self.fb.redraw()
            # what was driven: each LED red, green, blue alone, then all at this level
            self.link.reply(seq, "ack", {"ok": True, "leds": n, "writes": 3 * n + 1, "level": cap})
            return False
        self.steps_done = step + 1
        return True

    def _buzzer(self, now):
        sound = self.fb.sound
        if self.steps_done == 0:
            sound.play(palette.CUE_WIN, now)
            self.steps_done = 1
            return True
        if sound.busy():
            return True
        # what was driven: the notes (Hz, ms), for the host to say
        buzzer = self.b.buzzer
        self.link.reply(self.seq, "ack", {"ok": buzzer is not None, "notes": list(palette.CUE_WIN[0]),
                                          "why": None if buzzer is not None else "no buzzer on this board"})
        return False
