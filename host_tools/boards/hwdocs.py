"""Hardware documents generated from the board definition, so they can never
disagree with it: for each board folder boards/<board>/ (wiring.json merged
with its mat by host_tools.boards)

    hardware/<board>/bom.csv       bill of materials (grouped, with quantities)
    hardware/<board>/netlist.net   KiCad netlist (Pcbnew: File > Import > Netlist)
    hardware/<board>/layout.svg    mat layout: zones, sensors, LEDs, buttons
    hardware/<board>/power.md      5 V current budget at the LED brightness cap
    hardware/<board>/i2c.md        (I2C boards) the bus: addresses, mux channels,
                                   pull-ups, speed, scan time per frame
    boards/<board>/pins.csv        MicroPython board pin names (Pin.board.NAME)

A board is either the ADC wiring (Hall sensors behind CD74HC4067 muxes) or
the I2C wiring (three-axis magnetometers behind TCA9548A muxes, the amr2
mat): `is_i2c(board)`.

    python -m host_tools.boards.hwdocs            # check: exit 1 if a file is stale
    python -m host_tools.boards.hwdocs --write    # regenerate them

The circuit itself (which parts, how they connect) is described in
hardware/README.md; this module is that description in code. Part numbers
and datasheet currents come from hardware/parts.json.
"""
import csv
import io
import json
import os
import sys
import uuid

from host_tools import boards
from host_tools.boards import mcu
from host_tools.fwpath import REPO_DIR

HARDWARE_DIR = os.path.join(REPO_DIR, "hardware")
PARTS_PATH = os.path.join(HARDWARE_DIR, "parts.json")
_UUID_NS = uuid.UUID("6f1c3e0a-7d1b-4e8e-9a51-3b5d0c2e9f41")  # fixed: stable tstamps

# Colours of the six mux slots in the layout drawing (more muxes reuse them).
_SLOT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")


def load_parts():
    with open(PARTS_PATH, encoding="utf-8") as f:
        return json.load(f)


def board_names():
    """Board folders (the bare mats have no wiring, so no hardware)."""
    return [n for n in boards.names() if "wiring" in boards.load(n)]


# ---------------------------------------------------------------- geometry

def zone_rows(board):
    """zone id -> row index (rows ordered by y)."""
    ys = sorted(set(z["y"] for z in board["zones"]))
    return {z["id"]: ys.index(z["y"]) for z in board["zones"]}


def led_positions(board):
    """[(x_mm, y_mm, zone, side)] indexed by LED chain position. wiring.led
    "zones" lists each zone's LED indices; the j-th LED of a zone sits at
    the middle of side led.sides[j] (top, right, bottom, left), 1.5 mm
    outside the zone's edge, where a card on the zone does not cover it."""
    led = board["wiring"]["led"]
    sides = led.get("sides", ["top", "right", "bottom", "left"])
    out = [None] * led["count"]
    for z, idx in zip(board["zones"], led.get("zones", [])):
        cx, cy = z["x"] + z["w"] / 2.0, z["y"] + z["h"] / 2.0
        where = {"top": (cx, z["y"] - 1.5), "right": (z["x"] + z["w"] + 1.5, cy),
                 "bottom": (cx, z["y"] + z["h"] + 1.5), "left": (z["x"] - 1.5, cy)}
        for j, i in enumerate(idx):
            x, y = where[sides[j % len(sides)]]
            out[i] = (x, y, z["id"], sides[j % len(sides)])
    for e in led.get("edge", []):
        # status LEDs at a player's edge, beside their buttons
        out[e["led"]] = (e["x"], e["y"], None, "player %d edge" % e["player"])
    return out


def check_leds(board):
    """Problems with wiring.led's zone map ([] = fine)."""
    led = board["wiring"]["led"]
    problems = []
    zl = led.get("zones")
    if type(zl) is not list or len(zl) != len(board["zones"]):
        return ["led.zones: expected one list of LED indices per zone (%d zones)" % len(board["zones"])]
    seen = {}
    for z, idx in enumerate(zl):
        if len(idx) > len(led.get("sides", [])):
            problems.append("led.zones[%d]: %d LEDs but led.sides names only %d positions"
                            % (z, len(idx), len(led.get("sides", []))))
        for i in idx:
            if type(i) is not int or not 0 <= i < led["count"]:
                problems.append("led.zones[%d]: LED index %r outside 0..%d" % (z, i, led["count"] - 1))
            elif i in seen:
                problems.append("led.zones[%d]: LED %d already belongs to zone %d" % (z, i, seen[i]))
            else:
                seen[i] = z
    for k, e in enumerate(led.get("edge", [])):
        i = e.get("led")
        if type(i) is not int or not 0 <= i < led["count"]:
            problems.append("led.edge[%d]: LED index %r outside 0..%d" % (k, i, led["count"] - 1))
        elif i in seen:
            problems.append("led.edge[%d]: LED %d is already used" % (k, i))
        else:
            seen[i] = "edge"
    missing = [i for i in range(led["count"]) if i not in seen]
    if missing:
        problems.append("led: LEDs %s belong to no zone and no player edge" % missing)
    return problems


# ---------------------------------------------------------------- the circuit

class Comp:
    def __init__(self, ref, part, pins, value=None, part_info=None):
        self.ref = ref
        self.part = part          # key into parts.json (or "devkit")
        self.pins = pins          # {pin number (str): net name}
        self.value = value
        self.info = part_info


def _ref_key(ref):
    i = len(ref)
    while i > 0 and ref[i - 1].isdigit():
        i -= 1
    return (ref[:i], int(ref[i:] or 0))


class _Builder:
    def __init__(self, parts):
        self.parts = parts
        self.comps = []
        self.count = {}

    def ref(self, prefix):
        n = self.count.get(prefix, 0) + 1
        self.count[prefix] = n
        return "%s%d" % (prefix, n)

    def add(self, prefix, part, pins, value=None):
        info = self.parts["parts"][part]
        c = Comp(self.ref(prefix), part, dict((str(k), v) for k, v in pins.items()),
                 value or info["mpn"], info)
        self.comps.append(c)
        return c

    def two(self, prefix, part, a, b):
        return self.add(prefix, part, {1: a, 2: b})


def is_i2c(board):
    """True for a board whose sensors are on I2C (wiring "i2c")."""
    return "i2c" in board["wiring"]


def is_spi(board):
    """True for a board whose sensors are on SPI (wiring "spi", minor 1)."""
    return "spi" in board["wiring"]


