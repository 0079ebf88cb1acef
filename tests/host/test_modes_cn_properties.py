"""Property tests of the Chinese variant modes over random event streams
(Hypothesis) and generated games: no exception escapes, a rejected event
changes nothing, pieces are conserved, the game ends exactly once."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import referee
from propkit import canon, feed_stream
from host_tools.gen import gamegen_cn
from referee.engine import OUT, OVER, UNUSED, USED

MODES = [m for m in gamegen_cn.MODES if m in referee.MODES]


def check_conservation(g):
    for z, s in g.stand.items():
        assert s and z in g.active, (z, s)
        for b in s:
            assert g.loc[b] == z
    taken = [b for s in g.seized for b in s] + list(g.void_b)
    assert len(set(taken)) == len(taken)
    for b in g.bak_ids:
        w = g.loc[b]
        assert w in (UNUSED, OUT) or b in g.stand.get(w, ()), b
        assert (w == OUT) == (b in taken), b
    caught = [c for cs in g.captured for c in cs]
    assert len(set(caught)) == len(caught)
    assert len(set(g.void_c)) == len(g.void_c)
    for gid in g.gate_ids:
        w = g.gloc[gid]
        if w >= 0:
            assert g.field.get(w) == gid
        assert (w == USED) == (gid in caught), gid
        assert (w == OUT) == (gid in g.void_c), gid
    for z in g.field:
        assert z in g.active
    for p, z in g.refills:
        assert z in g.active and z not in g.field
        assert g.gates_in_hand(p) and not g.gone[p]
    for p in range(g.n):
        if g.gone[p]:
            assert not g.owned(p, UNUSED) and not g.gates_in_hand(p)
    if g.battle is not None:
        z, a, d, _ = g.battle
        assert g.loc[a] == z and g.loc[d] == z
        assert g.bak_owner[a] != g.bak_owner[d]


def run_stream(events, hdr):
    def check(g):
        check_conservation(g)
        assert canon(g._save()) == canon(g._save())
    g, kinds = feed_stream(hdr, events, check, probe=True)
    assert kinds.count("win") + kinds.count("stalemate") <= 1
    for k in ("win", "stalemate"):
        if k in kinds:
            i = kinds.index(k)
            assert set(kinds[i + 1:-1]) <= {"reject"}
            assert g.phase == OVER
    return g


def _events(hdr):
    baks = [b["id"] for p in hdr["players"] for b in p["bakugan"]] + ["ghost"]
    gates = [x["id"] for p in hdr["players"] for x in p["gates"]] + ["nocard"]
    cards = [a["id"] for p in hdr["players"] for a in p.get("abilities", [])] + ["noitem"]
    n = len(hdr["players"])
    zones = st.integers(min_value=-1, max_value=16)
    players = st.integers(min_value=-1, max_value=n)
    return st.one_of(
        st.fixed_dictionaries({"ev": st.just("gate"), "player": players, "gate": st.sampled_from(gates),
                               "zone": zones}),
        st.fixed_dictionaries({"ev": st.just("land"), "bakugan": st.sampled_from(baks), "zone": zones}),
        st.fixed_dictionaries({"ev": st.just("miss"), "bakugan": st.sampled_from(baks)}),
        st.fixed_dictionaries({"ev": st.sampled_from(["ability", "item"]), "player": players,
                               "card": st.sampled_from(cards)}),
        st.fixed_dictionaries({"ev": st.just("resolve")}),
        st.fixed_dictionaries({"ev": st.just("pick"), "player": players, "bakugan": st.sampled_from(baks)}),
        st.fixed_dictionaries({"ev": st.just("pass"), "player": players}),
        st.fixed_dictionaries({"ev": st.just("reveal"), "player": players, "gate": st.sampled_from(gates),
                               "bonus": st.dictionaries(st.sampled_from(["pyrus", "haos", "fire"]),
                                                        st.integers(-100, 100), max_size=2),
                               "hsp": st.one_of(st.integers(-5, 200), st.just("x"))}),
        st.fixed_dictionaries({"ev": st.just("choose"), "player": players, "action": st.just("take")}),
        st.fixed_dictionaries({"ev": st.sampled_from(["jump", None, 3])}),
        st.fixed_dictionaries({"ev": st.sampled_from(["land", "pick", "gate"])}),  # missing fields
    )


@pytest.mark.parametrize("mode", MODES)
def test_random_streams(mode):
    hdr = gamegen_cn.random_header(random.Random(7), mode)
    # A legal prefix (the set-up) first, so the streams reach play.
    _, legal = gamegen_cn.random_game(7, mode, wrong=0.0, max_events=12, header=hdr)
    for e in legal:
        e.pop("t")

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(_events(hdr), max_size=50), st.booleans())
    def check(events, prefix):
        run_stream((legal if prefix else []) + events, hdr)

    check()


@pytest.mark.parametrize("mode", MODES)
def test_generated_games_hold_the_invariants(mode):
    rng = random.Random(mode)
    over = 0
    for k in range(25):
        seed = rng.randrange(10 ** 6)
        wrong = rng.choice((0.0, 0.05, 0.3))
        hdr, events = gamegen_cn.random_game(seed, mode, wrong=wrong)
        for e in events:
            e.pop("t")
        g = run_stream(events, hdr)
        over += g.phase == OVER
    assert over >= 20  # the generated games really are played to the end
