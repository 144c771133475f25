"""attrs' validators, read from their public data: what each is, what it asks for, its keywords.

attrs' validator classes are private, but each is what one public factory
returns (``attrs.validators.ge`` ...), so a validator is recognised by the
type its factory gives, and read from the attributes the factory sets
(``bound``, ``max_length``, ``options``, ``pattern``, ``member_validator``
...). attrs' own texts are written for a programmer (``'age' must be >= 0:
-1``); the model reads the SDK's shared words, worded from that data (an
``or_`` swallows its alternatives' failures, so each says what it wants from
itself). A validator of yours keeps its message, made safe (no class reprs,
no addresses, one line), and has no JSON Schema keyword.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import attrs
from attrs import validators

from toolparse.adapter import (
    TYPE_WORDS,
    length_reason,
    one_of_reason,
    pattern_reason,
    range_reason,
    type_reason,
)
from toolparse.messages import safe_text, value_text

from ._types import NoneType, describe, is_model

__all__ = ["apply_keywords", "custom", "instance_of_type", "kind", "parts", "reason"]


_V: Any = validators
# each validator class, by what its public factory makes
_KINDS: dict[type, str] = {
    type(_V.instance_of(int)): "instance_of",
    type(_V.in_(())): "in",
    type(_V.matches_re("a")): "matches_re",
    type(_V.ge(0)): "number",
    type(_V.min_len(0)): "min_len",
    type(_V.max_len(0)): "max_len",
    type(_V.is_callable()): "is_callable",
    type(_V.optional(_V.is_callable())): "optional",
    type(_V.and_()): "and",
    type(_V.not_(_V.is_callable())): "not",
    type(_V.deep_iterable(_V.is_callable())): "deep_iterable",
    type(_V.deep_mapping(_V.is_callable(), _V.is_callable())): "deep_mapping",
}
if hasattr(_V, "or_"):  # attrs >= 24.1
    _KINDS[type(_V.or_())] = "or"


def kind(validator: Any) -> str | None:
    """Which of attrs' validators ``validator`` is (``"number"``, ``"and"`` ...); ``None``: yours."""
    return _KINDS.get(type(validator))


def parts(validator: Any) -> Iterator[Any]:
    """The validators inside ``and_`` (and a list of them), in order; any other is itself.

    ``and_`` keeps its parts in its one field: read through attrs' own
    introspection of an attrs class (``attrs.astuple``), not by the field's
    name. Should that ever not be a tuple of validators, ``and_`` is one
    validator of its own (its exception's words, no keywords).
    """
    if validator is None:
        return
    if isinstance(validator, (list, tuple)):
        for v in validator:
            yield from parts(v)
        return
    if kind(validator) == "and" and attrs.has(type(validator)):
        found = attrs.astuple(validator, recurse=False)
        inner = found[0] if len(found) == 1 else None
        if isinstance(inner, tuple) and all(callable(v) for v in inner):
            for v in inner:
                yield from parts(v)
            return
    yield validator


def instance_of_type(validator: Any) -> Any:
    """The type an ``instance_of`` validator asks for (``None``: there is none)."""
    for v in parts(validator):
        if kind(v) == "instance_of":
            wanted = v.type
            if isinstance(wanted, tuple):
                return wanted[0] if len(wanted) == 1 else None
            return wanted
    return None


# -- words ----------------------------------------------------------------------

#: attrs' own text for a ``not_`` given no ``msg`` (anything else is yours)
_NOT_DEFAULT = "not_ validator child '{validator!r}' did not raise a captured error"
_ANOTHER = "must pass another check"
_RANGES = {">=": "minimum", "<=": "maximum", ">": "exclusive_minimum", "<": "exclusive_maximum"}
# a class repr in a message of your own reads as the class name alone
_CLASS_REPR = re.compile(r"<(?:class|enum) '(?:[\w.]*\.)?(\w+)'>")


def reason(validator: Any, exc: BaseException, value: Any, *, nullable: bool = False) -> str:
    """Why ``validator`` refused ``value`` (it raised ``exc``), in plain words.

    ``nullable``: the validator sits inside ``optional``, so a wrong type
    says that ``null`` is allowed too.
    """
    which = kind(validator)
    if which == "not" and validator.msg != _NOT_DEFAULT:
        return custom(exc)  # a message you gave not_()
    words = wants(validator, value)
    if words is None:
        # yours: its own message (a not_ of yours: what it refuses has no name)
        return "is not allowed" if which == "not" else custom(exc)
    if nullable and which == "instance_of":
        return f"{words} or null"
    return words


