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
