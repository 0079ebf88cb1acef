"""Feedback: turns game state and events into LED colours and buzzer cues
with the fixed meanings of show/palette.py (docs/feedback.md).

Decisions show at once: event() starts the buzzer cue inside the call, and
marks the LEDs dirty so the next tick(), called in the same loop iteration,
writes them. Animations are computed from the clock (integer maths into the
strip's own buffer), redrawn at most every ANIM_MS and written only when a
byte changed; steady state allocates nothing.

LED layout: the board definition's wiring.led may give "zones": a list (in
zone order) of LED index lists; otherwise the strip is split evenly into one
run per zone, and leftover LEDs at the end are status LEDs (whose turn it
is / waiting for input). The brightness cap (wiring.led.max_brightness,
0..255) scales every channel; the current budget (wiring.led.budget_ma)
scales the whole frame down when the estimate (1 mA per LED idle + 20 mA
per colour channel at full) would exceed it.
"""
from show import palette as P
from show.sound import Sound

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_OFF = const(0)
_SOLID = const(1)
_ALT = const(2)
_BREATHE = const(3)

_FL_NONE = const(0)
_FL_REJECT = const(1)
_FL_SOLID = const(2)

ANIM_MS = const(40)
_MA_IDLE = const(1)
_MA_CHANNEL = const(20)


def _tri(now, period, lo, hi):
    p = now % period
    half = period >> 1
    if p < half:
        x = p * 255 // half
    else:
        x = (period - p) * 255 // half
    return lo + x * (hi - lo) // 255


