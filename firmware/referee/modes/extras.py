"""The extra rules of the official sheet's season-2/3 part ("Правила новой
Вестрои"): Bakugan traps, battle gear, game level and level-limited ability
cards, evolution, pure-attribute Bakugan. They are optional header fields of
modes official, big and multi, not modes of their own: the mode's variant()
(referee/modes/switch.py) returns the mode's class unchanged when the header
uses none of them, so a plain game never imports this module, and otherwise
the class built here once per mode class by variant(): the mixin Extras
(the rules, written once, at module level) before the mode's class.

Header fields (docs/modes/official-extras.md):
    header.season                   2 or 3 (default 3): how many traps/gear
    players[i].traps                [{"id", "attr", "effect": {"attr": A} | {"g": N}}]
    players[i].gear                 [{"id", "g", "attr"?, "colour"?, "extra"?: effect}]
    players[i].evolutions           [{"from": id, "to": {"id", "attr", "g", "pure"?}, "level"?}]
    players[i].bakugan[j].pure      true: takes the opponent's attribute
    players[i].gates[j].colour      "gold" | "silver" | "copper"
    players[i].gates[j].level       the gate's part of the game level (default 1)
    players[i].abilities[j].level   usable only while the game level <= it
Control events: trap {player, trap}, gear {player, gear, extra?},
evolve {player, bakugan}, pure {player, attr}.
"""
from referee.engine import Engine, OUT, UNUSED, USED, Reject
from referee.header import ATTRIBUTES
from referee.modes import extras_header

# Extras is a plain mixin (MicroPython looks methods up depth first, so a
# mixin deriving from Engine would hide the mode's own overrides); mypy
# reads `MYPY` as true and checks its methods against Engine.
MYPY = False
if MYPY:
    _Rules = Engine
else:
    _Rules = object

_cache = []  # [(base class, extended class)]: classes built once


def variant(base):
    """The extended class of mode class `base`, built once: Extras, then
    `base` (Extras' methods reach the mode's own through BASE)."""
    for b, cls in _cache:
        if b is base:
            return cls
    cls = type("Extras", (Extras, base), {
        "BASE": base,
        "INPUTS": base.INPUTS + ("trap", "gear", "evolve", "pure"),
        "BATTLE_INPUTS": base.BATTLE_INPUTS + ("trap", "gear", "pure"),
    })
    _cache.append((base, cls))
    return cls


