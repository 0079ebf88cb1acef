"""The header fields of the official sheet's extra rules (referee/modes/extras.py):
traps, battle gear, gate colours and levels, ability levels, evolutions,
pure-attribute Bakugan, read and checked (SetupError naming the field).
docs/modes/official-extras.md."""
from referee.engine import OUT
from referee.errors import SetupError
from referee.header import ATTRIBUTES, check_effect

COLOURS = ("gold", "silver", "copper")
SEASONS = (2, 3)
# Traps and gear a player may bring, per season: (traps, traps + gear);
# the Big Game doubles them (EXTRA_ITEMS = 2 on its class).
ALLOWANCE = {2: (1, 1), 3: (2, 2)}


def _bad(where, msg):
    raise SetupError("%s: %s" % (where, msg))


def _int(v, where, lo=0):
    if type(v) is not int or v < lo:
        _bad(where, "expected an integer >= %d, got %r" % (lo, v))
    return v


def _id(obj, where, seen):
    if type(obj) is not dict:
        _bad(where, "expected an object")
    i = obj.get("id")
    if type(i) is not str or not i:
        _bad(where + ".id", "expected a non-empty string")
    if i in seen:
        _bad(where + ".id", "id '%s' is already used by %s" % (i, seen[i]))
    seen[i] = where
    return i


def _attr(v, where):
    if v not in ATTRIBUTES:
        _bad(where, "unknown attribute %r (known: %s)" % (v, ", ".join(ATTRIBUTES)))
    return v


def season(header):
    s = header.get("season", 3)
    if s not in SEASONS:
        _bad("header.season", "expected 2 or 3, got %r" % (s,))
    return s


def read(game, header):
    """Fill the game's tables (Extras.__init__ made them empty) from the
    header; the evolved forms join its Bakugan, out of play until then."""
    season = game.season
    players = header["players"]
    scale = getattr(game, "EXTRA_ITEMS", 1)
    items_seen = {}
    known = {}
    for b in game.bak_ids:
        known[b] = "a Bakugan"
    for i in range(game.n):
        p = players[i]
        w = "players[%d]" % i
        baks = p["bakugan"]
        for j in range(len(baks)):
            if "pure" in baks[j]:
                if baks[j]["pure"] is not True:
                    _bad("%s.bakugan[%d].pure" % (w, j), "expected true")
                game.pure[baks[j]["id"]] = True
        counts = {}
        gates = p["gates"]
        for j in range(len(gates)):
            gt = gates[j]
            gw = "%s.gates[%d]" % (w, j)
            if "colour" in gt:
                c = gt["colour"]
                if c not in COLOURS:
                    _bad(gw + ".colour", "expected one of %s, got %r" % (", ".join(COLOURS), c))
                counts[c] = counts.get(c, 0) + 1
                if counts[c] > getattr(game, "GATES_PER_COLOUR", 1):
                    _bad(gw + ".colour", "more than %d %s gate card(s) in one hand" % (
                        getattr(game, "GATES_PER_COLOUR", 1), c))
                game.gate_colour[gt["id"]] = c
            game.gate_level[gt["id"]] = _int(gt.get("level", 1), gw + ".level")
        lv = {}
        abil = p.get("abilities", [])
        for j in range(len(abil)):
            if "level" in abil[j]:
                lv[abil[j]["id"]] = _int(abil[j]["level"], "%s.abilities[%d].level" % (w, j))
        game.abil_level.append(lv)
        n_traps = 0
        n_items = 0
        for key in ("traps", "gear"):
            lst = p.get(key, [])
            if type(lst) is not list:
                _bad("%s.%s" % (w, key), "expected a list")
            for j in range(len(lst)):
                x = lst[j]
                xw = "%s.%s[%d]" % (w, key, j)
                iid = _id(x, xw, items_seen)
                if key == "traps":
                    n_traps += 1
                    a = _attr(x.get("attr"), xw + ".attr")
                    eff = x.get("effect")
                    if type(eff) is not dict or len(eff) != 1 or not ("attr" in eff or "g" in eff):
                        _bad(xw + ".effect", "expected {\"attr\": A} or {\"g\": N}")
                    if "attr" in eff:
                        _attr(eff["attr"], xw + ".effect.attr")
                    elif type(eff["g"]) is not int:
                        _bad(xw + ".effect.g", "expected an integer")
                    game.item[iid] = ("trap", a, eff)
                else:
                    if season == 2:
                        _bad(xw, "battle gear belongs to the season-3 rules (header.season is 2)")
                    g = x.get("g")
                    if type(g) is not int:
                        _bad(xw + ".g", "expected an integer")
                    a = _attr(x["attr"], xw + ".attr") if "attr" in x else None
                    c = x.get("colour")
                    if c is not None and c not in COLOURS:
                        _bad(xw + ".colour", "expected one of %s, got %r" % (", ".join(COLOURS), c))
                    extra = x.get("extra")
                    if extra is not None:
                        check_effect(extra, xw + ".extra")
                    game.item[iid] = ("gear", g, a, c, extra)
                n_items += 1
                game.item_ids.append(iid)
                game.item_owner[iid] = i
        max_traps, max_items = ALLOWANCE[season]
        if n_traps > max_traps * scale:
            _bad(w + ".traps", "at most %d trap(s) per player under the season-%d rules%s, got %d" % (
                max_traps * scale, season, " of the Big Game" if scale > 1 else "", n_traps))
        if n_items > max_items * scale:
            _bad(w, "at most %d traps and battle gear together per player under the season-%d rules%s, got %d" % (
                max_items * scale, season, " of the Big Game" if scale > 1 else "", n_items))
        evos = p.get("evolutions", [])
        if type(evos) is not list:
            _bad(w + ".evolutions", "expected a list")
        for j in range(len(evos)):
            e = evos[j]
            ew = "%s.evolutions[%d]" % (w, j)
            if type(e) is not dict:
                _bad(ew, "expected an object")
            f = e.get("from")
            if f not in known or game.bak_owner.get(f) != i:
                _bad(ew + ".from", "%r is not one of %s's Bakugan" % (f, game.names[i]))
            if f in game.evo:
                _bad(ew + ".from", "%s already has an evolution" % f)
            to = e.get("to")
            tid = _id(to, ew + ".to", known)
            _attr(to.get("attr"), ew + ".to.attr")
            if type(to.get("g")) is not int:
                _bad(ew + ".to.g", "expected an integer")
            if "pure" in to:
                if to["pure"] is not True:
                    _bad(ew + ".to.pure", "expected true")
                game.pure[tid] = True
            game.evo[f] = (tid, _int(e.get("level", 0), ew + ".level"))
            game.evo_from[tid] = f
            game.bak_ids.append(tid)
            game.bak_owner[tid] = i
            game.bak_attr[tid] = to["attr"]
            game.bak_g[tid] = to["g"]
            game.loc[tid] = OUT  # enters the game by evolving
