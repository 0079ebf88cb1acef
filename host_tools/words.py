"""The mat's words: one readable line per event, for every view (the demo,
`replay`, `monitor`, `game`, the laptop view, the report and the board's
phone page) so a player reads the same sentence everywhere: players by
their names, gates and ability cards by name and effect, no JSON, no
internal ids.

    w = Words(header)                 # the game header (players, decks); None: ids only
    w.game(ev)                        # a referee output event (its JSON form) -> "Dan places ..."
    w.mat(ev)                         # a sensed event -> "the mat corrected: tigrerra, not serpenoid"
    w.line(ev)                        # game(ev) with its time stamp, as the transcript prints it
    w.end_line(ev)                    # "Dan wins 3-1" / "no winner (1-1)"

One source for two languages: PHRASES (below) holds every sentence as a
template; the phone page's JavaScript (firmware/web/mat.js, BakuMat.words)
fills the very same templates with the same small set of field kinds, from
a copy of PHRASES that `python -m host_tools.words --write-js` writes into
mat.js (tests/host/test_phone_words.py fails when that copy is stale and
checks in headless Chromium that the page says what this module says).

Template syntax (the same in both languages):
    {field}        the event's field, in plain words (lists joined with ", ")
    {field:kind}   the field through a kind below (who, gate, card, ...) or
                   through the map of that name in PHRASES["maps"]
    [ ... ]        said only when every field inside is present (not
                   null, false, empty) and its kind knows it
    [ a | b ]      a when it can be said, else b
Events the table does not know are said as "kind: field value, ...".
"""
import json
import re

PHRASES = {
    # referee output events (docs/formats/event-log-v1.md "Output events")
    # and the page's `learnt`
    "game": {
        "placed": "{player:who} places {gate:gate} on zone {zone}",
        "turn": "{player:who}'s turn",
        "stand": "{player:who} opens {bakugan} on zone {zone}",
        # a `stand` fed again by the mat's own amend (an `undo` of the
        # landing and the new landing at the same time, on the same zone)
        "corrected": "{player:who} opens {bakugan} on zone {zone} (the mat corrected: {bakugan}, not {was})",
        "miss": "{player:who} misses with {bakugan}[ ({reason})]",
        "clash": "BATTLE on zone {zone}: {attacker} attacks {defender}",
        "reveal": "{gate:gate} turned over: {bonus:bonus}",
        "ability": "{player:who} plays {card:card}",
        "battle": "battle on zone {zone}: {attacker:side} against {defender:side}: {winner} wins",
        "capture": "{player:who} captures {gate:gate} from zone {zone}[ ({reason:how})]",
        "choice": "{player:who} stands twice on zone {zone}: take the gate or move {bakugan}",
        "reuse": "{player:who} takes back {bakugan} from the used pile",
        "move": "{bakugan} moves from zone {from} to zone {to}",
        "gates_needed": "the field is empty: {players:who} must place a gate",
        "trap": "{player:who} opens trap {trap} on {bakugan}: [attribute becomes {attr}|{g:signed} G]",
        "gear": "{player:who} puts battle gear {gear} on {bakugan}: {g:signed} G[ and its extra ability{extra:hidden}]",
        "pure": "{player:who} chooses {attr} for pure {bakugan}",
        "evolve": "{player:who} skips the turn: {from} evolves into {to}[ (game level {level})]",
        "reuse_items": "{player:who} takes back {items} from the used pile",
        "back": "{bakugan} goes back to {player:who}'s launch point[ ({reason})]",
        "seize": "{player:who} takes {bakugan}[ ({bakugan:g} G)]",
        "void": "{what} {id} is out of play[ ({reason})]",
        "refill": "{player:who} must place a card on zone {zone}",
        "pick": "{player:who} may pick which of {options} {for:pick} on zone {zone}",
        "picked": "{player:who} picks {bakugan} to {for:picked}",
        "leave": "{player:who} leaves the game[ ({reason})]",
        "rotate": "the base cards turn clockwise: {moves:moves}",
        "score": "scores: {scores:scores}[ -- {reason}]",
        "shot": "{player:who} scores {points} with {bakugan} (total {total}, {left} shots left)",
        "item": "{player:who} sets item card {card}",
        "pass": "{player:who} plays no item in this battle",
        "prize": "{player:who} takes item card {card}",
        "reject": "not allowed ({input:input}): {reason}",
        # the referee takes a step back: asked by the mat itself (a landing
        # it misread) or by a player (`undo`, BACK held)
        "undo": "the referee takes back the last {undone:undone}[ (the one at {at:stamp})]",
        "win": "*** {player:who} WINS ***[ ({reason})]",
        "stalemate": "the game is over without a winner[: {reason}]",
        "end": "game over: {winner:end}",
        "learnt": "the mat learnt {bakugan} on zone {zone}[; can't tell it from {alike}: if one player has both, swap one]",
    },
    # sensed events (docs/formats/sensed-events-v1.md), as `monitor` shows them
    "mat": {
        "land": "the mat sees {bakugan:ball} open on zone {zone}",
        "learned": "the mat learnt {bakugan:ball} on zone {zone}[; can't tell it from {alike}: if one player has both, swap one]",
        "ident": "the mat is sure: {bakugan:ball} on zone {zone}",
        "corrected": "the mat corrected: {bakugan:ball}, not {was} (zone {zone})",
        "unland": "the mat corrected: nothing landed on zone {zone} (a ball that paused there)",
        "leave": "{bakugan:ball} is lifted off zone {zone}",
        "unsure": "the mat is not sure: {bakugan:ball} or {alt} on zone {zone}? The thrower is asked",
        "roll": "a ball rolls across zone {zone}",
        "button": "button {name}: {press} press",
        "fault": "sensor channel {ch} is broken ({kind})",
    },
    # an ability card's effect, key by key (sorted): "{v}" is the value
    "effects": {
        "g": "{v:signed} G",
        "opp_g": "opponent {v:signed} G",
        "attr": "attribute becomes {v}",
        "nullify_gate": "cancels the gate card",
        "nullify": "cancels the opponent's ability",
    },
    # the kind of a field of an event no template knows, so that it still
    # names players, cards and times as every other line does
    "fields": {"player": "who", "players": "who", "owner": "who", "winner": "who", "by": "who",
               "gate": "gate", "card": "card", "ability": "card", "at": "stamp"},
    # field values said in words ("*": any other value)
    "maps": {
        "undone": {"land": "landing", "gate": "gate card", "ability": "ability", "miss": "miss"},
        "pick": {"fight": "fights", "*": "stays"},
        "picked": {"fight": "fight", "*": "stay"},
        # why a gate card is captured (the referee's `reason`)
        "how": {"battle": "won the battle", "double": "stood on it twice", "take": "chose to take it",
                "unopposed": "nobody fought for it"},
    },
}

