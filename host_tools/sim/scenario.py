"""The scenario script: a readable list of what happens on the mat.

One action per line; `#` starts a comment. Times are `at 2.0s` / `at 2000ms`
(absolute, never earlier than the previous line's time); a line without a
time follows the previous action after `gap` seconds (default 1.0; a roll
counts as 1.5 s). Zones are the board's zone ids; positions are mm from the
zone centre (x to the right, y away from player 0).

    bakugan drago moment 0.025 polarity down height 3.2 tilt 8   # properties
    gate 0 dan-gold on zone 4 at 0.5s      # control event + the card lies there
    register drago on zone 3 at 1s         # control event only
    place drago on zone 3, at (5, -10) mm  # put down opened by hand
    throw drago -> zone 4 at 2.0s, opens at (12, -8) mm [from player 1] [tilt 15]
    roll tigrerra across zones 1,2 and off [speed 0.8]   # or `and stop` (rests closed)
    bounce drago on zone 4                 # brief touch, then off the mat
    remove zone 4                          # lift every Bakugan on zone 4
    remove drago
    card off zone 4                        # a card leaves (or `card on zone 4`)
    miss drago / resolve / ability 0 fire-wall / choose 0 take [zone 4] / choose 0 move zone 5
    event {"ev": "resolve"}                # any control event as JSON
    fault ch 17 dead | fault ch 17 stuck 4095
    idle 10s                               # nothing happens for 10 s
    gap 0.5s                               # default spacing from now on
    set drift 2.0 | set noise 4 | set spikes 0.0001   # sensor-model knobs

Errors are ScenarioError(line, msg), printed as "line N: msg".
"""
import json
import re


class ScenarioError(Exception):
    def __init__(self, line, msg):
        super().__init__("line %s: %s" % (line, msg))
        self.line = line
        self.msg = msg


class Scenario:
    """Actions in time order (list of dicts with "kind", "t" in ms and "line"),
    Bakugan property overrides and sensor-model settings."""

    def __init__(self):
        self.actions = []
        self.bakugan = {}
        self.settings = {}
        self.end_ms = 0
        self.header = None  # the game header, when a generator made the scenario

    def add(self, action):
        self.actions.append(action)
        self.end_ms = max(self.end_ms, action["t"] + _duration_ms(action))

    def sorted_actions(self):
        return sorted(self.actions, key=lambda a: a["t"])  # stable: same-time actions keep their order


def _duration_ms(a):
    k = a["kind"]
    if k == "idle":
        return a["ms"]
    if k == "roll":
        return 1500
    if k in ("throw", "place", "bounce", "remove"):
        return 400
    return 0


_TIME = re.compile(r"\bat\s+(-?\d+(?:\.\d+)?)\s*(ms|s)\b")
_POS = re.compile(r"(?:opens\s+)?(?:at\s+)?\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)\s*(?:mm)?")
_DUR = re.compile(r"^(\d+(?:\.\d+)?)\s*(ms|s)$")
_NAME = r"([A-Za-z_][\w.\-]*)"
_KNOWN = ("bakugan", "gate", "register", "place", "throw", "roll", "bounce", "remove", "card", "miss",
          "resolve", "ability", "choose", "event", "fault", "idle", "wait", "gap", "set")
_SETTINGS = {"drift": float, "noise": float, "spikes": float, "gain_spread": float, "offset_spread": float,
             "tail": float}


def _ms(num, unit):
    v = float(num)
    return int(round(v * 1000.0)) if unit == "s" else int(round(v))


def _take_time(text):
    m = _TIME.search(text)
    if not m:
        return text, None
    return (text[:m.start()] + text[m.end():]), _ms(m.group(1), m.group(2))


def _take_pos(text):
    m = _POS.search(text)
    if not m:
        return text, None
    return (text[:m.start()] + text[m.end():]), (float(m.group(1)), float(m.group(2)))


def _take_opt(text, word, conv, lineno):
    m = re.search(r"\b%s\s+(\S+)" % word, text)
    if not m:
        return text, None
    try:
        v = conv(m.group(1))
    except ValueError:
        raise ScenarioError(lineno, "%s: bad value %r" % (word, m.group(1)))
    return text[:m.start()] + text[m.end():], v


def _words(text):
    return text.replace(",", " ").split()


def _int(s, what, lineno):
    try:
        v = int(s)
    except (TypeError, ValueError):
        raise ScenarioError(lineno, "expected %s (a number), got %r" % (what, s))
    if v < 0:
        raise ScenarioError(lineno, "%s must not be negative" % what)
    return v


