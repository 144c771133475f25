"""The field mapping: each marshmallow field class to the JSON Schema of what it loads.

A field is mapped by the nearest class in its MRO that the table below knows,
so a custom field subclass gets its parent's mapping (``Raw``, any value, when
none is known).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, Final

from marshmallow import Schema, fields

from toolparse.adapter import UUID_PATTERN

from ._keywords import NATIVE, NO_JSON, json_value, property_names
from ._shape import ListShape, MapShape, PluckShape, Shape, TupleShape

if TYPE_CHECKING:
    from ._schema import JSON, Converter, Handler

__all__ = ["handler_for"]

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


def _raw(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    return {}, None


def _string(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    return {"type": "string"}, None


def _formatted(fmt: str) -> Handler:
    def handler(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
        return {"type": "string", "format": fmt}, None

    return handler


def _uuid(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    # the pattern as well as the format: not every validator knows "uuid"
    return {"type": "string", "format": "uuid", "pattern": UUID_PATTERN}, None


def _url(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    relative = getattr(field, "relative", False)
    return {"type": "string", "format": "uri-reference" if relative else "uri"}, None


def _ip(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    return {"type": "string", "anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}, None


def _ip_interface(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    return {
        "type": "string",
        "description": "an IP address with a network prefix, e.g. 192.168.0.1/24",
    }, None


def _integer(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    return {"type": "integer"}, None


def _number(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    return {"type": "number"}, None


def _boolean(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    truthy, falsy = field.truthy, field.falsy
    if not truthy:
        return {}, None  # marshmallow takes any value's truth
    if True in truthy and False in falsy:
        return {"type": "boolean"}, None
    # custom spellings without true/false themselves: list what is accepted
    values = [v for v in (*truthy, *falsy) if isinstance(v, NATIVE)]
    return {"enum": sorted(values, key=lambda v: (type(v).__name__, repr(v)))}, None


def _format_hint(field: Any, fmt: str) -> str:
    try:
        if isinstance(field, fields.Time):
            example = field._serialize(_EXAMPLE.time(), None, None)
        elif isinstance(field, fields.Date):
            example = field._serialize(_EXAMPLE.date(), None, None)
        else:
            example = field._serialize(_EXAMPLE, None, None)
    except Exception:
        return f"format {fmt}"
    return f"format {fmt}, e.g. {example}"


def _datetime(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    fmt = getattr(field, "format", None)
    if fmt in _ISO:
        naive = isinstance(field, fields.NaiveDateTime) and field.timezone is None
        if naive:
            return {
                "type": "string",
                "pattern": _NAIVE_DATETIME,
                "description": "a date and time without a UTC offset, e.g. 2024-01-31T13:45:00",
            }, None
        return {"type": "string", "format": "date-time"}, None
    if fmt in ("timestamp", "timestamp_ms"):
        scale = 1000 if fmt == "timestamp_ms" else 1
        return {"type": "number", "minimum": 0, "maximum": _TIMESTAMP_MAX * scale}, None
    return {"type": "string", "description": _format_hint(field, fmt)}, None


def _temporal(json_format: str) -> Handler:
    def handler(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
        fmt = getattr(field, "format", None)
        if fmt in _ISO:
            return {"type": "string", "format": json_format}, None
        return {"type": "string", "description": _format_hint(field, fmt)}, None

    return handler


def _timedelta(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    unit = _MICROSECONDS.get(str(field.precision).lower(), 1_000_000)
    bound = _TIMEDELTA_MAX_US // unit
    return {
        "type": "number",
        "minimum": -bound,
        "maximum": bound,
        "description": f"a duration in {field.precision}",
    }, None


def _list(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    item, shape, reasons = conv.field(field.inner, partial, inner=True)
    out: JSON = {"type": "array"}
    if item:
        out["items"] = item
    if shape is None and reasons is None:
        return out, None
    return out, ListShape(shape, reasons)


def _tuple(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    converted = [conv.field(f, partial, inner=True) for f in field.tuple_fields]
    n = len(converted)
    out: JSON = {
        "type": "array",
        "prefixItems": [schema for schema, _, _ in converted],
        "items": False,
        "minItems": n,
        "maxItems": n,
    }
    shapes = tuple(shape for _, shape, _ in converted)
    reasons = tuple(reasons for _, _, reasons in converted)
    if all(s is None for s in shapes) and all(r is None for r in reasons):
        return out, None
    return out, TupleShape(shapes, reasons)


def _mapping(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    out: JSON = {"type": "object"}
    value_shape: Shape | None = None
    value_reasons = key_reasons = None
    if field.value_field is not None:
        value, value_shape, value_reasons = conv.field(field.value_field, partial, inner=True)
        if value:
            out["additionalProperties"] = value
    if field.key_field is not None:
        key, _, key_reasons = conv.field(field.key_field, None, inner=True)
        names = property_names(field.key_field, key)
        if names:
            out["propertyNames"] = names
    # always a shape: errors of a Dict carry a "key"/"value" level of their own
    return out, MapShape(value_shape, value_reasons, key_reasons)


def _nested(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    nested: Schema = field.schema
    sub_partial = partial if partial is not None else nested.partial
    body, shape = conv.object(nested, sub_partial, conv.nested_unknown(field, nested))
    if nested.many:
        return {"type": "array", "items": body}, ListShape(shape)
    return body, shape


def _pluck(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    nested: Schema = field.schema
    inner = nested.fields[field.field_name]
    key = inner.data_key if inner.data_key is not None else field.field_name
    conv.unknown_messages.add(str(nested.error_messages.get("unknown", "Unknown field.")))
    value, value_shape, reasons = conv.field(inner, None, inner=True)
    shape = PluckShape(key, value_shape, many=bool(field.many), reasons=reasons)
    if field.many:
        return {"type": "array", "items": value}, shape
    return value, shape


def _enum(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    if field.by_value is False:
        return {"type": "string", "enum": list(field.enum.__members__)}, None
    values = [json_value(field.field, member.value) for member in field.enum]
    return {"enum": [v for v in values if v is not NO_JSON]}, None


def _constant(conv: Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    value = json_value(field, field.constant)
    return ({} if value is NO_JSON else {"const": value}), None


#: marshmallow field class name -> mapping; looked up along a field's MRO, so
#: the nearest known parent class decides for a custom field
_BY_NAME: Final[dict[str, Handler]] = {
    "Field": _raw,
    "Raw": _raw,
    "Method": _raw,
    "Function": _raw,
    "String": _string,
    "Email": _formatted("email"),
    "Url": _url,
    "UUID": _uuid,
    "IP": _ip,
    "IPv4": _formatted("ipv4"),
    "IPv6": _formatted("ipv6"),
    "IPInterface": _ip_interface,
    "Number": _number,
    "Integer": _integer,
    "Float": _number,
    "Decimal": _number,
    "Boolean": _boolean,
    "DateTime": _datetime,
    "Date": _temporal("date"),
    "Time": _temporal("time"),
    "TimeDelta": _timedelta,
    "List": _list,
    "Tuple": _tuple,
    "Mapping": _mapping,
    "Nested": _nested,
    "Pluck": _pluck,
    "Enum": _enum,
    "Constant": _constant,
}


_HANDLERS: Final[dict[type, Handler]] = {
    getattr(fields, name): handler for name, handler in _BY_NAME.items() if hasattr(fields, name)
}


def handler_for(field: fields.Field[Any]) -> Handler:
    for klass in type(field).__mro__:
        handler = _HANDLERS.get(klass)
        if handler is not None:
            return handler
    return _raw
