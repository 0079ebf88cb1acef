"""Board definitions: the mats, the loader's checks, `board show`, the retired boards."""
import copy
import json
import os

import pytest

from host_tools import boards, cli


def test_reference_loads_and_is_listed():
    assert boards.REFERENCE in boards.names() and boards.REFERENCE_MAT in boards.names()
    b = boards.load(boards.REFERENCE)
    assert b["mat"] == boards.REFERENCE_MAT and b.get("nominal_world") and "wiring" in b
    assert len(b["zones"]) == 16 and [s["ch"] for s in b["sensors"]] == list(range(len(b["sensors"])))


def test_retired_boards_are_not_offered_but_old_logs_still_load_them(capsys):
    for name in boards.RETIRED:
        assert name not in boards.names() and name in boards.names(retired=True)
        assert boards.load(name)["zones"]                  # a log recorded on it still draws
        with pytest.raises(boards.BoardError, match="board %r is retired: .*hardware/retired.md.*use the reference "
                           "board %s" % (name, boards.REFERENCE)):
            boards.offered(name)
    assert cli.main(["board", "show", "esp32_devkitc"]) == 2
    err = capsys.readouterr().err
    assert "retired" in err and boards.REFERENCE in err and "Traceback" not in err
    assert boards.offered(boards.REFERENCE)["name"] == boards.REFERENCE


def test_one_reference_board_is_every_default(capsys):
    from host_tools.bench import bench_runtime, bench_sensing
    from host_tools.commands import demo, vboard
    from host_tools.demo import demo_game
    from host_tools.webview import timeline
    import argparse
    assert boards.REFERENCE == "esp32s3_devkitc1_lis2" and boards.REFERENCE_MAT == "lis2"
    for mod in (vboard, demo):
        p = argparse.ArgumentParser()
        mod.add_arguments(p)
        assert p.parse_args([]).board in (None, boards.REFERENCE)
    assert demo_game.DEMO_BOARD == bench_runtime.BOARD == timeline.default_board() == boards.REFERENCE
    with pytest.raises(SystemExit):
        bench_sensing.main(["--help"])
    assert "(default %s, the reference board's mat)" % boards.REFERENCE_MAT in " ".join(capsys.readouterr().out.split())


# a retired board or world on a product path: one line naming why, exit 2, before any port is touched
@pytest.mark.parametrize("argv", [
    ["demo", "--board", "esp32_devkitc"], ["vboard", "--board", "esp32_devkitc"],
    ["deploy", "--board", "esp32_devkitc", "--port", "socket://127.0.0.1:1"],
    ["record", "x.raw", "--board", "esp32_devkitc", "--port", "socket://127.0.0.1:1"],
    ["demo", "--world", "capture"], ["vboard", "--world", "capture"], ["bench", "sensing", "--world", "capture"]])
