"""attrs' validators read from their public data: what each is, what it asks for, its keywords.

attrs' validator classes are private, but each is what a public factory
returns, so a validator is recognised by the type its factory gives and read
from the attributes the factory sets (``bound``, ``max_length``, ``options``
...). The model reads the SDK's shared words, not attrs' texts (written for a
programmer: ``'age' must be >= 0: -1``); a validator of yours keeps its
message, made safe, and has no JSON Schema keyword.
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
_KINDS: dict[type, str] = {  # each validator class, by what its public factory makes
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
    """Which of attrs' validators ``validator`` is (``"number"``, ``"and"``...); ``None``: yours."""
    return _KINDS.get(type(validator))


def parts(validator: Any) -> Iterator[Any]:
    """The validators inside ``and_`` (or a list of them), in order; any other is itself.

    ``and_`` keeps its parts in its one field, read through attrs' own
    introspection (``attrs.astuple``) rather than by the field's name. Were it
    ever not a tuple of validators, ``and_`` would read as one of yours.
    """
    if isinstance(validator, (list, tuple)):
        for v in validator:
            yield from parts(v)
    elif kind(validator) == "and" and attrs.has(type(validator)):
        found = attrs.astuple(validator, recurse=False)
        if len(found) == 1 and isinstance(found[0], tuple) and all(map(callable, found[0])):
            yield from parts(found[0])
        else:
            yield validator
    elif validator is not None:
        yield validator


def instance_of_type(validator: Any) -> Any:
    """The one type an ``instance_of`` validator asks for (``None``: there is none)."""
    for v in parts(validator):
        if kind(v) == "instance_of":
            wanted = v.type if isinstance(v.type, tuple) else (v.type,)
            return wanted[0] if len(wanted) == 1 else None
    return None


# -- words ----------------------------------------------------------------------

#: attrs' own text for a ``not_`` given no ``msg`` (anything else is yours)
_NOT_DEFAULT = "not_ validator child '{validator!r}' did not raise a captured error"
_ANOTHER = "must pass another check"
_RANGES = {">=": "minimum", "<=": "maximum", ">": "exclusive_minimum", "<": "exclusive_maximum"}
#: each validator's words, by its id and whether the value was a string (the validator kept too:
#: ``in_((0, 1))`` equals ``in_((False, True))`` but reads otherwise)
_SAID: dict[tuple[int, bool], tuple[Any, str | None]] = {}
# a class repr in a message of your own reads as the class name alone
_CLASS_REPR = re.compile(r"<(?:class|enum) '(?:[\w.]*\.)?(\w+)'>")


def reason(validator: Any, exc: BaseException, value: Any, *, nullable: bool = False) -> str:
    """Why ``validator`` refused ``value`` (raising ``exc``); ``nullable``: inside ``optional``."""
    which = kind(validator)
    if which == "not" and validator.msg != _NOT_DEFAULT:
        return custom(exc)  # a message you gave not_()
    key = (id(validator), isinstance(value, str))
    said = _SAID.get(key)
    if said is None or said[0] is not validator:  # a class's validators are few: worded once
        if len(_SAID) >= 1024:
            _SAID.clear()
        said = _SAID[key] = (validator, wants(validator, value))
    words = said[1]
    if words is None:  # yours: its own message (a not_ of yours: what it refuses has no name)
        return "is not allowed" if which == "not" else custom(exc)
    return f"{words} or null" if nullable and which == "instance_of" else words


def wants(validator: Any, value: Any = None) -> str | None:
    """What ``validator`` asks for (``None``: yours); ``value``: characters or items."""
    which, v = kind(validator), validator
    if which == "instance_of":
        kinds = v.type if isinstance(v.type, tuple) else (v.type,)
        return "must be " + " or ".join(dict.fromkeys(_type_words(k) for k in kinds))
    if which == "in":
        return _one_of(v.options)
    if which == "matches_re":
        pattern = v.pattern.pattern
        return pattern_reason(
            pattern if isinstance(pattern, str) else pattern.decode(errors="replace")
        )
    if which == "number":
        bound = _RANGES.get(v.compare_op)
        return None if bound is None else range_reason(**{bound: v.bound})
    if which in ("min_len", "max_len"):
        items = not isinstance(value, str)
        if which == "min_len":
            return length_reason(minimum=v.min_length, items=items)
        return length_reason(maximum=v.max_length, items=items)
    return "must be callable" if which == "is_callable" else _composite(which, v, value)


def _composite(which: str | None, v: Any, value: Any) -> str | None:
    """:func:`wants` of a validator made of others."""
    if which == "optional":
        inner = wants(v.validator, value)
        return None if inner is None else _join([type_reason("null"), inner], "or")
    if which == "and":
        known = [w for w in (wants(p, value) for p in parts(v)) if w is not None]
        return _join(known, "and") if known else None
    if which == "or":
        return _join([wants(p, value) or _unknown(p) for p in v.validators], "or")
    if which == "not":
        inner = wants(v.validator, value) or _unknown(v.validator)
        return None if inner == _ANOTHER else "must not " + inner.removeprefix("must ")
    if which == "deep_iterable":
        return _deep(v.iterable_validator, "array", "item", v.member_validator)
    if which == "deep_mapping":
        return _deep(getattr(v, "mapping_validator", None), "object", "value", v.value_validator)
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


