"""An echoed value or path as the model reads it: JSON, cut to a few characters.

Part of the message texts (:mod:`toolparse.messages` re-exports every name).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ._exception_text import _ADDRESS_REPR, safe_text

__all__ = ["MAX_VALUE_CHARS", "path_text", "value_text"]

MAX_VALUE_CHARS = 40


def value_text(value: object, limit: int = MAX_VALUE_CHARS) -> str:
    """An echoed value: JSON, cut to ``limit`` characters (40 by default) with ``...``.

    Adapters use it for values they quote in a reason, too, so every echoed
    value reads the same way.
    """
    if isinstance(value, str):
        # most echoed values are short plain strings: no need for the encoder
        if (
            len(value) <= limit - 2
            and value.isprintable()
            and '"' not in value
            and "\\" not in value
        ):
            return f'"{value}"'
        text = ""
    elif value is None or type(value) is bool:
        text = "null" if value is None else "true" if value else "false"
    elif type(value) is int:
        try:
            text = str(value)
        except ValueError:  # past Python's limit on integer text
            text = "<an integer of thousands of digits>"
    elif type(value) is float:
        # what the encoder writes for a float, without the encoder
        if value - value == 0:
            text = float.__repr__(value)
        else:
            text = "NaN" if value != value else "Infinity" if value > 0 else "-Infinity"
    else:
        text = ""
    if not text:
        try:
            text = json.dumps(value, ensure_ascii=False, default=repr)
        except (TypeError, ValueError, RecursionError):
            try:
                text = repr(value)
            except RecursionError:  # a value nested past the stack: say what it is
                text = f"<a deeply nested {type(value).__name__}>"
            except Exception:  # a broken __repr__, an integer past the text limit
                text = f"<a {type(value).__name__} value>"
        # a repr inside the JSON (an object, not data) keeps no address
        text = _ADDRESS_REPR.sub(r"<\1>", text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def path_text(path: Sequence[str | int]) -> str:
    """``a.b[0].c``; ``(arguments)`` for the whole object."""
    if len(path) == 1:
        # most problems are on a top-level name
        part = path[0]
        if type(part) is str:
            return part
    elif not path:
        return "(arguments)"
    # a few short parts: joined as they come (quicker than a list to join);
    # ``None`` until the first part (an empty name is a part too)
    out: str | None = None
    for part in path:
        if type(part) is str:
            out = part if out is None else f"{out}.{part}"
        elif isinstance(part, int):
            out = f"[{part}]" if out is None else f"{out}[{part}]"
        else:
            # a mapping's key need not be text (None, a tuple): shown, never raised on
            text = part if isinstance(part, str) else safe_text(repr(part), MAX_VALUE_CHARS)
            # (first, its own characters: formatting a text of a class of its
            # own would read its ``__str__``, as a later part does)
            out = str.__str__(text) if out is None else f"{out}.{text}"
    return "" if out is None else out
