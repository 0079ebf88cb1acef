"""Loop times projected onto the chips, from times measured here.

The firmware's stages are timed on the unix port's `micropython` in the same
run as pystone (host_tools/mpscripts/pystone.py); a stage's time on a chip is
its time here times (pystones/s here) / (pystones/s on the chip), from the
published figures below. What the interpreter does not do (an ADC
conversion, the LED strip's bit stream, the UART draining its FIFO) is added
from the chip's own figures instead, also cited.
"""

# (name, pystones/s, source). MicroPython's own pystone (pystone_lowmem).
CHIPS = (
    ("ESP32-S3 @ 240 MHz", 1915,
     "ESP32@160 x 15.4 s / 8.9 s: one MicroPython benchmark timed on ESP32@160 and ESP32-S3@240 "
     "(scruss.com, 'MicroPython benchmarking', 2025)"),
    ("ESP32 @ 240 MHz", 1661, "micropython issue #5673 (v1.12, pystone_lowmem, 240 MHz)"),
    ("ESP32 @ 160 MHz", 1107,
     "1,661 x 160/240, clock-scaled (micropython #6565: 1,014 on a build whose clock was in doubt)"),
)
ADC_US = 35         # one read_u16() on an ESP32, call included (micropython issue #7495)
LED_US = 30         # one WS2812 LED of bit stream; the write blocks until done (datasheet timing)
FIFO = 128          # the UART's TX FIFO: writing more waits for the line
STAGES = ("scan", "sense", "link", "show", "tx")
# SPI NOR flash of the modules (datasheet typical, Winbond W25Q32JV: page
# program 0.4 ms per 256 bytes, 4 KB sector erase 45 ms): what a save that
# writes nbytes anew costs the chip at least, besides the interpreter's work
PAGE_US = 400
ERASE_US = 45000
# I2C (a board whose sensors are on I2C: the amr2 mat). On the bus a byte is
# 9 clocks (8 bits and the acknowledge), a start, a repeated start or a stop
# about one. Besides, each transaction costs machine.I2C's C call and the
# ESP-IDF driver's command link: no figure is published for the parts on
# this board, so the projection gives two bounds. 0: the bus alone, the
# least the chip can take. 430 us: micropython PR #8718 measured one
# readfrom_mem() of 8 bytes at 680 us on an ESP32-S2 (ESP-IDF 4.4.1, with
# that PR's write-then-read transfer), of which the bus is about 255 us at
# MicroPython's default 400 kHz (an assumption: the PR does not say the
# clock).
I2C_CALL_US = (0, 430)

# What one bus call costs the chip beyond its bits on the wire, per bus
# kind: (low, high) in us, the low and high bounds the layouts table
# (host_tools/boards/layouts.py) and the runtime projection print. Sources
# in hardware/parts.json ("bus_calls"); none of them was measured on this
# project's boards: hardware/bring-up.md times 1,000 calls first.
#   i2c: 325 us (a 1-byte register read on an ESP32 at 400 kHz took about
#        420 us, about 325 of it software: forum.micropython.org topic 8443)
#        to 430 us (an 8-byte readfrom_mem on an ESP32-S2, 680 us, 430 of it
#        software: micropython PR #8718).
#   spi: 26 us (an ESP-IDF spi_master transaction on the interrupt path the
#        ESP32 port's machine.SPI takes, one spi_device_transmit per call,
#        ESP-IDF spi_master docs for the S3) to 55 us (the 40-60 us estimated
#        for a 7-byte write_readinto at 10 MHz, its 5.6 us of bits taken out;
#        an estimate, not a measurement).
#   uart: 30 to 100 us (one readinto of a frame the UART driver's ring
#        buffer already holds: a copy and the driver's lock; an estimate:
#        no published figure found).
#   adc: 25 to 100 us (one read_u16(), call included: micropython #7495).
#   pin: 1 to 5 us (the C side of one Pin.value(v) call: gpio_set_level; an
#        estimate: the bytecode side is in the projected scan loop).
CALL_US = {"i2c": (325, 430), "spi": (26, 55), "uart": (30, 100), "adc": (25, 100), "pin": (1, 5)}
BOUNDS = ("low", "high")
SPI_HZ = 10000000   # the SPI clock of the lis2 mat: the LIS2MDL's SPI limit (hardware/parts.json)


