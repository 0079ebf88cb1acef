"""圣徽召唤 (rule sheet 000): zhulu with one support card (辅助卡) per player,
played in a battle when behind; the winner's own battled card is put out of
play. Rules and decisions: docs/modes/shenghui.md."""
from referee.modes import zhulu


class Game(zhulu.Game):
    MODE = "shenghui"
    ABILITIES = "support"
    MAX_ABILITIES = 1
    CAPTURE_OWN_CARD = False
