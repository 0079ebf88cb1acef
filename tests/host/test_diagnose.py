"""Channel health and walk-the-zones analysis on simulated frames with
faults the test puts in (host_tools/logs/diagnose.py)."""
import pytest

from host_tools import boards, sim
from host_tools.logs import diagnose, termmat


@pytest.fixture(scope="module")
def board():
    return boards.load(boards.REFERENCE)


def frames_of(board, text, seed=3):
    return sim.run(board, sim.parse_scenario(text), seed=seed).frames


def test_healthy_mat_is_all_ok(board):
    rows = diagnose.classify(board, diagnose.channel_stats(frames_of(board, "idle 3s")))
    assert len(rows) == 96
    bad = [r for r in rows if r["health"] != "ok"]
    assert bad == []
    zero = board["sensor"]["zero_counts"]
    assert all(abs(r["baseline"] - zero) < 150 for r in rows)


def test_earths_field_is_no_fault_and_a_bakugan_left_is(board):
    # a real LIS2MDL mat reads Earth's field on an empty table: up to 65 uT
    # along an axis (433 counts), the part's own offset on top
    per_mT = board["sensor"]["counts_per_mT"]
    assert diagnose.offset_limit(board) == round(0.1 * per_mT)
    fr = [(t, list(v)) for t, v in frames_of(board, "idle 2s")]
    for t, v in fr:
        for c in range(0, len(v), 3):
            v[c] -= int(0.030 * per_mT)        # Earth's field: 30 uT north, 45 uT down
            v[c + 2] += int(0.045 * per_mT)
        v[19] += int(0.065 * per_mT)           # and all of it along one (y) axis
        v[40] += int(0.25 * per_mT)            # a Bakugan's field left on one part
    rows = diagnose.classify(board, diagnose.channel_stats(fr))
    assert [r["ch"] for r in rows if r["health"] != "ok"] == [40]
    assert rows[40]["health"] == "offset"
    assert rows[13]["zone"] == 2 and rows[13]["slot"] == 1


def test_faults_are_named(board):
    text = ("fault ch 17 dead at 0s\nfault ch 30 stuck 2300 at 0s\nfault ch 44 stuck %d at 0s\n"
            "idle 3s" % board["sensor"]["max_counts"])
    rows = diagnose.classify(board, diagnose.channel_stats(frames_of(board, text)))
    health = dict((r["ch"], r["health"]) for r in rows if r["health"] != "ok")
    assert health == {17: "dead", 30: "stuck", 44: "saturated"}
    assert "dead" in rows[17]["why"] and rows[17]["zone"] == 2


def test_noisy_and_offset(board):
    fr = frames_of(board, "idle 3s")
    fr = [(t, list(v)) for t, v in fr]
    for i, (t, v) in enumerate(fr):
        v[5] += 100 if i % 2 else -100    # a rail ripple on channel 5 (5x the sensor's noise)
        v[6] += 1500                       # a magnet left near channel 6 (0.22 mT)
    rows = diagnose.classify(board, diagnose.channel_stats(fr))
    assert rows[5]["health"] == "noisy"
    assert rows[6]["health"] == "offset"


def test_identical_zones_point_at_a_select_line(board):
    fr = frames_of(board, "idle 2s")
    z = diagnose.zone_channels(board)
    out = []
    for t, v in fr:
        v = list(v)
        # zone z is decoder outputs 2z and 2z+1: address line A3 stuck high makes zone 3 read
        # as zone 7
        for a, b in zip(z[3], z[7]):
            v[a] = v[b]
        out.append((t, v))
    assert diagnose.identical_zones(board, out) == [(3, 7)]
    assert diagnose.select_line_hint(board, 3, 7) == ["A3"]
    assert diagnose.select_line_hint(board, 3, 11) == ["E0/E1"]     # zone 11: the other decoder, same outputs
    assert diagnose.identical_zones(board, fr) == []


# The first 40 frames (0.8 s) are the empty mat: the hand carrying the Bakugan in
# reaches the sensors about 0.3 s before it stands. It stands 8 mm off the line
# through the zone's two sensors, so that their x axes see it too.
PLACE = "bakugan drago polarity down\ncard on zone %d at 1.9s\nplace drago on zone %d at 2s, at (8, 0) mm\n"


