"""``ValidationError.messages`` to the shared :class:`~toolparse.ArgumentProblem` list.

marshmallow reports errors as nested dicts and lists keyed by data keys, list
indexes, ``"_schema"`` (a schema-level error about the object itself) and, for
a ``Dict`` field, ``"key"``/``"value"``. The walk follows the schema's shape so
each message lands on the path the model sent (``items[2].sku``), with the
value it sent there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import MAX_PROBLEMS, REQUIRED

from ._checks import ECHOED as _ECHOED
from ._checks import Explain, Path, received
from ._reasons import REQUIRED_TEXT, Reasons
from ._shape import ListShape, MapShape, ObjectShape, PluckShape, Shape, TupleShape

__all__ = ["KEPT", "plain", "problems"]

_SCHEMA = "_schema"  # marshmallow.exceptions.SCHEMA, the key of schema-level errors
_ABSENT = NOT_GIVEN
_SCALARS = (str, int, float, bool, type(None))


#: the problems of one call built at most (the SDK's bound); past them a list
#: item's errors are only counted
KEPT = MAX_PROBLEMS


class _Context:
    __slots__ = ("more", "out", "required", "unknown")

    def __init__(self, required: frozenset[str], unknown: frozenset[str]) -> None:
        self.required = required
        self.unknown = unknown
        self.out: list[ArgumentProblem] = []
        self.more = 0


def _count(messages: Any) -> int:
    """How many texts ``messages`` holds: the problems it would have become."""
    if type(messages) is str:
        return 1
    if isinstance(messages, Mapping):
        return sum(_count(sub) for sub in messages.values())
    if isinstance(messages, (list, tuple)):
        return sum(_count(sub) for sub in messages)
    return 1


def problems(
    messages: Any,
    shape: ObjectShape,
    arguments: Mapping[str, Any],
    *,
    required_messages: frozenset[str],
    unknown_messages: frozenset[str],
) -> tuple[list[ArgumentProblem], int]:
    """The problems in ``messages``, with paths and received values, and how many more.

    Past :data:`KEPT` problems a list item's errors are counted, not built; the
    top level's own (missing and unknown names) are always built.
    """
    context = _Context(required_messages, unknown_messages)
    if type(messages) is dict:
        _object(messages, shape, (), arguments, context)
    else:
        _walk(messages, shape, None, (), arguments, context)
    return context.out, context.more


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


def _object(
    messages: dict[Any, Any], shape: ObjectShape, path: Path, value: Any, ctx: _Context
) -> None:
    """The errors of one object level: its own first, then its fields in declaration order.

    (marshmallow 3 reports the fields in no stable order.) This is the walk's
    common case, so it reads a field's texts without a detour.
    """
    entries: Iterable[tuple[Any, Any]]
    if len(messages) > 1 and (not shape.in_order or _SCHEMA in messages):
        entries = [(key, messages[key]) for key in sorted(messages, key=shape.rank)]
    else:
        entries = messages.items()  # unknown keys come after the fields, as ranked
    sent = value if type(value) is dict else None
    out = ctx.out
    required, unknown, meanings = ctx.required, ctx.unknown, shape.reasons
    for key, sub in entries:
        if key == _SCHEMA:
            _walk(sub, shape, shape.own, path, value, ctx)
            continue
        if type(key) is not str:
            _keyed(key, sub, shape, path, value, ctx)
            continue
        here = (*path, key)
        got = sent.get(key, _ABSENT) if sent is not None else _child(value, key)
        if type(sub) is list and len(sub) == 1 and type(sub[0]) is str:
            # one text for a field, the commonest failure: what _texts_at and
            # _explain work out for it, with one lookup of its meaning
            text = sub[0]
            if got is _ABSENT:
                if text in required:
                    reason = REQUIRED if text == REQUIRED_TEXT else plain(text)
                    out.append(ArgumentProblem(here, reason, kind="missing"))
                    continue
            elif text not in unknown:
                reasons = meanings.get(key)
                explain = None if reasons is None else reasons.single.get(text)
                found = (
                    explain if explain is None or isinstance(explain, str) else explain(here, got)
                )
                echoed = got if isinstance(got, _ECHOED) else _ABSENT
                if found is None:
                    out.append(ArgumentProblem(here, plain(text), echoed))
                elif isinstance(found, str):
                    out.append(ArgumentProblem(here, found, echoed))
                else:
                    out.extend(found)
                continue
        if type(sub) is list and _all_text(sub):
            _texts_at(sub, shape.reasons.get(key), here, got, ctx)
            continue
        child = shape.children.get(key)
        if type(sub) is dict:
            if type(child) is ObjectShape:
                _object(sub, child, here, got, ctx)
                continue
            if type(child) is ListShape:
                _items(sub, child, here, got, ctx)
                continue
        _walk(sub, child, shape.reasons.get(key), here, got, ctx)


def _all_text(texts: list[Any]) -> bool:
    if len(texts) == 1:
        return type(texts[0]) is str
    return all(type(text) is str for text in texts)


def _items(
    messages: dict[Any, Any], shape: ListShape, path: Path, value: Any, ctx: _Context
) -> None:
    """The errors of a list's items, keyed by index."""
    sent = value if type(value) is list else None
    item = shape.item
    out = ctx.out
    for key, sub in messages.items():
        if len(out) >= KEPT:
            ctx.more += _count(sub)
            continue
        if type(key) is not int:
            _keyed(key, sub, shape, path, value, ctx)
            continue
        got = sent[key] if sent is not None and 0 <= key < len(sent) else _child(value, key)
        here = (*path, key)
        if type(sub) is dict and type(item) is ObjectShape:
            _object(sub, item, here, got, ctx)
        elif type(sub) is list and _all_text(sub):
            _texts_at(sub, shape.reasons, here, got, ctx)
        else:
            _walk(sub, item, shape.reasons, here, got, ctx)


