"""Which world the simulator and the vboard run: named, the board's, the
environment's, the one `bakumat diag plate` measured (the board's
calibration), else the default; in that order."""
import json

from host_tools.commands import vboard as vcmd
from host_tools.sim import worlds as W

CAL = {"plate": {"share": 0.027, "world": "mu1000-t0.2", "magnet": "ndfeb"}}


def test_order_of_the_choice(monkeypatch):
    monkeypatch.delenv("BAKUMAT_WORLD", raising=False)
    assert W.choose(None, {}, None) == (W.DEFAULT, "the default")
    assert W.choose(None, {}, CAL)[0] == "mu1000-t0.2"
    monkeypatch.setenv("BAKUMAT_WORLD", "none")
    assert W.choose(None, {}, CAL)[0] == "none"
    assert W.choose(None, {"world": "mu100-t0.2"}, CAL)[0] == "mu100-t0.2"
    assert W.choose("mu300-t0.2", {"world": "mu100-t0.2"}, CAL)[0] == "mu300-t0.2"


def test_a_calibration_without_a_known_world_names_none():
    assert W.measured(None) is None
    assert W.measured({}) is None
    assert W.measured({"plate": "x"}) is None
    assert W.measured({"plate": {"world": "steel"}}) is None
    assert W.measured(CAL) == "mu1000-t0.2"


def test_vboard_reads_the_calibration_in_its_folder(tmp_path):
    assert vcmd._calibration(None) is None
    assert vcmd._calibration(str(tmp_path)) is None
    (tmp_path / "calib.json").write_text("{not json", encoding="utf-8")
    assert vcmd._calibration(str(tmp_path)) is None
    (tmp_path / "calib.json").write_text(json.dumps(CAL), encoding="utf-8")
    assert W.measured(vcmd._calibration(str(tmp_path))) == "mu1000-t0.2"


def test_a_mat_with_a_nominal_world_is_simulated_in_it(monkeypatch):
    """amr2 names mu300-t0.2 (its file's "nominal_world"): that is its
    default, after every other way of naming a world; the Hall mat names
    none and keeps `capture`, which its tests are measured in."""
    from host_tools import boards
    from host_tools.sim import world as simworld
    monkeypatch.delenv("BAKUMAT_WORLD", raising=False)
    amr = boards.load("esp32s3_devkitc1_amr2")
    hall = boards.load("esp32s3_devkitc1")
    assert amr["nominal_world"] == "mu300-t0.2" and "nominal_world" not in hall
    assert W.choose(None, amr, None) == ("mu300-t0.2", "the mat's nominal world")
    assert W.choose(None, hall, None) == (W.DEFAULT, "the default") and W.DEFAULT == "capture"
    assert W.default_name(amr) == "mu300-t0.2" and W.default_name(hall) == W.default_name() == "capture"
    assert W.choose(None, amr, CAL)[0] == "mu1000-t0.2"          # measured by diag plate
    assert W.choose("none", amr, None)[0] == "none"
    monkeypatch.setenv("BAKUMAT_WORLD", "mu100-t0.2")
    assert W.choose(None, amr, None)[0] == W.default_name(amr) == "mu100-t0.2"
    monkeypatch.delenv("BAKUMAT_WORLD")
    # the simulator itself: a bare mat simulated without naming a world
    assert simworld.Geometry(boards.load("amr2")).world.name == "mu300-t0.2"
    assert simworld.Geometry(boards.load("reference")).world.name == "capture"


def test_an_unknown_nominal_world_is_ignored():
    assert W.nominal({"nominal_world": "steel"}) is None and W.nominal(None) is None
