"""Strict schemas: the JSON Schema subset OpenAI and Anthropic decode against.

Both want every object closed. OpenAI also wants every property in ``required``: an optional one
becomes nullable, ``null`` meaning "not sent" (the core drops it before the parser, so its default
applies). Keywords a provider does not decode against are described in the description instead.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from .._schemas import free_form, merge_all_of, resolve_ref
from .._schemas import nullable as admits_null
from ._base import Schema
from ._schema import Converted, Rule, SchemaWalk, note

__all__ = ["strict_schema"]

Target = Literal["openai", "anthropic"]

_OPENAI_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
_FORMATS: dict[Target, frozenset[str]] = {
    "openai": _OPENAI_FORMATS,
    "anthropic": _OPENAI_FORMATS | {"uri"},
}
# keywords kept as they are (after their values were made strict)
_STRUCTURE = frozenset(
    {"type", "properties", "required", "additionalProperties", "items", "enum", "anyOf"}
    | {"description", "title", "$ref", "$defs", "definitions"}
)
_KEEP: dict[Target, frozenset[str]] = {
    "openai": _STRUCTURE
    | {"pattern", "format", "multipleOf", "maximum", "exclusiveMaximum", "minimum"}
    | {"exclusiveMinimum", "minItems", "maxItems", "minLength", "maxLength"},
    "anthropic": _STRUCTURE | {"pattern", "format", "minItems", "const", "allOf", "default"},
}
_PRIMITIVE = (str, int, float, bool, type(None))
# a schema with none of these allows a value of any type
_TYPED = frozenset({"type", "anyOf", "allOf", "enum", "const", "$ref"})


def strict_schema(schema: Mapping[str, Any], target: Target, provider: str, name: str) -> Schema:
    """The strict form of a tool's parameters schema (not modified) for ``target``.

    ``"openai"`` makes every property required (optional ones nullable); ``"anthropic"`` keeps
    ``required``. ``provider`` and ``name`` (the tool's) are for errors.
    """
    root = dict(schema)
    try:
        if isinstance(root.get("$ref"), str):
            # a chain of root references (parameters inlined the first): the target is not
            # being inlined while the definitions are converted, so its own references are
            root = {**resolve_ref(root, root.pop("$ref")), **root}
        if isinstance(root.get("anyOf") or root.get("oneOf"), list):
            raise ValueError("the root of a strict schema must be an object, not anyOf/oneOf")
        walker = _Strict(root, target)
        out = walker.node(root, ())
        why = _recursion(out) if target == "anthropic" else None
        if why is not None:
            raise walker.fail((), why)  # Anthropic's strict mode decodes no recursive schemas
    except ValueError as exc:
        raise ValueError(f"{provider}: tool {name!r}: {exc}") from None
    return out


class _Strict(SchemaWalk):
    """The strict form of every subschema of one root, for one target (objects closed last)."""

    __slots__ = ("formats", "keep", "rules", "target")
    keeps_refs = True
    string = "string"
    any_value = tuple({"type": t} for t in ("string", "number", "boolean", "null"))
    map_notes = ("minProperties", "maxProperties", "propertyNames", "patternProperties")
    rules: dict[str, Rule]

    def __init__(self, root: Schema, target: Target) -> None:
        super().__init__(root)
        self.target: Target = target
        self.keep = _KEEP[target]
        self.formats = _FORMATS[target]
        self.rules = _TARGET_RULES[target]

    def fail(self, path: tuple[str, ...], why: str, change: str | None = None) -> ValueError:
        where = "/".join(path) or "the root"
        return ValueError(
            f"{self.target} strict mode cannot express the schema at {where}: {why}; "
            f"{change + ', or ' if change else ''}export this tool with strict=False"
        )

    def start(self, schema: object, path: tuple[str, ...]) -> Schema:
        if schema is False:
            raise self.fail(path, "a schema that allows no value")
        return super().start(schema, path)

    def cycle(self, ref: str, path: tuple[str, ...]) -> Schema:
        return {"$ref": ref}  # the bare reference: the definitions go along

    def all_of(self, s: Schema, path: tuple[str, ...], notes: list[str] | None) -> Schema:
        """``allOf`` as one schema: each part closed on its own would make it unsatisfiable."""
        try:
            merged = merge_all_of(s, self.root)
        except ValueError as exc:
            raise self.fail(
                path, str(exc), "make the parts agree (or merge them by hand)"
            ) from None
        return self.node(merged, path, notes)

    def convert(self, s: Schema, node: Converted) -> Schema:
        if node.path and _is_object(s) and free_form(s):
            self.json_string(s, node)
            return node.done()
        items = self.array_items(s, node)
        if "oneOf" in s:
            # as anyOf (neither strict mode decodes oneOf), moved last
            if "anyOf" in s:
                raise self.fail(node.path, "both anyOf and oneOf")
            s["anyOf"] = s.pop("oneOf")
        for key, value in s.items():
            rule: Rule = self.rules.get(key, SchemaWalk.other)
            rule(self, key, value, node)
            if key == "type" and items is not None:
                node.out["items"] = items
        if _is_object(s):
            self.object(s, node)
        if not (_TYPED & node.out.keys()):
            node.out.update(self.anything())  # any type: every schema needs one
        return node.done()

    def kind(self, schema: Schema) -> str:
        kind = schema.get("type")
        if isinstance(kind, list):
            return " or ".join(kind)
        if isinstance(kind, str):
            return kind
        if "enum" in schema:
            return " or ".join(json.dumps(v) for v in schema["enum"])
        if "anyOf" in schema:
            return " or ".join(self.kind(b) for b in schema["anyOf"])
        ref = schema.get("$ref")
        return ref.rsplit("/", 1)[-1] if isinstance(ref, str) else "value"

    # -- the keyword rules: each writes the keyword into node.out, or a note ------

    def definitions(self, key: str, value: Any, node: Converted) -> None:
        if isinstance(value, Mapping):
            node.out[key] = {k: self.node(v, (*node.path, key, k)) for k, v in value.items()}

    def branches(self, key: str, value: Any, node: Converted) -> None:
        node.out[key] = self.one_string(
            [self.node(v, (*node.path, key, str(i))) for i, v in enumerate(value)], node
        )

    def items(self, key: str, value: Any, node: Converted) -> None:
        if value is False:
            raise self.fail(node.path, "an array that allows no items")
        node.out[key] = self.node(value, (*node.path, "items"))

    def const(self, key: str, value: Any, node: Converted) -> None:
        if not isinstance(value, _PRIMITIVE):
            node.note(key, value)
        elif self.target == "openai":
            node.out["enum"] = [value]
        else:
            node.out[key] = value

    def enum(self, key: str, value: Any, node: Converted) -> None:
        if isinstance(value, list) and all(isinstance(v, _PRIMITIVE) for v in value):
            node.out[key] = list(value)
        else:
            node.note("one of", value)

    def allowed(self, key: str, value: Any, node: Converted) -> None:
        """Kept when the target decodes this value (a format, Anthropic's ``minItems``)."""
        if value in (self.formats if key == "format" else (0, 1)):
            node.out[key] = value
        else:
            node.note(key, value)

    def default(self, key: str, value: Any, node: Converted) -> None:
        """OpenAI decodes no ``default``: described (``null`` tells the model nothing)."""
        if value is not None:
            node.note(key, value)

    # -- arrays and objects ---------------------------------------------------------

    def array_items(self, s: Schema, node: Converted) -> Schema | None:
        """The ``items`` of a tuple (its keys leave ``s``) or an array without any, or ``None``."""
        if isinstance(s.get("prefixItems"), list):
            items, largest = self.positional(s, node)
            del s["prefixItems"]
            s.pop("items", None)
            if largest is not None:
                s["maxItems"] = largest
            s.setdefault("type", "array")
            return items
        if s.get("type") == "array" and "items" not in s:
            return self.anything()  # OpenAI refuses an array without
        return None

    def object(self, s: Schema, node: Converted) -> None:
        """Closed; for OpenAI every property required (``null`` for an optional one: "not sent")."""
        open_map = s.get("additionalProperties")
        if (isinstance(open_map, Mapping) and open_map) or s.get("patternProperties"):
            raise self.fail(node.path, *_OPEN_MAP[bool(node.path)])
        out = node.out
        out.setdefault("type", "object")
        props = s.get("properties") or {}
        required = [r for r in s.get("required") or () if r in props]
        converted: Schema = {}
        for name, prop in props.items():
            if self.target == "openai" and name not in required and not admits_null(prop):
                prop, notes = _null_for_default(prop)
                converted[name] = _with_null(self.node(prop, (*node.path, name), notes))
            else:
                converted[name] = self.node(prop, (*node.path, name))
        out["properties"] = converted
        out["required"] = list(converted) if self.target == "openai" else required
        out["additionalProperties"] = False


# why an open map cannot be sent, and what to change: (as the arguments, next to properties)
_OPEN_MAP = (
    (
        "an open map (additionalProperties with a schema) as the arguments",
        "declare the arguments as named properties (a map can be one of them)",
    ),
    (
        "an open map (additionalProperties with a schema) next to declared properties",
        "declare every key as a property, or move the other keys into a map property",
    ),
)
_RULES: dict[str, Rule] = {
    "$defs": _Strict.definitions,
    "definitions": _Strict.definitions,
    "anyOf": _Strict.branches,
    "items": _Strict.items,
    "const": _Strict.const,
    "enum": _Strict.enum,
    "format": _Strict.allowed,
    **dict.fromkeys(
        ("properties", "required", "additionalProperties", "patternProperties"), _Strict.skip
    ),
}
_TARGET_RULES: dict[Target, dict[str, Rule]] = {
    "openai": {**_RULES, "default": _Strict.default},
    "anthropic": {**_RULES, "allOf": _Strict.branches, "minItems": _Strict.allowed},
}


def _is_object(s: Schema) -> bool:
    kind = s.get("type")
    return (
        kind == "object"
        or (isinstance(kind, list) and "object" in kind)
        or (kind is None and ("properties" in s or "additionalProperties" in s))
    )


def _null_for_default(prop: object) -> tuple[object, list[str]]:
    """An optional property without its default: ``null`` asks for it (the core drops it)."""
    if not (isinstance(prop, Mapping) and "default" in prop):
        return prop, []
    notes = [note("null means the default", prop["default"])] if prop["default"] is not None else []
    return {k: v for k, v in prop.items() if k != "default"}, notes


def _with_null(schema: Schema) -> Schema:
    """``schema`` that also admits ``null`` (for an optional property)."""
    out = dict(schema)
    kind = out.get("type")
    if "$ref" in out or "allOf" in out or (kind is None and not {"enum", "anyOf"} & out.keys()):
        description = out.pop("description", None)
        told = {} if description is None else {"description": description}
        return {"anyOf": [out, {"type": "null"}], **told}
    if "anyOf" in out and kind is None:
        out["anyOf"] = [*out["anyOf"], {"type": "null"}]
        return out
    if isinstance(kind, str):
        out["type"] = [kind, "null"]
    elif isinstance(kind, list):
        out["type"] = [*kind, "null"]
    if "enum" in out:
        out["enum"] = [*out["enum"], None]
    return out


def _recursion(schema: Schema) -> str | None:
    """Why ``schema`` is recursive (Anthropic's strict mode decodes no recursion), or ``None``."""
    edges = {
        f"#/{key}/{name}": _refs(value)
        for key in ("$defs", "definitions")
        for name, value in (schema.get(key) or {}).items()
    }
    if "#" in _refs(schema) or any("#" in targets for targets in edges.values()):
        return "a recursive schema"
    state: dict[str, int] = {}  # 1: being visited, 2: done

    def visit(name: str) -> str | None:
        state[name] = 1
        for target in edges.get(name, ()):
            if state.get(target) == 1:
                return f"a recursive schema ({name} refers back to itself)"
            if target not in state and (why := visit(target)):
                return why
        state[name] = 2
        return None

    return next((why for name in edges if name not in state and (why := visit(name))), None)


def _refs(node: object) -> list[str]:
    """Every ``$ref`` under ``node``, but those of nested definitions."""
    found: list[str] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            if isinstance(item.get("$ref"), str):
                found.append(item["$ref"])
            stack.extend(v for k, v in item.items() if k not in ("$defs", "definitions"))
        elif isinstance(item, list):
            stack.extend(item)
    return found
