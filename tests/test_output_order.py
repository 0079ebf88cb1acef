"""The order of the referee's output lines, in every mode, as
docs/formats/event-log-v1.md gives it: `end` is always the last line (an
input after an `end` input is refused without a line after it), and an
input that first settles the battle that ends the game has the battle's
result printed before its own `reject`. Generated games of each mode
(host_tools/gen) give the situations."""
import io
import json

import pytest

import referee
from host_tools.gen import gamegen
from host_tools.logs.eventreplay import replay_events
from propkit import canon
from referee.engine import OVER
from referee.journal import Journal

MODES = sorted(referee.MODES)
SEEDS = range(12)


def timed(events, t0=0, step=100):
    out = []
    t = t0
    for e in events:
        t += step
        e = dict(e)
        e["t"] = t
        out.append(e)
    return out


def replay_json(hdr, events):
    text = gamegen.to_lines(hdr, events)
    out = io.StringIO()
    replay_events(text.splitlines(keepends=True), "game.ndjson", True, out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


@pytest.mark.parametrize("mode", MODES)
def test_nothing_is_printed_after_end(mode):
    """Inputs after an `end` input (more play, an undo, a second end):
    refused, and `end` stays the last line, in the JSON output and in the
    readable transcript."""
    for seed in SEEDS[:4]:
        hdr, evs = gamegen.random_game(seed, mode=mode)
        evs = [dict(e) for e in evs]
        for e in evs:
            e.pop("t", None)
        k = len(evs) // 2
        tail = evs[k:k + 6] + [{"ev": "undo"}, {"ev": "end"}, {"ev": "resolve"}]
        events = timed(evs[:k] + [{"ev": "end"}] + tail)
        out = replay_json(hdr, events)
        kinds = [o["ev"] for o in out]
        assert kinds.count("end") == 1 and kinds[-1] == "end", (mode, seed, kinds[-6:])
        text = io.StringIO()
        replay_events(gamegen.to_lines(hdr, events).splitlines(keepends=True), "game.ndjson", False, text)
        assert text.getvalue().splitlines()[-1].split("  ", 1)[1].startswith("game over"), (mode, seed)
        # the journal refuses each later input (False), with no output
        lines = []
        j = Journal(hdr, lines.append)
        for e in events[:k + 1]:
            j.feed(e)
        n = len(lines)
        assert lines[-1][0] == "end"
        for e in events[k + 1:]:
            assert j.feed(e) is False, (mode, seed, e)
        assert j.undo(events[-1]["t"]) is None
        assert len(lines) == n


def find_deciding_battle(mode, seed):
    """Feed a generated game until a battle is pending whose resolution
    ends the game: (header, game, its outputs, the inputs accepted so far,
    the next input's time), or None."""
    hdr, evs = gamegen.random_game(seed, mode=mode)
    out = []
    g = referee.new_game(hdr, out.append)
    kept = []
    for e in evs:
        if g.phase == OVER:
            return None
        if g.battle is not None:
            snap, t, n = g._save(), g.t, len(out)
            g.feed({"t": e["t"], "ev": "resolve"})
            over = g.phase == OVER
            g._load(snap)
            g.t = t
            del out[n:]
            if over:
                return hdr, g, out, kept, e["t"]
        if g.feed(e):
            kept.append(e)
    return None


def other_input(g):
    """An input kind not addressed to the pending battle (it settles it)."""
    for kind in ("miss", "land", "gate"):
        if kind in g.INPUTS and kind not in g.BATTLE_INPUTS:
            return {"miss": {"ev": "miss", "bakugan": g.bak_ids[0]},
                    "land": {"ev": "land", "bakugan": g.bak_ids[0], "zone": 0},
                    "gate": {"ev": "gate", "player": 0, "gate": g.gate_ids[0], "zone": 0}}[kind]
    raise AssertionError("mode %s: no input that settles a battle" % g.MODE)


@pytest.mark.parametrize("mode", [m for m in MODES if m != "snooker"])  # snooker has no battles
def test_a_refusal_comes_after_the_battle_the_same_input_settled(mode):
    """A battle whose result ends the game is pending; the next input is
    not addressed to it (a throw, a card): the battle resolves first (the
    engine's rule: a battle resolves before any other input) and its result
    stands, printed before the input's own refusal (the game is over)."""
    found = 0
    for seed in range(40):
        hit = find_deciding_battle(mode, seed)
        if hit is None:
            continue
        hdr, g, out, kept, t = hit
        ev = other_input(g)
        ev["t"] = t
        n = len(out)
        assert g.feed(dict(ev)) is True  # it decided the battle: kept
        new = [o[0] for o in out[n:]]
        assert "battle" in new, (mode, seed, new)
        assert new[-1] == "reject" and dict(out[-1][2])["reason"] == "the game is over", (mode, seed, new)
        assert new.index("battle") < new.index("reject")
        assert g.phase == OVER and g.battle is None
        # the journal keeps the input, so the saved game replays to the same end
        j = Journal(hdr, None, kept + [ev])
        assert canon(j.game._save()) == canon(g._save())
        g.finish(t)
        assert out[-1][0] == "end"
        found += 1
        if found == 3:
            break
    assert found, "mode %s: no generated game with a battle that ends it" % mode
