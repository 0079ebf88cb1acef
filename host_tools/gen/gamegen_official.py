"""Random games for the official extras modes: "big", "multi" and the extra
rules switched on by header fields (traps, gear, game level, evolution, pure
attribute; docs/modes/official-extras.md). CPython only.

    hdr, events = random_game(seed, "big")        # or "multi", "official+x"...

Built on host_tools/gen/gamegen.py (same legal/wrong event choosers, the referee
as the oracle); the official mode's own corpus is gamegen.random_game and is
not touched by anything here.
"""
import random

from host_tools import fwpath
from host_tools.gen import gamegen

# generator name -> (player counts, deck size, extras on). "<mode>+x" plays
# mode <mode> with the header fields of the extra rules.
SPECS = {
    "multi": ((3, 4), 3, False),
    "big": ((2, 2, 3, 4), 6, False),
    "official+x": ((2,), 3, True),
    "big+x": ((2, 2, 3), 6, True),
    "multi+x": ((3, 4), 3, True),
}
MAX_EVENTS = {"multi": 600, "big": 900, "official+x": 500, "big+x": 1000, "multi+x": 700}
# output kinds each corpus must show (the differential test checks)
_BASIC = ("battle", "capture", "reject", "win", "ability")
_EXTRAS = _BASIC + ("trap", "gear", "evolve", "pure", "reuse_items")
EXPECTED_KINDS = {"multi": _BASIC, "big": _BASIC, "official+x": _EXTRAS, "big+x": _EXTRAS,
                  "multi+x": _EXTRAS}

GATE_COLOURS = ("gold", "silver", "copper")


def _bakugan_ids(n):
    ids = list(gamegen.BAKUGAN)
    k = 2
    while len(ids) < n:
        ids.extend(["%s%d" % (b, k) for b in gamegen.BAKUGAN])
        k += 1
    return ids


def _gate_bonus(rng):
    bonus = {}
    for a in rng.sample(gamegen.ATTRS, rng.randrange(1, 4)):
        bonus[a] = rng.choice((-50, -30, 30, 50, 80, 100, 120))
    return bonus


def random_header(rng, name):
    counts, deck, extras = SPECS[name]
    mode = name.split("+")[0]
    n = rng.choice(counts)
    pool = _bakugan_ids(n * deck)
    rng.shuffle(pool)
    players = []
    for i in range(n):
        name = gamegen.player_name(players, (i * 3 + rng.randrange(3)) % len(gamegen.NAMES))
        baks = [{"id": pool.pop(), "attr": rng.choice(gamegen.ATTRS), "g": rng.randrange(250, 600, 10)}
                for _ in range(deck)]
        gates = []
        seen = []
        while len(gates) < deck:
            bonus = _gate_bonus(rng)
            if bonus in seen:
                continue  # the Big Game wants all cards different
            seen.append(bonus)
            gates.append({"id": "p%d-gate%d" % (i, len(gates)), "bonus": bonus})
        effects = rng.sample(gamegen.EFFECTS, deck)
        abil = [{"id": "p%d-card%d" % (i, j), "effect": dict(effects[j])} for j in range(deck)]
        players.append({"name": name, "bakugan": baks, "gates": gates, "abilities": abil})
    hdr = {"bakumat": "events", "version": 1, "mode": mode, "first": rng.randrange(n), "players": players}
    if mode == "big":
        hdr["target"] = 6
    if extras:
        _add_extras(rng, hdr, deck)
    return hdr


