"""The shape of the arguments a marshmallow schema loads.

The converter records, next to the JSON Schema it writes, which keys every
object level accepts and what kind of container sits under each key. The error
translation walks ``ValidationError.messages`` along this shape (so a ``Dict``
field's ``"key"``/``"value"`` layer or a ``Pluck`` field's inner key is told
apart from a nested schema's fields), and the ``unknown_arguments`` policies
``"reject"`` and ``"ignore"`` use it to refuse or drop unknown keys at nested
levels, where marshmallow's ``load(unknown=...)`` does not reach.

Each level also carries the :class:`~toolparse_marshmallow._reasons.Reasons`
of the fields there (what their failure texts mean in the shared words).

Shapes of recursive schemas point back at themselves; walking one only ever
follows the arguments, which are finite.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._reasons import Reasons

__all__ = [
    "ListShape",
    "MapShape",
    "ObjectShape",
    "PluckShape",
    "Shape",
    "TupleShape",
    "drop_unknown",
    "has_nested_objects",
    "set_order",
    "unknown_paths",
]


class ObjectShape:
    """An object level: the data keys it accepts and the shapes below them."""

    __slots__ = ("children", "in_order", "keys", "order", "own", "rank", "reasons")

    def __init__(self) -> None:
        self.keys: frozenset[str] = frozenset()
        #: declaration order of the keys (errors are reported in it)
        self.order: dict[str, int] = {}
        #: the sort key of an error key: the level's own errors first, then
        #: the fields in declaration order, then anything else
        self.rank: Callable[[Any], int] = _Rank({}).__getitem__
        #: whether marshmallow reports the fields in declaration order already
        #: (marshmallow 4, or an ordered schema of marshmallow 3)
        self.in_order = False
        #: only keys whose value holds a container worth walking into
        self.children: dict[str, Shape] = {}
        #: the failure texts of the field under each key
        self.reasons: dict[str, Reasons] = {}
        #: the level's own texts (``"Invalid input type."``)
        self.own: Reasons | None = None


class _Rank(dict[Any, int]):
    __slots__ = ()

    def __missing__(self, key: Any) -> int:
        return len(self)


def set_order(shape: ObjectShape, keys: list[str]) -> None:
    """Record the declaration order of an object level's keys."""
    shape.keys = frozenset(keys)
    shape.order = {key: i for i, key in enumerate(keys)}
    shape.rank = _Rank({"_schema": -1, **shape.order}).__getitem__


class ListShape:
    """A list (``List`` or a ``Nested`` with ``many=True``) of ``item``."""

    __slots__ = ("item", "reasons")

    def __init__(self, item: Shape | None, reasons: Reasons | None = None) -> None:
        self.item = item
        self.reasons = reasons


class MapShape:
    """A ``Dict``: any keys, each value of shape ``value``."""

    __slots__ = ("key_reasons", "value", "value_reasons")

    def __init__(
        self,
        value: Shape | None,
        value_reasons: Reasons | None = None,
        key_reasons: Reasons | None = None,
    ) -> None:
        self.value = value
        self.value_reasons = value_reasons
        self.key_reasons = key_reasons


class TupleShape:
    """A ``Tuple``: one shape per position."""

    __slots__ = ("items", "reasons")

    def __init__(
        self, items: tuple[Shape | None, ...], reasons: tuple[Reasons | None, ...] = ()
    ) -> None:
        self.items = items
        self.reasons = reasons


class PluckShape:
    """A ``Pluck``: the value (or each value, with ``many``) of one nested key.

    marshmallow loads it as ``{key: value}``, so its errors carry ``key`` as an
    extra level that the model never sent.
    """

    __slots__ = ("inner", "key", "many", "reasons")

    def __init__(
        self, key: str, inner: Shape | None, *, many: bool, reasons: Reasons | None = None
    ) -> None:
        self.key = key
        self.inner = inner
        self.many = many
        #: the failure texts of the plucked field
        self.reasons = reasons

    def one(self) -> PluckShape:
        """The shape of one plucked value (for an item of a ``many`` pluck)."""
        return PluckShape(self.key, self.inner, many=False, reasons=self.reasons)


