"""战国争霸 (rule sheet 000): zhulu with one item card (道具卡) per player,
played in a battle when behind, working only for a Bakugan of the item's
attribute; the winner's own battled card is put out of play. Rules and
decisions: docs/modes/zhanguo.md."""
from referee.modes import zhulu


class Game(zhulu.Game):
    MODE = "zhanguo"
    ABILITIES = "item"
    MAX_ABILITIES = 1
    CAPTURE_OWN_CARD = False
