"""Random games for the official extras modes: "big", "multi" and the extra
rules switched on by header fields (traps, gear, game level, evolution, pure
attribute; docs/modes/official-extras.md). CPython only.

    hdr, events = random_game(seed, "big")        # or "multi", "official+x"...

Built on host_tools/gamegen.py (same legal/wrong event choosers, the referee
as the oracle); the official mode's own corpus is gamegen.random_game and is
not touched by anything here.
"""
import random

from host_tools import fwpath, gamegen

# mode -> (player counts, deck size, extras on)
SPECS = {
    "multi": ((3, 4), 3, False),
    "big": ((2, 2, 3, 4), 6, False),
}
MAX_EVENTS = {"multi": 600, "big": 900}
# output kinds each mode's corpus must show (the differential test checks)
_BASIC = ("battle", "capture", "reject", "win", "ability")
EXPECTED_KINDS = {"multi": _BASIC, "big": _BASIC}

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


def random_header(rng, mode):
    counts, deck, _ = SPECS[mode]
    n = rng.choice(counts)
    pool = _bakugan_ids(n * deck)
    rng.shuffle(pool)
    players = []
    for i in range(n):
        name = gamegen.NAMES[(i * 3 + rng.randrange(3)) % len(gamegen.NAMES)] + ("" if i == 0 else str(i + 1))
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
    return hdr


def random_game(seed, mode, wrong=0.05, max_events=None):
    """(header, [events]) for a game of `mode` played until someone wins
    (or the event budget runs out). Deterministic for a seed."""
    fwpath.ensure()
    rng = random.Random("%s-%d" % (mode, seed))
    hdr = random_header(rng, mode)
    return gamegen.play(rng, hdr, wrong, max_events or MAX_EVENTS[mode])
