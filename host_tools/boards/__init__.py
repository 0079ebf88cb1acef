"""Board definitions: the mat geometry (boards/mats/<mat>.json) merged with a
board folder's wiring (boards/<board>/wiring.json). Format:
docs/formats/board-definition-v2.md (v1 files load unchanged).

    from host_tools import boards
    boards.names()            # ["reference", ...]
    b = boards.load("reference")
    b["zones"], b["sensors"], b["sensor"], b["rate_hz"], b.get("wiring")

A bare mat is a board too (name = the mat's name, no "wiring"), so the
simulator and the tests work before any board folder exists. Every problem
raises BoardError (a UserError) naming the file and the field.
"""
import copy
import json
import os

from host_tools.errors import UserError
from host_tools.fwpath import BOARDS_DIR

VERSION = 2
MINOR = 1      # wiring minor versions this tool reads: 1 adds the "spi" wiring (board-definition-v2.md)
AXES = ("x", "y", "z", "-x", "-y", "-z")
MATS_DIR = os.path.join(BOARDS_DIR, "mats")

# Keys of `board show --json` in the order the issue lists them; extras follow.
CORE_KEYS = ("name", "zones", "sensors", "sensor", "sensor_plane_to_card_top_mm", "rate_hz")
SENSOR_KEYS = ("zero_counts", "counts_per_mT", "max_counts", "noise_counts_rms")

# The board every command uses unless told otherwise (demo, vboard, bench,
# record, a log's replay and view, the link budget): the ESP32-S3-DevKitC-1
# N8R8 on the lis2 mat, the layout chosen from the computed physics whose SPI
# bus keeps the 50 Hz frame on the chip (`bakumat hw layouts`).
REFERENCE = "esp32s3_devkitc1_lis2"
REFERENCE_MAT = "lis2"
# Boards and mats that cannot work (hardware/retired.md has the figures): no
# command lists them, `offered` refuses them (demo, vboard, deploy, record,
# flash, bench); logs recorded on them still replay and draw.
RETIRED = {
    "esp32s3_devkitc1": "the Hall mat cannot see a Bakugan through a gate card's steel plate "
                        "(worst-spot signal-to-noise 0.04-1.3 in every computed world)",
    "esp32_devkitc": "the Hall mat cannot see a Bakugan through a gate card's steel plate (worst-spot "
                     "signal-to-noise 0.04-1.3 in every computed world), and the ESP32-DevKitC's heap cannot "
                     "hold the game with its phone page",
    "reference": "the Hall mat cannot see a Bakugan through a gate card's steel plate "
                 "(worst-spot signal-to-noise 0.04-1.3 in every computed world)",
}


class BoardError(UserError):
    """A board definition is missing or invalid; the message names the file and field."""


def _num(v):
    return type(v) in (int, float)


def _read_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise BoardError("%s: cannot read %s: %s" % (_rel(path), what, e.strerror or e))
    try:
        return json.loads(text)
    except ValueError as e:
        line = getattr(e, "lineno", None)
        raise BoardError("%s: line %s: not valid JSON: %s" % (_rel(path), line, getattr(e, "msg", e)))


def _rel(path):
    try:
        return os.path.relpath(path, os.path.dirname(BOARDS_DIR))
    except ValueError:
        return path


def _mat_names():
    try:
        files = os.listdir(MATS_DIR)
    except OSError:
        return []
    return sorted(f[:-5] for f in files if f.endswith(".json"))


def _board_folders():
    try:
        entries = os.listdir(BOARDS_DIR)
    except OSError:
        return []
    out = []
    for e in entries:
        if e == "mats" or e.startswith("."):
            continue
        if os.path.isfile(os.path.join(BOARDS_DIR, e, "wiring.json")):
            out.append(e)
    return sorted(out)


def names(retired=False):
    """Every board a command offers: board folders with a wiring.json, plus
    every bare mat; the retired ones too with retired=True."""
    return sorted(n for n in set(_board_folders()) | set(_mat_names()) if retired or n not in RETIRED)


