"""pydantic's error types, in the shared words of the adapter SDK.

Every JSON-level problem (type, choice, range, multiple, length, pattern,
format) reads the same whichever adapter found it, so pydantic's codes (v2's
``type`` and ``pydantic.v1``'s ``type_error.*``/``value_error.*``) are mapped
onto the SDK's vocabulary functions. A validator's own message (``value_error``,
``assertion_error``, a custom error type) is the one text kept, without
pydantic's ``Value error, `` / ``Assertion failed, `` prefix; so is pydantic's
text where no shared wording fits (a URL scheme restriction, a timezone).

A reason depends on the error type and one value of its context (a bound, a
pattern, the choices), so it is worked out once per pair and remembered: a
call with many problems maps each of them with a dictionary look-up.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from typing import Any

from toolparse.adapter import (
    format_reason,
    length_reason,
    multiple_reason,
    one_of_reason,
    pattern_reason,
    range_reason,
    type_reason,
)

__all__ = [
    "CONTEXTUAL",
    "CUSTOM",
    "FIXED",
    "FIXED_V1",
    "TYPE_KINDS",
    "V1_TYPE_KINDS",
    "choices",
    "custom_text",
    "reason",
    "reason_v1",
]

# -- pydantic 2 -------------------------------------------------------------------

#: each error type that says "not a value of this JSON type", and the type
TYPE_KINDS: dict[str, str] = {
    # (not int_parsing_size: a string of thousands of digits is an integer, too
    # long to parse, and pydantic's text says so)
    **dict.fromkeys(("int_type", "int_parsing", "int_from_float"), "integer"),
    **dict.fromkeys(
        ("float_type", "float_parsing", "decimal_type", "decimal_parsing", "finite_number"),
        "number",
    ),
    **dict.fromkeys(("string_type", "string_unicode", "bytes_type"), "string"),
    **dict.fromkeys(("bool_type", "bool_parsing"), "boolean"),
    **dict.fromkeys(
        (
            "dict_type",
            "frozen_dict_type",
            "ordered_dict_type",
            "counter_type",
            "mapping_type",
            "model_type",
            "model_attributes_type",
            "dataclass_type",
            "dataclass_exact_type",
            "arguments_type",
        ),
        "object",
    ),
    **dict.fromkeys(
        (
            "list_type",
            "tuple_type",
            "set_type",
            "frozen_set_type",
            "deque_type",
            "iterable_type",
            "named_tuple_type",
        ),
        "array",
    ),
    "none_required": "null",
}
_FORMATS = {
    **dict.fromkeys(
        ("date_type", "date_parsing", "date_from_datetime_parsing", "date_from_datetime_inexact"),
        "date",
    ),
    **dict.fromkeys(
        (
            "datetime_type",
            "datetime_parsing",
            "datetime_from_date_parsing",
            "datetime_object_invalid",
        ),
        "date-time",
    ),
    **dict.fromkeys(("time_type", "time_parsing"), "time"),
    **dict.fromkeys(("time_delta_type", "time_delta_parsing"), "duration"),
    **dict.fromkeys(("uuid_type", "uuid_parsing"), "uuid"),
    **dict.fromkeys(("url_type", "url_parsing", "url_syntax_violation"), "uri"),
    "ip_v4_address": "ipv4",
    "ip_v6_address": "ipv6",
}
#: the error types whose reason is always the same words
FIXED: dict[str, str] = {
    **{kind: type_reason(word) for kind, word in TYPE_KINDS.items()},
    **{kind: format_reason(word) for kind, word in _FORMATS.items()},
}
#: the error types a validator raises: its own message is the reason
CUSTOM: dict[str, str] = {"value_error": "Value error, ", "assertion_error": "Assertion failed, "}

# the ctx key of each error type whose reason depends on one value of it
_BOUND_KEYS = {
    "greater_than_equal": "ge",
    "less_than_equal": "le",
    "greater_than": "gt",
    "less_than": "lt",
}
_CTX_KEY = {
    **_BOUND_KEYS,
    "multiple_of": "multiple_of",
    "string_too_short": "min_length",
    "string_too_long": "max_length",
    "too_short": "min_length",
    "too_long": "max_length",
    "url_too_long": "max_length",
    "string_pattern_mismatch": "pattern",
    "literal_error": "expected",
    "enum": "expected",
}
#: the error types whose reason is worked out from a value of their context
CONTEXTUAL = frozenset(_CTX_KEY)
_RANGE = {
    "ge": "minimum",
    "le": "maximum",
    "gt": "exclusive_minimum",
    "lt": "exclusive_maximum",
}

# one value in pydantic's list of choices ("'a', 'b' or 'c'", "1 or 2"): a
# Python literal as repr() wrote it
_LITERAL = re.compile(
    r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|True|False|None"""
)
_SEPARATORS = re.compile(r"(?:, | or )?")
_REMEMBERED = 2048
_remembered: dict[tuple[str, type, Any], str | None] = {}