def parse(text):
    """Parse a scenario script; raise ScenarioError naming the line."""
    sc = Scenario()
    cursor = 0  # ms: where an untimed line starts
    last_t = 0  # ms: time of the previous line (explicit times may not go back)
    gap = 1000
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("event") else raw.strip()
        if not line:
            continue
        head = line.split(None, 1)[0].lower()
        if head not in _KNOWN:
            raise ScenarioError(lineno, "unknown action %r (expected one of: %s)" % (head, ", ".join(_KNOWN)))
        if head == "event":
            body = line[len("event"):].strip()
            # the time may follow the JSON object
            m = re.search(r"\}\s*(at\s+.*)?$", body)
            if not m:
                raise ScenarioError(lineno, "event: expected a JSON object, e.g. event {\"ev\": \"resolve\"} at 5s")
            js = body[:m.start() + 1]
            rest, t = _take_time(body[m.start() + 1:])
            if rest.strip():
                raise ScenarioError(lineno, "event: unexpected %r after the JSON object" % rest.strip())
            try:
                ev = json.loads(js)
            except ValueError as e:
                raise ScenarioError(lineno, "event: not valid JSON (%s)" % getattr(e, "msg", e))
            if type(ev) is not dict or type(ev.get("ev")) is not str:
                raise ScenarioError(lineno, "event: expected an object with a string field \"ev\"")
            if ev["ev"] == "land":
                raise ScenarioError(lineno, "event: `land` is never a control event; use throw or place")
            ev.pop("t", None)
            kind_args = {"kind": "control", "ev": ev}
            rest_text = ""
        else:
            rest_text, t = _take_time(line[len(head):])
            kind_args = None
        if t is not None and t < last_t:
            raise ScenarioError(lineno, "time %.3fs is earlier than the previous line's %.3fs" % (t / 1000.0, last_t / 1000.0))
        if head in ("idle", "wait", "gap"):
            w = _words(rest_text)
            m = _DUR.match(w[0]) if len(w) == 1 else None
            if not m:
                raise ScenarioError(lineno, "%s: expected a duration like 10s or 500ms" % head)
            d = _ms(m.group(1), m.group(2))
            if head == "gap":
                gap = d
                continue
            start = t if t is not None else cursor
            sc.add({"kind": "idle", "t": start, "ms": d, "line": lineno})
            cursor = start + d
            last_t = start
            continue
        if head == "set":
            w = _words(rest_text)
            if len(w) != 2 or w[0] not in _SETTINGS:
                raise ScenarioError(lineno, "set: expected `set NAME VALUE` with NAME one of %s" % ", ".join(sorted(_SETTINGS)))
            try:
                sc.settings[w[0]] = _SETTINGS[w[0]](w[1])
            except ValueError:
                raise ScenarioError(lineno, "set %s: bad value %r" % (w[0], w[1]))
            continue
        if head == "bakugan":
            sc.bakugan.update(_parse_props(rest_text, lineno))
            continue
        start = t if t is not None else cursor + gap
        if kind_args is not None:
            act = kind_args
        else:
            act = _parse_action(head, rest_text, lineno)
        act["t"] = start
        act["line"] = lineno
        sc.add(act)
        last_t = start
        cursor = start + _duration_ms(act)
    return sc


def _parse_props(text, lineno):
    w = _words(text)
    if not w:
        raise ScenarioError(lineno, "bakugan: expected a Bakugan id and properties")
    bid = w[0]
    props = {}
    i = 1
    while i < len(w):
        key = w[i]
        if i + 1 >= len(w):
            raise ScenarioError(lineno, "bakugan %s: %s needs a value" % (bid, key))
        val = w[i + 1]
        if key == "polarity":
            if val not in ("up", "down"):
                raise ScenarioError(lineno, "bakugan %s: polarity must be up or down" % bid)
            props["polarity"] = 1 if val == "up" else -1
        elif key in ("moment", "height", "tilt"):
            try:
                props[key] = float(val)
            except ValueError:
                raise ScenarioError(lineno, "bakugan %s: %s: bad number %r" % (bid, key, val))
            if key == "moment" and not 0 < props[key] < 1:
                raise ScenarioError(lineno, "bakugan %s: moment is in A*m^2 (a small magnet is 0.01 to 0.05)" % bid)
        else:
            raise ScenarioError(lineno, "bakugan %s: unknown property %r (moment, polarity, height, tilt)" % (bid, key))
        i += 2
    return {bid: props}


