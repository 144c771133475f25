"""pydantic's error types, in the shared words of the adapter SDK.

Every JSON-level problem (type, choice, range, multiple, length, pattern,
format) reads the same whichever adapter found it, so pydantic's codes (v2's
``type`` and ``pydantic.v1``'s ``type_error.*``/``value_error.*``, which never
share a name) are mapped onto the SDK's vocabulary in one table. A validator's
own message (``value_error``, ``assertion_error``, a custom error type) is the
one text kept, without pydantic's ``Value error, `` / ``Assertion failed, ``
prefix; so is pydantic's text where no shared wording fits (a URL scheme
restriction, a timezone).
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

__all__ = ["FIXED", "TYPE_KINDS", "choices", "reason"]


def _kinds(words: dict[str, str]) -> dict[str, str]:
    """``{"a b": word}`` as ``{"a": word, "b": word}``: many error types, one word."""
    return {kind: word for names, word in words.items() for kind in names.split()}


#: each error type that says "not a value of this JSON type", and the type
TYPE_KINDS: dict[str, str] = _kinds(
    {
        # (not int_parsing_size: a string of thousands of digits is an integer,
        # too long to parse, and pydantic's text says so)
        "int_type int_parsing int_from_float type_error.integer type_error.int": "integer",
        "float_type float_parsing decimal_type decimal_parsing finite_number"
        " type_error.float type_error.decimal value_error.number.not_finite_number": "number",
        "string_type string_unicode bytes_type type_error.str type_error.bytes": "string",
        "bool_type bool_parsing type_error.bool value_error.strictbool": "boolean",
        "dict_type frozen_dict_type ordered_dict_type counter_type mapping_type model_type"
        " model_attributes_type dataclass_type dataclass_exact_type arguments_type"
        " type_error.dict type_error.dataclass type_error.mapping": "object",
        "list_type tuple_type set_type frozen_set_type deque_type iterable_type"
        " named_tuple_type type_error.list type_error.tuple type_error.set"
        " type_error.frozenset type_error.sequence type_error.deque type_error.iterable": "array",
        "none_required type_error.none.allowed type_error.not_none": "null",
    }
)
_FORMATS = _kinds(
    {
        "date_type date_parsing date_from_datetime_parsing date_from_datetime_inexact"
        " value_error.date": "date",
        "datetime_type datetime_parsing datetime_from_date_parsing datetime_object_invalid"
        " value_error.datetime": "date-time",
        "time_type time_parsing value_error.time": "time",
        "time_delta_type time_delta_parsing value_error.duration": "duration",
        "uuid_type uuid_parsing type_error.uuid": "uuid",
        "url_type url_parsing url_syntax_violation value_error.url value_error.url.host"
        " value_error.url.port value_error.url.extra": "uri",
        "ip_v4_address value_error.ipv4address": "ipv4",
        "ip_v6_address value_error.ipv6address": "ipv6",
        "value_error.email": "email",
    }
)
#: the error types whose reason is always the same words
FIXED: dict[str, str] = {
    **{kind: type_reason(word) for kind, word in TYPE_KINDS.items()},
    **{kind: format_reason(word) for kind, word in _FORMATS.items()},
}
#: the error types a validator raises: its own message is the reason, without this prefix
_CUSTOM = {"value_error": "Value error, ", "assertion_error": "Assertion failed, "}


def _as_written(value: Any) -> Any:
    # pydantic 2 turns ``le=5`` on a float field into 5.0; the user wrote 5
    # (and pydantic.v1 keeps 5), so the bound reads as written
    if type(value) is float and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def _bound(word: str) -> Callable[[Any], str]:
    return lambda value: range_reason(**{word: _as_written(value)})


def _length(word: str, items: bool) -> Callable[[Any], str]:
    return lambda value: length_reason(**{word: value}, items=items)


def _listed(expected: Any) -> str | None:
    values = choices(expected) if isinstance(expected, str) else None
    return one_of_reason(values) if values else None


def _multiple(value: Any) -> str:
    return multiple_reason(_as_written(value))


def _pattern(value: Any) -> str | None:
    return None if value is None else pattern_reason(str(value))


def _permitted(values: Any) -> str | None:
    return one_of_reason(list(values)) if values else None


def _members(members: Any) -> str | None:
    # a pydantic.v1 enum's members: their values are what the model sends
    return one_of_reason([getattr(m, "value", m) for m in members]) if members else None


_MIN, _MAX = _length("minimum", False), _length("maximum", False)
_MIN_ITEMS, _MAX_ITEMS = _length("minimum", True), _length("maximum", True)

# each error type whose reason is worked out from one value of its context:
# the context key, and the reason of its value (``None``: pydantic's text stays)
_FROM_CONTEXT: dict[str, tuple[str, Callable[[Any], str | None]]] = {
    "greater_than_equal": ("ge", _bound("minimum")),
    "less_than_equal": ("le", _bound("maximum")),
    "greater_than": ("gt", _bound("exclusive_minimum")),
    "less_than": ("lt", _bound("exclusive_maximum")),
    "multiple_of": ("multiple_of", _multiple),
    "string_too_short": ("min_length", _MIN),
    "string_too_long": ("max_length", _MAX),
    "url_too_long": ("max_length", _MAX),
    "too_short": ("min_length", _MIN_ITEMS),
    "too_long": ("max_length", _MAX_ITEMS),
    "string_pattern_mismatch": ("pattern", _pattern),
    "literal_error": ("expected", _listed),
    "enum": ("expected", _listed),
    # pydantic.v1
    "value_error.number.not_ge": ("limit_value", _bound("minimum")),
    "value_error.number.not_le": ("limit_value", _bound("maximum")),
    "value_error.number.not_gt": ("limit_value", _bound("exclusive_minimum")),
    "value_error.number.not_lt": ("limit_value", _bound("exclusive_maximum")),
    "value_error.number.not_multiple": ("multiple_of", _multiple),
    "value_error.any_str.min_length": ("limit_value", _MIN),
    "value_error.any_str.max_length": ("limit_value", _MAX),
    **{f"value_error.{k}.min_items": ("limit_value", _MIN_ITEMS) for k in ("list", "set")},
    **{f"value_error.{k}.max_items": ("limit_value", _MAX_ITEMS) for k in ("list", "set")},
    "value_error.frozenset.min_items": ("limit_value", _MIN_ITEMS),
    "value_error.frozenset.max_items": ("limit_value", _MAX_ITEMS),
    "value_error.str.regex": ("pattern", _pattern),
    "value_error.const": ("permitted", _permitted),
    "type_error.enum": ("enum_values", _members),
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

# one value in pydantic's list of choices ("'a', 'b' or 'c'", "1 or 2"): a
# Python literal as repr() wrote it
_LITERAL = re.compile(
    r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|True|False|None"""
)
_SEPARATORS = re.compile(r"(?:, | or )?")

