"""The shape of what a marshmallow schema loads, with what each field's failure texts mean.

The converter records one :class:`Node` per field and one :class:`Level` per
object level. The error reading follows them through ``ValidationError.messages``
(a ``Dict``'s ``"key"``/``"value"`` layer, a ``Pluck``'s inner key), and the
policies ``"reject"`` and ``"ignore"`` find with them the unknown keys of nested
objects, where ``load(unknown=...)`` does not reach. A recursive schema's level
is reached again from inside itself: a walk follows the arguments, which are finite.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._reasons import NO_TEXTS, Texts

__all__ = ["Level", "Node", "unknown_keys"]


class Node:
    """One field: what its failure texts mean, and what its value holds.

    At most one of ``level`` (an object: ``Nested``), ``item`` (a list:
    ``List``, ``Nested(many=True)``), ``items`` (a ``Tuple``), ``values`` (a
    ``Dict``, its keys read with ``keys``) and ``plucked`` (a ``Pluck``, whose
    value marshmallow wraps in the plucked field's key) is set.
    """

    __slots__ = ("item", "items", "keys", "level", "plucked", "texts", "values")

    def __init__(self, texts: Texts = NO_TEXTS) -> None:
        self.texts = texts
        self.level: Level | None = None
        self.item: Node | None = None
        self.items: tuple[Node, ...] | None = None
        self.keys: Node | None = None
        self.values: Node | None = None
        self.plucked: Node | None = None


class Level:
    """An object level (one schema): its fields by data key, in declaration order."""

    __slots__ = ("fields", "in_order", "own", "rank", "unknown")

    def __init__(self) -> None:
        self.fields: dict[str, Node] = {}
        #: the level's own texts (``"Invalid input type."``, ``@validates_schema``)
        self.own = Node()
        #: the text marshmallow gives a key the level does not accept
        self.unknown = ""
        #: whether marshmallow reports the fields in declaration order already
        #: (marshmallow 4, or an ordered schema of marshmallow 3)
        self.in_order = False
        #: the place of each error key: the level's own errors first, then the
        #: fields in declaration order, then anything else
        self.rank: dict[str, int] = {}


def unknown_keys(
    root: Level, arguments: Mapping[str, Any], *, drop: bool
) -> tuple[Any, list[tuple[Any, ...]]]:
    """The paths of the unknown keys of nested objects, and (``drop``) the arguments without them.

    The top level's own unknown names are left as they are: ``load`` and the
    core's policy speak of those. Without ``drop``, or when nothing is
    unknown, the arguments come back as they are (the same object).
    """
    found: list[tuple[Any, ...]] = []
    kept: dict[str, Any] = {}
    for key, value in arguments.items():
        node = root.fields.get(key)
        new = value if node is None or _leaf(node) else _strip(node, value, (key,), found, drop)
        if drop:
            kept[key] = new
    return (kept if drop and found else arguments), found


def _leaf(node: Node) -> bool:
    return not (node.level or node.item or node.items or node.values or node.plucked)


def _strip(node: Node, value: Any, path: tuple[Any, ...], found: list[Any], drop: bool) -> Any:
    """``value`` without the keys ``node`` does not accept below it (``drop``); their paths."""
    while node.plucked is not None:
        node = node.plucked
    before = len(found)
    if isinstance(value, Mapping) and (node.level is not None or node.values is not None):
        fields = None if node.level is None else node.level.fields
        out: dict[Any, Any] = {}
        for key, sub in value.items():
            child = node.values if fields is None else fields.get(key)
            if child is None:
                found.append((*path, key))
                continue
            new = sub if _leaf(child) else _strip(child, sub, (*path, key), found, drop)
            if drop:
                out[key] = new
        return out if drop and len(found) > before else value
    if isinstance(value, (list, tuple)) and (node.item is not None or node.items):
        items = []
        for i, sub in enumerate(value):
            child = node.item
            if child is None and node.items is not None and i < len(node.items):
                child = node.items[i]
            if child is not None and not _leaf(child):
                sub = _strip(child, sub, (*path, i), found, drop)
            if drop:
                items.append(sub)
        return items if drop and len(found) > before else value
    return value
