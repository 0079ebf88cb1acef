"""Property tests over random event streams (Hypothesis): the referee never
lets an exception escape, a rejected event changes nothing, gates are
conserved, and the game ends exactly once."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from propkit import canon, feed_stream  # noqa: F401
from host_tools.gen import gamegen
from referee.engine import OVER, UNUSED, USED

HDR = gamegen.random_header(random.Random(7))
BAKS = [b["id"] for p in HDR["players"] for b in p["bakugan"]] + ["ghost"]
GATES = [g["id"] for p in HDR["players"] for g in p["gates"]] + ["nogate"]
CARDS = [a["id"] for p in HDR["players"] for a in p["abilities"]] + ["nocard"]
zones = st.integers(min_value=-1, max_value=7)
players = st.integers(min_value=-1, max_value=2)

event = st.one_of(
    st.fixed_dictionaries({"ev": st.just("gate"), "player": players, "gate": st.sampled_from(GATES), "zone": zones}),
    st.fixed_dictionaries({"ev": st.just("land"), "bakugan": st.sampled_from(BAKS), "zone": zones}),
    st.fixed_dictionaries({"ev": st.just("miss"), "bakugan": st.sampled_from(BAKS)}),
    st.fixed_dictionaries({"ev": st.just("ability"), "player": players, "card": st.sampled_from(CARDS)}),
    st.fixed_dictionaries({"ev": st.just("resolve")}),
    st.fixed_dictionaries({"ev": st.just("choose"), "player": players,
                           "action": st.sampled_from(["take", "move", "eat"]), "zone": zones}),
    st.fixed_dictionaries({"ev": st.sampled_from(["jump", None, 3])}),
    st.fixed_dictionaries({"ev": st.just("land")}),  # missing fields
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
        assert w in (UNUSED, USED) or (w >= 0 and b in g.stand.get(w, ()))
    for z, s in g.stand.items():
        assert z in g.field and s


def run_stream(events, hdr=HDR):
    g, kinds = feed_stream(hdr, events, check_conservation)
    assert kinds.count("win") <= 1
    if "win" in kinds:
        i = kinds.index("win")
        # after the win only rejections, then the end
        assert set(kinds[i + 1:-1]) <= {"reject"}
        assert g.phase == OVER
        assert len(g.captured[g.winner]) >= g.target
    return g


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(event, max_size=60))
def test_random_streams(events):
    run_stream(events)


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.floats(min_value=0, max_value=0.5))
def test_generated_games_hold_the_invariants(seed, wrong):
    hdr, events = gamegen.random_game(seed, wrong=wrong)
    for e in events:
        e.pop("t")
    g = run_stream(events, hdr)
    if wrong < 0.1:
        assert sum(len(c) for c in g.captured) > 0  # the games really are played