def gpio_nets(wiring):
    """GPIO number -> the net the mat connects it to."""
    nets = {}
    for i, p in enumerate(wiring.get("adc_pins", [])):
        nets[p] = "ADC%d" % i
    for i, p in enumerate(wiring.get("mux_select", [])):
        nets[p] = "MUX_S%d" % i
    bus = wiring.get("i2c")
    if bus:
        nets[bus["sda"]] = "I2C_SDA"
        nets[bus["scl"]] = "I2C_SCL"
    spi = wiring.get("spi")
    if spi:
        for k in ("sck", "mosi", "miso"):
            nets[spi[k]] = "SPI_%s" % k.upper()
        for i, p in enumerate(spi["select"]["address"]):
            nets[p] = "DEC_A%d" % i
        for i, p in enumerate(spi["select"]["enable"]):
            nets[p] = "DEC%d_EN" % i
    nets[wiring["led"]["pin"]] = "LED_GPIO"
    nets[wiring["buzzer"]["pin"]] = "BUZZ_GPIO"
    for b in wiring.get("buttons", []):
        nets[b["pin"]] = "BTN_%s" % b["name"].upper()
    return nets


def _hall_sensing(bld, board):
    """Hall sensors behind CD74HC4067 muxes into the ADC pins."""
    w = board["wiring"]
    rows = zone_rows(board)
    n_rows = len(set(rows.values()))
    # Hall sensors, one 100 nF each, powered from their row's LDO
    for s in board["sensors"]:
        rail = "VS_ROW%d" % rows[s["zone"]]
        bld.add("H", "hall", {1: rail, 2: "CH%02d" % s["ch"], 3: "GND"})
    for s in board["sensors"]:
        bld.two("C", "c100n", "VS_ROW%d" % rows[s["zone"]], "GND")

    # Multiplexers: mux k's COM goes through 100 ohm to ADC pin k (1 nF there)
    by_input = {}
    for ch, (a, inp) in enumerate(w["channels"]):
        by_input[(a, inp)] = "CH%02d" % ch
    # CD74HC4067 SOIC-24: 1 COM, 9..2 = I0..I7, 23..16 = I8..I15, 10 S0, 11 S1,
    # 14 S2, 13 S3, 15 /E, 12 GND, 24 VCC
    in_pins = [9, 8, 7, 6, 5, 4, 3, 2, 23, 22, 21, 20, 19, 18, 17, 16]
    sel_pins = [10, 11, 14, 13]
    n_sel = len(w["mux_select"])
    for k in range(len(w["adc_pins"])):
        pins = {1: "MUX%d_COM" % k, 15: "GND", 12: "GND", 24: "+3V3"}
        for i, pin in enumerate(in_pins):
            pins[pin] = by_input.get((k, i), "GND")   # unused inputs tied low
        for j, pin in enumerate(sel_pins):
            pins[pin] = "MUX_S%d" % j if j < n_sel else "GND"
        bld.add("U", "mux", pins)
    for k in range(len(w["adc_pins"])):
        bld.two("C", "c100n", "+3V3", "GND")
        bld.two("R", "r100", "MUX%d_COM" % k, "ADC%d" % k)
        bld.two("C", "c1n", "ADC%d" % k, "GND")

    # Sensor rails: one LDO per zone row
    for r in range(n_rows):
        bld.add("U", "ldo", {1: "GND", 2: "VS_ROW%d" % r, 3: "+5V"})
        bld.two("C", "c10u", "+5V", "GND")
        bld.two("C", "c10u", "VS_ROW%d" % r, "GND")


# TCA9548A TSSOP-24 (TI SCPS207H table 4-1; hardware/parts.json): 1 A0,
# 2 A1, 3 /RESET, 4/5 SD0/SC0, 6/7 SD1/SC1, 8/9 SD2/SC2, 10/11 SD3/SC3,
# 12 GND, 13/14 SD4/SC4, 15/16 SD5/SC5, 17/18 SD6/SC6, 19/20 SD7/SC7, 21 A2,
# 22 SCL, 23 SDA, 24 VCC
TCA_SD = (4, 6, 8, 10, 13, 15, 17, 19)
TCA_SC = (5, 7, 9, 11, 14, 16, 18, 20)
TCA_A = (1, 2, 21)


def i2c_sites(board):
    """[(sensor index, mux address, mux channel, zone, channels)] of an I2C
    board, in the wiring's sensor order."""
    bus = board["wiring"]["i2c"]
    out = []
    for k, (m, c) in enumerate(bus["sensors"]):
        chans = board["sensors"][3 * k:3 * k + 3]
        out.append((k, m, c, chans[0]["zone"], [x["ch"] for x in chans]))
    return out


def _i2c_sensing(bld, board):
    """Three-axis magnetometers (fixed address 0x30), one per TCA9548A
    channel, on a 3.3 V sensor rail of their own (an LDO from 5 V: Wi-Fi
    bursts on the DevKit's 3.3 V stay off the sensors). 4.7 k pull-ups on
    the trunk (to the ESP32's 3.3 V) and on every mux channel (to the rail);
    a channel switched on puts its pair in parallel with the trunk's."""
    muxes = sorted(set(m for _k, m, _c, _z, _ch in i2c_sites(board)))
    bld.add("U", "ldo", {1: "GND", 2: "VS_I2C", 3: "+5V"})
    bld.two("C", "c10u", "+5V", "GND")
    bld.two("C", "c10u", "VS_I2C", "GND")
    bld.two("R", "r4k7", "+3V3", "I2C_SDA")
    bld.two("R", "r4k7", "+3V3", "I2C_SCL")
    for m in muxes:
        k = m - 0x70
        pins = {3: "MUX%d_RST" % k, 12: "GND", 22: "I2C_SCL", 23: "I2C_SDA", 24: "VS_I2C"}
        for bit, pin in enumerate(TCA_A):
            pins[pin] = "VS_I2C" if (k >> bit) & 1 else "GND"
        for c in range(8):
            pins[TCA_SD[c]] = "M%d_SD%d" % (k, c)
            pins[TCA_SC[c]] = "M%d_SC%d" % (k, c)
        bld.add("U", "i2cmux", pins)
        bld.two("C", "c100n", "VS_I2C", "GND")
        bld.two("R", "r10k", "VS_I2C", "MUX%d_RST" % k)
    for _k, m, c, _z, _ch in i2c_sites(board):
        k = m - 0x70
        # ball names, not numbers: the WLP footprint is still to draw
        bld.add("H", "amr", {"VDD": "VS_I2C", "GND": "GND", "SDA": "M%d_SD%d" % (k, c), "SCL": "M%d_SC%d" % (k, c)})
    for _k, m, c, _z, _ch in i2c_sites(board):
        bld.two("C", "c100n", "VS_I2C", "GND")
        bld.two("C", "c1u", "VS_I2C", "GND")
    for m in muxes:
        k = m - 0x70
        for c in range(8):
            # every channel's pair pulled up; an unused one is still a line of the mux
            bld.two("R", "r4k7", "VS_I2C", "M%d_SD%d" % (k, c))
            bld.two("R", "r4k7", "VS_I2C", "M%d_SC%d" % (k, c))


