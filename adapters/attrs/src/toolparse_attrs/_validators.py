"""attrs validators as JSON Schema keywords.

Built-in validators are recognised by their class names (the classes are
private to attrs) and read from their attributes; anything else still runs
when the arguments are structured, it just has no keyword. How validators
run on the error path is ``_checks``; what they say, ``_reasons``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ._checks import parts as _parts
from ._reasons import kind as _kind
from ._types import NoneType

__all__ = ["apply_keywords", "instance_of_type"]

_BOUNDS = {
    ">=": "minimum",
    ">": "exclusiveMinimum",
    "<=": "maximum",
    "<": "exclusiveMaximum",
}


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
