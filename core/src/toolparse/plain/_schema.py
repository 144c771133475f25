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
from ._nodes import (
    AnyNode,
    ChoiceNode,
    CustomNode,
    DescribedNode,
    DictNode,
    ListNode,
    Node,
    ObjectNode,
    ScalarNode,
    TupleNode,
    UnionNode,
)

__all__ = ["object_schema"]


def object_schema(root: ObjectNode, field_schema: FieldSchema) -> dict[str, Any]:
    """Write the parameters schema of a dataclass or TypedDict node tree.

    Every property goes through ``field_schema`` (the ``toolparse_field_schema``
    hook) with what this writer would emit.
    """
    writer = _Writer(_recursive(root), field_schema)
    schema = writer.record(root)
    if writer.defs:
        schema["$defs"] = writer.defs
    return schema


def _children(node: Node) -> list[Node]:
    if isinstance(node, ObjectNode):
        return [f.node for f in node.fields]
    if isinstance(node, ListNode):
        return [node.item]
    if isinstance(node, TupleNode):
        return list(node.items)
    if isinstance(node, DictNode):
        return [node.value]
    if isinstance(node, UnionNode):
        return list(node.members)
    if isinstance(node, DescribedNode):
        return [node.node]
    return []


def _recursive(root: ObjectNode) -> set[ObjectNode]:
    """Find the class nodes met again inside themselves: those go to ``$defs``."""
    found: set[ObjectNode] = set()
    on_path: set[ObjectNode] = set()
    done: set[ObjectNode] = set()

    def visit(node: Node) -> None:
        if isinstance(node, ObjectNode):
            if node in on_path:
                found.add(node)
                return
            if node in done:
                return
            on_path.add(node)
            for child in _children(node):
                visit(child)
            on_path.discard(node)
            done.add(node)
            return
        for child in _children(node):
            visit(child)

    visit(root)
    return found


class _Writer:
    def __init__(self, recursive: set[ObjectNode], field_schema: FieldSchema) -> None:
        self.recursive = recursive
        self.field_schema = field_schema
        self.defs: dict[str, Any] = {}
        self.names: dict[ObjectNode, str] = {}

    def write(self, node: Node) -> dict[str, Any]:
        if isinstance(node, ScalarNode):
            return {"type": node.kind}
        if isinstance(node, AnyNode):
            return {}
        if isinstance(node, ObjectNode):
            return self.ref(node) if node in self.recursive else self.record(node)
        if isinstance(node, ListNode):
            schema: dict[str, Any] = {"type": "array"}
            items = self.write(node.item)
            if items:
                schema["items"] = items
            return schema
        if isinstance(node, TupleNode):
            n = len(node.items)
            schema = {"type": "array"}
            if n:
                schema["prefixItems"] = [self.write(item) for item in node.items]
                schema["minItems"] = n
            schema["maxItems"] = n
            return schema
        if isinstance(node, DictNode):
            schema = {"type": "object"}
            values = self.write(node.value)
            if values:
                schema["additionalProperties"] = values
            return schema
        if isinstance(node, ChoiceNode):
            return _choice(node)
        if isinstance(node, UnionNode):
            return self.union(node)
        if isinstance(node, DescribedNode):
            return {**self.write(node.node), "description": node.description}
        assert isinstance(node, CustomNode)
        return dict(node.schema)

    def union(self, node: UnionNode) -> dict[str, Any]:
        options: list[dict[str, Any]] = []
        for member in node.members:
            schema = self.write(member)
            if not schema:
                return {}  # Any among the members: anything goes
            for option in schema["anyOf"] if list(schema) == ["anyOf"] else [schema]:
                if option not in options:
                    options.append(option)
        return options[0] if len(options) == 1 else {"anyOf": options}

    def ref(self, node: ObjectNode) -> dict[str, Any]:
        name = self.names.get(node)
        if name is None:
            name = base = node.cls.__name__
            taken = set(self.names.values())
            count = 1
            while name in taken:
                count += 1
                name = f"{base}{count}"
            # named before it is written, so its own fields can refer to it
            self.names[node] = name
            self.defs[name] = self.record(node)
        return {"$ref": f"#/$defs/{name}"}

    def record(self, node: ObjectNode) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "object"}
        if node.description:
            schema["description"] = node.description
        properties: dict[str, Any] = {}
        for f in node.fields:
            prop = self.write(f.node)
            if f.description is not None:
                prop["description"] = f.description
            if f.has_default:
                default = _json_default(f.default)
                if default is not _NO_DEFAULT:
                    prop["default"] = default
            properties[f.name] = self.field_schema(f.annotation, prop)
        schema["properties"] = properties
        required = [f.name for f in node.fields if f.required]
        if required:
            schema["required"] = required
        # a dataclass __init__ refuses unknown names, and the parser refuses
        # them for TypedDicts too: say so at every level
        schema["additionalProperties"] = False
        return schema


def _choice(node: ChoiceNode) -> dict[str, Any]:
    values = [value for value, _ in node.choices]
    kinds = {JSON_TYPES[type(value)] for value in values}
    schema: dict[str, Any] = {}
    if len(kinds) == 1:
        schema["type"] = kinds.pop()
    schema["enum"] = values
    return schema


class _NoDefault:
    pass


_NO_DEFAULT = _NoDefault()


def _json_default(value: Any) -> Any:
    """``value`` as JSON data, or ``_NO_DEFAULT`` when it is not JSON data."""
    if isinstance(value, enum.Enum):
        value = value.value
    if value is None or type(value) in (str, int, bool):
        return value
    if type(value) is float:
        return value if math.isfinite(value) else _NO_DEFAULT
    if type(value) in (list, tuple):
        items = [_json_default(item) for item in value]
        return _NO_DEFAULT if any(i is _NO_DEFAULT for i in items) else items
    if type(value) is dict and all(type(k) is str for k in value):
        pairs = {k: _json_default(v) for k, v in value.items()}
        return _NO_DEFAULT if any(v is _NO_DEFAULT for v in pairs.values()) else pairs
    return _NO_DEFAULT