def spi_scan_us(calls, nbytes, freq, call_us, selects=0, select_us=0.0):
    """One frame's SPI scan on the chip: calls transfers of nbytes each at
    clock freq, call_us a call beyond its bits, and selects chip-select pin
    writes at select_us each (the bytecode of the loop apart)."""
    return calls * (nbytes * 8 * 1e6 / freq + call_us) + selects * select_us


def bus_scan_us(kind, calls, bits, freq, bound="high", selects=0):
    """What a frame's bus costs the chip at a bound of CALL_US: its bits on
    the wire at freq, calls x the per-call cost, selects x a Pin call."""
    i = BOUNDS.index(bound)
    wire = bits * 1e6 / freq if freq else 0.0
    return wire + calls * CALL_US[kind][i] + selects * CALL_US["pin"][i]


def i2c_write_bits(nbytes):
    """Clocks of a write of nbytes to an address (start, address, data, stop)."""
    return 1 + 9 * (1 + nbytes) + 1


def i2c_read_mem_bits(nbytes):
    """Clocks of readfrom_mem(_into) of nbytes: the register written, a
    repeated start, the address again, the data, the stop."""
    return 1 + 9 * 2 + 1 + 9 * (1 + nbytes) + 1


def i2c_scan_us(writes, reads, freq, call_us, write_bytes=1, read_bytes=6):
    """What one scan's transactions (writes of write_bytes, register reads
    of read_bytes) cost on the chip at bus clock freq, call_us a call."""
    bits = writes * i2c_write_bits(write_bytes) + reads * i2c_read_mem_bits(read_bytes)
    return bits * 1e6 / freq + (writes + reads) * call_us


def flash_write_us(nbytes):
    """Flash time of writing nbytes into fresh blocks (littlefs erases a
    4 KB block before it programs it)."""
    pages = (nbytes + 255) // 256
    blocks = (nbytes + 4095) // 4096
    return pages * PAGE_US + blocks * ERASE_US


def flash_ops_us(erases, nbytes):
    """Flash time of what littlefs did on the chip-shaped device in a tick:
    erases (4 KB blocks) and bytes programmed, page by page."""
    return erases * ERASE_US + (nbytes + 255) // 256 * PAGE_US


def serial_stall_us(nbytes, baud):
    """Time a write of nbytes blocks on a UART whose FIFO was empty."""
    return max(0, nbytes - FIFO) * 10 * 1000000.0 / baud


