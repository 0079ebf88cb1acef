"""The fixed meaning of colours and sounds. docs/feedback.md is the
user-facing copy of this table: change both together."""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Colours as 0xRRGGBB.
PLAYER = (0x0050FF, 0xFF6E00, 0x00C832, 0xB400FF)   # blue, orange, green, violet
REJECT = const(0xFF0000)     # red
FAULT = const(0xFF00A0)      # magenta
WAIT = const(0xFFFFFF)       # white
NEUTRAL = const(0x202020)    # dim white: something sensed, not yet a piece

# Brightness levels (0..255) of the meanings before the board's cap.
GATE_LEVEL = const(60)       # a player's gate, nobody standing
STAND_LEVEL = const(255)     # a Bakugan standing on a gate
WAIT_LEVEL = const(90)       # breathing peak while waiting for input

# Buzzer cues: flat tuples (freq_hz, ms, freq_hz, ms, ...), 0 Hz = rest.
# Priority: a cue only interrupts a cue of the same or lower priority.
CUE_BOOT = ((1000, 40), 1)
CUE_GATE = ((880, 30), 1)
CUE_STAND = ((1320, 40), 2)
CUE_MISS = ((330, 80), 2)
CUE_CLASH = ((660, 60, 0, 20, 990, 60), 3)
CUE_BATTLE = ((990, 50, 1320, 80), 3)
CUE_CAPTURE = ((784, 50, 1046, 50, 1318, 90), 4)
CUE_REJECT = ((200, 200), 5)
CUE_FAULT = ((2000, 30, 0, 60, 2000, 30, 0, 60, 2000, 30), 5)
CUE_WIN = ((523, 100, 659, 100, 784, 100, 1046, 250), 6)

# Animation periods (ms).
BATTLE_MS = const(250)       # battle: the two colours alternate every 250 ms
BLINK_MS = const(500)        # fault: 1 Hz blink
FLASH_MS = const(80)         # reject: 3 flashes of 80 ms on / 80 ms off
BREATHE_MS = const(2000)     # waiting / winner: 2 s breathing
