"""Sensor candidates and zone layouts compared on the computed worlds
(`bakumat hw layouts`, hardware/sensing-physics.md section 8).

For each layout and world: the worst-spot signal-to-noise of a zone (the
magnet anywhere on the card at least 9 mm from its edge, at both ends of the
world's height range, upright or leaning 25 degrees four ways; SNR = the
length of the zone's readings each divided by its channel's noise, what a
detector that knows the signature's shape gets), the largest such figure a
neighbour zone reaches (crosstalk: the magnet 9 mm from the shared edge),
scan time per frame on the ESP32, parts, price and current per mat.

Part figures are datasheet values (typical) and distributor prices at 100
pieces as found when this was written: check them before ordering. The
effective noise of the magnetoresistive parts is set 10x above their
datasheet figure: on a mat their floor is the LEDs' and the supply's stray
fields, not the part.
"""
import math

import numpy as np

from host_tools.sim import field as _field
from host_tools.sim import worlds as W

ZONES = 16
RATE_HZ = 50
MAGNET_M = 0.0203  # A m^2: NdFeB 3 x 3 mm, J 1.2 T (host_tools/sim/mom.py magnet_moment)
SENSOR_BELOW_CARD_TOP = 2.7
CARD_W = 62.0
CARD_H = 88.0
EDGE_MARGIN = 9.0
PITCH_X = 70.0  # zone pitch across (boards/mats/reference.json)
TILT_DEG = 25.0

# name -> part figures. noise_mT: rms per reading as the mat would see it.
PARTS = {
    "DRV5055A1": {"kind": "analog Hall, Bz", "axes": "z", "noise_mT": 0.05, "range_mT": 13.0, "ma": 6.0,
                  "usd": 0.55, "read_us": 50.0,
                  "note": "noise: ESP32 ADC, 4 counts at 79 counts/mT; one ADC read 25-100 us from MicroPython; "
                          "60 mV/mT at 3.3 V and 20 kHz checked, current and price not (hardware/parts.json)"},
    "TMAG5273A1": {"kind": "3-axis Hall, I2C", "axes": "xyz", "noise_mT": 0.02, "range_mT": 40.0, "ma": 2.3,
                   "usd": 0.95, "addresses": 128,   # each its own, set over the bus at power-up (as assumed so far)
                   "note": "checked: +-40/80 mT, 12-bit, 2.3 mA active, 32x averaging, 4 factory addresses and a user-set one; "
                           "not checked: the noise with 32x averaging, the price"},
    "MMC5603NJ": {"kind": "3-axis AMR, I2C", "axes": "xyz", "noise_mT": 0.002, "range_mT": 3.0, "ma": 1.5,
                  "usd": 0.90, "addresses": 1,
                  "note": "checked: 2 mG (0.2 uT) rms, +-30 G (+-3 mT), fixed address 0x30 (8 per TCA9548A), "
                          "6.6 ms per measurement at the quietest bandwidth (1.2 ms at the fastest), 4 mA max; "
                          "not checked: the typical current at 50-100 Hz, the price"},
    "LIS2MDL": {"kind": "3-axis AMR, SPI or I2C", "axes": "xyz", "noise_mT": 0.003, "range_mT": 4.9, "ma": 0.2,
                "usd": 1.20, "addresses": 1, "spi_bytes": 7,
                "note": "datasheet 3 mG (0.3 uT) rms, +-49.152 G (1.5 mG/LSB x 32768), 100 Hz, 3/4-wire SPI at up to "
                        "10 MHz or I2C at 0x1E only; ~200 uA in high-resolution mode (hardware/parts.json)"},
    "MLX90393": {"kind": "3-axis Hall, SPI or I2C", "axes": "xyz", "noise_mT": 0.005, "range_mT": 4.9, "ma": 3.0,
                 "usd": None, "addresses": 4, "spi_bytes": 8,
                 "note": "5-50 mT by gain; at the most sensitive gain 0.150 uT/LSB (x, y) over 16 bits, so about "
                         "+-4.9 mT; conversions 1.3-200 ms by filter and oversampling; the noise at the setting that "
                         "keeps 50 Hz and the current are not checked (hardware/parts.json)"},
    "TMAG5170": {"kind": "3-axis Hall, SPI", "axes": "xyz", "noise_mT": 0.025, "range_mT": 25.0, "ma": 3.0,
                 "usd": None, "addresses": 1, "spi_bytes": 4, "spi_calls": 3,
                 "note": "+-25/50/100 mT (A1), about 20-25 uT rms; SPI frames of 32 bits, one register each: "
                         "3 transfers a part for x, y, z; current and price not checked (hardware/parts.json)"},
}
MUX = {"74HC4067": {"usd": 0.45, "channels": 16, "ma": 0.2}, "TCA9548A": {"usd": 0.90, "channels": 8, "ma": 0.1},
       # 1-of-16 decoder driving the chip selects (outputs active low); its
       # quiescent current is microamps
       "74HC154": {"usd": 0.40, "channels": 16, "ma": 0.01},
       # a helper microcontroller scanning in C, its flash and crystal (estimates)
       "RP2040": {"usd": 1.60, "channels": 1 << 16, "ma": 25.0}}


