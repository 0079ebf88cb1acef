"""Three-axis AMR magnetometers (MEMSIC MMC5603NJ, fixed I2C address 0x30)
behind TCA9548A I2C multiplexers: the `amr2` mat (hardware/amr2.md).

Channels come in threes (x, y, z of one sensor, the board definition v2's
order); each sensor is reached as (mux address, mux channel). The sensors
run in continuous mode with automatic SET/RESET; a scan selects each mux
channel and reads the six output bytes of the part's 16-bit mode (Xout0,
Xout1, Yout0, ... = bits 19..4 of each 20-bit result) into preallocated
buffers: no allocation per scan. Readings are 16-bit counts, zero field at
32768, 1 mG (0.1 uT) per count (boards/mats/amr2.json): the step is a
twentieth of the noise the simulator assumes (20 counts rms) and half the
datasheet's 2 mG, so the four low bits the 20-bit mode adds carry only
noise, and the frame is the array('H') every scanner gives (hw.Board).
Skipping Xout2..Zout2 also saves three of nine bytes on the bus per read.
"""
from array import array

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

ADDR = const(0x30)
_XOUT0 = const(0x00)
_ODR = const(0x1A)
_CTRL0 = const(0x1B)
_CTRL2 = const(0x1D)
_PRODUCT_ID = const(0x39)
_CHIP_ID = const(0x10)
_CMM_FREQ_EN = const(0x80)
_AUTO_SR_EN = const(0x20)
_CMM_EN = const(0x10)


class AmrScanner:
    def __init__(self, i2c, sensors, odr_hz=100):
        """i2c: machine.I2C-like (writeto, readfrom_mem_into, writeto_mem,
        readfrom_mem); sensors: [(mux_address, mux_channel)] in channel
        order, three channels each."""
        self.i2c = i2c
        self.n = 3 * len(sensors)
        self.frame = array("H", [0] * self.n)
        self._buf = bytearray(6)
        self._off = bytearray(1)  # 0: every channel of a mux off
        self._sel = []
        muxes = []
        for m, c in sensors:
            if not 0 <= c < 8:
                raise ValueError("TCA9548A channel %d: 0..7" % c)
            b = bytearray(1)
            b[0] = 1 << c
            self._sel.append((m, b))
            if m not in muxes:
                muxes.append(m)
        self._muxes = tuple(muxes)
        self._sel = tuple(self._sel)
        self.scans = 0
        self.missing = []
        for i in range(len(sensors)):
            self._select(i)
            if i2c.readfrom_mem(ADDR, _PRODUCT_ID, 1)[0] != _CHIP_ID:
                self.missing.append(i)
                continue
            i2c.writeto_mem(ADDR, _ODR, bytes((odr_hz,)))
            i2c.writeto_mem(ADDR, _CTRL0, bytes((_CMM_FREQ_EN | _AUTO_SR_EN,)))
            i2c.writeto_mem(ADDR, _CTRL2, bytes((_CMM_EN,)))
        self._cur = -1
        self._select(0)

    def _select(self, i):
        # another mux with a channel on would put a second 0x30 on the bus
        m, b = self._sel[i]
        for other in self._muxes:
            if other != m:
                self.i2c.writeto(other, self._off)
        self.i2c.writeto(m, b)
        self._cur = m

    def scan(self):
        f = self.frame
        buf = self._buf
        i2c = self.i2c
        cur = self._cur
        k = 0
        for m, b in self._sel:
            if m != cur:
                i2c.writeto(cur, self._off)
                cur = m
            i2c.writeto(m, b)
            i2c.readfrom_mem_into(ADDR, _XOUT0, buf)
            f[k] = (buf[0] << 8) | buf[1]
            f[k + 1] = (buf[2] << 8) | buf[3]
            f[k + 2] = (buf[4] << 8) | buf[5]
            k += 3
        self._cur = cur
        self.scans += 1
        return f
