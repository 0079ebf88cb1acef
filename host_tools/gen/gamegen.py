"""Random but plausible games as event logs, from a seed (CPython only).

Used by the differential test (CPython vs MicroPython), the property tests
and the referee benchmark. A referee instance is the oracle that keeps the
stream mostly legal: players place gates, throw their unused Bakugan at
zones with gates (sometimes at empty zones, sometimes missing), play
abilities in battles, choose take or move; a small share of events is
deliberately wrong (wrong player, used Bakugan, occupied zone...) so the
rejection path is exercised too.
"""
import json
import random

from host_tools import fwpath

ATTRS = ("pyrus", "aquos", "subterra", "haos", "darkus", "ventus")
NAMES = ("Dan", "Runo", "Marucho", "Shun", "Julie", "Alice")
BAKUGAN = ("drago", "tigrerra", "preyas", "skyress", "gorem", "hydranoid", "serpenoid", "falconeer",
           "saurus", "gargonoid", "robotallion", "mantris", "limulus", "stinglash", "juggernoid", "siege")
EFFECTS = ({"g": 100}, {"g": 50}, {"opp_g": -50}, {"opp_g": -100}, {"nullify_gate": True},
           {"attr": "pyrus"}, {"attr": "haos"}, {"attr": "darkus"})
ZONES = 16  # the reference mat's zone count; the referee itself is board-agnostic


def player_name(players, k):
    """NAMES[k], or the next name no player has yet: names a player
    recognises (no "Dan2"); the draw that picked k is the same as before."""
    used = set(p["name"] for p in players)
    for j in range(len(NAMES)):
        name = NAMES[(k + j) % len(NAMES)]
        if name not in used:
            return name
    return "%s %d" % (NAMES[k], len(players) + 1)


def random_header(rng, n_bakugan=3, n_gates=3, target=3, mode="official"):
    players = []
    pool = list(BAKUGAN)
    rng.shuffle(pool)
    for i in range(2):
        name = player_name(players, (i * 3 + rng.randrange(3)) % len(NAMES))
        baks = [{"id": pool.pop(), "attr": rng.choice(ATTRS), "g": rng.randrange(250, 600, 10)}
                for _ in range(n_bakugan)]
        gates = []
        for j in range(n_gates):
            bonus = {}
            for a in rng.sample(ATTRS, rng.randrange(1, 4)):
                bonus[a] = rng.choice((-50, -30, 30, 50, 80, 100, 120))
            gates.append({"id": "p%d-gate%d" % (i, j), "bonus": bonus})
        abil = [{"id": "p%d-card%d" % (i, j), "effect": dict(rng.choice(EFFECTS))} for j in range(3)]
        players.append({"name": name, "bakugan": baks, "gates": gates, "abilities": abil})
    return {"bakumat": "events", "version": 1, "mode": mode, "first": rng.randrange(2),
            "target": target, "players": players}


def placeable(g):
    """Free zones where a gate may go: any on an empty field, else only
    those touching a card already down (sheet 004, checked by the referee)."""
    from referee.engine import touching
    free = [z for z in range(ZONES) if z not in g.field]
    if g.field:
        free = [z for z in free if [f for f in g.field if touching(z, f)]]
    return free


def _legal(rng, g):
    from referee.engine import OVER, REFILL, SETUP, UNUSED
    if g.phase in (SETUP, REFILL):
        p = rng.choice([i for i in range(g.n) if g.owe[i] > 0])
        free = placeable(g)
        return {"ev": "gate", "player": p, "gate": rng.choice(g.gates_in_hand(p)), "zone": rng.choice(free)}
    if g.battle is not None:
        r = rng.random()
        players = [g.bak_owner[g.battle[1]], g.bak_owner[g.battle[2]]]
        if r < 0.45:
            p = rng.choice(players)
            cards = [c for c in g.abil_ids[p] if c not in g.used_abil[p]]
            if cards:
                return {"ev": "ability", "player": p, "card": rng.choice(cards)}
        if r < 0.85:
            return {"ev": "resolve"}
        # fall through: the next throw resolves the battle implicitly
    if g.choice is not None and rng.random() < 0.7:
        p, z, _ = g.choice
        others = [x for x in g.field if x != z]
        if others and rng.random() < 0.5:
            return {"ev": "choose", "player": p, "action": "move", "zone": rng.choice(others)}
        return {"ev": "choose", "player": p, "action": "take"}
    p, cands = g.expects()
    if g.phase == OVER or p is None:
        return {"ev": "resolve"}
    if (g.battle is None and g.choice is None and g.placed == 0 and g.gates_in_hand(p)
            and rng.random() < 0.3 and placeable(g)):
        free = placeable(g)
        return {"ev": "gate", "player": p, "gate": rng.choice(g.gates_in_hand(p)), "zone": rng.choice(free)}
    if g.battle is None and g.choice is None and g.all_standing(p):
        if not g.opponents_on_field(p) and rng.random() < 0.5:
            return {"ev": "choose", "player": p, "action": "take", "zone": g.loc[rng.choice(g.standing(p))]}
        b = rng.choice(g.standing(p))
        targets = [z for z in g.field if z != g.loc[b]] or [rng.randrange(ZONES)]
        return {"ev": "land", "bakugan": b, "zone": rng.choice(targets)}
    b = rng.choice(cands)
    r = rng.random()
    if r < 0.15:
        return {"ev": "miss", "bakugan": b}
    gates = sorted(g.field)
    if r < 0.22 or not gates:
        return {"ev": "land", "bakugan": b, "zone": rng.randrange(ZONES)}
    return {"ev": "land", "bakugan": b, "zone": rng.choice(gates)}