def choices(expected: str) -> list[Any] | None:
    """The values in pydantic's ``expected`` (``"'a', 'b' or 'c'"``), or ``None`` when unclear.

    Unclear means anything but Python literals joined by ``", "`` and ``" or "``
    (an enum member whose value has no literal repr): pydantic's text is kept then.
    """
    found: list[Any] = []
    at = 0
    for match in _LITERAL.finditer(expected):
        if not _SEPARATORS.fullmatch(expected, at, match.start()):
            return None
        try:
            found.append(ast.literal_eval(match.group()))
        except (ValueError, SyntaxError):
            return None
        at = match.end()
    return found if found and at == len(expected) else None


def _as_written(value: Any) -> Any:
    # pydantic 2 turns ``le=5`` on a float field into 5.0; the user wrote 5
    # (and pydantic.v1 keeps 5), so the bound reads as written
    if type(value) is float and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def _from_context(kind: str, value: Any) -> str | None:
    if kind in _BOUND_KEYS:
        return range_reason(**{_RANGE[_BOUND_KEYS[kind]]: _as_written(value)})
    if kind == "multiple_of":
        return multiple_reason(_as_written(value))
    if kind in ("string_too_short", "too_short"):
        return length_reason(minimum=value, items=kind == "too_short")
    if kind in ("string_too_long", "too_long", "url_too_long"):
        return length_reason(maximum=value, items=kind == "too_long")
    if kind == "string_pattern_mismatch":
        return pattern_reason(str(value))
    values = choices(value) if isinstance(value, str) else None  # literal_error, enum
    return one_of_reason(values) if values else None


def reason(kind: str, ctx: Mapping[str, Any] | None, msg: str) -> str:
    """The reason for a pydantic 2 error that is not one of :data:`FIXED`."""
    prefix = CUSTOM.get(kind)
    if prefix is not None:
        return custom_text(kind, msg, prefix)
    key = _CTX_KEY.get(kind)
    if key is None or not ctx or key not in ctx:
        return msg  # pydantic's own words: no shared wording fits
    value = ctx[key]
    try:
        remembered = (kind, type(value), value)
        found = _remembered.get(remembered, "")
    except TypeError:  # an unhashable value in a custom error's context
        return _from_context(kind, value) or msg
    if found == "":
        found = _from_context(kind, value)
        if len(_remembered) < _REMEMBERED:
            _remembered[remembered] = found
    return found or msg


def custom_text(kind: str, msg: str, prefix: str) -> str:
    """A validator's own message, without the words pydantic puts before it."""
    if kind == "value_error" and msg.startswith("value is not a valid email address"):
        return format_reason("email")  # pydantic's EmailStr raises a plain value_error
    return msg[len(prefix) :] if msg.startswith(prefix) else msg


# -- pydantic.v1 --------------------------------------------------------------------

