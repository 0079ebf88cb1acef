"""The lis2 mat's SPI bus as the benchmarks fake it (host_tools/mpscripts/spibus.py):
the firmware's own scanner (firmware/hw/lis2.py) drives it, each sensor's
counts come back through the bus's two's complement unchanged, and a frame
makes the transfers and pin writes `bakumat hw layouts` charges."""
import random

from host_tools import boards, fwpath
from host_tools.boards import layouts
from host_tools.mpscripts import spibus

fwpath.ensure()

LIS2 = "esp32s3_devkitc1_lis2"


def _bus():
    w = boards.load(LIS2)["wiring"]
    bus = spibus.mat(w)
    return w, bus, spibus.scanner(bus, w)


def test_every_sensor_answers_its_id_and_the_frame_reads_back():
    w, bus, sc = _bus()
    assert sc.missing == []                                  # each part's WHO_AM_I came back through its select
    rnd = random.Random(3)
    counts = [rnd.randrange(65536) for _ in range(sc.n)]
    for ch, v in enumerate(counts):
        bus.frame[2 * ch] = v & 0xFF
        bus.frame[2 * ch + 1] = v >> 8
    assert list(sc.scan()) == counts


def test_a_frame_makes_the_calls_the_layouts_table_charges():
    w, bus, sc = _bus()
    sc.scan()                                                # the first frame settles the address lines
    c0, n0, s0 = bus.calls, bus.nbytes, bus.selects
    sc.scan()
    charged = layouts.bus(layouts.REFERENCE)
    assert charged["kind"] == "spi"
    assert bus.calls - c0 == charged["calls"] == len(w["spi"]["sensors"])
    assert bus.selects - s0 == charged["selects"]
    assert (bus.nbytes - n0) * 8 == charged["bits"]


def test_no_sensor_is_selected_between_frames():
    w, bus, sc = _bus()
    sc.scan()
    assert all(bus.en) and bus._selected() == -1