# 74HC154 24-pin (hardware/parts.json "decoder", its pinout still to check
# against the datasheet): 1-11 Y0-Y10, 12 GND, 13-17 Y11-Y15, 18 /E0,
# 19 /E1, 20 A3, 21 A2, 22 A1, 23 A0, 24 VCC
DEC_Y = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17)
DEC_A = (23, 22, 21, 20)


def spi_sites(board):
    """[(sensor index, decoder, output, zone, channels)] of an SPI board, in
    the wiring's sensor order."""
    out = []
    for k, (d, o) in enumerate(board["wiring"]["spi"]["sensors"]):
        chans = board["sensors"][3 * k:3 * k + 3]
        out.append((k, d, o, chans[0]["zone"], [x["ch"] for x in chans]))
    return out


def _spi_sensing(bld, board):
    """Three-axis magnetometers (LIS2MDL) on one 4-wire SPI bus, each chip
    select an output of a 74HC154 (active low, as the part's CS), the
    decoders' address lines shared and each decoder's /E0 driven by its own
    GPIO (/E1 tied low). A 10 k pull-up on every decoder enable keeps every
    sensor deselected while the ESP32 boots. One 3.3 V sensor rail of its
    own (an LDO from 5 V: Wi-Fi bursts stay off the sensors), the decoders
    on it too."""
    spi = board["wiring"]["spi"]
    n_dec = len(spi["select"]["enable"])
    bld.add("U", "ldo", {1: "GND", 2: "VS_SPI", 3: "+5V"})
    bld.two("C", "c10u", "+5V", "GND")
    bld.two("C", "c10u", "VS_SPI", "GND")
    for d in range(n_dec):
        pins = {12: "GND", 18: "DEC%d_EN" % d, 19: "GND", 24: "VS_SPI"}
        for b, pin in enumerate(DEC_A):
            pins[pin] = "DEC_A%d" % b
        for o, pin in enumerate(DEC_Y):
            pins[pin] = "CS%d_%d" % (d, o)
        bld.add("U", "decoder", pins)
        bld.two("C", "c100n", "VS_SPI", "GND")
        bld.two("R", "r10k", "VS_SPI", "DEC%d_EN" % d)
    for _k, d, o, _z, _ch in spi_sites(board):
        # pin names, not numbers: the LGA-12 footprint is still to draw
        bld.add("H", "lis2mdl", {"VDD": "VS_SPI", "VDD_IO": "VS_SPI", "GND": "GND", "SCL/SPC": "SPI_SCK",
                                 "SDA/SDI": "SPI_MOSI", "SDO": "SPI_MISO", "CS": "CS%d_%d" % (d, o)})
    for _k, d, o, _z, _ch in spi_sites(board):
        bld.two("C", "c100n", "VS_SPI", "GND")
        bld.two("C", "c1u", "VS_SPI", "GND")


def build(board, parts=None):
    """The mat circuit for a board definition: a list of Comp."""
    parts = parts or load_parts()
    w = board["wiring"]
    m = mcu.mcu(w["mcu"])
    bld = _Builder(parts)
    if is_spi(board):
        _spi_sensing(bld, board)
    elif is_i2c(board):
        _i2c_sensing(bld, board)
    else:
        _hall_sensing(bld, board)

    # LED chain: 3.3 V GPIO -> AHCT buffer at 5 V -> 330 ohm -> LED 1 DIN
    led = w["led"]
    bld.add("U", "shifter", {1: "GND", 2: "LED_GPIO", 3: "GND", 4: "LED_BUF", 5: "+5V"})
    bld.two("C", "c100n", "+5V", "GND")
    bld.two("R", "r330", "LED_BUF", "LED_D0")
    for i in range(led["count"]):
        pins = {2: "GND", 3: "LED_D%d" % i, 4: "+5V"}
        if i + 1 < led["count"]:
            pins[1] = "LED_D%d" % (i + 1)
        bld.add("LED", "led", pins)
    for i in range(led["count"]):
        bld.two("C", "c100n", "+5V", "GND")
    bld.two("C", "bulk", "+5V", "GND")

    # Buzzer: low-side N-MOSFET, flyback diode, gate resistor and pull-down
    bld.two("R", "r1k", "BUZZ_GPIO", "BUZZ_G")
    bld.two("R", "r100k", "BUZZ_G", "GND")
    bld.add("Q", "mosfet", {1: "BUZZ_G", 2: "GND", 3: "BUZZ_DRV"})
    bld.two("BZ", "buzzer", "+5V", "BUZZ_DRV")
    bld.add("D", "flyback", {1: "+5V", 2: "BUZZ_DRV"})

    # Player buttons: switch to GND, 10 k pull-up, 100 nF, ESD diode at the
    # switch, 100 ohm series into the GPIO
    for b in w.get("buttons", []):
        sw = "BTN_%s_SW" % b["name"].upper()
        gp = "BTN_%s" % b["name"].upper()
        bld.two("SW", "button", sw, "GND")
        bld.two("R", "r10k", "+3V3", sw)
        bld.two("C", "c100n", sw, "GND")
        bld.add("D", "esd_button", {1: sw, 2: "GND"})
        bld.two("R", "r100", sw, gp)

    # Power in: USB-C (sink), polyfuse, TVS; Schottky into the DevKit 5V pin
    usb = {"A4": "VBUS", "A9": "VBUS", "B4": "VBUS", "B9": "VBUS",
           "A1": "GND", "A12": "GND", "B1": "GND", "B12": "GND", "S1": "GND",
           "A5": "CC1", "B5": "CC2"}
    bld.add("J", "usbc", usb)
    bld.two("R", "r5k1", "CC1", "GND")
    bld.two("R", "r5k1", "CC2", "GND")
    bld.two("F", "polyfuse", "VBUS", "+5V")
    bld.add("D", "tvs_vbus", {1: "+5V", 2: "GND"})
    bld.add("D", "schottky", {1: "+5V_DEVKIT", 2: "+5V"})

    # DevKit sockets, pin for pin as the DevKit's headers
    nets = gpio_nets(w)
    power = {"3V3": "+3V3", "GND": "GND", "5V": "+5V_DEVKIT"}
    for hname in sorted(m["headers"]):
        header = m["headers"][hname]
        pins = {}
        for i, p in enumerate(header):
            net = nets.get(p) if type(p) is int else power.get(p)
            if net:
                pins[i + 1] = net
        part = "socket%d" % len(header)
        c = bld.add("J", part, pins)
        c.value = "%s (DevKit %s)" % (parts["parts"][part]["mpn"], hname)
    return bld.comps


