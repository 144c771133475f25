"""``apply_defaults``: filling ``default`` values into the arguments.

A plan is built once per tool from the schema (following ``$ref`` and
``allOf``); applying it copies only the objects it changes, so the arguments
the model sent are never modified (a parser may run more than once per call).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

__all__ = ["Plan", "apply", "plan"]


class Plan:
    """Where the defaults go for one object (or array) schema."""

    __slots__ = ("children", "defaults", "items")

    def __init__(self) -> None:
        #: (name, default) for the properties with a ``default``
        self.defaults: dict[str, Any] = {}
        #: plans for the values of properties (objects and arrays)
        self.children: dict[str, Plan] = {}
        #: the plan for every item of an array
        self.items: Plan | None = None


def plan(schema: Any, resolver: Any) -> Plan | None:
    """The plan for ``schema`` (``resolver``: a ``referencing`` one), or ``None`` for no defaults."""
    memo: dict[int, Plan] = {}
    root = _build(schema, resolver, memo)
    return root if any(p.defaults for p in memo.values()) else None


def _resolved(schema: Any, resolver: Any) -> list[tuple[Mapping[str, Any], Any]]:
    """``schema`` and the schemas it stands for through ``$ref`` and ``allOf``."""
    out: list[tuple[Mapping[str, Any], Any]] = []
    seen: set[int] = set()
    todo = [(schema, resolver)]
    while todo:
        node, here = todo.pop()
        if not isinstance(node, Mapping) or id(node) in seen:
            continue
        seen.add(id(node))
        out.append((node, here))
        try:
            found = here.lookup(node["$ref"]) if isinstance(node.get("$ref"), str) else None
        except Exception:  # (a metaschema's: its defaults are not the tool's)
            found = None
        if found is not None:
            todo.append((found.contents, found.resolver))
        todo.extend((sub, here) for sub in node.get("allOf") or ())
    return out


def _build(schema: Any, resolver: Any, memo: dict[int, Plan]) -> Plan:
    if id(schema) in memo:
        return memo[id(schema)]
    result = memo[id(schema)] = Plan()
    for node, here in _resolved(schema, resolver):
        properties = node.get("properties")
        for name, sub in properties.items() if isinstance(properties, Mapping) else ():
            if isinstance(sub, Mapping):
                for part, _ in _resolved(sub, here):
                    if "default" in part:
                        result.defaults.setdefault(name, part["default"])
                result.children.setdefault(name, _build(sub, here, memo))
        if isinstance(node.get("items"), Mapping) and result.items is None:
            result.items = _build(node["items"], here, memo)
    return result


def apply(plan: Plan, value: Any) -> Any:
    """``value`` with the defaults of ``plan`` filled in (a copy where changed)."""
    if isinstance(value, dict):
        out: dict[str, Any] | None = None
        for name, default in plan.defaults.items():
            if name not in value:
                out = dict(value) if out is None else out
                # a default is shared by every call: each call gets its own copy
                out[name] = copy.deepcopy(default)
        for name, child in plan.children.items():
            if name in value and (new := apply(child, value[name])) is not value[name]:
                out = dict(value) if out is None else out
                out[name] = new
        return value if out is None else out
    if isinstance(value, list) and plan.items is not None:
        items = [apply(plan.items, item) for item in value]
        if any(new is not old for new, old in zip(items, value, strict=True)):
            return items
    return value
