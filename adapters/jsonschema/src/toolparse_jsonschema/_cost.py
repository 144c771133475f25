"""What explaining a rejected call costs jsonschema-rs, read before it is asked.

jsonschema-rs builds every error of a value at once, each with a copy of the
value it is about and a rendering of it (about 150 bytes per value copied). An
object gets one error per keyword, per missing name and per refused property
name, each copying the whole object: 5,000 refused names of a 79 KB object
copy it 5,000 times, gigabytes, and the process aborts when an allocation
fails. :func:`copied` bounds that count from the value and the schema alone.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MAX_COPIED", "Shape", "copied", "shape"]

#: the most values one rejected call's jsonschema-rs errors may copy (about 600 MB at
#: most, and far less for most values under the bound: each container counts as if
#: every keyword failed there); past this the pure engine, which builds its errors
#: one at a time and copies nothing, explains the call
MAX_COPIED = 4_000_000


#: (how many names are required in all, how often each) for one depth
Names = tuple[int, dict[str, int]]
#: the names required at each depth of the value (``None``: at any depth), whether
#: property names are checked, and the deepest level any keyword reaches (``None``: any)
Shape = tuple[dict[int | None, Names], bool, int | None]

#: keywords followed by a name (or index) in a subschema's path, and which of them
#: are a level of the value down; and the keywords that are a level down themselves
_NAMED = frozenset(
    ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies")
)
_NAMED_DOWN = frozenset(("properties", "patternProperties"))
_DOWN = frozenset(
    (
        "items",
        "prefixItems",
        "additionalItems",
        "unevaluatedItems",
        "contains",
        "additionalProperties",
        "unevaluatedProperties",
    )
)
_REFERENCES = ("$ref", "$dynamicRef", "$recursiveRef")


def _depth(path: list[str | int]) -> int:
    """How many levels of the value down a subschema at ``path`` applies (no reference between)."""
    depth = i = 0
    while i < len(path):
        part = path[i]
        if part in _NAMED:  # (the next part is a name: a property called "items" is none)
            depth += part in _NAMED_DOWN
            i += 2
            continue
        depth += part in _DOWN
        i += 1
    return depth


def shape(walked: list[tuple[dict[str, Any], list[str | int], Any]]) -> Shape:
    """What says how many errors one object may get in a schema (``walked``: its subschemas).

    One per keyword, one per missing name (of the ``required`` lists at its
    depth) and one per property name (under ``propertyNames``). With a
    reference anywhere, any subschema may apply at any depth.
    """
    anywhere = any(isinstance(node.get(k), str) for node, _, _ in walked for k in _REFERENCES)
    counts: dict[int | None, dict[str, int]] = {}
    checks_names = False
    deepest = 0
    for node, path, _ in walked:
        depth = None if anywhere else _depth(path)
        deepest = max(deepest, depth or 0)
        checks_names = checks_names or "propertyNames" in node
        lists = [node.get("required")]
        for keyword in ("dependentRequired", "dependencies"):
            if isinstance(node.get(keyword), dict):
                lists += node[keyword].values()
        here = counts.setdefault(depth, {})
        for listed in lists:
            for name in listed if isinstance(listed, list) else ():
                if isinstance(name, str):
                    here[name] = here.get(name, 0) + 1
    names = {depth: (sum(n.values()), n) for depth, n in counts.items() if n}
    return names, checks_names, None if anywhere else deepest


def copied(value: Any, shape: Shape, bound: int) -> int:
    """At most how many values jsonschema-rs' errors of ``value`` copy (stops past ``bound``).

    Each error copies the value it is about: a value is copied once for each
    error of each object or list it is inside (itself included), and only
    values the schema reaches get errors.
    """
    names, checks_names, deepest = shape
    anywhere = names.get(None)
    todo: list[tuple[Any, int, int]] = [(value, 0, 0)]
    count = 0
    while todo and count <= bound:
        node, depth, above = todo.pop()
        reached = deepest is None or depth <= deepest
        if isinstance(node, dict):
            if reached:
                above += 1 + (len(node) if checks_names else 0)
                for required in (names.get(depth), anywhere):
                    if required is not None:
                        above += required[0] - sum(required[1].get(k, 0) for k in node)
            todo += ((child, depth + 1, above) for child in node.values())
        elif isinstance(node, list):
            above += reached
            todo += ((child, depth + 1, above) for child in node)
        count += above + 1
    return count
