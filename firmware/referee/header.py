"""Validate a game header (the event-log header's game part: mode, first,
target, players with their Bakugan, gate and ability cards).

Shared by the referee, the log readers and the serial link so every entry
point names a bad field the same way. Errors are SetupError with a path such
as "players[1].gates[0].bonus: unknown attribute 'fire'".
"""
from referee.errors import SetupError

ATTRIBUTES = ("pyrus", "aquos", "subterra", "haos", "darkus", "ventus")
EFFECTS = ("g", "opp_g", "attr", "nullify_gate")


def _need(obj, key, kind, where):
    if type(obj) is not dict:
        raise SetupError("%s: expected an object" % where)
    if key not in obj:
        raise SetupError("%s: missing field '%s'" % (where, key))
    v = obj[key]
    if kind is int:
        if type(v) is not int:
            raise SetupError("%s.%s: expected an integer, got %s" % (where, key, _show(v)))
    elif kind is str:
        if type(v) is not str or not v:
            raise SetupError("%s.%s: expected a non-empty string, got %s" % (where, key, _show(v)))
    elif kind is list:
        if type(v) is not list:
            raise SetupError("%s.%s: expected a list" % (where, key))
    elif kind is dict:
        if type(v) is not dict:
            raise SetupError("%s.%s: expected an object" % (where, key))
    return v


def _show(v):
    s = repr(v)
    return s if len(s) < 40 else s[:37] + "..."


def check_effect(eff, where):
    if type(eff) is not dict or not eff:
        raise SetupError("%s: expected a non-empty object" % where)
    for k in eff:
        if k not in EFFECTS:
            raise SetupError("%s: unknown effect '%s' (known: %s)" % (where, k, ", ".join(EFFECTS)))
        v = eff[k]
        if k == "attr":
            if v not in ATTRIBUTES:
                raise SetupError("%s.attr: unknown attribute %s" % (where, _show(v)))
        elif k == "nullify_gate":
            if v is not True:
                raise SetupError("%s.nullify_gate: expected true" % where)
        elif type(v) is not int:
            raise SetupError("%s.%s: expected an integer" % (where, k))


def check(header, min_players=2, max_players=2):
    """Check a header dict; return it. Raises SetupError naming the field."""
    if type(header) is not dict:
        raise SetupError("header: expected an object")
    players = _need(header, "players", list, "header")
    n = len(players)
    if n < min_players or n > max_players:
        if min_players == max_players:
            raise SetupError("header.players: this mode needs %d players, got %d" % (min_players, n))
        raise SetupError("header.players: this mode needs %d to %d players, got %d" % (min_players, max_players, n))
    first = header.get("first", 0)
    if type(first) is not int or not 0 <= first < n:
        raise SetupError("header.first: expected a player index 0..%d, got %s" % (n - 1, _show(first)))
    target = header.get("target", 3)
    if type(target) is not int or target < 1:
        raise SetupError("header.target: expected a positive integer, got %s" % _show(target))
    bak_ids = {}
    gate_ids = {}
    for i in range(n):
        p = players[i]
        where = "players[%d]" % i
        _need(p, "name", str, where)
        baks = _need(p, "bakugan", list, where)
        if not baks:
            raise SetupError("%s.bakugan: a player needs at least one Bakugan" % where)
        for j in range(len(baks)):
            b = baks[j]
            w = "%s.bakugan[%d]" % (where, j)
            bid = _need(b, "id", str, w)
            attr = _need(b, "attr", str, w)
            if attr not in ATTRIBUTES:
                raise SetupError("%s.attr: unknown attribute '%s' (known: %s)" % (w, attr, ", ".join(ATTRIBUTES)))
            _need(b, "g", int, w)
            if bid in bak_ids:
                raise SetupError("%s.id: Bakugan id '%s' is already used by %s" % (w, bid, bak_ids[bid]))
            bak_ids[bid] = w
        gates = _need(p, "gates", list, where)
        for j in range(len(gates)):
            gt = gates[j]
            w = "%s.gates[%d]" % (where, j)
            gid = _need(gt, "id", str, w)
            bonus = gt.get("bonus", {}) if type(gt) is dict else None
            if type(bonus) is not dict:
                raise SetupError("%s.bonus: expected an object" % w)
            for a in bonus:
                if a not in ATTRIBUTES:
                    raise SetupError("%s.bonus: unknown attribute '%s'" % (w, a))
                if type(bonus[a]) is not int:
                    raise SetupError("%s.bonus.%s: expected an integer" % (w, a))
            if gid in gate_ids:
                raise SetupError("%s.id: gate id '%s' is already used by %s" % (w, gid, gate_ids[gid]))
            gate_ids[gid] = w
        abil = p.get("abilities", [])
        if type(abil) is not list:
            raise SetupError("%s.abilities: expected a list" % where)
        seen = {}
        for j in range(len(abil)):
            a = abil[j]
            w = "%s.abilities[%d]" % (where, j)
            aid = _need(a, "id", str, w)
            if aid in seen:
                raise SetupError("%s.id: ability id '%s' appears twice" % (w, aid))
            seen[aid] = 1
            check_effect(_need(a, "effect", dict, w), w + ".effect")
    return header
