"""hardware/ checked like code: the generated documents equal what the
generator makes from the board definition now, the committed BOM's
quantities match the definition, the netlist is well formed and wires every
sensor to the mux input and ADC pin the wiring says, and the LEDs at the
firmware's brightness cap fit the power budget."""
import copy
import csv
import os

import pytest

from host_tools import boards
from host_tools.boards import hwdocs, mcu
from host_tools.fwpath import REPO_DIR

BOARDS = hwdocs.board_names()
# the generator's ADC boards: the retired Hall boards' files (hardware/retired.md), still generated for old logs
HALL = [n for n in sorted(boards.RETIRED) if "wiring" in boards.load(n) and not hwdocs.is_i2c(boards.load(n))]
I2C = [n for n in BOARDS if hwdocs.is_i2c(boards.load(n))]


def read(rel):
    with open(os.path.join(REPO_DIR, rel), encoding="utf-8", newline="") as f:
        return f.read()


def bom_rows(name):
    return list(csv.DictReader(read("hardware/%s/bom.csv" % name).splitlines()))


def bom_qty(name, part):
    rows = [r for r in bom_rows(name) if r["part"] == part]
    return sum(int(r["qty"]) for r in rows)


def test_generated_files_are_up_to_date():
    stale = hwdocs.stale()
    assert not stale, "\n".join("%s: %s" % s for s in stale) + \
        "\nregenerate with: .venv/bin/python -m host_tools.boards.hwdocs --write"


@pytest.mark.parametrize("name", BOARDS)
def test_bom_prices_are_sourced_or_say_where_to_get_them(name):
    """No invented price: a line's price is a sourced one (parts.json
    `price` with its source), or `unknown` with the MPN and quantity to
    quote; an estimate the design notes used is named as one."""
    rows = bom_rows(name)
    for r in rows:
        if r["unit_price"] == "unknown":
            assert r["price_from"].startswith("not sourced: quote %s x%s at a distributor" % (r["mpn"], r["qty"])), r
        else:
            assert r["unit_price"].endswith(" USD") and " pieces" in r["price_from"], r
    hall = [r for r in rows if r["part"] == "hall"]
    assert all("estimate" in r["price_from"] and "not a quote" in r["price_from"] for r in hall if
               r["unit_price"] == "unknown")
    # a sourced price shows as such
    cells = hwdocs.price_cells({"mpn": "X1", "price": {"usd": 0.5, "qty": 100, "source": "a quote", "date": "2026-11"}}, 3)
    assert cells == ["0.50 USD", "a quote, 2026-11, at 100 pieces"]


def test_both_kinds_of_board_exist():
    assert HALL and I2C, (HALL, I2C)


@pytest.mark.parametrize("name", HALL)
def test_bom_quantities_match_the_board_definition(name):
    b = boards.load(name)
    w = b["wiring"]
    assert bom_qty(name, "hall") == len(b["sensors"])
    n_mux = len(set(a for a, _m in w["channels"]))
    assert bom_qty(name, "mux") == n_mux == len(w["adc_pins"])
    # each mux has 2**len(mux_select) inputs: enough for its channels
    per_mux = max(sum(1 for a, _m in w["channels"] if a == k) for k in range(n_mux))
    assert per_mux <= 1 << len(w["mux_select"])
    assert bom_qty(name, "led") == w["led"]["count"]
    assert bom_qty(name, "button") == len(w["buttons"])
    assert bom_qty(name, "esd_button") == len(w["buttons"])
    assert bom_qty(name, "buzzer") == 1
    assert bom_qty(name, "polyfuse") == 1
    assert bom_qty(name, "devkit") == 1
    # one decoupling capacitor per sensor, per LED, per mux, per buffer, per button
    assert bom_qty(name, "c100n") == len(b["sensors"]) + w["led"]["count"] + n_mux + 1 + len(w["buttons"])
    for r in bom_rows(name):
        assert r["mpn"] and r["manufacturer"] and int(r["qty"]) > 0, r
        refs = r["refs"].split()
        count = 0
        for rr in refs:
            if "-" in rr:
                a, z = rr.split("-")
                count += hwdocs._ref_key(z)[1] - hwdocs._ref_key(a)[1] + 1
            else:
                count += 1
        assert count == int(r["qty"]), r


