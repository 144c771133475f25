"""Strict schemas: the JSON Schema subset OpenAI and Anthropic decode against.

Both providers want every object closed (``additionalProperties: false``).
OpenAI also wants every property listed in ``required``: a property that was
optional becomes nullable, and ``null`` for it means "not sent" (the core
drops it before the parser, so its default applies). Anthropic lets optional
properties stay optional, so its strict schemas keep ``required`` as it was.

Keywords a provider does not decode against are removed and described in the
property's description instead; the parser still enforces them. A free-form
object (no declared properties) travels as a JSON-encoded string, decoded
again before the parser runs; a value of any type becomes a union of the
primitive types; tuples become a union of their items with an "in this order"
note; ``allOf`` parts are merged into one schema. Shapes that cannot be
expressed at all (an object with both properties and a schema for other keys,
an open map at the root, recursion for Anthropic, ``allOf`` parts that
disagree) raise ``ValueError`` saying what to change.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from .._schemas import free_form, merge_all_of
from .._schemas import nullable as admits_null
from ..nulls import null_restorer
from ._common import Schema, add_notes, note, resolve_ref
from ._limits import check_openai_limits
from ._schema import ANY_VALUE, JSON_OBJECT_NOTE, tuple_note

__all__ = ["check_openai_limits", "null_restorer", "strict_schema"]

Target = Literal["openai", "anthropic"]

_OPENAI_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
_ANTHROPIC_FORMATS = _OPENAI_FORMATS | {"uri"}

# keywords kept as they are (after their values were made strict)
_STRUCTURE = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "anyOf",
        "description",
        "title",
        "$ref",
        "$defs",
        "definitions",
    }
)
_KEEP: dict[Target, frozenset[str]] = {
    "openai": _STRUCTURE
    | {
        "pattern",
        "format",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
    },
    "anthropic": _STRUCTURE | {"pattern", "format", "minItems", "const", "allOf", "default"},
}
# annotations with nothing to say to the model: dropped without a note
_SILENT = frozenset(
    {
        "$schema",
        "$id",
        "$anchor",
        "$comment",
        "discriminator",
        "readOnly",
        "writeOnly",
        "deprecated",
        "contentEncoding",
        "contentMediaType",
    }
)
_PRIMITIVE = (str, int, float, bool, type(None))
_MAX_SCHEMA_DEPTH = 100


def strict_schema(schema: Mapping[str, Any], target: Target) -> Schema:
    """The strict form of a tool's parameters schema for ``target``.

    :param schema: the parameters JSON Schema (not modified).
    :param target: ``"openai"`` (every property required, optional ones
        nullable) or ``"anthropic"`` (``required`` kept as it was).
    :raises ValueError: the schema cannot be expressed in strict mode.
    """
    root = dict(schema)
    if "allOf" in root:
        try:
            root = merge_all_of(root, root)
        except ValueError as exc:
            raise _Strict(root, target).fail((), str(exc)) from None
    if "$ref" in root:
        # a root reference (recursive models, root models): the root itself
        # must be an object, so inline the target and keep the definitions
        target_schema = resolve_ref(root, root.pop("$ref"))
        root = {**target_schema, **root}
    if isinstance(root.get("anyOf") or root.get("oneOf"), list):
        raise ValueError("the root of a strict schema must be an object, not anyOf/oneOf")
    if root.get("type") == ["object"]:
        root["type"] = "object"
    walker = _Strict(root, target)
    out = walker.node(root, ())
    if out.get("type") != "object":
        raise ValueError(f"the root of a strict schema must be an object, got {out.get('type')!r}")
    if target == "anthropic":
        walker.refuse_recursion(out)
    return out


class _Strict:
    __slots__ = ("formats", "inlining", "keep", "root", "target")

    def __init__(self, root: Schema, target: Target) -> None:
        self.root = root
        self.target: Target = target
        self.keep = _KEEP[target]
        self.formats = _OPENAI_FORMATS if target == "openai" else _ANTHROPIC_FORMATS
        self.inlining: list[str] = []

    def fail(self, path: tuple[str, ...], why: str, change: str | None = None) -> ValueError:
        where = "/".join(path) or "the root"
        return ValueError(
            f"{self.target} strict mode cannot express the schema at {where}: {why}; "
            f"{change + ', or ' if change else ''}export this tool with strict=False"
        )

    def node(self, schema: object, path: tuple[str, ...], extra: list[str] | None = None) -> Schema:
        if len(path) > 2 * _MAX_SCHEMA_DEPTH:
            raise self.fail(path, f"nesting deeper than {_MAX_SCHEMA_DEPTH} levels")
        if schema is False:
            raise self.fail(path, "a schema that allows no value")
        if not isinstance(schema, Mapping):
            schema = {}
        s = dict(schema)
        if "$ref" in s and len(s) > 1 and not set(s) <= {"$ref", "$defs", "definitions"}:
            # a reference with siblings (a field description): inline the
            # target under them, so the description is not lost
            ref = s.pop("$ref")
            if ref in self.inlining:
                s = {"$ref": ref}  # a cycle: keep the bare reference
            else:
                self.inlining.append(ref)
                try:
                    merged = {**resolve_ref(self.root, ref), **s}
                    return self.node(merged, path, extra)
                finally:
                    self.inlining.pop()
        if isinstance(s.get("allOf"), list):
            # every part must hold: one schema (closing each part on its own
            # would make the whole unsatisfiable)
            try:
                merged = merge_all_of(s, self.root)
            except ValueError as exc:
                raise self.fail(
                    path, str(exc), "make the parts agree (or merge them by hand)"
                ) from None
            return self.node(merged, path, extra)
        if self.is_object(s) and free_form(s) and path:
            return self.json_string(s, path, extra)
        notes: list[str] = list(extra or ())
        out: Schema = {}
        if isinstance(s.get("items"), list):  # draft-07 tuple form
            s["prefixItems"] = s.pop("items")
            if "additionalItems" in s:
                s["items"] = s.pop("additionalItems")
        if isinstance(s.get("prefixItems"), list):
            tuple_items = self.positional(s, path, notes)
        elif s.get("type") == "array" and "items" not in s:
            # no items schema: any value (OpenAI refuses an array without one)
            tuple_items = {"anyOf": [dict(v) for v in ANY_VALUE]}
        else:
            tuple_items = None
        if "oneOf" in s:
            if "anyOf" in s:
                raise self.fail(path, "both anyOf and oneOf")
            s["anyOf"] = s.pop("oneOf")
        for key, value in s.items():
            if key == "type" and tuple_items is not None:
                out[key] = value
                out["items"] = tuple_items
                continue
            if key == "$ref":
                out[key] = value
            elif key in ("$defs", "definitions"):
                if isinstance(value, Mapping):
                    out[key] = {k: self.node(v, (*path, key, k)) for k, v in value.items()}
            elif key == "anyOf" or (key == "allOf" and key in self.keep):
                out[key] = [self.node(v, (*path, key, str(i))) for i, v in enumerate(value)]
            elif key == "items":
                out[key] = self.items(value, path)
            elif key in ("properties", "required", "additionalProperties", "patternProperties"):
                continue  # handled with the object below
            elif key == "const":
                if self.target == "openai" and isinstance(value, _PRIMITIVE):
                    out["enum"] = [value]
                elif isinstance(value, _PRIMITIVE):
                    out[key] = value
                else:
                    notes.append(note(key, value))
            elif key == "enum":
                if isinstance(value, list) and all(isinstance(v, _PRIMITIVE) for v in value):
                    out[key] = list(value)
                else:
                    notes.append(note("one of", value))
            elif key == "format":
                if value in self.formats:
                    out[key] = value
                else:
                    notes.append(note(key, value))
            elif key == "minItems" and self.target == "anthropic":
                if value in (0, 1):
                    out[key] = value
                else:
                    notes.append(note(key, value))
            elif key == "default" and key not in self.keep:
                if value is not None:  # "default: null" tells the model nothing
                    notes.append(note(key, value))
            elif key in self.keep:
                out[key] = value
            elif key not in _SILENT:
                notes.append(note(key, value))
        if self.is_object(s):
            self.object(s, out, path)
        if not ({"type", "anyOf", "allOf", "enum", "const", "$ref"} & set(out)):
            # a value of any type: every schema needs one, so the primitive ones
            out["anyOf"] = [dict(v) for v in ANY_VALUE]
        add_notes(out, notes)
        return out

    def json_string(self, s: Schema, path: tuple[str, ...], extra: list[str] | None) -> Schema:
        """A free-form object as a JSON-encoded string (decoded before the parser runs)."""
        out: Schema = {"type": "string"}
        if "description" in s:
            out["description"] = s["description"]
        notes = [*(extra or ()), JSON_OBJECT_NOTE]
        values = s.get("additionalProperties")
        if isinstance(values, Mapping) and values:
            notes.append(note("each value", values))
        for key in ("minProperties", "maxProperties", "propertyNames", "patternProperties"):
            if key in s:
                notes.append(note(key, s[key]))
        add_notes(out, notes)
        return out

    def positional(self, s: Schema, path: tuple[str, ...], notes: list[str]) -> Schema:
        """Positional items, which neither strict mode can say: their union, in words.

        Pops ``prefixItems``/``items`` from ``s`` (a closed tuple gets its
        ``maxItems``) and returns the ``items`` schema.
        """
        prefix = s.pop("prefixItems")
        rest = s.pop("items", None)
        if isinstance(rest, Mapping) and not rest:
            rest = None
        branches = [self.node(v, (*path, "prefixItems", str(i))) for i, v in enumerate(prefix)]
        most = s.get("maxItems")
        closed = rest is False or (isinstance(most, int) and most <= len(prefix))
        kinds = [_kind(b) for b in branches]
        tail: list[Schema] = []
        if not closed:
            tail = (
                [self.node(rest, (*path, "items"))]
                if rest is not None
                else [dict(v) for v in ANY_VALUE]
            )
        union = [b for i, b in enumerate(branches + tail) if b not in (branches + tail)[:i]]
        if closed:
            s["maxItems"] = min(most, len(prefix)) if isinstance(most, int) else len(prefix)
        notes.append(
            tuple_note(kinds, _kind(tail[0]) if tail and rest is not None else None, closed)
        )
        s.setdefault("type", "array")
        return union[0] if len(union) == 1 else {"anyOf": union}

    @staticmethod
    def is_object(s: Schema) -> bool:
        kind = s.get("type")
        return (
            kind == "object"
            or (isinstance(kind, list) and "object" in kind)
            or (kind is None and ("properties" in s or "additionalProperties" in s))
        )

    def items(self, value: object, path: tuple[str, ...]) -> Schema:
        if value is False:
            raise self.fail(path, "an array that allows no items")
        return self.node(value, (*path, "items"))

    def object(self, s: Schema, out: Schema, path: tuple[str, ...]) -> None:
        open_map = s.get("additionalProperties")
        if (isinstance(open_map, Mapping) and open_map) or s.get("patternProperties"):
            if not path:
                raise self.fail(
                    path,
                    "an open map (additionalProperties with a schema) as the arguments",
                    "declare the arguments as named properties (a map can be one of them)",
                )
            raise self.fail(
                path,
                "an open map (additionalProperties with a schema) next to declared properties",
                "declare every key as a property, or move the other keys into a map property",
            )
        # additionalProperties true (other keys allowed) is closed: they cannot be sent
        out.setdefault("type", "object")
        props = s.get("properties") or {}
        required = [r for r in s.get("required") or () if r in props]
        new_props: Schema = {}
        for name, prop in props.items():
            nullable = self.target == "openai" and name not in required and not admits_null(prop)
            notes: list[str] = []
            if nullable and isinstance(prop, Mapping) and "default" in prop:
                # null is how the model asks for the default (the core drops it)
                if prop["default"] is not None:
                    notes.append(note("null means the default", prop["default"]))
                prop = {k: v for k, v in prop.items() if k != "default"}
            child = self.node(prop, (*path, name), notes)
            new_props[name] = _with_null(child) if nullable else child
        out["properties"] = new_props
        out["required"] = list(new_props) if self.target == "openai" else required
        out["additionalProperties"] = False

    def refuse_recursion(self, schema: Schema) -> None:
        """Anthropic's strict mode decodes no recursive schemas."""
        defs = {
            f"#/{key}/{name}": value
            for key in ("$defs", "definitions")
            for name, value in (schema.get(key) or {}).items()
        }

        def refs(node: object) -> list[str]:
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

        edges = {name: refs(value) for name, value in defs.items()}
        if any(r == "#" for r in refs(schema)) or any("#" in targets for targets in edges.values()):
            raise self.fail((), "a recursive schema")
        state: dict[str, int] = {}

        def visit(name: str) -> None:
            state[name] = 1
            for target in edges.get(name, ()):
                if state.get(target) == 1:
                    raise self.fail((), f"a recursive schema ({name} refers back to itself)")
                if target not in state:
                    visit(target)
            state[name] = 2

        for name in edges:
            if name not in state:
                visit(name)


def _kind(schema: Schema) -> str:
    """A schema's type in a word or two, for notes."""
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(kind)
    if isinstance(kind, str):
        return kind
    if "enum" in schema:
        return " or ".join(json.dumps(v) for v in schema["enum"])
    if "anyOf" in schema:
        return " or ".join(_kind(b) for b in schema["anyOf"])
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return ref.rsplit("/", 1)[-1]
    return "value"


def _with_null(schema: Schema) -> Schema:
    """``schema`` that also admits ``null`` (for an optional property)."""
    out = dict(schema)
    kind = out.get("type")
    if (
        "$ref" in out
        or "allOf" in out
        or (kind is None and "enum" not in out and "anyOf" not in out)
    ):
        description = out.pop("description", None)
        wrapped: Schema = {"anyOf": [out, {"type": "null"}]}
        if description is not None:
            wrapped["description"] = description
        return wrapped
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
