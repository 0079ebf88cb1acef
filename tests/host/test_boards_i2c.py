"""An "i2c" wiring (three-axis sensors behind TCA9548A muxes, the amr2
mat) is checked against its mat with one-line errors naming the field."""
import pytest

from host_tools import boards
from host_tools.boards import layouts


def _wiring(board):
    return {"mcu": "esp32s3", "i2c": {"id": 0, "scl": 9, "sda": 8, "freq": 400000,
                                      "sensors": [[m, c] for m, c, _, _, _ in layouts.amr2_wiring(board)]}}


def test_the_amr2_wiring_passes():
    b = boards.load("amr2")
    boards.check_wiring(_wiring(b), b, "w.json")


@pytest.mark.parametrize("change, words", [
    (lambda w: w["i2c"].pop("scl"), "missing field 'scl'"),
    (lambda w: w["i2c"]["sensors"].pop(), "entries but mat"),
    (lambda w: w["i2c"]["sensors"].__setitem__(0, [0x69, 0]), "outside 0x70..0x77"),
    (lambda w: w["i2c"]["sensors"].__setitem__(0, [0x70, 8]), "outside 0..7"),
    (lambda w: w["i2c"]["sensors"].__setitem__(1, [0x70, 0]), "same mux channel as i2c.sensors[0]"),
    (lambda w: w["i2c"].__setitem__("freq", 5), "i2c.freq"),
])
def test_bad_i2c_wiring_is_named(change, words):
    b = boards.load("amr2")
    w = _wiring(b)
    change(w)
    with pytest.raises(boards.BoardError) as e:
        boards.check_wiring(w, b, "w.json")
    assert words in str(e.value) and "\n" not in str(e.value)


def test_the_layout_table_counts_the_scanners_transactions():
    """`bakumat hw layouts` prices amr2's scan by the transactions the
    board's own scanner (hw.amr.AmrScanner) makes in a frame, counted here
    on the bench's bus (host_tools/mpscripts/i2cbus.py), and their bus time
    (host_tools/bench/chiptime.py)."""
    import importlib.util
    from host_tools import fwpath, mpscripts
    from host_tools.bench import chiptime
    fwpath.ensure()
    spec = importlib.util.spec_from_file_location("i2cbus", mpscripts.path("i2cbus.py"))
    i2cbus = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(i2cbus)
    w = _wiring(boards.load("amr2"))
    bus = i2cbus.mat(w)
    sc = i2cbus.scanner(bus, w)
    sc.scan()                 # the first frame may set things up
    bus.writes = bus.reads = 0
    sc.scan()
    assert (bus.writes, bus.reads) == layouts.scan_transactions("amr2") == (36, 32)
    c = layouts.costs("amr2")
    assert c["scan_bus_ms"] == pytest.approx(chiptime.i2c_scan_us(36, 32, 400000, 0) / 1000.0)
    assert c["scan_ms"] == pytest.approx(c["scan_bus_ms"] + 68 * chiptime.I2C_CALL_US[-1] / 1000.0)
    assert layouts.costs("amr2", call_us=0)["scan_ms"] == pytest.approx(c["scan_bus_ms"])
