"""Stateful fake of MicroPython's `machine` module (the parts BakuMat uses:
Pin, ADC, PWM, WDT, Timer, reset, reset_cause). TEST CODE: DO NOT UPLOAD TO A
BOARD.

Everything belongs to one World (fakes.machine.world), made fresh by
fakes.install(): its FakeClock, the pins by number, what each ADC reads, the
reset cause. Constructing Pin(13) twice gives two handles on the same pin
state, as on the real chip. Exceptions that model the chip rebooting
(WatchdogReset, MachineReset) derive from BaseException so `except
Exception` in the firmware cannot swallow them; the harness catches them and
boots the firmware again with world.reset_cause set.
"""

PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5


class WatchdogReset(BaseException):
    """The fake WDT was not fed in time: the chip resets."""


class MachineReset(BaseException):
    """The firmware called machine.reset() (or soft_reset())."""


class World:
    def __init__(self, clock):
        self.clock = clock
        self.pins = {}            # pin number -> _PinState
        self.adc_sources = {}     # pin number -> callable() -> u16, or int
        self.pwms = []
        self.wdts = []
        self.timers = []
        self.neopixels = []
        # I2C: TCA9548A muxes answer at 0x70..0x77; behind each of their
        # channels an MMC5603NJ (0x30) reads i2c_fields[(mux, channel)]
        # (16-bit x, y, z), zero field unless set
        self.i2c_fields = {}
        # SPI: LIS2MDL parts (WHO_AM_I 0x40). spi_select, when set, is a
        # callable(world) -> the selected part's key (e.g. (decoder, output)
        # from the select pins' levels) or None; spi_fields[key] its x, y, z
        # (signed, 1.5 mG a count), zero field unless set
        self.spi_select = None
        self.spi_fields = {}
        self.spi_transfers = []   # bytes written in each write / write_readinto (None: not kept)
        self.reset_cause = PWRON_RESET
        self.resets = []          # (t_ms, kind) for every reset requested
        # what hardware calls cost in time (0 = free). Realistic ESP32
        # figures for load tests: adc_us=50 (one read_u16), led_us=30 (per
        # LED written, the write blocks), set in the harness.
        self.adc_us = 0
        self.led_us = 0
        self.spi_us = 0           # one SPI write_readinto (a LIS2MDL read: 40-60 us, hardware/parts.json)
        self.cpu_hz = 160000000
        clock.watchers.append(self._tick)

    def pin(self, n):
        st = self.pins.get(n)
        if st is None:
            st = self.pins[n] = _PinState(n)
        return st

    def _tick(self, clock):
        for t in list(self.timers):
            t._poll(clock)
        for w in list(self.wdts):
            w._check(clock)

    def reboot(self, cause):
        """Forget the running firmware's hardware (as a reset does), keep the
        pins' wiring sources, set the cause the next boot sees."""
        self.reset_cause = cause
        for w in self.wdts:
            w._dead = True
        self.wdts = []
        for t in self.timers:
            t.deinit()
        self.timers = []
        for p in self.pwms:
            p._off()
        self.pwms = []
        self.neopixels = []


world = None


def new_world(clock):
    global world
    world = World(clock)
    return world


class _PinState:
    def __init__(self, n):
        self.n = n
        self.mode = None
        self.pull = None
        self.out = 0              # last value driven by the firmware
        self.external = None      # value driven from outside (button), or None
        self.irq_handler = None
        self.irq_trigger = 0
        self.writes = 0


class Pin:
    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_UP = 2
    PULL_DOWN = 1
    IRQ_RISING = 1
    IRQ_FALLING = 2

    def __init__(self, n, mode=-1, pull=-1, value=None):
        self._st = world.pin(n)
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        st = self._st
        if mode != -1:
            st.mode = mode
        if pull != -1:
            st.pull = pull
        if value is not None:
            self.value(value)

    def value(self, v=None):
        st = self._st
        if v is None:
            if st.mode == Pin.OUT:
                return st.out
            if st.external is not None:
                return st.external
            return 1 if st.pull == Pin.PULL_UP else 0
        st.out = 1 if v else 0
        st.writes += 1

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=3):
        self._st.irq_handler = handler
        self._st.irq_trigger = trigger

    # --- test control ---------------------------------------------------
    def drive(self, v):
        """Drive the pin from outside (a button to ground: drive(0))."""
        old = self.value()
        self._st.external = v
        h = self._st.irq_handler
        if h is not None and old != v:
            if (v and self._st.irq_trigger & Pin.IRQ_RISING) or (not v and self._st.irq_trigger & Pin.IRQ_FALLING):
                h(self)

    def __repr__(self):
        return "Pin(%d)" % self._st.n