def offered(name):
    """The board definition NAME for a command the user gave it to (as
    load); a retired board raises BoardError saying why and what to use."""
    if name in RETIRED:
        raise BoardError("board %r is retired: %s (hardware/retired.md); use the reference board %s (mat %s)"
                         % (name, RETIRED[name], REFERENCE, REFERENCE_MAT))
    return load(name)


def load(name):
    """The board definition NAME as a fresh dict (see the module docstring)."""
    if type(name) is not str or not name or "/" in name or "\\" in name or name.startswith("."):
        raise BoardError("bad board name %r" % (name,))
    if name in _board_folders():
        wpath = os.path.join(BOARDS_DIR, name, "wiring.json")
        wiring = _read_json(wpath, "wiring")
        if type(wiring) is not dict:
            raise BoardError("%s: expected a JSON object" % _rel(wpath))
        mat_name = wiring.get("mat")
        if type(mat_name) is not str or not mat_name:
            raise BoardError("%s: missing field 'mat' (the mat this board reads, e.g. \"reference\")" % _rel(wpath))
        board = load_mat(mat_name)
        check_wiring(wiring, board, _rel(wpath))
        board["name"] = name
        board["mat"] = mat_name
        board["wiring"] = wiring
        return board
    if name in _mat_names():
        return load_mat(name)
    folders = [n for n in names() if n in _board_folders()]
    mats = [n for n in names() if n not in folders]
    raise BoardError("unknown board %r (boards: %s; bare mats, for the simulator: %s)"
                     % (name, ", ".join(folders) or "none", ", ".join(mats) or "none"))


def load_mat(mat_name):
    path = os.path.join(MATS_DIR, mat_name + ".json")
    if not os.path.isfile(path):
        raise BoardError("unknown mat %r (known: %s)" % (mat_name, ", ".join(_mat_names()) or "none"))
    raw = _read_json(path, "mat")
    check_mat(raw, _rel(path))
    board = {}
    for k in CORE_KEYS:
        board[k] = copy.deepcopy(raw[k])
    board["name"] = mat_name
    board["mat"] = mat_name
    for k in raw:
        if k not in board:
            board[k] = copy.deepcopy(raw[k])
    return board


