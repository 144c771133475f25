"""``Function``: a tool definition, its compiled plan, and its execution."""

from ._function import Function, get_display_text

__all__ = ["Function", "get_display_text"]
