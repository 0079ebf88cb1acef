"""Debounced player buttons with short and long presses.

Reading is separate from the update step (micropython-async's habit): the
board's loop reads the pins into a bit mask and calls update(mask, t_ms);
tests and replays call update with canned masks. No allocation per call.

Gestures: `short` on release after a stable press shorter than LONG_MS,
`long` as soon as a press has been held LONG_MS (reported once, while still
held, so the player feels it happen). No double press: a single press must
act at once, and the one action that needs protecting (undo) is the long
press.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

DEBOUNCE_MS = const(25)  # contacts bounce for 1-10 ms; 25 ms is still instant
LONG_MS = const(900)

SHORT = const(1)
LONG = const(2)


class Buttons:
    def __init__(self, count, sink):
        """sink(button_index, gesture, t_ms) with gesture SHORT or LONG."""
        self.count = count
        self.sink = sink
        self.stable = 0  # debounced levels, bit i = button i pressed
        self.raw = 0
        self.raw_since = 0
        self.down_at = [0] * count
        self.long_sent = 0  # bit mask

    def update(self, mask, t):
        if mask != self.raw:
            self.raw = mask
            self.raw_since = t
        elif mask != self.stable and t - self.raw_since >= DEBOUNCE_MS:
            changed = mask ^ self.stable
            self.stable = mask
            for i in range(self.count):
                bit = 1 << i
                if changed & bit:
                    if mask & bit:
                        self.down_at[i] = t
                    else:
                        if not self.long_sent & bit:
                            self.sink(i, SHORT, t)
                        self.long_sent &= ~bit
        held = self.stable & ~self.long_sent
        if held:
            for i in range(self.count):
                bit = 1 << i
                if held & bit and t - self.down_at[i] >= LONG_MS:
                    self.long_sent |= bit
                    self.sink(i, LONG, t)
