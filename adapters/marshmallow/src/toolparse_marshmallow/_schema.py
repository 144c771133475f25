"""The converter: a marshmallow schema to the JSON Schema of what ``load`` accepts.

marshmallow has no JSON Schema export of its own, so this package writes one,
from the schema *instance* the parser loads with (its ``load_fields``: ``only``,
``exclude``, ``dump_only`` and ``load_only`` applied). ``_fields`` maps a field
by its nearest marshmallow class, ``_validators`` adds what its validators say,
and the ``toolparse_field_schema`` hook may answer for a field first-hand.
Beside the JSON Schema it records the shape the error reading follows
(``_shape``). A recursive schema becomes a ``$defs`` entry, referenced with ``$ref``.
"""

from __future__ import annotations

import copy
from typing import Any, Final

from marshmallow import EXCLUDE, INCLUDE, RAISE, Schema, fields, missing

from toolparse.adapter import FieldSchema

from ._fields import JSON, NO_JSON, json_value, mapped
from ._reasons import level_texts
from ._shape import Level, Node
from ._validators import field_texts

__all__ = ["convert"]

#: the JSON types of "any value but null"
_NOT_NULL: Final = ("string", "number", "boolean", "object", "array")


def convert(
    schema: Schema, *, policy: str = "report", field_schema: FieldSchema | None = None
) -> tuple[JSON, Level]:
    """Convert a schema instance (not ``many``): its JSON Schema and its top level.

    ``field_schema`` is the ``toolparse_field_schema`` hook, asked about every field.
    """
    converter = _Converter(policy, field_schema)
    body, root = converter.object(
        schema, schema.partial, _unknown_for(policy, schema.unknown), root=True
    )
    if converter.defs:
        body["$defs"] = converter.defs
    return body, root


def _unknown_for(policy: str, own: str | None) -> str:
    """The ``unknown`` option an object level loads with under ``policy``."""
    if policy == "reject":
        return RAISE
    if policy == "ignore":
        return EXCLUDE
    return own if own is not None else RAISE