@pytest.mark.parametrize("name", BOARDS)
def test_led_current_at_the_cap_fits_the_budget(name):
    b = boards.load(name)
    led = b["wiring"]["led"]
    assert type(led["max_brightness"]) is int and 0 < led["max_brightness"] <= 255
    lines, total, problems = hwdocs.power_budget(b)
    assert not problems, problems
    p = hwdocs.load_parts()["parts"]["led"]
    # the same model the firmware's feedback layer uses (1 mA idle, 20 mA per channel at 255)
    worst = led["count"] * (p["idle_ma"] + 3 * p["ma_per_channel"] * led["max_brightness"] / 255.0)
    assert worst <= led["budget_ma"]
    assert total <= b["wiring"]["power"]["supply_ma"]
    print("\n[%s] 5 V worst case %.0f mA of %d mA (LEDs %.0f mA at cap %d)"
          % (name, total, b["wiring"]["power"]["supply_ma"], worst, led["max_brightness"]))


def test_budget_check_fails_when_the_cap_is_raised():
    b = boards.load(BOARDS[0])
    b = copy.deepcopy(b)
    b["wiring"]["led"]["max_brightness"] = 255
    _lines, _total, problems = hwdocs.power_budget(b)
    assert any("budget_ma" in p for p in problems), problems
    assert any("supply_ma" in p for p in problems), problems


@pytest.mark.parametrize("name", BOARDS)
def test_led_zone_map_covers_the_chain(name):
    b = boards.load(name)
    assert hwdocs.check_leds(b) == []
    pos = hwdocs.led_positions(b)
    assert None not in pos
    # no LED lies under a card: outside every zone rectangle
    for x, y, _z, _side in pos:
        assert boards.zone_at(b, x, y) is None, (x, y)


# ---- the netlist: parse the S-expression and check it against the wiring

def parse_sexpr(text):
    tokens = []
    i = 0
    while i < len(text):
        c = text[i]
        if c in "()":
            tokens.append(c)
            i += 1
        elif c.isspace():
            i += 1
        elif c == '"':
            j = i + 1
            s = []
            while text[j] != '"':
                if text[j] == "\\":
                    j += 1
                s.append(text[j])
                j += 1
            tokens.append(("str", "".join(s)))
            i = j + 1
        else:
            j = i
            while j < len(text) and not text[j].isspace() and text[j] not in '()"':
                j += 1
            tokens.append(text[i:j])
            i = j
    pos = 0

    def node():
        nonlocal pos
        assert tokens[pos] == "("
        pos += 1
        out = []
        while tokens[pos] != ")":
            if tokens[pos] == "(":
                out.append(node())
            else:
                t = tokens[pos]
                out.append(t[1] if isinstance(t, tuple) else t)
                pos += 1
        pos += 1
        return out
    tree = node()
    assert pos == len(tokens), "trailing tokens after the netlist"
    return tree


def field(lst, key):
    for x in lst:
        if isinstance(x, list) and x and x[0] == key:
            return x
    return None


def netlist_of(name):
    """(component values by ref, nets by name, the net of each (ref, pin))."""
    tree = parse_sexpr(read("hardware/%s/netlist.net" % name))
    assert tree[0] == "export"
    comps = {}
    for c in field(tree, "components")[1:]:
        comps[field(c, "ref")[1]] = field(c, "value")[1]
    nets = {}
    for n in field(tree, "nets")[1:]:
        nodes = set((field(x, "ref")[1], field(x, "pin")[1]) for x in n if isinstance(x, list) and x[0] == "node")
        nets[field(n, "name")[1]] = nodes
    where = {}
    for net, nodes in nets.items():
        for rp in nodes:
            assert rp[0] in comps, rp
            assert rp not in where, "%s on two nets" % (rp,)
            where[rp] = net
    return comps, nets, where