def check_mat(m, where):
    """Validate a mat dict; raise BoardError naming the field."""
    if type(m) is not dict:
        raise BoardError("%s: expected a JSON object" % where)
    v = m.get("version")
    if v is None:
        raise BoardError("%s: missing field 'version'" % where)
    if type(v) is not int or v < 1:
        raise BoardError("%s: version: expected a positive integer, got %r" % (where, v))
    if v > VERSION:
        raise BoardError("%s: board definition version %d is newer than this tool understands (%d); update bakumat"
                         % (where, v, VERSION))
    for k in CORE_KEYS:
        if k not in m:
            raise BoardError("%s: missing field '%s'" % (where, k))
    if type(m["name"]) is not str or not m["name"]:
        raise BoardError("%s: name: expected a non-empty string" % where)
    for k in ("sensor_plane_to_card_top_mm", "rate_hz"):
        if not _num(m[k]) or m[k] <= 0:
            raise BoardError("%s: %s: expected a positive number, got %r" % (where, k, m[k]))
    s = m["sensor"]
    if type(s) is not dict:
        raise BoardError("%s: sensor: expected an object" % where)
    for k in SENSOR_KEYS:
        if k not in s:
            raise BoardError("%s: sensor: missing field '%s'" % (where, k))
        if not _num(s[k]):
            raise BoardError("%s: sensor.%s: expected a number, got %r" % (where, k, s[k]))
    if type(s["max_counts"]) is not int or s["max_counts"] < 1:
        raise BoardError("%s: sensor.max_counts: expected a positive integer" % where)
    if not 0 <= s["zero_counts"] <= s["max_counts"]:
        raise BoardError("%s: sensor.zero_counts: must lie in 0..max_counts" % where)
    if s["counts_per_mT"] == 0:
        raise BoardError("%s: sensor.counts_per_mT: must not be 0" % where)
    if s["noise_counts_rms"] < 0:
        raise BoardError("%s: sensor.noise_counts_rms: must not be negative" % where)
    plate = m.get("plate")
    if plate is not None:
        if type(plate) is not dict:
            raise BoardError("%s: plate: expected an object" % where)
        a = plate.get("attenuation")
        if not _num(a) or not 0 < a <= 1:
            raise BoardError("%s: plate.attenuation: expected a number in (0, 1], got %r" % (where, a))
        sp = plate.get("spread_mm")
        if not _num(sp) or sp < 0:
            raise BoardError("%s: plate.spread_mm: expected a number >= 0, got %r" % (where, sp))
    zones = m["zones"]
    if type(zones) is not list or not zones:
        raise BoardError("%s: zones: expected a non-empty list" % where)
    for i, z in enumerate(zones):
        w = "%s: zones[%d]" % (where, i)
        if type(z) is not dict:
            raise BoardError("%s: expected an object" % w)
        for k in ("id", "x", "y", "w", "h"):
            if k not in z:
                raise BoardError("%s: missing field '%s'" % (w, k))
            if not _num(z[k]):
                raise BoardError("%s.%s: expected a number, got %r" % (w, k, z[k]))
        if z["id"] != i or type(z["id"]) is not int:
            raise BoardError("%s.id: zones are numbered 0, 1, 2... in order; expected %d, got %r" % (w, i, z["id"]))
        if z["w"] <= 0 or z["h"] <= 0:
            raise BoardError("%s: w and h must be positive" % w)
    for i in range(len(zones)):
        for j in range(i + 1, len(zones)):
            a, b = zones[i], zones[j]
            if a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and \
                    a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]:
                raise BoardError("%s: zones %d and %d overlap" % (where, i, j))
    sensors = m["sensors"]
    if type(sensors) is not list or not sensors:
        raise BoardError("%s: sensors: expected a non-empty list" % where)
    seen_zone = set()
    for i, sn in enumerate(sensors):
        w = "%s: sensors[%d]" % (where, i)
        if type(sn) is not dict:
            raise BoardError("%s: expected an object" % w)
        for k in ("ch", "zone", "x", "y"):
            if k not in sn:
                raise BoardError("%s: missing field '%s'" % (w, k))
            if not _num(sn[k]):
                raise BoardError("%s.%s: expected a number, got %r" % (w, k, sn[k]))
        if "axis" in sn:
            if v < 2:
                raise BoardError('%s.axis: per-channel axes need "version": 2 (docs/formats/board-definition-v2.md)' % w)
            if sn["axis"] not in AXES:
                raise BoardError("%s.axis: expected one of %s, got %r" % (w, ", ".join(AXES), sn["axis"]))
        if sn["ch"] != i or type(sn["ch"]) is not int:
            raise BoardError("%s.ch: sensors are listed in channel order 0, 1, 2...; expected %d, got %r"
                             % (w, i, sn["ch"]))
        zi = sn["zone"]
        if type(zi) is not int or not 0 <= zi < len(zones):
            raise BoardError("%s.zone: no zone %r" % (w, zi))
        z = zones[zi]
        if not (z["x"] <= sn["x"] <= z["x"] + z["w"] and z["y"] <= sn["y"] <= z["y"] + z["h"]):
            raise BoardError("%s: (%s, %s) lies outside its zone %d" % (w, sn["x"], sn["y"], zi))
        seen_zone.add(zi)
    for z in zones:
        if z["id"] not in seen_zone:
            raise BoardError("%s: zone %d has no sensor" % (where, z["id"]))


