"""Non-blocking buzzer cues on a PWM: play() starts the first tone at once;
tick(now) moves to the next tone when its time is up (so tone lengths are
rounded up to the loop period). Never sleeps."""


class Sound:
    def __init__(self, pwm, clock, volume=32768):
        self.pwm = pwm
        self.clock = clock
        self.volume = volume
        self._cue = None
        self._i = 0
        self._until = 0
        self._prio = 0
        self.played = 0

    def play(self, cue, now=None):
        notes, prio = cue
        if self._cue is not None and prio < self._prio:
            return False
        if now is None:
            now = self.clock.ticks_ms()
        self._cue = notes
        self._prio = prio
        self._i = 0
        self._start(now)
        self.played += 1
        return True

    def _start(self, now):
        f = self._cue[self._i]
        pwm = self.pwm
        if pwm is not None:
            if f > 0:
                pwm.freq(f)
                pwm.duty_u16(self.volume)
            else:
                pwm.duty_u16(0)
        self._until = self.clock.ticks_add(now, self._cue[self._i + 1])

    def busy(self):
        return self._cue is not None

    def tick(self, now):
        if self._cue is None or self.clock.ticks_diff(now, self._until) < 0:
            return
        self._i += 2
        if self._i >= len(self._cue):
            self._cue = None
            self._prio = 0
            if self.pwm is not None:
                self.pwm.duty_u16(0)
            return
        self._start(now)

    def stop(self):
        self._cue = None
        self._prio = 0
        if self.pwm is not None:
            self.pwm.duty_u16(0)
