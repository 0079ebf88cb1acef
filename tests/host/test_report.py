"""`bakumat report LOG -o game.html`: one self-contained page a player can
share (no script, no network), with the players, every battle's arithmetic,
the captures and the winner, opened in real headless Chromium; from an
event log and from a raw sensor log."""
import json
import re
import os
import subprocess

import pytest

from browserkit import Browser
from host_tools import boards, fwpath, sim
from mptools import tool

SAMPLE = os.path.join(fwpath.REPO_DIR, "host_tools", "samples", "official.ndjson")


def bakumat(*args):
    return subprocess.run([tool("bakumat")] + list(args), capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


def replay_json(path):
    r = bakumat("replay", "--json", str(path))
    assert r.returncode == 0, r.stderr
    return [json.loads(x) for x in r.stdout.splitlines()]


def open_report(browser, path):
    pg = browser.page()
    url = "file://" + str(path)
    pg.goto(url)
    got = pg.evaluate("""() => ({
        result: document.getElementById('result').textContent,
        players: [...document.querySelectorAll('#players tr')].slice(1).map(r => r.cells[0].textContent),
        battles: [...document.querySelectorAll('#battles tr')].slice(1).map(r =>
            [...r.cells].slice(-5).map(c => c.textContent)),
        captures: [...document.querySelectorAll('#captures tr')].slice(1).map(r => [...r.cells].map(c => c.textContent)),
        log: [...document.querySelectorAll('#log li')].map(li => li.textContent),
        scripts: document.scripts.length,
        links: [...document.querySelectorAll('[src],[href]')].length,
    })""")
    requests = [u for u in pg.offline_requests if u != url]
    assert requests == [] and pg.errors == [], (requests, pg.errors)    # self-contained: nothing fetched
    pg.close()
    return got


def check(got, outs):
    assert got["scripts"] == 0 and got["links"] == 0
    assert got["players"] == ["Dan", "Runo"]
    battles = [e for e in outs if e["ev"] == "battle"]
    assert len(got["battles"]) == 2 * len(battles) > 0
    for row, (b, k) in zip(got["battles"], [(b, k) for b in battles for k in (0, 1)]):
        bid, g, gate, ab, power = row
        name = bid.split(" (")[0]
        assert name == (b["attacker"], b["defender"])[k]
        # the arithmetic: G + gate card + abilities = the power the referee used
        total = int(power.split()[0])
        assert int(g) + int(gate) + int(ab) == total == b["power"][name]
        assert ("wins" in power) == (name == b["winner"])
    caps = [e for e in outs if e["ev"] == "capture"]
    # the gate column names the card (not "gate dan-gold"), the how column in a player's words
    assert [c[2] for c in got["captures"]] == [c["gate"] for c in caps]
    assert not any(c[4] in ("battle", "double", "take", "unopposed") for c in got["captures"]), got["captures"]
    # one clock, mm:ss, and no engine words in the whole game's lines
    assert all(re.match(r"\d\d:\d\d  ", line) for line in got["log"]), got["log"]
    assert not any(line.split("  ", 1)[1].startswith("--") or re.search(r"p\d-gate|player 0|\d\.\d+s\b", line)
                   for line in got["log"]), got["log"]
    assert len(got["log"]) == len(outs)
    assert not any("{" in line for line in got["log"])


def test_report_of_an_event_log(browser, tmp_path):
    page = tmp_path / "game.html"
    r = bakumat("report", SAMPLE, "-o", str(page))
    assert r.returncode == 0, r.stderr
    got = open_report(browser, page)
    outs = replay_json(SAMPLE)
    check(got, outs)
    assert got["result"] == "Runo wins 3-2"


def test_report_of_a_raw_sensor_log(browser, tmp_path):
    board = boards.load(boards.REFERENCE)
    with open(SAMPLE) as f:
        header = json.loads(f.readline())
    header["target"] = 1
    sc = sim.parse_scenario("""
        gate 0 dan-gold on zone 6 at 0.5s
        gate 1 runo-gold on zone 5 at 1s
        throw drago -> zone 5 at 2s
        throw tigrerra -> zone 5 at 4s
        resolve at 6s
        idle 2s
    """)
    raw = tmp_path / "game.raw.ndjson"
    raw.write_text("".join(x + "\n" for x in sim.run(board, sc, seed=0).raw_lines(header)))
    page = tmp_path / "raw.html"
    r = bakumat("report", str(raw), "-o", str(page))
    assert r.returncode == 0, r.stderr
    got = open_report(browser, page)
    outs = replay_json(raw)
    check(got, outs)
    end = outs[-1]
    assert end["ev"] == "end" and got["result"].startswith(("Dan wins", "Runo wins", "no winner"))


def test_report_refuses_what_is_not_a_log(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello\n")
    r = bakumat("report", str(bad), "-o", str(tmp_path / "x.html"))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not (tmp_path / "x.html").exists()


def test_a_recording_stopped_mid_game_is_not_called_a_game_without_winner(tmp_path):
    board = boards.load(boards.REFERENCE)
    with open(SAMPLE) as f:
        header = json.loads(f.readline())
    sc = sim.parse_scenario("""
        gate 0 dan-gold on zone 6 at 0.5s
        gate 1 runo-gold on zone 5 at 1s
        throw drago -> zone 5 at 2s
        idle 1s
    """)
    raw = tmp_path / "cut.raw.ndjson"
    raw.write_text("".join(x + "\n" for x in sim.run(board, sc, seed=0).raw_lines(header)))
    page = tmp_path / "cut.html"
    r = bakumat("report", str(raw), "-o", str(page))
    assert r.returncode == 0, r.stderr
    assert 'id="result">no winner yet: the log stops before the game is decided (0-0)<' in page.read_text()
    # a game ended by hand (`bakumat game end`: an `end` input in its event log) has no winner, and says so
    log = tmp_path / "ended.ndjson"
    with open(SAMPLE) as f:
        lines = f.read().splitlines()[:6]
    log.write_text("\n".join(lines + ['{"t": %d, "ev": "end"}' % (json.loads(lines[-1])["t"] + 100)]) + "\n")
    r = bakumat("report", str(log), "-o", str(tmp_path / "ended.html"))
    assert r.returncode == 0, r.stderr
    assert 'id="result">no winner (0-0)<' in (tmp_path / "ended.html").read_text()
