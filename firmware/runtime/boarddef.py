"""The board definition as the app keeps it: compact, for a new game's pipeline.

    bd = compact(board_def)    # at construction: only what a new game reads
    Match(expand(bd), ...)     # per game: served as the pipeline reads it

The full definition holds a dict per sensor channel (tens of KB of heap on
a chip) and the wiring, which is no use once the hardware is built: the app
keeps one float array of the sensors and one double array of the zones.
"""
from array import array

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# what the app reads from the board definition once the hardware is built
# and the app made: what a new game's pipeline reads (the feedback, the
# buttons' roles and the phone page's board are taken at construction)
# (and "kernels": the kernel table a computed-physics mat's detector fits, sense/fit.py)
_BD_KEEP = ("name", "rate_hz", "plate", "card", "magnet", "sense", "sensor_plane_to_card_top_mm", "kernels")
_DROP = ("part", "pin", "sides", "module")     # descriptions and pins: hardware is built already
_ZF = const(5)     # zone fields in the compact zone array: id, x, y, w, h


def _slim(d):
    if type(d) is not dict:
        return d
    out = {}
    for k in d:
        if k not in _DROP:
            out[k] = d[k]
    return out


def compact(board_def):
    """A copy of the board definition with only what a new game's pipeline
    reads: no wiring, no outline, no descriptions; the sensor list (one
    dict per channel: the biggest thing in it, tens of KB of heap) is one
    float array, the zone list one double array; expand() rebuilds what
    the pipeline reads, for a new game only. board_def itself is not
    changed."""
    bd = {}
    for k in _BD_KEEP:
        if k in board_def:
            bd[k] = board_def[k]
    kt = board_def.get("kernels")
    if type(kt) is dict and "fixed" in kt and "k" in kt:
        # its chip form is all a new game's fit reads (sense/fit.py): the
        # float values stay in the board's file, out of the heap (104 KB
        # of text on the amr2 mat)
        kt = dict(kt)
        del kt["k"]
        bd["kernels"] = kt
    if type(board_def.get("sensor")) is dict:
        bd["sensor"] = _slim(board_def["sensor"])
    sens = board_def.get("sensors")
    if type(sens) is list:
        a = array("f", bytearray(16 * len(sens)))
        for i in range(len(sens)):
            s = sens[i]
            a[4 * i] = s["ch"]
            a[4 * i + 1] = s["zone"]
            a[4 * i + 2] = s["x"]
            a[4 * i + 3] = s["y"]
        bd["sensors"] = a
    zones = board_def.get("zones")
    if type(zones) is list:
        a = array("d", bytearray(8 * _ZF * len(zones)))
        for i in range(len(zones)):
            z = zones[i]
            a[_ZF * i] = z["id"]
            a[_ZF * i + 1] = z["x"]
            a[_ZF * i + 2] = z["y"]
            a[_ZF * i + 3] = z["w"]
            a[_ZF * i + 4] = z["h"]
        bd["zones"] = a
    return bd


class _SensorList:
    """The sensor list as the pipeline reads it (len(), then each item's
    ["ch"], ["zone"], ["x"], ["y"] once, in order), served from the compact
    array through one reused item: no dict per sensor."""

    def __init__(self, a):
        self.a = a
        self.i = 0

    def __len__(self):
        return len(self.a) // 4

    def __iter__(self):
        for i in range(0, len(self.a), 4):
            self.i = i
            yield self

    def __getitem__(self, k):
        a = self.a
        i = self.i
        if k == "ch":
            return int(a[i])
        if k == "zone":
            return int(a[i + 1])
        if k == "x":
            return a[i + 2]
        if k == "y":
            return a[i + 3]
        raise KeyError(k)


def expand(bd):
    """The compact board definition as the pipeline reads it: the sensors
    served from their array, the zones as a list of dicts again (garbage
    once the pipeline is built: it keeps its own arrays)."""
    out = dict(bd)
    a = bd.get("sensors")
    if a is not None and type(a) is not list:
        out["sensors"] = _SensorList(a)
    a = bd.get("zones")
    if a is not None and type(a) is not list:
        zl = []
        for i in range(0, len(a), _ZF):
            zl.append({"id": int(a[i]), "x": a[i + 1], "y": a[i + 2], "w": a[i + 3], "h": a[i + 4]})
        out["zones"] = zl
    return out


def zone_ids(bd):
    """The board's zone ids, in the definition's order (from compact())."""
    za = bd.get("zones") or ()
    return tuple(int(za[i]) for i in range(0, len(za), _ZF))


def channel_zones(bd):
    """Channel -> zone id (-1: none) as an array (no dict: heap), from compact()."""
    sa = bd.get("sensors") or ()
    out = array("h", [-1] * (len(sa) // 4))
    for i in range(0, len(sa), 4):
        out[int(sa[i])] = int(sa[i + 1])
    return out


def button_roles(board_def, buttons):
    """Per board button (hw order): (player, OK|BACK) from the board
    definition's wiring buttons (matched by name; role "ok"/"back")."""
    from table.controller import OK, BACK
    w = (board_def.get("wiring") or {}).get("buttons") or ()
    out = []
    for i in range(len(buttons)):
        name = buttons[i][0]
        role = (0, OK if i % 2 == 0 else BACK)
        for d in w:
            if type(d) is dict and d.get("name") == name:
                role = (d.get("player", 0), BACK if d.get("role") == "back" else OK)
        out.append(role)
    return tuple(out)
