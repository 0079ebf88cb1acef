"""The Big Game (rules sheet 004, "БОЛЬШАЯ ИГРА"): each player brings 6
Bakugan, 6 gate cards and 6 ability cards, all different; each places 2
gates at the start; the first to capture 6 gates wins. With 3 or 4 players
the several-players rules apply as in mode "multi" (this class extends it).
Decisions: docs/modes/big.md."""
from referee.errors import SetupError
from referee.modes import multi

DECK = 6  # Bakugan, gate cards and ability cards per player


class Game(multi.Game):
    MODE = "big"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    OPENING_GATES = 2
    TARGET = 6
    GATES_PER_COLOUR = 2  # gate "colour" (extras): two of each frame colour
    EXTRA_ITEMS = 2  # extras: twice the traps and gear of a normal game

    def __init__(self, header, sink=None):
        multi.Game.__init__(self, header, sink)
        players = header["players"]
        for i in range(self.n):
            p = players[i]
            w = "players[%d]" % i
            for key in ("bakugan", "gates", "abilities"):
                k = len(p.get(key, ()))
                if k != DECK:
                    raise SetupError("%s.%s: the Big Game needs %d per player, got %d" % (w, key, DECK, k))
            _all_different(p["gates"], w + ".gates", "gate card")
            _all_different(p["abilities"], w + ".abilities", "ability card")


def _same(a, b):
    """Equal in every field but the id."""
    for k in a:
        if k != "id" and (k not in b or a[k] != b[k]):
            return False
    for k in b:
        if k != "id" and k not in a:
            return False
    return True


def _all_different(cards, where, what):
    """Two cards of one player with the same printed values are two copies
    of one card: the Big Game forbids that ("all cards must be different")."""
    for j in range(len(cards)):
        for k in range(j):
            if _same(cards[j], cards[k]):
                raise SetupError("%s[%d]: same card as %s[%d] (%s): in the Big Game a player's %ss are all different" % (
                    where, j, where, k, cards[k]["id"], what))