def walk(board, zone, flip=None, seed=3):
    text = PLACE % (zone, zone) + "remove drago at 3.5s\nidle 1s"
    fr = frames_of(board, text, seed)
    st = diagnose.channel_stats(fr[:40])
    base = [s["mean"] for s in st]
    w = diagnose.WalkZone(board, zone, base, [s["noise"] for s in st])
    for _, v in fr[40:]:
        if flip is not None:
            v = list(v)
            v[flip] = int(2 * base[flip] - v[flip])
        w.feed(v)
    return w


def test_walk_sees_placement_and_removal(board):
    w = walk(board, 5)
    assert w.placed and w.removed
    c, d = w.strongest()
    assert c in diagnose.zone_channels(board)[5]
    assert abs(d) > w.thr[c]
    assert w.silent() == []


def test_reversed_channel_found_across_zones(board):
    walks = [walk(board, z) for z in (0, 5, 10)]
    assert diagnose.reversed_channels(walks) == []
    w = walk(board, 15)
    c, _ = w.strongest()
    flipped = walk(board, 15, flip=c)
    assert flipped.strongest()[0] == c
    assert diagnose.reversed_channels(walks + [flipped]) == [c]


def test_dead_channel_is_silent_in_the_walk(board):
    text = "fault ch 33 dead at 0s\n" + PLACE % (5, 5) + "remove drago at 3.5s\nidle 1s"
    fr = frames_of(board, text)
    st = diagnose.channel_stats(fr[:40])
    w = diagnose.WalkZone(board, 5, [s["mean"] for s in st], [s["noise"] for s in st])
    for _, v in fr[40:]:
        w.feed(v)
    assert w.placed and w.silent() == [33]


def test_mat_drawing_shows_the_view(board):
    view = {"mode": "official", "phase": "play", "turn": 1, "winner": None, "choice": None,
            "zones": {"5": {"gate": "dan-gold", "owner": 0, "bakugan": ["drago"]}},
            "captured": [[], ["x"]], "battle": {"zone": 5, "attacker": "drago", "defender": "y"}}
    text = termmat.draw(board, view, {2: "ok"})
    lines = text.splitlines()
    assert sum(1 for line in lines if line.startswith("+")) == 8      # 4 rows of boxes
    assert "5 BATTLE" in text and "gate dan-gold" in text and "* drago" in text and "2 ok" in text
    # zone 5 sits in the second row, second column
    row = [line for line in lines if "5 BATTLE" in line][0]
    assert row.index("5 BATTLE") > row.index("|4")
    # people count players from 1; with the game's names, by name
    assert "player 2's turn" in termmat.status_line(view)
    assert "Runo's turn" in termmat.status_line(view, ["Dan", "Runo"])
    assert "captured Dan 0, Runo 1" in termmat.status_line(view, ["Dan", "Runo"])
    # events in the words of every view (host_tools/words.py)
    from host_tools.words import Words
    w = Words(names=["Dan", "Runo"])
    assert termmat.describe("game", {"ev": "capture", "player": 1, "gate": "g", "zone": 3,
                                     "reason": "battle"}, w) == "Runo captures gate g from zone 3 (won the battle)"
    assert "FAULT" in termmat.describe("fault", {"ch": 17, "zone": 2, "kind": "dead"})
    # every sensed kind reads as what it is (an amended landing is not a leave)
    assert termmat.describe("mat", {"ev": "leave", "zone": 4, "bakugan": "drago"}, w) == \
        "mat: drago is lifted off zone 4"
    termmat.describe("mat", {"ev": "land", "zone": 4, "bakugan": "serpenoid"}, w)
    assert "the mat corrected: tigrerra, not serpenoid" in termmat.describe(
        "mat", {"ev": "ident", "zone": 4, "bakugan": "tigrerra"}, w)
    assert "nothing landed on zone 4" in termmat.describe("mat", {"ev": "unland", "zone": 4, "bakugan": "drago"})
    assert termmat.describe("game", {"ev": "undo", "undone": "land", "at": 5}) == \
        "the referee takes back the last landing (the one at 00:00)"
