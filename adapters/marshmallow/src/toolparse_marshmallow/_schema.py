"""The converter: a marshmallow schema to the JSON Schema of what ``load`` accepts.

marshmallow has no JSON Schema export of its own, so this package writes one.
This module walks the schema *instance* the parser loads with (its
``load_fields``, so ``only``/``exclude``/``dump_only``/``load_only`` are
already applied); ``_fields`` maps each field by the nearest marshmallow class
in its MRO (a custom field subclass gets its parent's mapping) and
``_keywords`` adds what its validators say. The ``toolparse_field_schema``
hook, given to the compile step, can answer for a field first-hand.

Recursive schemas (a ``Nested`` that comes back to a schema being converted)
become ``$defs`` entries referenced with ``$ref``; everything else is inlined.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Final

from marshmallow import EXCLUDE, INCLUDE, RAISE, Schema, fields, missing

from toolparse.adapter import FieldSchema

from ._fields import handler_for
from ._keywords import NO_JSON, apply_validators, json_value, nullable
from ._reasons import Reasons, object_reasons, reasons_for
from ._shape import ObjectShape, Shape, set_order
from ._tables import Tables

__all__ = ["JSON", "Converted", "Converter", "Handler", "convert", "unknown_for"]

JSON = dict[str, Any]

#: the JSON types of "any value but null"
NOT_NULL: Final = ("string", "number", "boolean", "object", "array")


class Converted:
    """The result of converting one schema: the JSON Schema and what parsing needs."""

    __slots__ = ("json_schema", "required_messages", "shape", "tables", "unknown_messages")

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
        #: the error walk's common case, worked out once
        self.tables = Tables(shape, required_messages, unknown_messages)


def unknown_for(policy: str, own: str | None) -> str:
    """The ``unknown`` option an object level loads with under ``policy``."""
    if policy == "reject":
        return RAISE
    if policy == "ignore":
        return EXCLUDE
    return own if own is not None else RAISE


def convert(
    schema: Schema, *, policy: str = "report", field_schema: FieldSchema | None = None
) -> Converted:
    """Convert a schema instance (not ``many``) into its JSON Schema.

    ``field_schema`` is the ``toolparse_field_schema`` hook, asked about every field.
    """
    converter = Converter(policy, _unchanged if field_schema is None else field_schema)
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


Handler = Callable[["Converter", Any, Any], tuple[JSON, Shape | None]]


class Converter:
    """One conversion: the ``$defs`` written so far and what parsing will need."""

    def __init__(self, policy: str, field_schema: FieldSchema) -> None:
        self.policy = policy
        self.field_schema = field_schema
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
        shape.own = object_reasons(schema)
        declared = _in_declaration_order(schema)
        shape.in_order = [attr for attr, _ in declared] == list(schema.load_fields)
        for attr, field in declared:
            key = field.data_key if field.data_key is not None else attr
            prop, sub, reasons = self.field(field, _child_partial(partial, attr))
            properties[key] = prop
            if sub is not None:
                shape.children[key] = sub
            if reasons is not None:
                shape.reasons[key] = reasons
            if field.required and not everything_optional and attr not in optional:
                required.append(key)
            self.required_messages.add(str(field.error_messages.get("required", "")))
        set_order(shape, list(properties))
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
    ) -> tuple[JSON, Shape | None, Reasons | None]:
        """The JSON Schema of one field, the shape of what it loads, what its errors mean."""
        own, shape = handler_for(field)(self, field, partial)
        # read before the validators add their keywords: a wrong type is
        # worded by the field's own type
        reasons = reasons_for(field, own)
        own = apply_validators(field, own)
        if field.allow_none:
            own = nullable(own)
        elif not own:
            # "any value" except null, which marshmallow refuses without allow_none
            own = {"type": list(NOT_NULL)}
        description = field.metadata.get("description")
        if isinstance(description, str) and description:
            hint = own.get("description")
            own["description"] = f"{description} ({hint})" if hint else description
        if not inner:
            default = field.load_default
            if default is not missing and not callable(default):
                value = json_value(field, default)
                if value is not NO_JSON:
                    own["default"] = value
        return self.field_schema(field, own), shape, reasons

    def nested_unknown(self, field: fields.Nested, schema: Schema) -> str:
        own = field.unknown if field.unknown is not None else schema.unknown
        return unknown_for(self.policy, own)


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


def _unchanged(field: object, schema: JSON) -> JSON:
    return schema