def _parse_action(head, text, lineno):
    if head == "gate":
        m = re.match(r"^\s*(\d+)\s+%s\s+on\s+zone\s+(\d+)\s*$" % _NAME, text)
        if not m:
            raise ScenarioError(lineno, "gate: expected `gate PLAYER GATE-ID on zone N [at T]`")
        return {"kind": "control", "ev": {"ev": "gate", "player": int(m.group(1)), "gate": m.group(2),
                                          "zone": int(m.group(3))}, "card": True}
    if head == "register":
        m = re.match(r"^\s*%s\s+on\s+zone\s+(\d+)\s*$" % _NAME, text)
        if not m:
            raise ScenarioError(lineno, "register: expected `register BAKUGAN on zone N [at T]`")
        return {"kind": "control", "ev": {"ev": "register", "bakugan": m.group(1), "zone": int(m.group(2))}}
    if head == "miss":
        m = re.match(r"^\s*%s\s*$" % _NAME, text)
        if not m:
            raise ScenarioError(lineno, "miss: expected `miss BAKUGAN [at T]`")
        return {"kind": "control", "ev": {"ev": "miss", "bakugan": m.group(1)}}
    if head == "resolve":
        if text.strip():
            raise ScenarioError(lineno, "resolve: unexpected %r" % text.strip())
        return {"kind": "control", "ev": {"ev": "resolve"}}
    if head == "ability":
        m = re.match(r"^\s*(\d+)\s+%s\s*$" % _NAME, text)
        if not m:
            raise ScenarioError(lineno, "ability: expected `ability PLAYER CARD-ID [at T]`")
        return {"kind": "control", "ev": {"ev": "ability", "player": int(m.group(1)), "card": m.group(2)}}
    if head == "choose":
        m = re.match(r"^\s*(\d+)\s+(take|move)(?:\s+zone\s+(\d+))?\s*$", text)
        if not m:
            raise ScenarioError(lineno, "choose: expected `choose PLAYER take [zone N]` or `choose PLAYER move zone N`")
        ev = {"ev": "choose", "player": int(m.group(1)), "action": m.group(2)}
        if m.group(3) is not None:
            ev["zone"] = int(m.group(3))
        elif m.group(2) == "move":
            raise ScenarioError(lineno, "choose move: needs `zone N`")
        return {"kind": "control", "ev": ev}
    if head == "card":
        m = re.match(r"^\s*(on|off)\s+zone\s+(\d+)\s*$", text)
        if not m:
            raise ScenarioError(lineno, "card: expected `card on zone N` or `card off zone N`")
        return {"kind": "card", "on": m.group(1) == "on", "zone": int(m.group(2))}
    if head == "fault":
        m = re.match(r"^\s*ch\s+(\d+)\s+(dead|stuck)(?:\s+(\d+))?\s*$", text)
        if not m:
            raise ScenarioError(lineno, "fault: expected `fault ch N dead` or `fault ch N stuck VALUE`")
        if m.group(2) == "stuck" and m.group(3) is None:
            raise ScenarioError(lineno, "fault stuck: needs the value it is stuck at")
        return {"kind": "fault", "ch": int(m.group(1)), "mode": m.group(2),
                "value": int(m.group(3)) if m.group(3) is not None else 0}
    if head == "remove":
        m = re.match(r"^\s*zone\s+(\d+)\s*$", text)
        if m:
            return {"kind": "remove", "zone": int(m.group(1)), "bakugan": None}
        m = re.match(r"^\s*%s\s*$" % _NAME, text)
        if m and m.group(1) != "zone":
            return {"kind": "remove", "zone": None, "bakugan": m.group(1)}
        raise ScenarioError(lineno, "remove: expected `remove zone N` or `remove BAKUGAN`")
    if head in ("throw", "place"):
        rest, pos = _take_pos(text)
        rest, tilt = _take_opt(rest, "tilt", float, lineno)
        rest, side = _take_opt(rest, "from player", int, lineno) if "from player" in rest else (rest, None)
        rest, speed = _take_opt(rest, "speed", float, lineno)
        if head == "throw":
            m = re.match(r"^\s*%s\s*(?:->|on|to)\s*zone\s+(\d+)[\s,]*$" % _NAME, rest)
            if not m:
                raise ScenarioError(lineno, "throw: expected `throw BAKUGAN -> zone N [at T][, opens at (X, Y) mm]`")
        else:
            m = re.match(r"^\s*%s\s+on\s+zone\s+(\d+)[\s,]*$" % _NAME, rest)
            if not m:
                raise ScenarioError(lineno, "place: expected `place BAKUGAN on zone N [at T][, at (X, Y) mm]`")
        return {"kind": head, "bakugan": m.group(1), "zone": int(m.group(2)), "pos": pos, "tilt": tilt,
                "side": side, "speed": speed}
    if head == "bounce":
        rest, pos = _take_pos(text)
        m = re.match(r"^\s*%s\s+on\s+zone\s+(\d+)[\s,]*$" % _NAME, rest)
        if not m:
            raise ScenarioError(lineno, "bounce: expected `bounce BAKUGAN on zone N [at T]`")
        return {"kind": "bounce", "bakugan": m.group(1), "zone": int(m.group(2)), "pos": pos}
    if head == "roll":
        rest, speed = _take_opt(text, "speed", float, lineno)
        m = re.match(r"^\s*%s\s+(?:across|over)\s+zones?\s+([\d,\s]+?)(?:\s+and\s+(off|stop))?\s*$" % _NAME, rest)
        if not m:
            raise ScenarioError(lineno, "roll: expected `roll BAKUGAN across zones 1,2 and off` (or `and stop`)")
        zones = [int(z) for z in re.split(r"[\s,]+", m.group(2).strip()) if z]
        if not zones:
            raise ScenarioError(lineno, "roll: no zones")
        return {"kind": "roll", "bakugan": m.group(1), "zones": zones, "off": m.group(3) != "stop",
                "speed": speed}
    raise ScenarioError(lineno, "unknown action %r" % head)
