"""The converter: a marshmallow schema to the JSON Schema of what ``load`` accepts.

marshmallow has no JSON Schema export of its own, so this module writes one.
It reads the schema *instance* the parser loads with (its ``load_fields``, so
``only``/``exclude``/``dump_only``/``load_only`` are already applied) and maps
each field by the nearest marshmallow class in its MRO, so a custom field
subclass gets its parent's mapping; a plugin implementing
``toolparse_field_schema`` can answer for a field first-hand.

Recursive schemas (a ``Nested`` that comes back to a schema being converted)
become ``$defs`` entries referenced with ``$ref``; everything else is inlined.
"""

from __future__ import annotations

import copy
import datetime as dt
import decimal
import json
import math
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from marshmallow import EXCLUDE, INCLUDE, RAISE, Schema, fields, missing, validate

from toolparse.plugins import field_schema

from ._shape import ListShape, MapShape, ObjectShape, PluckShape, Shape, TupleShape

__all__ = ["Converted", "convert", "unknown_for"]

JSON = dict[str, Any]

#: a value that has no JSON form (a callable default, an object marshmallow
#: cannot dump)
_NO_JSON: Final = object()
_NATIVE = (str, int, float, bool, type(None))

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
_NOT_NULL: Final = ("string", "number", "boolean", "object", "array")
_UUID: Final = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
_MICROSECONDS: Final = {
    "weeks": 604_800_000_000,
    "days": 86_400_000_000,
    "hours": 3_600_000_000,
    "minutes": 60_000_000,
    "seconds": 1_000_000,
    "milliseconds": 1_000,
    "microseconds": 1,
}


class Converted:
    """The result of converting one schema: the JSON Schema and what parsing needs."""

    __slots__ = ("json_schema", "required_messages", "shape", "unknown_messages")

    def __init__(
        self,
        json_schema: JSON,
        shape: ObjectShape,
        required_messages: frozenset[str],
        unknown_messages: frozenset[str],
    ) -> None:
        self.json_schema = json_schema
        self.shape = shape
        #: the texts marshmallow uses for "required field missing" in this schema
        self.required_messages = required_messages
        #: the texts marshmallow uses for "unknown field" in this schema
        self.unknown_messages = unknown_messages


def unknown_for(policy: str, own: str | None) -> str:
    """The ``unknown`` option an object level loads with under ``policy``."""
    if policy == "reject":
        return RAISE
    if policy == "ignore":
        return EXCLUDE
    return own if own is not None else RAISE


def convert(schema: Schema, *, policy: str = "report") -> Converted:
    """Convert a schema instance (not ``many``) into its JSON Schema."""
    converter = _Converter(policy)
    body, shape = converter.object(
        schema, schema.partial, unknown_for(policy, schema.unknown), root=True
    )
    assert isinstance(shape, ObjectShape)  # the root is never a reference
    if converter.defs:
        body["$defs"] = converter.defs
    return Converted(
        body,
        shape,
        frozenset(converter.required_messages),
        frozenset(converter.unknown_messages),
    )


class _Frame:
    """An object schema being converted (to notice when it is reached again)."""

    __slots__ = ("name", "recursive", "shape")

    def __init__(self, name: str) -> None:
        self.name = name
        self.shape = ObjectShape()
        self.recursive = False


Handler = Callable[["_Converter", Any, Any], tuple[JSON, Shape | None]]


