"""The one vocabulary for one mistake: the words every adapter's reasons are made of.

Re-exported by :mod:`toolparse.adapter` (the adapter SDK), where adapters import them.
Every adapter maps its library's codes for type, enum, range, length, pattern,
format and required onto these words, so the same wrong call reads the same
whichever library found it; a library's own text is kept only for what none
of these fits (a custom validator's message).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ._safe_text import frame_text, safe_text, value_text

__all__ = [
    "FORMAT_WORDS",
    "REQUIRED",
    "TYPE_WORDS",
    "format_reason",
    "length_reason",
    "multiple_reason",
    "none_of_reason",
    "one_of_reason",
    "pattern_reason",
    "raised_text",
    "range_reason",
    "type_reason",
]

#: The reason for a required name that was not sent (nested; top-level names go
#: on the ``Missing parameters:`` line).
REQUIRED = "is required"

#: What a value of each JSON type is called in a reason.
TYPE_WORDS: Mapping[str, str] = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "object": "an object",
    "array": "a list",
    "null": "null",
}

#: What a value of each JSON Schema ``format`` is called in a reason.
FORMAT_WORDS: Mapping[str, str] = {
    "date-time": 'a date-time like "2024-01-31T09:30:00Z" (RFC 3339)',
    "date": 'a date like "2024-01-31"',
    "time": 'a time like "09:30:00Z"',
    "duration": 'a duration like "P3DT4H"',
    "email": "an email address",
    "uuid": 'a UUID like "123e4567-e89b-12d3-a456-426614174000"',
    # no URL in a reason the model reads, not even an example one
    "uri": "an absolute URI (a scheme, a colon, then the rest)",
    "ipv4": 'an IPv4 address like "192.0.2.1"',
    "ipv6": 'an IPv6 address like "2001:db8::1"',
}


def type_reason(*kinds: str) -> str:
    """``must be an integer``; several JSON types: ``must be a string or null``."""
    return "must be " + " or ".join(TYPE_WORDS.get(k, f'of type "{k}"') for k in kinds)


def one_of_reason(values: Sequence[object]) -> str:
    """``must be one of: "c", "f"`` (one value: ``must be "c"``); values as JSON."""
    if len(values) == 1:
        return f"must be {value_text(values[0], 60)}"
    shown = ", ".join(value_text(v) for v in values[:10])
    return "must be one of: " + shown + (", ..." if len(values) > 10 else "")


def none_of_reason(values: Sequence[object]) -> str:
    """``must not be one of: "c", "f"`` (one value: ``must not be "c"``); values as JSON."""
    return "must not" + one_of_reason(values)[len("must") :]


def range_reason(
    *,
    minimum: object = None,
    maximum: object = None,
    exclusive_minimum: object = None,
    exclusive_maximum: object = None,
) -> str:
    """``must be at least 1``, ``must be at most 50``, ``must be greater than 0``, ..."""
    if minimum is not None:
        return f"must be at least {value_text(minimum)}"
    if maximum is not None:
        return f"must be at most {value_text(maximum)}"
    if exclusive_minimum is not None:
        return f"must be greater than {value_text(exclusive_minimum)}"
    return f"must be less than {value_text(exclusive_maximum)}"


def multiple_reason(value: object) -> str:
    """``must be a multiple of 3`` (JSON Schema's ``multipleOf``)."""
    return f"must be a multiple of {value_text(value)}"


def length_reason(
    *, minimum: int | None = None, maximum: int | None = None, items: bool = False
) -> str:
    """``must be at least 3 characters long``; ``items=True``: ``must have at most 2 items``."""
    bound, count = ("at least", minimum) if minimum is not None else ("at most", maximum)
    if items:
        return f"must have {bound} {count} item{'' if count == 1 else 's'}"
    return f"must be {bound} {count} character{'' if count == 1 else 's'} long"


def pattern_reason(pattern: str) -> str:
    """``must match the pattern ^[A-Z]+$``."""
    return f"must match the pattern {pattern[:80]}"


def format_reason(fmt: str) -> str:
    """``must be a date like "2024-01-31"`` (an unknown format: ``must be a valid "fmt"``)."""
    return "must be " + FORMAT_WORDS.get(fmt, f'a valid "{fmt}"')


def raised_text(exception: BaseException, lines: Sequence[str]) -> str:
    """A schema library's error that a tool body raised, worded by its adapter.

    ``ERROR: (ValidationError) weight: must be a number; unit: is required at
    shipping.py:31: quote``: the problem lines (``ArgumentProblem.line()``)
    joined with ``"; "``, made safe and cut like any exception text, then the
    application's frame. For an adapter's ``toolparse_format_exception`` hook.
    """
    text = safe_text("; ".join(lines))
    return f"ERROR: ({type(exception).__name__}) {text}{frame_text(exception.__traceback__)}"
