"""Random games of the Chinese variant modes (docs/modes/README.md), for the
differential test, the property tests and the sample logs. CPython only.

    hdr, events = random_game(seed, "zhulu")

Same idea as host_tools/gen/gamegen.py (whose official corpus nothing here
touches): the referee is the oracle that keeps the stream mostly legal, and
a small share of events is deliberately doubtful so rejections are
exercised too.
"""
import random

from host_tools import fwpath
from host_tools.gen import gamegen

ZONES = gamegen.ZONES

# mode -> (player counts, Bakugan per player, cards per player, abilities per
# player): the sheets' sets (each mode's KIT), so the headers pass the
# referee's set-up checks without a "kit". Snooker: 6 cards in all, shared
# out among the players (cards per player is None).
SPECS = {
    "fortress": ((2,), 3, 7, 0),
    "snooker": ((1, 2, 3, 4), 6, None, 0),
    "zhulu": ((2, 3, 4), 3, 3, 0),
    "shenghui": ((2, 3, 4), 3, 3, 1),
    "zhanguo": ((2, 3, 4), 3, 3, 1),
    "longhu": ((2,), 4, 4, 0),
    "longhu_support": ((2,), 4, 4, 2),
    "normandy": ((2,), 4, 4, 2),
    "beach": ((2,), 12, 6, 0),
    "beach2": ((2,), 12, 6, 3),
    "baolie": ((4,), 3, 4, 0),
    "compass": ((2,), 3, 2, 0),
}
MODES = tuple(sorted(SPECS))
MAX_EVENTS = 700
COMMANDS = ("fire-tornado", "aqua-shield", "quake", "light-beam", "shadow", "gale")


def _ids(n):
    ids = list(gamegen.BAKUGAN)
    k = 2
    while len(ids) < n:
        ids.extend(["%s%d" % (b, k) for b in gamegen.BAKUGAN])
        k += 1
    return ids


