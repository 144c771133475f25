"""toolparse's log records: on loggers under ``toolparse``, which has a ``NullHandler``.

``logging`` costs more to import than toolparse itself: it is imported with the first
record, and the ``NullHandler`` added then (or at import, if ``logging`` is loaded already),
so that an application that configured no logging sees nothing on stderr.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import logging

__all__ = ["ROOT", "logger"]

#: the logger every toolparse logger is under
ROOT = "toolparse"


def logger(name: str) -> logging.Logger:
    """The logger ``name`` (a module's ``__name__``), with the ``NullHandler`` in place."""
    import logging

    root = logging.getLogger(ROOT)
    if not any(type(handler) is logging.NullHandler for handler in root.handlers):
        root.addHandler(logging.NullHandler())
    return logging.getLogger(name)


if "logging" in sys.modules:  # already paid for: the handler is there from the start
    logger(ROOT)