# a reason depends on the error type and one value of its context, and a
# call with many problems has the same few pairs: each is worked out once
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


def reason(kind: str, ctx: Mapping[str, Any] | None, msg: str) -> str:
    """The reason for an error of type ``kind`` that is not one of :data:`FIXED`."""
    entry = _FROM_CONTEXT.get(kind)
    if entry is None:
        return _own_words(kind, ctx, msg)
    key, words = entry
    if not ctx or key not in ctx:
        return msg  # a custom error of that type, without the value: its own words
    value = ctx[key]
    try:
        remembered = (kind, type(value), value)
        found = _remembered.get(remembered, "")
    except TypeError:  # an unhashable value (a list in a custom error's context)
        return words(value) or msg
    if found == "":
        found = words(value)
        if len(_remembered) < _REMEMBERED:
            _remembered[remembered] = found
    return found or msg


def _own_words(kind: str, ctx: Mapping[str, Any] | None, msg: str) -> str:
    """The reason of an error whose context holds no value to word: mostly pydantic's text."""
    prefix = _CUSTOM.get(kind)
    if prefix is not None:
        if kind == "value_error" and msg.startswith("value is not a valid email address"):
            return format_reason("email")  # pydantic's EmailStr raises a plain value_error
        return msg.removeprefix(prefix)
    if kind == "type_error":
        return _V1_WRONG_TYPE.get(msg, msg)
    if kind == "value_error.url.scheme" and not (ctx and ctx.get("allowed_schemes")):
        # no allowed schemes named: the URL has no scheme at all, not an absolute URI
        # (a scheme that is not allowed has no shared words: pydantic's are kept)
        return format_reason("uri")
    return msg  # pydantic's own words: no shared wording fits
