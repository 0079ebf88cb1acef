"""The phone page's API (docs/formats/web-api-v1.md) on the board.

Spectators read the state; a phone that claimed a side (POST /api/claim,
answered with a per-player code) may send that side's inputs. Everything a
phone sends becomes an ordinary input event for the table (so the log and
a replay have it), with `t` from the game clock and `player` from the code.

Memory: the board and header JSON are encoded once; the recent output
events are a fixed ring of RING encoded lines; a state answer is built as
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
from store.eventlog import FIELDS

RING = const(32)


def _new_code(seed):
    if urandom is not None:
        b = urandom(2)
        n = (b[0] << 8) | b[1]
    else:  # pragma: no cover
        n = (seed * 7919 + 104729) & 0xFFFF
    return "%04d" % (n % 10000)


class WebApp:
    def __init__(self, board, table, now, leds=None, taught=None):
        """board: board definition, or the page's board (link.pageboard)
        encoded as JSON already; table: table.controller.Table (or a
        Journal); now(): game time in ms; leds(): list of [r, g, b];
        taught(): the game's Bakugan ids the mat can tell by their magnet."""
        self.table = table
        self.now = now
        self.leds = leds
        self.taught = taught
        if type(board) is str:
            self.board_json = board
        else:
            from link.pageboard import board_json
            self.board_json = json.dumps(board_json(board))
        self.header_json = json.dumps(table.header)
        self.codes = [None] * len(table.header["players"])
        self.ring: list = [None] * RING  # (seq, encoded line) or None
        self.seq = 0
        self.last_reject = None

    # Output events of the referee arrive here (chained from the board's sink).
    def on_event(self, out):
        self.seq += 1
        self.ring[self.seq % RING] = (self.seq, _events.encode_json(out))
        if out[0] == "reject":
            for k, v in out[2]:
                if k == "reason":
                    self.last_reject = v

    def _player_for(self, code):
        if type(code) is not str:
            return None
        for i in range(len(self.codes)):
            if self.codes[i] is not None and self.codes[i] == code:
                return i
        return None

    def handle(self, method, path, query, body, peer):
        if path == "/api/state":
            if method != "GET":
                return 405, "application/json", '{"error": "use GET"}'
            return 200, "application/json", self.state(query)
        if path == "/api/claim" or path == "/api/input":
            if method != "POST":
                return 405, "application/json", '{"error": "use POST"}'
            try:
                obj = json.loads(body)
            except ValueError:
                return 400, "application/json", '{"error": "body is not JSON"}'
            if type(obj) is not dict:
                return 400, "application/json", '{"error": "body must be a JSON object"}'
            if path == "/api/claim":
                return self.claim(obj)
            return self.input(obj)
        return 404, "application/json", '{"error": "no such API"}'

    def state(self, query):
        since = -1
        code = None
        for part in query.split("&"):
            if part.startswith("since="):
                try:
                    since = int(part[6:])
                except ValueError:
                    since = -1
            elif part.startswith("code="):
                code = part[5:]
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
                evs.append("[%d, %s]" % item)
        parts.append(', "events": [' + ", ".join(evs) + "]")
        you = self._player_for(code)
        parts.append(', "you": {"player": %s}}' % ("null" if you is None else str(you)))
        return "".join(parts)

    def claim(self, obj):
        p = obj.get("player")
        if type(p) is not int or not 0 <= p < len(self.codes):
            return 400, "application/json", '{"error": "player must be a side index"}'
        cur = self.codes[p]
        if cur is not None and obj.get("code") != cur:
            return 409, "application/json", '{"error": "that side is already claimed"}'
        if cur is None:
            cur = _new_code(self.seq + p)
            while cur in self.codes:
                cur = _new_code(self.seq + p + 1)
            self.codes[p] = cur
        return 200, "application/json", json.dumps({"player": p, "code": cur})

    def input(self, obj):
        p = self._player_for(obj.get("code"))
        if p is None:
            return 403, "application/json", '{"error": "claim a side first: spectators only watch"}'
        kind = obj.get("ev")
        if kind == "which":
            return self.which(p, obj)
        if kind == "register":
            return self.register(p, obj)
        journal = self.table.j if hasattr(self.table, "j") else self.table
        # Whatever control event the mode in play accepts (its INPUTS), but
        # never a landing: those come from the sensors.
        if kind != "undo" and (kind == "land" or kind not in journal.game.INPUTS or kind not in FIELDS):
            return 400, "application/json", json.dumps({"error": "unknown input %s" % json.dumps(kind)})
        t = self.now()
        if kind == "undo":
            ok = journal.undo(t) is not None
            return 200, "application/json", json.dumps({"ok": ok, "reason": None if ok else "nothing to undo"})
        ev = {}
        for k in obj:
            if k != "code":
                ev[k] = obj[k]
        ev["t"] = t
        ev["by"] = "phone"
        for name, _typ, _req in FIELDS[kind]:
            if name == "player":
                ev["player"] = p
        g = journal.game
        if kind == "miss":
            if g.bak_owner.get(ev.get("bakugan")) != p:
                return 403, "application/json", '{"error": "not your Bakugan"}'
        if kind == "resolve":
            bt = g.battle
            if bt is not None and g.bak_owner[bt[1]] != p and g.bak_owner[bt[2]] != p:
                return 403, "application/json", '{"error": "not your battle"}'
            asked = getattr(self.table, "asked_in", None)
            if asked is not None and asked(bt):
                # as the buttons: who landed decides the battle (Table.asked_in)
                q = self.table.question
                return 200, "application/json", json.dumps(
                    {"ok": False, "reason": "the mat asks %s who landed on zone %s first"
                     % (self.table.header["players"][q[3]]["name"], q[0])})
        self.last_reject = None
        g = bt = None     # a miss may undo, which drops the game (Journal.undo): no reference to it here
        ok = self.table.feed(ev)
        return 200, "application/json", json.dumps({"ok": bool(ok), "reason": None if ok else self.last_reject})

    def register(self, p, obj):
        """A player teaches the mat one of their own Bakugan: the next one
        that settles on `zone` is it (Table.register, set by the app: the
        sensing's register, echoed on the link; the lesson comes back as a
        `learnt` event on the page)."""
        hook = getattr(self.table, "register", None)
        if hook is None:
            return 409, "application/json", '{"error": "this mat cannot learn Bakugan now"}'
        b = obj.get("bakugan")
        z = obj.get("zone")
        if type(z) is not int or type(b) is not str:
            return 400, "application/json", '{"error": "register needs bakugan (an id) and zone (a number)"}'
        if b not in [x["id"] for x in self.table.header["players"][p]["bakugan"]]:
            return 403, "application/json", '{"error": "not your Bakugan"}'
        ok = hook(b, z, self.now())
        return 200, "application/json", json.dumps({"ok": bool(ok), "reason": None if ok else "no zone %d on this mat" % z})

    def which(self, p, obj):
        """The thrower's answer to the mat's question (Table.answer, as the
        buttons answer: through Table.which, so the link echoes it and the
        game log has its undo and landing)."""
        q = getattr(self.table, "question", None)
        if q is None:
            return 409, "application/json", '{"error": "the mat asks no question now"}'
        if q[3] != p:
            return 403, "application/json", json.dumps(
                {"error": "the mat asks %s, who threw" % self.table.header["players"][q[3]]["name"]})
        z = obj.get("zone")
        if z is not None and z != q[0]:
            return 409, "application/json", json.dumps({"error": "the mat asks about zone %s now" % q[0]})
        b = obj.get("bakugan")
        if type(b) is not str:
            return 400, "application/json", '{"error": "bakugan must be a Bakugan id"}'
        self.last_reject = None
        ok = self.table.answer(p, b, self.now())
        if ok:
            return 200, "application/json", '{"ok": true, "reason": null}'
        if self.table.question is q:
            why = "%s could not have landed on zone %d" % (b, q[0])
        else:
            why = self.last_reject or "that landing can no longer be changed: the game went on"
        return 200, "application/json", json.dumps({"ok": False, "reason": why})
