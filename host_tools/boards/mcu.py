"""Pin facts of the microcontrollers a BakuMat board folder may name, and the
wiring rules checked against them (tests/host/test_boards_pins.py and
`python -m host_tools.boards.hwdocs --check`).

Facts come from the Espressif datasheets and the DevKit user guides:
ESP32 (ESP32-WROOM-32E on ESP32-DevKitC V4) and ESP32-S3 (ESP32-S3-WROOM-1
on ESP32-S3-DevKitC-1). Only pins that reach the DevKit's headers are
"exposed"; the rest cannot be wired on a mat.
"""

# One entry per "mcu" value of wiring.json.
MCUS: dict = {
    "esp32": {
        "title": "ESP32 (ESP32-WROOM-32E module, ESP32-DevKitC V4)",
        "arch": "xtensawin",
        # The DevKitC's two 1x19 headers, pin 1 first (DevKitC V4 user guide).
        # A number is that GPIO; a string is a power/control pin.
        "headers": {
            "J2": ["3V3", "EN", 36, 39, 34, 35, 32, 33, 25, 26, 27, 14, 12, "GND", 13, 9, 10, 11, "5V"],
            "J3": ["GND", 23, 22, 1, 3, 21, "GND", 19, 18, 5, 17, 16, 4, 0, 2, 15, 8, 7, 6],
        },
        # GPIO -> ADC1 channel (ADC2 stops working while Wi-Fi runs)
        "adc1": {36: 0, 37: 1, 38: 2, 39: 3, 32: 4, 33: 5, 34: 6, 35: 7},
        "strapping": {0, 2, 5, 12, 15},
        "flash": {6, 7, 8, 9, 10, 11},
        # other pins a mat must leave alone, with the reason
        "reserved": {1: "UART0 TX (REPL / USB bridge)", 3: "UART0 RX (REPL / USB bridge)"},
        "input_only": {34, 35, 36, 37, 38, 39},
        # pins without internal pull-up/down resistors
        "no_pull": {34, 35, 36, 37, 38, 39},
    },
    "esp32s3": {
        "title": "ESP32-S3 (ESP32-S3-WROOM-1 module, ESP32-S3-DevKitC-1)",
        "arch": "xtensawin",
        # The DevKitC-1's two 1x22 headers, pin 1 first (DevKitC-1 user guide).
        "headers": {
            "J1": ["3V3", "3V3", "RST", 4, 5, 6, 7, 15, 16, 17, 18, 8, 3, 46, 9, 10, 11, 12, 13, 14, "5V", "GND"],
            "J3": ["GND", 43, 44, 1, 2, 42, 41, 40, 39, 38, 37, 36, 35, 0, 45, 48, 47, 21, 20, 19, "GND", "GND"],
        },
        "adc1": {g: g - 1 for g in range(1, 11)},
        "strapping": {0, 3, 45, 46},
        # 26-32 quad SPI flash/PSRAM; 33-37 the octal PSRAM of N8R8/N16R8 modules
        "flash": set(range(26, 38)),
        "reserved": {19: "USB D- (native USB)", 20: "USB D+ (native USB)",
                     43: "UART0 TX (USB-UART bridge)", 44: "UART0 RX (USB-UART bridge)",
                     38: "on-board RGB LED (DevKitC-1 v1.1)", 48: "on-board RGB LED (DevKitC-1 v1.0)"},
        "input_only": set(),
        "no_pull": set(),
    },
}


for _m in MCUS.values():
    # GPIOs that reach the DevKit's headers: the only ones a mat can wire
    _m["exposed"] = set(p for h in _m["headers"].values() for p in h if type(p) is int)


def mcu(name):
    if name not in MCUS:
        raise KeyError("unknown mcu %r (known: %s)" % (name, ", ".join(sorted(MCUS))))
    return MCUS[name]


def wiring_pins(wiring):
    """Every (pin, role) the wiring uses, in file order."""
    out = []
    for i, p in enumerate(wiring.get("adc_pins", [])):
        out.append((p, "adc_pins[%d]" % i))
    for i, p in enumerate(wiring.get("mux_select", [])):
        out.append((p, "mux_select[%d]" % i))
    bus = wiring.get("i2c")
    if bus is not None:
        out.append((bus.get("sda"), "i2c.sda"))
        out.append((bus.get("scl"), "i2c.scl"))
    spi = wiring.get("spi")
    if spi is not None:
        for k in ("sck", "mosi", "miso"):
            out.append((spi.get(k), "spi.%s" % k))
        sel = spi.get("select") or {}
        for k in ("address", "enable"):
            for i, p in enumerate(sel.get(k, [])):
                out.append((p, "spi.select.%s[%d]" % (k, i)))
    led = wiring.get("led")
    if led is not None:
        out.append((led.get("pin"), "led.pin"))
    bz = wiring.get("buzzer")
    if bz is not None:
        out.append((bz.get("pin"), "buzzer.pin"))
    for i, b in enumerate(wiring.get("buttons", [])):
        out.append((b.get("pin"), "buttons[%d].pin (%s)" % (i, b.get("name", "?"))))
    return out


def check_pins(wiring):
    """Problems with the pins of a wiring dict, as readable strings ([] = fine)."""
    problems = []
    name = wiring.get("mcu")
    if name not in MCUS:
        return ["mcu: unknown %r (known: %s)" % (name, ", ".join(sorted(MCUS)))]
    m = MCUS[name]
    seen = {}
    outputs = set(wiring.get("mux_select", []))
    if wiring.get("i2c"):
        # open-drain lines the controller drives low
        outputs.update((wiring["i2c"].get("sda"), wiring["i2c"].get("scl")))
    if wiring.get("spi"):
        sp = wiring["spi"]
        outputs.update((sp.get("sck"), sp.get("mosi")))
        sel = sp.get("select") or {}
        outputs.update(sel.get("address", []) + sel.get("enable", []))
    if wiring.get("led"):
        outputs.add(wiring["led"].get("pin"))
    if wiring.get("buzzer"):
        outputs.add(wiring["buzzer"].get("pin"))
    for pin, role in wiring_pins(wiring):
        if type(pin) is not int:
            problems.append("%s: pin must be a GPIO number, got %r" % (role, pin))
            continue
        if pin in seen:
            problems.append("%s: GPIO%d is already used by %s" % (role, pin, seen[pin]))
        seen[pin] = role
        if pin not in m["exposed"]:
            problems.append("%s: GPIO%d does not exist on the %s headers" % (role, pin, m["title"]))
            continue
        if pin in m["flash"]:
            problems.append("%s: GPIO%d is wired to the module's flash/PSRAM" % (role, pin))
        if pin in m["strapping"]:
            problems.append("%s: GPIO%d is a strapping pin (boot mode); keep it free" % (role, pin))
        if pin in m["reserved"]:
            problems.append("%s: GPIO%d is reserved: %s" % (role, pin, m["reserved"][pin]))
        if pin in outputs and pin in m["input_only"]:
            problems.append("%s: GPIO%d is input-only and cannot drive an output" % (role, pin))
    for i, p in enumerate(wiring.get("adc_pins", [])):
        if type(p) is int and p not in m["adc1"]:
            problems.append("adc_pins[%d]: GPIO%d is not an ADC1 input (ADC2 is unusable with Wi-Fi)" % (i, p))
    for i, b in enumerate(wiring.get("buttons", [])):
        p = b.get("pin")
        if p in m["no_pull"]:
            problems.append("buttons[%d]: GPIO%d has no internal pull-up (the firmware uses PULL_UP)" % (i, p))
    return problems
