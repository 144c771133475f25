"""pydantic's validation errors, as the structured problems the core renders.

pydantic's ``loc`` is not quite a path into the data: for unions it inserts
the member that was tried (``("pet", "cat", "meow")``, ``("value", "int")``,
``("x", "function-after[check(), int]")``) and ``pydantic.v1`` writes
``__root__`` for model-level errors. The model needs the path into what it
sent, so the path is found by walking ``loc`` through the arguments and
keeping only the steps that exist there.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import (
    REQUIRED,
    format_reason,
    length_reason,
    one_of_reason,
    pattern_reason,
    range_reason,
    type_reason,
)

__all__ = ["problems", "problems_v1"]

# error types that say "a required name was not sent"
_MISSING = frozenset(
    {
        "missing",
        "missing_argument",
        "missing_keyword_only_argument",
        "missing_positional_only_argument",
    }
)
# error types that say "this name is not accepted"
_UNRECOGNIZED = frozenset({"extra_forbidden", "unexpected_keyword_argument"})
_V1_MISSING = "value_error.missing"
_V1_UNRECOGNIZED = "value_error.extra"
# pydantic prefixes the message of a ValueError raised in a validator; the
# user's own message is what the model should read
_VALUE_ERROR_PREFIX = "Value error, "


# pydantic's error types onto the shared vocabulary (a validator's own text stays)
_TYPES = {
    **dict.fromkeys(("int_type", "int_parsing", "int_from_float", "int_parsing_size"), "integer"),
    **dict.fromkeys(("float_type", "float_parsing", "decimal_type", "decimal_parsing"), "number"),
    **dict.fromkeys(("string_type", "string_unicode"), "string"),
    **dict.fromkeys(("bool_type", "bool_parsing"), "boolean"),
    **dict.fromkeys(
        ("dict_type", "model_type", "model_attributes_type", "dataclass_type", "mapping_type"),
        "object",
    ),
    **dict.fromkeys(("list_type", "tuple_type", "set_type", "frozen_set_type"), "array"),
    "none_required": "null",
}
_FORMATS = {
    **dict.fromkeys(("date_type", "date_parsing", "date_from_datetime_parsing"), "date"),
    **dict.fromkeys(
        ("datetime_type", "datetime_parsing", "datetime_from_date_parsing"), "date-time"
    ),
    **dict.fromkeys(("time_type", "time_parsing"), "time"),
    **dict.fromkeys(("time_delta_type", "time_delta_parsing"), "duration"),
    **dict.fromkeys(("uuid_type", "uuid_parsing"), "uuid"),
    **dict.fromkeys(("url_type", "url_parsing", "url_scheme"), "uri"),
}
_BOUNDS = {
    "greater_than_equal": ("ge", "minimum"),
    "less_than_equal": ("le", "maximum"),
    "greater_than": ("gt", "exclusive_minimum"),
    "less_than": ("lt", "exclusive_maximum"),
}
# the choices in a literal_error's ``expected``: 'a', 'b' or 'c' / 1, 2 or 3
_CHOICE = re.compile(r"'((?:[^'\\]|\\.)*)'|(-?\d+(?:\.\d+)?)|(True|False|None)")


def _choices(expected: str) -> list[Any]:
    found: list[Any] = []
    for text, number, word in _CHOICE.findall(expected):
        if number:
            found.append(float(number) if "." in number else int(number))
        elif word:
            found.append({"True": True, "False": False, "None": None}[word])
        else:
            found.append(text)
    return found


def shared_reason(kind: str, ctx: Mapping[str, Any] | None) -> str | None:
    """The shared words for one pydantic error type, or ``None`` to keep pydantic's text."""
    ctx = ctx or {}
    if kind in _TYPES:
        return type_reason(_TYPES[kind])
    if kind in _FORMATS:
        return format_reason(_FORMATS[kind])
    if kind in _BOUNDS:
        key, word = _BOUNDS[kind]
        return range_reason(**{word: ctx.get(key)}) if key in ctx else None
    if kind in ("string_too_short", "string_too_long", "too_short", "too_long"):
        items = not kind.startswith("string")
        if "min_length" in ctx and kind.endswith("short"):
            return length_reason(minimum=ctx["min_length"], items=items)
        if "max_length" in ctx and kind.endswith("long"):
            return length_reason(maximum=ctx["max_length"], items=items)
        return None
    if kind == "string_pattern_mismatch" and "pattern" in ctx:
        return pattern_reason(str(ctx["pattern"]))
    if kind in ("literal_error", "enum") and isinstance(ctx.get("expected"), str):
        values = _choices(ctx["expected"])
        return one_of_reason(values) if values else None
    return None


