"""The journal's undo rebuilds from its newest checkpoint (the referee's own
snapshot every CHECK events, firmware/referee/journal.py) instead of from
the header: on generated games of every mode, at points through each game,
taking back 1 to 8 events leaves exactly the game a rebuild from the header
gives (every attribute), and the rest of the game then plays out to the
same outputs."""
import random

import pytest

from host_tools import fwpath
from host_tools.gen import gamegen

fwpath.ensure()
from referee import journal  # noqa: E402

MODES = ["official"] + sorted(gamegen.MODE_GENERATORS)


class FromHeader(journal.Journal):
    """The journal as it was: every undo replays the whole game."""

    def _rebuild(self, g=None):
        self.cps = []
        return journal.Journal._rebuild(self, g)


def state(g):
    return {k: v for k, v in vars(g).items() if k not in ("sink", "_buf")}


def play(cls, hdr, evs, cut, back, out, rng=None):
    """rng: idle() after an event at random (the board: a tick with nothing
    else to do), so checkpoints fall anywhere; None: after every event."""
    j = cls(hdr, out.append)
    for ev in evs[:cut]:
        j.feed(ev)
        if rng is None or rng.randrange(3) == 0:
            j.idle()
    t = evs[cut - 1]["t"]
    for _ in range(back):
        j.feed({"t": t, "ev": "undo"})
    mid = state(j.game)
    for ev in evs[cut - back:]:
        j.feed(dict(ev, t=ev["t"] + 1))
        if rng is None or rng.randrange(3) == 0:
            j.idle()
    return j, mid


@pytest.mark.parametrize("mode", MODES)
def test_undo_from_a_checkpoint_is_undo_from_the_header(mode):
    rng = random.Random(mode)
    tried = 0
    for seed in range(40):
        if tried >= 24:
            break
        hdr, evs = gamegen.random_game(seed, mode=mode)
        if len(evs) < 3 * journal.CHECK:
            continue
        for _ in range(4):
            cut = rng.randrange(journal.CHECK + 1, len(evs))
            back = rng.randrange(1, min(cut, 9))
            out_a, out_b = [], []
            a, mid_a = play(journal.Journal, hdr, evs, cut, back, out_a, random.Random(seed) if tried % 2 else None)
            b, mid_b = play(FromHeader, hdr, evs, cut, back, out_b)
            assert a.cps or len(a.events) < journal.CHECK
            assert mid_a == mid_b, (mode, seed, cut, back)
            assert out_a == out_b, (mode, seed, cut, back)
            assert state(a.game) == state(b.game)
            assert a.events == b.events
            tried += 1
    assert tried >= 8, "too few games long enough in mode %s" % mode


def test_an_undo_replays_at_most_two_checkpoints_of_events():
    hdr, evs = gamegen.random_game(3)
    fed = [0]
    j = journal.Journal(hdr, None)
    for ev in evs:
        if j.game.phase == 3:
            break
        j.feed(ev)
        j.idle()
    n = len(j.events)
    assert n > 2 * journal.CHECK
    orig = type(j.game).feed

    def counting(self, ev):
        fed[0] += 1
        return orig(self, ev)
    type(j.game).feed = counting
    try:
        j.undo(None)
    finally:
        type(j.game).feed = orig
    assert fed[0] < 2 * journal.CHECK, (fed[0], n)


def test_a_checkpoint_waits_for_an_idle_tick():
    hdr, evs = gamegen.random_game(3)
    j = journal.Journal(hdr, None)
    it = iter(evs)
    while len(j.events) < journal.CHECK + 3:
        j.feed(next(it))
    assert j.cps == [] and j.due          # due, not taken in the event's feed
    assert j.idle() and len(j.cps) == 1 and j.cps[0][0] == len(j.events)
    assert not j.due and not j.idle()     # nothing more due
    k = len(j.events)
    while len(j.events) < k + journal.CHECK - 1:
        j.feed(next(it))
        assert not j.due                  # fewer than CHECK events since
    while len(j.events) < k + journal.CHECK:
        j.feed(next(it))
    assert j.due
