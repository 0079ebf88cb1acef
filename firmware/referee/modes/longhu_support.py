"""The variant after 龙争虎斗 in rule sheet 000 (no name there): longhu with
two support cards (辅助卡) per player, played in a battle when behind. Rules
and decisions: docs/modes/longhu_support.md."""
from referee.modes import longhu


class Game(longhu.Game):
    MODE = "longhu_support"
    ABILITIES = "support"
    MAX_ABILITIES = 2
