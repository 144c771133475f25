"""``@tool``: a plain function (or a runnable) as a :class:`~toolparse.Function`."""

from ._tool import tool

__all__ = ["tool"]
