"""The projection of measured stage times onto the chips (host_tools/bench/chiptime.py)."""
from host_tools.bench import chiptime


def _rec(sense=100, link=10, show=10, tx=0, writes=0, nbytes=0, events=0, saves=0):
    return (999, sense, link, show, tx, writes, nbytes, events, saves)


def test_times_scale_by_the_pystone_ratio_and_hardware_costs_are_added():
    host = 100000
    recs = [_rec()] * 10 + [_rec(sense=1000, writes=1, nbytes=300, events=1, saves=1)]
    p = chiptime.project(recs, host, scan_loop_us=20, n_reads=96, n_leds=68)
    name, ps, _ = chiptime.CHIPS[1]
    k = host / float(ps)
    q = p[name]
    scan = 20 * k + 96 * chiptime.ADC_US
    # the scan measured in the game (999) is replaced by the modelled one
    assert abs(q["stages"][0] - scan) < 1e-6
    assert abs(q["quiet_mean"] - (scan + 120 * k)) < 1e-6
    assert q["n_quiet"] == 10 and q["n_event"] == 1
    want = scan + 1020 * k + 68 * chiptime.LED_US + (300 - chiptime.FIFO) * 10e6 / 115200
    assert abs(q["event_max"] - want) < 1e-6
    # a slower chip takes longer
    assert p[chiptime.CHIPS[2][0]]["quiet_mean"] > q["quiet_mean"] > p[chiptime.CHIPS[0][0]]["quiet_mean"]


def test_the_setup_tick_is_reported_apart():
    recs = [_rec(), _rec(sense=50000, saves=1), _rec(saves=1)]
    p = chiptime.project(recs, 100000, 20, 96, 68, setup_tick=1)
    q = p[chiptime.CHIPS[0][0]]
    assert q["setup"] > q["save_max"]
    assert q["n_save"] == 1


def test_merge_takes_the_least_time_per_tick():
    a = [_rec(sense=100), _rec(sense=50)]
    b = [_rec(sense=80), _rec(sense=70)]
    m = chiptime.merge_min([a, b])
    assert [r[1] for r in m] == [80, 50]


def test_a_save_costs_flash_time_not_the_hosts_file_system():
    # a tick whose 3,000 us were the host writing 3,000 bytes: flash instead
    save = (999, 3100, 10, 10, 0, 0, 0, 1, 1, 3000, 3000)
    p = chiptime.project([_rec()] * 3 + [save], 100000, 20, 96, 68)
    name, ps, _ = chiptime.CHIPS[0]
    k = 100000 / float(ps)
    scan = 20 * k + 96 * chiptime.ADC_US
    want = scan + (3100 + 20 - 3000) * k + 12 * chiptime.PAGE_US + chiptime.ERASE_US
    assert abs(p[name]["save_max"] - want) < 1e-6
    assert chiptime.flash_write_us(4097) == 17 * chiptime.PAGE_US + 2 * chiptime.ERASE_US


def test_counted_flash_work_replaces_the_whole_file_estimate():
    # a save tick whose flash operations were counted on littlefs: one erase
    # and 300 bytes programmed (two pages), not the 5000-byte file rewritten
    base = _rec(events=1, saves=1) + (0, 5000)
    counted = base + (1, 300)
    p0 = chiptime.project([base], 100000, 20, 96, 68)[chiptime.CHIPS[0][0]]
    p1 = chiptime.project([counted], 100000, 20, 96, 68)[chiptime.CHIPS[0][0]]
    assert abs((p0["save_max"] - p1["save_max"]) - (chiptime.flash_write_us(5000) - chiptime.flash_ops_us(1, 300))) < 1e-6
    assert chiptime.flash_ops_us(1, 300) == chiptime.ERASE_US + 2 * chiptime.PAGE_US
    nothing = base[:10] + (0, 0, 0)
    assert chiptime.project([nothing], 100000, 20, 96, 68)[chiptime.CHIPS[0][0]]["save_max"] < p1["save_max"]


def test_viper_floor_is_the_least_chip_gain_that_keeps_the_target():
    # 6 ms projected at the host's gain 40 (kernels 5 us here, ratio 50:
    # 250 us on the chip); at gain g they take 250 * 40 / g us
    g = chiptime.viper_floor(6000, 8000, 5.0, 50.0, 40.0)
    assert abs(6000 + 250 * (40.0 / g - 1) - 8000) < 1e-6
    assert g < 40.0
    assert chiptime.viper_floor(8500, 8000, 5.0, 50.0, 40.0) is None


def test_an_i2c_scan_costs_its_bus_clocks_and_a_call_each():
    # an 8-byte register read: start, address, register, repeated start,
    # address, 8 data bytes, stop: 102 clocks, 255 us at 400 kHz (the bus
    # part of micropython PR #8718's 680 us)
    assert chiptime.i2c_read_mem_bits(8) == 102
    assert chiptime.i2c_scan_us(0, 1, 400000, 0, read_bytes=8) == 255.0
    assert chiptime.i2c_write_bits(1) == 20
    us = chiptime.i2c_scan_us(36, 32, 400000, 430)
    assert us == (36 * 20 + 32 * 84) * 2.5 + 68 * 430
    recs = [_rec()] * 4
    adc = chiptime.project(recs, 100000, scan_loop_us=20, n_reads=96, n_leds=0)
    i2c = chiptime.project(recs, 100000, scan_loop_us=20, n_reads=0, n_leds=0, scan_hw_us=us)
    for name, _, _ in chiptime.CHIPS:
        assert i2c[name]["stages"][0] - adc[name]["stages"][0] == us - 96 * chiptime.ADC_US


def test_the_benchs_i2c_bus_feeds_the_scanner_the_frame_and_counts_its_transactions():
    """mpscripts/i2cbus.py (the bench's bus for the amr2 board) under the
    firmware's own scanner: every channel reads its frame value, and a scan
    is the transactions the chip would make (a mux write before each of the
    32 sensors, 4 writes switching a mux off, 32 reads)."""
    import os
    import struct
    import sys
    from host_tools import boards, mpscripts
    sys.path.insert(0, os.path.dirname(mpscripts.path("i2cbus.py")))
    try:
        import i2cbus
    finally:
        sys.path.pop(0)
    w = boards.load("esp32s3_devkitc1_amr2")["wiring"]
    bus = i2cbus.mat(w)
    sc = i2cbus.scanner(bus, w)
    n = 3 * len(w["i2c"]["sensors"])
    counts = [(32768 + 37 * ch) & 0xFFFF for ch in range(n)]
    bus.frame[:] = struct.pack("<%dH" % n, *counts)
    sc.scan()
    w0, r0 = bus.writes, bus.reads
    assert list(sc.scan()) == counts
    assert (bus.writes - w0, bus.reads - r0) == (36, 32)
