"""JSON Schema keywords from a field's validators, and values in their JSON form.

marshmallow validators (``Length``, ``Range``, ``OneOf``, ``Regexp``, ...)
become the keywords that say the same in JSON Schema; a value (a default, a
choice, a bound) is written as the field dumps it, or left out when it has no
JSON form.
"""

from __future__ import annotations

import decimal
import json
import math
import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final

from marshmallow import fields, validate

if TYPE_CHECKING:
    from ._schema import JSON

__all__ = [
    "NATIVE",
    "NO_JSON",
    "apply_validators",
    "flatten",
    "json_value",
    "json_values",
    "nullable",
    "property_names",
    "regexp_pattern",
]

#: a value that has no JSON form (a callable default, an object marshmallow
#: cannot dump)
NO_JSON: Final = object()
#: the Python types JSON leaf values decode to
NATIVE = (str, int, float, bool, type(None))


def apply_validators(field: fields.Field[Any], own: JSON) -> JSON:
    """Add what the field's validators say to ``own`` (the field's schema so far)."""
    types = _types(own)
    for validator in flatten(field.validators):
        if isinstance(validator, validate.Length):
            _length(own, types, validator)
        elif isinstance(validator, validate.Range):
            if types & {"integer", "number"}:
                _range(own, field, validator)
        elif isinstance(validator, validate.ContainsOnly):
            _items_enum(own, field, validator.choices, negate=False)
        elif isinstance(validator, validate.ContainsNoneOf):
            _items_enum(own, field, validator.iterable, negate=True)
        elif isinstance(validator, validate.OneOf):
            values = json_values(field, validator.choices)
            if values is not None:
                _restrict(own, values)
        elif isinstance(validator, validate.NoneOf):
            values = json_values(field, validator.iterable)
            if values is not None and "not" not in own:
                own["not"] = {"enum": values}
        elif isinstance(validator, validate.Equal):
            value = json_value(field, validator.comparable)
            if value is not NO_JSON:
                own["const"] = value
        elif isinstance(validator, validate.Regexp):
            pattern = regexp_pattern(validator)
            if "string" in types and pattern is not None and "pattern" not in own:
                own["pattern"] = pattern
        elif isinstance(validator, validate.Email) and "string" in types:
            own.setdefault("format", "email")
        elif isinstance(validator, validate.URL) and "string" in types:
            own.setdefault("format", "uri-reference" if validator.relative else "uri")
    return own


def _types(schema: JSON) -> set[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {k for k in kind if isinstance(k, str)}
    return set()


def flatten(validators: Iterable[Any]) -> Iterator[Any]:
    """The validators in the order marshmallow runs them, ``And`` opened up."""
    for validator in validators:
        inner = getattr(validate, "And", None)
        if inner is not None and isinstance(validator, inner):
            yield from flatten(validator.validators)
        else:
            yield validator


def _json_number(value: decimal.Decimal) -> int | float | object:
    if not value.is_finite():
        return NO_JSON
    return int(value) if value == value.to_integral_value() else float(value)


def json_value(field: Any, value: Any) -> Any:
    """``value`` as JSON, as the field dumps it (``NO_JSON`` when it has no JSON form)."""
    if type(value) in NATIVE:
        if isinstance(value, float) and not math.isfinite(value):
            return NO_JSON
        return value
    if isinstance(value, decimal.Decimal):
        return _json_number(value)
    try:
        dumped = field._serialize(value, None, None)
    except Exception:
        return NO_JSON
    if isinstance(dumped, decimal.Decimal):
        return _json_number(dumped)
    try:
        json.dumps(dumped, allow_nan=False)
    except (TypeError, ValueError):
        return NO_JSON
    return dumped


def json_values(field: Any, values: Iterable[Any]) -> list[Any] | None:
    out = [json_value(field, v) for v in values]
    return None if any(v is NO_JSON for v in out) else out


def _restrict(schema: JSON, values: list[Any]) -> None:
    if "enum" in schema:
        values = [v for v in schema["enum"] if v in values]
    schema["enum"] = values


def _tighten(schema: JSON, key: str, value: Any, *, lower: bool) -> None:
    if key in schema:
        value = max(schema[key], value) if lower else min(schema[key], value)
    schema[key] = value


def _length(schema: JSON, types: set[str], validator: validate.Length) -> None:
    if "string" in types:
        low, high = "minLength", "maxLength"
    elif "array" in types:
        low, high = "minItems", "maxItems"
    elif "object" in types:
        low, high = "minProperties", "maxProperties"
    else:
        return
    least = validator.equal if validator.equal is not None else validator.min
    most = validator.equal if validator.equal is not None else validator.max
    if least is not None:
        _tighten(schema, low, int(least), lower=True)
    if most is not None:
        _tighten(schema, high, int(most), lower=False)


def _bound(field: Any, value: Any) -> int | float | None:
    if value is None:
        return None
    found = json_value(field, value)
    if isinstance(found, bool) or not isinstance(found, (int, float)):
        return None
    return found


def _range(schema: JSON, field: Any, validator: validate.Range) -> None:
    low = _bound(field, validator.min)
    high = _bound(field, validator.max)
    if low is not None:
        key = "minimum" if validator.min_inclusive else "exclusiveMinimum"
        _tighten(schema, key, low, lower=True)
    if high is not None:
        key = "maximum" if validator.max_inclusive else "exclusiveMaximum"
        _tighten(schema, key, high, lower=False)


def _items_enum(schema: JSON, field: Any, choices: Iterable[Any], *, negate: bool) -> None:
    inner = getattr(field, "inner", None)
    if inner is None or "array" not in _types(schema):
        return
    values = json_values(inner, choices)
    if values is None:
        return
    items = schema.setdefault("items", {})
    if not isinstance(items, dict):
        return
    if negate:
        items.setdefault("not", {"enum": values})
    else:
        _restrict(items, values)


#: regex flags a JSON Schema pattern cannot carry without changing its meaning;
#: IGNORECASE is left out on purpose: without it the pattern only gets stricter
_UNSUPPORTED_FLAGS: Final = re.MULTILINE | re.DOTALL | re.VERBOSE


def regexp_pattern(validator: validate.Regexp) -> str | None:
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


def property_names(key_field: Any, key: JSON) -> JSON | None:
    """``propertyNames`` for a Dict's key field (keys are always JSON strings)."""
    if "string" in _types(key) or ("enum" in key and all(isinstance(v, str) for v in key["enum"])):
        return {k: v for k, v in key.items() if k not in ("type", "default")}
    if isinstance(key_field, fields.Integer) and not key_field.strict:
        return {"pattern": r"^[+-]?\d+$"}
    return None


def nullable(schema: JSON) -> JSON:
    """``schema`` that also admits ``null``."""
    if not schema:
        return schema
    if any(k in schema for k in ("$ref", "anyOf", "oneOf", "allOf", "const", "not")) or (
        "type" not in schema and "enum" not in schema
    ):
        return {"anyOf": [schema, {"type": "null"}]}
    kind = schema.get("type")
    if isinstance(kind, str) and kind != "null":
        schema["type"] = [kind, "null"]
    elif isinstance(kind, list) and "null" not in kind:
        schema["type"] = [*kind, "null"]
    if "enum" in schema and None not in schema["enum"]:
        schema["enum"] = [*schema["enum"], None]
    return schema
