"""Property tests over random event streams for the official extras modes
(big, multi, and the header-switched extra rules): no exception escapes the
referee, a rejected event changes nothing, gates are conserved, the game
ends exactly once. Parametrised per mode; generators in
host_tools/gen/gamegen_official.py."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from propkit import feed_stream
from host_tools.gen import gamegen_official
from referee.engine import OUT, OVER, UNUSED, USED

MODES = sorted(gamegen_official.SPECS)


def header_of(mode):
    return gamegen_official.random_header(random.Random("props-" + mode), mode)


def ids(hdr, key, sub="id"):
    return [x[sub] for p in hdr["players"] for x in p.get(key, ())]


def events_for(hdr):
    baks = ids(hdr, "bakugan") + [e["to"]["id"] for p in hdr["players"] for e in p.get("evolutions", ())] + ["ghost"]
    gates = ids(hdr, "gates") + ["nogate"]
    cards = ids(hdr, "abilities") + ["nocard"]
    items = ids(hdr, "traps") + ids(hdr, "gear") + ["noitem"]
    zones = st.integers(min_value=-1, max_value=9)
    players = st.integers(min_value=-1, max_value=len(hdr["players"]))
    attrs = st.sampled_from(["pyrus", "aquos", "haos", "ventus", "fire"])
    return st.one_of(
        st.fixed_dictionaries({"ev": st.just("gate"), "player": players, "gate": st.sampled_from(gates), "zone": zones}),
        st.fixed_dictionaries({"ev": st.just("land"), "bakugan": st.sampled_from(baks), "zone": zones}),
        st.fixed_dictionaries({"ev": st.just("miss"), "bakugan": st.sampled_from(baks)}),
        st.fixed_dictionaries({"ev": st.just("ability"), "player": players, "card": st.sampled_from(cards)}),
        st.fixed_dictionaries({"ev": st.just("resolve")}),
        st.fixed_dictionaries({"ev": st.just("choose"), "player": players,
                               "action": st.sampled_from(["take", "move", "eat"]), "zone": zones}),
        st.fixed_dictionaries({"ev": st.just("trap"), "player": players, "trap": st.sampled_from(items)}),
        st.fixed_dictionaries({"ev": st.just("gear"), "player": players, "gear": st.sampled_from(items),
                               "extra": st.booleans()}),
        st.fixed_dictionaries({"ev": st.just("evolve"), "player": players, "bakugan": st.sampled_from(baks)}),
        st.fixed_dictionaries({"ev": st.just("pure"), "player": players, "attr": attrs}),
        st.fixed_dictionaries({"ev": st.sampled_from(["jump", None, 3])}),
        st.fixed_dictionaries({"ev": st.sampled_from(["land", "trap", "evolve"])}),  # missing fields
    )


def check_conservation(g):
    on_field = [gid for gid in g.gate_ids if g.gloc[gid] >= 0]
    in_hand = [gid for gid in g.gate_ids if g.gloc[gid] == UNUSED]
    taken = [gid for c in g.captured for gid in c]
    assert sorted(on_field + in_hand + taken) == sorted(g.gate_ids)
    assert len(set(taken)) == len(taken)
    assert sorted(g.field.values()) == sorted(on_field)
    for z, gid in g.field.items():
        assert g.gloc[gid] == z
    for b in g.bak_ids:
        w = g.loc[b]
        assert w in (UNUSED, USED, OUT) or (w >= 0 and b in g.stand.get(w, ()))
    for z, s in g.stand.items():
        assert z in g.field and s


def run_stream(events, hdr):
    g, kinds = feed_stream(hdr, events, check_conservation, probe=True)
    assert kinds.count("win") <= 1
    if "win" in kinds:
        i = kinds.index("win")
        assert set(kinds[i + 1:-1]) <= {"reject"}
        assert g.phase == OVER
        assert len(g.captured[g.winner]) >= g.target
    return g


def _stream_test(mode):
    hdr = header_of(mode)

    @settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(events_for(hdr), max_size=80))
    def check(events):
        run_stream(events, hdr)
    return check


@pytest.mark.parametrize("mode", MODES)
def test_random_streams(mode):
    _stream_test(mode)()


@pytest.mark.parametrize("mode", MODES)
def test_generated_games_hold_the_invariants(mode):
    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.integers(min_value=0, max_value=10**6), st.floats(min_value=0, max_value=0.5))
    def check(seed, wrong):
        hdr, events = gamegen_official.random_game(seed, mode, wrong=wrong)
        for e in events:
            e.pop("t")
        g = run_stream(events, hdr)
        if wrong < 0.1:
            assert sum(len(c) for c in g.captured) > 0
    check()
