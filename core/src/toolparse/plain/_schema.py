"""JSON Schema for a plain-type node tree (see ``_nodes``).

Nested classes are written inline, which is what models read most reliably;
only a class that contains itself (directly or through others) goes to
``$defs`` and is referenced with ``$ref``.
"""

from __future__ import annotations

import enum
import math
from typing import Any

from ..adapter import JSON_TYPES, FieldSchema
from . import _nodes as nodes

__all__ = ["object_schema"]


def object_schema(root: nodes.ObjectNode, field_schema: FieldSchema) -> dict[str, Any]:
    """Write the parameters schema of a node tree, each property through ``field_schema``."""
    writer = _Writer(field_schema, set())
    schema = writer.record(root)
    if writer.met_again:
        # written again, with the classes met inside themselves under $defs
        writer = _Writer(field_schema, writer.met_again)
        schema = writer.record(root)
        schema["$defs"] = writer.defs
    return schema


class _Writer:
    def __init__(self, field_schema: FieldSchema, recursive: set[nodes.ObjectNode]) -> None:
        self.field_schema = field_schema
        self.recursive = recursive
        self.met_again: set[nodes.ObjectNode] = set()
        self.inside: list[nodes.ObjectNode] = []
        self.defs: dict[str, Any] = {}
        self.names: dict[nodes.ObjectNode, str] = {}

    def write(self, node: nodes.Node) -> dict[str, Any]:
        if isinstance(node, nodes.ScalarNode):
            return {"type": JSON_TYPES[node.type]}
        if isinstance(node, nodes.AnyNode):
            return {}
        if isinstance(node, nodes.ObjectNode):
            return self.ref(node) if node in self.recursive else self.record(node)
        if isinstance(node, (nodes.ListNode, nodes.TupleNode, nodes.DictNode)):
            return self.container(node)
        if isinstance(node, nodes.ChoiceNode):
            values = [value for value, _ in node.choices]
            kinds = {JSON_TYPES[type(value)] for value in values}
            return {"type": kinds.pop(), "enum": values} if len(kinds) == 1 else {"enum": values}
        if isinstance(node, nodes.UnionNode):
            return self.union(node)
        if isinstance(node, nodes.DescribedNode):
            return {**self.write(node.node), "description": node.description}
        assert isinstance(node, nodes.CustomNode)
        return dict(node.schema)

    def container(self, node: nodes.ListNode | nodes.TupleNode | nodes.DictNode) -> dict[str, Any]:
        if isinstance(node, nodes.TupleNode):
            n = len(node.items)
            prefix = {"prefixItems": [self.write(item) for item in node.items], "minItems": n}
            return {"type": "array", **(prefix if n else {}), "maxItems": n}
        schema: dict[str, Any]
        if isinstance(node, nodes.ListNode):
            schema, key, inner = {"type": "array"}, "items", node.item
        else:
            schema, key, inner = {"type": "object"}, "additionalProperties", node.value
        found = self.write(inner)
        if found:
            schema[key] = found
        return schema

    def union(self, node: nodes.UnionNode) -> dict[str, Any]:
        options: list[dict[str, Any]] = []
        for member in node.members:
            schema = self.write(member)
            if not schema:
                return {}  # Any among the members: anything goes
            for option in schema["anyOf"] if list(schema) == ["anyOf"] else [schema]:
                if option not in options:
                    options.append(option)
        return options[0] if len(options) == 1 else {"anyOf": options}

    def ref(self, node: nodes.ObjectNode) -> dict[str, Any]:
        name = self.names.get(node)
        if name is None:
            name = base = node.cls.__name__
            count = 1
            while name in self.names.values():
                count += 1
                name = f"{base}{count}"
            # named before it is written, so its own fields can refer to it
            self.names[node] = name
            self.defs[name] = self.record(node)
        return {"$ref": f"#/$defs/{name}"}

    def record(self, node: nodes.ObjectNode) -> dict[str, Any]:
        if node in self.inside and node not in self.recursive:
            self.met_again.add(node)
            return {}
        self.inside.append(node)
        schema: dict[str, Any] = {"type": "object"}
        if node.description:
            schema["description"] = node.description
        properties: dict[str, Any] = {}
        for f in node.fields:
            prop = self.write(f.node)
            if f.description is not None:
                prop["description"] = f.description
            default = _json_default(f.default)  # (``MISSING`` when none: no JSON data)
            if default is not _NOT_JSON:
                prop["default"] = default
            properties[f.name] = self.field_schema(f.annotation, prop)
        schema["properties"] = properties
        required = [f.name for f in node.fields if f.required]
        if required:
            schema["required"] = required
        # a dataclass __init__ refuses unknown names, and the parser refuses
        # them for TypedDicts too: say so at every level
        schema["additionalProperties"] = False
        self.inside.pop()
        return schema


_NOT_JSON: Any = object()


def _json_default(value: Any) -> Any:
    """``value`` as JSON data, or ``_NOT_JSON``."""
    if isinstance(value, enum.Enum):
        value = value.value
    kind = type(value)
    if value is None or kind in (str, int, bool) or (kind is float and math.isfinite(value)):
        return value
    if kind in (list, tuple):
        items = [_json_default(item) for item in value]
        return _NOT_JSON if _NOT_JSON in items else items
    if kind is dict and all(type(k) is str for k in value):
        pairs = {k: _json_default(v) for k, v in value.items()}
        return _NOT_JSON if _NOT_JSON in pairs.values() else pairs
    return _NOT_JSON