def _walk(
    loc: Sequence[Any], data: Any, *, key_at_end: bool
) -> tuple[tuple[str | int, ...], Any, bool]:
    """Follow ``loc`` through ``data``.

    Returns the data path, the value found there, and whether every step of
    ``loc`` was a step into the data. With ``key_at_end`` the last step names
    a key that may be absent (a missing field) and is kept anyway.
    """
    path: list[str | int] = []
    last = len(loc) - 1
    whole = True
    i = -1
    for part in loc:
        i += 1
        kind = type(data)
        # exact type checks first: arguments decoded from JSON are dicts and lists
        if kind is dict or (kind is not list and isinstance(data, Mapping)):
            if part in data and type(part) is str:
                path.append(part)
                data = data[part]
                continue
        elif (kind is list or kind is tuple) and type(part) is int and 0 <= part < len(data):
            path.append(part)
            data = data[part]
            continue
        if key_at_end and i == last and part != "__root__":
            path.append(part)
            break
        # a union member, a validator's label, ``__root__``: not a place in the data
        whole = False
    return tuple(path), data, whole


def _received(value: Any) -> Any:
    # an object cut to 40 characters of JSON tells the model nothing it can act on
    return NOT_GIVEN if type(value) is dict or isinstance(value, Mapping) else value


def problems(errors: Sequence[Mapping[str, Any]], arguments: Any) -> list[ArgumentProblem]:
    """Turn ``ValidationError.errors(include_url=False)`` into argument problems."""
    out: list[ArgumentProblem] = []
    for err in errors:
        kind = err["type"]
        if kind in _MISSING:
            path, _, _ = _walk(err["loc"], arguments, key_at_end=True)
            out.append(ArgumentProblem.missing(path, REQUIRED))
        elif kind in _UNRECOGNIZED:
            path, _, _ = _walk(err["loc"], arguments, key_at_end=True)
            out.append(ArgumentProblem.unrecognized(path))
        else:
            path, _, _ = _walk(err["loc"], arguments, key_at_end=False)
            reason = shared_reason(kind, err.get("ctx")) or str(err["msg"])
            if kind == "value_error" and reason.startswith(_VALUE_ERROR_PREFIX):
                reason = reason[len(_VALUE_ERROR_PREFIX) :]
            received = _received(err.get("input", NOT_GIVEN)) if path else NOT_GIVEN
            out.append(ArgumentProblem(path, reason, received))
    return out


def problems_v1(errors: Sequence[Mapping[str, Any]], arguments: Any) -> list[ArgumentProblem]:
    """Turn a ``pydantic.v1`` ``ValidationError.errors()`` into argument problems.

    ``pydantic.v1`` errors carry no input value, so the received value is
    read from the arguments at the error's path.
    """
    out: list[ArgumentProblem] = []
    for err in errors:
        kind = err["type"]
        if kind == _V1_MISSING:
            path, _, _ = _walk(err["loc"], arguments, key_at_end=True)
            out.append(ArgumentProblem.missing(path, REQUIRED))
        elif kind == _V1_UNRECOGNIZED:
            path, _, _ = _walk(err["loc"], arguments, key_at_end=True)
            out.append(ArgumentProblem.unrecognized(path))
        else:
            path, value, whole = _walk(err["loc"], arguments, key_at_end=False)
            received = _received(value) if path and whole else NOT_GIVEN
            out.append(ArgumentProblem(path, str(err["msg"]), received))
    return out
