"""Three-axis AMR magnetometers (ST LIS2MDL) on one SPI bus, each selected
by an output of a 74HC154 1-of-16 decoder: the `lis2` mat
(hardware/esp32s3_devkitc1_lis2/spi.md).

Channels come in threes (x, y, z of one sensor, the board definition's
order); each sensor is reached as (decoder, output). The decoders share
four address lines; each has its own enable (active low), and with every
enable high no sensor is selected. A frame visits each decoder's outputs in
Gray-code order (forward on one decoder, backward on the next), so each
sensor costs one address-line write and each decoder its enable down and
up: 34 pin writes and 32 transfers for 32 sensors. A sensor is read in one
`write_readinto` of 7 bytes (the read bit and OUTX_L, then the six output
bytes, x, y, z, little-endian two's complement, 1.5 mG a count), turned
into offset binary (zero field at 32768: the frame is the array('H') every
scanner gives, hw.Board). Preallocated buffers and a precomputed tuple of
steps: no allocation per scan.

The sensors run in continuous mode at odr_hz with offset cancellation and
temperature compensation; SPI is switched to 4 wires and I2C off at set-up
(on a shared bus a part left in I2C mode could take SPI traffic for its
own).
"""
from array import array

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_READ = const(0x80)
_WHO_AM_I = const(0x4F)
_CHIP_ID = const(0x40)
_CFG_A = const(0x60)
_CFG_B = const(0x61)
_CFG_C = const(0x62)
_OUTX_L = const(0x68)
_TEMP_COMP = const(0x80)      # CFG_REG_A COMP_TEMP_EN; MD = 0: continuous
_OFF_CANC = const(0x02)       # CFG_REG_B: offset cancellation every ODR
_C_4WSPI = const(0x04)        # CFG_REG_C: SDO on its own pin
_C_BDU = const(0x10)          # x, y, z of one measurement read together
_C_I2C_DIS = const(0x20)
_ODR = {10: 0, 20: 1, 50: 2, 100: 3}


def gray_order(outputs, backward=False):
    """The outputs (0..15) in Gray-code order: consecutive ones differ in
    one address line when none is missing."""
    rank = {}
    for i in range(16):
        rank[i ^ (i >> 1)] = i
    out = sorted(outputs, key=lambda o: rank[o])
    if backward:
        out.reverse()
    return out


class Lis2Scanner:
    def __init__(self, spi, address, enable, sensors, odr_hz=100):
        """spi: machine.SPI-like (write, write_readinto); address: the four
        decoder address Pins (A0..A3); enable: one Pin per decoder (active
        low); sensors: [(decoder, output)] in channel order, three channels
        each."""
        if odr_hz not in _ODR:
            raise ValueError("LIS2MDL odr_hz %r: one of 10, 20, 50, 100" % (odr_hz,))
        self.spi = spi
        self._xfer = spi.write_readinto     # bound once: a bound method made per scan would be garbage
        self.n = 3 * len(sensors)
        self.frame = array("H", [0] * self.n)
        self._tx = bytearray(7)
        self._tx[0] = _READ | _OUTX_L
        self._rx = bytearray(7)
        self._addr = tuple(address)
        self._en = tuple(enable)
        where = {}
        for i in range(len(sensors)):
            d, o = sensors[i]
            if not 0 <= d < len(enable) or not 0 <= o < 16:
                raise ValueError("LIS2MDL select (%d, %d): decoder 0..%d, output 0..15" % (d, o, len(enable) - 1))
            where[(d, o)] = i
        # the visit: decoder by decoder, outputs in Gray order, every other
        # decoder backward so the address lines end where the frame began
        visit = []
        decs = sorted(set(d for d, _ in sensors))
        for j in range(len(decs)):
            d = decs[j]
            for o in gray_order([o for dd, o in sensors if dd == d], backward=j % 2 == 1):
                visit.append((d, o))
        for e in self._en:
            e.value(1)
        self._level = [0, 0, 0, 0]
        last = visit[-1][1]
        for b in range(4):
            self._level[b] = (last >> b) & 1
            self._addr[b].value(self._level[b])
        self._start = tuple(self._level)
        self._steps = tuple(self._plan(visit, where))
        self.scans = 0
        self.missing = []
        buf = bytearray(2)
        for i in range(len(sensors)):
            self._only(sensors[i])
            self._write(_CFG_C, _C_4WSPI | _C_BDU | _C_I2C_DIS)   # a write works in either SPI mode
            buf[0] = _READ | _WHO_AM_I
            buf[1] = 0
            spi.write_readinto(buf, buf)
            if buf[1] != _CHIP_ID:
                self.missing.append(i)
                continue
            self._write(_CFG_B, _OFF_CANC)
            self._write(_CFG_A, _TEMP_COMP | (_ODR[odr_hz] << 2))
        self._only(None)
        for b in range(4):          # where the frame's steps begin
            self._addr[b].value(self._start[b])

    def _plan(self, visit, where):
        """(pin.value, level, frame offset or -1) per pin write of a frame:
        a read follows a write with an offset."""
        steps = []
        level = list(self._level)
        cur = None
        for d, o in visit:
            if cur is not None and cur != d:
                steps.append((self._en[cur].value, 1, -1))
                cur = None
            changes = [b for b in range(4) if (o >> b) & 1 != level[b]]
            for b in changes:
                level[b] = (o >> b) & 1
                steps.append((self._addr[b].value, level[b], -1))
            if cur is None:
                steps.append((self._en[d].value, 0, -1))
                cur = d
            fn, v, _ = steps[-1]
            steps[-1] = (fn, v, 3 * where[(d, o)])
        steps.append((self._en[cur].value, 1, -1))
        if level != self._level:
            raise ValueError("LIS2MDL selects: the frame does not end where it began")
        return steps

    def _only(self, sel):
        """Select one sensor (decoder, output) for set-up, or none (None)."""
        for e in self._en:
            e.value(1)
        if sel is None:
            return
        d, o = sel
        for b in range(4):
            self._level[b] = (o >> b) & 1
            self._addr[b].value(self._level[b])
        self._en[d].value(0)

    def _write(self, reg, val):
        b = bytearray(2)
        b[0] = reg
        b[1] = val
        self.spi.write(b)

    def scan(self):
        f = self.frame
        tx = self._tx
        rx = self._rx
        xfer = self._xfer
        for pin, v, k in self._steps:
            pin(v)
            if k >= 0:
                xfer(tx, rx)
                f[k] = ((rx[2] ^ 0x80) << 8) | rx[1]
                f[k + 1] = ((rx[4] ^ 0x80) << 8) | rx[3]
                f[k + 2] = ((rx[6] ^ 0x80) << 8) | rx[5]
        self.scans += 1
        return f