def _add_extras(rng, hdr, deck):
    season = rng.choice((2, 3))
    hdr["season"] = season
    scale = 2 if deck == 6 else 1
    for i, p in enumerate(hdr["players"]):
        for b in p["bakugan"]:
            if rng.random() < 0.35:
                b["pure"] = True
        colours = list(GATE_COLOURS) * scale
        rng.shuffle(colours)
        for j, gt in enumerate(p["gates"]):
            gt["colour"] = colours[j % len(colours)]
            if rng.random() < 0.3:
                gt["level"] = rng.randrange(0, 4)
        for a in p["abilities"]:
            if rng.random() < 0.3:
                a["level"] = rng.randrange(1, 7)
        attrs = [b["attr"] for b in p["bakugan"]]
        if season == 2:
            n_traps, n_gear = scale, 0
        else:
            n_traps = rng.randrange(0, 2 * scale + 1)
            n_gear = 2 * scale - n_traps
        traps = []
        for j in range(n_traps):
            eff = {"attr": rng.choice(gamegen.ATTRS)} if rng.random() < 0.4 else {"g": rng.randrange(30, 160, 10)}
            traps.append({"id": "p%d-trap%d" % (i, j), "attr": rng.choice(attrs), "effect": eff})
        gear = []
        for j in range(n_gear):
            x = {"id": "p%d-gear%d" % (i, j), "g": rng.randrange(20, 110, 10)}
            if rng.random() < 0.7:
                x["attr"] = rng.choice(attrs)
            if rng.random() < 0.7:
                x["colour"] = rng.choice(GATE_COLOURS)
            if rng.random() < 0.8:
                x["extra"] = dict(rng.choice(gamegen.EFFECTS))
            gear.append(x)
        if traps:
            p["traps"] = traps
        if gear:
            p["gear"] = gear
        evos = []
        for b in rng.sample(p["bakugan"], rng.randrange(0, 3)):
            to = {"id": b["id"] + "-evo", "attr": b["attr"], "g": b["g"] + rng.randrange(50, 200, 10)}
            if b.get("pure"):
                to["pure"] = True
            evos.append({"from": b["id"], "to": to, "level": rng.randrange(0, 2 * deck)})
        if evos:
            p["evolutions"] = evos


def _legal_extras(rng, g):
    """Mostly gamegen's legal events, plus traps, gear, colour choices and
    evolutions where the rules allow them (sometimes where they do not)."""
    from referee.engine import PLAY, UNUSED

    bt = g.battle
    if bt is not None and bt[1] in g.pure and bt[2] in g.pure and not bt[3] and rng.random() < 0.6:
        p = g.bak_owner[rng.choice(bt[1:3])]
        return {"ev": "pure", "player": p, "attr": rng.choice(gamegen.ATTRS)}
    if bt is not None and rng.random() < 0.4:
        a, d = bt[1], bt[2]
        p = rng.choice([g.bak_owner[a], g.bak_owner[d]])
        items = [i for i in g.item_ids if g.item_owner[i] == p and g.iloc[i] == UNUSED]
        if items:
            iid = rng.choice(items)
            kind = g.item[iid][0]
            if kind == "trap":
                return {"ev": "trap", "player": p, "trap": iid}
            return {"ev": "gear", "player": p, "gear": iid, "extra": rng.random() < 0.6}
    if bt is None and g.choice is None and g.phase == PLAY and g.placed == 0 and rng.random() < 0.12:
        p = g.turn
        cands = [b for b in g.bak_ids if b in g.evo and g.bak_owner[b] == p and g.loc[b] < 0 and g.loc[b] >= -2]
        if cands:
            return {"ev": "evolve", "player": p, "bakugan": rng.choice(cands)}
    return gamegen._legal(rng, g)


def _wrong_extras(rng, g):
    r = rng.random()
    p = rng.randrange(g.n)
    if r < 0.15 and g.item_ids:
        iid = rng.choice(g.item_ids)  # the log checks the owner: a wrong time, not a wrong id
        p = g.item_owner[iid]
        kind = g.item[iid][0]
        if kind == "trap":
            return {"ev": "trap", "player": p, "trap": iid}
        return {"ev": "gear", "player": p, "gear": iid, "extra": rng.random() < 0.5}
    if r < 0.22:
        return {"ev": "evolve", "player": p, "bakugan": rng.choice(g.bak_ids)}
    if r < 0.28:
        return {"ev": "pure", "player": p, "attr": rng.choice(gamegen.ATTRS)}
    return gamegen._wrong(rng, g)


def random_game(seed, name, wrong=0.05, max_events=None):
    """(header, [events]) for a game of generator `name` (a mode, or
    "<mode>+x" with the extra rules) played until someone wins (or the event
    budget runs out). Deterministic for a seed."""
    fwpath.ensure()
    rng = random.Random("%s-%d" % (name, seed))
    hdr = random_header(rng, name)
    if SPECS[name][2]:
        return gamegen.play(rng, hdr, wrong, max_events or MAX_EVENTS[name], _legal_extras, _wrong_extras)
    return gamegen.play(rng, hdr, wrong, max_events or MAX_EVENTS[name])
