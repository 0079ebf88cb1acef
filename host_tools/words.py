"""The mat's words: one readable line per event, for every host view (the
demo, `replay`, `monitor`, `game`, the laptop view) so a player reads the
same sentence everywhere: players by their names, gates and ability cards
by name and effect, no JSON, no internal ids.

    w = Words(header)                 # the game header (players, decks); None: ids only
    w.game(ev)                        # a referee output event (its JSON form) -> "Dan places ..."
    w.mat(ev)                         # a sensed event -> "the mat corrected: tigrerra, not serpenoid"
    w.line(ev)                        # game(ev) with its time stamp, as the transcript prints it
    w.end_line(ev)                    # "Dan wins 3-1" / "no winner (1-1)"

Events the words do not know yet fall back to the referee's own transcript
line (firmware/referee/events.py encode_text), never to raw JSON.
"""
import re

_GEN_ID = re.compile(r"^p(\d+)-(gate|card)(\d+)$")
_EFFECTS = {"g": "%+d G", "opp_g": "opponent %+d G", "attr": "attribute becomes %s",
            "nullify_gate": "cancels the gate card", "nullify": "cancels the opponent's ability"}


def stamp(t):
    t = int(t or 0)
    return "%4d.%03ds" % (t // 1000, t % 1000)


class Words:
    def __init__(self, header=None, names=None):
        self.header = header or {}
        players = self.header.get("players") or []
        self.names = list(names or [p.get("name") or "player %d" % (i + 1) for i, p in enumerate(players)])
        self.gate_owner = {}
        self.card_owner = {}
        self.effects = {}
        for i, p in enumerate(players):
            for g in p.get("gates") or ():
                self.gate_owner[g.get("id")] = i
            for a in p.get("abilities") or ():
                self.card_owner[a.get("id")] = i
                self.effects[a.get("id")] = a.get("effect") or {}
        self.last_land = {}     # zone -> the Bakugan the mat last said landed there
        self.last_t = 0

    def _referee(self):
        if not hasattr(self, "_game"):
            self._game = None
            if self.header.get("players"):
                from host_tools import fwpath
                fwpath.ensure()
                try:
                    import referee
                    h = dict(self.header)
                    h.setdefault("bakumat", "events")
                    h.setdefault("version", 1)
                    self._game = referee.new_game(h)
                except Exception:       # a header this host cannot load: plain words
                    self._game = None
        return self._game

    # ------------------------------------------------------------ naming
    def who(self, p):
        if type(p) is int and 0 <= p < len(self.names):
            return self.names[p]
        if type(p) is int:
            return "player %d" % (p + 1)
        return str(p)

    def gate(self, gid):
        m = _GEN_ID.match(gid or "")
        if m and m.group(2) == "gate":
            return "%s's gate %d" % (self.who(int(m.group(1))), int(m.group(3)) + 1)
        return "gate %s" % gid

    def card(self, cid):
        m = _GEN_ID.match(cid or "")
        name = ("%s's card %d" % (self.who(int(m.group(1))), int(m.group(3)) + 1)) if m else str(cid)
        eff = self.effects.get(cid)
        return "%s (%s)" % (name, effect_text(eff)) if eff else name

    def score(self, captured):
        return "-".join(str(len(c)) for c in captured or [])

    # ------------------------------------------------------------ events
    def end_line(self, ev):
        caps = ev.get("captured") or []
        w = ev.get("winner")
        if w is None:
            return "no winner (%s)" % self.score(caps) if caps else "no winner"
        if not caps or type(w) is not int or not 0 <= w < len(caps):
            return "%s wins" % self.who(w)
        # the winner's captures first: "Dan wins 3-1"
        order = [caps[w]] + [c for i, c in enumerate(caps) if i != w]
        return "%s wins %s" % (self.who(w), self.score(order))

    def game(self, ev):
        k = ev.get("ev")
        p = ev.get("player")
        if k == "placed":
            return "%s places %s on zone %s" % (self.who(p), self.gate(ev.get("gate")), ev.get("zone"))
        if k == "turn":
            return "-- %s's turn" % self.who(p)
        if k == "stand":
            return "%s opens %s on zone %s" % (self.who(p), ev.get("bakugan"), ev.get("zone"))
        if k == "miss":
            return "%s misses with %s (%s)" % (self.who(p), ev.get("bakugan"), ev.get("reason"))
        if k == "clash":
            return "BATTLE on zone %s: %s attacks %s" % (ev.get("zone"), ev.get("attacker"), ev.get("defender"))
        if k == "ability":
            return "%s plays %s" % (self.who(p), self.card(ev.get("card")))
        if k == "battle":
            parts = ev.get("parts") or {}
            power = ev.get("power") or {}
            side = []
            for b in (ev.get("attacker"), ev.get("defender")):
                g, gate, ab = (parts.get(b) or [0, 0, 0])[:3]
                bits = ["%d G" % g]
                if gate:
                    bits.append("gate %+d" % gate)
                if ab:
                    bits.append("abilities %+d" % ab)
                side.append("%s %s (%s)" % (b, power.get(b, g + gate + ab), ", ".join(bits)))
            return "battle on zone %s: %s against %s: %s wins" % (ev.get("zone"), side[0], side[1], ev.get("winner"))
        if k == "capture":
            return "%s captures %s from zone %s (%s)" % (self.who(p), self.gate(ev.get("gate")), ev.get("zone"),
                                                         ev.get("reason"))
        if k == "choice":
            return "%s stands twice on zone %s: take the gate or move %s" % (self.who(p), ev.get("zone"),
                                                                           ev.get("bakugan"))
        if k == "reuse":
            return "%s takes back %s from the used pile" % (self.who(p), ", ".join(ev.get("bakugan") or []))
        if k == "move":
            return "%s moves from zone %s to zone %s" % (ev.get("bakugan"), ev.get("from"), ev.get("to"))
        if k == "gates_needed":
            return "the field is empty: %s must place a gate" % ", ".join(self.who(i) for i in ev.get("players") or [])
        if k == "reject":
            inp = ev.get("input")
            what = inp.get("ev") if type(inp) is dict else inp
            return "not allowed (%s): %s" % (what, ev.get("reason"))
        if k == "undo":
            what = {"land": "landing", "gate": "gate card", "ability": "ability", "miss": "miss"}.get(
                ev.get("undone"), ev.get("undone") or "event")
            return "takes back the last %s (from %s)" % (what, stamp(ev.get("at")).strip())
        if k == "win":
            s = "*** %s WINS ***" % self.who(p)
            return s + (" (%s)" % ev["reason"] if ev.get("reason") else "")
        if k == "stalemate":
            return "the game is over without a winner: %s" % ev.get("reason")
        if k == "end":
            return "game over: " + self.end_line(ev)
        return self._fallback(ev)

    def _fallback(self, ev):
        """The referee's own transcript line for events the words do not
        know (mode-specific ones), else the fields in plain words."""
        k = ev.get("ev")
        game = self._referee()
        if game is not None:
            try:
                from referee import events
                pairs = tuple((a, ev[a]) for a in ev if a not in ("ev", "t"))
                text = events.encode_text((k, ev.get("t") or 0, pairs), game).split("  ", 1)[1]
                if "{" not in text:
                    return text
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                pass
        fields = ", ".join("%s %s" % (a, _plain(ev[a])) for a in ev if a not in ("ev", "t"))
        return "%s: %s" % (k, fields) if fields else str(k)

    def line(self, ev):
        """The transcript line: time, then the words. Times never go back:
        an event stamped before the last one shown keeps the last time."""
        t = ev.get("t") or 0
        if t < self.last_t:
            t = self.last_t
        self.last_t = t
        return stamp(t) + "  " + self.game(ev)

    def mat(self, ev):
        k = ev.get("ev")
        z = ev.get("zone")
        who = ev.get("bakugan") or "a Bakugan"
        if k == "land":
            if ev.get("bakugan"):
                self.last_land[z] = ev.get("bakugan")
            if ev.get("learned"):
                if ev.get("alike"):
                    # (sensed-events-v1 `alike`: it would ask which one landed)
                    return "the mat learnt %s on zone %s; it cannot tell it from %s (if one player has both: swap " \
                           "one for a Bakugan with another magnet)" % (who, z, ", ".join(ev["alike"]))
                return "the mat learnt %s on zone %s" % (who, z)
            return "the mat sees %s open on zone %s" % (who, z)
        if k == "ident":
            before = self.last_land.get(z)
            self.last_land[z] = ev.get("bakugan")
            if before and before != ev.get("bakugan"):
                return "the mat corrected: %s, not %s (zone %s)" % (who, before, z)
            return "the mat is sure: %s on zone %s" % (who, z)
        if k == "unland":
            self.last_land.pop(z, None)
            return "the mat corrected: nothing landed on zone %s (a ball that paused there)" % z
        if k == "leave":
            return "%s is lifted off zone %s" % (who, z)
        if k == "unsure":
            return "the mat is not sure: %s or %s on zone %s? The thrower is asked" % (who, ev.get("alt"), z)
        if k == "roll":
            return "a ball rolls across zone %s" % z
        if k == "button":
            return "button %s: %s press" % (ev.get("name"), ev.get("press"))
        if k == "fault":
            return "sensor channel %s is broken (%s)" % (ev.get("ch"), ev.get("kind"))
        return self._fallback(ev)


def effect_text(eff):
    out = []
    for k in sorted(eff):
        v = eff[k]
        form = _EFFECTS.get(k)
        if form is None:
            out.append("%s %s" % (k, _plain(v)))
        elif "%" in form:
            out.append(form % v)
        elif v:
            out.append(form)
    return ", ".join(out)


def _plain(v):
    if type(v) is dict:
        return ", ".join("%s %s" % (k, _plain(v[k])) for k in sorted(v))
    if type(v) in (list, tuple):
        return ", ".join(_plain(x) for x in v)
    return str(v)
