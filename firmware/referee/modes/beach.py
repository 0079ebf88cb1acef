"""抢滩登陆战 Beach Landing (rule sheet 000): each player lays 3 cards on
the other's side of the centre; every Bakugan is thrown once; two own
Bakugan on a card capture it. beach2 builds on this module. Rules and
decisions: docs/modes/beach.md."""
from referee.engine import UNUSED
from referee.errors import SetupError
from referee.modes.variant import Variant

# Where each player lays their set-up cards: the other player's side of the
# centre line (player 0 sits at the bottom, player 1 at the top).
SIDES = ((4, 5, 6, 7), (8, 9, 10, 11))
SETUP_CARDS = 3


class Game(Variant):
    MODE = "beach"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2
    KIT = (("bakugan", 12, "12个爆丸"), ("cards", 6, "6张基础卡"))

    def check_header(self, header):
        players = header["players"]
        for i in range(self.n):
            if len(players[i]["gates"]) < SETUP_CARDS:
                raise SetupError("players[%d].gates: %s needs at least %d cards per player" % (
                    i, self.MODE, SETUP_CARDS))

    def opening(self, p):
        return SETUP_CARDS

    def setup_zones(self, p):
        return SIDES[p]

    def zone_role(self, z):
        return "beach"

    def roles(self):
        r = {}
        for p in range(2):
            for z in SIDES[p]:
                r[z] = [p, "beach"]
        return r

    def throw_failed(self, b, reason, t):
        Variant.throw_failed(self, b, reason, t)
        self.retire(b, "failed landing", t)

    def double(self, p, b, z, own, t):
        if z in self.field:
            self.take_card(p, z, "double", t)
        for o in own + [b]:
            self.retire(o, "two on one card", t)
        self.owe_refill(p, z, t)

    def after_battle(self, z, win, lose, t):
        pw = self.bak_owner[win]
        pl = self.bak_owner[lose]
        self.seize(pw, lose, t)
        if z in self.field:
            self.take_card(pw, z, "battle", t)
        self.retire(win, "won a battle", t)
        self.owe_refill(pl, z, t)

    def check_end(self, t):
        for p in range(self.n):
            if not self.owned(p, UNUSED):
                for b in self.bak_ids:
                    if self.loc[b] >= 0:
                        self.retire(b, "on the field at the end", t)
                for z in self.active:
                    if z in self.field:
                        self.void_card(z, "on the field at the end", t)
                self.refills = []
                self.final(t, "%s has no Bakugan left in the hand" % self.names[p])
                return
