"""Reading JSON Schema the way the exports and the null-restoring step both need it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "ANNOTATIONS",
    "MAX_DEPTH",
    "admits_string",
    "fixed_values",
    "free_form",
    "merge_all_of",
    "nullable",
    "resolve_ref",
]

#: how deep a schema (or an argument value) is followed; deeper levels pass unchanged
MAX_DEPTH = 100


def resolve_ref(root: Mapping[str, Any], ref: str) -> dict[str, Any]:
    """The schema a local ``$ref`` (``#/...``) points to within ``root``."""
    if not ref.startswith("#"):
        raise ValueError(f"only local $ref pointers are supported, got {ref!r}")
    node: Any = root
    for token in ref[1:].split("/")[1:] if ref != "#" else []:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        else:
            raise ValueError(f"$ref {ref!r} points to nothing in the schema")
    if not isinstance(node, Mapping):
        raise ValueError(f"$ref {ref!r} does not point to a schema")
    return dict(node)


def nullable(schema: object, root: Mapping[str, Any] | None = None) -> bool:
    """Whether a property schema already admits ``null``.

    A schema that constrains nothing (``{}``, ``true``, only a description)
    admits it; ``$ref`` is followed when ``root`` is given.
    """
    seen: set[str] = set()

    def admits(node: object, depth: int) -> bool:
        if not isinstance(node, Mapping):
            return node is not False
        if depth > MAX_DEPTH:
            return False
        kind = node.get("type")
        if kind == "null" or (isinstance(kind, list) and "null" in kind):
            return True
        if kind is not None:
            return False
        if "enum" in node:
            return None in (node.get("enum") or ())
        if "const" in node:
            return node["const"] is None
        ref = node.get("$ref")
        if isinstance(ref, str):
            if root is None or ref in seen:
                return False
            seen.add(ref)
            try:
                return admits(resolve_ref(root, ref), depth + 1)
            except ValueError:
                return False
        branches = [b for key in ("anyOf", "oneOf") for b in node.get(key) or ()]
        if branches:
            return any(admits(b, depth + 1) for b in branches)
        parts = node.get("allOf")
        if isinstance(parts, list) and parts:
            return all(admits(p, depth + 1) for p in parts)
        # no type, but keywords that only make sense for one (an open object too): not "any value"
        keys = ("properties", "items", "prefixItems", "additionalProperties", "patternProperties")
        return not any(k in node for k in keys)

    return admits(schema, 0)


def free_form(schema: Mapping[str, Any]) -> bool:
    """Whether ``schema`` is an object with no declared properties (a map, or anything).

    Such an object cannot be expressed where every object must be closed
    (strict modes) or must declare properties (Gemini): it is exported as a
    JSON-encoded string and decoded before the parser runs.
    """
    kind = schema.get("type")
    if kind != "object" and not (
        kind is None and ("additionalProperties" in schema or "patternProperties" in schema)
    ):
        return False
    return not schema.get("properties") and "anyOf" not in schema and "oneOf" not in schema


def _target(schema: object, root: Mapping[str, Any]) -> object:
    """``schema``, or what its ``$ref`` points to (``None``: to nothing)."""
    if isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str):
        try:
            return resolve_ref(root, schema["$ref"])
        except ValueError:
            return None
    return schema


def admits_string(schema: object, root: Mapping[str, Any]) -> bool:
    """Whether ``schema`` may take a string (a ``$ref`` to nothing: it may)."""
    schema = _target(schema, root)
    if not isinstance(schema, Mapping):
        return schema is not False
    kind = schema.get("type")
    if kind is None:
        return not free_form(schema) and "properties" not in schema and "items" not in schema
    return kind == "string" or (isinstance(kind, list) and "string" in kind)


def fixed_values(schema: object, root: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """The values a property may take when ``const`` or ``enum`` fixes them (a union's tag)."""
    schema = _target(schema, root)
    if not isinstance(schema, Mapping):
        return None
    primitive = (str, int, float, bool)
    if "const" in schema and isinstance(schema["const"], primitive):
        return (schema["const"],)
    values = schema.get("enum")
    if isinstance(values, list) and values and all(isinstance(v, primitive) for v in values):
        return tuple(values)
    return None


ANNOTATIONS = frozenset({"title", "description", "examples", "$comment", "deprecated"})


def merge_all_of(
    schema: Mapping[str, Any], root: Mapping[str, Any], *, _through: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """``schema`` with its ``allOf`` (and a ``$ref`` with siblings) merged into one schema.

    Parts that are references are resolved (one level; a cycle keeps the bare
    reference out of the merge). Properties are united, ``required`` lists
    joined, descriptions concatenated; any other keyword on which two parts
    disagree raises ``ValueError`` naming it.
    """
    s = dict(schema)
    parts: list[Any] = list(s.pop("allOf", None) or ())
    ref = s.get("$ref")
    if isinstance(ref, str) and set(s) - ANNOTATIONS - {"$ref", "$defs", "definitions"}:
        parts.insert(0, {"$ref": s.pop("$ref")})
    merged: dict[str, Any] = {}
    through = _through
    for part in [*parts, s]:
        if isinstance(part, Mapping) and isinstance(part.get("$ref"), str) and len(part) == 1:
            if part["$ref"] in through:
                continue  # a part that is (a part of) itself adds nothing to the merge
            through = through | {part["$ref"]}
            part = resolve_ref(root, part["$ref"])
        if isinstance(part, Mapping) and "allOf" in part:
            part = merge_all_of(part, root, _through=through)
        if not isinstance(part, Mapping):
            if part is False:
                raise ValueError("allOf: a part that allows nothing")
            continue
        for key, value in part.items():
            _merge_key(merged, key, value)
    return merged


def _merge_key(merged: dict[str, Any], key: str, value: Any) -> None:
    """One keyword of a part put into ``merged`` (see :func:`merge_all_of`)."""
    if key not in merged:
        merged[key] = value
    elif key == "properties":
        merged[key] = {**merged[key], **value}
    elif key == "required":
        merged[key] = list(dict.fromkeys([*merged[key], *value]))
    elif key == "description" and merged[key] != value:
        merged[key] = f"{merged[key]} {value}"
    elif key not in ("title", "$defs", "definitions", "examples") and merged[key] != value:
        raise ValueError(f"allOf: its parts disagree on {key!r}")
