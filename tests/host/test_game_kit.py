"""`bakumat game new --kit`: players who own other sets than the rule
sheet's say so; the header is checked with the referee's own code before
anything is sent to a board."""
import argparse
import json

import pytest

from host_tools.commands import game
from host_tools.errors import UserError


def _deck(tmp_path, i, n_bakugan, n_cards):
    d = {"name": "P%d" % i,
         "bakugan": [{"id": "b%d%d" % (i, j), "attr": "pyrus", "g": 300} for j in range(n_bakugan)],
         "gates": [{"id": "c%d%d" % (i, j), "bonus": {}} for j in range(n_cards)]}
    p = tmp_path / ("deck%d.json" % i)
    p.write_text(json.dumps(d))
    return str(p)


def _args(decks, mode, kit=None):
    return argparse.Namespace(deck=decks, mode=mode, first=None, target=None, kit=kit)


def test_a_deck_off_the_sheet_is_refused_naming_the_rule_and_kit_lets_it_play(tmp_path):
    decks = [_deck(tmp_path, i, 3, 2) for i in range(3)]
    with pytest.raises(UserError) as e:
        game.check_header(game.build_header(_args(decks, "zhulu")))
    assert str(e.value) == ("bad game: players[0].gates: mode zhulu needs 3 cards per player, got 2 "
                            "(the sheet: 3张对战卡; header.kit.cards changes the count)")
    full = game.check_header(game.build_header(_args(decks, "zhulu", "cards=2, bakugan=3")))
    assert full["kit"] == {"cards": 2, "bakugan": 3}


def test_bad_kit_options(tmp_path):
    decks = [_deck(tmp_path, i, 3, 3) for i in range(2)]
    for bad in ("cards", "cards=x", "=3"):
        with pytest.raises(UserError) as e:
            game.build_header(_args(decks, "zhulu", bad))
        assert str(e.value).startswith("--kit: expected KEY=N")
    with pytest.raises(UserError) as e:
        game.check_header(game.build_header(_args(decks, "zhulu", "shots=3")))
    assert "header.kit.shots: mode zhulu counts bakugan, cards" in str(e.value)


def test_a_header_file_keeps_its_kit(tmp_path):
    p = tmp_path / "g.json"
    p.write_text(json.dumps({"mode": "snooker", "kit": {"cards": 1, "bakugan": 1},
                             "players": [{"name": "A", "bakugan": [{"id": "x", "attr": "pyrus", "g": 1}],
                                          "gates": [{"id": "c"}]}]}))
    h = game.header_from_file(str(p))
    assert h["kit"] == {"cards": 1, "bakugan": 1}
    game.check_header(h)
