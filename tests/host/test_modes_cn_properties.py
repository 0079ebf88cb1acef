"""Property tests of the Chinese variant modes over random event streams
(Hypothesis) and generated games: no exception escapes, a rejected event
changes nothing, pieces are conserved, the game ends exactly once; in
zhulu and the modes built on it, a player who has lost all their Bakugan
or cards leaves at once (checked on the referee's state and, from the
output lines alone, against the sheet)."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import referee
from propkit import canon, feed_stream
from host_tools.gen import gamegen_cn
from referee.engine import OUT, OVER, UNUSED, USED
from referee.modes import zhulu

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


def check_leaving(g):
    """zhulu's sheet: "玩家输完爆丸或卡片则要退场，手中剩余的爆丸或卡片作废" (who
    has lost all their Bakugan or all their cards leaves; the hand is void)
    and "当只剩一位玩家同时有爆丸和卡片时，该局游戏结束" (the game ends when one
    player alone has both). After every input: nobody still in the game
    has lost all of either, so no refill is waited for from a player who
    holds no Bakugan (in the hand or on a card), and a game still going
    has two players or more."""
    if not isinstance(g, zhulu.Game):
        return
    for p, z in g.refills:
        assert g.owned(p, UNUSED) or g.standing(p), ("refill owed by a player without Bakugan", p, z)
    if g.phase == OVER:
        return
    for p in range(g.n):
        if not g.gone[p]:
            assert g.lost(p) is None, (p, g.lost(p))
    assert g.n - sum(g.gone) >= 2


def run_stream(events, hdr):
    def check(g):
        check_conservation(g)
        check_leaving(g)
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


ZHULU_FAMILY = [m for m in MODES if issubclass(referee.load(m), zhulu.Game)]


class SheetWatch:
    """zhulu's leaving and end rules checked from the output lines alone
    (seize, void, capture, leave, refill, score), not from the referee's
    state: each player's Bakugan and cards are "lost" once seized,
    captured or void, as the sheet's 输完 counts them."""

    def __init__(self, hdr):
        ps = hdr["players"]
        self.baks = [set(b["id"] for b in p["bakugan"]) for p in ps]
        self.cards = [set(c["id"] for c in p["gates"]) for p in ps]
        self.gone = set()
        self.over = False

    def has_both(self, p):
        return bool(self.baks[p]) and bool(self.cards[p])

    def step(self, outs):
        for kind, _t, pairs in outs:
            f = dict(pairs)
            if kind == "seize" or (kind == "void" and f["what"] == "bakugan"):
                b = f["bakugan"] if kind == "seize" else f["id"]
                for s in self.baks:
                    s.discard(b)
            elif kind == "capture" or (kind == "void" and f["what"] == "card"):
                c = f["gate"] if kind == "capture" else f["id"]
                for s in self.cards:
                    s.discard(c)
            elif kind == "leave":
                p = f["player"]
                assert p not in self.gone
                self.gone.add(p)
            elif kind == "refill":
                # no card is waited for from a player without Bakugan, nor
                # from one who has left
                p = f["player"]
                assert p not in self.gone and self.baks[p], ("refill from a player without Bakugan", p)
            elif kind == "score":
                self.over = True
        if self.over:
            return
        # after the input: who has lost all of either has left, and the
        # game ends as soon as one player alone has both
        for p in range(len(self.baks)):
            if not self.has_both(p):
                assert p in self.gone, ("a player without Bakugan or cards is still in the game", p)
        assert len([p for p in range(len(self.baks)) if p not in self.gone]) >= 2


@pytest.mark.parametrize("mode", ZHULU_FAMILY)
def test_no_game_waits_for_a_refill_from_a_player_without_bakugan(mode):
    """Random games of zhulu (and of shenghui and zhanguo, built on it),
    2-4 players, checked against the sheet from the output lines (SheetWatch):
    whoever loses their last Bakugan or card leaves in the same input, owing
    no refill, and the game ends when one player alone has both."""
    rng = random.Random("leave-" + mode)
    seen_leave = over = 0
    for k in range(60):
        seed = rng.randrange(10 ** 6)
        hdr, events = gamegen_cn.random_game(seed, mode, wrong=rng.choice((0.0, 0.1)))
        out = []
        g = referee.new_game(hdr, out.append)
        w = SheetWatch(hdr)
        for e in events:
            n = len(out)
            g.feed(e)
            w.step(out[n:])
            check_leaving(g)
        seen_leave += "leave" in [o[0] for o in out]
        over += w.over
    # the corpus really reaches the rule: players leave, games are scored
    assert seen_leave >= 40 and over >= 40, (seen_leave, over)
