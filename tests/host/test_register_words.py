"""bakumat register says in words which of a player's Bakugan the mat
cannot tell apart (the lesson's `alike`) and how to fix it."""
from host_tools.commands.register import alike_words, owners

HEADER = {"players": [{"name": "Dan", "bakugan": [{"id": "drago"}, {"id": "gorem"}]},
                      {"name": "Runo", "bakugan": [{"id": "tigrerra"}]}]}


def test_one_players_pair_is_a_warning_with_the_fix():
    lines, pairs = alike_words("gorem", ["drago"], owners(HEADER))
    assert pairs == [("gorem", "drago")]
    assert len(lines) == 1
    assert "cannot tell gorem from drago (both Dan's" in lines[0]
    assert "will ask which" in lines[0] and "swap gorem for a Bakugan with another magnet" in lines[0]


def test_across_players_the_game_tells_them_apart():
    lines, pairs = alike_words("gorem", ["tigrerra"], owners(HEADER))
    assert pairs == []
    assert lines == ["  note: gorem reads like tigrerra (Runo's): the game tells them apart, only the thrower's own "
                     "Bakugan may land"]


def test_without_the_game_it_says_what_to_check():
    lines, pairs = alike_words("gorem", ["drago"], {})
    assert pairs == []
    assert "if one player has both" in lines[0] and "swap one" in lines[0]
