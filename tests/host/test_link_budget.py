"""Raw stream budget: bytes per second of `frame` frames at the board's rate
and sensor count, against a 921600 baud line (prints the figures)."""
import pytest

from host_tools import boards
from host_tools.bench import linkbudget


def test_raw_stream_fits_921600_with_margin(capsys):
    board = boards.load(boards.REFERENCE)
    frames = linkbudget.sample_frames(board, seconds=10)
    rows = linkbudget.measure(board, frames)
    with capsys.disabled():
        print("\n" + linkbudget.report(board, rows, frames))
    by = dict((r["encoding"].split(" ")[0], r) for r in rows)
    v1 = rows[0]
    # every frame carries all 96 values: at least 4 bytes each in decimal JSON
    assert v1["bytes_per_frame"] > 96 * 4
    # the raw stream as the board sends it takes at most a third of the line
    # at 921600 baud (`bakumat record`, docs/formats/serial-protocol-v1.md)
    assert v1["load"][921600] <= 1 / 3.0
    # and no encoding fits a 115200 baud REPL line with margin
    assert min(r["load"][115200] for r in rows) > 0.8
    assert by["base64"]["bytes_per_frame"] < by["hex,"]["bytes_per_frame"] < v1["bytes_per_frame"]


def test_the_compared_encodings_carry_every_value_of_the_board():
    # the LIS2MDL mat's counts are 16-bit: an encoding narrower than that
    # would be a smaller, wrong answer
    board = boards.load(boards.REFERENCE)
    bits = linkbudget.value_bits(board)
    assert bits == 16
    frames = linkbudget.sample_frames(board, seconds=2)
    assert max(max(v) for _, v in frames) >= 1 << 12     # values a 12-bit packing would cut
    for t, v in frames:
        v = list(v)
        assert linkbudget.unpack(linkbudget.pack(v, bits), bits, len(v)) == v
    names = [n for n, _ in linkbudget.encodings(board)]
    assert "hex, 4 digits per value" in names and "base64 of packed 16-bit values" in names
    with pytest.raises(ValueError, match="does not fit 12 bits"):
        linkbudget.pack([4096], 12)


def test_an_unknown_board_is_one_line_and_exit_2(capsys):
    with pytest.raises(SystemExit) as e:
        linkbudget.main(["--board", "no_such_board"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "no_such_board" in err and "Traceback" not in err