class _Converter:
    def __init__(self, policy: str) -> None:
        self.policy = policy
        self.defs: dict[str, JSON] = {}
        self.active: dict[tuple[Any, ...], _Frame] = {}
        self.names: dict[tuple[Any, ...], str] = {}
        self.required_messages: set[str] = set()
        self.unknown_messages: set[str] = set()

    # -- objects ----------------------------------------------------------------

    def object(
        self, schema: Schema, partial: Any, unknown: str, *, root: bool = False
    ) -> tuple[JSON, Shape]:
        key = (type(schema), tuple(schema.load_fields), unknown, _freeze(partial))
        frame = self.active.get(key)
        if frame is not None:
            frame.recursive = True
            return {"$ref": f"#/$defs/{frame.name}"}, frame.shape
        frame = _Frame(self._name(key, type(schema).__name__))
        self.active[key] = frame
        try:
            body = self._object_body(schema, partial, unknown, frame.shape)
        finally:
            del self.active[key]
        if not frame.recursive:
            return body, frame.shape
        if root:
            # the root must stay an inline object schema; nested references
            # point at a copy of it
            self.defs[frame.name] = copy.deepcopy(body)
            return body, frame.shape
        self.defs[frame.name] = body
        return {"$ref": f"#/$defs/{frame.name}"}, frame.shape

    def _name(self, key: tuple[Any, ...], base: str) -> str:
        if key in self.names:
            return self.names[key]
        taken = set(self.names.values())
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}{n}"
        self.names[key] = name
        return name

    def _object_body(self, schema: Schema, partial: Any, unknown: str, shape: ObjectShape) -> JSON:
        self.unknown_messages.add(str(schema.error_messages.get("unknown", "Unknown field.")))
        everything_optional = partial is True
        optional = set(partial) if _is_collection(partial) else set()
        properties: JSON = {}
        required: list[str] = []
        for attr, field in _in_declaration_order(schema):
            key = field.data_key if field.data_key is not None else attr
            prop, sub = self.field(field, _child_partial(partial, attr))
            properties[key] = prop
            if sub is not None:
                shape.children[key] = sub
            if field.required and not everything_optional and attr not in optional:
                required.append(key)
            self.required_messages.add(str(field.error_messages.get("required", "")))
        shape.keys = frozenset(properties)
        shape.order = {key: i for i, key in enumerate(properties)}
        body: JSON = {"type": "object", "properties": properties}
        if required:
            body["required"] = required
        if unknown == RAISE:
            body["additionalProperties"] = False
        elif unknown == INCLUDE:
            body["additionalProperties"] = True
        return body

    # -- fields -----------------------------------------------------------------

    def field(
        self, field: fields.Field[Any], partial: Any, *, inner: bool = False
    ) -> tuple[JSON, Shape | None]:
        """The JSON Schema of one field, and the shape of what it loads."""
        own, shape = _handler(field)(self, field, partial)
        own = self._validators(field, own)
        if field.allow_none:
            own = _nullable(own)
        elif not own:
            # "any value" except null, which marshmallow refuses without allow_none
            own = {"type": list(_NOT_NULL)}
        description = field.metadata.get("description")
        if isinstance(description, str) and description:
            hint = own.get("description")
            own["description"] = f"{description} ({hint})" if hint else description
        if not inner:
            default = field.load_default
            if default is not missing and not callable(default):
                value = _json_value(field, default)
                if value is not _NO_JSON:
                    own["default"] = value
        return field_schema("marshmallow", field, own), shape

    def _nested_unknown(self, field: fields.Nested, schema: Schema) -> str:
        own = field.unknown if field.unknown is not None else schema.unknown
        return unknown_for(self.policy, own)

    # -- validators -------------------------------------------------------------

    def _validators(self, field: fields.Field[Any], own: JSON) -> JSON:
        types = _types(own)
        for validator in _flatten(field.validators):
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
                values = _json_values(field, validator.choices)
                if values is not None:
                    _restrict(own, values)
            elif isinstance(validator, validate.NoneOf):
                values = _json_values(field, validator.iterable)
                if values is not None and "not" not in own:
                    own["not"] = {"enum": values}
            elif isinstance(validator, validate.Equal):
                value = _json_value(field, validator.comparable)
                if value is not _NO_JSON:
                    own["const"] = value
            elif isinstance(validator, validate.Regexp):
                pattern = _pattern(validator)
                if "string" in types and pattern is not None and "pattern" not in own:
                    own["pattern"] = pattern
            elif isinstance(validator, validate.Email) and "string" in types:
                own.setdefault("format", "email")
            elif isinstance(validator, validate.URL) and "string" in types:
                own.setdefault("format", "uri-reference" if validator.relative else "uri")
        return own


