"""`bakumat record` logs a player's undo but not the undos the board's own
amend feeds (an `ident`/`unland` sensed, a `which` answered): a replay
redoes the amend from the ident or the which, and would otherwise take two
events back (test_replay_matches_board and test_newuser_walkthrough play
both on the virtual board; this is the rule on its own)."""
from host_tools.commands.record import AmendUndos


class W:
    def __init__(self):
        self.out = []

    def control(self, ev):
        self.out.append(ev)


def feed(items):
    w = W()
    a = AmendUndos(w)
    passed = [(typ, body) for typ, body in items if not a.take(typ, body)]
    a.flush()
    return w.out, passed


def test_a_players_undo_is_logged_in_its_place():
    undo = {"t": 3000, "ev": "undo"}
    out, passed = feed([("frame", {"t": 2990}), ("input", undo), ("frame", {"t": 3010})])
    assert out == [undo]
    assert passed == [("frame", {"t": 2990}), ("frame", {"t": 3010})]


def test_the_undos_of_an_ident_are_not_logged():
    out, _ = feed([("frame", {"t": 7020}), ("mat", {"t": 7020, "ev": "ident", "zone": 5, "bakugan": "serpenoid"}),
                   ("input", {"t": 7020, "ev": "undo"}), ("game", {"t": 7020, "ev": "undo"}),
                   ("input", {"t": 7020, "ev": "undo"}), ("frame", {"t": 7040})])
    assert out == []


def test_the_undos_of_an_answer_go_with_the_answer():
    which = {"t": 9000, "ev": "which", "zone": 5, "bakugan": "tigrerra"}
    out, passed = feed([("input", {"t": 9000, "ev": "undo"}), ("game", {"t": 9000, "ev": "stand"}),
                        ("input", which), ("frame", {"t": 9020}), ("input", {"t": 9500, "ev": "undo"})])
    assert out == [{"t": 9500, "ev": "undo"}]
    assert ("input", which) in passed
