"""What each attrs validator asks for, in the shared words of the adapter SDK.

attrs' own texts are written for a programmer (``'age' must be >= 0: -1``,
``None of (<instance_of validator for type <class 'int'>>, ...) satisfied``);
the model reads the SDK's vocabulary instead. Built-in validators are
recognised by their class names (the classes are private to attrs) and
described from their attributes, without running them: an ``or_`` swallows the
failures of its alternatives, so what each alternative wants is said from the
validator itself. A validator of your own keeps its message, made safe (no
class reprs, no addresses, one line).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from toolparse.adapter import (
    TYPE_WORDS,
    length_reason,
    one_of_reason,
    pattern_reason,
    range_reason,
    type_reason,
)
from toolparse.messages import safe_text, value_text

from ._types import describe, is_model

__all__ = ["custom", "either", "fixed_words", "kind", "reason", "wants"]

#: attrs' own text for a ``not_`` given no ``msg`` (anything else is yours)
_NOT_DEFAULT = "not_ validator child '{validator!r}' did not raise a captured error"
_ANOTHER = "must pass another check"
_RANGES = {">=": "minimum", "<=": "maximum", ">": "exclusive_minimum", "<": "exclusive_maximum"}
# a class repr in a message of your own reads as the class name alone
_CLASS_REPR = re.compile(r"<(?:class|enum) '(?:[\w.]*\.)?(\w+)'>")


def kind(validator: Any) -> str:
    """The class name of a validator (how attrs' private classes are told apart)."""
    return type(validator).__name__


def reason(validator: Any, exc: BaseException, value: Any, *, nullable: bool = False) -> str:
    """Why ``validator`` refused ``value`` (it raised ``exc``), in plain words.

    ``nullable``: the validator sits inside ``optional``, so a wrong type
    says that ``null`` is allowed too.
    """
    found = _WANTED.get((id(validator), isinstance(value, str)))
    if found is not None and found[0] is validator and found[2] is not None and not nullable:
        return found[2]  # attrs' own words for it, worked out before
    name = kind(validator)
    if name == "_NotValidator" and validator.msg != _NOT_DEFAULT:
        return custom(exc)  # a message you gave not_()
    words = _wanted(validator, value)
    if words is None and name == "_NotValidator":
        return "is not allowed"
    if words is None:
        # yours: its own message, unless it handed the value to one of attrs'
        raiser = _raiser(exc)
        words = wants(raiser, value) if raiser is not None else None
        if words is None:
            return custom(exc)
        name = kind(raiser)
    if nullable and name == "_InstanceOfValidator":
        return f"{words} or null"
    return words


#: :func:`wants` of the validators met on wrong calls: a class's validators are
#: few and fixed (attrs' are frozen), so their words are worked out once. Keyed
#: by identity (``in_((0, 1))`` equals ``in_((False, True))`` but reads
#: otherwise), each entry holding its validator so that the id stays its own.
#: The third item: the words again when :func:`reason` says them as they are (a
#: validator of attrs' own that is not a ``not_``), read before anything else.
_WANTED: dict[tuple[int, bool], tuple[Any, str | None, str | None]] = {}
_WANTED_MAX = 1024


def _wanted(validator: Any, value: Any) -> str | None:
    """:func:`wants`, remembered per validator (and whether the value is a string)."""
    key = (id(validator), isinstance(value, str))
    found = _WANTED.get(key)
    if found is not None and found[0] is validator:
        return found[1]
    words = wants(validator, value)
    if len(_WANTED) >= _WANTED_MAX:
        _WANTED.clear()
    said = words if kind(validator) != "_NotValidator" else None
    _WANTED[key] = (validator, words, said)
    return words


def fixed_words(validator: Any, value: Any) -> str | None:
    """The words :func:`reason` says for ``validator`` whatever it raised, once it said them.

    ``None``: not said yet, or they depend on what it raised (a validator of
    yours, a ``not_`` with your message).
    """
    found = _WANTED.get((id(validator), isinstance(value, str)))
    return found[2] if found is not None and found[0] is validator else None


def wants(validator: Any, value: Any = None) -> str | None:
    """What ``validator`` asks for, as ``must ...``; ``None`` when it is not attrs' own.

    ``value`` decides between characters and items for the length validators.
    """
    name = kind(validator)
    if name == "_InstanceOfValidator":
        kinds = validator.type if isinstance(validator.type, tuple) else (validator.type,)
        return "must be " + " or ".join(dict.fromkeys(_type_words(k) for k in kinds))
    if name == "_InValidator":
        return _one_of(getattr(validator, "_original_options", validator.options))
    if name == "_MatchesReValidator":
        pattern = validator.pattern.pattern
        if isinstance(pattern, bytes):
            pattern = pattern.decode("utf-8", "replace")
        return pattern_reason(pattern)
    if name == "_NumberValidator":
        bound = _RANGES.get(validator.compare_op)
        if bound is None:
            return None
        return range_reason(**{bound: validator.bound})
    if name in ("_MinLengthValidator", "_MaxLengthValidator"):
        items = not isinstance(value, str)
        if name == "_MinLengthValidator":
            return length_reason(minimum=validator.min_length, items=items)
        return length_reason(maximum=validator.max_length, items=items)
    if name == "_IsCallableValidator":
        return "must be callable"
    if name == "_OptionalValidator":
        inner = wants(validator.validator, value)
        return None if inner is None else either([type_reason("null"), inner])
    if name == "_AndValidator":
        parts = [wants(v, value) for v in validator._validators]
        known = [p for p in parts if p is not None]
        return _join(known, "and") if known else None
    if name == "_OrValidator":
        return either([wants(v, value) or _unknown(v) for v in validator.validators])
    if name == "_NotValidator":
        inner = wants(validator.validator, value)
        if inner is None:
            named = _unknown(validator.validator)
            return None if named == _ANOTHER else "must not " + named.removeprefix("must ")
        return "must not " + inner.removeprefix("must ")
    if name == "_DeepIterable":
        return _deep(
            validator.iterable_validator,
            type_reason("array"),
            "each item",
            validator.member_validator,
        )
    if name == "_DeepMapping":
        outer = getattr(validator, "mapping_validator", None)
        return _deep(outer, type_reason("object"), "each value", validator.value_validator)
    return None


def either(reasons: list[str]) -> str:
    """``must be an integer or one of: 1, 2``: alternatives said once, after one ``must``."""
    return _join(reasons, "or")


def _join(reasons: list[str], word: str) -> str:
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


def _raiser(exc: BaseException) -> Any:
    """Attrs' own validator that raised ``exc``, when one did (else ``None``)."""
    tb = exc.__traceback__
    if tb is None:
        return None
    while tb.tb_next is not None:
        tb = tb.tb_next
    found = tb.tb_frame.f_locals.get("self")
    module = type(found).__module__
    if module == "attr.validators" or module == "attr._make":
        return found
    return None


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


def _deep(outer: Any, default: str, part: str, inner: Any) -> str:
    head = (wants(outer) if outer is not None else None) or default
    below = wants(inner) if inner is not None else None
    if below is None:
        return head
    return f"{head} in which {part} {below}"
