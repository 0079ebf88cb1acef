"""The official game (rules sheet 004, 2 players): the shared engine's own
behaviour. Decisions where the sheet is ambiguous: docs/modes/official.md.
Optional header fields switch on the sheet's extra rules (traps, gear, game
level, evolution, pure attribute): docs/modes/official-extras.md."""
from referee.engine import Engine
from referee.modes import switch


class Game(Engine):
    MODE = "official"

    @classmethod
    def variant(cls, header):
        return switch.variant(cls, header)
