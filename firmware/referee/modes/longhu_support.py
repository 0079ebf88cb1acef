"""The variant after 龙争虎斗 in rule sheet 000 (no name there): longhu with
two support cards (辅助卡) per player, played in a battle when behind. Rules
and decisions: docs/modes/longhu_support.md."""
from referee.modes import longhu


class Game(longhu.Game):
    MODE = "longhu_support"
    ABILITIES = "support"
    MAX_ABILITIES = 2

    def winner_done(self, win, wz, t):
        """"战斗过的胜方卡片也作废": only the winner's card is out of play;
        the winner goes back to its own position (put there by hand)."""
        z = self.loc[win]
        if z != wz:
            self.lift(win)
            self.put(win, wz)
            self.expect_back(win)
            self.emit("move", t, (("bakugan", win), ("from", z), ("to", wz)))
