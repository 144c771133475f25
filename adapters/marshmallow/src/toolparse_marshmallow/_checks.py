"""A field's validators: the text each raises with marshmallow's own message, and its meaning.

Only a validator whose message is marshmallow's default is explained (the
text is worked out from marshmallow's own templates and the validator's
settings, so a custom ``error=`` or a subclass with other messages never
matches); every other validator keeps a place in the order, with its text
when it has a fixed one, so that its text is not taken for another's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import validate

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import (
    format_reason,
    length_reason,
    none_of_reason,
    one_of_reason,
    pattern_reason,
    range_reason,
)

from ._keywords import NO_JSON, flatten, json_value, json_values, regexp_pattern

__all__ = ["ECHOED", "Check", "Explain", "Path", "checks", "received"]

Path = tuple[str | int, ...]
#: what one failure text stands for: the reason itself, or a function of where
#: it is and the value received there giving the reason, the problems (at the
#: items of a list), or ``None`` (no shared words fit; the text is kept)
Explain = str | Callable[[Path, Any], "str | list[ArgumentProblem] | None"]

#: one validator: the text it raises (``None``: unknown) and its meaning (``None``: kept)
Check = tuple[str | None, Explain | None]

#: the received values a problem echoes (a mapping is not echoed)
ECHOED = (str, int, float, bool, type(None), list, tuple)


def received(value: Any) -> Any:
    """``value`` as a problem echoes it (``NOT_GIVEN``: not echoed)."""
    return value if isinstance(value, ECHOED) else NOT_GIVEN


def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


def _own_field(field: Any) -> bool:
    return type(field).__module__.partition(".")[0] == "marshmallow"


def _below(field: Any, v: validate.Range, value: Any) -> bool | None:
    """Whether ``value`` failed ``v``'s lower bound (``None``: cannot tell)."""
    sent = value
    if not _is_number(sent):
        if not _own_field(field):
            return None  # a custom field's conversion is the user's code: not run twice
        try:
            sent = field._deserialize(value, None, None)
        except Exception:
            return None
    try:
        return bool(sent < v.min if getattr(v, "min_inclusive", True) else sent <= v.min)
    except TypeError:
        return None


def _range(field: Any, v: validate.Range) -> tuple[str, Explain] | None:
    if v.error is not None:
        return None
    base = validate.Range
    low_in = getattr(v, "min_inclusive", True)
    high_in = getattr(v, "max_inclusive", True)
    min_op = getattr(base, "message_gte" if low_in else "message_gt", "")
    max_op = getattr(base, "message_lte" if high_in else "message_lt", "")
    low = None if v.min is None else json_value(field, v.min)
    high = None if v.max is None else json_value(field, v.max)
    if low is NO_JSON or high is NO_JSON:
        return None
    low_reason = (
        (range_reason(minimum=low) if low_in else range_reason(exclusive_minimum=low))
        if low is not None
        else None
    )
    high_reason = (
        (range_reason(maximum=high) if high_in else range_reason(exclusive_maximum=high))
        if high is not None
        else None
    )
    if low_reason is not None and high_reason is not None:
        template = str(base.message_all).format(min_op=min_op, max_op=max_op)
    elif low_reason is not None:
        template = str(base.message_min).format(min_op=min_op)
    elif high_reason is not None:
        template = str(base.message_max).format(max_op=max_op)
    else:
        return None
    text = template.format(input="", min=v.min, max=v.max)
    if low_reason is None or high_reason is None:
        return text, (low_reason or high_reason or "")

    def explain(path: Path, value: Any) -> str | None:
        below = _below(field, v, value)
        if below is None:
            return None
        return low_reason if below else high_reason

    return text, explain


def _length(v: validate.Length) -> tuple[str, Explain] | None:
    if v.error is not None:
        return None
    base = validate.Length
    low = v.equal if v.equal is not None else v.min
    high = v.equal if v.equal is not None else v.max
    if v.equal is not None:
        template = base.message_equal
    elif low is not None and high is not None:
        template = base.message_all
    elif low is not None:
        template = base.message_min
    elif high is not None:
        template = base.message_max
    else:
        return None
    text = str(template).format(input="", min=v.min, max=v.max, equal=v.equal)

    def explain(path: Path, value: Any) -> str | None:
        # characters for a string, items for a list; a mapping's size has no
        # shared words
        if isinstance(value, str):
            items = False
        elif isinstance(value, (list, tuple)):
            items = True
        else:
            return None
        if low is not None and (high is None or len(value) < low):
            return length_reason(minimum=low, items=items)
        return length_reason(maximum=high, items=items)

    return text, explain


