"""诺曼底 Normandy (rule sheet 000): longhu with two item cards (道具卡) per
player, played in a battle when behind, only for a Bakugan of the item's
attribute, never the same command twice. Rules and decisions:
docs/modes/normandy.md."""
from referee.modes import longhu


class Game(longhu.Game):
    MODE = "normandy"
    ABILITIES = "item"
    MAX_ABILITIES = 2
