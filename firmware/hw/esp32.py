"""Builds the hardware of an ESP32 BakuMat from the board definition (the
merged mat + wiring dict that the host deploys as board.json). The only
module that constructs machine/neopixel objects for the real board."""
import machine

import hw
from hw.mux import MuxScanner
from hw.strip import Strip
from hw.stdio import StdioPort


def build(board_def, clock=None, port=None):
    """clock: the `time` module on the board; port: the serial link port
    (StdioPort on the board; tests pass a fake clock and port)."""
    if clock is None:
        import time as clock
    w = hw.wiring_of(board_def)
    bus = w.get("i2c")
    if bus:
        # three-axis I2C magnetometers behind TCA9548A muxes (the amr2 mat)
        from hw.amr import AmrScanner
        i2c = machine.I2C(bus.get("id", 0), scl=machine.Pin(bus["scl"]), sda=machine.Pin(bus["sda"]),
                          freq=bus.get("freq", 400000))
        scanner = AmrScanner(i2c, [(s[0], s[1]) for s in bus["sensors"]], bus.get("odr_hz", 100))
    else:
        transfer = board_def.get("sensor", {})
        shift = hw.adc_shift(transfer.get("max_counts", 4095))
        adcs = []
        for p in w["adc_pins"]:
            adc = machine.ADC(machine.Pin(p), atten=machine.ADC.ATTN_11DB)
            adcs.append(adc)
        selects = [machine.Pin(p, machine.Pin.OUT, value=0) for p in w.get("mux_select", [])]
        channels = [(c[0], c[1]) for c in w["channels"]]
        scanner = MuxScanner(adcs, selects, channels, shift)

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
        port = StdioPort()

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
                    tx_budget=w.get("tx_budget", 256), listener=wifi_listener())


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
    key = cfg.get("key") or ""
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
