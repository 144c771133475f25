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
from collections.abc import Mapping
from typing import Any

from .._schemas import free_form, merge_all_of
from ._common import Schema, add_notes, note, resolve_ref
from ._schema import JSON_OBJECT_NOTE, tuple_note

__all__ = ["gemini_json_schema", "gemini_schema"]

_TYPES = {
    "string": "STRING",
    "number": "NUMBER",
    "integer": "INTEGER",
    "boolean": "BOOLEAN",
    "array": "ARRAY",
    "object": "OBJECT",
    "null": "NULL",
}
_FORMATS = {
    "STRING": frozenset({"enum", "date-time"}),
    "NUMBER": frozenset({"float", "double"}),
    "INTEGER": frozenset({"int32", "int64"}),
}
_KEEP = frozenset(
    {
        "description",
        "title",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "minProperties",
        "maxProperties",
        "default",
    }
)
_SILENT = frozenset(
    {
        "$schema",
        "$id",
        "$anchor",
        "$comment",
        "$defs",
        "definitions",
        "discriminator",
        "readOnly",
        "writeOnly",
        "deprecated",
        "contentEncoding",
        "contentMediaType",
        "additionalProperties",
        "propertyNames",
        "patternProperties",
        "unevaluatedProperties",
    }
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
    __slots__ = ("inlining", "name", "root")

    def __init__(self, root: Schema, name: str) -> None:
        self.root = root
        self.name = name
        self.inlining: list[str] = []

    def node(self, schema: object, path: tuple[str, ...]) -> Schema:
        if len(path) > 200:
            raise ValueError(f"gemini: the schema of tool {self.name!r} is nested too deeply")
        if not isinstance(schema, Mapping):
            return _any_value()  # true: any value
        s = dict(schema)
        ref = s.pop("$ref", None)
        if isinstance(ref, str):
            if ref in self.inlining:
                where = "/".join(path) or "the root"
                raise ValueError(
                    f"gemini parameters cannot express the recursive schema of tool "
                    f"{self.name!r} (at {where}); use options="
                    '{"parameters_json_schema": True} to send JSON Schema instead'
                )
            self.inlining.append(ref)
            try:
                return self.node({**resolve_ref(self.root, ref), **s}, path)
            finally:
                self.inlining.pop()
        if isinstance(s.get("allOf"), list):
            # the parts as one schema first (a part may say only `required`)
            try:
                return self.node(merge_all_of(s, self.root), path)
            except ValueError:
                pass  # parts that disagree as JSON Schema may agree once converted
            all_of = s.pop("allOf")
            merged: Schema = {}
            for part in all_of:
                merged = _merge(merged, self.node(part, path), self.name)
            return _merge(merged, self.node(s, path), self.name) if s else merged
        if "oneOf" in s:
            s["anyOf"] = [*s.get("anyOf", ()), *s.pop("oneOf")]
        if path and free_form(s):
            # an OBJECT needs non-empty properties: a JSON-encoded string
            # instead, decoded before the parser runs
            return self.json_string(s, path)
        notes: list[str] = []
        out: Schema = {}
        nullable = False

        kind = s.get("type")
        kinds = kind if isinstance(kind, list) else [kind] if isinstance(kind, str) else []
        if "null" in kinds:
            nullable = True
            kinds = [k for k in kinds if k != "null"]
        if len(kinds) == 1:
            out["type"] = _TYPES.get(kinds[0], kinds[0].upper())
        elif len(kinds) > 1:
            # a type array is refused ("Proto field is not repeating"): a union
            out["anyOf"] = [{"type": _TYPES.get(k, k.upper())} for k in kinds]

        branches = s.get("anyOf")
        if isinstance(branches, list):
            kept = [b for b in branches if not (isinstance(b, Mapping) and b.get("type") == "null")]
            nullable = nullable or len(kept) < len(branches)
            converted = [self.node(b, (*path, "anyOf", str(i))) for i, b in enumerate(kept)]
            if len(converted) == 1:
                # Optional[X]: X itself, nullable; the field's own keys win
                out = {**converted[0], **out}
                if converted[0].get("nullable"):
                    nullable = True
            elif converted:
                out["anyOf"] = converted

        for key, value in s.items():
            if key in (
                "type",
                "anyOf",
                "properties",
                "required",
                "items",
                "prefixItems",
                "additionalItems",
            ):
                continue
            if key == "enum" or key == "const":
                values = list(value) if key == "enum" and isinstance(value, list) else [value]
                if None in values:
                    nullable = True
                    values = [v for v in values if v is not None]
                if (
                    values
                    and all(isinstance(v, str) for v in values)
                    and out.get("type", "STRING") == "STRING"
                ):
                    out["enum"] = values
                    out.setdefault("type", "STRING")
                elif values:
                    # Gemini enums are strings only; a string would not parse
                    # back as the number the tool wants, so say it in words
                    notes.append(
                        note("one of", values) if key == "enum" else note("must be", values[0])
                    )
                    value_types = {_value_type(v) for v in values}
                    if "type" not in out and len(value_types) == 1 and None not in value_types:
                        out["type"] = value_types.pop()
            elif key == "format":
                if value in _FORMATS.get(out.get("type", ""), ()):
                    out[key] = value
                else:
                    notes.append(note(key, value))
            elif key == "examples" and isinstance(value, list) and value:
                out["example"] = value[0]
            elif key == "default" and value is None:
                continue  # nullable says it; a null default is refused by some models
            elif key in _KEEP:
                out[key] = value
            elif key == "additionalProperties" and isinstance(value, Mapping) and value:
                notes.append(note("values", self.node(value, (*path, key))))
            elif key not in _SILENT:
                notes.append(note(key, value))

        prefix = s.get("prefixItems")
        items = s.get("items")
        if isinstance(items, list):  # draft-07 tuple form
            prefix, items = items, s.get("additionalItems")
        if isinstance(prefix, list):
            out["items"] = self.positional(prefix, items, s, out, notes, path)
        elif isinstance(items, Mapping) and items:
            out["items"] = self.node(items, (*path, "items"))
        elif out.get("type") == "ARRAY":
            out["items"] = _any_value()  # Gemini refuses an ARRAY without items

        props = s.get("properties")
        if isinstance(props, Mapping):
            out.setdefault("type", "OBJECT")
            if props:
                out["properties"] = {k: self.node(v, (*path, k)) for k, v in props.items()}
                required = [r for r in s.get("required") or () if r in props]
                if required:
                    out["required"] = required
                out["propertyOrdering"] = list(props)
        elif isinstance(s.get("required"), list) and s["required"]:
            out["required"] = list(s["required"])  # a part of an allOf
        if not ({"type", "anyOf", "enum"} & set(out)):
            out = {**_any_value(), **out}  # a value of any type
        if nullable:
            out["nullable"] = True
        add_notes(out, notes)
        return out

    def json_string(self, s: Schema, path: tuple[str, ...]) -> Schema:
        """A free-form object as a JSON-encoded STRING."""
        out: Schema = {"type": "STRING"}
        if "description" in s:
            out["description"] = s["description"]
        notes = [JSON_OBJECT_NOTE]
        values = s.get("additionalProperties")
        if isinstance(values, Mapping) and values:
            notes.append(note("each value", values))
        if s.get("type") == ["object", "null"] or s.get("nullable"):
            out["nullable"] = True
        add_notes(out, notes)
        return out

    def positional(
        self,
        prefix: list[Any],
        rest: Any,
        s: Schema,
        out: Schema,
        notes: list[str],
        path: tuple[str, ...],
    ) -> Schema:
        """Positional items (no Schema field says them): their union, and the order in words."""
        converted = [self.node(v, (*path, "items", str(i))) for i, v in enumerate(prefix)]
        most = s.get("maxItems")
        closed = rest is False or (isinstance(most, int) and most <= len(prefix))
        tail: list[Schema] = []
        if not closed:
            tail = [self.node(rest, (*path, "items"))] if isinstance(rest, Mapping) and rest else []
            tail = tail or list(_any_value()["anyOf"])
        union = [b for i, b in enumerate(converted + tail) if b not in (converted + tail)[:i]]
        if closed:
            out["maxItems"] = min(most, len(prefix)) if isinstance(most, int) else len(prefix)
        kinds = [str(b.get("type", "value")).lower() for b in converted]
        rest_kind = (
            str(tail[0].get("type", "value")).lower()
            if isinstance(rest, Mapping) and rest and tail
            else None
        )
        notes.append(tuple_note(kinds, rest_kind, closed))
        out.setdefault("type", "ARRAY")
        return union[0] if len(union) == 1 else {"anyOf": union}


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