def header_node(comps, m):
    sockets = sorted((r for r, v in comps.items() if "DevKit" in v), key=hwdocs._ref_key)
    header_of = dict(zip(sockets, sorted(m["headers"])))

    def gpio_node(gpio):
        for ref in sockets:
            h = m["headers"][header_of[ref]]
            if gpio in h:
                return (ref, str(h.index(gpio) + 1))
        raise AssertionError("GPIO%d on no header" % gpio)
    return gpio_node


@pytest.mark.parametrize("name", I2C)
def test_i2c_netlist_puts_each_sensor_alone_on_its_mux_channel(name):
    """Every magnetometer on the SDn/SCn pins of the mux and channel the
    wiring names (and nothing else on that pair but its pull-ups), each
    mux's address pins strapped to its address, every mux on the trunk
    that reaches the wiring's SDA/SCL GPIOs, pull-ups on every line."""
    comps, nets, where = netlist_of(name)
    b = boards.load(name)
    bus = b["wiring"]["i2c"]
    gpio_node = header_node(comps, mcu.mcu(b["wiring"]["mcu"]))
    sensors = sorted((r for r, v in comps.items() if v == "MMC5603NJ"), key=hwdocs._ref_key)
    muxes = sorted((r for r, v in comps.items() if v == "TCA9548APWR"), key=hwdocs._ref_key)
    addrs = sorted(set(m for m, _c in bus["sensors"]))
    assert len(sensors) == len(bus["sensors"]) == len(b["sensors"]) // 3
    assert len(muxes) == len(addrs)
    sda, scl = where[gpio_node(bus["sda"])], where[gpio_node(bus["scl"])]
    assert sda != scl
    for k, mref in enumerate(muxes):
        assert where[(mref, "23")] == sda and where[(mref, "22")] == scl
        a = addrs[k] - 0x70
        for bit, pin in enumerate(hwdocs.TCA_A):
            assert where[(mref, str(pin))] == ("GND" if not (a >> bit) & 1 else where[(mref, "24")])
    for net in (sda, scl):
        assert sum(1 for r, _p in nets[net] if comps[r] == "RC0402FR-074K7L") == 1, net
    for ref, (m, c) in zip(sensors, bus["sensors"]):
        mref = muxes[addrs.index(m)]
        for pin, mux_pin in (("SDA", hwdocs.TCA_SD[c]), ("SCL", hwdocs.TCA_SC[c])):
            net = where[(ref, pin)]
            assert (mref, str(mux_pin)) in nets[net], (ref, pin)
            others = [r for r, _p in nets[net] if r not in (ref, mref)]
            assert [comps[r] for r in others] == ["RC0402FR-074K7L"], (ref, pin, others)


@pytest.mark.parametrize("name", I2C)
def test_i2c_doc_scan_time_follows_the_bytes_on_the_bus(name):
    b = boards.load(name)
    n = len(b["wiring"]["i2c"]["sensors"])
    bits, per, changes = hwdocs.scan_bits(b)
    # select (address + 1 byte) and read (address, register, address, 6 bytes) per sensor
    assert per == (1 + 18 + 1) + (1 + 18 + 1 + 63 + 1)
    assert bits == n * per + changes * 20
    assert bits < hwdocs.scan_bits(b, 9)[0]
    text = read("hardware/%s/i2c.md" % name)
    assert "| %d |" % bits in text and "%.2f ms" % (bits / 400.0) in text
    # the frame fits at 400 kHz with room for the rest of the loop
    assert bits / 400.0 < 0.5 * 1000.0 / b["rate_hz"]


