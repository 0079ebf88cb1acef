"""The phone page's API (docs/formats/web-api-v1.md) on the board.

Spectators read the state; a phone that claimed a side (POST /api/claim,
answered with a per-side token) may send that side's inputs. Everything a
phone sends becomes an ordinary input event for the table (so the log and
a replay have it), with `t` from the game clock and `player` from the token.

Trust: a token is 64 random bits from the board's random source; a wrong
token gets 403 and nothing else, and a client that sends FAIL_MAX wrong
ones is refused (429) for LOCK_MS after each further one, so guessing takes
far longer than any game. Claims close once play starts (the first
accepted event): a late claim needs that side's button on the mat
(open_claim, CLAIM_MS). keep(codes) saves the claims (store: claims.json),
so a reset keeps every phone on its side. A phone's undo takes back only
its own side's last event; only the fields of the event's kind are taken
from a phone, and a zone must be one of the board's.

Memory: the board and header JSON are encoded once; the recent output
events are a fixed ring of RING (each encoded when a phone first asks); a state answer is built as
one string per request (a few KB at most), never per frame.
"""
import json

try:
    from os import urandom
except ImportError:  # pragma: no cover - ports without os.urandom
    urandom = None

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from referee import events as _events
from store.eventcheck import FIELDS

RING = const(32)
FAIL_MAX = const(5)        # wrong tokens a client may send before it waits
LOCK_MS = const(30000)     # then: one more try per LOCK_MS
PEERS = const(8)           # clients whose failures are remembered
CLAIM_MS = const(30000)    # a side's button opens a late claim for this long
_JSON = "application/json"


def new_token():
    """16 hex digits: 64 bits from the board's random source (os.urandom;
    the random module, seeded from the hardware RNG on the ESP32, where a
    port has no urandom)."""
    if urandom is not None:
        b = urandom(8)
    else:  # pragma: no cover
        import random
        b = bytes([random.getrandbits(8) for _ in range(8)])
    return "".join(["%02x" % x for x in b])


def _who(peer):
    """The client's address without its port: a tuple (host, port) on
    CPython and the ESP32, a raw sockaddr (bytes) on the unix port."""
    if type(peer) is tuple:
        return peer[0]
    if type(peer) is bytes or type(peer) is bytearray:
        return bytes(peer[4:8])
    return peer


def _owner(ev, g):
    """The side an input event belongs to (None: nobody's, e.g. resolve)."""
    p = ev.get("player")
    if type(p) is int:
        return p
    b = ev.get("bakugan")
    if b is not None:
        return g.bak_owner.get(b)
    return None


