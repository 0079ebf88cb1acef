"""逐鹿中原 (rule sheet 000): 2-4 players throw at a central battlefield of
face-down cards, one per player, clockwise. Rules and decisions:
docs/modes/zhulu.md. shenghui and zhanguo build on this module."""
from referee.engine import UNUSED
from referee.modes.variant import Variant

CENTRE = (5, 6, 9, 10)  # the battlefield on the reference mat


class Game(Variant):
    MODE = "zhulu"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    KIT = (("bakugan", 3, "3个爆丸"), ("cards", 3, "3张对战卡"))
    # The battle winner takes the battled card even when it is their own
    # (zhulu); shenghui/zhanguo: the winner's own card is put out of play.
    CAPTURE_OWN_CARD = True

    def setup_zones(self, p):
        return CENTRE

    def zone_role(self, z):
        return "battlefield"

    def after_battle(self, z, win, lose, t):
        pw = self.bak_owner[win]
        pl = self.bak_owner[lose]
        self.seize(pw, lose, t)
        self.retire(win, "won a battle", t)
        g = self.field.get(z)
        if g is not None:
            if self.CAPTURE_OWN_CARD or self.gate_owner[g] != pw:
                self.take_card(pw, z, "battle", t)
            else:
                self.void_card(z, "the winner's own card", t)
        # "玩家输完爆丸或卡片则要退场，手中剩余的爆丸或卡片作废": whoever has
        # just lost their last Bakugan or card leaves at once, before any
        # refill: a player who leaves owes none (owe_refill), and their hand
        # is out of play for the score and the tie-break. The end test
        # (check_end) follows right after the battle.
        self.leave_lost(t)
        self.owe_refill(pl, z, t)

    def check_end(self, t):
        self.check_leaves(t)

    def skips(self, p):
        return self.gone[p] or not self.owned(p, UNUSED)
