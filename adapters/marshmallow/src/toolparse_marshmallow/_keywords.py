"""JSON Schema pieces the converter shares: values in their JSON form, patterns, ``null``.

A value (a default, a choice, a bound) is written as the field dumps it, or
left out when it has no JSON form.
"""

from __future__ import annotations

import decimal
import json
import math
import re
from collections.abc import Iterable, Iterator
from typing import Any, Final

from marshmallow import fields, validate

__all__ = [
    "JSON",
    "NATIVE",
    "NO_JSON",
    "dumped_by",
    "flatten",
    "json_value",
    "json_values",
    "nullable",
    "property_names",
    "regexp_pattern",
    "types_of",
]

JSON = dict[str, Any]

#: a value that has no JSON form (a callable default, an object marshmallow
#: cannot dump)
NO_JSON: Final = object()
#: the Python types JSON leaf values decode to
NATIVE = (str, int, float, bool, type(None))


def types_of(schema: JSON) -> set[str]:
    """The JSON types ``schema`` names."""
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
        dumped = dumped_by(field, value)
    except Exception:
        return NO_JSON
    if isinstance(dumped, decimal.Decimal):
        return _json_number(dumped)
    try:
        json.dumps(dumped, allow_nan=False)
    except (TypeError, ValueError):
        return NO_JSON
    return dumped


def dumped_by(field: Any, value: Any) -> Any:
    """What ``field`` dumps ``value`` as (its public ``serialize``, handed the value itself)."""
    return field.serialize("value", None, accessor=lambda obj, key, default: value)


def json_values(field: Any, values: Iterable[Any]) -> list[Any] | None:
    """Each of ``values`` as JSON (``None`` when one has no JSON form)."""
    out = [json_value(field, v) for v in values]
    return None if any(v is NO_JSON for v in out) else out


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
    if "string" in types_of(key) or (
        "enum" in key and all(isinstance(v, str) for v in key["enum"])
    ):
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