def check_i2c_wiring(bus, board, where):
    """An "i2c" wiring: three-axis sensors (fixed address) behind TCA9548A
    muxes, {"id", "scl", "sda", "freq", "sensors": [[mux_address, mux_channel], ...]},
    one entry per three of the mat's channels (x, y, z), in channel order."""
    if type(bus) is not dict:
        raise BoardError("%s: i2c: expected an object" % where)
    for k in ("scl", "sda", "sensors"):
        if k not in bus:
            raise BoardError("%s: i2c: missing field '%s'" % (where, k))
    for k in ("scl", "sda"):
        if type(bus[k]) is not int or bus[k] < 0:
            raise BoardError("%s: i2c.%s: expected a GPIO number" % (where, k))
    if "freq" in bus and (type(bus["freq"]) is not int or not 10000 <= bus["freq"] <= 1000000):
        raise BoardError("%s: i2c.freq: expected 10000..1000000 Hz" % where)
    sens = bus["sensors"]
    if type(sens) is not list or 3 * len(sens) != len(board["sensors"]):
        raise BoardError("%s: i2c.sensors: %s entries but mat %r has %d channels (three per sensor)"
                         % (where, len(sens) if type(sens) is list else "no list of", board["name"],
                            len(board["sensors"])))
    seen = {}
    for i, s in enumerate(sens):
        if type(s) is not list or len(s) != 2 or type(s[0]) is not int or type(s[1]) is not int:
            raise BoardError("%s: i2c.sensors[%d]: expected [mux_address, mux_channel]" % (where, i))
        if not 0x70 <= s[0] <= 0x77:
            raise BoardError("%s: i2c.sensors[%d]: mux address 0x%x outside 0x70..0x77" % (where, i, s[0]))
        if not 0 <= s[1] <= 7:
            raise BoardError("%s: i2c.sensors[%d]: mux channel %d outside 0..7" % (where, i, s[1]))
        if tuple(s) in seen:
            raise BoardError("%s: i2c.sensors[%d]: same mux channel as i2c.sensors[%d]" % (where, i, seen[tuple(s)]))
        seen[tuple(s)] = i


def check_spi_wiring(bus, board, where):
    """An "spi" wiring (minor version 1): three-axis sensors on one SPI bus,
    each selected by an output of a 74HC154 decoder, {"id", "sck", "mosi",
    "miso", "baudrate", "select": {"address": [4 GPIOs], "enable": [a GPIO
    per decoder]}, "sensors": [[decoder, output], ...]}, one entry per three
    of the mat's channels (x, y, z), in channel order."""
    if type(bus) is not dict:
        raise BoardError("%s: spi: expected an object" % where)
    for k in ("sck", "mosi", "miso", "select", "sensors"):
        if k not in bus:
            raise BoardError("%s: spi: missing field '%s'" % (where, k))
    for k in ("sck", "mosi", "miso"):
        if type(bus[k]) is not int or bus[k] < 0:
            raise BoardError("%s: spi.%s: expected a GPIO number" % (where, k))
    if "baudrate" in bus and (type(bus["baudrate"]) is not int or not 100000 <= bus["baudrate"] <= 10000000):
        raise BoardError("%s: spi.baudrate: expected 100000..10000000 Hz (the LIS2MDL's limit)" % where)
    sel = bus["select"]
    if type(sel) is not dict or type(sel.get("address")) is not list or type(sel.get("enable")) is not list:
        raise BoardError("%s: spi.select: expected {\"address\": [4 GPIOs], \"enable\": [a GPIO per decoder]}" % where)
    if len(sel["address"]) != 4 or not sel["enable"]:
        raise BoardError("%s: spi.select: a 74HC154 takes 4 address lines and an enable per decoder, got %d and %d"
                         % (where, len(sel["address"]), len(sel["enable"])))
    for k in ("address", "enable"):
        for i, g in enumerate(sel[k]):
            if type(g) is not int or g < 0:
                raise BoardError("%s: spi.select.%s[%d]: expected a GPIO number" % (where, k, i))
    sens = bus["sensors"]
    if type(sens) is not list or 3 * len(sens) != len(board["sensors"]):
        raise BoardError("%s: spi.sensors: %s entries but mat %r has %d channels (three per sensor)"
                         % (where, len(sens) if type(sens) is list else "no list of", board["name"],
                            len(board["sensors"])))
    seen = {}
    for i, s in enumerate(sens):
        if type(s) is not list or len(s) != 2 or type(s[0]) is not int or type(s[1]) is not int:
            raise BoardError("%s: spi.sensors[%d]: expected [decoder, output]" % (where, i))
        if not 0 <= s[0] < len(sel["enable"]):
            raise BoardError("%s: spi.sensors[%d]: decoder %d, but spi.select.enable names %d"
                             % (where, i, s[0], len(sel["enable"])))
        if not 0 <= s[1] <= 15:
            raise BoardError("%s: spi.sensors[%d]: decoder output %d outside 0..15" % (where, i, s[1]))
        if tuple(s) in seen:
            raise BoardError("%s: spi.sensors[%d]: same decoder output as spi.sensors[%d]" % (where, i, seen[tuple(s)]))
        seen[tuple(s)] = i