class _Converter:
    """One conversion: the ``$defs`` written so far, and the levels being converted."""

    def __init__(self, policy: str, field_schema: FieldSchema | None) -> None:
        self.policy = policy
        self.field_schema = field_schema
        self.defs: dict[str, JSON] = {}
        self.active: dict[tuple[Any, ...], Level] = {}
        self.recursive: set[tuple[Any, ...]] = set()
        self.names: dict[tuple[Any, ...], str] = {}

    def object(
        self, schema: Schema, partial: Any, unknown: str, *, root: bool = False
    ) -> tuple[JSON, Level]:
        """The JSON Schema of an object level (a ``$ref`` when reached again inside itself)."""
        key = (type(schema), tuple(schema.load_fields), unknown, _freeze(partial))
        name = self._name(key, type(schema).__name__)
        if key in self.active:
            self.recursive.add(key)
            return {"$ref": f"#/$defs/{name}"}, self.active[key]
        level = self.active[key] = Level()
        try:
            body = self._object_body(schema, partial, unknown, level)
        finally:
            del self.active[key]
        if key not in self.recursive:
            return body, level
        # the root stays an inline object schema; nested references point at a copy
        self.defs[name] = copy.deepcopy(body) if root else body
        return (body if root else {"$ref": f"#/$defs/{name}"}), level

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

    def _object_body(self, schema: Schema, partial: Any, unknown: str, level: Level) -> JSON:
        level.unknown = str(schema.error_messages.get("unknown", "Unknown field."))
        level.own.texts = level_texts(schema)
        everything_optional = partial is True
        optional = set(partial) if _is_collection(partial) else set()
        properties: JSON = {}
        required: list[str] = []
        declared = _in_declaration_order(schema)
        level.in_order = [attr for attr, _ in declared] == list(schema.load_fields)
        for attr, field in declared:
            key = field.data_key if field.data_key is not None else attr
            properties[key], level.fields[key] = self.field(
                field, _child_partial(partial, attr), top=True
            )
            if field.required and not everything_optional and attr not in optional:
                required.append(key)
        level.rank = {"_schema": -1, **{key: i for i, key in enumerate(level.fields)}}
        body: JSON = {"type": "object", "properties": properties}
        if required:
            body["required"] = required
        if unknown == RAISE:
            body["additionalProperties"] = False
        elif unknown == INCLUDE:
            body["additionalProperties"] = True
        return body

    def field(
        self, field: fields.Field[Any], partial: Any, *, top: bool = False
    ) -> tuple[JSON, Node]:
        """The JSON Schema of one field and its node (``top``: a schema's own field)."""
        node = Node()
        own = self._holder(field, partial, node)
        if own is None:
            own = mapped(field)(field)
        node.texts = field_texts(field, own)  # the validators' keywords go into own
        if field.allow_none:
            own = _nullable(own)
        elif not own:
            # "any value" except null, which marshmallow refuses without allow_none
            own = {"type": list(_NOT_NULL)}
        description = field.metadata.get("description")
        if isinstance(description, str) and description:
            hint = own.get("description")
            own["description"] = f"{description} ({hint})" if hint else description
        if top:
            default = field.load_default
            if default is not missing and not callable(default):
                value = json_value(field, default)
                if value is not NO_JSON:
                    own["default"] = value
        if self.field_schema is not None:
            own = self.field_schema(field, own)
        return own, node

    # -- the fields that hold others ---------------------------------------------

    def _holder(self, field: Any, partial: Any, node: Node) -> JSON | None:
        """The schema of a field that holds others, filling in its node (``None``: not one)."""
        if isinstance(field, fields.Pluck):
            # marshmallow loads each value as {key: value}: its errors carry
            # that key, which the model never sent
            value, plucked = self.field(field.schema.fields[field.field_name], None)
            if not field.many:
                node.plucked = plucked
                return value
            node.item = Node()
            node.item.plucked = plucked
            return {"type": "array", "items": value}
        if isinstance(field, fields.Nested):
            return self._nested(field, partial, node)
        if isinstance(field, fields.List):
            item, node.item = self.field(field.inner, partial)
            return {"type": "array", "items": item} if item else {"type": "array"}
        if isinstance(field, fields.Tuple):
            converted = [self.field(f, partial) for f in field.tuple_fields]
            node.items = tuple(item for _, item in converted)
            n = len(converted)
            prefix = [schema for schema, _ in converted]
            return {
                "type": "array",
                "prefixItems": prefix,
                "items": False,
                "minItems": n,
                "maxItems": n,
            }
        if isinstance(field, fields.Mapping):
            return self._mapping(field, partial, node)
        return None

    def _nested(self, field: fields.Nested, partial: Any, node: Node) -> JSON:
        nested: Schema = field.schema
        own = field.unknown if field.unknown is not None else nested.unknown
        sub_partial = partial if partial is not None else nested.partial
        body, level = self.object(nested, sub_partial, _unknown_for(self.policy, own))
        if not nested.many:
            node.level = level
            return body
        node.item = Node()
        node.item.level = level
        return {"type": "array", "items": body}

    def _mapping(self, field: Any, partial: Any, node: Node) -> JSON:
        out: JSON = {"type": "object"}
        # always a node below: errors of a Dict carry a "key"/"value" level of their own
        node.values = Node()
        if field.value_field is not None:
            value, node.values = self.field(field.value_field, partial)
            if value:
                out["additionalProperties"] = value
        if field.key_field is not None:
            key, node.keys = self.field(field.key_field, None)
            names = _property_names(field.key_field, key)
            if names:
                out["propertyNames"] = names
        return out


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
    return tuple(sorted(map(str, partial))) if _is_collection(partial) else partial


def _child_partial(partial: Any, attr: str) -> Any:
    """The ``partial`` marshmallow hands a field's nested loads."""
    if _is_collection(partial):
        prefix = attr + "."
        return [name[len(prefix) :] for name in partial if name.startswith(prefix)]
    return partial


def _property_names(key_field: Any, key: JSON) -> JSON | None:
    """``propertyNames`` for a Dict's key field (keys are always JSON strings)."""
    kind = key.get("type")
    strings = kind == "string" or (isinstance(kind, list) and "string" in kind)
    if strings or ("enum" in key and all(isinstance(v, str) for v in key["enum"])):
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
