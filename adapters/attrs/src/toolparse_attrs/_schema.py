"""attrs fields and type hints to JSON Schema (2020-12), as the converter reads them.

Each field and each type goes through the ``toolparse_field_schema`` hook, so a
plugin can describe what this cannot.
"""

from __future__ import annotations

import copy
import json
import typing
from typing import Any

import attrs
from cattrs.disambiguators import is_supported_union

from toolparse.adapter import JSON_TYPES, FieldSchema

from ._fields import NO_DEFAULT, FieldInfo, Fields
from ._types import (
    MAPPINGS,
    SEQUENCES,
    SETS,
    SIMPLE,
    NoneType,
    is_empty_tuple,
    is_enum,
    is_literal,
    is_model,
    literal_values,
    union_members,
    unwrap,
)
from ._validators import apply_keywords, instance_of_type

__all__ = ["SchemaBuilder", "UnknownType"]

#: factories whose value is known without calling anything the user wrote
_EMPTY_FACTORIES: dict[Any, Any] = {list: [], dict: {}, set: [], frozenset: [], tuple: []}


class UnknownType(ValueError):
    """A type with no JSON Schema (a definition error)."""


class SchemaBuilder:
    """Builds the JSON Schema of one class as one converter reads it.

    :param closed: the converter refuses unknown keys: every object says
        ``additionalProperties: false``.
    :param field_schema: the ``toolparse_field_schema`` hook, asked about every
        field and type (``None``: no plugin has a say).
    """

    def __init__(
        self, fields: Fields, *, closed: bool, field_schema: FieldSchema | None = None
    ) -> None:
        self.fields = fields
        self.closed = closed
        self.field_schema: FieldSchema = field_schema or (lambda field, schema: schema)
        self._root: type | None = None
        self._stack: list[type] = []  # the classes being written, for a class that contains itself
        self._names: dict[type, str] = {}
        self._defs: dict[str, dict[str, Any]] = {}

    def build(self, cls: type) -> dict[str, Any]:
        """The object schema of ``cls``."""
        self._root = cls
        schema = self._class(cls, closed=self.closed)
        if self._defs:
            schema["$defs"] = self._defs
        return schema

    def type_schema(self, tp: Any, *, closed: bool | None = None) -> dict[str, Any]:
        """The schema of a type annotation (after plugins had their say)."""
        own = self._type(tp, self.closed if closed is None else closed)
        placeholder: dict[str, Any] = {} if own is None else own
        found = self.field_schema(tp, placeholder)
        if own is None and found is placeholder:
            raise UnknownType(
                f'no JSON Schema for the type {tp!r}: give the field metadata={{"json_schema": '
                "{...}} or describe the type with a toolparse_field_schema plugin (and register"
                " a structure hook for it on your converter: toolparse_attrs.make_converter())"
            )
        return found

    def _type(self, tp: Any, closed: bool) -> dict[str, Any] | None:
        tp = unwrap(tp)
        if tp is Any or tp is object:
            return {}
        simple = SIMPLE.get(NoneType if tp is None else tp)
        if simple is not None:
            return dict(simple)
        if is_literal(tp) or is_enum(tp):
            values = literal_values(tp)
            kinds = {JSON_TYPES.get(type(v)) for v in values}
            one = kinds.pop() if len(kinds) == 1 else None
            return {"type": one, "enum": values} if one else {"enum": values}
        if union_members(tp):
            return self._union(tp)
        origin = typing.get_origin(tp) or tp
        args = typing.get_args(tp)
        if is_model(origin):
            return self._class(origin, closed=closed)
        if is_empty_tuple(tp):
            return {"type": "array", "maxItems": 0}
        if origin is tuple and args and args[-1] is not Ellipsis:
            prefix = [self.type_schema(a) for a in args]
            return {
                "type": "array",
                "prefixItems": prefix,
                "minItems": len(args),
                "maxItems": len(args),
            }
        if origin is tuple or origin in SEQUENCES or origin in SETS:
            schema: dict[str, Any] = {"type": "array"}
            if args and (items := self.type_schema(args[0])):
                schema["items"] = items
            if origin in SETS:
                schema["uniqueItems"] = True
            return schema
        if origin in MAPPINGS:
            return self._mapping(tp, args)
        return None

    def _union(self, tp: Any) -> dict[str, Any]:
        members = union_members(tp)
        # in a union of classes cattrs picks the class by the keys present:
        # each class closed in the schema means the model sends exactly one shape
        classes = is_supported_union(tp) and sum(m is not NoneType for m in members) > 1
        branches: list[dict[str, Any]] = []
        for member in members:
            schema = self.type_schema(member, closed=True if classes else None)
            sub = schema.get("anyOf") if len(schema) == 1 else None
            branches.extend(sub if isinstance(sub, list) else [schema])
        return {"anyOf": branches}

    def _mapping(self, tp: Any, args: tuple[Any, ...]) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "object"}
        key, value = args or (str, Any)
        key = unwrap(key)
        if key is not str and key is not Any:
            names = literal_values(key) if (is_literal(key) or is_enum(key)) else None
            if names is None or not all(isinstance(n, str) for n in names):
                raise ValueError(f"{tp!r}: JSON object keys are strings, so the keys must be str")
            schema["propertyNames"] = {"enum": names}
        if unwrap(value) is not Any:
            schema["additionalProperties"] = self.type_schema(value)
        return schema

    def _class(self, cls: type, *, closed: bool) -> dict[str, Any]:
        if cls in self._stack:
            return self._ref(cls)
        if cls in self._names and self._names[cls] in self._defs:
            return {"$ref": f"#/$defs/{self._names[cls]}"}
        self._stack.append(cls)
        try:
            info = self.fields.info(cls)
            properties = {f.key: self._field(f) for f in info.fields}
        finally:
            self._stack.pop()
        schema: dict[str, Any] = {"type": "object"}
        if info.description:
            schema["description"] = info.description
        schema["properties"] = properties
        required = [f.key for f in info.fields if f.required]
        if required:
            schema["required"] = required
        if closed:
            schema["additionalProperties"] = False
        if cls in self._names and cls is not self._root:
            # it contains itself: it lives in $defs, under the name the refs use
            self._defs[self._names[cls]] = schema
            return {"$ref": f"#/$defs/{self._names[cls]}"}
        return schema

    def _ref(self, cls: type) -> dict[str, Any]:
        if cls is self._root:
            return {"$ref": "#"}
        if cls not in self._names:
            taken, name, n = set(self._names.values()), cls.__name__, 2
            while name in taken:
                name, n = f"{cls.__name__}{n}", n + 1
            self._names[cls] = name
        return {"$ref": f"#/$defs/{self._names[cls]}"}

    def _field(self, f: FieldInfo) -> dict[str, Any]:
        extra = f.field.metadata.get("json_schema")
        try:
            schema = copy.deepcopy(self.type_schema(f.type or instance_of_type(f.validator) or Any))
        except UnknownType:
            if not isinstance(extra, typing.Mapping):
                raise
            schema = {}  # the field says what it is
        apply_keywords(f.validator, schema)
        description = f.field.metadata.get("description")
        if isinstance(description, str) and description:
            schema["description"] = description
        if not f.required and (default := self._default(f)) is not NO_DEFAULT:
            schema["default"] = default
        if isinstance(extra, typing.Mapping):
            schema.update(copy.deepcopy(dict(extra)))
        return copy.deepcopy(self.field_schema(f.field, schema))

    def _default(self, f: FieldInfo) -> Any:
        value = f.default
        if isinstance(value, attrs.Factory):  # type: ignore[arg-type]
            if value.takes_self or value.factory not in _EMPTY_FACTORIES:
                # calling the user's factory here could have effects (or give a
                # value of this moment, such as now()): leave it unsaid
                return NO_DEFAULT
            return copy.deepcopy(_EMPTY_FACTORIES[value.factory])
        try:
            return json.loads(json.dumps(self.fields.converter.unstructure(value), allow_nan=False))
        except Exception:  # not JSON (or a hook of the converter refused it): no default shown
            return NO_DEFAULT
