"""The ``toolparse`` command (also ``python -m toolparse``)."""

from ._main import main

__all__ = ["main"]
