"""The official game (rules sheet 004, 2 players): the shared engine's own
behaviour. Decisions where the sheet is ambiguous: docs/modes/official.md."""
from referee.engine import Engine


class Game(Engine):
    MODE = "official"