#: each ``pydantic.v1`` error type that says "not a value of this JSON type", and the type
V1_TYPE_KINDS: dict[str, str] = {
    **dict.fromkeys(("type_error.integer", "type_error.int"), "integer"),
    **dict.fromkeys(
        ("type_error.float", "type_error.decimal", "value_error.number.not_finite_number"),
        "number",
    ),
    **dict.fromkeys(("type_error.str", "type_error.bytes"), "string"),
    **dict.fromkeys(("type_error.bool", "value_error.strictbool"), "boolean"),
    **dict.fromkeys(("type_error.dict", "type_error.dataclass", "type_error.mapping"), "object"),
    **dict.fromkeys(
        (
            "type_error.list",
            "type_error.tuple",
            "type_error.set",
            "type_error.frozenset",
            "type_error.sequence",
            "type_error.deque",
            "type_error.iterable",
        ),
        "array",
    ),
    **dict.fromkeys(("type_error.none.allowed", "type_error.not_none"), "null"),
}
_V1_FORMATS = {
    "value_error.datetime": "date-time",
    "value_error.date": "date",
    "value_error.time": "time",
    "value_error.duration": "duration",
    "type_error.uuid": "uuid",
    "value_error.email": "email",
    "value_error.ipv4address": "ipv4",
    "value_error.ipv6address": "ipv6",
    **dict.fromkeys(
        (
            "value_error.url",
            "value_error.url.host",
            "value_error.url.port",
            "value_error.url.extra",
        ),
        "uri",
    ),
}
#: the ``pydantic.v1`` error types whose reason is always the same words
FIXED_V1: dict[str, str] = {
    **{kind: type_reason(word) for kind, word in V1_TYPE_KINDS.items()},
    **{kind: format_reason(word) for kind, word in _V1_FORMATS.items()},
}
_V1_BOUNDS = {
    "value_error.number.not_ge": "minimum",
    "value_error.number.not_le": "maximum",
    "value_error.number.not_gt": "exclusive_minimum",
    "value_error.number.not_lt": "exclusive_maximum",
}
_V1_LENGTHS: dict[str, tuple[str, bool]] = {
    "value_error.any_str.min_length": ("minimum", False),
    "value_error.any_str.max_length": ("maximum", False),
    **{f"value_error.{kind}.min_items": ("minimum", True) for kind in ("list", "set", "frozenset")},
    **{f"value_error.{kind}.max_items": ("maximum", True) for kind in ("list", "set", "frozenset")},
}


def _v1_enum(ctx: Mapping[str, Any]) -> str | None:
    members = ctx.get("enum_values")
    return one_of_reason([getattr(m, "value", m) for m in members]) if members else None


def _v1_const(ctx: Mapping[str, Any]) -> str | None:
    permitted = ctx.get("permitted")
    return one_of_reason(list(permitted)) if permitted else None


def _v1_regex(ctx: Mapping[str, Any]) -> str | None:
    pattern = ctx.get("pattern")
    return pattern_reason(str(pattern)) if pattern is not None else None


def _v1_multiple(ctx: Mapping[str, Any]) -> str | None:
    return multiple_reason(_as_written(ctx["multiple_of"])) if "multiple_of" in ctx else None


def _v1_scheme(ctx: Mapping[str, Any]) -> str | None:
    # without allowed schemes the URL has none at all: not an absolute URI;
    # a scheme that is not allowed has no shared words (pydantic's are kept)
    return None if ctx.get("allowed_schemes") else format_reason("uri")


_V1_FROM_CONTEXT: dict[str, Callable[[Mapping[str, Any]], str | None]] = {
    "type_error.enum": _v1_enum,
    "value_error.const": _v1_const,
    "value_error.str.regex": _v1_regex,
    "value_error.number.not_multiple": _v1_multiple,
    "value_error.url.scheme": _v1_scheme,
}


# pydantic.v1 parses dates and times with a plain TypeError for a value of
# the wrong JSON type (no code of its own): its fixed message says which
_V1_WRONG_TYPE = {
    f"invalid type; expected {name}, string, bytes, int or float": format_reason(fmt)
    for name, fmt in (
        ("date", "date"),
        ("datetime", "date-time"),
        ("time", "time"),
        ("timedelta", "duration"),
    )
}


def reason_v1(kind: str, ctx: Mapping[str, Any] | None, msg: str) -> str:
    """The reason for a ``pydantic.v1`` error that is not one of :data:`FIXED_V1`."""
    if kind == "type_error":
        return _V1_WRONG_TYPE.get(msg, msg)
    ctx = ctx or {}
    word = _V1_BOUNDS.get(kind)
    if word is not None and "limit_value" in ctx:
        return range_reason(**{word: _as_written(ctx["limit_value"])})
    length = _V1_LENGTHS.get(kind)
    if length is not None and "limit_value" in ctx:
        bound, items = length
        return length_reason(**{bound: ctx["limit_value"]}, items=items)
    found = _V1_FROM_CONTEXT.get(kind)
    return (found(ctx) if found is not None else None) or msg