class Extras(_Rules):
    """The extra rules, mixed in before a mode class (official, multi, big)."""
    BASE = Engine  # the mode class extended (variant() sets it)
    EXTRAS = True

    def __init__(self, header, sink=None):
        self.BASE.__init__(self, header, sink)
        self.season = extras_header.season(header)
        self.pure = {}  # Bakugan id -> True
        self.gate_colour = {}
        self.gate_level = {}
        self.abil_level = []  # per player: {card: level}
        self.item_ids = []  # traps and gear, in header order
        self.item_owner = {}
        self.item: dict = {}  # id -> ("trap", attr, effect) | ("gear", g, attr, colour, extra)
        self.evo = {}  # from id -> (to id, level)
        self.evo_from = {}  # to id -> from id
        extras_header.read(self, header)
        self.iloc = {}
        for iid in self.item_ids:
            self.iloc[iid] = UNUSED
        # Traps, gear and pure colours of the pending battle, in play
        # order: (kind, player, id or attr, extra, abilities played before).
        self.bx = []

    # -------------------------------------------------------- snapshot
    def _extra_save(self):
        return (dict(self.iloc), list(self.bx), self.BASE._extra_save(self))

    def _extra_load(self, extra):
        iloc, bx, rest = extra
        self.iloc = iloc
        self.bx = bx
        self.BASE._extra_load(self, rest)

    # ----------------------------------------------------------- level
    def level(self):
        """The game level: the sum of the levels of the gate cards still
        in the players' hands (each counts 1 unless it says otherwise)."""
        n = 0
        for g in self.gate_ids:
            if self.gloc[g] == UNUSED:
                n += self.gate_level[g]
        return n

    def check_ability(self, p, card):
        self.BASE.check_ability(self, p, card)
        lv = self.abil_level[p].get(card)
        if lv is not None:
            now = self.level()
            if lv < now:
                raise Reject("ability %s is level %d, below the game level %d" % (card, lv, now))

    # ---------------------------------------------------------- battle
    def _battler(self, p):
        """(own Bakugan, opposing Bakugan) of player p in the pending
        battle; Reject if there is none or p does not fight in it."""
        bt = self.battle
        if bt is None:
            raise Reject("no battle pending")
        a = bt[1]
        d = bt[2]
        if self.bak_owner[a] == p:
            return a, d
        if self.bak_owner[d] == p:
            return d, a
        raise Reject("%s is not in this battle" % self.names[p])

    def _played(self, kind, p):
        for x in self.bx:
            if x[0] == kind and x[1] == p:
                return x
        return None

    def _explicit_attr(self, b, mods):
        """The last attribute change played on b in this battle (ability
        `attr`, trap attribute, gear extra `attr`), or None."""
        p = self.bak_owner[b]
        res = None
        k = 0
        bx = self.bx
        for i in range(len(mods) + 1):
            while k < len(bx) and bx[k][4] <= i:
                x = bx[k]
                k += 1
                if x[1] != p:
                    continue
                if x[0] == "trap":
                    eff = self.item[x[2]][2]
                    if "attr" in eff:
                        res = eff["attr"]
                elif x[0] == "gear" and x[3]:
                    eff = self.item[x[2]][4]
                    if "attr" in eff:
                        res = eff["attr"]
            if i < len(mods):
                q, card = mods[i]
                if q == p and "attr" in self.abil[q][card]:
                    res = self.abil[q][card]["attr"]
        return res

    def battle_attr(self, b, opp, mods=None):
        """b's attribute in the battle (abilities `mods`, default those of
        the pending battle): an explicit change, else its own; a pure
        Bakugan takes the opponent's, or, when both are pure, the colour
        its player chose (default: its header attr)."""
        if mods is None:
            mods = self.battle[3] if self.battle is not None else ()
        a = self._explicit_attr(b, mods)
        if a is not None:
            return a
        if b not in self.pure:
            return self.bak_attr[b]
        if opp in self.pure and self._explicit_attr(opp, mods) is None:
            x = self._played("pure", self.bak_owner[b])
            return x[2] if x is not None else self.bak_attr[b]
        return self.battle_attr(opp, b, mods)

    def _match_attr(self, b, opp):
        """The attribute traps and gear must match: the printed one, or
        for a pure Bakugan the one it has in this battle now."""
        if b in self.pure:
            return self.battle_attr(b, opp)
        return self.bak_attr[b]

    def battle_parts(self, b, opp, z, mods, att):
        gate = self.field.get(z)
        p = self.bak_owner[b]
        ab = 0
        nullify = False
        effects = []
        for (q, card) in mods:
            effects.append((q, self.abil[q][card]))
        for x in self.bx:
            if x[0] == "trap":
                eff = self.item[x[2]][2]
                if x[1] == p and "g" in eff:
                    ab += eff["g"]
            elif x[0] == "gear":
                it = self.item[x[2]]
                if x[1] == p:
                    ab += it[1]
                if x[3]:
                    effects.append((x[1], it[4]))
        for (q, eff) in effects:
            if q == p:
                if "g" in eff:
                    ab += eff["g"]
            elif "opp_g" in eff:
                ab += eff["opp_g"]
            if "nullify_gate" in eff:
                nullify = True
        attr = self.battle_attr(b, opp, mods)
        bonus = 0 if nullify or gate is None else self.gate_bonus[gate].get(attr, 0)
        return (self.bak_g[b], bonus, ab)

    def resolve_battle(self, t):
        # Traps and gear played in it go to the used pile with the Bakugan.
        for x in self.bx:
            if x[0] != "pure":
                self.iloc[x[2]] = USED
        self.BASE.resolve_battle(self, t)
        self.bx = []

    def _item(self, p, iid, kind):
        if iid not in self.item or self.item[iid][0] != kind:
            raise Reject("unknown %s %r" % ("trap" if kind == "trap" else "battle gear", iid))
        if self.item_owner[iid] != p:
            raise Reject("%s belongs to %s, not %s" % (iid, self.names[self.item_owner[iid]], self.names[p]))
        w = self.iloc[iid]
        if w != UNUSED:
            raise Reject("%s is %s" % (iid, "in the used pile" if w == USED else "in play"))

    def on_trap(self, ev, t):
        p = self._player(ev)
        iid = ev["trap"]
        self._item(p, iid, "trap")
        b, opp = self._battler(p)
        if self._played("trap", p) is not None:
            raise Reject("%s already played a trap in this battle" % self.names[p])
        need = self._match_attr(b, opp)
        it = self.item[iid]
        if it[1] != need:
            raise Reject("trap %s is %s, %s is %s: the attributes must match" % (iid, it[1], b, need))
        self.iloc[iid] = self.battle[0]
        self.bx.append(("trap", p, iid, False, len(self.battle[3])))
        eff = it[2]
        self.emit("trap", t, (("player", p), ("trap", iid), ("bakugan", b),
                              ("attr", eff["attr"] if "attr" in eff else None),
                              ("g", eff["g"] if "g" in eff else 0)))

    def on_gear(self, ev, t):
        p = self._player(ev)
        iid = ev["gear"]
        want = ev.get("extra", False)
        if want is not True and want is not False:
            raise Reject("gear 'extra' must be true or false, got %r" % (want,))
        self._item(p, iid, "gear")
        b, opp = self._battler(p)
        if self._played("gear", p) is not None:
            raise Reject("%s already played battle gear in this battle" % self.names[p])
        it = self.item[iid]
        if want:
            if it[4] is None:
                raise Reject("battle gear %s has no extra ability" % iid)
            gate = self.field.get(self.battle[0])
            by_attr = it[2] is not None and it[2] == self._match_attr(b, opp)
            by_colour = it[3] is not None and it[3] == self.gate_colour.get(gate)
            if not by_attr and not by_colour:
                raise Reject("battle gear %s: its extra ability needs a %s Bakugan or a %s gate card" % (
                    iid, it[2] or "matching", it[3] or "matching"))
        self.iloc[iid] = self.battle[0]
        self.bx.append(("gear", p, iid, want, len(self.battle[3])))
        self.emit("gear", t, (("player", p), ("gear", iid), ("bakugan", b), ("g", it[1]), ("extra", want)))

    def on_pure(self, ev, t):
        p = self._player(ev)
        a = ev["attr"]
        if a not in ATTRIBUTES:
            raise Reject("unknown attribute %r" % (a,))
        b, opp = self._battler(p)
        if b not in self.pure or opp not in self.pure:
            raise Reject("a colour is chosen only when both battling Bakugan are pure")
        if self._played("pure", p) is not None:
            raise Reject("%s already chose a colour for %s" % (self.names[p], b))
        if self.battle[3] or [x for x in self.bx if x[0] != "pure"]:
            raise Reject("colours are chosen before any card is played in the battle")
        self.bx.append(("pure", p, a, False, 0))
        self.emit("pure", t, (("player", p), ("bakugan", b), ("attr", a)))

    # -------------------------------------------------------- evolution
    def on_evolve(self, ev, t):
        p = self._player(ev)
        b = self._bakugan(ev)
        self.ready(p)
        if p != self.turn:
            raise Reject("it is %s's turn, not %s's" % (self.names[self.turn], self.names[p]))
        if self.bak_owner[b] != p:
            raise Reject("%s belongs to %s" % (b, self.names[self.bak_owner[b]]))
        if b not in self.evo:
            raise Reject("%s has no evolution" % b)
        if self.placed:
            raise Reject("evolving takes the whole turn: a gate was already placed this turn")
        w = self.loc[b]
        if w != UNUSED and w != USED:
            raise Reject("%s is %s: only a Bakugan in hand evolves" % (b, self.where(b)))
        to, lv = self.evo[b]
        now = self.level()
        if now < lv:
            raise Reject("%s evolves from game level %d; the game is at level %d" % (b, lv, now))
        self.loc[b] = OUT
        self.loc[to] = w
        self.emit("evolve", t, (("player", p), ("from", b), ("to", to), ("level", now)))
        self.end_turn(t)

    def refresh_hand(self, p, t):
        had = self.owned(p, UNUSED)
        self.BASE.refresh_hand(self, p, t)
        if had or not self.owned(p, UNUSED):
            return
        back = [i for i in self.item_ids if self.item_owner[i] == p and self.iloc[i] == USED]
        if back:
            for i in back:
                self.iloc[i] = UNUSED
            self.emit("reuse_items", t, (("player", p), ("items", back)))

    # ------------------------------------------------------------ views
    def view(self):
        v = self.BASE.view(self)
        v["level"] = self.level()
        items = {}
        for i in self.item_ids:
            w = self.iloc[i]
            items[i] = "unused" if w == UNUSED else ("used" if w == USED else w)
        v["items"] = items
        if v["battle"] is not None:
            v["battle"]["items"] = [x[2] for x in self.bx if x[0] != "pure"]
        return v
