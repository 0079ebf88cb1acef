"""Raw stream budget: bytes per second of `frame` frames at the board's rate
and sensor count, against a 921600 baud line (prints the figures)."""
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
