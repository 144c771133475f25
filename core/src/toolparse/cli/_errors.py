"""What the command says when something is wrong, and with which exit status."""

from __future__ import annotations

import sys

__all__ = ["FAILED", "INTERNAL", "OK", "USAGE", "CommandError", "say"]

#: exit statuses: all went well; a call was rejected, a tool failed or a definition is
#: broken; the command line or its target is wrong; toolparse itself failed (a bug)
OK, FAILED, USAGE, INTERNAL = 0, 1, 2, 3


def say(message: str) -> None:
    """One line on stderr, as every complaint of the command reads: ``toolparse: ...``."""
    print(f"toolparse: {message}", file=sys.stderr)


class CommandError(Exception):
    """A mistake the user can fix: printed as one line, no traceback.

    :param message: the line to print (without the ``toolparse:`` prefix).
    :param status: the exit status (:data:`USAGE` unless said otherwise).
    """

    def __init__(self, message: str, status: int = USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