def check_wiring(wiring, board, where):
    """Validate a board folder's wiring.json against its mat."""
    minor = wiring.get("minor", 0)
    if type(minor) is not int or minor < 0:
        raise BoardError("%s: minor: expected a non-negative integer, got %r" % (where, minor))
    if minor > MINOR:
        raise BoardError("%s: wiring minor version %d is newer than this tool understands (%d); update bakumat"
                         % (where, minor, MINOR))
    if "spi" in wiring:
        if minor < 1:
            raise BoardError('%s: spi: the SPI wiring needs "minor": 1 (docs/formats/board-definition-v2.md)' % where)
        check_spi_wiring(wiring["spi"], board, where)
        return
    if "i2c" in wiring:
        check_i2c_wiring(wiring["i2c"], board, where)
        return
    for k in ("adc_pins", "mux_select", "channels"):
        if k not in wiring:
            raise BoardError("%s: missing field '%s'" % (where, k))
        if type(wiring[k]) is not list:
            raise BoardError("%s: %s: expected a list" % (where, k))
    n_adc = len(wiring["adc_pins"])
    n_mux = 1 << len(wiring["mux_select"])
    chans = wiring["channels"]
    if len(chans) != len(board["sensors"]):
        raise BoardError("%s: channels: %d entries but mat %r has %d sensors"
                         % (where, len(chans), board["name"], len(board["sensors"])))
    seen = {}
    for i, c in enumerate(chans):
        if type(c) is not list or len(c) != 2 or type(c[0]) is not int or type(c[1]) is not int:
            raise BoardError("%s: channels[%d]: expected [adc_index, mux_input]" % (where, i))
        if not 0 <= c[0] < n_adc:
            raise BoardError("%s: channels[%d]: adc_index %d out of range 0..%d" % (where, i, c[0], n_adc - 1))
        if not 0 <= c[1] < n_mux:
            raise BoardError("%s: channels[%d]: mux_input %d out of range 0..%d" % (where, i, c[1], n_mux - 1))
        key = (c[0], c[1])
        if key in seen:
            raise BoardError("%s: channels[%d]: same ADC input as channels[%d]" % (where, i, seen[key]))
        seen[key] = i


def public(board):
    """The `board show --json` view: the v1 fields first, then the extras.
    Each channel says what it measures (`axis`, "z" when the file gives none)
    and `sensor` gives its noise in mT too (format v2)."""
    out = {}
    for k in CORE_KEYS:
        out[k] = board[k]
    for k in board:
        if k not in out:
            out[k] = board[k]
    out["sensors"] = [dict(s, axis=s.get("axis", "z")) for s in board["sensors"]]
    sensor = dict(board["sensor"])
    sensor.setdefault("units", "counts")
    if sensor.get("counts_per_mT"):
        sensor.setdefault("noise_mT_rms", round(sensor["noise_counts_rms"] / abs(sensor["counts_per_mT"]), 6))
    out["sensor"] = sensor
    return out


def zone_center(board, zone):
    z = board["zones"][zone]
    return (z["x"] + z["w"] / 2.0, z["y"] + z["h"] / 2.0)


def zone_at(board, x, y):
    """The zone whose rectangle contains (x, y), else None."""
    for z in board["zones"]:
        if z["x"] <= x <= z["x"] + z["w"] and z["y"] <= y <= z["y"] + z["h"]:
            return z["id"]
    return None
