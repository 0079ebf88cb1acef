"""The mat's words (host_tools/words.py): the one formatter of every host
view speaks of players by name, gates and abilities by name and effect,
never in JSON or internal ids, tells a correction and the end plainly."""
import json
import os

from host_tools import fwpath
from host_tools.words import Words

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
    assert w.game({"ev": "turn", "player": 1}) == "-- Runo's turn"
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
    assert undo == "takes back the last landing (from 34.240s)"
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
    assert w.line({"ev": "turn", "t": 5000, "player": 0}).startswith("   5.000s")
    assert w.line({"ev": "turn", "t": 4000, "player": 1}).startswith("   5.000s")
    text = w.game({"ev": "novelty", "player": 0, "what": {"a": 1}})
    assert "{" not in text and "novelty" in text
