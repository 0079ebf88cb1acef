"""The sensing pipeline on the reference mat (amr2, the kernel fit) in its
nominal world (mu300-t0.2), on games of the benchmark's development corpus
(docs/sensing-pipeline.md, "Decisions"): lifts whose residue is no
Bakugan's field are leaves, a throw the referee does not expect still
lands at once, and a level still creeping lands early."""
import pytest

from host_tools import boards
from host_tools.bench import bench_sensing
from host_tools.sim import worlds


@pytest.fixture(scope="module")
def mat():
    board = bench_sensing.with_detector(worlds.with_world(boards.load("amr2"), "mu300-t0.2"))
    assert "kernels" in board
    return board


_GAMES = {}


def game(board, seed):
    """(truth, sensed events) of the benchmark's game `seed` (the referee's
    context, nobody answering), simulated once per module."""
    if seed not in _GAMES:
        header, res = bench_sensing.simulate(board, seed)
        _GAMES[seed] = (res.truth, bench_sensing.run_pipeline(board, header, res))
    return _GAMES[seed]


def near(sensed, zone, t0, t1, kinds=("land", "leave", "unland")):
    return [(e["ev"], e.get("bakugan")) for e in sensed if e.get("zone") == zone and t0 <= e["t"] <= t1
            and e["ev"] in kinds]


def test_a_lift_whose_residue_is_no_bakugan_is_a_leave(mat):
    # Development game 7, the end of the game: preyas is lifted from zone
    # 4 at 231.16 s, saurus from zone 8 at 231.67 s. What each lift leaves
    # on its card for a moment (the Bakugan held tilted past the card's
    # edge) fits a moment of 4-10 mA m^2, under any Bakugan's; read as a
    # Bakugan of the other polarity arriving (the referee expected a
    # throw), the change was landed as stinglash and gorem and the lifted
    # ones kept standing there.
    truth, sensed = game(mat, 7)
    lifts = [(e["zone"], e["bakugan"]) for e in truth if e["ev"] == "leave" and 231000 <= e["t"] <= 231700]
    assert lifts == [(4, "preyas"), (8, "saurus")]
    assert near(sensed, 4, 231000, 234000) == [("leave", "preyas")]
    assert near(sensed, 8, 231500, 234000) == [("leave", "saurus")]


def test_a_lift_seen_late_does_not_hide_the_next_throw(mat):
    # The same game: stinglash is lifted from zone 5 at 225.11 s and thrown
    # on zone 9 (onto serpenoid) at 225.76 s. Its lift's residue (3-6 mA
    # m^2) was read as another Bakugan arriving on it for 6.7 s, so the mat
    # saw stinglash standing on zone 5 and the throw had no candidate.
    truth, sensed = game(mat, 7)
    assert [(e["zone"], e["bakugan"]) for e in truth if e["ev"] in ("leave", "open") and
            225000 <= e["t"] <= 226000] == [(5, "stinglash"), (9, "stinglash")]
    leave = [e["t"] for e in sensed if e["ev"] == "leave" and e["zone"] == 5 and e["bakugan"] == "stinglash"]
    assert leave and 225110 < leave[0] <= 226110, leave
    land = [e for e in sensed if e["ev"] == "land" and e["zone"] == 9 and 225259 <= e["t"] <= 226759]
    assert [e["bakugan"] for e in land] == ["stinglash"]
    assert land[0]["t"] - 225759 <= 200


def test_a_throw_the_referee_does_not_expect_lands_at_once(mat):
    # Development game 3: tigrerra's throw on zone 10 at 50.9 s was named
    # gargonoid (asked about, nobody answered), so the referee has
    # gargonoid used and the mat sees it standing on zone 10. Gargonoid
    # thrown on zone 1 at 62.22 s reads -31.2, 6 standard errors from
    # gorem, the only one the referee expects: the early land waited for a
    # candidate, the decision refused the forced name, and the landing was
    # missed. It is a landing (a registered Bakugan the mat does not see
    # elsewhere, falconeer, has that level; who it is stays the mat's
    # picture's problem: gargonoid is on zone 10 for it).
    truth, sensed = game(mat, 3)
    assert [(e["zone"], e["bakugan"]) for e in truth if e["ev"] == "open" and 62000 <= e["t"] <= 62500] == \
        [(1, "gargonoid")]
    land = [e for e in sensed if e["ev"] == "land" and e["zone"] == 1 and 61721 <= e["t"] <= 63221]
    assert len(land) == 1 and land[0]["bakugan"] is not None, land
    assert land[0]["t"] - 62221 <= 100
    assert near(sensed, 1, 61721, 66000) == [("land", land[0]["bakugan"])]


def test_a_level_still_creeping_lands_early(mat):
    # Development game 11: hydranoid opens on zone 5 at 34.707 s. The
    # first still window (at 34.74 s) already reads hydranoid's level but
    # still moves by a few per cent, so the window starts again and the
    # early land came 40 ms later (73 ms after the opening): the early
    # land does not wait for the window started again.
    truth, sensed = game(mat, 11)
    assert [(e["zone"], e["bakugan"]) for e in truth if e["ev"] == "open" and 34500 <= e["t"] <= 35000] == \
        [(5, "hydranoid")]
    land = [e for e in sensed if e["ev"] == "land" and e["zone"] == 5 and 34207 <= e["t"] <= 35707]
    assert [e["bakugan"] for e in land] == ["hydranoid"]
    assert land[0]["t"] - 34707 <= 60


def test_a_field_fading_on_a_standing_one_is_not_landed_early(mat):
    # Development game 7: stinglash is lifted from zone 8 at 26.35 s; the
    # referee does not keep it standing there. Its fading field, still
    # moving, reads like a Bakugan of the other polarity (saurus): landed
    # early at a window started again, it was taken back (`unland`) when
    # the lift ended. Only the leave.
    truth, sensed = game(mat, 7)
    assert [(e["zone"], e["bakugan"]) for e in truth if e["ev"] == "leave" and 26000 <= e["t"] <= 26500] == \
        [(8, "stinglash")]
    assert near(sensed, 8, 26300, 28000) == [("leave", "stinglash")]


def test_a_lesson_lifted_is_no_bakugan_arriving(mat):
    # Development game 3's registration: gargonoid (-29.6 mA m^2) is taught
    # on zone 2 and lifted at 12.76 s, tigrerra (-29.0) on zone 3 and
    # lifted at 26.79 s. Each lift's change is minus the lesson's field,
    # which is skyress's level (+27.3): Battles.arrived read it as skyress
    # landing on the lesson (a battle), and the lifted one kept standing
    # for 0.5 s. Nobody throws onto a lesson: a learned occupant has no
    # battle arrival.
    truth, sensed = game(mat, 3)
    lifts = [(e["zone"], e["bakugan"]) for e in truth if e["ev"] == "leave" and e["t"] < 30000]
    assert (2, "gargonoid") in lifts and (3, "tigrerra") in lifts
    assert near(sensed, 2, 12000, 14000) == [("leave", "gargonoid")]
    assert near(sensed, 3, 26000, 28000) == [("leave", "tigrerra")]
