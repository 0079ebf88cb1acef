"""The mat's words (host_tools/words.py): the one formatter of every host
view speaks of players by name, gates and abilities by name and effect,
never in JSON or internal ids, tells a correction and the end plainly."""
import json
import os
import re

from host_tools import fwpath
from host_tools.words import Words, stamp

SAMPLE = os.path.join(fwpath.REPO_DIR, "host_tools", "samples", "official.ndjson")


def header():
    with open(SAMPLE) as f:
        return json.loads(f.readline())


def test_players_gates_and_abilities_by_name():
    h = header()
    h["players"][0]["gates"][0]["id"] = "p0-gate1"
    w = Words(h)
    assert w.game({"ev": "placed", "player": 0, "gate": "p0-gate1", "zone": 6}) == \
        "Dan places Dan's gate 2 on zone 6"
    assert w.game({"ev": "ability", "player": 0, "card": "fire-wall"}) == "Dan plays fire-wall (opponent -50 G)"
    assert w.game({"ev": "turn", "player": 1}) == "Runo's turn"
    b = w.game({"ev": "battle", "zone": 9, "attacker": "falconeer", "defender": "saurus",
                "power": {"falconeer": 460, "saurus": 280},
                "parts": {"falconeer": [370, 90, 0], "saurus": [360, 0, -80]}, "winner": "falconeer"})
    assert b == ("battle on zone 9: falconeer 460 (370 G, gate +90) against saurus 280 (360 G, abilities -80): "
                 "falconeer wins")


def test_the_end_the_undo_and_a_refusal_in_words():
    w = Words(header())
    assert w.game({"ev": "end", "captured": [["a", "b", "c"], ["d"]], "winner": 0}) == "game over: Dan wins 3-1"
    assert w.game({"ev": "end", "captured": [["a"], ["d", "e", "f"]], "winner": 1}) == "game over: Runo wins 3-1"
    assert w.game({"ev": "end", "captured": [["a"], ["d"]], "winner": None}) == "game over: no winner (1-1)"
    undo = w.game({"ev": "undo", "undone": "land", "at": 34240})
    assert undo == "the referee takes back the last landing (the one at 00:34)"
    rej = w.game({"ev": "reject", "input": "land", "reason": "it is Runo's turn"})
    assert rej == "not allowed (land): it is Runo's turn"
    for text in (undo, rej):
        assert "{" not in text and "P0" not in text


def test_a_correction_is_told():
    w = Words(header())
    assert w.mat({"ev": "land", "zone": 9, "bakugan": "serpenoid"}) == "the mat sees serpenoid open on zone 9"
    assert w.mat({"ev": "ident", "zone": 9, "bakugan": "tigrerra"}) == \
        "the mat corrected: tigrerra, not serpenoid (zone 9)"
    assert w.mat({"ev": "unsure", "zone": 9, "bakugan": "tigrerra", "alt": "drago"}).startswith("the mat is not sure")


def test_times_never_go_back_and_unknown_events_have_no_json():
    w = Words(header())
    assert w.line({"ev": "turn", "t": 5000, "player": 0}).startswith("00:05  ")
    assert w.line({"ev": "turn", "t": 4000, "player": 1}).startswith("00:05  ")
    text = w.game({"ev": "novelty", "player": 0, "what": {"a": 1}})
    assert "{" not in text and "novelty" in text
    # and they name players, cards and times as every other line does
    text = w.game({"ev": "novelty", "player": 1, "gate": "p0-gate2", "card": "p1-card0", "at": 65000})
    assert text == "novelty: player Runo, gate Dan's gate 3, card Runo's card 1, at 01:05", text


def test_one_game_clock_in_minutes_and_seconds():
    assert [stamp(t) for t in (0, 999, 61500, 599999, 3600000 + 62000)] == \
        ["00:00", "00:00", "01:01", "09:59", "1:01:02"]


def test_a_capture_says_how_in_a_players_words():
    w = Words(header())
    said = [w.game({"ev": "capture", "player": 0, "gate": "g", "zone": 3, "reason": r})
            for r in ("battle", "double", "take", "unopposed")]
    assert said[0].endswith("(won the battle)") and said[1].endswith("(stood on it twice)")
    assert said[2].endswith("(chose to take it)") and said[3].endswith("(nobody fought for it)")
    assert not any(re.search(r"\((double|take|battle)\)", x) for x in said)
