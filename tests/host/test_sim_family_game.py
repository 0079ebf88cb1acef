"""The family of worlds in the simulator (host_tools/sim/family.py through
host_tools/sim/world.py and bench_sensing.simulate): every drawn quantity
changes what the sensors read, a game is its seed's, and the truth tags the
physical situations the bench counts errors by (host_tools/sim/situations.py)."""
import copy
import math

import pytest

from host_tools import boards, sim
from host_tools.bench import bench_sensing as bs
from host_tools.sim import family, situations, worlds

pytestmark = pytest.mark.usefixtures("own_cache")

ONE = """
card on zone 5 at 0.5s
place drago on zone 5, at (0, 0) mm at 1s
idle 2s
"""


@pytest.fixture(scope="module")
def amr2():
    return boards.offered("amr2")


def _family_run(board, fam, draw=None, seed=3):
    """ONE run in the family game fam, quiet sensors (no noise, no spikes, no
    drift); draw: changes to fam.draw / the Bakugan's draw applied first."""
    sc = sim.parse_scenario(ONE)
    sc.header = {"players": [{"bakugan": [{"id": "drago"}]}]}
    fam.apply(sc, board)
    sc.settings.update(noise=0.0, spikes=0.0, drift=0.0)
    for c in sc.settings["channels"]:
        c["drift_mT_per_min"] = 0.0
    if draw:
        draw(sc)
    return sim.run(dict(board, world=fam.world), sc, seed=seed)


def _signal(board, fam, draw=None):
    """Each channel's reading with the magnet standing minus without it (same streams)."""
    def none(sc):
        if draw:
            draw(sc)
        sc.bakugan["drago"]["moment"] = 0.0
    on = _family_run(board, fam, draw).frames[-1][1]
    off = _family_run(board, fam, none).frames[-1][1]
    return [a - b for a, b in zip(on, off)]


def _zone(board, zid):
    return [s["ch"] for s in board["sensors"] if s["zone"] == zid]


def test_the_drawn_moment_gain_and_plate_change_the_raw_frames(amr2):
    fam = family.Game(amr2, 11)
    chans = _zone(amr2, 5)
    base = _signal(amr2, fam)
    big = max(chans, key=lambda c: abs(base[c]))
    assert abs(base[big]) > 200      # a standing magnet reads well above the 20 counts of noise

    def twice_moment(sc):
        sc.bakugan["drago"]["moment"] *= 2.0
    sig = _signal(amr2, fam, twice_moment)
    assert sig[big] == pytest.approx(2.0 * base[big], rel=0.01)

    def gain(sc):
        sc.settings["channels"][big]["gain"] *= 1.07
    sig = _signal(amr2, fam, gain)
    assert sig[big] == pytest.approx(1.07 * base[big], rel=0.01)
    others = [c for c in chans if c != big and abs(base[c]) > 50]
    assert others and all(sig[c] == base[c] for c in others)

    # another plate: a stiffer one lets less through straight under the magnet
    stiff = copy.copy(fam)
    stiff.draw = dict(fam.draw, plate=dict(fam.draw["plate"], mu_r=1000.0, t_mm=0.3))
    stiff._world = None
    z = [s["ch"] for s in amr2["sensors"] if s["zone"] == 5 and s["axis"] == "z"]
    assert sum(abs(v) for v in (_signal(amr2, stiff)[c] for c in z)) < 0.8 * sum(abs(base[c]) for c in z)

    # the edge term: none of it changes the reading (and its size is the drawn share of the computed one)
    flat = copy.copy(fam)
    flat.draw = dict(fam.draw, plate=dict(fam.draw["plate"], edge_scale=0.0))
    flat._world = None
    assert _signal(amr2, flat) != base


def test_the_drawn_offsets_and_noise_reach_the_sensor_model(amr2):
    fam = family.Game(amr2, 11)
    res = _family_run(amr2, fam)
    first = res.frames[0][1]
    for ch in (0, 17, 50):
        want = amr2["sensor"]["zero_counts"] + fam.draw["channels"][ch]["offset_mT"] * amr2["sensor"]["counts_per_mT"]
        assert abs(first[ch] - want) < 40       # the offset drawn, within the common drift
    sc = sim.parse_scenario(ONE)
    sc.header = {"players": [{"bakugan": [{"id": "drago"}]}]}
    fam.apply(sc, amr2)
    assert sc.settings["noise"] == pytest.approx(amr2["sensor"]["noise_counts_rms"] * fam.draw["noise_factor"])
    noisy = sim.run(dict(amr2, world=fam.world), sc, seed=3).frames
    d = [noisy[i][1][0] - noisy[i - 1][1][0] for i in range(1, 40)]
    rms = math.sqrt(sum(x * x for x in d) / len(d) / 2.0)
    assert 0.5 * sc.settings["noise"] < rms < 2.0 * sc.settings["noise"]