class WebApp:
    def __init__(self, board, table, now, leds=None, taught=None, codes=None, keep=None, zones=None):
        """board: board definition, or the page's board (link.pageboard)
        encoded as JSON already; table: table.controller.Table (or a
        Journal); now(): game time in ms; leds(): list of [r, g, b];
        taught(): the game's Bakugan ids the mat can tell by their magnet;
        codes: the claims kept from before a reset; keep(codes): save them;
        zones: the board's zone ids (default: read from board)."""
        self.table = table
        self.now = now
        self.leds = leds
        self.taught = taught
        if type(board) is str:
            self.board_json = board
            if zones is None:
                zones = [z["id"] for z in json.loads(board).get("zones", ())]
        else:
            from link.pageboard import board_json
            self.board_json = json.dumps(board_json(board))
            if zones is None:
                zones = [z["id"] for z in board.get("zones", ())]
        self.zones = zones
        self.header_json = json.dumps(table.header)
        n = len(table.header["players"])
        self.codes = [None] * n
        if type(codes) is list and len(codes) == n:
            for i in range(n):
                if type(codes[i]) is str and len(codes[i]) == 16:
                    self.codes[i] = codes[i]
        self.keep = keep
        self.fails = {}                  # client -> [wrong tokens, time of the last]
        self.claim_open = [None] * n     # side -> until when its button opened a late claim
        self.ring: list = [None] * RING  # (seq, output event or its encoded line) or None
        self.seq = 0
        self.last_reject = None

    # Output events of the referee arrive here (chained from the board's sink).
    def on_event(self, out):
        """Kept as it is, encoded when a phone first asks for it (most
        outputs are read by one poll or none: no work in the tick that
        made them)."""
        self.seq += 1
        self.ring[self.seq % RING] = (self.seq, out)
        if out[0] == "reject":
            for k, v in out[2]:
                if k == "reason":
                    self.last_reject = v

    def _player_for(self, code):
        if type(code) is not str or len(code) != 16:
            return None
        for i in range(len(self.codes)):
            if self.codes[i] is not None and self.codes[i] == code:
                return i
        return None

    # ------------------------------------------------- wrong tokens
    def _locked(self, who):
        f = self.fails.get(who)
        return f is not None and f[0] >= FAIL_MAX and self.now() - f[1] < LOCK_MS

    def _failed(self, who):
        f = self.fails.get(who)
        if f is None:
            if len(self.fails) >= PEERS:     # forget the client that failed longest ago
                old = None
                for k in self.fails:
                    if old is None or self.fails[k][1] < self.fails[old][1]:
                        old = k
                del self.fails[old]
            f = self.fails[who] = [0, 0]
        f[0] += 1
        f[1] = self.now()

    def _check(self, code, peer):
        """(player, None) for a right token, (None, answer) otherwise: 429
        while the client is locked out, 403 for any wrong token."""
        who = _who(peer)
        if self._locked(who):
            return None, (429, _JSON, '{"error": "too many wrong codes: wait and try again"}')
        p = self._player_for(code)
        if p is None:
            if code is not None:     # a guess (no code at all is a spectator)
                self._failed(who)
            return None, (403, _JSON, '{"error": "claim a side first: spectators only watch"}')
        return p, None

    def _started(self):
        j = self.table.j if hasattr(self.table, "j") else self.table
        return len(j.events) > 0

    def open_claim(self, p):
        """That side's button was pressed on the mat: an unclaimed side may
        be claimed (once) for CLAIM_MS though play has started."""
        if 0 <= p < len(self.claim_open) and self.codes[p] is None:
            self.claim_open[p] = self.now() + CLAIM_MS

    def handle(self, method, path, query, body, peer):
        if path == "/api/state":
            if method != "GET":
                return 405, _JSON, '{"error": "use GET"}'
            code = _arg(query, "code=")
            you = None
            if code is not None:
                you, bad = self._check(code, peer)
                if bad is not None:
                    return bad
            return 200, _JSON, self.state(query, you)
        if path == "/api/claim" or path == "/api/input":
            if method != "POST":
                return 405, _JSON, '{"error": "use POST"}'
            try:
                obj = json.loads(body)
            except ValueError:
                return 400, _JSON, '{"error": "body is not JSON"}'
            if type(obj) is not dict:
                return 400, _JSON, '{"error": "body must be a JSON object"}'
            if path == "/api/claim":
                return self.claim(obj, peer)
            p, bad = self._check(obj.get("code"), peer)
            if bad is not None:
                return bad
            return self.input(p, obj)
        return 404, _JSON, '{"error": "no such API"}'

    def state(self, query, you=None):
        since = _arg(query, "since=")
        try:
            since = -1 if since is None else int(since)
        except ValueError:
            since = -1
        g = self.table.game if hasattr(self.table, "game") else self.table
        if hasattr(g, "game"):
            g = g.game
        parts = ['{"api": 1, "seq": %d' % self.seq]
        if since < 0:
            parts.append(', "board": ' + self.board_json)
            parts.append(', "header": ' + self.header_json)
        parts.append(', "view": ' + json.dumps(g.view()))
        if self.leds is not None:
            parts.append(', "leds": ' + json.dumps(self.leds()))
        if hasattr(self.table, "asking_json"):
            parts.append(', "asking": ' + json.dumps(self.table.asking_json()))
        if self.taught is not None:
            parts.append(', "taught": ' + json.dumps(self.taught()))
        evs = []
        lo = max(since + 1, self.seq - RING + 1, 1)
        for s in range(lo, self.seq + 1):
            item = self.ring[s % RING]
            if item is not None and item[0] == s:
                if type(item[1]) is not str:
                    item = self.ring[s % RING] = (s, _events.encode_json(item[1]))
                evs.append("[%d, %s]" % item)
        parts.append(', "events": [' + ", ".join(evs) + "]")
        parts.append(', "you": {"player": %s}}' % ("null" if you is None else str(you)))
        return "".join(parts)

    def claim(self, obj, peer=None):
        p = obj.get("player")
        if type(p) is not int or not 0 <= p < len(self.codes):
            return 400, _JSON, '{"error": "player must be a side index"}'
        cur = self.codes[p]
        if cur is not None:
            if "code" not in obj:
                return 409, _JSON, '{"error": "that side is already claimed"}'
            q, bad = self._check(obj.get("code"), peer)
            if bad is not None:
                return bad
            if q != p:
                return 409, _JSON, '{"error": "that side is already claimed"}'
            return 200, _JSON, json.dumps({"player": p, "code": cur})
        until = self.claim_open[p]
        if self._started() and (until is None or self.now() > until):
            return 409, _JSON, json.dumps({"error": "play has started: press %s's button on the mat, then claim"
                                           % self.table.header["players"][p]["name"]})
        cur = new_token()
        while cur in self.codes:
            cur = new_token()
        self.codes[p] = cur
        self.claim_open[p] = None
        if self.keep is not None:
            self.keep(list(self.codes))
        return 200, _JSON, json.dumps({"player": p, "code": cur})

    def _zone_ok(self, z):
        return type(z) is int and z in self.zones

    def input(self, p, obj):
        kind = obj.get("ev")
        if "zone" in obj and not self._zone_ok(obj["zone"]):
            return 400, _JSON, '{"error": "zone must be one of this mat\'s zones"}'
        if kind == "which":
            return self.which(p, obj)
        if kind == "register":
            return self.register(p, obj)
        journal = self.table.j if hasattr(self.table, "j") else self.table
        # Whatever control event the mode in play accepts (its INPUTS), but
        # never a landing: those come from the sensors.
        if type(kind) is not str or (kind != "undo" and (kind == "land" or kind not in journal.game.INPUTS
                                                          or kind not in FIELDS)):
            return 400, _JSON, json.dumps({"error": "unknown input %s" % json.dumps(kind)[:40]})
        t = self.now()
        if kind == "undo":
            evs = journal.events
            if evs and _owner(evs[-1], journal.game) != p:
                return 403, _JSON, '{"error": "undo takes back only your own side\'s last input"}'
            ok = journal.undo(t) is not None
            return 200, _JSON, json.dumps({"ok": ok, "reason": None if ok else "nothing to undo"})
        # only the fields of this kind of event: anything else a phone
        # sends is dropped, never stored
        ev = {"t": t, "ev": kind}
        for name, _typ, _req in FIELDS[kind]:
            if name == "player":
                ev["player"] = p
            elif name in obj:
                ev[name] = obj[name]
        ev["by"] = "phone"
        g = journal.game
        if kind == "miss":
            if g.bak_owner.get(ev.get("bakugan")) != p:
                return 403, _JSON, '{"error": "not your Bakugan"}'
        if kind == "resolve":
            bt = g.battle
            if bt is not None and g.bak_owner[bt[1]] != p and g.bak_owner[bt[2]] != p:
                return 403, _JSON, '{"error": "not your battle"}'
            asked = getattr(self.table, "asked_in", None)
            if asked is not None and asked(bt):
                # as the buttons: who landed decides the battle (Table.asked_in)
                q = self.table.question
                return 200, _JSON, json.dumps(
                    {"ok": False, "reason": "the mat asks %s who landed on zone %s first"
                     % (self.table.header["players"][q[3]]["name"], q[0])})
        self.last_reject = None
        g = bt = None     # a miss may undo, which drops the game (Journal.undo): no reference to it here
        ok = self.table.feed(ev)
        if not ok and self.last_reject is None and getattr(journal, "ended", False):
            self.last_reject = "the game is over"   # (no output line after `end`: Journal.feed)
        return 200, _JSON, json.dumps({"ok": bool(ok), "reason": None if ok else self.last_reject})

    def register(self, p, obj):
        """A player teaches the mat one of their own Bakugan: the next one
        that settles on `zone` is it (Table.register, set by the app: the
        sensing's register, echoed on the link; the lesson comes back as a
        `learnt` event on the page)."""
        hook = getattr(self.table, "register", None)
        if hook is None:
            return 409, _JSON, '{"error": "this mat cannot learn Bakugan now"}'
        b = obj.get("bakugan")
        z = obj.get("zone")
        if type(z) is not int or type(b) is not str:
            return 400, _JSON, '{"error": "register needs bakugan (an id) and zone (a number)"}'
        if b not in [x["id"] for x in self.table.header["players"][p]["bakugan"]]:
            return 403, _JSON, '{"error": "not your Bakugan"}'
        ok = hook(b, z, self.now())
        return 200, _JSON, json.dumps({"ok": bool(ok), "reason": None if ok else "no zone %d on this mat" % z})

    def which(self, p, obj):
        """The thrower's answer to the mat's question (Table.answer, as the
        buttons answer: through Table.which, so the link echoes it and the
        game log has its undo and landing)."""
        q = getattr(self.table, "question", None)
        if q is None:
            return 409, _JSON, '{"error": "the mat asks no question now"}'
        if q[3] != p:
            return 403, _JSON, json.dumps(
                {"error": "the mat asks %s, who threw" % self.table.header["players"][q[3]]["name"]})
        z = obj.get("zone")
        if z is not None and z != q[0]:
            return 409, _JSON, json.dumps({"error": "the mat asks about zone %s now" % q[0]})
        b = obj.get("bakugan")
        if type(b) is not str:
            return 400, _JSON, '{"error": "bakugan must be a Bakugan id"}'
        self.last_reject = None
        ok = self.table.answer(p, b, self.now())
        if ok:
            return 200, _JSON, '{"ok": true, "reason": null}'
        if self.table.question is q:
            why = "%s could not have landed on zone %d" % (b, q[0])
        else:
            why = self.last_reject or "that landing can no longer be changed: the game went on"
        return 200, _JSON, json.dumps({"ok": False, "reason": why})


def _arg(query, key):
    """The value of key ("name=") in a query string, or None."""
    for part in query.split("&"):
        if part.startswith(key):
            return part[len(key):]
    return None