class ADC:
    ATTN_0DB = 0
    ATTN_2_5DB = 1
    ATTN_6DB = 2
    ATTN_11DB = 3
    WIDTH_12BIT = 3

    def __init__(self, pin, atten=None):
        self._n = pin._st.n if isinstance(pin, Pin) else pin
        self._atten = atten
        self.reads = 0

    def atten(self, a):
        self._atten = a

    def width(self, w):
        pass

    def read_u16(self):
        self.reads += 1
        if world.adc_us:
            world.clock.advance_us(world.adc_us)
        src = world.adc_sources.get(self._n, 0)
        v = src() if callable(src) else src
        return max(0, min(65535, int(v)))

    def read(self):
        return self.read_u16() >> 4

    def read_uv(self):
        return self.read_u16() * 3300000 // 65535


class I2C:
    """An I2C bus with TCA9548A muxes (0x70..0x77) and one MMC5603NJ
    (0x30, 16-bit results) behind every mux channel: a read at 0x30 with no
    channel or with two channels switched on fails, as two parts at one
    address would on the real bus."""

    def __init__(self, bus_id=0, scl=None, sda=None, freq=400000):
        self.id = bus_id
        self.scl = scl
        self.sda = sda
        self.freq = freq
        self.mask = {}

    def writeto(self, addr, buf):
        if not 0x70 <= addr <= 0x77:
            raise OSError(19)       # ENODEV: nothing acknowledges
        self.mask[addr] = buf[0]

    def _sensor(self, addr):
        on = [(m, c) for m, bits in self.mask.items() for c in range(8) if (bits >> c) & 1]
        if addr != 0x30 or len(on) != 1:
            raise OSError(19 if not on else 5)
        return on[0]

    def readfrom_mem(self, addr, reg, n):
        self._sensor(addr)
        return bytes([0x10 if reg == 0x39 else 0] * n)

    def writeto_mem(self, addr, reg, buf):
        self._sensor(addr)

    def readfrom_mem_into(self, addr, reg, buf):
        xyz = world.i2c_fields.get(self._sensor(addr), (32768, 32768, 32768))
        for i in range(min(len(buf), 6)):
            v = xyz[i >> 1]
            buf[i] = (v >> 8) & 255 if i % 2 == 0 else v & 255


class SPI:
    """An SPI bus of LIS2MDL magnetometers (4-wire): a read of WHO_AM_I
    (0x4F) answers 0x40, a read from OUTX_L (0x68) the selected part's
    world.spi_fields, little-endian two's complement; records every
    transfer in world.spi_transfers."""

    def __init__(self, bus_id=1, baudrate=1000000, polarity=0, phase=0, sck=None, mosi=None, miso=None):
        self.id = bus_id
        self.baudrate = baudrate
        self.pins = (sck, mosi, miso)

    def _key(self):
        return world.spi_select(world) if world.spi_select is not None else None

    def write(self, buf):
        if world.spi_transfers is not None:
            world.spi_transfers.append(bytes(buf))

    def write_readinto(self, tx, rx):
        if world.spi_transfers is not None:
            world.spi_transfers.append(bytes(tx))
        if world.spi_us:
            world.clock.advance_us(world.spi_us)
        reg = tx[0] & 0x7F
        if reg == 0x4F:
            rx[1] = 0x40
        elif reg == 0x68:
            xyz = world.spi_fields.get(self._key(), (0, 0, 0))
            for i in range(min(len(rx) - 1, 6)):
                v = xyz[i >> 1] & 0xFFFF
                rx[1 + i] = v & 255 if i % 2 == 0 else v >> 8