Shape = ObjectShape | ListShape | MapShape | TupleShape | PluckShape


def has_nested_objects(root: ObjectShape) -> bool:
    """Whether any object level sits below the top one."""
    seen: set[int] = {id(root)}
    todo: list[Shape | None] = list(root.children.values())
    while todo:
        shape = todo.pop()
        if shape is None or id(shape) in seen:
            continue
        if isinstance(shape, ObjectShape):
            return True
        seen.add(id(shape))
        todo.extend(_inner(shape))
    return False


def _inner(shape: Shape) -> list[Shape | None]:
    if isinstance(shape, ObjectShape):
        return list(shape.children.values())
    if isinstance(shape, ListShape):
        return [shape.item]
    if isinstance(shape, MapShape):
        return [shape.value]
    if isinstance(shape, TupleShape):
        return list(shape.items)
    return [shape.inner]


def unknown_paths(
    shape: Shape | None, value: Any, path: tuple[str | int, ...], out: list[tuple[str | int, ...]]
) -> None:
    """Append the path of every key ``value`` holds that ``shape`` does not accept."""
    if shape is None:
        return
    if isinstance(shape, ObjectShape):
        if isinstance(value, Mapping):
            for key, sub in value.items():
                if key not in shape.keys:
                    out.append((*path, key))
                else:
                    child = shape.children.get(key)
                    if child is not None:
                        unknown_paths(child, sub, (*path, key), out)
    elif isinstance(shape, (ListShape, TupleShape)) or (
        isinstance(shape, PluckShape) and shape.many
    ):
        if _leaves(shape):
            return
        if isinstance(value, (list, tuple)):
            for i, sub in enumerate(value):
                unknown_paths(_item(shape, i), sub, (*path, i), out)
    elif isinstance(shape, MapShape):
        if isinstance(value, Mapping):
            for key, sub in value.items():
                unknown_paths(shape.value, sub, (*path, key), out)
    else:
        unknown_paths(shape.inner, value, path, out)


def _leaves(shape: Shape) -> bool:
    """A list or tuple of plain values (a shape kept only for its reasons)."""
    if isinstance(shape, ListShape):
        return shape.item is None
    if isinstance(shape, TupleShape):
        return all(item is None for item in shape.items)
    return False


def _item(shape: ListShape | TupleShape | PluckShape, index: int) -> Shape | None:
    if isinstance(shape, ListShape):
        return shape.item
    if isinstance(shape, TupleShape):
        return shape.items[index] if index < len(shape.items) else None
    return shape.inner


def drop_unknown(shape: Shape | None, value: Any) -> Any:
    """``value`` without the keys ``shape`` does not accept (``value`` itself if none)."""
    if shape is None:
        return value
    if isinstance(shape, ObjectShape):
        if not isinstance(value, Mapping):
            return value
        out: dict[Any, Any] = {}
        changed = False
        for key, sub in value.items():
            if key not in shape.keys:
                changed = True
                continue
            child = shape.children.get(key)
            new = sub if child is None else drop_unknown(child, sub)
            changed = changed or new is not sub
            out[key] = new
        return out if changed else value
    if isinstance(shape, (ListShape, TupleShape)) or (isinstance(shape, PluckShape) and shape.many):
        if _leaves(shape) or not isinstance(value, (list, tuple)):
            return value
        items = [drop_unknown(_item(shape, i), sub) for i, sub in enumerate(value)]
        if all(new is old for new, old in zip(items, value, strict=True)):
            return value
        return items
    if isinstance(shape, MapShape):
        if not isinstance(value, Mapping):
            return value
        mapped = {key: drop_unknown(shape.value, sub) for key, sub in value.items()}
        if all(mapped[key] is sub for key, sub in value.items()):
            return value
        return mapped
    return drop_unknown(shape.inner, value)
