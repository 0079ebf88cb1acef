"""The 32-bit heap check (issue #17): a whole simulated official game runs on
the MicroPython WebAssembly port (4-byte pointers, as an ESP32) to its end,
and its heap figures meet the reference board's target and the needs
`bakumat deploy` checks a board against. Never skips: `make setup` installs the port (tools/mp32);
a machine without it fails here with the reason."""
import json
import os

import pytest

from host_tools import boards, sim
from host_tools.bench import heap32

KB = 1024


def _game():
    from host_tools.bench.bench_sensing import with_detector
    board = with_detector(boards.load(boards.REFERENCE))   # its nominal world's kernel table, as deploy installs it
    assert board["kernels"]
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(here, "host_tools", "samples", "official.ndjson")) as f:
        header = json.loads(f.readline())
    sc = sim.random_game(1, board, header)
    res = sim.run(board, sc, seed=1, header=sc.header)
    return board, res, dict(sc.header)


@pytest.fixture(scope="module")
def runs():
    assert heap32.available() is None, heap32.available()
    board, res, header = _game()
    return {"mpy": heap32.run(board, res, header, phone=True, rom=False),
            "rom": heap32.run(board, res, header, phone=True, rom=True),
            "mpy-nophone": heap32.run(board, res, header, phone=False, rom=False),
            "rom-nophone": heap32.run(board, res, header, phone=False, rom=True),
            "frozen": heap32.run(board, res, header, phone=True, frozen=True),
            "frozen-nophone": heap32.run(board, res, header, phone=False, frozen=True)}


def test_the_game_runs_to_its_end_at_32_bits(runs):
    for kind, f in runs.items():
        kinds = [b.get("ev") for _, typ, b in f["out"] if typ == "game"]
        assert "end" in kinds, kind
        assert f["fails"] == 0
        # the figures are an ESP32's, not x86-64's: the modules alone are
        # far below the unix port's ~210 KB (docs/runtime.md)
        assert 20 * KB < f["code"] < 160 * KB, f["code"]
        assert f["code"] < f["live"] <= f["peak"], f
        # one record per tick, and the game's events fall in some of them
        assert len(f["tick_records"]) == f["ticks"]
        assert sum(r[7] for r in f["tick_records"]) > 0 and sum(r[8] for r in f["tick_records"]) > 0


def test_a_full_collection_is_timed_with_the_interpreters_speed(runs):
    f = runs["mpy"]
    assert f["gc_us"] > 0 and f["pystones"] > 0
    assert f["total"] >= f["peak"]          # the heap grew to hold every tick
    assert f["alloc_total"] > f["tick_alloc"]


def test_romfs_keeps_the_code_out_of_the_heap(runs):
    assert runs["rom"]["code"] < runs["mpy"]["code"] / 2, (runs["rom"]["code"], runs["mpy"]["code"])
    assert runs["rom-nophone"]["code"] < runs["mpy-nophone"]["code"] / 2
    assert runs["rom"]["rom_bytes"] > 50 * KB


def test_deploy_asks_for_what_the_game_needs(runs):
    # never less than measured (a board that passes the check must run the
    # game), never stale by more than an eighth (re-measure: the bench)
    for kind in ("mpy", "rom", "frozen"):
        got = runs[kind + "-nophone"]["peak"]
        assert got <= heap32.NEED[kind] <= got * 9 // 8, (kind, got, heap32.NEED[kind])
        # and what it says the phone page adds
        assert runs[kind]["peak"] - got <= heap32.PHONE_EXTRA, (kind, runs[kind]["peak"] - got)
    # the phone page costs heap: its modules and its server's buffers
    assert runs["mpy"]["live"] > runs["mpy-nophone"]["live"] + 8 * KB


def test_a_frozen_image_keeps_the_names_out_of_the_heap(runs):
    # the app's names were interned before the base: only the few made at
    # run time (module names at import) take pools, counted as a chip's
    for kind in ("frozen", "frozen-nophone"):
        f = runs[kind]
        assert f["frozen_names"] > 1000 and 0 <= f["runtime_names"] < 200, (kind, f["runtime_names"])
        assert f["code"] < runs[kind.replace("frozen", "rom")]["code"] - 8 * KB, kind


def test_reference_board_target(runs):
    name, rom, phone, what, limit, why = heap32.TARGETS[0]
    assert not rom and phone
    assert heap32.figure(runs["mpy"], what) <= limit



def test_the_amr2_board_runs_at_32_bits_without_viper():
    """The amr2 board's game (I2C sensors, the kernel fit) on the
    WebAssembly port, which has no native emitter: the fit's plain loops
    (sense/fitplain.py) stand in for its viper kernels, the game runs to
    its end with the board's real scanner over the bench's bus, and what it
    holds between ticks is far inside the N8R8's PSRAM heap."""
    from host_tools.bench.bench_sensing import with_detector
    board = with_detector(boards.load("esp32s3_devkitc1_amr2"))
    assert board["kernels"]["fixed"]
    with open(os.path.join(os.path.dirname(sim.__file__), "..", "samples", "official.ndjson")) as f:
        header = json.loads(f.readline())
    sc = sim.random_game(1, board, header)
    res = sim.run(board, sc, seed=1, header=sc.header)
    f = heap32.run(board, res, dict(sc.header), phone=True)
    kinds = [b.get("ev") for _, typ, b in f["out"] if typ == "game"]
    assert "end" in kinds and kinds.count("stand") >= 5, sorted(set(kinds))
    assert f["fails"] == 0
    assert f["scan_i2c_reads"] == 32 and f["scan_i2c_writes"] == 36
    # the kernel table and the fit's arrays are the board's big data
    assert 100 * KB < f["live"] - f["code"] < 1024 * KB, f["live"]


def test_the_unix_timing_run_treats_the_heap_as_a_chip_does():
    """The times of `bakumat bench runtime` come from the same game on the
    unix port: there the harness must not add heap work a chip's loop does
    not do. Its button pins allocate nothing (a quiet tick of a configured
    game allocates nothing, as on a chip), and the heap is collected about
    as often as the app's gc.threshold would, not after every tick (a
    collection leaves the next tick with the host's caches cold)."""
    board, res, header = _game()
    from mptools import tool
    f = heap32.run(board, res, header, phone=True, unix=tool("micropython"))
    recs = f["tick_records"]
    assert len(recs) == f["ticks"] and all(len(r) == 14 for r in recs)
    quiet = [r for r in recs if r[6] == 0 and r[7] == 0 and r[8] == 0]
    still = [r for r in quiet if r[13] == 0]
    # most quiet ticks allocate nothing (the others: the sensing deciding on a change)
    assert len(still) > 0.9 * len(quiet), (len(still), len(quiet))
    assert 1 <= f["collections"] <= len(recs) // 100, f["collections"]
