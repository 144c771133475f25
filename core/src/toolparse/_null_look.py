"""The look before the null-restoring walk: whether a value may change at all.

Most calls hold no ``null`` to drop: a look that builds nothing says so, and
the walk (which copies what it visits) runs only when it may change something.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._null_plan import Node, _Arr, _Obj, _Union, _unwrap
from ._schemas import MAX_DEPTH

__all__ = ["Changes", "changes_of"]

# -- the look before the walk: may a value change at all? ---------------------------
# Each plan node gets a small function ``changes(value, depth)`` that answers
# False only when ``apply`` would hand the value back unchanged, and True when
# it may not (the walk then decides exactly). It reads what the plan can touch
# and nothing else: a ``None`` among an object's values (one scan in C), the
# values under the children that may change, a string that may be decoded. It
# builds nothing, so a call with no null to drop costs a few lookups.

Changes = Callable[[Any, int], bool]


def _never(value: Any, depth: int) -> bool:
    return False


def _leaf(node: Node | None) -> bool:
    """An object whose only change can be dropping a ``null`` of its own."""
    return (
        isinstance(node, _Obj)
        and not node.decode
        and not node.props
        and node.extra is None
        and bool(node.strip)
    )


def _leaf_list(node: Node | None) -> bool:
    """A list of such objects (no positional items)."""
    return isinstance(node, _Arr) and not node.prefix and _leaf(_unwrap(node.items))


def _has_null(value: dict[Any, Any]) -> bool:
    # ``all`` (a truth test per value, stopping at the first falsy one) is
    # cheaper than comparing every value with None, and most values are truthy
    values = value.values()
    return not all(values) and None in values


def _leaf_changes(value: Any, depth: int) -> bool:
    # (past MAX_DEPTH the walk changes nothing: a True there only costs the walk)
    return isinstance(value, dict) and _has_null(value)


class _Checks:
    """Builds the ``changes`` function of each plan node, once per node."""

    __slots__ = ("memo",)

    def __init__(self) -> None:
        self.memo: dict[int, Changes] = {}

    def of(self, node: Node | None) -> Changes:
        node = _unwrap(node)
        if node is None:
            return _never
        found = self.memo.get(id(node))
        if found is not None:
            return found
        # a recursive plan reaches this node again while it is being built:
        # the cell is filled in below, and read only when a call runs
        cell: list[Changes] = []

        def later(value: Any, depth: int) -> bool:
            return cell[0](value, depth)

        self.memo[id(node)] = later
        if isinstance(node, _Obj):
            built = self._object(node)
        elif isinstance(node, _Arr):
            built = self._array(node)
        elif isinstance(node, _Union):
            built = self._union(node)
        else:  # a _Ref was unwrapped above
            built = _never
        cell.append(built)
        self.memo[id(node)] = built
        return built

    def _object(self, node: _Obj) -> Changes:
        if _leaf(node):
            return _leaf_changes
        strip, decode, names = bool(node.strip), node.decode, node.names
        # children of the two commonest shapes are looked at inline (no call)
        leaves = [k for k, c in node.props.items() if _leaf(_unwrap(c))]
        lists = [k for k, c in node.props.items() if _leaf_list(_unwrap(c))]
        props = [
            (k, self.of(c)) for k, c in node.props.items() if k not in leaves and k not in lists
        ]
        extra = None if node.extra is None else self.of(node.extra)

        def changes(value: Any, depth: int) -> bool:
            if not isinstance(value, dict):
                return decode and isinstance(value, str) and value[:1] == "{"
            if depth > MAX_DEPTH:
                return False
            # _has_null inline: this runs on every call that sends a nested object
            if strip:
                values = value.values()
                if not all(values) and None in values:
                    return True
            for key in leaves:
                item = value.get(key)
                if isinstance(item, dict):
                    values = item.values()
                    if not all(values) and None in values:
                        return True
            for key in lists:
                item = value.get(key)
                if isinstance(item, list):
                    for each in item:
                        if isinstance(each, dict):
                            values = each.values()
                            if not all(values) and None in values:
                                return True
            for key, child in props:
                item = value.get(key)
                if item is not None and child(item, depth + 1):
                    return True
            if extra is not None:
                for key, item in value.items():
                    if key not in names and item is not None and extra(item, depth + 1):
                        return True
            return False

        return changes

    def _array(self, node: _Arr) -> Changes:
        prefix = [self.of(child) for child in node.prefix]
        items = self.of(node.items)
        count = len(prefix)
        if not count and _leaf(_unwrap(node.items)):
            # a list of plain objects, the commonest shape: one loop, no calls
            def leaves(value: Any, depth: int) -> bool:
                if not isinstance(value, list):
                    return False
                for item in value:  # noqa: SIM110  (a loop: a generator costs more)
                    if isinstance(item, dict) and _has_null(item):
                        return True
                return False

            return leaves

        def changes(value: Any, depth: int) -> bool:
            if not isinstance(value, list) or depth > MAX_DEPTH:
                return False
            for i, item in enumerate(value):
                child = prefix[i] if i < count else items
                if item is not None and child(item, depth + 1):
                    return True
            return False

        return changes

    def _union(self, node: _Union) -> Changes:
        # any branch that may change the value: the walk then picks the branches
        # (as the walk does, only object branches see an object, array ones a list)
        plans = [_unwrap(b) for b in node.branches]
        decodes = not node.strings and any(isinstance(p, _Obj) and p.decode for p in plans)
        objects = [self.of(p) for p in plans if isinstance(p, _Obj)]
        arrays = [self.of(p) for p in plans if isinstance(p, _Arr)]

        def changes(value: Any, depth: int) -> bool:
            if depth > MAX_DEPTH:
                return False
            if isinstance(value, str):
                return decodes and value[:1] == "{"
            if isinstance(value, dict):
                return any(c(value, depth) for c in objects)
            if isinstance(value, list):
                return any(c(value, depth) for c in arrays)
            return False

        return changes


def changes_of(plan: Node) -> Changes:
    """The look for ``plan``: ``changes(value, 0)`` is False only when nothing would change."""
    return _Checks().of(plan)
