"""JSON Schema → Gemini's ``Schema`` (the OpenAPI 3.0 subset of ``parameters``).

Gemini answers any field outside its ``Schema`` with a 400 ("Unknown name"),
rejects type arrays, ``$ref``/``$defs``, non-string enums and empty
``properties``. This conversion inlines every reference, turns ``null`` unions
into ``nullable: true``, ``oneOf`` into ``anyOf``, keeps string enums, and
describes everything else (non-string enums, ``exclusiveMinimum``, unsupported
formats, ...) in the description so the model still reads it; the parser
enforces it as before. Recursion cannot be inlined: such tools need the
JSON Schema path (option ``parameters_json_schema``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from .._schemas import free_form, merge_all_of
from ._common import Schema, resolve_ref
from ._schema import JSON_OBJECT_NOTE, Converted, tuple_note

__all__ = ["gemini_json_schema", "gemini_schema"]

_FORMATS = {
    "STRING": frozenset({"enum", "date-time"}),
    "NUMBER": frozenset({"float", "double"}),
    "INTEGER": frozenset({"int32", "int64"}),
}
_KEEP = frozenset(
    {"description", "title", "minItems", "maxItems", "minLength", "maxLength", "pattern"}
    | {"minimum", "maximum", "minProperties", "maxProperties", "default"}
)
_SILENT = frozenset(
    {"$schema", "$id", "$anchor", "$comment", "$defs", "definitions", "discriminator"}
    | {"readOnly", "writeOnly", "deprecated", "contentEncoding", "contentMediaType"}
    | {"additionalProperties", "propertyNames", "patternProperties", "unevaluatedProperties"}
)


def gemini_schema(schema: Mapping[str, Any], name: str) -> Schema | None:
    """The ``parameters`` Schema for a tool, or ``None`` when it takes no arguments.

    :raises ValueError: the schema is recursive (use ``parameters_json_schema``).
    """
    root = dict(schema)
    out = _Gemini(root, name).node(root, ())
    if out.get("type") != "OBJECT":
        raise ValueError(
            f"gemini: the parameters of tool {name!r} must be an object, got {out.get('type')!r}"
        )
    if not out.get("properties"):
        return None  # Gemini refuses an OBJECT with empty properties: omit it
    return out


def gemini_json_schema(schema: Mapping[str, Any]) -> Schema:
    """The ``parametersJsonSchema`` for a tool: JSON Schema, conservatively cleaned.

    Removes ``$schema`` (everywhere) and turns ``const`` into a one-value
    ``enum``; keeps ``$ref``/``$defs`` (recursion works on this path) and key order.
    """

    def clean(node: Any) -> Any:
        if isinstance(node, list):
            return [clean(v) for v in node]
        if not isinstance(node, Mapping):
            return node
        out: Schema = {}
        for key, value in node.items():
            if key == "$schema":
                continue
            if key == "const":
                out["enum"] = [copy.deepcopy(value)]
            elif key in ("enum", "default", "examples", "required"):
                out[key] = copy.deepcopy(value)
            else:
                out[key] = clean(value)
        return out

    result: Schema = clean(schema)
    return result


class _Gemini:
    """The Gemini ``Schema`` of every subschema of one root.

    :meth:`node` is the one recursive transform: a reference is inlined and
    ``allOf`` merged first; then ``type`` and ``anyOf`` give the type and
    whether null is allowed, each other keyword goes through its rule
    (``_RULES``; a keyword without one is kept when the ``Schema`` has it,
    else described), and the array and object keywords come last.
    """

    __slots__ = ("inlining", "name", "root")

    def __init__(self, root: Schema, name: str) -> None:
        self.root = root
        self.name = name
        self.inlining: list[str] = []

    def node(self, schema: object, path: tuple[str, ...]) -> Schema:
        """``schema`` as a Gemini ``Schema``."""
        if len(path) > 200:
            raise ValueError(f"gemini: the schema of tool {self.name!r} is nested too deeply")
        if not isinstance(schema, Mapping):
            return _any_value()  # true: any value
        s = dict(schema)
        ref = s.pop("$ref", None)
        if isinstance(ref, str):
            # resolved here, not in a helper: a level of nesting costs as few frames as it can
            if ref in self.inlining:
                raise self.recursive(path)
            self.inlining.append(ref)
            try:
                return self.node({**resolve_ref(self.root, ref), **s}, path)
            finally:
                self.inlining.pop()
        if isinstance(s.get("allOf"), list):
            # the parts as one schema first (a part may say only `required`), here too
            try:
                return self.node(merge_all_of(s, self.root), path)
            except ValueError:
                pass  # parts that disagree as JSON Schema may agree once converted
            merged: Schema = {}
            for part in s.pop("allOf"):
                merged = _merge(merged, self.node(part, path), self.name)
            return _merge(merged, self.node(s, path), self.name) if s else merged
        if path and free_form(s):
            return self.json_string(s)  # an OBJECT needs properties: a JSON-encoded STRING
        node = Converted(path)
        self.types(s.get("type"), node)
        if "oneOf" in s:
            s["anyOf"] = [*s.get("anyOf", ()), *s.pop("oneOf")]
        self.branches(s.get("anyOf"), node)
        for key, value in s.items():
            _RULES.get(key, _Gemini.other)(self, key, value, node)
        self.array(s, node)
        self.object(s, node)
        return self.finished(node)

    def finished(self, node: Converted) -> Schema:
        if not ({"type", "anyOf", "enum"} & node.out.keys()):
            node.out = {**_any_value(), **node.out}  # a value of any type
        if node.nullable:
            node.out["nullable"] = True
        return node.done()

    def recursive(self, path: tuple[str, ...]) -> ValueError:
        return ValueError(
            f"gemini parameters cannot express the recursive schema of tool "
            f"{self.name!r} (at {'/'.join(path) or 'the root'}); use options="
            '{"parameters_json_schema": True} to send JSON Schema instead'
        )

    def json_string(self, s: Schema) -> Schema:
        """A free-form object as a JSON-encoded STRING, decoded before the parser runs."""
        node = Converted((), [JSON_OBJECT_NOTE])
        node.out["type"] = "STRING"
        if "description" in s:
            node.out["description"] = s["description"]
        values = s.get("additionalProperties")
        if isinstance(values, Mapping) and values:
            node.note("each value", values)
        if s.get("type") == ["object", "null"] or s.get("nullable"):
            node.out["nullable"] = True
        return node.done()

    def types(self, kind: object, node: Converted) -> None:
        """``type``: one type, or a union (a type array is refused, "not repeating"); null apart."""
        kinds = kind if isinstance(kind, list) else [kind] if isinstance(kind, str) else []
        if "null" in kinds:
            node.nullable = True
            kinds = [k for k in kinds if k != "null"]
        if len(kinds) == 1:
            node.out["type"] = kinds[0].upper()
        elif len(kinds) > 1:
            node.out["anyOf"] = [{"type": k.upper()} for k in kinds]

    def branches(self, branches: object, node: Converted) -> None:
        """``anyOf``: its null branch becomes ``nullable``; ``Optional[X]`` becomes X itself."""
        if not isinstance(branches, list):
            return
        kept = [b for b in branches if not (isinstance(b, Mapping) and b.get("type") == "null")]
        node.nullable = node.nullable or len(kept) < len(branches)
        converted = [self.node(b, (*node.path, "anyOf", str(i))) for i, b in enumerate(kept)]
        if len(converted) == 1:
            node.out = {**converted[0], **node.out}  # the field's own keys win
            node.nullable = node.nullable or bool(converted[0].get("nullable"))
        elif converted:
            node.out["anyOf"] = converted

    # -- the keyword rules: each writes the keyword into node.out, or a note ------

    def other(self, key: str, value: Any, node: Converted) -> None:
        """Kept when the ``Schema`` has it; else described (annotations dropped)."""
        if key in _KEEP:
            node.out[key] = value
        elif key not in _SILENT:
            node.note(key, value)

    def skip(self, key: str, value: Any, node: Converted) -> None:
        """Read by :meth:`types`, :meth:`branches`, :meth:`array` or :meth:`object`."""

    def values(self, key: str, value: Any, node: Converted) -> None:
        """``enum`` and ``const``: Gemini's enums are strings; other values said in words."""
        values = list(value) if key == "enum" and isinstance(value, list) else [value]
        if None in values:
            node.nullable = True
            values = [v for v in values if v is not None]
        if not values:
            return
        if all(isinstance(v, str) for v in values) and node.out.get("type", "STRING") == "STRING":
            node.out["enum"] = values
            node.out.setdefault("type", "STRING")
            return
        # a string would not parse back as the number the tool wants
        node.note("one of", values) if key == "enum" else node.note("must be", values[0])
        value_types = {_value_type(v) for v in values}
        if "type" not in node.out and len(value_types) == 1 and None not in value_types:
            node.out["type"] = value_types.pop()

    def format(self, key: str, value: Any, node: Converted) -> None:
        if value in _FORMATS.get(node.out.get("type", ""), ()):
            node.out[key] = value
        else:
            node.note(key, value)

    def examples(self, key: str, value: Any, node: Converted) -> None:
        if isinstance(value, list) and value:
            node.out["example"] = value[0]
        else:
            self.other(key, value, node)

    def default(self, key: str, value: Any, node: Converted) -> None:
        """Kept, but a null one: ``nullable`` says it, and some models refuse it."""
        if value is not None:
            node.out[key] = value

    def open_map(self, key: str, value: Any, node: Converted) -> None:
        """The values of an open map, said in words (an OBJECT takes no other keys)."""
        if isinstance(value, Mapping) and value:
            node.note("values", self.node(value, (*node.path, key)))

    # -- arrays and objects ---------------------------------------------------------

    def array(self, s: Schema, node: Converted) -> None:
        """``items``: a tuple's union, the items schema, or any value (an ARRAY needs one)."""
        items = s.get("items")
        if isinstance(s.get("prefixItems"), list):
            node.out["items"] = self.positional(s, node)
        elif isinstance(items, Mapping) and items:
            node.out["items"] = self.node(items, (*node.path, "items"))
        elif node.out.get("type") == "ARRAY":
            node.out["items"] = _any_value()

    def positional(self, s: Schema, node: Converted) -> Schema:
        """Positional items (no Schema field says them): their union, and the order in words."""
        prefix, rest = s["prefixItems"], s.get("items")
        converted = [self.node(v, (*node.path, "items", str(i))) for i, v in enumerate(prefix)]
        most = s.get("maxItems")
        closed = rest is False or (isinstance(most, int) and most <= len(prefix))
        tail: list[Schema] = []
        if not closed:
            tail = (
                [self.node(rest, (*node.path, "items"))]
                if isinstance(rest, Mapping) and rest
                else []
            )
            tail = tail or list(_any_value()["anyOf"])
        union = [b for i, b in enumerate(converted + tail) if b not in (converted + tail)[:i]]
        if closed:
            node.out["maxItems"] = min(most, len(prefix)) if isinstance(most, int) else len(prefix)
        kinds = [str(b.get("type", "value")).lower() for b in converted]
        rest_kind = (
            str(tail[0].get("type", "value")).lower()
            if isinstance(rest, Mapping) and rest and tail
            else None
        )
        node.notes.append(tuple_note(kinds, rest_kind, closed))
        node.out.setdefault("type", "ARRAY")
        return union[0] if len(union) == 1 else {"anyOf": union}

    def object(self, s: Schema, node: Converted) -> None:
        """``properties``, in their order; a part of an ``allOf`` may say only ``required``."""
        props = s.get("properties")
        out = node.out
        if not isinstance(props, Mapping):
            if isinstance(s.get("required"), list) and s["required"]:
                out["required"] = list(s["required"])
            return
        out.setdefault("type", "OBJECT")
        if not props:
            return
        converted: Schema = {}
        for name, prop in props.items():
            converted[name] = self.node(prop, (*node.path, name))
        out["properties"] = converted
        required = [r for r in s.get("required") or () if r in props]
        if required:
            out["required"] = required
        out["propertyOrdering"] = list(props)


