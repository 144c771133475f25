"""Restoring ``null`` to "absent" for properties a strict export made nullable.

Strict provider modes require every property, so an optional property is
exported as nullable and a model that means to leave it out sends ``null``.
Before the parser runs, those nulls are dropped again so the default applies.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["null_restorer", "nullable", "resolve_ref"]


def nullable(schema: object) -> bool:
    """Whether a property schema already admits ``null``."""
    if not isinstance(schema, Mapping):
        return True
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    if None in (schema.get("enum") or ()):
        return True
    return any(nullable(s) for key in ("anyOf", "oneOf") for s in schema.get(key) or ())


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


class _Plan:
    """Where ``null`` means "not sent" in one object (and the objects below it)."""

    __slots__ = ("items", "props", "strip")

    def __init__(self) -> None:
        self.strip: frozenset[str] = frozenset()
        self.props: dict[str, _Plan] = {}
        self.items: _Plan | None = None

    def apply(self, value: Any) -> Any:
        if self.items is not None:
            if isinstance(value, list):
                return [self.items.apply(v) for v in value]
            return value
        if not isinstance(value, dict):
            return value
        out: dict[str, Any] = {}
        for key, item in value.items():
            if item is None:
                if key not in self.strip:
                    out[key] = None
                continue
            child = self.props.get(key)
            out[key] = item if child is None else child.apply(item)
        return out


def null_restorer(schema: Mapping[str, Any]) -> Callable[[Any], Any] | None:
    """A function that drops ``null`` where a strict export made a property nullable.

    ``schema`` is the tool's own (non-strict) parameters schema. The returned
    function takes decoded arguments and returns them with every ``null`` for
    an optional, non-nullable property removed, at every level reached through
    ``properties``, ``items`` and local ``$ref`` (union branches are left
    alone: which branch applies is the parser's decision). ``None`` when there
    is nothing to drop anywhere. Built once per tool; cheap per call.
    """
    root = dict(schema)
    by_ref: dict[str, _Plan | None] = {}

    def build(node: object) -> _Plan | None:
        if not isinstance(node, Mapping):
            return None
        ref = node.get("$ref")
        if isinstance(ref, str):
            if ref not in by_ref:
                by_ref[ref] = _Plan()  # placeholder: recursion finds this one
                try:
                    target = resolve_ref(root, ref)
                except ValueError:
                    target = {}
                plan = build({**target, **{k: v for k, v in node.items() if k != "$ref"}})
                placeholder = by_ref[ref]
                if plan is not None and placeholder is not None:
                    placeholder.strip, placeholder.props, placeholder.items = (
                        plan.strip,
                        plan.props,
                        plan.items,
                    )
            return by_ref[ref]
        all_of = node.get("allOf")
        if isinstance(all_of, list) and len(all_of) == 1:
            return build({**all_of[0], **{k: v for k, v in node.items() if k != "allOf"}})
        items = node.get("items")
        if isinstance(items, Mapping):
            child = build(items)
            if child is None:
                return None
            plan = _Plan()
            plan.items = child
            return plan
        props = node.get("properties")
        if not isinstance(props, Mapping):
            return None
        required = set(node.get("required") or ())
        plan = _Plan()
        plan.strip = frozenset(n for n, s in props.items() if n not in required and not nullable(s))
        for n, s in props.items():
            child = build(s)
            if child is not None:
                plan.props[n] = child
        return plan

    top = build(root)
    if top is None or not _useful(top, set()):
        return None
    return top.apply


def _useful(plan: _Plan, seen: set[int]) -> bool:
    """Whether anything below ``plan`` drops a ``null`` (cycles visited once)."""
    if id(plan) in seen:
        return False
    seen.add(id(plan))
    if plan.strip:
        return True
    children = [*plan.props.values(), *([plan.items] if plan.items else [])]
    return any(_useful(c, seen) for c in children)