def _grid(xs, ys):
    return [(x, y) for y in ys for x in xs]


# name -> (part, sites relative to the zone centre in mm, what it is)
LAYOUTS = {
    "hall6": ("DRV5055A1", _grid((-16, 16), (-30, 0, 30)), "the present mat: 2 x 3 Bz sensors"),
    "hall12": ("DRV5055A1", _grid((-18, 0, 18), (-33, -11, 11, 33)), "3 x 4 Bz sensors, ~20 mm pitch"),
    "hall24": ("DRV5055A1", _grid((-18, -6, 6, 18), (-35, -21, -7, 7, 21, 35)), "4 x 6 Bz sensors, 12-14 mm pitch"),
    "tmag6": ("TMAG5273A1", _grid((-16, 16), (-30, 0, 30)), "2 x 3 three-axis Hall"),
    "amr2": ("MMC5603NJ", [(0, -22), (0, 22)], "2 three-axis AMR on the long axis"),
    "amr4": ("MMC5603NJ", _grid((-14, 14), (-22, 22)), "2 x 2 three-axis AMR"),
    "amr4edge": ("MMC5603NJ", [(-26, 0), (26, 0), (0, -39), (0, 39)],
                 "4 three-axis AMR 2 mm inside the plate's mid-edges"),
    "lis4": ("LIS2MDL", _grid((-14, 14), (-22, 22)), "2 x 2 three-axis AMR (LIS2MDL), I2C"),
    "amr2uart": ("MMC5603NJ", [(0, -22), (0, 22)],
                 "amr2's sensors and muxes scanned by an RP2040 in C, each frame streamed over UART"),
    "lis2i2c": ("LIS2MDL", [(0, -22), (0, 22)], "2 three-axis AMR (LIS2MDL) on the long axis, I2C behind TCA9548A"),
    "lis2": ("LIS2MDL", [(0, -22), (0, 22)],
             "2 three-axis AMR (LIS2MDL) on the long axis, one SPI bus, chip selects from 74HC154 decoders"),
    "mlx2": ("MLX90393", [(0, -22), (0, 22)], "2 three-axis Hall (MLX90393) on the long axis, SPI, decoder selects"),
    "tmag2": ("TMAG5170", [(0, -22), (0, 22)], "2 three-axis Hall (TMAG5170) on the long axis, SPI, decoder selects"),
}

# How a layout's parts reach the ESP32 (default: by the part's kind): "adc"
# (an analog mux per 16), "i2c" (behind TCA9548A when the part has too few
# addresses), "spi" (one bus, a chip select per part from 74HC154 decoders),
# "uart" (a helper microcontroller scans the parts and sends each frame).
BUS = {"amr2uart": "uart", "lis2": "spi", "mlx2": "spi", "tmag2": "spi"}
UART_BAUD = 921600   # the helper's stream (a frame of 96 channels: 2 x 96 bytes and 4 of framing)

AXES = {"x": (1.0, 0.0, 0.0), "y": (0.0, 1.0, 0.0), "z": (0.0, 0.0, 1.0)}


def channels(layout):
    """[(x, y, axis vector, noise_mT)] of one zone, relative to its centre."""
    part, sites, _ = LAYOUTS[layout]
    p = PARTS[part]
    return [(x, y, AXES[a], p["noise_mT"]) for (x, y) in sites for a in p["axes"]]


