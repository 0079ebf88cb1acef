"""`bakumat bench runtime`: the bus charged at both per-call bounds and the
summary line per chip, on figures made up here (the bench itself prints
measured ones)."""
import io
import re

import pytest

from host_tools import boards
from host_tools.bench import bench_runtime, chiptime


def test_the_reference_board_is_the_default():
    assert bench_runtime.BOARD == boards.REFERENCE


def test_an_i2c_scan_is_charged_at_each_bound():
    board = boards.load("esp32s3_devkitc1_amr2")
    f = {"scan_i2c_writes": 36, "scan_i2c_reads": 32}
    for i, bound in enumerate(chiptime.BOUNDS):
        want = chiptime.i2c_scan_us(36, 32, 400000, chiptime.CALL_US["i2c"][i])
        assert bench_runtime.scan_bus_us(board, f, bound) == pytest.approx(want)
    assert bench_runtime.scan_bus_us(board, f, "high") - bench_runtime.scan_bus_us(board, f, "low") == \
        pytest.approx(68 * (chiptime.CALL_US["i2c"][1] - chiptime.CALL_US["i2c"][0]))


def test_an_spi_scan_is_charged_for_its_transfers_and_selects():
    board = {"wiring": {"spi": {"freq": 10000000}}}
    f = {"scan_spi_calls": 32, "scan_spi_bytes": 32 * 7, "scan_spi_selects": 34}
    lo = bench_runtime.scan_bus_us(board, f, "low")
    hi = bench_runtime.scan_bus_us(board, f, "high")
    bits = 32 * 7 * 8 / 10.0                      # us at 10 MHz
    assert lo == pytest.approx(bits + 32 * chiptime.CALL_US["spi"][0] + 34 * chiptime.CALL_US["pin"][0])
    assert hi == pytest.approx(bits + 32 * chiptime.CALL_US["spi"][1] + 34 * chiptime.CALL_US["pin"][1])
    assert bench_runtime.scan_bus_us({"wiring": {"adc_pins": [1]}}, {}, "high") is None


def test_the_summary_has_one_line_per_chip_with_the_stages_the_decision_and_the_collections():
    proj = {}
    low = {}
    for k, (name, _, _) in enumerate(chiptime.CHIPS):
        proj[name] = {"quiet_mean": 7900.0 + k, "stages": (2100.0, 2300.0, 1100.0, 1000.0, 300.0),
                      "event_max": 9500.0, "save_max": 4000.0}
        low[name] = {"quiet_mean": 6000.0}
    # 5 MB, 1 MB of it the setup tick's (the app collects after it): play's 4 MB, two quarter-PSRAM thresholds
    runs = {(False, True): {"alloc_total": 5 * 1024 * 1024, "alloc_setup": 1024 * 1024}}
    out = io.StringIO()
    bench_runtime.summary("b", {"rate_hz": 50}, proj, low, runs, 172.0, out)
    lines = [ln for ln in out.getvalue().splitlines() if ln.startswith("  ")]
    assert len(lines) == len(chiptime.CHIPS)
    first = lines[0]
    assert first.startswith("  %s: quiet tick 7.9 ms (scan 2.1, sense 2.3, link 1.1, show 1.0, tx 0.3)"
                            % chiptime.CHIPS[0][0]), first
    assert "(6.0 at the low bound)" in first and "worst decision tick 9.5 ms" in first
    assert re.search(r"GC pauses 2\.0 in a game of 172 s of play \(%d ms in all; 488 bytes a frame of play, "
                     r"the setup tick's 1024 KB apart" % (2 * bench_runtime.GC_PSRAM_MS), first), first
    out = io.StringIO()
    bench_runtime.summary("b", {"rate_hz": 50}, proj, None, None, 172.0, out)
    assert "GC pauses not measured" in out.getvalue() and "low bound" not in out.getvalue()


def _fake():
    proj, low = {}, {}
    for k, (name, _, _) in enumerate(chiptime.CHIPS):
        proj[name] = {"quiet_mean": 9000.0 + 1000 * k, "stages": (3000.0, 2900.0, 1600.0, 1000.0, 300.0),
                      "event_max": 110900.0, "save_max": 4000.0}
        low[name] = {"quiet_mean": 8000.0 + 1000 * k, "stages": (2100.0, 2900.0, 1600.0, 1000.0, 300.0)}
    return proj, low


def test_the_doc_table_gives_each_chip_both_bounds_the_decision_and_the_garbage():
    proj, low = _fake()
    lines = bench_runtime.doc_table("b", 1, proj, low, 18.6, 4531.0, 172.0)
    assert lines[0].startswith("`bakumat bench runtime --quick --board b --seed 1`")
    rows = [ln for ln in lines if ln.startswith("| ESP")]
    assert len(rows) == len(chiptime.CHIPS)
    assert rows[0] == "| %s | 3.0 ms (2.1) | 9.0 ms (8.0) | 110.9 ms | 18.6 | 4531 |" % chiptime.CHIPS[0][0]
    rows = bench_runtime.doc_table("b", 1, proj, None, None, None, 172.0)[4:]
    assert rows[0] == "| %s | 3.0 ms | 9.0 ms | 110.9 ms | not measured | not measured |" % chiptime.CHIPS[0][0]


def test_the_doc_is_written_between_its_markers_and_the_rest_kept(tmp_path):
    doc = tmp_path / "runtime.md"
    doc.write_text("# Runtime\n\nbefore\n%s\n| old | table |\n%s\nafter\n"
                   % (bench_runtime.DOC_BEGIN, bench_runtime.DOC_END), encoding="utf-8")
    bench_runtime.write_doc(str(doc), ["| new | table |"])
    assert doc.read_text(encoding="utf-8") == "# Runtime\n\nbefore\n%s\n| new | table |\n%s\nafter\n" % (
        bench_runtime.DOC_BEGIN, bench_runtime.DOC_END)


def test_a_doc_without_the_section_is_refused_naming_it(tmp_path):
    from host_tools.errors import UserError
    doc = tmp_path / "notes.md"
    doc.write_text("no markers here\n", encoding="utf-8")
    with pytest.raises(UserError, match="notes.md: no section for the table"):
        bench_runtime.write_doc(str(doc), ["x"])
    assert doc.read_text(encoding="utf-8") == "no markers here\n"
    with pytest.raises(UserError, match="missing.md"):
        bench_runtime.doc_section(str(tmp_path / "missing.md"))


def test_the_runtime_doc_holds_the_section_the_command_writes():
    import os
    path = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "runtime.md")
    text, a, b = bench_runtime.doc_section(path)
    table = text[a:b]
    assert "`bakumat bench runtime --quick --board %s" % boards.REFERENCE in table
    assert len([ln for ln in table.splitlines() if ln.startswith("| ESP")]) == len(chiptime.CHIPS)