# ---------------------------------------------------------------- outputs

def _ranges(refs):
    """H1, H2, H3, H5 -> 'H1-H3 H5'."""
    refs = sorted(refs, key=_ref_key)
    out = []
    i = 0
    while i < len(refs):
        p, n = _ref_key(refs[i])
        j = i
        while j + 1 < len(refs) and _ref_key(refs[j + 1]) == (p, n + (j + 1 - i)):
            j += 1
        out.append(refs[i] if j == i else "%s-%s" % (refs[i], refs[j]))
        i = j + 1
    return " ".join(out)


def bom_csv(board, comps, parts=None):
    parts = parts or load_parts()
    groups = {}
    order = []
    for c in comps:
        key = (c.part, c.info["mpn"])
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(c.ref)
    buf = io.StringIO()
    wr = csv.writer(buf, lineterminator="\n")
    wr.writerow(["item", "qty", "refs", "part", "mpn", "manufacturer", "footprint", "description",
                 "unit_price", "price_from"])
    for i, key in enumerate(order):
        info = parts["parts"][key[0]]
        refs = groups[key]
        wr.writerow([i + 1, len(refs), _ranges(refs), key[0], info["mpn"], info["manufacturer"],
                     info["footprint"], info["description"]] + price_cells(info, len(refs)))
    dk = parts["devkits"][board["wiring"]["mcu"]]
    wr.writerow([len(order) + 1, 1, "A1", "devkit", dk["mpn"], dk["manufacturer"], "(plugs into the sockets)",
                 dk["description"]] + price_cells(dk, 1))
    return buf.getvalue()


def price_cells(info, qty):
    """The BOM's price columns. A price is given only where parts.json holds
    a sourced one (`price`: {"usd", "qty", "source", "date"}); none does
    yet: nothing here may fetch prices, and an unsourced figure would
    read as a quote. So the cell says "unknown" and where a maker gets the
    price; an estimate the design notes used is named as one."""
    p = info.get("price")
    if type(p) is dict and p.get("usd") is not None and p.get("source"):
        return ["%.2f USD" % p["usd"], "%s, %s, at %s pieces" % (p["source"], p.get("date", "undated"),
                                                                 p.get("qty", "?"))]
    where = "not sourced: quote %s x%d at a distributor (its BOM tool takes this file)" % (info["mpn"], qty)
    est = [u for u in info.get("unchecked", ()) if u.startswith("price")]
    if est:
        where += "; hardware/parts.json's %s is not a quote" % est[0]
    return ["unknown", where]


def _q(s):
    return '"%s"' % str(s).replace("\\", "\\\\").replace('"', '\\"')


def netlist(board, comps):
    """KiCad netlist, format version E (KiCad 6-8), deterministic."""
    name = board["name"]
    lines = ["(export (version %s)" % _q("E"),
             "  (design",
             "    (source %s)" % _q("boards/%s/wiring.json + boards/mats/%s.json" % (name, board["mat"])),
             "    (tool %s))" % _q("bakumat host_tools/boards/hwdocs.py"),
             "  (components"]
    for c in comps:
        ts = str(uuid.uuid5(_UUID_NS, name + "/" + c.ref))
        lines.append("    (comp (ref %s)" % _q(c.ref))
        lines.append("      (value %s)" % _q(c.value))
        lines.append("      (footprint %s)" % _q(c.info["footprint"]))
        lines.append("      (fields (field (name %s) %s) (field (name %s) %s))"
                     % (_q("MPN"), _q(c.info["mpn"]), _q("Manufacturer"), _q(c.info["manufacturer"])))
        lines.append("      (libsource (lib %s) (part %s) (description %s))"
                     % (_q("bakumat"), _q(c.part), _q(c.info["description"])))
        lines.append("      (sheetpath (names %s) (tstamps %s))" % (_q("/"), _q("/")))
        lines.append("      (tstamps %s))" % _q(ts))
    lines.append("  )")
    lines.append("  (nets")
    nets = {}
    for c in comps:
        for pin, net in c.pins.items():
            nets.setdefault(net, []).append((c.ref, pin))

    def pin_key(p):
        return (0, int(p), "") if p.isdigit() else (1, 0, p)
    for code, net in enumerate(sorted(nets), 1):
        nodes = sorted(nets[net], key=lambda rp: (_ref_key(rp[0]), pin_key(rp[1])))
        lines.append("    (net (code %s) (name %s)" % (_q(code), _q(net)))
        for ref, pin in nodes:
            lines.append("      (node (ref %s) (pin %s))" % (_q(ref), _q(pin)))
        lines.append("    )")
    lines.append("  )")
    lines.append(")")
    return "\n".join(lines) + "\n"


