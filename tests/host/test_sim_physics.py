"""Field model sanity: 1/r^3 fall-off, the sqrt(2) h zero crossing, the steel
plate attenuating and spreading, superposition of the sensor model."""
import math

from host_tools import boards, sim
from host_tools.sim import field as F


def test_axis_field_falls_as_inverse_cube():
    m = 0.024
    b10 = F.dipole_bz(m, 0, 0, 1, 0, 0, 10.0, 0, 0)
    b20 = F.dipole_bz(m, 0, 0, 1, 0, 0, 20.0, 0, 0)
    b40 = F.dipole_bz(m, 0, 0, 1, 0, 0, 40.0, 0, 0)
    assert abs(b10 / b20 - 8.0) < 1e-9 and abs(b20 / b40 - 8.0) < 1e-9
    # mu0/(4 pi) * 2m/r^3 for m = 0.024 A m^2 at 5 mm: 38.4 mT
    assert abs(F.dipole_bz(m, 0, 0, 1, 0, 0, 5.0, 0, 0) - 38.4) < 1e-6
    # lateral far field also falls as 1/r^3 (negative lobe of a vertical dipole)
    l1 = F.dipole_bz(m, 0, 0, 1, 0, 0, 2.0, 100.0, 0)
    l2 = F.dipole_bz(m, 0, 0, 1, 0, 0, 2.0, 200.0, 0)
    assert l1 < 0 and l2 < 0 and 7.5 < l1 / l2 < 8.5


def test_zero_crossing_near_1_41_h():
    h = 8.0
    xs = [i * 0.01 for i in range(1, 3000)]
    vals = [F.dipole_bz(0.02, 0, 0, 1, 0, 0, h, x, 0) for x in xs]
    cross = next(x for x, v in zip(xs, vals) if v <= 0)
    assert abs(cross / h - math.sqrt(2)) < 0.01
    # a tilted dipole shifts the crossing: the sign change is not at 1.41 h on both sides
    t = math.radians(20)
    right = next(x for x in xs if F.dipole_bz(0.02, math.sin(t), 0, math.cos(t), 0, 0, h, x, 0) <= 0)
    left = next(x for x in xs if F.dipole_bz(0.02, math.sin(t), 0, math.cos(t), 0, 0, h, -x, 0) <= 0)
    assert abs(right - left) > 1.0


def test_polarity_flips_the_sign():
    up = F.dipole_bz(0.02, 0, 0, 1, 0, 0, 6.0, 3.0, 2.0)
    down = F.dipole_bz(0.02, 0, 0, -1, 0, 0, 6.0, 3.0, 2.0)
    assert up > 0 and abs(up + down) < 1e-12


def test_plate_attenuates_and_spreads():
    plate = {"attenuation": 0.3, "spread_mm": 4.0, "capture": 0.0}
    rect = (-28.0, -41.0, 28.0, 41.0)
    h = 6.0
    bare0 = F.dipole_bz(0.02, 0, 0, 1, 0, 0, h, 0, 0)
    plated0 = F.plate_bz(0.02, 0, 0, 1, 0, 0, h, 0, 0, plate, rect, 2.1)
    assert 0 < plated0 < 0.3 * bare0  # attenuated (and lowered by the spread)
    # spread: the plated field's zero crossing lies farther out than the bare one's
    xs = [i * 0.05 for i in range(1, 1000)]
    bare_x = next(x for x in xs if F.dipole_bz(0.02, 0, 0, 1, 0, 0, h, x, 0) <= 0)
    plate_x = next(x for x in xs if F.plate_bz(0.02, 0, 0, 1, 0, 0, h, x, 0, plate, rect, 2.1) <= 0)
    assert plate_x > bare_x * 1.4
    # the captured flux reaches every point under the plate with the magnet's sign
    plate["capture"] = 0.5
    far = F.plate_bz(0.02, 0, 0, 1, 0, 0, h, 20.0, 30.0, plate, rect, 2.1)
    assert far > 0.05
    # and hardly anything beyond the card: a neighbour zone 40 mm past the plate edge
    out = F.plate_bz(0.02, 0, 0, 1, 20.0, 30.0, h, 68.0, 30.0, plate, rect, 2.1)
    assert abs(out) < far / 10


def test_solid_angle_limits():
    assert abs(F.rect_solid_angle(-1e5, -1e5, 1e5, 1e5, 0, 0, 2.0) - 2 * math.pi) < 1e-3
    inside = F.rect_solid_angle(-28, -41, 28, 41, 0, 0, 2.1)
    edge = F.rect_solid_angle(-28, -41, 28, 41, 28, 0, 2.1)
    assert abs(edge / inside - 0.5) < 0.05
    far = F.rect_solid_angle(-28, -41, 28, 41, 200, 0, 2.1)
    far2 = F.rect_solid_angle(-28, -41, 28, 41, 400, 0, 2.1)
    assert 7 < far / far2 < 9  # 1/r^3 far away


def test_simulated_standing_bakugan_reads_like_the_model():
    """With noise, drift and spikes off, a standing magnet's counts minus the
    empty mat's equal gain * plate_bz at each sensor of its zone (to the
    rounding), positive for polarity up."""
    b = boards.load("reference")
    text = """
        set noise 0
        set drift 0
        set spikes 0
        set gain_spread 0
        set offset_spread 0
        bakugan drago moment 0.03 polarity up height 3 tilt 0
        card on zone 5 at 0.1s
        place drago on zone 5 at 1s, at (0, 0) mm tilt 0
    """
    res = sim.run(b, sim.parse_scenario(text), seed=1)
    before = dict(res.frames)[0]
    after = res.frames[-1][1]
    zone5 = [s for s in b["sensors"] if s["zone"] == 5]
    cx = b["zones"][5]["x"] + 32
    cy = b["zones"][5]["y"] + 45
    top = b["sensor_plane_to_card_top_mm"]
    plate = b["plate"]
    rect = (cx - 28, cy - 41, cx + 28, cy + 41)
    for s in zone5:
        want = b["sensor"]["counts_per_mT"] * F.plate_bz(0.03, 0, 0, 1, cx, cy, top + 3, s["x"], s["y"], plate, rect,
                                                         top - plate["depth_mm"])
        got = after[s["ch"]] - before[s["ch"]]
        assert want > 20 and abs(got - want) <= 1.0, (s, got, want)
    # far zones see nothing
    for s in b["sensors"]:
        if s["zone"] in (0, 3, 12, 15):
            assert after[s["ch"]] == before[s["ch"]]