def spots(step=2.0):
    hw = CARD_W / 2.0 - EDGE_MARGIN
    hh = CARD_H / 2.0 - EDGE_MARGIN
    xs = np.arange(-hw, hw + 1e-9, step)
    ys = np.arange(-hh, hh + 1e-9, step)
    X, Y = np.meshgrid(xs, ys)
    return X.ravel(), Y.ravel()


def directions():
    return _field.tilted_axes(TILT_DEG, 4)


def _readings(world, px, py, h, u, chans, offset=(0.0, 0.0), finite=True):
    """(spots, channels) readings in mT, a magnet at (px, py) h above the card
    (the card's plate centred on the zone); finite: with the finite plate's
    term (host_tools/sim/plate.py), else the infinite slab alone."""
    sx = np.array([c[0] + offset[0] for c in chans])[None, :]
    sy = np.array([c[1] + offset[1] for c in chans])[None, :]
    ax = np.array([c[2] for c in chans])
    z = SENSOR_BELOW_CARD_TOP + h
    pose = (px[:, None], py[:, None], z, u[0], u[1], u[2])
    if world.computed:
        b = world.field(MAGNET_M, pose, sx, sy, plate_centre=(0.0, 0.0) if finite else None,
                        card_top=SENSOR_BELOW_CARD_TOP)
        return (b * ax[None, :, :]).sum(-1)
    # the capture world: the old plate model, Bz only
    if any(a != (0.0, 0.0, 1.0) for a in map(tuple, ax)):
        return None
    plate = {"attenuation": 0.3, "spread_mm": 4.0, "capture": 0.5}
    rect = (-28.0, -41.0, 28.0, 41.0)
    pz = SENSOR_BELOW_CARD_TOP - 0.6
    out = np.empty((len(px), sx.shape[1]))
    for i in range(len(px)):
        for j in range(sx.shape[1]):
            out[i, j] = _field.plate_bz(MAGNET_M, u[0], u[1], u[2], px[i], py[i], z, sx[0, j], sy[0, j], plate, rect, pz)
    return out


_TIE = 1e-9


def _clip(r, layout):
    """Readings as the part gives them: a field beyond its range reads as the range."""
    rng = PARTS[LAYOUTS[layout][0]]["range_mT"]
    return np.clip(r, -rng, rng)


def worst_snr(world, layout, step=2.0, finite=True):
    """(worst-spot zone SNR, (x, y, h, moment direction)), over spots,
    heights and tilts (finite: with the finite plate's term)."""
    world = W.get(world)
    chans = channels(layout)
    sig = np.array([c[3] for c in chans])
    px, py = spots(step)
    worst = None
    for h in world.heights:
        for u in directions():
            r = _readings(world, px, py, h, u, chans, finite=finite)
            if r is None:
                return None, None
            r = _clip(r, layout)
            snr = np.sqrt(((r / sig[None, :]) ** 2).sum(-1))
            # The card is mirror-symmetric, so the worst spot comes in ties
            # that differ in the last bits from machine to machine: within
            # _TIE of the least the lowest (y, x) is the worst spot, and a
            # later height or tilt replaces it only when clearly lower.
            tie = np.flatnonzero(snr <= snr.min() * (1.0 + _TIE))
            i = int(min(tie, key=lambda j: (py[j], px[j])))
            if worst is None or snr[i] < worst[0] * (1.0 - _TIE):
                worst = (float(snr[i]), (float(px[i]), float(py[i]), h, u))
    return worst


def crosstalk(world, layout, finite=True):
    """Largest ratio of the neighbour zone's SNR (across, 70 mm pitch) to the
    magnet's own zone's, the magnet at the lowest height 9 mm from the shared
    edge: below 1, the zone that reads most is the right one."""
    world = W.get(world)
    chans = channels(layout)
    sig = np.array([c[3] for c in chans])
    hh = CARD_H / 2.0 - EDGE_MARGIN
    py = np.arange(-hh, hh + 1e-9, 2.0)
    px = np.full_like(py, CARD_W / 2.0 - EDGE_MARGIN)
    best = 0.0
    for u in directions():
        other = _readings(world, px, py, world.heights[0], u, chans, offset=(PITCH_X, 0.0), finite=finite)
        own = _readings(world, px, py, world.heights[0], u, chans, finite=finite)
        if other is None:
            return None
        other = _clip(other, layout)
        own = _clip(own, layout)
        n_other = np.sqrt(((other / sig[None, :]) ** 2).sum(-1))
        n_own = np.sqrt(((own / sig[None, :]) ** 2).sum(-1))
        best = max(best, float((n_other / np.maximum(n_own, 1e-9)).max()))
    return best


