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
    "LIS2MDL": {"kind": "3-axis AMR, I2C", "axes": "xyz", "noise_mT": 0.003, "range_mT": 5.0, "ma": 0.2,
                "usd": 1.20, "addresses": 1,
                "note": "datasheet 3 mG (0.3 uT) rms at 10 Hz, +-5 mT; fixed address 0x1E: 8 per TCA9548A mux"},
}
MUX = {"74HC4067": {"usd": 0.45, "channels": 16, "ma": 0.2}, "TCA9548A": {"usd": 0.90, "channels": 8, "ma": 0.1}}


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
    "lis4": ("LIS2MDL", _grid((-14, 14), (-22, 22)), "2 x 2 three-axis AMR (LIS2MDL)"),
}

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
        n_other = np.sqrt(((other / sig[None, :]) ** 2).sum(-1))
        n_own = np.sqrt(((own / sig[None, :]) ** 2).sum(-1))
        best = max(best, float((n_other / np.maximum(n_own, 1e-9)).max()))
    return best


I2C_HZ = 400000     # MicroPython's default bus clock


def _call_us():
    """The sourced cost of one I2C call (us) the tables add (chiptime.I2C_CALL_US's bound)."""
    from host_tools.bench import chiptime
    return chiptime.I2C_CALL_US[-1]
READ_BYTES = 6      # an I2C part's x, y, z, 16 bits each: one register read


def scan_transactions(layout):
    """(writes, reads) of one frame's scan of an I2C layout: a register read
    per sensor; a part with one fixed address (all of a mat's answer at it)
    needs its mux channel chosen before each read, and each mux left off
    before the next mux's first channel (as hw.amr.AmrScanner does: 36
    writes, 32 reads on amr2). (0, 0) for an ADC layout."""
    part, sites, _ = LAYOUTS[layout]
    p = PARTS[part]
    if "I2C" not in p["kind"]:
        return 0, 0
    n = len(sites) * ZONES
    if p.get("addresses", 1) >= n:
        return 0, n
    nmux = math.ceil(n / MUX["TCA9548A"]["channels"])
    return n + nmux, n


def costs(layout, call_us=None):
    """Parts, price, current and scan time per frame of a layout. An I2C
    scan: its transactions on the bus (host_tools/bench/chiptime.py) plus
    call_us a transaction for MicroPython's I2C call (default: the sourced
    bound, chiptime.I2C_CALL_US; scan_bus_ms: the bus alone, the least the
    chip can take); an ADC scan: read_us a read."""
    from host_tools.bench import chiptime
    part, sites, _ = LAYOUTS[layout]
    p = PARTS[part]
    n = len(sites) * ZONES
    writes, reads = scan_transactions(layout)
    if "I2C" in p["kind"]:
        mux = "TCA9548A"
        nmux = math.ceil(n / MUX[mux]["channels"]) if writes else 0
        call = chiptime.I2C_CALL_US[-1] if call_us is None else call_us
        bus_ms = chiptime.i2c_scan_us(writes, reads, I2C_HZ, 0, read_bytes=READ_BYTES) / 1000.0
        scan_ms = chiptime.i2c_scan_us(writes, reads, I2C_HZ, call, read_bytes=READ_BYTES) / 1000.0
    else:
        mux = "74HC4067"
        nmux = math.ceil(n / MUX[mux]["channels"])
        scan_ms = bus_ms = n * p["read_us"] / 1000.0
    usd = n * p["usd"] + nmux * MUX[mux]["usd"]
    ma = n * p["ma"] + nmux * MUX[mux]["ma"]
    return {"sensors": n, "channels": n * len(p["axes"]), "mux": "%d x %s" % (nmux, mux) if nmux else "-",
            "writes": writes, "reads": reads, "scan_ms": scan_ms, "scan_bus_ms": bus_ms,
            "frame_share": scan_ms * RATE_HZ / 1000.0, "bus_share": bus_ms * RATE_HZ / 1000.0, "usd": usd, "ma": ma}


DOC_WORLDS = ("capture", "none", "mu100-t0.2", "mu300-t0.2", "mu1000-t0.1", "mu1000-t0.2", "mu5000-t0.2",
              "ferrite-none", "ferrite-mu100-t0.2", "ferrite-mu1000-t0.2")
REFERENCE = "amr2"
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
        for w in worlds:
            snr[w] = worst_snr(w, lay, finite=finite)[0]
            xt[w] = crosstalk(w, lay, finite=finite)
        rows.append({"layout": lay, "snr": snr, "crosstalk": xt, "cost": costs(lay)})
    return rows


def _f(v):
    if v is None:
        return "-"
    if v < 1:
        return "%.2f" % v
    return "%.1f" % v if v < 100 else "%.0f" % v


def markdown(rows, worlds=DOC_WORLDS, finite=True):
    out = []
    w = out.append
    w("Worst-spot zone SNR per frame (%s; NdFeB 3 x 3 mm; ferrite worlds 0.32 of it; target %g; - : the capture "
      "model gives Bz only):" % ("infinite slab + the finite plate's term" if finite else "fast path: infinite slab alone",
                                 TARGET_SNR))
    w("")
    w("| layout | " + " | ".join(worlds) + " |")
    w("|---|" + "---|" * len(worlds))
    for r in rows:
        w("| %s | " % r["layout"] + " | ".join(_f(r["snr"][x]) for x in worlds) + " |")
    w("")
    w("Neighbour zone's largest SNR (crosstalk), parts and cost per 16-zone mat at %d Hz:" % RATE_HZ)
    w("")
    w("| layout | what | crosstalk: neighbour / own SNR, worst world | sensors (channels) | mux | I2C writes + reads a frame | scan ms/frame: bus alone (share) | with %d us an I2C call (share) | parts US$ | mA |" % _call_us())
    w("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        c = r["cost"]
        xt = [v for v in r["crosstalk"].values() if v is not None]
        part, _, what = LAYOUTS[r["layout"]]
        w("| %s | %s: %s | %s | %d (%d) | %s | %s | %.1f (%d %%) | %s | %.0f | %.0f |"
          % (r["layout"], part, what, _f(max(xt) if xt else None), c["sensors"], c["channels"], c["mux"],
             "%d + %d" % (c["writes"], c["reads"]) if c["reads"] else "- (ADC)", c["scan_bus_ms"],
             round(100 * c["bus_share"]), "%.1f (%d %%)" % (c["scan_ms"], round(100 * c["frame_share"]))
             if c["reads"] else "-", c["usd"], c["ma"]))
    w("")
    w("| part | kind | noise used (mT rms) | range (mT) | mA | US$ | a read from MicroPython | note |")
    w("|---|---|---|---|---|---|---|---|")
    for name, p in PARTS.items():
        w("| %s | %s | %g | %g | %g | %.2f | %s | %s |" % (name, p["kind"], p["noise_mT"], p["range_mT"], p["ma"],
                                                          p["usd"], "%g us (ADC)" % p["read_us"] if "read_us" in p
                                                          else "%d-byte register read" % READ_BYTES, p["note"]))
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
