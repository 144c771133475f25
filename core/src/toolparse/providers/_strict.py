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
from collections.abc import Callable, Mapping
from typing import Any, Literal

from .._schemas import free_form, merge_all_of
from .._schemas import nullable as admits_null
from ._common import Schema, note, resolve_ref
from ._limits import check_openai_limits, recursion
from ._schema import ANY_VALUE, JSON_OBJECT_NOTE, Converted, tuple_note

__all__ = ["check_openai_limits", "strict_schema"]

Target = Literal["openai", "anthropic"]

_OPENAI_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
_ANTHROPIC_FORMATS = _OPENAI_FORMATS | {"uri"}
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
# annotations with nothing to say to the model: dropped without a note
_SILENT = frozenset(
    {"$schema", "$id", "$anchor", "$comment", "discriminator", "readOnly", "writeOnly"}
    | {"deprecated", "contentEncoding", "contentMediaType"}
)
_PRIMITIVE = (str, int, float, bool, type(None))
_MAX_SCHEMA_DEPTH = 100
# a schema with none of these allows a value of any type
_TYPED = frozenset({"type", "anyOf", "allOf", "enum", "const", "$ref"})


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
    why = recursion(out) if target == "anthropic" else None
    if why is not None:
        raise walker.fail((), why)  # Anthropic's strict mode decodes no recursive schemas
    return out