def wants(validator: Any, value: Any = None) -> str | None:
    """What ``validator`` asks for, as ``must ...``; ``None`` when it is not attrs' own.

    ``value`` decides between characters and items for the length validators.
    """
    which = kind(validator)
    if which == "instance_of":
        kinds = validator.type if isinstance(validator.type, tuple) else (validator.type,)
        return "must be " + " or ".join(dict.fromkeys(_type_words(k) for k in kinds))
    if which == "in":
        return _one_of(validator.options)
    if which == "matches_re":
        pattern = validator.pattern.pattern
        if isinstance(pattern, bytes):
            pattern = pattern.decode("utf-8", "replace")
        return pattern_reason(pattern)
    if which == "number":
        bound = _RANGES.get(validator.compare_op)
        return None if bound is None else range_reason(**{bound: validator.bound})
    if which == "min_len":
        return length_reason(minimum=validator.min_length, items=not isinstance(value, str))
    if which == "max_len":
        return length_reason(maximum=validator.max_length, items=not isinstance(value, str))
    if which == "is_callable":
        return "must be callable"
    return _composite(which, validator, value)


def _composite(which: str | None, validator: Any, value: Any) -> str | None:
    """:func:`wants` of a validator made of others."""
    if which == "optional":
        inner = wants(validator.validator, value)
        return None if inner is None else _join([type_reason("null"), inner], "or")
    if which == "and":
        known = [w for w in (wants(v, value) for v in parts(validator)) if w is not None]
        return _join(known, "and") if known else None
    if which == "or":
        return _join([wants(v, value) or _unknown(v) for v in validator.validators], "or")
    if which == "not":
        inner = wants(validator.validator, value)
        if inner is None:
            named = _unknown(validator.validator)
            return None if named == _ANOTHER else "must not " + named.removeprefix("must ")
        return "must not " + inner.removeprefix("must ")
    if which == "deep_iterable":
        return _deep(validator.iterable_validator, "array", "item", validator.member_validator)
    if which == "deep_mapping":
        outer = getattr(validator, "mapping_validator", None)
        return _deep(outer, "object", "value", validator.value_validator)
    return None


def _join(reasons: list[str], word: str) -> str:
    """``must be an integer or one of: 1, 2``: the parts said once, after one ``must``."""
    verbs: list[str] = []
    for text in dict.fromkeys(reasons):
        verb = text.removeprefix("must ")
        if verbs and verbs[-1].startswith("be ") and verb.startswith("be "):
            verb = verb.removeprefix("be ")
        verbs.append(verb)
    # a part that is a list or a compound itself is set apart with a comma
    compound = any("," in v or " or " in v or " and " in v for v in verbs)
    return "must " + (f", {word} " if compound else f" {word} ").join(verbs)


def custom(exc: BaseException) -> str:
    """The first line of an exception's own message, made safe for the model."""
    text = str(exc.args[0]) if exc.args and isinstance(exc.args[0], str) else _text(exc)
    first = text.strip().splitlines()[0] if text.strip() else ""
    return safe_text(_CLASS_REPR.sub(r"\1", first)) or "Invalid value"


def _text(exc: BaseException) -> str:
    try:
        return str(exc)
    except Exception:  # a broken __str__: the type is all there is to say
        return ""


def _type_words(tp: Any) -> str:
    words = describe(tp)
    if words is not None:
        return words
    if is_model(tp):
        return TYPE_WORDS["object"]
    return f'of type "{getattr(tp, "__name__", "value")}"'


def _one_of(options: Any) -> str:
    if isinstance(options, str):
        # `in` on a string tests for a substring
        return f"must be part of {value_text(options, 60)}"
    if isinstance(options, Mapping):
        options = list(options)
    try:
        values = [getattr(o, "value", o) for o in options]
    except TypeError:  # not iterable: attrs can only call `in` on it
        return "must be one of the allowed values"
    return one_of_reason(values)