_GEN_ID = re.compile(r"^p(\d+)-(gate|card)(\d+)$")
_PART = re.compile(r"\[([^\[\]]*)\]|\{(\w+)(?::(\w+))?\}")
_HOLE = re.compile(r"\{(\w+)(?::(\w+))?\}")


def stamp(t):
    """The game clock as players read it: mm:ss (h:mm:ss past an hour) of
    the referee's time stamps, the one clock every view shows."""
    s = int(t or 0) // 1000
    if s >= 3600:
        return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)
    return "%02d:%02d" % (s // 60, s % 60)


def _signed(v):
    return ("-" if v < 0 else "+") + str(abs(v))


def _present(v):
    return not (v is None or v is False or v == "" or v == [] or v == {})


def plain(v):
    """A value in words: lists joined, dicts as "key value", no JSON."""
    if v is None:
        return "none"
    if v is True or v is False:
        return "yes" if v else "no"
    if type(v) is float and v == int(v):
        return str(int(v))
    if type(v) is dict:
        return ", ".join("%s %s" % (k, plain(v[k])) for k in sorted(v))
    if type(v) in (list, tuple):
        return ", ".join(plain(x) for x in v)
    return str(v)


class Words:
    def __init__(self, header=None, names=None):
        self.header = header or {}
        players = self.header.get("players") or []
        self.names = list(names or [p.get("name") or "player %d" % (i + 1) for i, p in enumerate(players)])
        self.effects = {}
        self.bak_g = {}
        for p in players:
            for a in p.get("abilities") or ():
                self.effects[a.get("id")] = a.get("effect") or {}
            for b in p.get("bakugan") or ():
                self.bak_g[b.get("id")] = b.get("g")
        self.last_land = {}     # zone -> the Bakugan the mat last said landed there (sensed events)
        self.stood = {}         # time -> [zone, bakugan] of a `stand` (an amend's undo names its time)
        self.amended = None     # [time, zone, bakugan] of a landing just taken back
        self.last_t = 0

    # ------------------------------------------------------------ naming
    def who(self, p):
        if type(p) is int and 0 <= p < len(self.names):
            return self.names[p]
        if type(p) is int:
            return "player %d" % (p + 1)
        return plain(p)

    def gate(self, gid):
        """A gate card in a sentence: "Dan's gate 3" (a card with no name of
        its own, numbered from 1 in its owner's deck) or "gate dan-gold"."""
        m = _GEN_ID.match(gid if type(gid) is str else "")
        return self.gate_name(gid) if m else "gate %s" % plain(gid)

    def gate_name(self, gid):
        """A gate card where a column already says it is one: its name."""
        m = _GEN_ID.match(gid if type(gid) is str else "")
        if m:
            return "%s's %s %d" % (self.who(int(m.group(1))), m.group(2), int(m.group(3)) + 1)
        return plain(gid)

    def card(self, cid):
        m = _GEN_ID.match(cid if type(cid) is str else "")
        name = ("%s's card %d" % (self.who(int(m.group(1))), int(m.group(3)) + 1)) if m else plain(cid)
        eff = self.effects.get(cid)
        return "%s (%s)" % (name, effect_text(eff)) if eff else name

    def score(self, captured):
        return "-".join(str(len(c)) for c in captured or [])

    def end_line(self, ev):
        caps = ev.get("captured") or []
        w = ev.get("winner")
        if w is None:
            return "no winner (%s)" % self.score(caps) if caps else "no winner"
        if not any(caps):   # won otherwise (points, a position): not "Dan wins 0-0"
            caps = []
        if not caps or type(w) is not int or not 0 <= w < len(caps):
            return "%s wins" % self.who(w)
        # the winner's captures first: "Dan wins 3-1"
        order = [caps[w]] + [c for i, c in enumerate(caps) if i != w]
        return "%s wins %s" % (self.who(w), self.score(order))

    # ------------------------------------------------------------ field kinds
    # (firmware/web/mat.js has the same kinds, one function each)
    def kind(self, kind, v, ev):
        """A field's value in words, or None when it cannot be said."""
        if kind == "who":
            return ", ".join(self.who(p) for p in v) if type(v) in (list, tuple) else self.who(v)
        if kind == "gate":
            return self.gate(v)
        if kind == "card":
            return self.card(v)
        if kind == "ball":
            return v or "a Bakugan"
        if kind == "signed":
            return _signed(v) if type(v) is int else plain(v)
        if kind == "stamp":
            return stamp(v).strip()
        if kind == "hidden":
            return ""
        if kind == "input":
            return plain(v.get("ev") if type(v) is dict else v)
        if kind == "bonus":
            b = v or {}
            return ", ".join("%s %s" % (a, self.kind("signed", b[a], ev)) for a in sorted(b)) or "no bonus"
        if kind == "g":
            g = self.bak_g.get(v)
            return None if g is None else plain(g)
        if kind == "moves":
            return ", ".join("%s->%s" % (m[0], m[1]) for m in v or [])
        if kind == "scores":
            left = ev.get("left") or []
            return ", ".join("%s %s%s" % (self.who(i), plain(s), " (%s left)" % plain(left[i]) if i < len(left) else "")
                             for i, s in enumerate(v or []))
        if kind == "side":
            g, gate, ab = ((ev.get("parts") or {}).get(v) or [0, 0, 0])[:3]
            bits = ["%d G" % g]
            if gate:
                bits.append("gate %s" % _signed(gate))
            if ab:
                bits.append("abilities %s" % _signed(ab))
            return "%s %s (%s)" % (plain(v), plain((ev.get("power") or {}).get(v, g + gate + ab)), ", ".join(bits))
        if kind == "end":
            return self.end_line(ev)
        m = PHRASES["maps"].get(kind)
        if m is not None:
            return m.get(plain(v), m.get("*", plain(v)))
        return plain(v)

    def fill(self, tpl, ev):
        """A template (syntax in the module doc) filled from ev."""
        def hole(name, kind):
            v = ev.get(name)
            if not kind:
                return plain(v)
            return self.kind(kind, v, ev)

        def part(m):
            if m.group(2):
                s = hole(m.group(2), m.group(3))
                return "" if s is None else s
            for alt in m.group(1).split("|"):
                said = []
                for h in _HOLE.finditer(alt):
                    s = hole(h.group(1), h.group(2)) if _present(ev.get(h.group(1))) else None
                    if s is None:
                        break
                    said.append(s)
                else:
                    it = iter(said)
                    return _HOLE.sub(lambda h: next(it), alt)
            return ""
        return _PART.sub(part, tpl)

    def _plain_event(self, ev):
        def said(a):
            kind = PHRASES["fields"].get(a)
            s = self.kind(kind, ev[a], ev) if kind else None
            return plain(ev[a]) if s is None else s
        fields = ", ".join("%s %s" % (a, said(a)) for a in ev if a not in ("ev", "t"))
        k = plain(ev.get("ev"))
        return "%s: %s" % (k, fields) if fields else k

    # ------------------------------------------------------------ events
    def game(self, ev):
        k = ev.get("ev")
        if k == "stand":
            z, b, a = ev.get("zone"), ev.get("bakugan"), self.amended
            self.amended = None
            self.stood[ev.get("t") or 0] = [z, b]
            if a and a[0] == (ev.get("t") or 0) and a[1] == z and a[2] != b:
                return self.fill(PHRASES["game"]["corrected"], dict(ev, was=a[2]))
        elif k == "undo":
            was = self.stood.get(ev.get("at")) if ev.get("undone") == "land" else None
            if was:
                self.amended = [ev.get("t") or 0] + was
        tpl = PHRASES["game"].get(k) if type(k) is str else None
        return self.fill(tpl, ev) if tpl else self._plain_event(ev)

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
        if k == "land":
            if ev.get("bakugan"):
                self.last_land[z] = ev.get("bakugan")
            if ev.get("learned"):
                k = "learned"
        elif k == "ident":
            before = self.last_land.get(z)
            self.last_land[z] = ev.get("bakugan")
            if before and before != ev.get("bakugan"):
                return self.fill(PHRASES["mat"]["corrected"], dict(ev, was=before))
        elif k == "unland":
            self.last_land.pop(z, None)
        tpl = PHRASES["mat"].get(k) if type(k) is str else None
        return self.fill(tpl, ev) if tpl else self._plain_event(ev)


def effect_text(eff):
    w = Words()
    out = []
    for k in sorted(eff):
        v = eff[k]
        form = PHRASES["effects"].get(k)
        if form is None:
            out.append("%s %s" % (k, plain(v)))
        elif "{v" in form:
            out.append(w.fill(form, {"v": v}))
        elif v:
            out.append(form)
    return ", ".join(out)


# ---------------------------------------------------------------- the page's copy
JS_BEGIN = "  /* PHRASES: written by `python -m host_tools.words --write-js` from host_tools/words.py; do not edit */\n"
JS_END = "  /* end of PHRASES */\n"


def js_block():
    """The phrase table as mat.js holds it (between JS_BEGIN and JS_END)."""
    return JS_BEGIN + "  var PHRASES = " + json.dumps(PHRASES, indent=1, sort_keys=True).replace(
        "\n", "\n  ") + ";\n" + JS_END


def mat_js_path():
    from host_tools import fwpath
    import os
    return os.path.join(fwpath.REPO_DIR, "firmware", "web", "mat.js")


def js_copy(text):
    """The phrase block mat.js holds now, or None."""
    a = text.find(JS_BEGIN)
    b = text.find(JS_END)
    return text[a:b + len(JS_END)] if a >= 0 and b > a else None


def write_js(path=None):
    path = path or mat_js_path()
    with open(path) as f:
        text = f.read()
    old = js_copy(text)
    if old is None:
        raise SystemExit("%s has no PHRASES block (%s)" % (path, JS_BEGIN.strip()))
    new = text.replace(old, js_block())
    if new != text:
        with open(path, "w") as f:
            f.write(new)
    return new != text


if __name__ == "__main__":
    import sys
    if sys.argv[1:] != ["--write-js"]:
        raise SystemExit("usage: python -m host_tools.words --write-js")
    print("mat.js: %s" % ("phrases written" if write_js() else "phrases already current"))