def led_layout(board_def):
    """([LED indices per zone], [status LED indices]) from the definition."""
    zones = board_def.get("zones", [])
    nz = len(zones)
    led = board_def.get("wiring", {}).get("led") or {}
    n = led.get("count", 0)
    given = led.get("zones")
    if given is not None:
        used = set()
        zl = []
        for lst in given:
            zl.append(tuple(lst))
            for i in lst:
                used.add(i)
        return zl, tuple(i for i in range(n) if i not in used)
    if nz == 0 or n == 0:
        return [() for _ in range(nz)], tuple(range(n))
    if n >= nz:
        k = n // nz
        return [tuple(range(z * k, z * k + k)) for z in range(nz)], tuple(range(nz * k, n))
    return [(z * n // nz,) for z in range(nz)], ()


class Feedback:
    def __init__(self, strip, buzzer, clock, board_def):
        self.strip = strip
        self.clock = clock
        self.sound = Sound(buzzer, clock)
        self._diff = clock.ticks_diff      # cached: taking a bound method allocates
        zones = board_def.get("zones", [])
        self.zone_ids = [z["id"] for z in zones]
        self._zindex = {}
        for i in range(len(self.zone_ids)):
            self._zindex[self.zone_ids[i]] = i
        nz = len(self.zone_ids)
        self._zleds, self._status = led_layout(board_def)
        led = board_def.get("wiring", {}).get("led") or {}
        # status LEDs at a player's edge of the mat (wiring.led.edge): lit
        # only on the side whose turn it is; -1 = everyone's
        edge = {}
        for e in led.get("edge") or ():
            edge[e["led"]] = e["player"]
        self._status_player = tuple(edge.get(i, -1) for i in self._status)
        self.cap = min(255, max(0, led.get("max_brightness", 255)))
        n = strip.n if strip is not None else 0
        self.budget_ma = led.get("budget_ma", _MA_IDLE * n + _MA_CHANNEL * 3 * n)
        self._mode = [_OFF] * nz
        self._c1 = [0] * nz
        self._c2 = [0] * nz
        self._lvl = [0] * nz
        self._zstart = [0] * nz      # when the zone's animation started
        self._fault = [0] * nz
        self._fl_kind = [_FL_NONE] * nz
        self._fl_col = [0] * nz
        self._fl_until = [0] * nz
        self._fl_start = [0] * nz
        self._owner = {}
        self._players = 2
        self._winner = -1
        self._turn = -1
        self._waiting = 1            # no game configured yet: waiting
        self._dirty = True
        self._last_draw = 0
        self._animated = True
        self._last = bytearray(len(strip.buf)) if strip is not None else None
        self.writes = 0
        self.limited = 0
        self.est_ma = 0
        self.first_light = None      # ticks of the last write after a decision

    # ------------------------------------------------------------ inputs
    def configure(self, header):
        """A new game: forget zones, learn who owns which Bakugan."""
        self._owner = {}
        players = header.get("players", [])
        self._players = len(players)
        for i in range(len(players)):
            for b in players[i].get("bakugan", []):
                self._owner[b["id"]] = i
        for z in range(len(self._mode)):
            self._mode[z] = _OFF
            self._fl_kind[z] = _FL_NONE
        self._winner = -1
        self._turn = header.get("first", 0)
        self._waiting = 0
        self._dirty = True

    def _pcol(self, p):
        if p is None or p < 0:
            return P.WAIT
        return P.PLAYER[p % len(P.PLAYER)]

    def sync(self, view):
        """Zone colours from the referee's view() (called after events)."""
        nz = len(self._mode)
        old = list(self._mode)
        now = self.clock.ticks_ms()
        for z in range(nz):
            self._mode[z] = _OFF
        zones = view.get("zones", {})
        for zid in zones:
            zi = self._zindex.get(zid)
            if zi is None:
                zi = self._zindex.get(int(zid)) if type(zid) is str else None
            if zi is None:
                continue
            info = zones[zid]
            bk = info.get("bakugan") or []
            if not bk:
                self._mode[zi] = _SOLID
                self._c1[zi] = self._pcol(info.get("owner"))
                self._lvl[zi] = P.GATE_LEVEL
                continue
            # the newest arrival first: a battle starts in the attacker's colour
            o1 = self._owner.get(bk[-1], -1)
            o2 = o1
            for b in bk:
                o = self._owner.get(b, -1)
                if o != o1:
                    o2 = o
            c1 = self._pcol(o1)
            self._lvl[zi] = P.STAND_LEVEL
            if o2 != o1:
                c2 = self._pcol(o2)
                if old[zi] != _ALT or self._c1[zi] != c1 or self._c2[zi] != c2:
                    self._zstart[zi] = now
                self._mode[zi] = _ALT
                self._c2[zi] = c2
            else:
                self._mode[zi] = _SOLID
            self._c1[zi] = c1
        ch = view.get("choice")
        if ch:
            zi = self._zindex.get(ch.get("zone"))
            if zi is not None:
                self._mode[zi] = _BREATHE
                self._c1[zi] = P.WAIT
                self._lvl[zi] = P.WAIT_LEVEL
        w = view.get("winner")
        self._winner = -1 if w is None else w
        t = view.get("turn")
        self._turn = -1 if t is None else t
        phase = view.get("phase")
        self._waiting = 1 if (phase == "setup" or phase == "refill" or ch or view.get("battle")) else 0
        self._dirty = True

    def asking(self, ask):
        """What the table waits for (table.controller.Table.asking():
        (player, zone or -1, what)), called after sync(): the status LEDs
        take the awaited player's colour and breathe, and the zone asked
        about breathes in that colour (a take-or-move choice, rule 7's
        offered gate, a landing the mat is unsure of). A question about a
        zone where a battle now stands (the other player landed on it while
        the thrower may still answer) leaves the battle's alternation there:
        that landing shows at once like any other, and the status LEDs ask."""
        p, z, what = ask
        if self._winner >= 0 or p is None:
            return
        self._turn = p
        if what != "throw":
            self._waiting = 1
        zi = self._zindex.get(z) if z is not None and z >= 0 else None
        if zi is not None and (what == "choice" or what == "take" or
                               (what == "which" and self._mode[zi] != _ALT)):
            self._mode[zi] = _BREATHE
            self._c1[zi] = self._pcol(p)
            self._lvl[zi] = P.WAIT_LEVEL
        self._dirty = True

    def event(self, out, zone=None, now=None):
        """A referee or match out-event (kind, t, pairs): start its cue now.
        zone: where the input that caused it happened (for rejects)."""
        kind = out[0]
        if now is None:
            now = self.clock.ticks_ms()
        cue = None
        if kind == "stand":
            cue = P.CUE_STAND
        elif kind == "placed":
            cue = P.CUE_GATE
        elif kind == "miss":
            cue = P.CUE_MISS
        elif kind == "clash":
            cue = P.CUE_CLASH
        elif kind == "battle":
            cue = P.CUE_BATTLE
            f = _field(out[2], "winner")
            z = _field(out[2], "zone")
            if f is not None:
                self._flash(z, _FL_SOLID, self._pcol(self._owner.get(f, -1)), 600, now)
        elif kind == "capture":
            cue = P.CUE_CAPTURE
        elif kind == "reject":
            cue = P.CUE_REJECT
            self._flash(zone, _FL_REJECT, P.REJECT, 6 * P.FLASH_MS, now)
        elif kind == "win":
            cue = P.CUE_WIN
            self._winner = _field(out[2], "player")
        elif kind == "boot":
            cue = P.CUE_BOOT
        if cue is not None:
            self.sound.play(cue, now)
        self._dirty = True

    def fault(self, zone, on, now=None):
        zi = self._zindex.get(zone)
        if zi is None:
            return
        v = 1 if on else 0
        if self._fault[zi] != v:
            self._fault[zi] = v
            if v:
                self.sound.play(P.CUE_FAULT, now if now is not None else self.clock.ticks_ms())
            self._dirty = True

    def _flash(self, zone, kind, col, ms, now):
        if zone is None:
            targets = range(len(self._mode))
        else:
            zi = self._zindex.get(zone)
            targets = () if zi is None else (zi,)
        for zi in targets:
            self._fl_kind[zi] = kind
            self._fl_col[zi] = col
            self._fl_start[zi] = now
            self._fl_until[zi] = self.clock.ticks_add(now, ms)

    # ------------------------------------------------------------ output
    def tick(self, now):
        self.sound.tick(now)
        if self.strip is None:
            return False
        if not self._dirty:
            if not self._animated or self.clock.ticks_diff(now, self._last_draw) < ANIM_MS:
                return False
        self._dirty = False
        self._last_draw = now
        return self._draw(now)

    def _draw(self, now):
        strip = self.strip
        cap = self.cap
        diff = self._diff
        animated = False
        win = self._winner
        for z in range(len(self._mode)):
            col = 0
            lvl = 0
            kind = self._fl_kind[z]
            if kind != _FL_NONE:
                el = diff(now, self._fl_start[z])
                if diff(now, self._fl_until[z]) >= 0:
                    self._fl_kind[z] = _FL_NONE
                    kind = _FL_NONE
                else:
                    animated = True
                    if kind == _FL_SOLID or ((el // P.FLASH_MS) & 1) == 0:
                        col = self._fl_col[z]
                        lvl = 255
            if kind == _FL_NONE:
                if self._fault[z]:
                    animated = True
                    if ((now // P.BLINK_MS) & 1) == 0:
                        col = P.FAULT
                        lvl = 255
                elif win is not None and win >= 0:
                    animated = True
                    col = self._pcol(win)
                    lvl = _tri(now, P.BREATHE_MS, 30, 255)
                else:
                    m = self._mode[z]
                    if m == _SOLID:
                        col = self._c1[z]
                        lvl = self._lvl[z]
                    elif m == _ALT:
                        animated = True
                        ph = (diff(now, self._zstart[z]) // P.BATTLE_MS) & 1
                        col = self._c1[z] if ph == 0 else self._c2[z]
                        lvl = self._lvl[z]
                    elif m == _BREATHE:
                        animated = True
                        col = self._c1[z]
                        lvl = _tri(now, P.BREATHE_MS, 10, self._lvl[z])
            sc = lvl * cap // 255
            r = ((col >> 16) & 255) * sc // 255
            g = ((col >> 8) & 255) * sc // 255
            b = (col & 255) * sc // 255
            for i in self._zleds[z]:
                strip.set(i, r, g, b)
        # status LEDs: whose turn, breathing while waiting for input
        if self._status:
            turn = self._turn
            col = self._pcol(turn)
            if self._waiting:
                animated = True
                sc = _tri(now, P.BREATHE_MS, 10, P.WAIT_LEVEL) * cap // 255
            else:
                sc = P.GATE_LEVEL * cap // 255
            if win is not None and win >= 0:
                turn = win
                col = self._pcol(win)
                sc = _tri(now, P.BREATHE_MS, 30, 255) * cap // 255
                animated = True
            r = ((col >> 16) & 255) * sc // 255
            g = ((col >> 8) & 255) * sc // 255
            b = (col & 255) * sc // 255
            sp = self._status_player
            st = self._status
            for k in range(len(st)):
                p = sp[k]
                if p < 0 or p == turn or turn < 0:
                    strip.set(st[k], r, g, b)
                else:
                    strip.set(st[k], 0, 0, 0)
        self._animated = animated
        self.limit_power()
        buf = strip.buf
        last = self._last
        if buf == last:
            return False
        # a slice assignment: MicroPython (1.2x) makes its slice on the C
        # stack, so it allocates nothing (tests/test_quiet_alloc.py), and it
        # copies in C: 0.2 us for 68 LEDs against 19 us a byte at a time on
        # the unix port, about 1.8 ms of every redraw on an ESP32-S3
        last[:] = buf
        strip.write()
        self.writes += 1
        return True

    def redraw(self):
        """The next tick writes the strip again, whatever it last wrote
        (after something else drove the LEDs: the self-test)."""
        self._dirty = True
        if self._last is not None:
            self._last[0] ^= 1

    def limit_power(self):
        """Scale the strip's buffer down to the supply's budget
        (wiring.led.budget_ma) when it would draw more."""
        buf = self.strip.buf
        total = 0
        for v in buf:
            total += v
        n = self.strip.n
        est = n * _MA_IDLE + total * _MA_CHANNEL // 255
        avail = self.budget_ma - n * _MA_IDLE
        if est > self.budget_ma and total > 0:
            self.limited += 1
            if avail < 0:
                avail = 0
            num = avail * 255 // _MA_CHANNEL
            for i in range(len(buf)):
                buf[i] = buf[i] * num // total
            total = 0
            for v in buf:
                total += v
            est = n * _MA_IDLE + total * _MA_CHANNEL // 255
        self.est_ma = est


def _field(pairs, key):
    for k, v in pairs:
        if k == key:
            return v
    return None
