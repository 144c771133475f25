"""The null-restoring plan: what to do to a value, built once per schema.

Each node of the plan mirrors a part of the parameters schema that may hold a
``null`` to drop or a JSON-encoded object to decode (see ``_nulls``); its
``apply(value, depth)`` returns the value with those restored, copying only
what it walks. ``plan_of`` builds the plan and cuts every part that changes
nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ._schemas import ANNOTATIONS as _ANNOTATIONS
from ._schemas import MAX_DEPTH, free_form, merge_all_of, nullable, resolve_ref

__all__ = ["Node", "plan_of"]

_PRIMITIVE = (str, int, float, bool)


# -- the plan: what to do to a value, built once per schema -------------------------


class _Obj:
    """An object: which ``null`` keys to drop, and the plans of its values."""

    __slots__ = (
        "closed",
        "decode",
        "extra",
        "names",
        "nullok",
        "props",
        "required",
        "strip",
        "tags",
    )

    def __init__(self) -> None:
        self.strip: frozenset[str] = frozenset()
        self.nullok: frozenset[str] = frozenset()
        self.names: frozenset[str] = frozenset()
        self.required: frozenset[str] = frozenset()
        self.tags: dict[str, tuple[Any, ...]] = {}
        self.props: dict[str, _Node] = {}
        self.extra: _Node | None = None
        self.closed = False
        self.decode = False

    def matches(self, value: Mapping[str, Any]) -> bool:
        """Whether ``value`` may be an instance of this union branch."""
        if not self.required.issubset(value):
            return False
        if self.closed and not self.names.issuperset(value):
            return False
        return all(k not in value or value[k] in v for k, v in self.tags.items())

    def child(self, key: str) -> _Node | None:
        return self.props.get(key) if key in self.names else self.extra

    def apply(self, value: Any, depth: int) -> Any:
        value = _decoded(value) if self.decode else value
        if not isinstance(value, dict) or depth > MAX_DEPTH:
            return value
        out: dict[str, Any] = {}
        for key, item in value.items():
            if item is None:
                if key not in self.strip:
                    out[key] = None
                continue
            child = self.child(key)
            out[key] = item if child is None else child.apply(item, depth + 1)
        return out


class _Arr:
    """An array: the plan of its items, positional ones first."""

    __slots__ = ("items", "prefix")

    def __init__(self, prefix: list[_Node | None], items: _Node | None) -> None:
        self.prefix = prefix
        self.items = items

    def child(self, index: int) -> _Node | None:
        return self.prefix[index] if index < len(self.prefix) else self.items

    def apply(self, value: Any, depth: int) -> Any:
        if not isinstance(value, list) or depth > MAX_DEPTH:
            return value
        out = []
        for i, item in enumerate(value):
            child = self.child(i)
            out.append(item if child is None or item is None else child.apply(item, depth + 1))
        return out


class _Ref:
    """A reference, filled in once its target is built (so recursion terminates)."""

    __slots__ = ("plan",)

    def __init__(self) -> None:
        self.plan: _Node | None = None

    def apply(self, value: Any, depth: int) -> Any:
        return value if self.plan is None else self.plan.apply(value, depth)


class _Union:
    """``anyOf``/``oneOf``: the branches a value may be an instance of decide."""

    __slots__ = ("_plans", "branches", "strings")

    def __init__(self, branches: list[_Node], strings: bool) -> None:
        self.branches = branches
        self.strings = strings  # a branch takes strings: never decode one
        self._plans: list[_Node | None] | None = None

    def apply(self, value: Any, depth: int) -> Any:
        if depth > MAX_DEPTH:
            return value
        plans = self._plans
        if plans is None:  # references are filled in once the plan is built
            plans = self._plans = [_unwrap(b) for b in self.branches]
        if (
            isinstance(value, str)
            and not self.strings
            and any(isinstance(p, _Obj) and p.decode for p in plans)
        ):
            value = _decoded(value)
        if isinstance(value, dict):
            objs = [p for p in plans if isinstance(p, _Obj)]
            if not objs:
                return value
            fits = [p for p in objs if p.matches(value)] or objs
            if len(fits) == 1:
                return fits[0].apply(value, depth)
            return _merged_object(fits, value, depth)
        if isinstance(value, list):
            arrs = [p for p in plans if isinstance(p, _Arr)]
            if len(arrs) == 1:
                return arrs[0].apply(value, depth)
            if not arrs:
                return value
            return [
                _apply_all([a.child(i) for a in arrs], item, depth + 1)
                for i, item in enumerate(value)
            ]
        return value


_Node = _Obj | _Arr | _Ref | _Union


def _unwrap(node: _Node | None) -> _Node | None:
    while isinstance(node, _Ref):
        node = node.plan
    return node


def _decoded(value: Any) -> Any:
    """A JSON-encoded object decoded; anything else unchanged."""
    if isinstance(value, str) and value[:1] == "{":
        try:
            decoded = json.loads(value)
        except ValueError:
            return value
        if isinstance(decoded, dict):
            return decoded
    return value


def _apply_all(children: list[_Node | None], item: Any, depth: int) -> Any:
    found = [c for c in children if c is not None]
    if item is None or not found:
        return item
    if len(found) == 1:
        return found[0].apply(item, depth)
    return _Union(found, False).apply(item, depth)


def _merged_object(fits: list[_Obj], value: dict[str, Any], depth: int) -> dict[str, Any]:
    """Several branches fit: drop a ``null`` only where none of them admits it."""
    out: dict[str, Any] = {}
    for key, item in value.items():
        if item is None:
            if any(key in p.strip for p in fits) and not any(key in p.nullok for p in fits):
                continue
            out[key] = None
            continue
        out[key] = _apply_all([p.child(key) for p in fits], item, depth + 1)
    return out


class _Builder:
    __slots__ = ("by_ref", "memo", "root")

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.by_ref: dict[str, _Ref] = {}
        # a subschema used in several places (a definition's copy keeps shared
        # parts shared) is built once per depth: without this, 40 levels of
        # {"a": s, "b": s} are 2**40 walks. The subschema is kept with its plan
        # so that its id cannot be reused by another object meanwhile.
        self.memo: dict[tuple[int, int], tuple[object, _Node | None]] = {}

    def ref(self, ref: str, depth: int) -> _Node | None:
        found = self.by_ref.get(ref)
        if found is None:
            found = self.by_ref[ref] = _Ref()  # recursion finds this one
            try:
                target = resolve_ref(self.root, ref)
            except ValueError:
                return found
            found.plan = self.build(target, depth + 1)
        return found

    def build(self, node: object, depth: int) -> _Node | None:
        if not isinstance(node, Mapping) or depth > MAX_DEPTH:
            return None
        key = (id(node), depth)
        found = self.memo.get(key)
        if found is not None:
            return found[1]
        plan = self._build(node, depth)
        if node is not self.root:  # the root's plan is changed once built (see plan_of)
            self.memo[key] = (node, plan)
        return plan

    def _build(self, node: Mapping[str, Any], depth: int) -> _Node | None:
        ref = node.get("$ref")
        if isinstance(ref, str) and not set(node) - _ANNOTATIONS - {"$ref", "$defs", "definitions"}:
            return self.ref(ref, depth)
        if "allOf" in node or isinstance(ref, str):
            try:
                node = merge_all_of(node, self.root)
            except (ValueError, TypeError):
                return None
            if "allOf" in node:  # a cycle through allOf: leave it to the parser
                return None
        branches = [b for key in ("anyOf", "oneOf") for b in node.get(key) or ()]
        if branches:
            rest = {k: v for k, v in node.items() if k not in ("anyOf", "oneOf")}
            plans = [self.build(b, depth + 1) for b in branches]
            own = self.build(rest, depth + 1) if "properties" in rest else None
            found = [p for p in [own, *plans] if p is not None]
            if not found:
                return None
            strings = any(_takes_strings(b, self.root) for b in branches)
            return _Union(found, strings)
        kind = node.get("type")
        if isinstance(kind, list) and len([k for k in kind if k != "null"]) > 1:
            # several types at once: one plan per type the value may have
            split = [self.build({**node, "type": k}, depth + 1) for k in kind if k != "null"]
            found = [p for p in split if p is not None]
            return _Union(found, "string" in kind) if found else None
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), None)
        if kind == "array" or "items" in node or "prefixItems" in node:
            return self.array(node, depth)
        if kind == "object" or "properties" in node or "additionalProperties" in node:
            return self.object(node, depth)
        return None

    def array(self, node: Mapping[str, Any], depth: int) -> _Node | None:
        items = node.get("items")
        prefix = node.get("prefixItems")
        if isinstance(items, list):  # draft-07 tuple form
            prefix, items = items, node.get("additionalItems")
        plans = [self.build(p, depth + 1) for p in prefix] if isinstance(prefix, list) else []
        return _Arr(plans, self.build(items, depth + 1))

    def object(self, node: Mapping[str, Any], depth: int) -> _Node | None:
        props = node.get("properties")
        props = props if isinstance(props, Mapping) else {}
        required = frozenset(r for r in node.get("required") or () if isinstance(r, str))
        plan = _Obj()
        plan.names = frozenset(props)
        plan.required = required
        plan.closed = node.get("additionalProperties") is False
        plan.decode = free_form(node)
        nullok = []
        strip = []
        for name, prop in props.items():
            if nullable(prop, self.root):
                nullok.append(name)
            elif name not in required:
                strip.append(name)
            tag = _tag(prop, self.root)
            if tag is not None:
                plan.tags[name] = tag
            child = self.build(prop, depth + 1)
            if child is not None:
                plan.props[name] = child
        plan.strip = frozenset(strip)
        plan.nullok = frozenset(nullok)
        extra = node.get("additionalProperties")
        if isinstance(extra, Mapping):
            plan.extra = self.build(extra, depth + 1)
        return plan


def _tag(prop: object, root: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """The values a discriminating property may take (``const``/``enum``), if fixed."""
    if isinstance(prop, Mapping) and isinstance(prop.get("$ref"), str):
        try:
            prop = resolve_ref(root, prop["$ref"])
        except ValueError:
            return None
    if not isinstance(prop, Mapping):
        return None
    if "const" in prop and isinstance(prop["const"], _PRIMITIVE):
        return (prop["const"],)
    values = prop.get("enum")
    if isinstance(values, list) and values and all(isinstance(v, _PRIMITIVE) for v in values):
        return tuple(values)
    return None


def _takes_strings(schema: object, root: Mapping[str, Any]) -> bool:
    if isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str):
        try:
            schema = resolve_ref(root, schema["$ref"])
        except ValueError:
            return True
    if not isinstance(schema, Mapping):
        return schema is not False
    kind = schema.get("type")
    if kind is None:
        return not free_form(schema) and "properties" not in schema and "items" not in schema
    return kind == "string" or (isinstance(kind, list) and "string" in kind)


def _children(node: _Node) -> list[_Node | None]:
    if isinstance(node, _Ref):
        return [node.plan]
    if isinstance(node, _Union):
        return list(node.branches)
    if isinstance(node, _Arr):
        return [*node.prefix, node.items]
    return [*node.props.values(), node.extra]


def _pruned(top: _Node) -> bool:
    """Cut every part of the plan that changes nothing; whether anything is left.

    A part is useful when it drops a ``null`` or decodes a string, or leads to
    one that does. Union branches are kept either way: they decide which
    branch a value fits.
    """
    nodes: list[_Node] = []
    seen: set[int] = set()
    stack: list[_Node | None] = [top]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        nodes.append(node)
        stack.extend(_children(node))
    useful = {id(n) for n in nodes if isinstance(n, _Obj) and (n.strip or n.decode)}
    changed = True
    while changed:  # to a fixed point: recursion makes the graph cyclic
        changed = False
        for node in nodes:
            if id(node) not in useful and any(
                c is not None and id(c) in useful for c in _children(node)
            ):
                useful.add(id(node))
                changed = True

    def keep(child: _Node | None) -> _Node | None:
        return child if child is not None and id(child) in useful else None

    for node in nodes:
        # a reference is cut where it is used (a union branch keeps its target)
        if isinstance(node, _Arr):
            node.prefix = [keep(c) for c in node.prefix]
            node.items = keep(node.items)
        elif isinstance(node, _Obj):
            node.props = {k: c for k, c in node.props.items() if id(c) in useful}
            node.extra = keep(node.extra)
    return id(top) in useful


#: a node of the plan
Node = _Node


def plan_of(schema: Mapping[str, Any]) -> _Node | None:
    """The pruned plan for a parameters schema, or ``None`` when nothing can change."""
    root = dict(schema)
    top = _Builder(root).build(root, 0)
    if isinstance(top, _Obj) and top.decode:
        # the arguments themselves arrive decoded: only nested objects travel as text
        top.decode = False
    if top is None or not _pruned(top):
        return None
    return top
