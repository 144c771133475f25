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

__all__ = ["MAX_COPIED", "copied", "named"]

#: the most values one rejected call's jsonschema-rs errors may copy (about 300 MB);
#: past this the pure engine, which builds its errors one at a time and copies
#: nothing, explains the call
MAX_COPIED = 2_000_000


def named(
    walked: list[tuple[dict[str, Any], list[str | int], Any]],
) -> tuple[dict[str, int], bool]:
    """How often each name is required in a schema (``walked``), and whether it checks property names.

    These say how many errors one object may get (one per missing name, one per
    refused property name) beside one per keyword.
    """
    names: dict[str, int] = {}
    checks_names = False
    for node, _, _ in walked:
        checks_names = checks_names or "propertyNames" in node
        lists = [node.get("required")]
        for keyword in ("dependentRequired", "dependencies"):
            if isinstance(node.get(keyword), dict):
                lists += node[keyword].values()
        for listed in lists:
            for name in listed if isinstance(listed, list) else ():
                if isinstance(name, str):
                    names[name] = names.get(name, 0) + 1
    return names, checks_names


def copied(value: Any, names: dict[str, int], checks_names: bool, bound: int) -> int:
    """At most how many values jsonschema-rs' errors of ``value`` copy (stops past ``bound``).

    Each error copies the value it is about: a value is copied once for each
    error of each object or list it is inside (itself included). An object may
    get one error per keyword, per missing name and per property name.
    """
    total = sum(names.values())
    todo: list[tuple[Any, int]] = [(value, 0)]
    copied = 0
    while todo and copied <= bound:
        node, above = todo.pop()
        if isinstance(node, dict):
            errors = 1 + total - sum(names.get(k, 0) for k in node if type(k) is str)
            above += errors + (len(node) if checks_names else 0)
            todo += ((child, above) for child in node.values())
        elif isinstance(node, list):
            above += 1
            todo += ((child, above) for child in node)
        copied += above + 1
    return copied
