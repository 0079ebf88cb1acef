"""爆裂旋风 ("bursting whirlwind", rule sheet 000): four players, four
quadrants; each quadrant's base card lies in the centre and its battle card
in the quadrant; two own Bakugan on a base card capture the quadrant's
card; the battle winner stays and takes the loser's Bakugan and the card.
Rules and decisions: docs/modes/baolie.md."""
from referee.engine import UNUSED
from referee.modes.variant import Variant

# The base card of each player's quadrant, in seating (clockwise) order:
# player 0 bottom-left, 1 top-left, 2 top-right, 3 bottom-right.
BASE = (9, 5, 6, 10)


class Game(Variant):
    MODE = "baolie"
    MIN_PLAYERS = 4
    MAX_PLAYERS = 4
    KIT = (("bakugan", 3, "3个爆丸"), ("cards", 4, "4张基础卡"))

    def setup_zones(self, p):
        # The opening card goes in the quadrant of the player opposite.
        return (BASE[(p + 2) % 4],)

    def zone_owner(self, z):
        return BASE.index(z) if z in BASE else None

    def zone_role(self, z):
        return "quadrant"

    def roles(self):
        r = {}
        for p in range(4):
            r[BASE[p]] = [p, "quadrant"]
        return r

    def double(self, p, b, z, own, t):
        if z in self.field:
            self.take_card(p, z, "double", t)
        self.owe_refill(p, z, t)
        Variant.double(self, p, b, z, own, t)

    def after_battle(self, z, win, lose, t):
        pw = self.bak_owner[win]
        pl = self.bak_owner[lose]
        self.seize(pw, lose, t)
        if z in self.field:
            self.take_card(pw, z, "battle", t)
        self.owe_refill(pl, z, t)

    def check_end(self, t):
        self.check_leaves(t)  # borrowed from zhulu (docs/modes/baolie.md)

    def skips(self, p):
        return self.gone[p] or not self.owned(p, UNUSED)
