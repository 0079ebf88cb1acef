"""Pin rules for every board folder: no pin used twice, no strapping, flash or
reserved pin, every analog input on ADC1, outputs not on input-only pins,
buttons on pins with pull-ups; and every pin the firmware names exists on
the board (the pins the real hardware builder constructs, and any literal
pin number in firmware/)."""
import ast
import copy
import os

import pytest

import fakes
from fakes.board import FakePort
from host_tools import boards
from host_tools.boards import hwdocs, mcu
from host_tools.fwpath import BOARDS_DIR, FIRMWARE_DIR

BOARDS = hwdocs.board_names()


def wiring(name):
    return boards.load(name)["wiring"]


def test_the_reference_board_is_documented_and_no_retired_one_is():
    assert boards.REFERENCE in BOARDS and not set(boards.RETIRED) & set(BOARDS), BOARDS


@pytest.mark.parametrize("name", BOARDS)
def test_pins_follow_the_rules(name):
    problems = mcu.check_pins(wiring(name))
    assert not problems, "boards/%s/wiring.json:\n  %s" % (name, "\n  ".join(problems))


# the checker's ADC rules, on the retired Hall boards' wiring (their files stay for old logs)
HALL = [n for n in sorted(boards.RETIRED) if "wiring" in boards.load(n)]
I2C = [n for n in BOARDS if "i2c" in wiring(n)]


@pytest.mark.parametrize("name", HALL)
def test_every_analog_input_is_adc1_and_every_channel_reads_one(name):
    w = wiring(name)
    adc1 = mcu.mcu(w["mcu"])["adc1"]
    assert all(p in adc1 for p in w["adc_pins"])
    # every ADC pin carries at least one channel, no channel is duplicated
    used = set(a for a, _m in w["channels"])
    assert used == set(range(len(w["adc_pins"])))
    assert len(set(map(tuple, w["channels"]))) == len(w["channels"])


@pytest.mark.parametrize("mutate, expect", [
    (lambda w: w["mux_select"].__setitem__(0, w["adc_pins"][0]), "already used"),
    (lambda w: w["adc_pins"].__setitem__(0, 25 if w["mcu"] == "esp32" else 11), "not an ADC1 input"),
    (lambda w: w["led"].__setitem__("pin", 0), "strapping"),
    (lambda w: w["led"].__setitem__("pin", 2 if w["mcu"] == "esp32" else 45), "strapping"),
    (lambda w: w["buzzer"].__setitem__("pin", 7 if w["mcu"] == "esp32" else 35), "flash"),
    (lambda w: w["buzzer"].__setitem__("pin", 1 if w["mcu"] == "esp32" else 19), "reserved"),
    (lambda w: w["buttons"][0].__setitem__("pin", 24 if w["mcu"] == "esp32" else 22), "does not exist"),
])
@pytest.mark.parametrize("name", HALL)
def test_the_checker_catches_bad_wiring(name, mutate, expect):
    w = copy.deepcopy(wiring(name))
    mutate(w)
    problems = mcu.check_pins(w)
    assert any(expect in p for p in problems), problems


@pytest.mark.parametrize("mutate, expect", [
    (lambda w: w["i2c"].__setitem__("scl", w["i2c"]["sda"]), "already used"),
    (lambda w: w["i2c"].__setitem__("sda", w["led"]["pin"]), "already used"),
    (lambda w: w["i2c"].__setitem__("sda", 0), "strapping"),
    (lambda w: w["i2c"].__setitem__("scl", 35), "flash"),
    (lambda w: w["i2c"].__setitem__("scl", 19), "reserved"),
    (lambda w: w["i2c"].__setitem__("sda", 22), "does not exist"),
])
@pytest.mark.parametrize("name", I2C)
def test_the_checker_catches_bad_i2c_pins(name, mutate, expect):
    w = copy.deepcopy(wiring(name))
    mutate(w)
    problems = mcu.check_pins(w)
    assert any(expect in p for p in problems), problems


def test_input_only_pins_cannot_drive_i2c():
    w = copy.deepcopy(wiring(I2C[0]))
    w["mcu"] = "esp32"
    w["led"]["pin"], w["buzzer"]["pin"] = 4, 13
    for b, p in zip(w["buttons"], (16, 17, 18, 19)):
        b["pin"] = p
    w["i2c"]["sda"], w["i2c"]["scl"] = 34, 22
    assert any("i2c.sda: GPIO34 is input-only" in p for p in mcu.check_pins(w)), mcu.check_pins(w)