def _f(v):
    """A coordinate as short, stable text."""
    s = "%.2f" % v
    s = s.rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def legend_slots(board):
    """[(colour slot, text)]: one line per mux of the layout's legend."""
    w = board["wiring"]
    if is_spi(board):
        spi = w["spi"]
        return [(d, "decoder U%d (74HC154): /E0 GPIO%d, address %s; SPI SCK GPIO%d, MOSI GPIO%d, MISO GPIO%d, %g MHz"
                 % (d + 1, p, ", ".join("A%d=GPIO%d" % (b, a) for b, a in enumerate(spi["select"]["address"])),
                    spi["sck"], spi["mosi"], spi["miso"], spi.get("baudrate", 10000000) / 1e6))
                for d, p in enumerate(spi["select"]["enable"])]
    if is_i2c(board):
        bus = w["i2c"]
        muxes = sorted(set(m for m, _c in bus["sensors"]))
        return [(m - 0x70, "mux 0x%02x (TCA9548A): SDA GPIO%d, SCL GPIO%d, %d kHz"
                 % (m, bus["sda"], bus["scl"], bus.get("freq", 400000) // 1000)) for m in muxes]
    return [(a, "mux U%d: COM to ADC%d = GPIO%d; select %s"
             % (a + 1, a, pin, ", ".join("S%d=GPIO%d" % (j, p) for j, p in enumerate(w["mux_select"]))))
            for a, pin in enumerate(w["adc_pins"])]


def layout_svg(board):
    w = board["wiring"]
    ow, oh = board["outline"]["w"], board["outline"]["h"]
    slots = legend_slots(board)
    legend_h = 12 + 6 * (len(slots) + 2)
    W, H = ow + 20, oh + 20 + legend_h
    o = []
    o.append('<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" viewBox="-10 -10 %s %s" '
             'font-family="sans-serif">' % (_f(W), _f(H), _f(W), _f(H)))
    o.append('<title>BakuMat mat layout: board %s (mat %s), top view, mm</title>' % (_esc(board["name"]), _esc(board["mat"])))
    o.append('<rect x="0" y="0" width="%s" height="%s" fill="#f7f7f2" stroke="#000" stroke-width="0.6"/>' % (_f(ow), _f(oh)))
    rows = zone_rows(board)
    for z in board["zones"]:
        o.append('<rect x="%s" y="%s" width="%s" height="%s" fill="#ffffff" stroke="#555" stroke-width="0.4" '
                 'stroke-dasharray="2,1"><title>zone %d (row %d)</title></rect>'
                 % (_f(z["x"]), _f(z["y"]), _f(z["w"]), _f(z["h"]), z["id"], rows[z["id"]]))
        o.append('<text x="%s" y="%s" font-size="5" fill="#999" text-anchor="middle">zone %d</text>'
                 % (_f(z["x"] + z["w"] / 2.0), _f(z["y"] + z["h"] / 2.0 + 2), z["id"]))
    if is_spi(board):
        for k, d, oo, zone, chs in spi_sites(board):
            s = board["sensors"][chs[0]]
            col = _SLOT_COLOURS[d % len(_SLOT_COLOURS)]
            o.append('<circle cx="%s" cy="%s" r="2.2" fill="%s"><title>sensor %d (channels %s): zone %d, decoder U%d '
                     'output Y%d</title></circle>' % (_f(s["x"]), _f(s["y"]), col, k, ", ".join(map(str, chs)), zone,
                                                      d + 1, oo))
            o.append('<text x="%s" y="%s" font-size="2.6" text-anchor="middle">%d</text>'
                     % (_f(s["x"]), _f(s["y"] + 5.2), k))
    if is_i2c(board):
        for k, m, c, zone, chs in i2c_sites(board):
            s = board["sensors"][chs[0]]
            col = _SLOT_COLOURS[(m - 0x70) % len(_SLOT_COLOURS)]
            o.append('<circle cx="%s" cy="%s" r="2.2" fill="%s"><title>sensor %d (channels %s): zone %d, mux 0x%02x '
                     'channel %d</title></circle>' % (_f(s["x"]), _f(s["y"]), col, k, ", ".join(map(str, chs)), zone,
                                                     m, c))
            o.append('<text x="%s" y="%s" font-size="2.6" text-anchor="middle">%d</text>'
                     % (_f(s["x"]), _f(s["y"] + 5.2), k))
    for s in ([] if is_i2c(board) or is_spi(board) else board["sensors"]):
        a, inp = w["channels"][s["ch"]]
        col = _SLOT_COLOURS[a % len(_SLOT_COLOURS)]
        o.append('<circle cx="%s" cy="%s" r="2.2" fill="%s"><title>ch %d: zone %d, mux U%d input %d, ADC%d '
                 '(GPIO%d)</title></circle>' % (_f(s["x"]), _f(s["y"]), col, s["ch"], s["zone"], a + 1, inp, a,
                                                 w["adc_pins"][a]))
        o.append('<text x="%s" y="%s" font-size="2.6" text-anchor="middle">%d</text>'
                 % (_f(s["x"]), _f(s["y"] + 5.2), s["ch"]))
    for i, pos in enumerate(led_positions(board)):
        if pos is None:
            continue
        x, y, zone, side = pos
        o.append('<rect x="%s" y="%s" width="2" height="2" fill="#ffd700" stroke="#a08000" stroke-width="0.2">'
                 '<title>LED %d: %s</title></rect>'
                 % (_f(x - 1), _f(y - 1), i, side if zone is None else "zone %d %s" % (zone, side)))
    for b in w.get("buttons", []):
        o.append('<rect x="%s" y="%s" width="6" height="6" rx="1" fill="#444"><title>button %s: player %d %s, '
                 'GPIO%d</title></rect>' % (_f(b["x"] - 3), _f(b["y"] - 3), _esc(b["name"]), b["player"],
                                            _esc(b.get("role", "")), b["pin"]))
        o.append('<text x="%s" y="%s" font-size="3">%s</text>' % (_f(b["x"] + 4), _f(b["y"] + 1), _esc(b["name"])))
    # legend
    y = oh + 8
    if is_i2c(board) or is_spi(board):
        what = "%d three-axis magnetometers (dots, sensor number below; %d channels)" % (
            len((w.get("i2c") or w["spi"])["sensors"]), len(board["sensors"]))
    else:
        what = "%d Hall sensors (dots, channel number below)" % len(board["sensors"])
    o.append('<text x="0" y="%s" font-size="4">%s: %s, %d LEDs (yellow), %d buttons</text>'
             % (_f(y), _esc(board["name"]), what, w["led"]["count"], len(w.get("buttons", []))))
    for a, text in slots:
        y += 6
        o.append('<circle cx="2" cy="%s" r="2.2" fill="%s"/>' % (_f(y - 1.3), _SLOT_COLOURS[a % len(_SLOT_COLOURS)]))
        o.append('<text x="7" y="%s" font-size="3.5">%s</text>' % (_f(y), _esc(text)))
    y += 6
    o.append('<text x="0" y="%s" font-size="3.5">LED chain: data GPIO%d, %d LEDs: zone by zone (%s), then %d at '
             'the players&apos; edges; brightness cap %d/255</text>'
             % (_f(y), w["led"]["pin"], w["led"]["count"], _esc(", ".join(w["led"].get("sides", []))),
                len(w["led"].get("edge", [])), w["led"]["max_brightness"]))
    y += 6
    o.append('<text x="0" y="%s" font-size="3.5">buzzer GPIO%d; player 0 sits at the top edge, player 1 at the bottom '
             'edge</text>' % (_f(y), w["buzzer"]["pin"]))
    o.append("</svg>")
    return "\n".join(o) + "\n"


def power_budget(board, parts=None):
    """5 V current budget. Returns (lines, total_ma, problems): lines are
    (item, quantity, ma_each, ma_total); problems are readable strings."""
    parts = (parts or load_parts())["parts"]
    w = board["wiring"]
    led = w["led"]
    p = w.get("power", {})
    cap = led["max_brightness"]
    lp = parts["led"]
    led_each = lp["idle_ma"] + 3 * lp["ma_per_channel"] * cap / 255.0
    if is_spi(board):
        sites = w["spi"]["sensors"]
        sensing = [("LIS2MDL magnetometers (typ ICC, 100 Hz)", len(sites), parts["lis2mdl"]["icc_ma_typ"]),
                   ("74HC154 decoders (max ICC)", len(w["spi"]["select"]["enable"]), parts["decoder"]["icc_ma_max"]),
                   ("sensor LDO quiescent", 1, parts["ldo"]["iq_ma"])]
    elif is_i2c(board):
        sites = w["i2c"]["sensors"]
        sensing = [("MMC5603NJ magnetometers (max ICC)", len(sites), parts["amr"]["icc_ma_max"]),
                   ("TCA9548A I2C muxes", len(set(m for m, _c in sites)), parts["i2cmux"]["icc_ma_max"]),
                   ("sensor LDO quiescent", 1, parts["ldo"]["iq_ma"])]
    else:
        n_rows = len(set(zone_rows(board).values()))
        sensing = [("Hall sensors (max ICC)", len(board["sensors"]), parts["hall"]["icc_ma_max"]),
                   ("sensor LDO quiescent", n_rows, parts["ldo"]["iq_ma"])]
    lines = sensing + [
        ("LEDs, all white at the cap %d/255" % cap, led["count"], led_each),
        ("ESP32 DevKit (Wi-Fi peaks)", 1, p.get("mcu_ma", 0)),
        ("buzzer", 1, parts["buzzer"]["ma"]),
        ("muxes, buffer, pull-ups", 1, p.get("logic_ma", 0)),
    ]
    lines = [(name, q, each, q * each) for name, q, each in lines]
    total = sum(t for _n, _q, _e, t in lines)
    problems = []
    led_total = led["count"] * led_each
    if led_total > led["budget_ma"]:
        problems.append("LEDs at the cap draw %.0f mA, over led.budget_ma %d" % (led_total, led["budget_ma"]))
    if cap < 0 or cap > 255:
        problems.append("led.max_brightness %r outside 0..255" % cap)
    if total > p.get("supply_ma", 0):
        problems.append("total %.0f mA exceeds power.supply_ma %s" % (total, p.get("supply_ma")))
    if p.get("supply_ma", 0) > parts["polyfuse"]["hold_ma"]:
        problems.append("power.supply_ma %s exceeds the polyfuse hold current %d"
                        % (p.get("supply_ma"), parts["polyfuse"]["hold_ma"]))
    return lines, total, problems


def power_md(board, parts=None):
    lines, total, problems = power_budget(board, parts)
    w = board["wiring"]
    out = ["# 5 V current budget: %s" % board["name"], "",
           "Generated by host_tools/boards/hwdocs.py from boards/%s/wiring.json and hardware/parts.json; "
           "worst case (every LED white at the firmware's brightness cap, sensors at max ICC)." % board["name"], "",
           "| item | qty | mA each | mA |", "|---|---:|---:|---:|"]
    for name, q, each, t in lines:
        out.append("| %s | %d | %.2f | %.0f |" % (name, q, each, t))
    out.append("| **total** | | | **%.0f** |" % total)
    out.append("")
    led_line = [x for x in lines if x[0].startswith("LEDs")][0]
    out.append("LED budget: %d LEDs at cap %d/255 = %.0f mA of led.budget_ma %d. Supply budget power.supply_ma = %d mA "
               "(polyfuse hold %d mA)." % (w["led"]["count"], w["led"]["max_brightness"], led_line[3],
                                           w["led"]["budget_ma"], w["power"]["supply_ma"],
                                           load_parts()["parts"]["polyfuse"]["hold_ma"]))
    out.append("")
    out.append("Status: %s" % ("fits" if not problems else "; ".join(problems)))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- the I2C bus

AMR_ADDRESS = 0x30          # MMC5603NJ, fixed
AMR_READ_BYTES = 6          # Xout0..Zout1: the 16-bit mode (firmware/hw/amr.py)
AMR_READ_BYTES_20BIT = 9    # + Xout2..Zout2
BUS_PF = 100                # assumed bus capacitance with one channel on (trunk + a channel): no board to measure
FAST_MODE_RISE_NS = 300     # I2C fast mode (400 kHz): maximum rise time
FAST_PLUS_RISE_NS = 120     # fast mode plus (1 MHz)


def i2c_bits(write_bytes, read_bytes=0):
    """Bus clocks of one transaction with a 7-bit address: START, address and
    write bytes (9 clocks a byte with its ACK), then for a read a repeated
    START, the address and the read bytes, and STOP; a START, repeated
    START or STOP counted as one clock."""
    bits = 1 + 9 * (1 + write_bytes) + 1
    if read_bytes:
        bits += 1 + 9 * (1 + read_bytes)
    return bits


def scan_bits(board, read_bytes=AMR_READ_BYTES):
    """Bus clocks of one frame as firmware/hw/amr.py scans it: per sensor its
    mux channel selected (a one-byte write) and its result read (the
    register address written, then read_bytes); at each change of mux (the
    cyclic order of the wiring, so the first sensor's mux too) the old mux
    switched off first, so that two sensors never share the bus."""
    sites = board["wiring"]["i2c"]["sensors"]
    per_sensor = i2c_bits(1) + i2c_bits(1, read_bytes)
    changes = sum(1 for i in range(len(sites)) if sites[i][0] != sites[i - 1][0])
    return len(sites) * per_sensor + changes * i2c_bits(1), per_sensor, changes


def i2c_md(board, parts=None):
    """hardware/<board>/i2c.md: the bus, its addresses and its timing."""
    parts = (parts or load_parts())["parts"]
    w = board["wiring"]
    bus = w["i2c"]
    freq = bus.get("freq", 400000)
    sites = i2c_sites(board)
    muxes = sorted(set(m for _k, m, _c, _z, _ch in sites))
    pull = bus.get("pullup_ohm", 4700)
    period_ms = 1000.0 / board["rate_hz"]
    out = ["# I2C bus: %s" % board["name"], "",
           "Generated by host_tools/boards/hwdocs.py from boards/%s/wiring.json (mat %s) and hardware/parts.json."
           % (board["name"], board["mat"]), "",
           "## Wiring", "",
           "One bus of the ESP32 (controller %d): SDA GPIO%d, SCL GPIO%d, clock %d kHz (`i2c.freq`). On it: the "
           "%d TCA9548A muxes (%s) and, one behind each mux channel, the %d MMC5603NJ magnetometers, all at the "
           "part's fixed address 0x%02x: the firmware switches on one channel of one mux at a time "
           "(firmware/hw/amr.py), so exactly one 0x%02x answers."
           % (bus.get("id", 0), bus["sda"], bus["scl"], freq // 1000, len(muxes),
              ", ".join("0x%02x" % m for m in muxes), len(sites), AMR_ADDRESS, AMR_ADDRESS), "",
           "| mux | A2 A1 A0 | /RESET |", "|---|---|---|"]
    for m in muxes:
        k = m - 0x70
        out.append("| 0x%02x | %s | 10 k to VS_I2C |" % (m, " ".join("VS" if (k >> b) & 1 else "GND"
                                                                      for b in (2, 1, 0))))
    out += ["", "| sensor | mux | channel (pins SDn / SCn) | zone | at (x, y) mm | board channels x, y, z |",
            "|---:|---|---|---:|---|---|"]
    for k, m, c, zone, chs in sites:
        s = board["sensors"][chs[0]]
        out.append("| %d | 0x%02x | %d (%d / %d) | %d | (%s, %s) | %s |"
                   % (k, m, c, TCA_SD[c], TCA_SC[c], zone, _f(s["x"]), _f(s["y"]), ", ".join(map(str, chs))))
    eff = pull / 2.0
    rise = 0.8473 * eff * BUS_PF * 1e-3
    out += ["", "## Pull-ups", "",
            "%.1f k to 3.3 V on the trunk (SDA, SCL; to the ESP32's 3.3 V) and on both lines of every mux channel "
            "(to the sensor rail VS_I2C, %d pairs, the unused channels too). A channel switched on joins its pair to "
            "the trunk's: %.2f k in all, %.1f mA to pull a line low at 3.3 V (I2C allows 3 mA in fast mode). With "
            "an assumed %d pF on the bus (trunk, four muxes, one channel and its sensor; not measured) the rise time "
            "(0.8473 R C) is about %.0f ns: inside fast mode's %d ns, outside fast mode plus's %d ns, which would "
            "need about %.1f k in all."
            % (pull / 1000.0, 8 * len(muxes), eff / 1000.0, 3.3 / eff * 1000.0, BUS_PF, rise, FAST_MODE_RISE_NS,
               FAST_PLUS_RISE_NS, FAST_PLUS_RISE_NS / (0.8473 * BUS_PF * 1e-3) / 1000.0)]
    bits, per, changes = scan_bits(board)
    bits20, per20, _ = scan_bits(board, AMR_READ_BYTES_20BIT)
    out += ["", "## Scan time per frame", "",
            "Each sensor measures on its own (continuous mode at `i2c.odr_hz` %d Hz), so a frame only fetches the "
            "latest results. Per sensor: select its mux channel (%d clocks) and read %d result bytes (%d clocks); "
            "%d mux changes per frame switch the old mux off first (%d clocks each). Clock cycles on the wire "
            "(START/STOP as one clock each), against the %.0f ms frame at %g Hz:"
            % (bus.get("odr_hz", 100), i2c_bits(1), AMR_READ_BYTES, i2c_bits(1, AMR_READ_BYTES), changes,
               i2c_bits(1), period_ms, board["rate_hz"]), "",
            "| read | clocks per frame | at 400 kHz | at 1 MHz |", "|---|---:|---:|---:|"]
    for name, b in (("16-bit mode, 6 bytes (what the firmware reads)", bits),
                    ("20-bit mode, 9 bytes (for comparison)", bits20)):
        out.append("| %s | %d | %.2f ms (%d %% of the frame) | %.2f ms (%d %%) |"
                   % (name, b, b / 400.0, round(100 * b / 400.0 / period_ms), b / 1000.0,
                      round(100 * b / 1000.0 / period_ms)))
    kmax = parts["i2cmux"].get("checked", {}).get("scl_khz_max")
    out += ["", "The wire time is a lower bound: what MicroPython and the ESP-IDF driver add per call is not "
            "measured (no board yet; with the one published figure, about 430 us a call beyond the bus on an ESP32-S2, "
            "micropython PR #8718, the 68 calls of a frame would add 29 ms: `bakumat hw layouts`, hardware/amr2.md). "
            "1 MHz is not an option with these parts: the TCA9548A is rated %s kHz (hardware/parts.json), "
            "the MMC5603NJ's I2C limit is unchecked, and the pull-ups above are sized for fast mode."
            % (kmax if kmax else "400")]
    return "\n".join(out) + "\n"


def spi_scan_counts(board):
    """(transfers, bytes, select-pin writes) of one frame, counted on the
    firmware's own scanner (firmware/hw/lis2.py) over the bus fake the
    benchmarks use (host_tools/mpscripts/spibus.py)."""
    from host_tools import fwpath
    fwpath.ensure()
    from host_tools.mpscripts import spibus
    w = board["wiring"]
    bus = spibus.mat(w)
    sc = spibus.scanner(bus, w)
    c0, n0, s0 = bus.calls, bus.nbytes, bus.selects
    sc.scan()
    return bus.calls - c0, bus.nbytes - n0, bus.selects - s0


def spi_md(board, parts=None):
    """hardware/<board>/spi.md: the bus, the chip selects and the scan's cost."""
    from host_tools.bench import chiptime
    parts = (parts or load_parts())["parts"]
    w = board["wiring"]
    spi = w["spi"]
    sel = spi["select"]
    hz = spi.get("baudrate", chiptime.SPI_HZ)
    sites = spi_sites(board)
    out = ["# SPI bus: %s" % board["name"], "",
           "Generated by host_tools/boards/hwdocs.py from boards/%s/wiring.json (mat %s) and hardware/parts.json."
           % (board["name"], board["mat"]), "",
           "## Wiring", "",
           "One SPI controller of the ESP32 (%d): SCK GPIO%d, MOSI GPIO%d, MISO GPIO%d, %g MHz, mode 0. On it the "
           "%d LIS2MDL magnetometers in 4-wire mode (the firmware sets CFG_REG_C's 4WSPI and I2C_DIS at start-up: "
           "firmware/hw/lis2.py). Each part's CS is one output of a 74HC154 decoder (active low). The decoders "
           "share the address lines %s, and each has its own /E0 (%s; /E1 tied low). A frame reads the sensors in "
           "Gray-code order, one address line changing a sensor, so a scan makes one transfer and about one pin "
           "write a sensor."
           % (spi.get("id", 1), spi["sck"], spi["mosi"], spi["miso"], hz / 1e6, len(sites),
              ", ".join("A%d GPIO%d" % (b, p) for b, p in enumerate(sel["address"])),
              ", ".join("U%d GPIO%d" % (d + 1, p) for d, p in enumerate(sel["enable"]))), "",
           "| sensor | decoder output (pin) | zone | at (x, y) mm | board channels x, y, z |", "|---:|---|---:|---|---|"]
    for k, d, o, zone, chs in sites:
        s = board["sensors"][chs[0]]
        out.append("| %d | U%d Y%d (%d) | %d | (%s, %s) | %s |"
                   % (k, d + 1, o, DEC_Y[o], zone, _f(s["x"]), _f(s["y"]), ", ".join(map(str, chs))))
    n, total, selects = spi_scan_counts(board)
    nbytes = total // n
    wire = total * 8 * 1e6 / hz
    lo = chiptime.spi_scan_us(n, nbytes, hz, chiptime.CALL_US["spi"][0], selects, chiptime.CALL_US["pin"][0])
    hi = chiptime.spi_scan_us(n, nbytes, hz, chiptime.CALL_US["spi"][1], selects, chiptime.CALL_US["pin"][1])
    out += ["", "## Scan time per frame", "",
            "Each sensor measures on its own (continuous mode at `spi.odr_hz` %d Hz), so a frame only fetches the "
            "latest results: %d `write_readinto` calls of %d bytes (the read bit and OUTX_L, then x, y, z) and "
            "%d select-pin writes (one address line a sensor, each decoder's enable down and up), as the firmware's "
            "scanner makes them over the benchmarks' bus fake. On the "
            "wire that is %.2f ms at %g MHz. With the per-call bounds of hardware/parts.json (\"bus_calls\": spi "
            "%d-%d us, a Pin write %d-%d us) a frame's scan is **%.2f-%.2f ms** of the %.0f ms frame, beside the "
            "scan loop's own bytecode, which `bakumat bench runtime` projects. hardware/bring-up.md times the calls "
            "on the assembled board first."
            % (spi.get("odr_hz", 100), n, nbytes, selects, wire / 1000.0, hz / 1e6, chiptime.CALL_US["spi"][0],
               chiptime.CALL_US["spi"][1], chiptime.CALL_US["pin"][0], chiptime.CALL_US["pin"][1], lo / 1000.0,
               hi / 1000.0, 1000.0 / board["rate_hz"])]
    out += ["", "## Range", "",
            "The LIS2MDL reads +-4.9 mT (hardware/parts.json, %s). A Bakugan's magnet at its lowest over a bare zone "
            "(no card between) can exceed that on the nearest sensor (`bakumat hw layouts`: clipping column). A "
            "clipped channel then reads its full-scale value, and the sensing leaves it out of a fit "
            "(sense/health.py `clipped`)." % parts["lis2mdl"]["mpn"]]
    return "\n".join(out) + "\n"


def pins_csv(board):
    """MicroPython board pin names for the custom build (Pin.board.NAME)."""
    w = board["wiring"]
    rows = []
    for i, p in enumerate(w.get("adc_pins", [])):
        rows.append(("ADC%d" % i, p))
    for i, p in enumerate(w.get("mux_select", [])):
        rows.append(("MUX_S%d" % i, p))
    if w.get("i2c"):
        rows.append(("I2C_SDA", w["i2c"]["sda"]))
        rows.append(("I2C_SCL", w["i2c"]["scl"]))
    if w.get("spi"):
        for k in ("sck", "mosi", "miso"):
            rows.append(("SPI_%s" % k.upper(), w["spi"][k]))
        for i, p in enumerate(w["spi"]["select"]["address"]):
            rows.append(("DEC_A%d" % i, p))
        for i, p in enumerate(w["spi"]["select"]["enable"]):
            rows.append(("DEC%d_EN" % i, p))
    rows.append(("LED_DATA", w["led"]["pin"]))
    rows.append(("BUZZER", w["buzzer"]["pin"]))
    for b in w.get("buttons", []):
        rows.append(("BTN_%s" % b["name"].upper(), b["pin"]))
    return "".join("%s,GPIO%d\n" % r for r in rows)


def outputs(name, parts=None):
    """{repo-relative path: text} of every generated file for board NAME."""
    parts = parts or load_parts()
    board = boards.load(name)
    comps = build(board, parts)
    base = "hardware/%s/" % name
    out = {
        base + "bom.csv": bom_csv(board, comps, parts),
        base + "netlist.net": netlist(board, comps),
        base + "layout.svg": layout_svg(board),
        base + "power.md": power_md(board, parts),
        "boards/%s/pins.csv" % name: pins_csv(board),
    }
    if is_i2c(board):
        out[base + "i2c.md"] = i2c_md(board, parts)
    if is_spi(board):
        out[base + "spi.md"] = spi_md(board, parts)
    return out


def stale(names=None):
    """[(path, reason)] of generated files that differ from the generator."""
    out = []
    for name in names or board_names():
        for rel, text in sorted(outputs(name).items()):
            path = os.path.join(REPO_DIR, rel)
            try:
                with open(path, encoding="utf-8", newline="") as f:
                    have = f.read()
            except OSError:
                out.append((rel, "missing"))
                continue
            if have != text:
                out.append((rel, "differs from the board definition"))
    return out


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    write = "--write" in argv
    names = [a for a in argv if not a.startswith("-")] or board_names()
    if write:
        for name in names:
            for rel, text in sorted(outputs(name).items()):
                path = os.path.join(REPO_DIR, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8", newline="") as f:
                    f.write(text)
                print("wrote", rel)
        return 0
    bad = stale(names)
    for rel, why in bad:
        print("%s: %s (run: python -m host_tools.boards.hwdocs --write)" % (rel, why))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
