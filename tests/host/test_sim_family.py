import math

from host_tools.sim import family, worlds


def test_draws_stay_in_their_ranges():
    for seed in range(200):
        g = family.draw_game(seed, channels=12, bids=("drago", "tigrerra"))
        p = g["plate"]
        assert family.MU_RANGE[0] <= p["mu_r"] <= family.MU_RANGE[1]
        assert family.T_RANGE_MM[0] <= p["t_mm"] <= family.T_RANGE_MM[1]
        assert 0.0 <= p["edge_scale"] <= 1.0
        assert 1.0 <= g["noise_factor"] <= 1.5
        assert len(g["channels"]) == 12
        for c in g["channels"]:
            assert abs(c["gain"] - 1.0) <= family.GAIN_SPREAD
        assert sorted(g["bakugan"]) == ["drago", "tigrerra"]
        for b in g["bakugan"].values():
            assert 0.01 <= b["moment"] <= 0.07 and 2.0 <= b["height"] <= 6.0
            assert 0.0 <= b["tilt_deg"] <= 20.0
            if b["lesson_xy_mm"] is not None:   # anywhere on a 62 x 88 mm card, 9 mm inside its edge
                x, y = b["lesson_xy_mm"]
                assert abs(x) <= 31.0 - 9.0 and abs(y) <= 44.0 - 9.0


def test_lessons_go_both_in_the_middle_and_off_it():
    spots = [family.bakugan_draw(s, "drago")["lesson_xy_mm"] for s in range(200)]
    middle = sum(1 for p in spots if p is None)
    assert 60 < middle < 140
    assert sum(1 for p in spots if p is not None and max(abs(p[0]), abs(p[1])) > 10.0) > 30


def test_mu_is_spread_over_the_log_range_not_the_named_points():
    mus = [family.draw_game(s, 1)["plate"]["mu_r"] for s in range(400)]
    low = sum(1 for m in mus if m < math.sqrt(100 * 1000))
    assert 120 < low < 280   # log-uniform: half below the geometric middle
    assert len({round(m, 3) for m in mus}) == len(mus)


def test_draws_are_reproducible_from_the_seed():
    assert family.draw_game(7, 6, ("drago",)) == family.draw_game(7, 6, ("drago",))
    assert family.draw_game(7, 6) != family.draw_game(8, 6)
    # a Bakugan's draw is its own: another one in the game does not shift it
    assert family.draw_game(7, 6, ("drago",))["bakugan"]["drago"] == \
        family.draw_game(7, 6, ("gorem", "drago"))["bakugan"]["drago"]


def test_share_matches_the_field_notes_slab_figures_in_order():
    # a stiffer plate passes less straight under the magnet
    assert family.straight_share(100, 0.1) > family.straight_share(100, 0.3) > family.straight_share(1000, 0.3)


def test_detector_gets_a_named_calibrated_world_not_the_truth():
    for seed in range(30):
        g = family.draw_game(seed, 1)
        name = family.calibrated_world(g["plate"], family.game_rng(seed + 10 ** 6))
        assert name in worlds.WORLDS
        w = worlds.WORLDS[name]["plate"]
        assert (w["mu_r"], w["t_mm"]) != (g["plate"]["mu_r"], g["plate"]["t_mm"])


def test_far_means_the_shares_differ_by_more_than_the_factor():
    assert not family.plate_far({"mu_r": 300.0, "t_mm": 0.2}, "mu300-t0.2")
    assert family.plate_far({"mu_r": 100.0, "t_mm": 0.1}, "mu1000-t0.3")
    near = {"mu_r": 330.0, "t_mm": 0.2}   # a 10 % stiffer plate: its share moves by less than 25 %
    assert not family.plate_far(near, "mu300-t0.2")
