"""attrs validators: as JSON Schema keywords, and run one by one for every problem.

attrs stops at the first validator that fails; the model should learn every
problem at once, so on the error path the validators of a class are run one
by one (see :func:`run`). Built-in validators are recognised by their
attributes (their classes are private to attrs); anything else still runs, it
just has no keyword.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import length_reason, pattern_reason

from ._types import NoneType, describe, one_of

__all__ = ["apply_keywords", "instance_of_type", "message", "reason", "run"]

Path = tuple[str | int, ...]

_BOUNDS = {
    ">=": "minimum",
    ">": "exclusiveMinimum",
    "<=": "maximum",
    "<": "exclusiveMaximum",
}
_BOUND_WORDS = {
    ">=": "at least",
    ">": "greater than",
    "<=": "at most",
    "<": "less than",
}


def _kind(validator: Any) -> str:
    return type(validator).__name__


def _parts(validator: Any) -> Iterator[Any]:
    """The validators inside ``and_`` (and inside a plain list of validators)."""
    if validator is None:
        return
    if isinstance(validator, (list, tuple)):
        for v in validator:
            yield from _parts(v)
    elif _kind(validator) == "_AndValidator":
        for v in validator._validators:
            yield from _parts(v)
    else:
        yield validator


def instance_of_type(validator: Any) -> Any:
    """The type an ``instance_of`` validator asks for (``None``: there is none)."""
    for v in _parts(validator):
        if _kind(v) == "_InstanceOfValidator":
            kind = v.type
            if isinstance(kind, tuple):
                return kind[0] if len(kind) == 1 else None
            return kind
    return None


# -- keywords -------------------------------------------------------------------


def _targets(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The schemas a value's keywords belong in: the non-null branches of an anyOf."""
    branches = schema.get("anyOf")
    if isinstance(branches, list):
        found = [b for b in branches if isinstance(b, dict) and b.get("type") != "null"]
        return found or [schema]
    return [schema]


def apply_keywords(validator: Any, schema: dict[str, Any]) -> None:
    """Add to ``schema`` (in place) what the validators say in JSON Schema."""
    for v in _parts(validator):
        kind = _kind(v)
        if kind == "_OptionalValidator":
            apply_keywords(v.validator, schema)
            continue
        for target in _targets(schema):
            _apply_one(v, kind, target)


def _apply_one(v: Any, kind: str, target: dict[str, Any]) -> None:
    json_type = target.get("type")
    if kind == "_NumberValidator" and v.compare_op in _BOUNDS and _is_number(v.bound):
        target[_BOUNDS[v.compare_op]] = v.bound
    elif kind in ("_MinLengthValidator", "_MaxLengthValidator"):
        bound = "min" if kind == "_MinLengthValidator" else "max"
        size = v.min_length if bound == "min" else v.max_length
        unit = {"string": "Length", "array": "Items", "object": "Properties"}.get(
            json_type if isinstance(json_type, str) else ""
        )
        if unit is not None:
            target[f"{bound}{unit}"] = size
    elif kind == "_InValidator":
        options = v.options
        if isinstance(options, (str, bytes, Mapping)) or not hasattr(options, "__iter__"):
            return  # `in` on a string is a substring test: no enum says that
        values = [getattr(o, "value", o) for o in options]
        if all(isinstance(o, (str, int, float, bool, NoneType)) for o in values):
            existing = target.get("enum")
            if isinstance(existing, list):
                values = [o for o in existing if o in values]
            target["enum"] = values
    elif kind == "_MatchesReValidator":
        pattern = _json_pattern(v)
        if pattern is not None:
            target["pattern"] = pattern
    elif kind == "_DeepIterable":
        if v.member_validator is not None:
            items = target.setdefault("items", {})
            if isinstance(items, dict):
                apply_keywords(v.member_validator, items)
            for prefix in target.get("prefixItems") or ():
                apply_keywords(v.member_validator, prefix)
        apply_keywords(v.iterable_validator, target)
    elif kind == "_DeepMapping":
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


# -- running ----------------------------------------------------------------------


