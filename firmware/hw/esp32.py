"""Builds the hardware of an ESP32 BakuMat from the board definition (the
merged mat + wiring dict that the host deploys as board.json). The only
module that constructs machine/neopixel objects for the real board."""
import machine

import hw

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Every board runs its CPU at 240 MHz: stock ESP32 and S3 images boot at 160
# MHz, and the loop's budget (docs/runtime.md) is measured for 240.
CPU_HZ = const(240000000)
from hw.strip import Strip
from hw.stdio import StdioPort


def build(board_def, clock=None, port=None):
    """clock: the `time` module on the board; port: the serial link port
    (StdioPort on the board; tests pass a fake clock and port)."""
    if clock is None:
        import time as clock
    w = hw.wiring_of(board_def)
    set_cpu(w.get("cpu_hz", CPU_HZ))
    bus = w.get("i2c")
    spi = w.get("spi")
    if spi:
        # three-axis SPI magnetometers, chip selects from 74HC154 decoders (the lis2 mat)
        from hw.lis2 import Lis2Scanner
        sel = spi["select"]
        scanner = Lis2Scanner(
            machine.SPI(spi.get("id", 1), baudrate=spi.get("baudrate", 10000000), polarity=0, phase=0,
                        sck=machine.Pin(spi["sck"]), mosi=machine.Pin(spi["mosi"]), miso=machine.Pin(spi["miso"])),
            [machine.Pin(p, machine.Pin.OUT, value=0) for p in sel["address"]],
            [machine.Pin(p, machine.Pin.OUT, value=1) for p in sel["enable"]],
            [(s[0], s[1]) for s in spi["sensors"]], spi.get("odr_hz", 100))
    elif bus:
        # three-axis I2C magnetometers behind TCA9548A muxes (the amr2 mat)
        from hw.amr import AmrScanner
        i2c = machine.I2C(bus.get("id", 0), scl=machine.Pin(bus["scl"]), sda=machine.Pin(bus["sda"]),
                          freq=bus.get("freq", 400000))
        scanner = AmrScanner(i2c, [(s[0], s[1]) for s in bus["sensors"]], bus.get("odr_hz", 100))
    else:
        # (the ADC-multiplexed Hall mats were retired: hardware/retired.md)
        raise ValueError("board wiring has no \"spi\" or \"i2c\" sensors: this firmware reads "
                         "three-axis magnetometers only")

    strip = None
    led = w.get("led")
    if led and led.get("count", 0) > 0:
        import neopixel
        strip = Strip(neopixel.NeoPixel(machine.Pin(led["pin"], machine.Pin.OUT), led["count"]))

    buzzer = None
    bz = w.get("buzzer")
    if bz and bz.get("pin") is not None:
        buzzer = machine.PWM(machine.Pin(bz["pin"]), freq=1000, duty_u16=0)

    buttons = []
    for i, b in enumerate(w.get("buttons", [])):
        if isinstance(b, dict):
            name, pin = b.get("name", "b%d" % i), b["pin"]
        else:
            name, pin = "b%d" % i, b
        buttons.append((name, machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)))

    if port is None:
        ser = w.get("serial") or {}
        base = ser.get("baud", 115200)
        txbuf = ser.get("txbuf", 2048)
        port = StdioPort(clock=clock, baud=base, fifo=ser.get("fifo", 128), txbuf=txbuf,
                         set_line=_repl_uart(ser.get("uart", 0), base, txbuf) if hasattr(machine, "UART") else None)

    def idle(ms):
        if ms > 0:
            port.wait(ms)

    period = [1000]

    def wdt_factory(timeout_ms):
        period[0] = max(50, timeout_ms // 3)
        return machine.WDT(timeout=timeout_ms)

    def wdt_park(wdt):
        # Keep the (unstoppable) watchdog fed while the REPL has the board
        # after Ctrl-C. A soft reset stops this timer: use maintenance mode
        # for deploys (docs/runtime.md).
        t = machine.Timer(0)
        t.init(period=period[0], mode=machine.Timer.PERIODIC, callback=lambda _t: wdt.feed())

    return hw.Board(clock, scanner, port, strip=strip, buzzer=buzzer, buttons=buttons,
                    idle=idle, wdt_factory=wdt_factory, wdt_park=wdt_park,
                    reset_cause=hw.cause_name(machine.reset_cause()),
                    reset=machine.reset, fs_root="", name=board_def.get("name", "esp32"),
                    tx_budget=w.get("tx_budget", 1024), listener=wifi_listener())


def _repl_uart(n, base, txbuf):
    """set_line(baud) for the REPL's UART n: the UART object is built when
    first used (the REPL keeps its UART until then) with a driver TX ring
    of txbuf bytes, then re-initialised at each new speed. Returns the UART
    to write the link to, or None back at the base speed (stdout again)."""
    u = []

    def set_line(baud):
        if not u:
            u.append(machine.UART(n, baudrate=baud, txbuf=txbuf))
        else:
            u[0].init(baudrate=baud)
        return None if baud == base else u[0]
    return set_line


def set_cpu(hz):
    """The CPU clock, where the port can set it (machine.freq); a chip that
    refuses the figure keeps its own. Returns the clock it runs at, or None."""
    f = getattr(machine, "freq", None)
    if f is None:
        return None
    try:
        if f() != hz:
            f(hz)
    except (ValueError, OSError):
        pass
    return f()


KEY_CHARS = "abcdefghjkmnpqrstuvwxyz23456789"    # no 0/o, 1/l/i: read off a screen, typed on a phone
KEY_LEN = 14                                    # 14 of 31 symbols: 69 bits


def ap_key(cfg, path):
    """The access point's WPA2 key. An access point is open only when its
    wifi.json says so by name ("open": true); without a key, one is made
    from the board's random source at this first start and kept in
    wifi.json (`bakumat wifi show --reveal` shows it)."""
    key = cfg.get("key") or ""
    if key or cfg.get("mode") == "sta" or cfg.get("open") is True:
        return key
    try:
        from os import urandom
    except ImportError:  # pragma: no cover - ports without os.urandom
        urandom = None
    out = []
    while len(out) < KEY_LEN:
        if urandom is not None:
            b = urandom(1)[0]
        else:  # pragma: no cover
            import random
            b = random.getrandbits(8)
        if b < 248:                 # 248 = 8 x 31: no bias
            out.append(KEY_CHARS[b % 31])
    key = "".join(out)
    cfg["key"] = key
    from store import safe
    try:
        safe.write_json(path, cfg)
    except OSError:
        pass        # used all the same; made again at the next start
    return key


def wifi_listener(path="wifi.json"):
    """The phone page's listening socket (port 80), or None when the host
    wrote no wifi.json (docs/table-play.md, "Wi-Fi"):
        {"mode": "ap", "ssid": "BakuMat", "key": "8+ chars or empty"}
        {"mode": "sta", "ssid": "home", "key": "..."}
    AP: the board is the access point (phones join it, page at
    http://192.168.4.1/). STA: the board joins a network (connection goes on
    in the background; the socket serves once it is up). Nothing here
    waits: the scan loop starts at once."""
    import json
    try:
        f = open(path)
    except OSError:
        return None
    try:
        cfg = json.load(f)
    finally:
        f.close()
    import network
    import socket
    ssid = cfg.get("ssid") or "BakuMat"
    key = ap_key(cfg, path)
    if cfg.get("mode") == "sta":
        wl = network.WLAN(network.STA_IF)
        wl.active(True)
        wl.connect(ssid, key)
    else:
        wl = network.WLAN(network.AP_IF)
        wl.active(True)
        if key:
            wl.config(ssid=ssid, key=key, security=network.AUTH_WPA2_PSK, max_clients=4)
        else:
            wl.config(ssid=ssid, security=network.AUTH_OPEN, max_clients=4)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(socket.getaddrinfo("0.0.0.0", 80)[0][-1])
    s.listen(4)
    return s