class PWM:
    """Records every change as world-clock-stamped (t_ms, freq, duty_u16)
    in .tones; duty 0 or deinit() means silence."""

    def __init__(self, pin, freq=None, duty_u16=None, duty=None):
        self._n = pin._st.n if isinstance(pin, Pin) else pin
        self._freq = 0
        self._duty = 0
        self.tones = []
        self.deinited = False
        world.pwms.append(self)
        if freq is not None:
            self._freq = freq
        if duty_u16 is not None:
            self._duty = duty_u16
        elif duty is not None:
            self._duty = duty * 64
        self._record()

    def _record(self):
        self.tones.append((world.clock.now_ms(), self._freq, self._duty))

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f
        self.deinited = False
        self._record()

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        self.deinited = False
        self._record()

    def duty(self, d=None):
        if d is None:
            return self._duty // 64
        self.duty_u16(d * 64)

    def init(self, freq=None, duty_u16=None):
        if freq is not None:
            self._freq = freq
        if duty_u16 is not None:
            self._duty = duty_u16
        self.deinited = False
        self._record()

    def deinit(self):
        self._off()

    def _off(self):
        if not self.deinited:
            self.deinited = True
            self.tones.append((world.clock.now_ms(), self._freq, 0))

    # --- test view ------------------------------------------------------
    def sounding(self):
        return (not self.deinited) and self._duty > 0 and self._freq > 0

    def notes(self):
        """[(start_ms, end_ms or None, freq)] of every sounding stretch."""
        out = []
        cur = None
        for t, f, d in self.tones:
            on = d > 0 and f > 0
            if cur is not None and (not on or f != cur[2]):
                out.append((cur[0], t, cur[2]))
                cur = None
            if on and cur is None:
                cur = (t, None, f)
        if cur is not None:
            out.append(cur)
        return out


class WDT:
    """Fires (raises WatchdogReset at the next clock interaction) when more
    than `timeout` ms pass without feed(). Cannot be stopped, like the real
    one; a new WDT() while one runs only changes the timeout."""

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        self._dead = False
        self._last = world.clock.now_ms()
        world.wdts.append(self)

    def feed(self):
        self.feeds += 1
        self._last = world.clock.now_ms()

    def _check(self, clock):
        if self._dead:
            return
        if clock.now_ms() - self._last > self.timeout:
            self._dead = True
            world.resets.append((clock.now_ms(), "wdt"))
            world.reboot(WDT_RESET)
            raise WatchdogReset("watchdog not fed for %d ms" % (clock.now_ms() - self._last))


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1, **kw):
        self._cb = None
        self._period = 0
        self._mode = Timer.PERIODIC
        self._next = None
        if kw:
            self.init(**kw)

    def init(self, mode=PERIODIC, period=-1, callback=None, freq=-1):
        if freq > 0:
            period = 1000 // freq
        self._mode = mode
        self._period = max(1, period)
        self._cb = callback
        self._next = world.clock.now_ms() + self._period
        if self not in world.timers:
            world.timers.append(self)

    def deinit(self):
        self._cb = None
        if self in world.timers:
            world.timers.remove(self)

    def _poll(self, clock):
        while self._cb is not None and self._next is not None and clock.now_ms() >= self._next:
            cb = self._cb
            if self._mode == Timer.PERIODIC:
                self._next += self._period
            else:
                self.deinit()
            cb(self)


def reset_cause():
    return world.reset_cause


def reset():
    world.resets.append((world.clock.now_ms(), "hard"))
    world.reboot(HARD_RESET)
    raise MachineReset("machine.reset()")


def soft_reset():
    world.resets.append((world.clock.now_ms(), "soft"))
    world.reboot(SOFT_RESET)
    raise MachineReset("machine.soft_reset()")


def unique_id():
    return b"\xba\x6b\x00\x00\x00\x01"


def freq(f=None):
    """The CPU clock: a stock ESP32 image boots at 160 MHz."""
    if f is None:
        return world.cpu_hz
    if f not in (80000000, 160000000, 240000000):
        raise ValueError("frequency must be 80MHz, 160MHz or 240MHz")
    world.cpu_hz = f


def idle():
    world.clock.advance_us(100)
