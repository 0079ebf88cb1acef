"""Feedback layer: what the LEDs and the buzzer mean (docs/feedback.md).

    from show.feedback import Feedback
    fb = Feedback(board.strip, board.buzzer, board.clock, board_def)
    fb.configure(header)        # player colours, who owns which Bakugan
    fb.event(out_event)         # referee / match out-events: cues at once
    fb.sync(view)               # zone colours from referee view()
    fb.fault(zone, on)          # sensor fault shown on a zone
    fb.tick(now)                # every loop tick: animations, end of tones
Nothing here blocks or sleeps; the only hardware calls are strip.set/write
and the PWM's freq/duty_u16.
"""