I2C_HZ = 400000     # MicroPython's default bus clock
SCAN_LIMIT_MS = 5.0  # a layout qualifies when its scan at the high per-call bound takes at most this (a quarter frame)


def _call_us():
    """The sourced cost of one I2C call (us) the tables add (chiptime.I2C_CALL_US's bound)."""
    from host_tools.bench import chiptime
    return chiptime.I2C_CALL_US[-1]


READ_BYTES = 6      # an I2C part's x, y, z, 16 bits each: one register read


def bus_kind(layout):
    """How the layout's parts reach the ESP32: "adc", "i2c", "spi" or "uart"."""
    if layout in BUS:
        return BUS[layout]
    return "adc" if "analog" in PARTS[LAYOUTS[layout][0]]["kind"] else "i2c"


def scan_transactions(layout):
    """(writes, reads) of one frame's scan of an I2C layout: a register read
    per sensor; a part with one fixed address (all of a mat's answer at it)
    needs its mux channel chosen before each read, and each mux left off
    before the next mux's first channel (as hw.amr.AmrScanner does: 36
    writes, 32 reads on amr2). (0, 0) for a layout on another bus."""
    part, sites, _ = LAYOUTS[layout]
    p = PARTS[part]
    if bus_kind(layout) != "i2c":
        return 0, 0
    n = len(sites) * ZONES
    if p.get("addresses", 1) >= n:
        return 0, n
    nmux = math.ceil(n / MUX["TCA9548A"]["channels"])
    return n + nmux, n


def bus(layout):
    """One frame's bus work on the ESP32: {"kind", "calls" (the bus calls
    MicroPython makes), "bits" (on the wire, the CPU waiting for them),
    "freq", "selects" (chip-select Pin writes), "mux": [(part, count)]}.
    SPI: one transfer a read (the part's register address, then its bytes),
    each part's select from a 74HC154 decoder whose four address lines are
    shared: visited in Gray-code order each part costs one address-line
    write, each decoder its enable on and off (hw.lis2: 34 writes for 32
    parts); a part read in several transfers needs its select dropped and
    raised between them (two more writes each)."""
    from host_tools.bench import chiptime
    part, sites, _ = LAYOUTS[layout]
    p = PARTS[part]
    n = len(sites) * ZONES
    kind = bus_kind(layout)
    if kind == "adc":
        return {"kind": kind, "calls": n, "bits": 0, "freq": 0, "selects": 0,
                "mux": [("74HC4067", math.ceil(n / MUX["74HC4067"]["channels"]))]}
    if kind == "i2c":
        writes, reads = scan_transactions(layout)
        bits = writes * chiptime.i2c_write_bits(1) + reads * chiptime.i2c_read_mem_bits(READ_BYTES)
        return {"kind": kind, "calls": writes + reads, "bits": bits, "freq": I2C_HZ, "selects": 0,
                "mux": [("TCA9548A", math.ceil(n / MUX["TCA9548A"]["channels"]))] if writes else []}
    if kind == "spi":
        per = p.get("spi_calls", 1)
        ndec = math.ceil(n / MUX["74HC154"]["channels"])
        return {"kind": kind, "calls": n * per, "bits": n * per * 8 * p["spi_bytes"], "freq": chiptime.SPI_HZ,
                "selects": n + ndec + 2 * n * (per - 1), "mux": [("74HC154", ndec)]}
    # uart: the helper scans in C (the amr2 wiring on its own I2C) and sends
    # the frame; the ESP32's UART driver takes it in by interrupt, so the
    # loop makes one readinto of what has arrived (the wire is latency)
    return {"kind": kind, "calls": 1, "bits": 0, "freq": UART_BAUD, "selects": 0,
            "mux": [("RP2040", 1), ("TCA9548A", math.ceil(n / MUX["TCA9548A"]["channels"]))]}