def test_input_only_pins_cannot_drive_outputs():
    w = copy.deepcopy(wiring("esp32_devkitc"))
    w["adc_pins"] = [p for p in w["adc_pins"] if p != 34]
    w["led"]["pin"] = 34
    assert any("input-only" in p for p in mcu.check_pins(w))


@pytest.mark.parametrize("name", BOARDS)
def test_pins_csv_names_the_wiring(name):
    # pins.csv is generated from wiring.json (host_tools/boards/hwdocs.py); the
    # MicroPython build turns it into Pin.board.NAME
    with open(os.path.join(BOARDS_DIR, name, "pins.csv"), encoding="utf-8") as f:
        rows = [line.strip().split(",") for line in f if line.strip()]
    used = set(p for p, _role in mcu.wiring_pins(wiring(name)))
    gpios = [int(cpu[len("GPIO"):]) for _n, cpu in rows]
    assert set(gpios) == used
    assert len(set(n for n, _c in rows)) == len(rows)


@pytest.mark.parametrize("name", BOARDS)
def test_firmware_builds_the_board_on_exactly_its_pins(name):
    """Run the firmware's real hardware builder (firmware/hw/esp32.py) on the
    board definition against the machine fakes; every pin it touches must be
    one the wiring assigns, and every wired pin must be used."""
    world = fakes.install()
    try:
        import hw.esp32
        b = boards.load(name)
        built = hw.esp32.build(b, clock=world.clock, port=FakePort(world.clock))
        touched = set(world.pins)
        w = b["wiring"]
        wired = set(p for p, _role in mcu.wiring_pins(w))
        assert touched <= wired, "firmware uses pins the wiring does not assign: %s" % sorted(touched - wired)
        assert wired <= touched, "wired pins the firmware never sets up: %s" % sorted(wired - touched)
        assert len(built.buttons) == len(w["buttons"])
        assert built.strip.n == w["led"]["count"]
        assert len(built.scanner.scan()) == len(b["sensors"])
    finally:
        fakes.uninstall()


def _is_pin(node):
    return (isinstance(node, ast.Name) and node.id == "Pin") or \
        (isinstance(node, ast.Attribute) and node.attr == "Pin")


def _literal_pins():
    """(file, line, pin) for every Pin(<int literal>) in firmware/."""
    out = []
    for root, dirs, names in os.walk(FIRMWARE_DIR):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for n in names:
            if not n.endswith(".py"):
                continue
            path = os.path.join(root, n)
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), path)
            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    fn = node.func
                    fname = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", None)
                    if fname == "Pin" and node.args and isinstance(node.args[0], ast.Constant) \
                            and type(node.args[0].value) is int:
                        out.append((os.path.relpath(path, FIRMWARE_DIR), node.lineno, node.args[0].value))
                # Pin.board.NAME (or machine.Pin.board.NAME), not self.board.method
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) \
                        and node.value.attr == "board" and _is_pin(node.value.value):
                    out.append((os.path.relpath(path, FIRMWARE_DIR), node.lineno, node.attr))
    return out


@pytest.mark.parametrize("name", BOARDS)
def test_pins_named_in_firmware_exist_on_the_board(name):
    w = wiring(name)
    m = mcu.mcu(w["mcu"])
    with open(os.path.join(BOARDS_DIR, name, "pins.csv"), encoding="utf-8") as f:
        board_names = set(line.split(",")[0] for line in f if line.strip())
    wired = set(p for p, _role in mcu.wiring_pins(w))
    bad = []
    for path, line, pin in _literal_pins():
        if isinstance(pin, str):
            if pin not in board_names:
                bad.append("%s:%d: Pin.board.%s is not in boards/%s/pins.csv" % (path, line, pin, name))
        elif pin not in m["exposed"]:
            bad.append("%s:%d: GPIO%d does not exist on %s" % (path, line, pin, m["title"]))
        elif pin in wired or pin in m["strapping"] or pin in m["flash"] or pin in m["reserved"]:
            bad.append("%s:%d: hard-coded GPIO%d clashes with the board (wired, strapping, flash or reserved)"
                       % (path, line, pin))
    assert not bad, "\n".join(bad)