def random_header(rng, mode):
    counts, nb, nc, na = SPECS[mode]
    n = rng.choice(counts)
    pool = _ids(n * nb)
    rng.shuffle(pool)
    players = []
    for i in range(n):
        # fortress: "3个不同属性的爆丸", 3 Bakugan of different attributes
        attrs = rng.sample(gamegen.ATTRS, nb) if mode == "fortress" else [rng.choice(gamegen.ATTRS) for _ in range(nb)]
        baks = [{"id": pool.pop(), "attr": attrs[k], "g": rng.randrange(200, 600, 10)} for k in range(nb)]
        gates = []
        for j in range(nc if nc is not None else 6 // n + (i < 6 % n)):
            bonus = {}
            for a in rng.sample(gamegen.ATTRS, rng.randrange(1, 4)):
                bonus[a] = rng.choice((-50, -30, 30, 50, 80, 100, 120))
            gates.append({"id": "p%d-card%d" % (i, j), "bonus": bonus, "hsp": rng.randrange(0, 200, 10)})
        p = {"name": gamegen.NAMES[i % len(gamegen.NAMES)] + ("" if i < len(gamegen.NAMES) else str(i)),
             "bakugan": baks, "gates": gates}
        if na:
            abil = []
            for j in range(na):
                a = {"id": "p%d-item%d" % (i, j), "effect": dict(rng.choice(gamegen.EFFECTS))}
                if mode in ("zhanguo", "normandy", "beach2"):
                    if rng.random() < 0.6:
                        a["attr"] = rng.choice([b["attr"] for b in baks])
                    a["command"] = rng.choice(COMMANDS)
                    a["hsp"] = rng.randrange(0, 100, 10)
                abil.append(a)
            p["abilities"] = abil
        if mode == "fortress" and rng.random() < 0.5:
            gates[1]["effect"] = dict(rng.choice(gamegen.EFFECTS))
        players.append(p)
    hdr = {"bakumat": "events", "version": 1, "mode": mode, "first": rng.randrange(n), "players": players}
    if mode == "snooker":
        hdr["shots"] = rng.choice((3, 6))
    return hdr


def _legal(rng, g):
    from referee.engine import SETUP
    if g.phase == SETUP:
        owing = [p for p in range(g.n) if g.owe[p] > 0]
        if owing:
            p = rng.choice(owing)
            zs = g.setup_zones(p)
            free = [z for z in (zs if zs is not None else range(ZONES)) if z not in g.field]
            return {"ev": "gate", "player": p, "gate": rng.choice(g.gates_in_hand(p)), "zone": rng.choice(free)}
        p, cands = g.setup_expects()
        b = rng.choice(cands)
        q = g.bak_owner[b]
        free = [z for z in sorted(g.field) if g.gate_owner[g.field[z]] == q and not g.stand.get(z)]
        return {"ev": "land", "bakugan": b, "zone": rng.choice(free)}
    if g.battle is not None:
        z, att, dfd, mods = g.battle
        sides = [g.bak_owner[att], g.bak_owner[dfd]]
        r = rng.random()
        if g.ABILITIES is not None and r < 0.45:
            p = rng.choice(sides)
            if g.ABILITIES == "set_item":
                if p == sides[1] and sides[0] not in g.acted:
                    return {"ev": "pass", "player": sides[0]}
                if g.set_item[p] is not None and rng.random() < 0.8:
                    return {"ev": "ability", "player": p, "card": g.set_item[p]}
                return {"ev": "pass", "player": p}
            cards = [c for c in g.abil_ids[p] if c not in g.used_abil[p]]
            if cards:
                return {"ev": "ability", "player": p, "card": rng.choice(cards)}
        if 0.45 <= r < 0.5 and z in g.field:  # the battle card turned over: its values entered
            gid = g.field[z]
            bonus = {}
            for a in rng.sample(gamegen.ATTRS, rng.randrange(0, 3)):
                bonus[a] = rng.choice((-50, 30, 60, 100))
            return {"ev": "reveal", "player": g.gate_owner[gid], "gate": gid, "bonus": bonus,
                    "hsp": rng.randrange(0, 200, 10)}
        mine = g.own_on(sides[1], z)
        if len(mine) > 1 and r < 0.6:
            return {"ev": "pick", "player": sides[1], "bakugan": rng.choice(mine)}
        if r < 0.85:
            return {"ev": "resolve"}
    if g.choice is not None and rng.random() < 0.7:
        p, z, _ = g.choice
        return {"ev": "pick", "player": p, "bakugan": rng.choice(g.own_on(p, z))}
    if g.refills and g.battle is None and g.choice is None:
        p, z = g.refills[0]
        return {"ev": "gate", "player": p, "gate": rng.choice(g.gates_in_hand(p)), "zone": z}
    if g.ABILITIES == "set_item" and rng.random() < 0.08:
        p = rng.randrange(g.n)
        av = g.available_items(p)
        if av and p not in g.swapped:  # once per player at each round's end
            return {"ev": "item", "player": p, "card": rng.choice(av)}
    p, cands = g.expects()
    if p is None or not cands:
        return {"ev": "resolve"}
    b = rng.choice(cands)
    r = rng.random()
    if r < 0.12:
        return {"ev": "miss", "bakugan": b}
    if r < 0.2:
        return {"ev": "land", "bakugan": b, "zone": rng.randrange(ZONES)}
    targets = [z for z in g.targets(b) if z != g.loc[b]]
    if not targets:
        return {"ev": "land", "bakugan": b, "zone": rng.randrange(ZONES)}
    return {"ev": "land", "bakugan": b, "zone": rng.choice(targets)}


def _wrong(rng, g):
    kind = rng.choice(("gate", "land", "miss", "ability", "resolve", "pick", "pass", "item", "choose"))
    p = rng.randrange(g.n)
    if kind == "gate":
        return {"ev": "gate", "player": p, "gate": rng.choice(g.gate_ids), "zone": rng.randrange(ZONES)}
    if kind == "land":
        return {"ev": "land", "bakugan": rng.choice(g.bak_ids), "zone": rng.randrange(ZONES)}
    if kind == "miss" or kind == "pick":
        e = {"ev": kind, "bakugan": rng.choice(g.bak_ids)}
        if kind == "pick":
            e["player"] = p
        return e
    if kind == "ability" or kind == "item":
        if not g.abil_ids[p]:
            return {"ev": "resolve"}
        return {"ev": kind, "player": p, "card": rng.choice(g.abil_ids[p])}
    if kind == "pass":
        return {"ev": "pass", "player": p}
    if kind == "choose":
        return {"ev": "choose", "player": p, "action": "take"}
    return {"ev": "resolve"}


def random_game(seed, mode, wrong=0.05, max_events=MAX_EVENTS, header=None):
    """(header, [events]) of a game of `mode` played until it is over (or
    the event budget runs out). Deterministic for a seed."""
    fwpath.ensure()
    import referee
    from referee.engine import OVER

    rng = random.Random("%s-%d" % (mode, seed))
    hdr = header or random_header(rng, mode)
    g = referee.new_game(hdr)
    events = []
    t = 0
    while g.phase != OVER and len(events) < max_events:
        t += rng.randrange(100, 4000, 100)
        ev = _wrong(rng, g) if rng.random() < wrong else _legal(rng, g)
        ev = dict(ev)
        ev["t"] = t
        events.append(ev)
        g.feed(ev)
    return hdr, events