def _deep(outer: Any, json_type: str, part: str, inner: Any) -> str:
    """``must be a list in which each item must be at least 0``."""
    head = (wants(outer) if outer is not None else None) or type_reason(json_type)
    below = wants(inner) if inner is not None else None
    return head if below is None else f"{head} in which each {part} {below}"


def _unknown(validator: Any) -> str:
    """An alternative of ``or_`` (or what ``not_`` refuses) that is yours: named by its function."""
    name = getattr(validator, "__name__", "")
    return f'must pass the check "{name}"' if name.isidentifier() else _ANOTHER


def _type_words(tp: Any) -> str:
    words = describe(tp) or (TYPE_WORDS["object"] if is_model(tp) else None)
    return words or f'of type "{getattr(tp, "__name__", "value")}"'


def _one_of(options: Any) -> str:
    if isinstance(options, str):  # `in` on a string tests for a substring
        return f"must be part of {value_text(options, 60)}"
    try:
        return one_of_reason([getattr(o, "value", o) for o in options])  # a mapping: its keys
    except TypeError:  # not iterable: attrs can only call `in` on it
        return "must be one of the allowed values"


def custom(exc: BaseException) -> str:
    """The first line of an exception's own message, made safe for the model."""
    try:
        text = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
    except Exception:  # a broken __str__: the type is all there is to say
        text = ""
    first = text.strip().splitlines()[0] if text.strip() else ""
    return safe_text(_CLASS_REPR.sub(r"\1", first)) or "Invalid value"


# -- keywords -------------------------------------------------------------------

_BOUNDS = {">=": "minimum", ">": "exclusiveMinimum", "<=": "maximum", "<": "exclusiveMaximum"}
_UNITS = {"string": "Length", "array": "Items", "object": "Properties"}


def apply_keywords(validator: Any, schema: dict[str, Any]) -> None:
    """Add to ``schema`` (in place) what the validators say in JSON Schema."""
    for v in parts(validator):
        which = kind(v)
        if which == "optional":
            apply_keywords(v.validator, schema)
        elif which is not None:
            # a value's keywords belong in the non-null branches of an anyOf
            branches = schema.get("anyOf")
            targets = [b for b in branches or () if isinstance(b, dict) and b.get("type") != "null"]
            for target in targets if isinstance(branches, list) and targets else [schema]:
                _apply_one(v, which, target)


def _apply_one(v: Any, which: str, target: dict[str, Any]) -> None:
    json_type = target.get("type")
    unit = _UNITS.get(json_type) if isinstance(json_type, str) else None
    if which == "number" and v.compare_op in _BOUNDS and _is_number(v.bound):
        target[_BOUNDS[v.compare_op]] = v.bound
    elif which in ("min_len", "max_len") and unit is not None:
        target[f"{which[:3]}{unit}"] = v.min_length if which == "min_len" else v.max_length
    elif which == "in":
        _enum(v.options, target)
    elif which == "matches_re" and (pattern := _json_pattern(v)) is not None:
        target["pattern"] = pattern
    elif which == "deep_iterable":
        if v.member_validator is not None:
            items = target.setdefault("items", {})
            for sub in [items, *(target.get("prefixItems") or ())]:
                if isinstance(sub, dict):
                    apply_keywords(v.member_validator, sub)
        apply_keywords(v.iterable_validator, target)
    elif which == "deep_mapping":
        values = target.setdefault("additionalProperties", {})
        if isinstance(values, dict):
            apply_keywords(v.value_validator, values)
        if v.key_validator is not None:
            apply_keywords(v.key_validator, target.setdefault("propertyNames", {"type": "string"}))
        apply_keywords(getattr(v, "mapping_validator", None), target)


def _enum(options: Any, target: dict[str, Any]) -> None:
    if isinstance(options, (str, bytes, Mapping)) or not hasattr(options, "__iter__"):
        return  # `in` on a string is a substring test: no enum says that
    values = [getattr(o, "value", o) for o in options]
    if all(isinstance(o, (str, int, float, bool, NoneType)) for o in values):
        existing = target.get("enum")
        target["enum"] = (
            [o for o in existing if o in values] if isinstance(existing, list) else values
        )


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _json_pattern(v: Any) -> str | None:
    """The ECMA 262 pattern of a ``matches_re``, anchored as it matches (``None``: none fits)."""
    compiled: re.Pattern[str] = v.pattern
    if not isinstance(compiled.pattern, str):
        return None
    if compiled.flags & ~re.UNICODE or "(?P" in compiled.pattern:
        return None
    func = getattr(v.match_func, "__name__", "")
    if func == "search":
        return compiled.pattern
    return f"^(?:{compiled.pattern})" if func == "match" else f"^(?:{compiled.pattern})$"
