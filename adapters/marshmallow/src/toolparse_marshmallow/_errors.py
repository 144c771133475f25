"""``ValidationError.messages`` to the shared :class:`~toolparse.ArgumentProblem` list.

marshmallow reports errors as nested dicts and lists keyed by data keys, list
indexes, ``"_schema"`` (a schema-level error about the object itself) and, for
a ``Dict`` field, ``"key"``/``"value"``. The walk follows the schema's shape so
each message lands on the path the model sent (``items[2].sku``), with the
value it sent there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import REQUIRED, format_reason, type_reason

from ._shape import ListShape, MapShape, ObjectShape, PluckShape, Shape, TupleShape

__all__ = ["problems"]

_SCHEMA = "_schema"  # marshmallow.exceptions.SCHEMA, the key of schema-level errors
_ABSENT = NOT_GIVEN
_SCALARS = (str, int, float, bool, type(None))

Path = tuple[str | int, ...]


class _Context:
    __slots__ = ("out", "required", "unknown")

    def __init__(self, required: frozenset[str], unknown: frozenset[str]) -> None:
        self.required = required
        self.unknown = unknown
        self.out: list[ArgumentProblem] = []


def problems(
    messages: Any,
    shape: ObjectShape,
    arguments: Mapping[str, Any],
    *,
    required_messages: frozenset[str],
    unknown_messages: frozenset[str],
) -> list[ArgumentProblem]:
    """Every problem in ``messages``, with paths and received values."""
    context = _Context(required_messages, unknown_messages)
    _walk(messages, shape, (), arguments, context)
    return context.out


def _child(value: Any, key: Any) -> Any:
    if isinstance(value, Mapping):
        return value.get(key, _ABSENT)
    if isinstance(key, int) and isinstance(value, (list, tuple)) and 0 <= key < len(value):
        return value[key]
    return _ABSENT


def _index(key: Any) -> str | int:
    """A path element: list positions as ints, everything else as text."""
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    return str(key)


def _walk(messages: Any, shape: Shape | None, path: Path, value: Any, ctx: _Context) -> None:
    if isinstance(messages, Mapping):
        items = list(messages.items())
        if isinstance(shape, ObjectShape):
            # schema-level errors first, then fields in declaration order
            # (marshmallow 3 reports them in no stable order)
            last = len(shape.order)
            items.sort(key=lambda kv: -1 if kv[0] == _SCHEMA else shape.order.get(kv[0], last))
        for key, sub in items:
            if key == _SCHEMA:
                _walk(sub, shape, path, value, ctx)
            else:
                _keyed(key, sub, shape, path, value, ctx)
    elif isinstance(messages, (list, tuple)):
        for sub in messages:
            _walk(sub, shape, path, value, ctx)
    else:
        ctx.out.append(_problem(str(messages), path, value, ctx))


def _keyed(key: Any, sub: Any, shape: Shape | None, path: Path, value: Any, ctx: _Context) -> None:
    """One keyed entry of a messages dict, read according to the shape there."""
    if isinstance(shape, MapShape) and isinstance(sub, Mapping):
        # a Dict field: {key: {"key": [...], "value": [...]}}
        here = (*path, _index(key))
        for part, errors in sub.items():
            if part == "key":
                for text in _texts(errors):
                    ctx.out.append(ArgumentProblem(here, f"Invalid key: {_plain(text)}", key))
            else:
                _walk(errors, shape.value, here, _child(value, key), ctx)
        return
    if isinstance(shape, PluckShape):
        if shape.many and isinstance(key, int):
            _walk(sub, shape.one(), (*path, key), _child(value, key), ctx)
        else:
            # {inner_key: [...]}: the inner key is marshmallow's wrapping, not the model's
            _walk(sub, shape.inner, path, value, ctx)
        return
    child: Shape | None = None
    if isinstance(shape, ObjectShape):
        child = shape.children.get(key) if isinstance(key, str) else None
    elif isinstance(shape, ListShape):
        child = shape.item
    elif isinstance(shape, TupleShape) and isinstance(key, int) and 0 <= key < len(shape.items):
        child = shape.items[key]
    _walk(sub, child, (*path, _index(key)), _child(value, key), ctx)


def _texts(errors: Any) -> list[str]:
    if isinstance(errors, (list, tuple)):
        return [text for sub in errors for text in _texts(sub)]
    if isinstance(errors, Mapping):
        return [text for sub in errors.values() for text in _texts(sub)]
    return [str(errors)]


def _plain(text: str) -> str:
    """Marshmallow's sentence without its closing period (the line goes on)."""
    text = text.strip()
    return text[:-1] if text.endswith(".") and not text.endswith("..") else text


# marshmallow's default field messages onto the shared vocabulary (a schema's
# own error_messages and a validator's text are kept as written)
_SHARED = {
    "Not a valid integer.": type_reason("integer"),
    "Not a valid number.": type_reason("number"),
    "Not a valid string.": type_reason("string"),
    "Not a valid boolean.": type_reason("boolean"),
    "Not a valid list.": type_reason("array"),
    "Not a valid tuple.": type_reason("array"),
    "Not a valid mapping type.": type_reason("object"),
    "Invalid input type.": type_reason("object"),
    "Not a valid date.": format_reason("date"),
    "Not a valid datetime.": format_reason("date-time"),
    "Not a valid time.": format_reason("time"),
    "Not a valid UUID.": format_reason("uuid"),
    "Not a valid email address.": format_reason("email"),
    "Missing data for required field.": REQUIRED,
}


def _problem(text: str, path: Path, value: Any, ctx: _Context) -> ArgumentProblem:
    if value is _ABSENT and path:
        if text in ctx.required:
            return ArgumentProblem.missing(path, _SHARED.get(text) or _plain(text))
        if text in ctx.unknown:
            # an unknown key is absent only for a Pluck-wrapped or odd path; say it as is
            return ArgumentProblem(path, _plain(text))
    if text in ctx.unknown and path and isinstance(path[-1], str):
        return ArgumentProblem.unrecognized(path)
    received = value if isinstance(value, _SCALARS) else NOT_GIVEN
    return ArgumentProblem(path, _SHARED.get(text) or _plain(text), received)