def run(
    validator: Any,
    instance: Any,
    attribute: Any,
    value: Any,
    path: Path,
    out: list[ArgumentProblem],
    *,
    partial: bool,
    sent: Any = NOT_GIVEN,
) -> None:
    """Run ``validator`` on one field's value, adding a problem for each failure.

    ``and_``, ``optional``, ``deep_iterable`` and ``deep_mapping`` are opened
    so that every failing part is reported (items and values under their own
    path). With ``partial`` (some fields of the instance could not be read),
    a validator that trips over a missing attribute is not a problem.
    ``sent`` is the value as the model sent it, echoed in the problem.
    """

    def again(inner: Any, item: Any, where: Path, echo: Any) -> None:
        run(inner, instance, attribute, item, where, out, partial=partial, sent=echo)

    for v in _parts(validator):
        kind = _kind(v)
        if kind == "_OptionalValidator":
            if value is not None:
                again(v.validator, value, path, sent)
        elif kind == "_DeepIterable" and _iterable(value):
            before = len(out)
            if v.iterable_validator is not None:
                again(v.iterable_validator, value, path, sent)
            if len(out) == before and v.member_validator is not None:
                for index, item in enumerate(value):
                    again(v.member_validator, item, (*path, index), _item(sent, index))
        elif kind == "_DeepMapping" and isinstance(value, Mapping):
            mapping_validator = getattr(v, "mapping_validator", None)
            if mapping_validator is not None:
                again(mapping_validator, value, path, sent)
            for key, item in value.items():
                where = (*path, str(key))
                if v.key_validator is not None:
                    again(v.key_validator, key, where, key)
                if v.value_validator is not None:
                    again(v.value_validator, item, where, _item(sent, key))
        else:
            try:
                v(instance, attribute, value)
            except Exception as exc:
                if partial and isinstance(exc, AttributeError):
                    continue  # it read a field that could not be structured
                echo = _jsonable(value) if sent is NOT_GIVEN else sent
                out.append(ArgumentProblem(path, reason(v, exc, value), echo))


def _item(sent: Any, key: Any) -> Any:
    """Part of what the model sent (``NOT_GIVEN`` when it cannot be told)."""
    if isinstance(sent, list) and isinstance(key, int) and 0 <= key < len(sent):
        return sent[key]
    if isinstance(sent, Mapping) and key in sent:
        return sent[key]
    return NOT_GIVEN


def _iterable(value: object) -> bool:
    return isinstance(value, (list, tuple, set, frozenset))


def _jsonable(value: Any) -> Any:
    """The value as the model sent it, for echoing (sets and tuples as lists)."""
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return getattr(value, "value", value)


def reason(v: Any, exc: BaseException, value: Any) -> str:
    """Why a validator refused ``value``, in plain words."""
    kind = _kind(v)
    if kind == "_NumberValidator":
        return f"must be {_BOUND_WORDS.get(v.compare_op, v.compare_op)} {v.bound}"
    if kind in ("_MinLengthValidator", "_MaxLengthValidator"):
        unit = "character" if isinstance(value, str) else "item"
        if kind == "_MinLengthValidator":
            n = v.min_length
            return length_reason(minimum=n, items=unit == "item")
        n = v.max_length
        return length_reason(maximum=n, items=unit == "item")
    if kind == "_InValidator" and not isinstance(v.options, (str, bytes)):
        try:
            return one_of([getattr(o, "value", o) for o in v.options])
        except TypeError:
            pass
    if kind == "_MatchesReValidator":
        return pattern_reason(v.pattern.pattern)
    if kind == "_InstanceOfValidator":
        kinds = v.type if isinstance(v.type, tuple) else (v.type,)
        words = [describe(k) or f"of type {getattr(k, '__name__', k)}" for k in kinds]
        return "must be " + " or ".join(words)
    return message(exc)


def message(exc: BaseException) -> str:
    """The first line of an exception's own message (a custom validator's words)."""
    text = str(exc.args[0]) if exc.args and isinstance(exc.args[0], str) else str(exc)
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first or "Invalid value"
