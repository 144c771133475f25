"""``apply_defaults``: filling ``default`` values into the arguments.

A plan is built once per tool from the schema (following ``$ref`` and
``allOf``); applying it copies only the objects it changes, so the arguments
the model sent are never modified (a parser may run more than once per call).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from referencing.exceptions import Unresolvable

#: a ``referencing`` resolver (the library names its class only in a private module)
Resolver = Any

__all__ = ["Plan", "apply", "plan"]


class Plan:
    """Where the defaults go for one object (or array) schema."""

    __slots__ = ("children", "defaults", "items")

    def __init__(self) -> None:
        #: (name, default) for the properties with a ``default``
        self.defaults: list[tuple[str, Any]] = []
        #: plans for the values of properties (objects and arrays)
        self.children: dict[str, Plan] = {}
        #: the plan for every item of an array
        self.items: Plan | None = None


def plan(schema: Any, resolver: Resolver) -> Plan | None:
    """The plan for ``schema``, or ``None`` when it declares no defaults."""
    memo: dict[int, Plan] = {}
    root = _build(schema, resolver, memo)
    if not any(p.defaults for p in memo.values()):
        return None
    _prune(memo.values())
    return root


def _prune(plans: Any) -> None:
    """Drop the plans that can never fill anything, so applying skips them."""
    plans = list(plans)
    changed = True
    while changed:
        changed = False
        for p in plans:
            for name, child in list(p.children.items()):
                if _empty(child):
                    del p.children[name]
                    changed = True
            if p.items is not None and _empty(p.items):
                p.items = None
                changed = True


def _empty(p: Plan) -> bool:
    return not p.defaults and not p.children and p.items is None


def _resolved(schema: Any, resolver: Resolver) -> list[tuple[Mapping[str, Any], Resolver]]:
    """``schema`` and the schemas it stands for through ``$ref`` and ``allOf``."""
    out: list[tuple[Mapping[str, Any], Resolver]] = []
    seen: set[int] = set()
    todo = [(schema, resolver)]
    while todo:
        node, res = todo.pop()
        if not isinstance(node, Mapping) or id(node) in seen:
            continue
        seen.add(id(node))
        out.append((node, res))
        ref = node.get("$ref")
        if isinstance(ref, str):
            try:
                found = res.lookup(ref)
            except Unresolvable:  # checked at definition; stay quiet here
                pass
            else:
                todo.append((found.contents, found.resolver))
        for sub in node.get("allOf") or ():
            todo.append((sub, res))
    return out


def _build(schema: Any, resolver: Resolver, memo: dict[int, Plan]) -> Plan:
    key = id(schema)
    if key in memo:
        return memo[key]
    result = memo[key] = Plan()
    for node, res in _resolved(schema, resolver):
        properties = node.get("properties")
        if isinstance(properties, Mapping):
            for name, sub in properties.items():
                if not isinstance(sub, Mapping):
                    continue
                for part, _ in _resolved(sub, res):
                    if "default" in part and name not in dict(result.defaults):
                        result.defaults.append((name, part["default"]))
                result.children.setdefault(name, _build(sub, res, memo))
        items = node.get("items")
        if isinstance(items, Mapping) and result.items is None:
            result.items = _build(items, res, memo)
    return result


def _fresh(value: Any) -> Any:
    # a default is shared by every call: hand each call its own copy
    return copy.deepcopy(value) if isinstance(value, (dict, list)) else value


def apply(plan: Plan, value: Any) -> Any:
    """``value`` with the defaults of ``plan`` filled in (a copy where changed)."""
    if isinstance(value, dict):
        out: dict[str, Any] | None = None
        for name, default in plan.defaults:
            if name not in value:
                if out is None:
                    out = dict(value)
                out[name] = _fresh(default)
        for name, child in plan.children.items():
            if name in value:
                old = value[name]
                new = apply(child, old)
                if new is not old:
                    if out is None:
                        out = dict(value)
                    out[name] = new
        return value if out is None else out
    if isinstance(value, list) and plan.items is not None:
        items = [apply(plan.items, item) for item in value]
        if any(new is not old for new, old in zip(items, value, strict=True)):
            return items
    return value
