"""The field mapping: each marshmallow field class to the JSON Schema of what it loads, and values as JSON.

A field is mapped by the nearest class in its MRO that the tables below know,
so a custom field subclass gets its parent's mapping (``Raw``, any value, when
none is known). The fields that hold others (``Nested``, ``List``, ``Tuple``,
``Dict``, ``Pluck``) are the converter's own.
"""

from __future__ import annotations

import copy
import datetime as dt
import decimal
import json
import math
from collections.abc import Callable, Iterable
from typing import Any, Final

from marshmallow import fields

from toolparse.adapter import UUID_PATTERN

__all__ = ["JSON", "NO_JSON", "dumped_by", "json_value", "json_values", "mapped"]

JSON = dict[str, Any]

#: a value that has no JSON form (a callable default, an object marshmallow cannot dump)
NO_JSON: Final = object()
#: the Python types JSON leaf values decode to
_NATIVE = (str, int, float, bool, type(None))


def _json_number(value: decimal.Decimal) -> int | float | object:
    if not value.is_finite():
        return NO_JSON
    return int(value) if value == value.to_integral_value() else float(value)


def json_value(field: Any, value: Any) -> Any:
    """``value`` as JSON, as the field dumps it (``NO_JSON`` when it has no JSON form)."""
    if type(value) in _NATIVE:
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


#: a field mapping: the field's JSON Schema, before its validators add to it
FieldMapping = Callable[[Any], JSON]

#: the widest timedelta, in microseconds (``timedelta.max`` is 999999999 days
#: and a bit; beyond it marshmallow rejects the value as out of range)
_TIMEDELTA_MAX_US = 999_999_999 * 86_400_000_000
#: the last second of year 9999 as a POSIX timestamp (marshmallow's limit)
_TIMESTAMP_MAX = 253_402_300_799
#: a date and time without a UTC offset, as ``datetime.fromisoformat`` reads it
_NAIVE_DATETIME = r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$"
#: an example instant, formatted with a field's own format for its description
_EXAMPLE = dt.datetime(2024, 1, 31, 13, 45, 0)
_ISO = (None, "iso", "iso8601")
_MICROSECONDS: Final = {
    "weeks": 604_800_000_000,
    "days": 86_400_000_000,
    "hours": 3_600_000_000,
    "minutes": 60_000_000,
    "seconds": 1_000_000,
    "milliseconds": 1_000,
    "microseconds": 1,
}

#: fields whose schema is always the same: field class name -> schema (Raw, Method
#: and Function are any value as Field is; Float and Decimal numbers as Number is)
_FIXED: Final[dict[str, JSON]] = {
    "Field": {},
    "String": {"type": "string"},
    "Email": {"type": "string", "format": "email"},
    # the pattern as well as the format: not every validator knows "uuid"
    "UUID": {"type": "string", "format": "uuid", "pattern": UUID_PATTERN},
    "IP": {"type": "string", "anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]},
    "IPv4": {"type": "string", "format": "ipv4"},
    "IPv6": {"type": "string", "format": "ipv6"},
    "IPInterface": {
        "type": "string",
        "description": "an IP address with a network prefix, e.g. 192.168.0.1/24",
    },
    "Number": {"type": "number"},
    "Integer": {"type": "integer"},
}


def _url(field: Any) -> JSON:
    relative = getattr(field, "relative", False)
    return {"type": "string", "format": "uri-reference" if relative else "uri"}


def _boolean(field: Any) -> JSON:
    truthy, falsy = field.truthy, field.falsy
    if not truthy:
        return {}  # marshmallow takes any value's truth
    if True in truthy and False in falsy:
        return {"type": "boolean"}
    # custom spellings without true/false themselves: list what is accepted
    values = [v for v in (*truthy, *falsy) if isinstance(v, _NATIVE)]
    return {"enum": sorted(values, key=lambda v: (type(v).__name__, repr(v)))}


def _temporal(field: Any) -> JSON:
    fmt = getattr(field, "format", None)
    example: Any
    if isinstance(field, fields.Time):
        kind, example = "time", _EXAMPLE.time()
    elif isinstance(field, fields.Date):
        kind, example = "date", _EXAMPLE.date()
    else:
        kind, example = "date-time", _EXAMPLE
    if fmt in _ISO and isinstance(field, fields.NaiveDateTime) and field.timezone is None:
        description = "a date and time without a UTC offset, e.g. 2024-01-31T13:45:00"
        return {"type": "string", "pattern": _NAIVE_DATETIME, "description": description}
    if fmt in _ISO:
        return {"type": "string", "format": kind}
    if fmt in ("timestamp", "timestamp_ms") and kind == "date-time":
        scale = 1000 if fmt == "timestamp_ms" else 1
        return {"type": "number", "minimum": 0, "maximum": _TIMESTAMP_MAX * scale}
    try:
        return {"type": "string", "description": f"format {fmt}, e.g. {dumped_by(field, example)}"}
    except Exception:
        return {"type": "string", "description": f"format {fmt}"}


def _timedelta(field: Any) -> JSON:
    unit = _MICROSECONDS.get(str(field.precision).lower(), 1_000_000)
    bound = _TIMEDELTA_MAX_US // unit
    return {
        "type": "number",
        "minimum": -bound,
        "maximum": bound,
        "description": f"a duration in {field.precision}",
    }


def _enum(field: Any) -> JSON:
    if field.by_value is False:
        return {"type": "string", "enum": list(field.enum.__members__)}
    values = [json_value(field.field, member.value) for member in field.enum]
    return {"enum": [v for v in values if v is not NO_JSON]}


def _constant(field: Any) -> JSON:
    value = json_value(field, field.constant)
    return {} if value is NO_JSON else {"const": value}


#: marshmallow field class name -> mapping, for the fields whose schema depends on them
_BY_NAME: Final[dict[str, FieldMapping]] = {
    "Url": _url,
    "Boolean": _boolean,
    "DateTime": _temporal,
    "Date": _temporal,
    "Time": _temporal,
    "TimeDelta": _timedelta,
    "Enum": _enum,
    "Constant": _constant,
}


def _fixed(schema: JSON) -> FieldMapping:
    def mapping(field: Any) -> JSON:
        return copy.deepcopy(schema)  # the converter adds to it

    return mapping


#: looked up along a field's MRO, so the nearest known parent class decides for
#: a custom field (fields a marshmallow release lacks are left out)
_MAPPINGS: Final[dict[type, FieldMapping]] = {
    getattr(fields, name): mapping
    for name, mapping in (*((n, _fixed(s)) for n, s in _FIXED.items()), *_BY_NAME.items())
    if hasattr(fields, name)
}


def mapped(field: fields.Field[Any]) -> FieldMapping:
    """The mapping of ``field``'s nearest known class (any value when none is known)."""
    for klass in type(field).__mro__:
        found = _MAPPINGS.get(klass)
        if found is not None:
            return found
    return _MAPPINGS[fields.Field]