def _walk(
    messages: Any,
    shape: Shape | None,
    reasons: Reasons | None,
    path: Path,
    value: Any,
    ctx: _Context,
) -> None:
    if type(messages) is dict or isinstance(messages, Mapping):
        if type(shape) is ObjectShape:
            _object(dict(messages), shape, path, value, ctx)
            return
        if type(shape) is ListShape:
            _items(dict(messages), shape, path, value, ctx)
            return
        for key, sub in messages.items():
            if key == _SCHEMA:
                _walk(sub, shape, None, path, value, ctx)
            else:
                _keyed(key, sub, shape, path, value, ctx)
    elif type(messages) is list or isinstance(messages, (list, tuple)):
        if all(type(text) is str for text in messages):
            _texts_at(messages, reasons, path, value, ctx)
        else:
            for sub in messages:
                _walk(sub, shape, reasons, path, value, ctx)
    else:
        _texts_at((str(messages),), reasons, path, value, ctx)


def _keyed(key: Any, sub: Any, shape: Shape | None, path: Path, value: Any, ctx: _Context) -> None:
    """One keyed entry of a messages dict, read according to the shape there."""
    if isinstance(shape, MapShape) and isinstance(sub, Mapping):
        # a Dict field: {key: {"key": [...], "value": [...]}}
        here = (*path, _index(key))
        for part, errors in sub.items():
            if part == "key":
                for problem in _explained(_texts(errors), shape.key_reasons, here, key):
                    problem.reason = f"Invalid key: {problem.reason}"
                    problem.received = key if isinstance(key, _SCALARS) else NOT_GIVEN
                    ctx.out.append(problem)
            else:
                _walk(errors, shape.value, shape.value_reasons, here, _child(value, key), ctx)
        return
    if isinstance(shape, PluckShape):
        if shape.many and isinstance(key, int):
            _walk(sub, shape.one(), None, (*path, key), _child(value, key), ctx)
        else:
            # {inner_key: [...]}: the inner key is marshmallow's wrapping, not the model's
            _walk(sub, shape.inner, shape.reasons, path, value, ctx)
        return
    child: Shape | None = None
    reasons: Reasons | None = None
    if isinstance(shape, ObjectShape):
        if isinstance(key, str):
            child, reasons = shape.children.get(key), shape.reasons.get(key)
    elif isinstance(shape, ListShape):
        child, reasons = shape.item, shape.reasons
    elif isinstance(shape, TupleShape) and isinstance(key, int) and 0 <= key < len(shape.items):
        child = shape.items[key]
        reasons = shape.reasons[key] if key < len(shape.reasons) else None
    _walk(sub, child, reasons, (*path, _index(key)), _child(value, key), ctx)


def _texts(errors: Any) -> list[str]:
    if isinstance(errors, (list, tuple)):
        return [text for sub in errors for text in _texts(sub)]
    if isinstance(errors, Mapping):
        return [text for sub in errors.values() for text in _texts(sub)]
    return [str(errors)]


def plain(text: str) -> str:
    """Marshmallow's sentence without its closing period (the line goes on)."""
    text = text.strip()
    return text[:-1] if text.endswith(".") and not text.endswith("..") else text


def _texts_at(
    texts: Sequence[str], reasons: Reasons | None, path: Path, value: Any, ctx: _Context
) -> None:
    """The problems of one field's failure texts (all plain strings)."""
    if value is _ABSENT and path:
        rest: list[str] = []
        for text in texts:
            if text in ctx.required:
                reason = REQUIRED if text == REQUIRED_TEXT else plain(text)
                ctx.out.append(ArgumentProblem(path, reason, kind="missing"))
            elif text in ctx.unknown:
                # an unknown key is absent only for a Pluck-wrapped or odd path; say it as is
                ctx.out.append(ArgumentProblem(path, plain(text)))
            else:
                rest.append(text)
        if not rest:
            return
        texts = rest
    elif path and type(path[-1]) is str and not ctx.unknown.isdisjoint(texts):
        ctx.out.append(ArgumentProblem.unrecognized(path))
        texts = [text for text in texts if text not in ctx.unknown]
    _explain(ctx.out, texts, reasons, path, value)


def _explained(
    texts: Sequence[str], reasons: Reasons | None, path: Path, value: Any
) -> list[ArgumentProblem]:
    out: list[ArgumentProblem] = []
    _explain(out, texts, reasons, path, value)
    return out


def _explain(
    out: list[ArgumentProblem],
    texts: Sequence[str],
    reasons: Reasons | None,
    path: Path,
    value: Any,
) -> None:
    """Each text in the shared words where it is marshmallow's own, else as written.

    A field's validators report in the order they run, so each text is
    matched with the next validator that raises it; two ``Regexp`` with the
    default message are told apart by their order when both failed, and keep
    marshmallow's text when only one did.
    """
    at = 0
    for text in texts:
        explain: Explain | None = None
        if reasons is not None:
            explain = reasons.fixed.get(text)
            # a text that validators meaning different things raise (two
            # Regexp), when some of them passed: the text cannot say whose
            # it is, and they are not run again to find out
            unclear = text in reasons.shared and texts.count(text) < reasons.shared[text]
            if explain is None and not unclear:
                checks = reasons.checks
                for i in range(at, len(checks)):
                    said, how = checks[i]
                    if said == text:
                        at = i + 1
                        explain = how
                        break
        found = explain if explain is None or isinstance(explain, str) else explain(path, value)
        echoed = received(value)
        if found is None:
            out.append(ArgumentProblem(path, plain(text), echoed))
        elif isinstance(found, str):
            out.append(ArgumentProblem(path, found, echoed))
        else:
            out.extend(found)
