"""The one exception type a command raises for a user-facing problem."""


class UserError(Exception):
    """A problem the user can fix. The CLI prints the message, no traceback,
    and exits with `code` (2 by default)."""

    def __init__(self, message, code=2):
        super().__init__(message)
        self.code = code