def costs(layout, call_us=None):
    """Parts, price (None: unknown), current and scan time per frame of a
    layout. The scan: its bus calls x the per-call cost plus its bits on the
    wire and its chip-select writes (host_tools/bench/chiptime.py CALL_US:
    scan_ms_low / scan_ms_high at the sourced bounds; scan_ms at the high
    bound, or at call_us a call when given; scan_bus_ms the wire alone).
    qualifies: the high bound within SCAN_LIMIT_MS; helper: a second
    microcontroller (with its own firmware) scans the parts."""
    from host_tools.bench import chiptime
    part, sites, _ = LAYOUTS[layout]
    p = PARTS[part]
    n = len(sites) * ZONES
    writes, reads = scan_transactions(layout)
    b = bus(layout)
    kind = b["kind"]
    wire_ms = b["bits"] * 1e3 / b["freq"] if b["bits"] else 0.0
    low = chiptime.bus_scan_us(kind, b["calls"], b["bits"], b["freq"], "low", b["selects"]) / 1000.0
    high = chiptime.bus_scan_us(kind, b["calls"], b["bits"], b["freq"], "high", b["selects"]) / 1000.0
    if call_us is None:
        scan_ms = high
    else:
        scan_ms = wire_ms + b["calls"] * call_us / 1000.0 + b["selects"] * chiptime.CALL_US["pin"][1] / 1000.0
    usd = None if p["usd"] is None else n * p["usd"] + sum(k * MUX[m]["usd"] for m, k in b["mux"])
    ma = n * p["ma"] + sum(k * MUX[m]["ma"] for m, k in b["mux"])
    return {"sensors": n, "channels": n * len(p["axes"]), "bus": kind,
            "mux": ", ".join("%d x %s" % (k, m) for m, k in b["mux"] if k) or "-",
            "writes": writes, "reads": reads, "calls": b["calls"], "selects": b["selects"],
            "scan_ms": scan_ms, "scan_bus_ms": wire_ms, "scan_ms_low": low, "scan_ms_high": high,
            "qualifies": high <= SCAN_LIMIT_MS, "helper": kind == "uart",
            "frame_share": scan_ms * RATE_HZ / 1000.0, "bus_share": wire_ms * RATE_HZ / 1000.0, "usd": usd, "ma": ma}


DOC_WORLDS = ("capture", "none", "mu100-t0.2", "mu300-t0.2", "mu1000-t0.1", "mu1000-t0.2", "mu5000-t0.2",
              "ferrite-none", "ferrite-mu100-t0.2", "ferrite-mu1000-t0.2")
REFERENCE = "lis2"
TARGET_SNR = 5.0


def zone_snr(readings_mT, layout):
    """The zone SNR of one set of readings (mT, channel order of `layout`)."""
    sig = np.array([c[3] for c in channels(layout)])
    return float(np.sqrt(((np.asarray(readings_mT) / sig) ** 2).sum()))


def table(worlds=DOC_WORLDS, layouts=None, finite=True):
    layouts = list(layouts or LAYOUTS)
    rows = []
    for lay in layouts:
        snr = {}
        xt = {}
        pk = {}
        for w in worlds:
            snr[w] = worst_snr(w, lay, finite=finite)[0]
            xt[w] = crosstalk(w, lay, finite=finite)
            pk[w] = peak(w, lay, finite=finite)
        rows.append({"layout": lay, "snr": snr, "crosstalk": xt, "peak_mT": pk, "cost": costs(lay)})
    return rows


def _f(v):
    if v is None:
        return "-"
    if v < 1:
        return "%.2f" % v
    return "%.1f" % v if v < 100 else "%.0f" % v


def _usd(v):
    return "unknown" if v is None else "%.0f" % v


def clipping(row):
    """(largest field / the part's range over the worlds with a card, the
    same without a card) of a table row: above 1 some channel saturates."""
    rng = PARTS[LAYOUTS[row["layout"]][0]]["range_mT"]
    card = [v for w, v in row["peak_mT"].items() if v is not None and W.get(w).plate is not None]
    bare = [v for w, v in row["peak_mT"].items() if v is not None and W.get(w).plate is None and W.get(w).computed]
    return (max(card) / rng if card else None, max(bare) / rng if bare else None)