def test_a_retired_board_or_world_is_refused_in_one_line(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    if "--board" in argv:
        assert "board 'esp32_devkitc' is retired" in err and "signal-to-noise 0.04-1.3" in err, err
        assert "phone page" in err and boards.REFERENCE in err, err
    else:
        assert "world 'capture' is retired" in err and "mu300-t0.2" in err, err
    assert not os.listdir(tmp_path)


@pytest.mark.parametrize("name", boards.names(retired=True))
def test_zones_never_overlap_and_sensors_inside(name):
    b = boards.load(name)
    zs = b["zones"]
    for i, a in enumerate(zs):
        for c in zs[i + 1:]:
            apart = (a["x"] + a["w"] <= c["x"] or c["x"] + c["w"] <= a["x"] or
                     a["y"] + a["h"] <= c["y"] or c["y"] + c["h"] <= a["y"])
            assert apart, "zones %d and %d overlap" % (a["id"], c["id"])
    for s in b["sensors"]:
        z = zs[s["zone"]]
        assert z["x"] <= s["x"] <= z["x"] + z["w"] and z["y"] <= s["y"] <= z["y"] + z["h"], s


def test_reference_hosts_the_seed_layouts():
    """Rows of four, 2 x 3 blocks and the 8-card cross of the seed rule sheets
    fit on the zone grid (cards side by side in neighbouring zones)."""
    b = boards.load("reference")
    cells = {}
    xs = sorted(set(z["x"] for z in b["zones"]))
    ys = sorted(set(z["y"] for z in b["zones"]))
    for z in b["zones"]:
        cells[(xs.index(z["x"]), ys.index(z["y"]))] = z["id"]
        assert z["w"] >= b["card"]["w"] and z["h"] >= b["card"]["h"]
    row4 = [(c, 1) for c in range(4)]
    block23 = [(c, r) for c in range(1, 3) for r in range(3)]
    cross8 = [(1, 1), (2, 1), (1, 2), (2, 2), (0, 1), (3, 2), (1, 0), (2, 3)]
    for layout in (row4, block23, cross8, row4 + [(c, 2) for c in range(4)]):
        assert all(cell in cells for cell in layout)


def test_show_json_fields(capsys):
    mat = boards.REFERENCE_MAT
    assert cli.main(["board", "show", mat, "--json"]) == 0
    out = capsys.readouterr().out
    d = json.loads(out)
    assert list(d)[:6] == ["name", "zones", "sensors", "sensor", "sensor_plane_to_card_top_mm", "rate_hz"]
    assert d["name"] == mat
    assert set(d["zones"][0]) == {"id", "x", "y", "w", "h"}
    assert set(d["sensors"][0]) >= {"ch", "zone", "x", "y", "axis"}
    assert {s["axis"] for s in d["sensors"]} <= set(boards.AXES)
    assert set(d["sensor"]) >= {"zero_counts", "counts_per_mT", "max_counts", "noise_counts_rms"}
    assert d["sensor"]["noise_mT_rms"] == pytest.approx(d["sensor"]["noise_counts_rms"] / d["sensor"]["counts_per_mT"],
                                                        rel=1e-4)
    assert d["version"] == 2
    assert d == boards.public(boards.load(mat))


def test_show_human_draws_every_zone(capsys):
    assert cli.main(["board", "show", boards.REFERENCE]) == 0
    out = capsys.readouterr().out
    for z in range(16):
        assert "Z%d" % z in out
    assert out.count("o") >= 32
    assert "counts/mT" in out


def test_show_unknown_board(capsys):
    assert cli.main(["board", "show", "nope"]) == 2
    err = capsys.readouterr().err
    assert "unknown board 'nope'" in err and boards.REFERENCE in err and "Traceback" not in err
    # the bare mats are named as such, not as boards
    listed = err.split("(boards: ", 1)[1].split("; bare mats")[0].split(", ")
    assert boards.REFERENCE in listed and boards.REFERENCE_MAT not in listed, err
    assert "bare mats, for the simulator: " in err and boards.REFERENCE_MAT in err.split("bare mats")[1], err


def test_board_list_is_a_table_boards_first(capsys):
    assert cli.main(["board", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [x.split()[0] for x in lines] and len(lines) == len(boards.names())
    kinds = ["bare mat" in x for x in lines]
    assert kinds == sorted(kinds), lines                    # every board before every bare mat
    for col in ("board (mat", "zones", "sensors", "Hz"):    # each column starts at one place on every line
        starts = {x.index(col) for x in lines if col in x}
        assert len(starts) == 1, (col, lines)


def test_board_folders_carry_wiring():
    for name in boards.names():
        b = boards.load(name)
        if "wiring" in b:
            assert b["mat"] in boards.names()
            bus = b["wiring"].get("i2c") or b["wiring"].get("spi")
            if bus:
                # one three-axis sensor per three channels
                assert 3 * len(bus["sensors"]) == len(b["sensors"])
            else:
                assert len(b["wiring"]["channels"]) == len(b["sensors"])


# ------------------------------------------------------------ loader errors

@pytest.fixture
def tmp_boards(tmp_path, monkeypatch):
    mats = tmp_path / "mats"
    mats.mkdir()
    monkeypatch.setattr(boards, "BOARDS_DIR", str(tmp_path))
    monkeypatch.setattr(boards, "MATS_DIR", str(mats))
    with open(os.path.join(os.path.dirname(boards.__file__), "..", "..", "boards", "mats", "reference.json")) as f:
        ref = json.load(f)
    return tmp_path, ref


def _write(path, obj):
    path.write_text(json.dumps(obj) if not isinstance(obj, str) else obj, encoding="utf-8")


def _load_err(tmp, mat):
    _write(tmp / "mats" / "m.json", mat)
    with pytest.raises(boards.BoardError) as e:
        boards.load("m")
    return str(e.value)


def test_bad_mats(tmp_boards):
    tmp, ref = tmp_boards
    m = copy.deepcopy(ref)
    m["version"] = 3
    assert "newer" in _load_err(tmp, m)
    m = copy.deepcopy(ref)
    del m["rate_hz"]
    assert "missing field 'rate_hz'" in _load_err(tmp, m)
    m = copy.deepcopy(ref)
    m["zones"][1]["x"] = m["zones"][0]["x"] + 10
    assert "overlap" in _load_err(tmp, m)
    m = copy.deepcopy(ref)
    m["sensors"][7]["x"] = 0
    msg = _load_err(tmp, m)
    assert "sensors[7]" in msg and "outside its zone" in msg
    m = copy.deepcopy(ref)
    m["sensors"][3]["ch"] = 4
    assert "sensors[3].ch" in _load_err(tmp, m)
    m = copy.deepcopy(ref)
    del m["sensor"]["counts_per_mT"]
    assert "sensor: missing field 'counts_per_mT'" in _load_err(tmp, m)
    m = copy.deepcopy(ref)
    m["plate"]["attenuation"] = 1.5
    assert "plate.attenuation" in _load_err(tmp, m)
    assert "not valid JSON" in _load_err(tmp, "{\n  \"version\": 1,\n  oops\n}")
    assert "line 3" in _load_err(tmp, "{\n  \"version\": 1,\n  oops\n}")


def test_bad_wiring(tmp_boards):
    tmp, ref = tmp_boards
    _write(tmp / "mats" / "reference.json", ref)
    (tmp / "b1").mkdir()
    w = {"version": 1, "mat": "reference", "adc_pins": [36, 39], "mux_select": [1, 2, 3, 4],
         "channels": [[i % 2, i // 2 % 16] for i in range(96)]}
    _write(tmp / "b1" / "wiring.json", w)
    with pytest.raises(boards.BoardError) as e:
        boards.load("b1")
    assert "same ADC input" in str(e.value)
    w["channels"] = w["channels"][:95]
    _write(tmp / "b1" / "wiring.json", w)
    with pytest.raises(boards.BoardError) as e:
        boards.load("b1")
    assert "95 entries" in str(e.value)
    w["mat"] = "nope"
    _write(tmp / "b1" / "wiring.json", w)
    with pytest.raises(boards.BoardError) as e:
        boards.load("b1")
    assert "unknown mat 'nope'" in str(e.value)
    w = {"version": 1, "mat": "reference", "adc_pins": list(range(6)), "mux_select": [1, 2, 3, 4],
         "channels": [[i % 6, i // 6] for i in range(96)]}
    _write(tmp / "b1" / "wiring.json", w)
    b = boards.load("b1")
    assert b["name"] == "b1" and b["mat"] == "reference" and b["wiring"]["adc_pins"] == list(range(6))
    assert boards.names(retired=True) == ["b1", "reference"] and boards.names() == ["b1"]   # the Hall mat: retired


def _mat_v(version):
    m = json.load(open(os.path.join(boards.MATS_DIR, "reference.json"), encoding="utf-8"))
    m["version"] = version
    return m


def test_v2_mat_says_each_channels_axis():
    m = _mat_v(2)
    m["sensors"][1]["axis"] = "x"
    m["sensors"][2]["axis"] = "-z"
    boards.check_mat(m, "x.json")
    b = dict(m)
    assert [s["axis"] for s in boards.public(b)["sensors"][:3]] == ["z", "x", "-z"]


def test_axis_needs_version_2_and_a_known_axis():
    m = _mat_v(1)
    m["sensors"][3]["axis"] = "x"
    with pytest.raises(boards.BoardError, match=r"sensors\[3\]\.axis: per-channel axes need \"version\": 2"):
        boards.check_mat(m, "x.json")
    m = _mat_v(2)
    m["sensors"][3]["axis"] = "w"
    with pytest.raises(boards.BoardError, match=r"sensors\[3\]\.axis: expected one of x, y, z"):
        boards.check_mat(m, "x.json")


def test_board_show_draws_zone_0_top_left_as_every_view_does():
    from host_tools.commands.board import draw
    text = draw(boards.load(boards.REFERENCE))
    lines = text.splitlines()
    row = {z: next(i for i, ln in enumerate(lines) if "Z%d " % z in ln + " ") for z in (0, 3, 12)}
    assert row[0] == row[3] < row[12]                   # zone 0's row at the top
    assert lines[row[0]].index("Z0") < lines[row[0]].index("Z3")
    assert lines[0].strip() == "player 0 side" and lines[-1].strip() == "player 1 side"
    assert "++" not in text                             # zones 6 mm apart never touch


def test_the_spi_wiring_is_minor_version_1_and_older_files_load_unchanged():
    import copy as _copy
    lis2 = boards.load("esp32s3_devkitc1_lis2")
    assert lis2["wiring"]["minor"] == 1 and "spi" in lis2["wiring"]
    assert "minor" not in boards.load("esp32s3_devkitc1_amr2")["wiring"]       # minor 0: loads as before
    mat = boards.load_mat("lis2")
    w = _copy.deepcopy(lis2["wiring"])
    del w["minor"]
    with pytest.raises(boards.BoardError, match='spi: the SPI wiring needs "minor": 1'):
        boards.check_wiring(w, mat, "w.json")
    w["minor"] = 2
    with pytest.raises(boards.BoardError, match="wiring minor version 2 is newer than this tool understands"):
        boards.check_wiring(w, mat, "w.json")
    w["minor"] = 1
    w["spi"]["sensors"][1] = list(w["spi"]["sensors"][0])
    with pytest.raises(boards.BoardError, match=r"spi.sensors\[1\]: same decoder output as spi.sensors\[0\]"):
        boards.check_wiring(w, mat, "w.json")