def test_a_family_game_is_its_seeds_and_not_the_named_worlds(amr2):
    fb = dict(amr2, family=True)
    h1, r1 = bs.simulate(fb, 4)
    bs._FAMILY_GAMES.clear()
    h2, r2 = bs.simulate(fb, 4)
    assert h1 == h2 and r1.frames == r2.frames and r1.truth == r2.truth
    assert r1.family.calib in worlds.WORLDS and r1.family.calib == r2.family.calib
    moments = set(round(p["moment"], 6) for p in r1.bakugan.values())
    want = set(round(family.bakugan_draw(4, b)["moment"], 6) for b in r1.bakugan)
    assert moments == want
    _, rn = bs.simulate(dict(amr2, world="mu300-t0.2"), 4)
    assert rn.family is None and rn.frames != r1.frames
    assert [(e["ev"], e["zone"]) for e in rn.truth if e["ev"] != "roll"] != [] 


SITUATED = """
bakugan drago moment 0.07 height 2 polarity down
bakugan gorem moment 0.02 height 4 polarity up
""" + "".join("card on zone %d at 0.1s\n" % z for z in range(16)) + """
register drago on zone 13 at 1s
place drago on zone 13, at (0, 22) mm at 2s
remove drago at 4s
place gorem on zone 13, at (0, 0) mm at 6s
throw drago -> zone 13 at 9s, opens at (0, -22) mm from player 0
remove gorem at 9.3s
idle 3s
"""


def test_situation_tags_appear_for_a_game_made_to_have_them(amr2):
    # a weak plate and a strong, low magnet straight above a sensor: it clips
    sc = sim.parse_scenario(SITUATED)
    res = sim.run(dict(amr2, world="mu100-t0.1"), sc, seed=1)
    opens = [e for e in res.truth if e["ev"] == "open"]
    lesson, gorem, throw = opens
    assert lesson.get("lesson") and throw["bakugan"] == "drago" and not throw.get("lesson")
    assert throw["on"] == ["gorem"] and throw["crossed"] and 13 not in throw["crossed"]
    assert "crossed" not in gorem and "on" not in gorem
    assert res.clipped and all(isinstance(r, list) for r in res.clipped.values())
    sit = situations.Situations(amr2, res, far=True)
    assert "lesson off-centre" in sit.of(lesson) and "clipped" in sit.of(lesson)
    got = sit.of(throw)
    assert {"over card", "second", "lift", "taught off-centre", "clipped", "plate far"} <= got
    # drago's magnet (70 mA m^2, 2 mm) is outside what the mat file declares; gorem's is inside
    assert {"moment above range", "height off-range"} <= got and throw["m"] == 0.07 and throw["h"] == 2.0
    assert sit.of(gorem) == {"plate far"}
    plain = situations.Situations(amr2, res, far=False)
    assert plain.of(gorem) == {"none"}


def test_the_tally_counts_misses_wrong_names_and_false_landings_by_situation(amr2):
    sc = sim.parse_scenario(SITUATED)
    res = sim.run(dict(amr2, world="mu100-t0.1"), sc, seed=1)
    opens = [e for e in res.truth if e["ev"] == "open"]
    lesson, gorem, throw = opens
    # a made-up sensing: the lesson missed, gorem found, the throw found with a wrong name, one false land
    scored = {"missed": [lesson], "matched": [(gorem, dict(gorem)), (throw, dict(throw, bakugan="gorem"))],
              "false": [{"ev": "land", "t": throw["t"] + 200, "zone": 12, "bakugan": "gorem"}]}
    t = situations.tally(amr2, res, scored)
    assert t["all"] == {"n": 3, "missed": 1, "named": 2, "wrong": 1, "false": 1}
    assert t["lesson off-centre"]["missed"] == 1 and t["second"]["wrong"] == 1
    assert t["none"]["n"] == 1 and t["none"]["wrong"] == 0
    assert t["lift"]["false"] == 1
