"""``Context``: the marker type for context injection in ``@tool`` functions."""

from __future__ import annotations

from typing import Any

__all__ = ["Context"]


class Context(dict):  # type: ignore[type-arg]
    """Annotate a ``@tool`` parameter with ``Context`` to receive the call's context.

    The parameter receives the context object exactly as the caller passed
    it (with ``tool_call_id`` added when run from a tool call). It is never
    in the JSON Schema, never in a message to the model and never among the
    accepted parameters.
    """

    __slots__ = ()


def is_context(annotation: Any) -> bool:
    """Whether an annotation marks the context parameter."""
    if annotation is Context or annotation == "Context":
        return True
    return getattr(annotation, "__origin__", None) is Context
