"""Multiplexed Hall sensor scanner: sets the mux select pins, reads each ADC
into one preallocated array('H'). No allocation per scan.

Channels are given in channel order as (adc_index, mux_input). The scan
visits mux inputs in Gray-code order so exactly one select pin changes per
step; all ADCs sharing an input are read at that step.
"""
from array import array


def _gray_rank(v):
    # position of v in the Gray-code sequence: inverse Gray code
    r = v
    s = v >> 1
    while s:
        r ^= s
        s >>= 1
    return r


class MuxScanner:
    def __init__(self, adcs, selects, channels, shift=4):
        """adcs: objects with read_u16(); selects: Pin-like (value(v)),
        least significant bit first; channels: [(adc_index, mux_input)]."""
        self.n = len(channels)
        self.frame = array("H", [0] * self.n)
        self._shift = shift
        inputs = []
        for a, m in channels:
            if a < 0 or a >= len(adcs):
                raise ValueError("channel uses adc %d, board has %d" % (a, len(adcs)))
            if m >= (1 << len(selects)) or m < 0:
                raise ValueError("mux input %d needs more than %d select pins" % (m, len(selects)))
            if m not in inputs:
                inputs.append(m)
        inputs.sort(key=_gray_rank)
        steps = []
        prev = inputs[-1]
        for m in inputs:
            changes = []
            for k in range(len(selects)):
                bit = (m >> k) & 1
                if len(inputs) == 1 or bit != ((prev >> k) & 1):
                    changes.append((selects[k], bit))
            reads = []
            for ch in range(self.n):
                a, mm = channels[ch]
                if mm == m:
                    reads.append((adcs[a], ch))
            steps.append((tuple(changes), tuple(reads)))
            prev = m
        self._steps = tuple(steps)
        # put the select pins where the last step leaves them
        for k in range(len(selects)):
            selects[k].value((inputs[-1] >> k) & 1)
        self.scans = 0

    def scan(self):
        f = self.frame
        sh = self._shift
        for changes, reads in self._steps:
            for pin, bit in changes:
                pin.value(bit)
            for adc, ch in reads:
                f[ch] = adc.read_u16() >> sh
        self.scans += 1
        return f