def _unknown(validator: Any) -> str:
    """An alternative of ``or_`` that is not attrs' own: named by its function."""
    name = getattr(validator, "__name__", "")
    if name.isidentifier():
        return f'must pass the check "{name}"'
    return _ANOTHER


def _deep(outer: Any, json_type: str, part: str, inner: Any) -> str:
    """``must be a list in which each item must be at least 0``."""
    head = (wants(outer) if outer is not None else None) or type_reason(json_type)
    below = wants(inner) if inner is not None else None
    return head if below is None else f"{head} in which each {part} {below}"


# -- keywords -------------------------------------------------------------------

_BOUNDS = {">=": "minimum", ">": "exclusiveMinimum", "<=": "maximum", "<": "exclusiveMaximum"}
_UNITS = {"string": "Length", "array": "Items", "object": "Properties"}


def _targets(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The schemas a value's keywords belong in: the non-null branches of an anyOf."""
    branches = schema.get("anyOf")
    if isinstance(branches, list):
        found = [b for b in branches if isinstance(b, dict) and b.get("type") != "null"]
        return found or [schema]
    return [schema]


def apply_keywords(validator: Any, schema: dict[str, Any]) -> None:
    """Add to ``schema`` (in place) what the validators say in JSON Schema."""
    for v in parts(validator):
        which = kind(v)
        if which == "optional":
            apply_keywords(v.validator, schema)
        elif which is not None:
            for target in _targets(schema):
                _apply_one(v, which, target)


def _apply_one(v: Any, which: str, target: dict[str, Any]) -> None:
    if which == "number" and v.compare_op in _BOUNDS and _is_number(v.bound):
        target[_BOUNDS[v.compare_op]] = v.bound
    elif which in ("min_len", "max_len"):
        json_type = target.get("type")
        unit = _UNITS.get(json_type) if isinstance(json_type, str) else None
        if unit is not None:
            bound = "min" if which == "min_len" else "max"
            target[f"{bound}{unit}"] = v.min_length if bound == "min" else v.max_length
    elif which == "in":
        _enum(v.options, target)
    elif which == "matches_re":
        pattern = _json_pattern(v)
        if pattern is not None:
            target["pattern"] = pattern
    elif which == "deep_iterable":
        _deep_iterable(v, target)
    elif which == "deep_mapping":
        _deep_mapping(v, target)


def _enum(options: Any, target: dict[str, Any]) -> None:
    if isinstance(options, (str, bytes, Mapping)) or not hasattr(options, "__iter__"):
        return  # `in` on a string is a substring test: no enum says that
    values = [getattr(o, "value", o) for o in options]
    if all(isinstance(o, (str, int, float, bool, NoneType)) for o in values):
        existing = target.get("enum")
        if isinstance(existing, list):
            values = [o for o in existing if o in values]
        target["enum"] = values


def _deep_iterable(v: Any, target: dict[str, Any]) -> None:
    if v.member_validator is not None:
        items = target.setdefault("items", {})
        if isinstance(items, dict):
            apply_keywords(v.member_validator, items)
        for prefix in target.get("prefixItems") or ():
            apply_keywords(v.member_validator, prefix)
    apply_keywords(v.iterable_validator, target)


def _deep_mapping(v: Any, target: dict[str, Any]) -> None:
    value_schema: Any = target.get("additionalProperties")
    if value_schema is None:
        value_schema = target["additionalProperties"] = {}
    if isinstance(value_schema, dict):
        apply_keywords(v.value_validator, value_schema)
    if v.key_validator is not None:
        apply_keywords(v.key_validator, target.setdefault("propertyNames", {"type": "string"}))
    apply_keywords(getattr(v, "mapping_validator", None), target)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _json_pattern(v: Any) -> str | None:
    """The ECMA 262 pattern for a ``matches_re`` validator (``None``: none fits).

    JSON Schema patterns search; attrs fully matches by default, so the
    pattern is anchored. Flags and Python-only syntax have no JSON equivalent.
    """
    compiled: re.Pattern[str] = v.pattern
    if not isinstance(compiled.pattern, str):
        return None
    if compiled.flags & ~re.UNICODE or "(?P" in compiled.pattern:
        return None
    func = getattr(v.match_func, "__name__", "")
    if func == "search":
        return compiled.pattern
    if func == "match":
        return f"^(?:{compiled.pattern})"
    return f"^(?:{compiled.pattern})$"