_Rule = Callable[[_Gemini, str, Any, Converted], None]
_RULES: dict[str, _Rule] = {
    **dict.fromkeys(
        ("type", "anyOf", "properties", "required", "items", "prefixItems", "additionalItems"),
        _Gemini.skip,
    ),
    "enum": _Gemini.values,
    "const": _Gemini.values,
    "format": _Gemini.format,
    "examples": _Gemini.examples,
    "default": _Gemini.default,
    "additionalProperties": _Gemini.open_map,
}


def _value_type(value: Any) -> str | None:
    """The Schema type of a JSON value (``None`` for null)."""
    if isinstance(value, bool):
        return "BOOLEAN"
    if isinstance(value, int):
        return "INTEGER"
    if isinstance(value, float):
        return "NUMBER"
    if isinstance(value, str):
        return "STRING"
    if isinstance(value, list):
        return "ARRAY"
    if isinstance(value, dict):
        return "OBJECT"
    return None


def _any_value() -> Schema:
    """Any value, as the Schema can say it: a string, a number or a boolean."""
    return {"anyOf": [{"type": "STRING"}, {"type": "NUMBER"}, {"type": "BOOLEAN"}]}


def _merge(a: Schema, b: Schema, name: str) -> Schema:
    """Two schemas that must both hold (``allOf``), as one."""
    out = dict(a)
    for key, value in b.items():
        if key == "properties":
            out[key] = {**out.get(key, {}), **value}
        elif key == "required" or key == "propertyOrdering":
            out[key] = list(dict.fromkeys([*out.get(key, []), *value]))
        elif key == "description" and key in out and out[key] != value:
            out[key] = f"{out[key]} {value}"
        elif key in out and out[key] != value:
            raise ValueError(
                f"gemini parameters cannot express an allOf whose parts disagree on "
                f"{key!r} (tool {name!r})"
            )
        else:
            out[key] = value
    return out