@pytest.mark.parametrize("name", HALL)
def test_netlist_wires_each_sensor_to_its_mux_and_adc_pin(name):
    tree = parse_sexpr(read("hardware/%s/netlist.net" % name))
    assert tree[0] == "export"
    comps = {}
    for c in field(tree, "components")[1:]:
        comps[field(c, "ref")[1]] = field(c, "value")[1]
    nets = {}
    for n in field(tree, "nets")[1:]:
        nodes = set((field(x, "ref")[1], field(x, "pin")[1]) for x in n if isinstance(x, list) and x[0] == "node")
        nets[field(n, "name")[1]] = nodes
    for nodes in nets.values():
        for ref, _pin in nodes:
            assert ref in comps, ref
    b = boards.load(name)
    w = b["wiring"]
    # which net each (ref, pin) is on
    where = {}
    for net, nodes in nets.items():
        for rp in nodes:
            assert rp not in where, "%s on two nets" % (rp,)
            where[rp] = net
    in_pins = [9, 8, 7, 6, 5, 4, 3, 2, 23, 22, 21, 20, 19, 18, 17, 16]   # CD74HC4067 I0..I15
    mux_refs = sorted((r for r, v in comps.items() if v == "CD74HC4067M96"), key=hwdocs._ref_key)
    sensor_refs = sorted((r for r, v in comps.items() if v == "DRV5055A1QDBZR"), key=hwdocs._ref_key)
    assert len(sensor_refs) == len(b["sensors"]) and len(mux_refs) == len(w["adc_pins"])
    m = mcu.mcu(w["mcu"])
    sockets = sorted((r for r, v in comps.items() if "DevKit" in v), key=hwdocs._ref_key)
    header_of = dict(zip(sockets, sorted(m["headers"])))

    def gpio_node(gpio):
        for ref in sockets:
            h = m["headers"][header_of[ref]]
            if gpio in h:
                return (ref, str(h.index(gpio) + 1))
        raise AssertionError("GPIO%d on no header" % gpio)
    for ch, (a, inp) in enumerate(w["channels"]):
        out_net = where[(sensor_refs[ch], "2")]
        assert (mux_refs[a], str(in_pins[inp])) in nets[out_net], "channel %d" % ch
        com = where[(mux_refs[a], "1")]
        # COM -> series resistor -> the net on the ADC GPIO's header pin
        adc_net = where[gpio_node(w["adc_pins"][a])]
        bridge = [r for r, _p in nets[com] if r.startswith("R") and
                  any((r, p) in nets[adc_net] for p in ("1", "2"))]
        assert bridge, "mux %d COM not routed to GPIO%d" % (a, w["adc_pins"][a])
    for j, gpio in enumerate(w["mux_select"]):
        sel = where[gpio_node(gpio)]
        sel_pins = [10, 11, 14, 13]
        for mref in mux_refs:
            assert (mref, str(sel_pins[j])) in nets[sel]
    led_net = where[gpio_node(w["led"]["pin"])]
    assert any(comps[r] == "SN74AHCT1G125DBVR" for r, _p in nets[led_net])
    for btn in w["buttons"]:
        assert where[gpio_node(btn["pin"])] == "BTN_%s" % btn["name"].upper()
    # nothing the mat uses sits on a strapping or flash pin of the header
    for gpio in m["strapping"] | m["flash"]:
        try:
            node = gpio_node(gpio)
        except AssertionError:
            continue
        assert node not in where, "GPIO%d is connected" % gpio


@pytest.mark.parametrize("name", BOARDS)
def test_layout_svg_shows_every_sensor_led_and_button(name):
    svg = read("hardware/%s/layout.svg" % name)
    b = boards.load(name)
    # a dot per sensor package (three channels each on an I2C board) + one legend dot per mux
    packages = (len(b["wiring"]["i2c"]["sensors"]) if hwdocs.is_i2c(b) else len(b["wiring"]["spi"]["sensors"])
                if hwdocs.is_spi(b) else len(b["sensors"]))
    assert svg.count("<circle") == packages + len(hwdocs.legend_slots(b))
    assert svg.count("<title>LED ") == b["wiring"]["led"]["count"]
    assert svg.count("<title>button ") == len(b["wiring"]["buttons"])
    import xml.dom.minidom
    xml.dom.minidom.parseString(svg)     # well-formed