# -- the field mapping -------------------------------------------------------------


def _raw(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    return {}, None


def _string(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    return {"type": "string"}, None


def _formatted(fmt: str) -> Handler:
    def handler(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
        return {"type": "string", "format": fmt}, None

    return handler


def _uuid(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    # the pattern as well as the format: not every validator knows "uuid"
    return {"type": "string", "format": "uuid", "pattern": _UUID}, None


def _url(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    relative = getattr(field, "relative", False)
    return {"type": "string", "format": "uri-reference" if relative else "uri"}, None


def _ip(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    return {"type": "string", "anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}, None


def _ip_interface(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    return {
        "type": "string",
        "description": "an IP address with a network prefix, e.g. 192.168.0.1/24",
    }, None


def _integer(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    return {"type": "integer"}, None


def _number(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    return {"type": "number"}, None


def _boolean(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    truthy, falsy = field.truthy, field.falsy
    if not truthy:
        return {}, None  # marshmallow takes any value's truth
    if True in truthy and False in falsy:
        return {"type": "boolean"}, None
    # custom spellings without true/false themselves: list what is accepted
    values = [v for v in (*truthy, *falsy) if isinstance(v, _NATIVE)]
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


def _datetime(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
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
    def handler(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
        fmt = getattr(field, "format", None)
        if fmt in _ISO:
            return {"type": "string", "format": json_format}, None
        return {"type": "string", "description": _format_hint(field, fmt)}, None

    return handler


def _timedelta(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    unit = _MICROSECONDS.get(str(field.precision).lower(), 1_000_000)
    bound = _TIMEDELTA_MAX_US // unit
    return {
        "type": "number",
        "minimum": -bound,
        "maximum": bound,
        "description": f"a duration in {field.precision}",
    }, None


def _list(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    item, shape = conv.field(field.inner, partial, inner=True)
    out: JSON = {"type": "array"}
    if item:
        out["items"] = item
    return out, None if shape is None else ListShape(shape)


def _tuple(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    converted = [conv.field(f, partial, inner=True) for f in field.tuple_fields]
    n = len(converted)
    out: JSON = {
        "type": "array",
        "prefixItems": [schema for schema, _ in converted],
        "items": False,
        "minItems": n,
        "maxItems": n,
    }
    shapes = tuple(shape for _, shape in converted)
    return out, TupleShape(shapes) if any(s is not None for s in shapes) else None


def _mapping(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    out: JSON = {"type": "object"}
    value_shape: Shape | None = None
    if field.value_field is not None:
        value, value_shape = conv.field(field.value_field, partial, inner=True)
        if value:
            out["additionalProperties"] = value
    if field.key_field is not None:
        key, _ = conv.field(field.key_field, None, inner=True)
        names = _property_names(field.key_field, key)
        if names:
            out["propertyNames"] = names
    # always a shape: errors of a Dict carry a "key"/"value" level of their own
    return out, MapShape(value_shape)


def _nested(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    nested: Schema = field.schema
    sub_partial = partial if partial is not None else nested.partial
    body, shape = conv.object(nested, sub_partial, conv._nested_unknown(field, nested))
    if nested.many:
        return {"type": "array", "items": body}, ListShape(shape)
    return body, shape


def _pluck(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    nested: Schema = field.schema
    inner = nested.fields[field.field_name]
    key = inner.data_key if inner.data_key is not None else field.field_name
    conv.unknown_messages.add(str(nested.error_messages.get("unknown", "Unknown field.")))
    value, value_shape = conv.field(inner, None, inner=True)
    shape = PluckShape(key, value_shape, many=bool(field.many))
    if field.many:
        return {"type": "array", "items": value}, shape
    return value, shape


def _enum(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    if field.by_value is False:
        return {"type": "string", "enum": list(field.enum.__members__)}, None
    values = [_json_value(field.field, member.value) for member in field.enum]
    return {"enum": [v for v in values if v is not _NO_JSON]}, None


def _constant(conv: _Converter, field: Any, partial: Any) -> tuple[JSON, Shape | None]:
    value = _json_value(field, field.constant)
    return ({} if value is _NO_JSON else {"const": value}), None


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


def _handler(field: fields.Field[Any]) -> Handler:
    for klass in type(field).__mro__:
        handler = _HANDLERS.get(klass)
        if handler is not None:
            return handler
    return _raw


# -- helpers --------------------------------------------------------------------------


def _in_declaration_order(schema: Schema) -> list[tuple[str, fields.Field[Any]]]:
    """``load_fields`` in the order the schema declares them.

    marshmallow 3 keeps the fields of a schema without ``Meta.ordered`` in a
    set, so their order changes from run to run; the model should see the
    declared order, as marshmallow 4 gives it.
    """
    order = {name: i for i, name in enumerate(schema.declared_fields)}
    return sorted(schema.load_fields.items(), key=lambda item: order.get(item[0], len(order)))


def _is_collection(value: object) -> bool:
    return isinstance(value, (list, tuple, set, frozenset))


def _freeze(partial: Any) -> Any:
    if _is_collection(partial):
        return tuple(sorted(map(str, partial)))
    return partial


def _child_partial(partial: Any, attr: str) -> Any:
    """The ``partial`` marshmallow hands a field's nested loads (``None``: none)."""
    if _is_collection(partial):
        prefix = attr + "."
        return [name[len(prefix) :] for name in partial if name.startswith(prefix)]
    return partial


def _types(schema: JSON) -> set[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {k for k in kind if isinstance(k, str)}
    return set()


def _flatten(validators: Iterable[Any]) -> Iterator[Any]:
    for validator in validators:
        inner = getattr(validate, "And", None)
        if inner is not None and isinstance(validator, inner):
            yield from _flatten(validator.validators)
        else:
            yield validator


def _json_number(value: decimal.Decimal) -> int | float | object:
    if not value.is_finite():
        return _NO_JSON
    return int(value) if value == value.to_integral_value() else float(value)


def _json_value(field: Any, value: Any) -> Any:
    """``value`` as JSON, as the field dumps it (``_NO_JSON`` when it has no JSON form)."""
    if type(value) in _NATIVE:
        if isinstance(value, float) and not math.isfinite(value):
            return _NO_JSON
        return value
    if isinstance(value, decimal.Decimal):
        return _json_number(value)
    try:
        dumped = field._serialize(value, None, None)
    except Exception:
        return _NO_JSON
    if isinstance(dumped, decimal.Decimal):
        return _json_number(dumped)
    try:
        json.dumps(dumped, allow_nan=False)
    except (TypeError, ValueError):
        return _NO_JSON
    return dumped


def _json_values(field: Any, values: Iterable[Any]) -> list[Any] | None:
    out = [_json_value(field, v) for v in values]
    return None if any(v is _NO_JSON for v in out) else out


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
    found = _json_value(field, value)
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
    values = _json_values(inner, choices)
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


def _pattern(validator: validate.Regexp) -> str | None:
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


def _property_names(key_field: Any, key: JSON) -> JSON | None:
    """``propertyNames`` for a Dict's key field (keys are always JSON strings)."""
    if "string" in _types(key) or ("enum" in key and all(isinstance(v, str) for v in key["enum"])):
        return {k: v for k, v in key.items() if k not in ("type", "default")}
    if isinstance(key_field, fields.Integer) and not key_field.strict:
        return {"pattern": r"^[+-]?\d+$"}
    return None


def _nullable(schema: JSON) -> JSON:
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