def _member_check(
    choices: list[Any], reason: str, *, among: bool
) -> Callable[[Path, Any], list[ArgumentProblem] | None]:
    """``ContainsOnly``/``ContainsNoneOf``: a problem at each offending item."""

    def explain(path: Path, value: Any) -> list[ArgumentProblem] | None:
        if not isinstance(value, (list, tuple)):
            return None
        found = [
            ArgumentProblem((*path, i), reason, received(item))
            for i, item in enumerate(value)
            if _is_member(item, choices) is not among
        ]
        return found or None  # marshmallow converted the items: the text says it

    return explain


def _is_member(item: Any, choices: list[Any]) -> bool:
    return any(item == c and type(item) is type(c) for c in choices)


def _text(template: Any, **names: Any) -> str | None:
    try:
        return str(template).format(input="", **names)
    except (KeyError, IndexError, ValueError):
        return None


def _check(field: Any, v: Any) -> Check:
    """One validator: its default failure text and what it means."""
    if isinstance(v, validate.Range):
        return _range(field, v) or (_default(v), None)
    if isinstance(v, validate.Length):
        return _length(v) or (_default(v), None)
    inner = getattr(field, "inner", None)
    if isinstance(v, validate.ContainsOnly):
        values = json_values(inner, v.choices) if inner is not None else None
        if v.error != validate.ContainsOnly.default_message or values is None:
            return _default(v), None
        text = _text(v.error, choices=v.choices_text, labels=v.labels_text)
        return text, _member_check(values, one_of_reason(values), among=True)
    if isinstance(v, validate.ContainsNoneOf):
        values = json_values(inner, v.iterable) if inner is not None else None
        if v.error != validate.ContainsNoneOf.default_message or values is None:
            return _default(v), None
        text = _text(v.error, values=v.values_text)
        return text, _member_check(values, none_of_reason(values), among=False)
    if isinstance(v, validate.OneOf):
        values = json_values(field, v.choices)
        if v.error != validate.OneOf.default_message or values is None:
            return _default(v), None
        return _text(v.error, choices=v.choices_text, labels=v.labels_text), (one_of_reason(values))
    if isinstance(v, validate.NoneOf):
        values = json_values(field, v.iterable)
        if v.error != validate.NoneOf.default_message or values is None:
            return _default(v), None
        return _text(v.error, values=v.values_text), (none_of_reason(values))
    if isinstance(v, validate.Equal):
        value = json_value(field, v.comparable)
        if v.error != validate.Equal.default_message or value is NO_JSON:
            return _default(v), None
        return _text(v.error, other=v.comparable), (one_of_reason([value]))
    if isinstance(v, validate.Regexp):
        pattern = regexp_pattern(v)
        if v.error != validate.Regexp.default_message or pattern is None:
            return _default(v), None
        return _text(v.error, regex=v.regex.pattern), (pattern_reason(pattern))
    if isinstance(v, validate.Email):
        if v.error != validate.Email.default_message:
            return _default(v), None
        return _text(v.error), (format_reason("email"))
    if isinstance(v, validate.URL):
        if v.error != validate.URL.default_message:
            return _default(v), None
        return _text(v.error), (format_reason("uri-reference" if v.relative else "uri"))
    return _default(v), None


def _default(v: Any) -> str | None:
    """The text of a validator kept as written (so it is not taken for another's)."""
    error = getattr(v, "error", None)
    if isinstance(v, validate.Validator) and isinstance(error, str) and "{" not in error:
        return error
    return None


def checks(field: Any) -> tuple[Check, ...]:
    """Each of ``field``'s validators, in the order marshmallow runs them."""
    found: list[Any] = []
    own_length = getattr(field, "validate_length", None)  # a Tuple's own size check
    if isinstance(own_length, validate.Length):
        found.append(own_length)
    found.extend(flatten(field.validators))
    return tuple(_check(field, v) for v in found)
