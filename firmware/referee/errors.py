"""Exceptions of the referee."""


class SetupError(Exception):
    """The game header (players, decks, mode) is not valid. The message names
    the offending field, e.g. "players[1].bakugan[0]: missing field 'g'"."""


class Reject(Exception):
    """An input event breaks a rule. Raised before anything is changed (or
    the engine restores its snapshot); the message is the reason."""