def _wrong(rng, g):
    """A deliberately doubtful event: any id, any zone, any player."""
    kind = rng.choice(("gate", "land", "miss", "ability", "resolve", "choose"))
    p = rng.randrange(g.n)
    if kind == "gate":
        return {"ev": "gate", "player": p, "gate": rng.choice(g.gate_ids), "zone": rng.randrange(ZONES)}
    if kind == "land":
        return {"ev": "land", "bakugan": rng.choice(g.bak_ids), "zone": rng.randrange(ZONES)}
    if kind == "miss":
        return {"ev": "miss", "bakugan": rng.choice(g.bak_ids)}
    if kind == "ability":
        return {"ev": "ability", "player": p, "card": rng.choice(g.abil_ids[p])}
    if kind == "choose":
        return {"ev": "choose", "player": p, "action": rng.choice(("take", "move")), "zone": rng.randrange(ZONES)}
    return {"ev": "resolve"}


def random_game(seed, wrong=0.05, max_events=400, header=None, mode="official"):
    """(header, [events]) for a game played until someone wins (or the
    event budget runs out). Deterministic for a seed. Other modes than the
    official one come from their generator module (MODE_GENERATORS)."""
    fwpath.ensure()
    if mode != "official":
        mod = __import__("host_tools.gen." + MODE_GENERATORS[mode], None, None, ("random_game",))
        return mod.random_game(seed, mode, wrong=wrong)
    rng = random.Random(seed)
    hdr = header or random_header(rng)
    return play(rng, hdr, wrong, max_events)


# mode -> module under host_tools/gen with random_game(seed, mode, wrong=...)
MODE_GENERATORS = {
    "big": "gamegen_official",
    "multi": "gamegen_official",
    "official+x": "gamegen_official",  # the official extras (header options)
    "big+x": "gamegen_official",
    "multi+x": "gamegen_official",
}
for _m in ("fortress", "snooker", "zhulu", "shenghui", "zhanguo", "longhu", "longhu_support", "normandy",
           "beach", "beach2", "baolie", "compass"):
    MODE_GENERATORS[_m] = "gamegen_cn"  # the Chinese variant modes


def play(rng, hdr, wrong, max_events, legal=None, wrong_event=None):
    """Play a game of header `hdr` with the referee as the oracle: each event
    is legal (`legal(rng, g)`) or, with probability `wrong`, doubtful
    (`wrong_event(rng, g)`)."""
    import referee
    from referee.engine import OVER

    legal = legal or _legal
    wrong_event = wrong_event or _wrong
    g = referee.new_game(hdr)
    events = []
    t = 0
    while g.phase != OVER and len(events) < max_events:
        t += rng.randrange(100, 4000, 100)
        ev = wrong_event(rng, g) if rng.random() < wrong else legal(rng, g)
        ev = dict(ev)
        ev["t"] = t
        events.append(ev)
        g.feed(ev)
    return hdr, events


def to_lines(hdr, events):
    """The NDJSON text of an event log (with `t` and `ev` first)."""
    out = [json.dumps(hdr)]
    for e in events:
        d = {"t": e["t"], "ev": e["ev"]}
        for k in e:
            if k not in d:
                d[k] = e[k]
        out.append(json.dumps(d))
    return "\n".join(out) + "\n"