class _Strict:
    """The strict form of every subschema of one root, for one target.

    :meth:`node` is the one recursive transform: a reference or ``allOf`` is
    resolved first, then each keyword goes through its rule (``_RULES``; a
    keyword without one is kept when the target decodes against it, else
    described), then an object is closed.
    """

    __slots__ = ("formats", "inlining", "keep", "root", "rules", "target")

    def __init__(self, root: Schema, target: Target) -> None:
        self.root = root
        self.target: Target = target
        self.keep = _KEEP[target]
        self.formats = _OPENAI_FORMATS if target == "openai" else _ANTHROPIC_FORMATS
        self.rules = {**_RULES, **_TARGET_RULES[target]}
        self.inlining: list[str] = []

    def fail(self, path: tuple[str, ...], why: str, change: str | None = None) -> ValueError:
        where = "/".join(path) or "the root"
        return ValueError(
            f"{self.target} strict mode cannot express the schema at {where}: {why}; "
            f"{change + ', or ' if change else ''}export this tool with strict=False"
        )

    def node(self, schema: object, path: tuple[str, ...], notes: list[str] | None = None) -> Schema:
        """``schema`` in strict form; ``notes`` go into its description."""
        s = self.prepared(schema, path)
        if "$ref" in s and not set(s) <= {"$ref", "$defs", "definitions"}:
            # a reference with siblings (a field's description): its target under them,
            # resolved here (not in a helper) so that a level of nesting costs few frames
            ref = s.pop("$ref")
            if ref in self.inlining:
                s = {"$ref": ref}  # a cycle: the bare reference
            else:
                self.inlining.append(ref)
                try:
                    return self.node({**resolve_ref(self.root, ref), **s}, path, notes)
                finally:
                    self.inlining.pop()
        if isinstance(s.get("allOf"), list):
            return self.node(self.merged(s, path), path, notes)
        if path and _is_object(s) and free_form(s):
            return self.json_string(s, notes)
        node = Converted(path, notes or ())
        items = self.array_items(s, node)
        if "oneOf" in s:
            self.one_of(s, path)
        for key, value in s.items():
            self.rules.get(key, _Strict.other)(self, key, value, node)
            if key == "type" and items is not None:
                node.out["items"] = items
        if _is_object(s):
            self.object(s, node)
        if not (_TYPED & node.out.keys()):
            node.out["anyOf"] = [dict(v) for v in ANY_VALUE]  # any type: every schema needs one
        return node.done()

    def prepared(self, schema: object, path: tuple[str, ...]) -> Schema:
        """``schema`` as a dict to convert (``true``: ``{}``); too deep, or ``false``, refused."""
        if len(path) > 2 * _MAX_SCHEMA_DEPTH:
            raise self.fail(path, f"nesting deeper than {_MAX_SCHEMA_DEPTH} levels")
        if schema is False:
            raise self.fail(path, "a schema that allows no value")
        return dict(schema) if isinstance(schema, Mapping) else {}

    def one_of(self, s: Schema, path: tuple[str, ...]) -> None:
        """``oneOf`` as ``anyOf`` (neither strict mode decodes ``oneOf``), moved last."""
        if "anyOf" in s:
            raise self.fail(path, "both anyOf and oneOf")
        s["anyOf"] = s.pop("oneOf")

    def merged(self, s: Schema, path: tuple[str, ...]) -> Schema:
        """``allOf`` as one schema: each part closed on its own would make it unsatisfiable."""
        try:
            return merge_all_of(s, self.root)
        except ValueError as exc:
            raise self.fail(
                path, str(exc), "make the parts agree (or merge them by hand)"
            ) from None

    def json_string(self, s: Schema, notes: list[str] | None) -> Schema:
        """A free-form object as a JSON-encoded string (decoded before the parser runs)."""
        node = Converted((), [*(notes or ()), JSON_OBJECT_NOTE])
        node.out["type"] = "string"
        if "description" in s:
            node.out["description"] = s["description"]
        values = s.get("additionalProperties")
        if isinstance(values, Mapping) and values:
            node.note("each value", values)
        for key in ("minProperties", "maxProperties", "propertyNames", "patternProperties"):
            if key in s:
                node.note(key, s[key])
        return node.done()

    # -- the keyword rules: each writes the keyword into node.out, or a note ------

    def other(self, key: str, value: Any, node: Converted) -> None:
        """Kept when the target decodes against it; else described (annotations dropped)."""
        if key in self.keep:
            node.out[key] = value
        elif key not in _SILENT:
            node.note(key, value)

    def skip(self, key: str, value: Any, node: Converted) -> None:
        """Written by :meth:`object`, with the other object keywords."""

    def definitions(self, key: str, value: Any, node: Converted) -> None:
        if isinstance(value, Mapping):
            node.out[key] = {k: self.node(v, (*node.path, key, k)) for k, v in value.items()}

    def branches(self, key: str, value: Any, node: Converted) -> None:
        node.out[key] = [self.node(v, (*node.path, key, str(i))) for i, v in enumerate(value)]

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
        """The ``items`` a tuple or an array without an items schema gets, else ``None``."""
        if isinstance(s.get("prefixItems"), list):
            return self.positional(s, node)
        if s.get("type") == "array" and "items" not in s:
            return {"anyOf": [dict(v) for v in ANY_VALUE]}  # OpenAI refuses an array without
        return None

    def positional(self, s: Schema, node: Converted) -> Schema:
        """Positional items, which neither strict mode can say: their union, in words.

        Pops ``prefixItems``/``items`` from ``s`` (a closed tuple gets its
        ``maxItems``) and returns the ``items`` schema.
        """
        prefix = s.pop("prefixItems")
        rest = s.pop("items", None)
        if isinstance(rest, Mapping) and not rest:
            rest = None
        branches = [self.node(v, (*node.path, "prefixItems", str(i))) for i, v in enumerate(prefix)]
        most = s.get("maxItems")
        closed = rest is False or (isinstance(most, int) and most <= len(prefix))
        tail: list[Schema] = []
        if not closed:
            tail = (
                [self.node(rest, (*node.path, "items"))]
                if rest is not None
                else [dict(v) for v in ANY_VALUE]
            )
        union = [b for i, b in enumerate(branches + tail) if b not in (branches + tail)[:i]]
        if closed:
            s["maxItems"] = min(most, len(prefix)) if isinstance(most, int) else len(prefix)
        rest_kind = _kind(tail[0]) if tail and rest is not None else None
        node.notes.append(tuple_note([_kind(b) for b in branches], rest_kind, closed))
        s.setdefault("type", "array")
        return union[0] if len(union) == 1 else {"anyOf": union}

    def object(self, s: Schema, node: Converted) -> None:
        """Closed: other keys allowed (``additionalProperties: true``) cannot be sent.

        For OpenAI every property is required: an optional one becomes
        nullable, ``null`` meaning "not sent".
        """
        open_map = s.get("additionalProperties")
        if (isinstance(open_map, Mapping) and open_map) or s.get("patternProperties"):
            raise self.open_map(node.path)
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
        out["required"] = list(out["properties"]) if self.target == "openai" else required
        out["additionalProperties"] = False

    def open_map(self, path: tuple[str, ...]) -> ValueError:
        if not path:
            return self.fail(
                path,
                "an open map (additionalProperties with a schema) as the arguments",
                "declare the arguments as named properties (a map can be one of them)",
            )
        return self.fail(
            path,
            "an open map (additionalProperties with a schema) next to declared properties",
            "declare every key as a property, or move the other keys into a map property",
        )


_Rule = Callable[[_Strict, str, Any, Converted], None]
_RULES: dict[str, _Rule] = {
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
_TARGET_RULES: dict[Target, dict[str, _Rule]] = {
    "openai": {"default": _Strict.default},
    "anthropic": {"allOf": _Strict.branches, "minItems": _Strict.allowed},
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