def project(records, host_pystones, scan_loop_us, n_reads, n_leds, baud=115200, setup_tick=-1, scan_hw_us=None):
    """records: [(scan, sense, link, show, tx us, strip writes, tx bytes,
    events, saves[, save us, save bytes[, flash erases, flash bytes
    programmed]])] per tick, measured here. Returns {chip name: {...}} with,
    per chip, the quiet tick's stages (mean), its mean, 99th percentile and
    worst, and the worst tick with an event and with a save, all in us; and
    the tick that set the game up (setup_tick: the cfg request) apart.
    scan_hw_us: what the scan's hardware costs on the chip beyond the
    projected loop (default n_reads ADC reads; an I2C board: i2c_scan_us)."""
    out = {}
    for name, ps, _ in CHIPS:
        k = host_pystones / float(ps)
        scan = scan_loop_us * k + (n_reads * ADC_US if scan_hw_us is None else scan_hw_us)

        def chip_us(r):
            # save_us: what the harness's stand-in flash driver (Python) took
            # in the tick, taken out; the chip's flash time for what it
            # erased and wrote instead (the firmware's save and littlefs
            # are projected with the rest of the tick)
            save_us, save_bytes = (r[9], r[10]) if len(r) > 10 else (0, 0)
            if len(r) > 12:        # counted on littlefs (a chip-shaped RAM device)
                flash = flash_ops_us(r[11], r[12]) if (r[11] or r[12]) else 0
            else:                  # estimated: the whole game file written anew
                flash = flash_write_us(save_bytes) if save_bytes else 0
            return (scan + (r[1] + r[2] + r[3] + r[4] - save_us) * k + r[5] * n_leds * LED_US
                    + serial_stall_us(r[6], baud) + flash)

        quiet = [r for r in records if r[6] == 0 and r[7] == 0 and r[8] == 0]
        qt = sorted(chip_us(r) for r in quiet)
        # of those, the ticks where the sensing decided nothing (a decision
        # allocates; the per-frame path, the link and the LEDs do not)
        still = sorted(chip_us(r) for r in quiet if len(r) > 13 and r[13] == 0)
        stages = [scan] + [sum(r[i] for r in quiet) * k / max(1, len(quiet)) for i in range(1, 5)]
        play = [r for i, r in enumerate(records) if i != setup_tick]
        ev = [r for r in play if r[7] > 0]
        sv = [r for r in play if r[8] > 0]
        worst_ev = max(ev, key=chip_us) if ev else None
        worst_sv = max(sv, key=chip_us) if sv else None
        out[name] = {
            "ratio": k, "stages": stages, "quiet_mean": sum(qt) / max(1, len(qt)),
            "quiet_p50": qt[(len(qt) - 1) // 2] if qt else 0,
            "quiet_p99": qt[int(0.99 * (len(qt) - 1))] if qt else 0, "quiet_max": qt[-1] if qt else 0,
            "event_max": chip_us(worst_ev) if worst_ev else 0, "event_rec": worst_ev,
            "save_max": chip_us(worst_sv) if worst_sv else 0, "save_rec": worst_sv,
            "setup": chip_us(records[setup_tick]) if 0 <= setup_tick < len(records) else 0,
            "n_quiet": len(quiet), "n_event": len(ev), "n_save": len(sv),
            "n_still": len(still), "still_mean": sum(still) / max(1, len(still)),
            "still_p99": still[int(0.99 * (len(still) - 1))] if still else 0,
            "event_p50": sorted(chip_us(r) for r in ev)[(len(ev) - 1) // 2] if ev else 0,
            "save_p50": sorted(chip_us(r) for r in sv)[(len(sv) - 1) // 2] if sv else 0,
            # ticks of play over a 20 ms period: (all, deciding an event, saving)
            "over20": (sum(1 for r in play if chip_us(r) > 20000), sum(1 for r in ev if chip_us(r) > 20000),
                       sum(1 for r in sv if chip_us(r) > 20000)),
        }
    return out


def viper_floor(quiet_us, target_us, kernels_host_us, k, gain_host):
    """The projection runs viper's machine code by the same pystone ratio k
    as bytecode: it assumes the chip's viper speed-up over its bytecode on
    the per-frame loops is the host's (gain_host, measured in the same
    process). Were it only g, the kernels' kernels_host_us per tick here
    would take kernels_host_us * k * gain_host / g on the chip. Returns the
    least g that keeps a quiet tick of quiet_us (projected) within
    target_us, or None when it is over the target already."""
    spare = target_us - quiet_us
    if spare <= 0 or kernels_host_us <= 0:
        return None
    return gain_host / (1.0 + spare / (kernels_host_us * k))


def merge_min(runs):
    """Per tick, the least of several runs' times (the game is the same each
    run: the machine's other load only ever adds time)."""
    out = []
    for recs in zip(*runs):
        first = recs[0]
        out.append(tuple(min(r[i] for r in recs) for i in range(5)) + tuple(first[5:9]) +
                   tuple(min(r[i] for r in recs) for i in range(9, len(first))))
    return out
