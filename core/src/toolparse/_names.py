"""Lists of names in a message: joined, cut to a count, and annotated with suggestions.

Part of the message texts (:mod:`toolparse.messages` re-exports every name).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["MAX_NAMES", "argument_keys", "names_text", "unrecognized_names"]

#: the most names one line of a message shows; the rest are counted (``... and N more``)
MAX_NAMES = 30


def names_text(names: Sequence[str], limit: int = MAX_NAMES) -> str:
    """Names joined with ``", "``: at most ``limit``, then ``... and N more``."""
    if len(names) <= limit:
        return ", ".join(names)
    return f"{', '.join(names[:limit])}, ... and {len(names) - limit} more"


def _annotated_text(items: Sequence[tuple[str, str | None]], limit: int) -> str:
    """Sorted ``(name, hint)`` pairs as a names list: only the shown ones are worded."""
    shown = [
        name if hint is None else f'{name} (did you mean "{hint}"?)' for name, hint in items[:limit]
    ]
    if len(items) <= limit:
        return ", ".join(shown)
    return f"{', '.join(shown)}, ... and {len(items) - limit} more"


def argument_keys(arguments: Mapping[Any, Any]) -> list[str]:
    """The argument names as strings (non-string keys are not names)."""
    return [key for key in arguments if isinstance(key, str)]


def unrecognized_names(arguments: Mapping[Any, Any], accepted: Sequence[str]) -> list[str]:
    """Sorted names that are not accepted; empty when ``accepted`` is unknown."""
    if not accepted:
        return []
    accepted_set = set(accepted)
    return sorted(k for k in argument_keys(arguments) if k not in accepted_set)
