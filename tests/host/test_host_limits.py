"""Host commands meet hostile input with a clear one-line error naming the
problem (exit 2), never `internal error`: the limits shared by every host
reader (host_tools.logs.logfile), non-finite and out-of-range numbers, cut
echoes, escaped control characters, zone arguments checked against the
board."""
import json
import os

import pytest

from host_tools import boards, cli, sim

SAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                      "host_tools", "samples", "official.ndjson")


def sample_lines():
    with open(SAMPLE, encoding="utf-8") as f:
        return f.read().splitlines()


@pytest.fixture(scope="module")
def raw_lines():
    h = json.loads(sample_lines()[0])
    h = {k: h[k] for k in ("mode", "first", "target", "players")}
    sc = sim.parse_scenario("gate 0 dan-gold on zone 4 at 0.2s\nplace drago on zone 4 at 0.8s\n")
    return sim.run(boards.load(boards.REFERENCE), sc, seed=3).raw_lines(h)


def bakumat(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv):
    code, out, err = bakumat(capsys, *argv)
    assert code == 2, (code, err[-500:])
    assert "internal error" not in err and "Traceback" not in err
    assert len(err.splitlines()) == 1 or err.startswith("usage"), err[:2000]
    return err


def write(tmp_path, name, lines):
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(p)


def test_deep_nesting_in_every_reader(tmp_path, capsys):
    p = write(tmp_path, "nest.ndjson", ["[" * 100000])
    for argv in (("replay", p), ("view", p), ("game", "load", p, "--port", "socket://127.0.0.1:1")):
        err = refused(capsys, *argv)
        assert "line 1: JSON nested more than 64 deep" in err, err


def test_endless_line_is_refused_without_reading_it_all(capsys):
    err = refused(capsys, "replay", "/dev/zero")
    assert "/dev/zero: line 1: longer than" in err


@pytest.mark.parametrize("value,says", [("Infinity", "Infinity is not a JSON number"), ("NaN", "NaN is not a JSON number"),
                                        ("1e-300", "rate_hz"), ("1e300", "rate_hz"), ("1e999", "rate_hz"),
                                        ("0", "rate_hz")])
def test_raw_header_rate_out_of_range(tmp_path, capsys, raw_lines, value, says):
    head = json.loads(raw_lines[0])
    text = json.dumps(head).replace('"rate_hz": %s' % json.dumps(head["rate_hz"]), '"rate_hz": %s' % value)
    p = write(tmp_path, "r.ndjson", [text] + raw_lines[1:])
    err = refused(capsys, "replay", p)
    assert "line 1" in err and says in err, err


def test_lone_surrogate_in_a_name(tmp_path, capsys):
    lines = sample_lines()
    p = write(tmp_path, "s.ndjson", [lines[0].replace('"Dan"', '"Dan\\ud800"')] + lines[1:])
    err = refused(capsys, "replay", p)
    assert "line 1" in err and "surrogate" in err


def test_plot_from_nan(tmp_path, capsys, raw_lines):
    p = write(tmp_path, "r.ndjson", raw_lines)
    with pytest.raises(SystemExit) as e:
        cli.main(["plot", p, "-o", str(tmp_path / "x.png"), "--from", "nan"])
    assert e.value.code == 2
    assert "--from: expected seconds" in capsys.readouterr().err


def test_a_huge_bad_value_is_echoed_cut(tmp_path, capsys):
    lines = sample_lines()
    ev = json.loads(lines[1])
    ev["gate"] = "x" * 900000
    p = write(tmp_path, "b.ndjson", [lines[0], json.dumps(ev)])
    err = refused(capsys, "replay", p)
    assert "line 2" in err and "unknown gate card" in err
    assert len(err) < 600 and "characters ...]" in err


def test_control_characters_in_names_are_shown_escaped(tmp_path, capsys):
    lines = sample_lines()
    h = json.loads(lines[0])
    h["players"][0]["name"] = "Dan\x1b[2J\x07"
    p = write(tmp_path, "a.ndjson", [json.dumps(h)] + lines[1:])
    code, out, err = bakumat(capsys, "replay", p)
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out
    assert "Dan\\x1b[2J\\x07 places gate" in out


def test_zone_argument_checked_against_the_board(tmp_path, capsys, raw_lines):
    p = write(tmp_path, "r.ndjson", raw_lines)
    err = refused(capsys, "replay", "--why", "--zone", "99", p)
    assert "--zone 99" in err and "no such zone" in err
    code, out, err = bakumat(capsys, "replay", "--why", "--zone", "4", p)
    assert code == 0


def test_game_input_json_limits(capsys):
    err = refused(capsys, "game", "input", "[" * 5000, "--port", "socket://127.0.0.1:1")
    assert "not valid JSON" in err or "nested" in err


def test_a_raw_logs_control_on_a_zone_the_board_lacks(tmp_path, capsys, raw_lines):
    ctl = json.dumps({"t": 150, "ev": "gate", "player": 0, "gate": "dan-silver", "zone": 99})
    p = write(tmp_path, "r.ndjson", raw_lines[:1] + [ctl] + raw_lines[1:])
    err = refused(capsys, "replay", p)
    assert "line 2: gate event: no zone 99 on board %s" % boards.REFERENCE in err, err
