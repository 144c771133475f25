"""A field's validators, by type: the JSON Schema keywords each adds, and what its text means.

Each built-in validator (``Range``, ``Length``, ``OneOf``, ``Regexp``, ...) adds
the keywords that say the same in JSON Schema, and gives the exact text it
raises with marshmallow's default message and that text's meaning in the shared
words. A validator with its own ``error=`` or message, or a plain function,
raises other texts, which keep their words.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from marshmallow import fields, validate

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import (
    format_reason,
    length_reason,
    none_of_reason,
    one_of_reason,
    pattern_reason,
    range_reason,
)

from ._fields import JSON, NO_JSON, json_value, json_values
from ._reasons import ECHOED, Meaning, Path, Texts, field_own

__all__ = ["field_texts"]

#: a validator's default text and its meaning (``None``: its words stay)
Said = tuple[str, Meaning] | None


def field_texts(field: fields.Field[Any], own: JSON) -> Texts:
    """What ``field``'s texts mean; its validators' keywords are added to ``own`` (its schema).

    A text that several validators raise with different meanings keeps one
    per validator, in the order marshmallow runs them (see :class:`Texts`).
    """
    # the field's own texts are worded by its own type, before the validators add to it
    single = field_own(field, own)
    said: dict[str, list[Meaning]] = {}
    for text, meaning in _validators(field, own):
        if text is not None and text not in single:
            said.setdefault(text, []).append(meaning)
    alike: dict[str, tuple[Meaning, ...]] = {}
    for text, found in said.items():
        if all(m == found[0] for m in found):
            single[text] = found[0]
        else:
            alike[text] = tuple(found)
    required = field.error_messages.get("required")
    return Texts(single, alike, required if isinstance(required, str) else None)


def _validators(field: fields.Field[Any], own: JSON) -> Iterator[tuple[str | None, Meaning]]:
    """Add what each validator says to ``own``; yield its text and meaning, in the order run.

    A validator whose words stay still gives its text when it is fixed (so
    that it is not taken for another's), with no meaning.
    """
    types = _types_of(own)
    own_length = getattr(field, "validate_length", None)  # a Tuple's own size check
    found = [own_length] if isinstance(own_length, validate.Length) else []
    for v in [*found, *_flatten(field.validators)]:
        said = None
        for kind, read in _BY_TYPE:
            if isinstance(v, kind):
                said = read(field, v, own, types)
                break
        error = getattr(v, "error", None)
        kept = error if isinstance(error, str) and "{" not in error else None
        yield said or (kept if isinstance(v, validate.Validator) else None, None)


def _types_of(schema: JSON) -> set[str]:
    """The JSON types ``schema`` names."""
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {k for k in kind if isinstance(k, str)}
    return set()


def _flatten(validators: Iterable[Any]) -> Iterator[Any]:
    """The validators in the order marshmallow runs them, ``And`` opened up."""
    for validator in validators:
        inner = getattr(validate, "And", None)
        if inner is not None and isinstance(validator, inner):
            yield from _flatten(validator.validators)
        else:
            yield validator


#: regex flags a JSON Schema pattern cannot carry without changing its meaning;
#: IGNORECASE is left out on purpose: without it the pattern only gets stricter
_UNSUPPORTED_FLAGS: Final = re.MULTILINE | re.DOTALL | re.VERBOSE


def _pattern(validator: validate.Regexp) -> str | None:
    """The JSON Schema ``pattern`` that says what ``validator`` does (``None``: none does)."""
    regex = validator.regex
    if regex.flags & _UNSUPPORTED_FLAGS:
        return None
    source = regex.pattern
    if not isinstance(source, str):
        return None
    if source.startswith(("^", "\\A")):
        return source
    if source.startswith("(?") and not source.startswith(("(?:", "(?P", "(?=", "(?!", "(?<")):
        return None  # inline flags must stay first: cannot anchor it as re.match does
    # marshmallow matches at the start of the string (re.match); a JSON Schema
    # pattern matches anywhere, so anchor it
    return f"^(?:{source})"


def _said(v: Any, base: type, meaning: Meaning, **names: Any) -> Said:
    """The text ``v`` raises when its message is ``base``'s default, and what it means."""
    if meaning is None or v.error != getattr(base, "default_message", None):
        return None
    return str(v.error).format(input="", **names), meaning


def _tighten(schema: JSON, key: str, value: Any, *, lower: bool) -> None:
    if key in schema:
        value = max(schema[key], value) if lower else min(schema[key], value)
    schema[key] = value


def _restrict(schema: JSON, values: list[Any]) -> None:
    if "enum" in schema:
        values = [v for v in schema["enum"] if v in values]
    schema["enum"] = values


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _range(field: Any, v: validate.Range, own: JSON, types: set[str]) -> Said:
    low = None if v.min is None else json_value(field, v.min)
    high = None if v.max is None else json_value(field, v.max)
    if types & {"integer", "number"}:
        if _number(low):
            _tighten(own, "minimum" if v.min_inclusive else "exclusiveMinimum", low, lower=True)
        if _number(high):
            _tighten(own, "maximum" if v.max_inclusive else "exclusiveMaximum", high, lower=False)
    if v.error is not None or NO_JSON in (low, high) or low is high is None:
        return None
    base = validate.Range
    ops = {
        "min_op": base.message_gte if v.min_inclusive else base.message_gt,
        "max_op": base.message_lte if v.max_inclusive else base.message_lt,
    }
    below = range_reason(**{"minimum" if v.min_inclusive else "exclusive_minimum": low})
    above = range_reason(**{"maximum" if v.max_inclusive else "exclusive_maximum": high})
    meaning: Meaning
    if high is None:
        text, meaning = base.message_min.format(**ops), below
    elif low is None:
        text, meaning = base.message_max.format(**ops), above
    else:
        text, meaning = base.message_all.format(**ops), _bound(field, v, below, above)
    return text.format(input="", min=v.min, max=v.max), meaning


def _bound(field: Any, v: validate.Range, below: str, above: str) -> Meaning:
    """Which bound of a two-sided ``Range`` the value crossed (marshmallow's text names both)."""
    again: list[Any] = []  # the field without its validators, made when first needed

    def meaning(path: Path, value: Any) -> str | None:
        sent = value
        if not _number(value):
            if type(field).__module__.partition(".")[0] != "marshmallow":
                return None  # a custom field's conversion is the user's code: not run twice
            if not again:
                clone = copy.copy(field)
                clone.validators = []
                again.append(clone)
            try:
                sent = again[0].deserialize(value)
            except Exception:
                return None
        try:
            return below if (sent < v.min if v.min_inclusive else sent <= v.min) else above
        except TypeError:
            return None

    return meaning


#: the size keywords of each JSON type
_SIZES: Final = (
    ("string", "minLength", "maxLength"),
    ("array", "minItems", "maxItems"),
    ("object", "minProperties", "maxProperties"),
)


def _length(field: Any, v: validate.Length, own: JSON, types: set[str]) -> Said:
    low = v.equal if v.equal is not None else v.min
    high = v.equal if v.equal is not None else v.max
    for kind, least, most in _SIZES:
        if kind in types:
            if low is not None:
                _tighten(own, least, int(low), lower=True)
            if high is not None:
                _tighten(own, most, int(high), lower=False)
            break
    if v.error is not None or low is high is None:
        return None
    base = validate.Length
    if v.equal is not None:
        template = base.message_equal
    elif low is not None and high is not None:
        template = base.message_all
    else:
        template = base.message_min if low is not None else base.message_max

    def meaning(path: Path, value: Any) -> str | None:
        # characters for a string, items for a list; a mapping's size has no shared words
        if not isinstance(value, (str, list, tuple)):
            return None
        items = not isinstance(value, str)
        if low is not None and (high is None or len(value) < low):
            return length_reason(minimum=low, items=items)
        return length_reason(maximum=high, items=items)

    return template.format(input="", min=v.min, max=v.max, equal=v.equal), meaning


def _members(values: list[Any], reason: str, *, among: bool) -> Meaning:
    """``ContainsOnly``/``ContainsNoneOf``: a problem at each offending item."""

    def meaning(path: Path, value: Any) -> list[ArgumentProblem] | None:
        if not isinstance(value, (list, tuple)):
            return None
        found = [
            ArgumentProblem((*path, i), reason, item if isinstance(item, ECHOED) else NOT_GIVEN)
            for i, item in enumerate(value)
            if any(item == c and type(item) is type(c) for c in values) is not among
        ]
        return found or None  # marshmallow converted the items: its text says it

    return meaning


def _contains(field: Any, v: Any, own: JSON, types: set[str]) -> Said:
    among = isinstance(v, validate.ContainsOnly)
    inner = getattr(field, "inner", None)
    values = None if inner is None else json_values(inner, v.choices if among else v.iterable)
    if values is None:
        return None
    items = own.setdefault("items", {}) if "array" in types else None
    if isinstance(items, dict) and among:
        _restrict(items, values)
    elif isinstance(items, dict):
        items.setdefault("not", {"enum": values})
    if among:
        meaning = _members(values, one_of_reason(values), among=True)
        return _said(
            v, validate.ContainsOnly, meaning, choices=v.choices_text, labels=v.labels_text
        )
    meaning = _members(values, none_of_reason(values), among=False)
    return _said(v, validate.ContainsNoneOf, meaning, values=v.values_text)


def _one_of(field: Any, v: validate.OneOf, own: JSON, types: set[str]) -> Said:
    values = json_values(field, v.choices)
    if values is not None:
        _restrict(own, values)
    reason = None if values is None else one_of_reason(values)
    return _said(v, validate.OneOf, reason, choices=v.choices_text, labels=v.labels_text)


def _none_of(field: Any, v: validate.NoneOf, own: JSON, types: set[str]) -> Said:
    values = json_values(field, v.iterable)
    if values is not None and "not" not in own:
        own["not"] = {"enum": values}
    reason = None if values is None else none_of_reason(values)
    return _said(v, validate.NoneOf, reason, values=v.values_text)


def _equal(field: Any, v: validate.Equal, own: JSON, types: set[str]) -> Said:
    value = json_value(field, v.comparable)
    if value is NO_JSON:
        return None
    own["const"] = value
    return _said(v, validate.Equal, one_of_reason([value]), other=v.comparable)


def _regexp(field: Any, v: validate.Regexp, own: JSON, types: set[str]) -> Said:
    pattern = _pattern(v)
    if pattern is None:
        return None
    if "string" in types:
        own.setdefault("pattern", pattern)
    return _said(v, validate.Regexp, pattern_reason(pattern), regex=v.regex.pattern)


def _format(field: Any, v: Any, own: JSON, types: set[str]) -> Said:
    base = validate.Email if isinstance(v, validate.Email) else validate.URL
    fmt = "email" if base is validate.Email else "uri-reference" if v.relative else "uri"
    if "string" in types:
        own.setdefault("format", fmt)
    return _said(v, base, format_reason(fmt))


#: each built-in validator type and how it is read (a subclass before its
#: base: ContainsOnly is a OneOf, ContainsNoneOf a NoneOf)
_BY_TYPE: Final[tuple[tuple[type, Callable[[Any, Any, JSON, set[str]], Said]], ...]] = (
    (validate.Range, _range),
    (validate.Length, _length),
    (validate.ContainsOnly, _contains),
    (validate.ContainsNoneOf, _contains),
    (validate.OneOf, _one_of),
    (validate.NoneOf, _none_of),
    (validate.Equal, _equal),
    (validate.Regexp, _regexp),
    (validate.Email, _format),
    (validate.URL, _format),
)