def markdown(rows, worlds=DOC_WORLDS, finite=True):
    from host_tools.bench import chiptime
    out = []
    w = out.append
    w("Worst-spot zone SNR per frame (%s; readings clipped at the part's range; NdFeB 3 x 3 mm; ferrite worlds 0.32 "
      "of it; target %g; - : the capture model gives Bz only):"
      % ("infinite slab + the finite plate's term" if finite else "fast path: infinite slab alone", TARGET_SNR))
    w("")
    w("| layout | " + " | ".join(worlds) + " |")
    w("|---|" + "---|" * len(worlds))
    for r in rows:
        w("| %s | " % r["layout"] + " | ".join(_f(r["snr"][x]) for x in worlds) + " |")
    w("")
    w("The bus, parts and cost per 16-zone mat at %d Hz. The scan a frame = its bus calls x the per-call cost + its "
      "bits on the wire + its chip-select writes, at the low and the high sourced per-call bound (us a call: %s; "
      "sources: hardware/parts.json); a layout qualifies when the high bound is at most %g ms (a quarter frame). "
      "Crosstalk: the neighbour zone's SNR over the own zone's, worst world. Clipping: the largest field any "
      "channel sees over the part's range, the magnet at its lowest anywhere on the card (with a card: the worst "
      "world with a plate; without: no card), above 1 it saturates. Prices are estimates at 100 pieces:"
      % (RATE_HZ, ", ".join("%s %g-%g" % (k, lo, hi) for k, (lo, hi) in chiptime.CALL_US.items()), SCAN_LIMIT_MS))
    w("")
    w("| layout | what | bus | calls + selects a frame | wire ms | scan ms/frame: low - high bound | qualifies "
      "(<= %g ms) | crosstalk | clipping: with a card / without | sensors (channels) | mux / decoders | parts US$ "
      "| mA |" % SCAN_LIMIT_MS)
    w("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        c = r["cost"]
        xt = [v for v in r["crosstalk"].values() if v is not None]
        part, _, what = LAYOUTS[r["layout"]]
        cl = clipping(r) if "peak_mT" in r else (None, None)
        w("| %s | %s: %s | %s | %d + %d | %.2f | %.1f - %.1f | %s | %s | %s / %s | %d (%d) | %s | %s | %.0f |"
          % (r["layout"], part, what, c["bus"], c["calls"], c["selects"], c["scan_bus_ms"], c["scan_ms_low"],
             c["scan_ms_high"], "yes" if c["qualifies"] else "no", _f(max(xt) if xt else None), _f(cl[0]),
             _f(cl[1]), c["sensors"], c["channels"], c["mux"], _usd(c["usd"]), c["ma"]))
    w("")
    w("| part | kind | noise used (mT rms) | range (mT) | mA | US$ | note |")
    w("|---|---|---|---|---|---|---|")
    for name, p in PARTS.items():
        w("| %s | %s | %g | %g | %g | %s | %s |" % (name, p["kind"], p["noise_mT"], p["range_mT"], p["ma"],
                                                  "unknown" if p["usd"] is None else "%.2f" % p["usd"], p["note"]))
    return "\n".join(out) + "\n"


def failing_worlds(rows, layout=REFERENCE, target=TARGET_SNR):
    for r in rows:
        if r["layout"] == layout:
            return [w for w, v in r["snr"].items() if v is not None and v < target]
    return []


def peak(world, layout, finite=True):
    """Largest field (mT) any channel of the zone sees, the magnet at its
    lowest anywhere on the card: above the part's range it saturates."""
    world = W.get(world)
    chans = channels(layout)
    px, py = spots(2.0)
    best = 0.0
    for u in directions():
        r = _readings(world, px, py, world.heights[0], u, chans, finite=finite)
        if r is None:
            return None
        best = max(best, float(np.abs(r).max()))
    return best


AMR_MA_MAX = 4.0  # MMC5603NJ supply current, datasheet maximum (hardware/parts.json)

# The reference layout's parts beyond the sensors and muxes (per-unit US$ at 100 pieces, estimates).
AMR2_PASSIVES = (("100 nF 0402 decoupling, one per sensor and mux", 36, 0.01),
                 ("1 uF 0402 at each MMC5603NJ's supply (datasheet application circuit; check)", 32, 0.02),
                 ("4.7 kohm 0402 pull-ups, SDA and SCL of each mux channel and of the trunk", 66, 0.005))


def amr2_wiring(board):
    """[(mux address, mux channel, zone, site, channels)] of the amr2 mat:
    sensors in zone order, 8 per TCA9548A (0x70, 0x71, ...)."""
    sites = []
    chans = board["sensors"]
    for i in range(0, len(chans), 3):
        sites.append((chans[i]["zone"], [c["ch"] for c in chans[i:i + 3]]))
    out = []
    per_zone = {}
    for k, (zone, chs) in enumerate(sites):
        slot = per_zone.get(zone, 0)
        per_zone[zone] = slot + 1
        out.append((0x70 + k // 8, k % 8, zone, slot, chs))
    return out


def amr2_markdown(board):
    c = costs("amr2")
    part = PARTS["MMC5603NJ"]
    mux = MUX["TCA9548A"]
    w = amr2_wiring(board)
    out = ["Parts for one 16-zone mat (sensing only; the ESP32, LEDs, buttons and supply as in the Hall boards):",
           "", "| part | qty | US$ each | US$ | mA each | mA |", "|---|---:|---:|---:|---:|---:|"]
    nmux = len({m for m, _, _, _, _ in w})
    rows = [("MMC5603NJ three-axis AMR magnetometer, I2C 0x30", len(w), part["usd"], part["ma"]),
            ("TCA9548A 8-channel I2C multiplexer, 0x70 + n", nmux, mux["usd"], mux["ma"])]
    rows += [(name, n, usd, 0.0) for name, n, usd in AMR2_PASSIVES]
    tot_usd = 0.0
    tot_ma = 0.0
    for name, n, usd, ma in rows:
        tot_usd += n * usd
        tot_ma += n * ma
        out.append("| %s | %d | %.3f | %.2f | %.1f | %.1f |" % (name, n, usd, n * usd, ma, n * ma))
    out.append("| **total** | | | **%.2f** | | **%.0f** |" % (tot_usd, tot_ma))
    out += ["", "Scan: %d sensors, each behind its mux channel: %d writes (a channel chosen before each sensor, each "
            "mux left off before the next) and %d reads of %d bytes a frame, %.1f ms of bus at %d kHz, %d %% of a %d "
            "Hz frame; plus what MicroPython's I2C call costs on the chip, not measured for these parts: at the %d us "
            "an ESP32-S2 took beyond the bus (micropython PR #8718) %.1f ms, %d %% (the Hall mat: 96 ADC reads, 4.8 "
            "ms; hardware/bring-up.md times one call first). Each sensor measures in the background (continuous mode, "
            "6.6 ms per measurement at the quietest bandwidth, datasheet), so a read only fetches the latest result. "
            "Current: %.0f mA as estimated, %.0f mA at the datasheet's 4 mA maximum per sensor, against 576 mA typical "
            "(960 mA max) for the 96 DRV5055A1 of the Hall mat."
            % (c["sensors"], c["writes"], c["reads"], READ_BYTES, c["scan_bus_ms"], I2C_HZ // 1000,
               round(100 * c["bus_share"]), RATE_HZ, _call_us(), c["scan_ms"], round(100 * c["frame_share"]), tot_ma,
               tot_ma + len(w) * (AMR_MA_MAX - part["ma"])),
            "", "I2C wiring (one ESP32 bus at 400 kHz; each mux channel reaches one sensor, so every sensor keeps "
            "the part's fixed address 0x30):", "",
            "| mux | channel | zone | sensor (0: y - 22 mm, 1: y + 22 mm) | board channels x, y, z |",
            "|---|---|---|---|---|"]
    for m, ch, zone, slot, chs in w:
        out.append("| 0x%02x | %d | %d | %d | %s |" % (m, ch, zone, slot, ", ".join(map(str, chs))))
    return "\n".join(out) + "\n"
