"""The error walk's common case, read from tables worked out once per schema.

Most rejected calls fail in the plainest way marshmallow reports: each failed
field has one text, under a field of an object level or an item of a list of
objects. For that case everything the walk in ``_errors`` derives from a text
is known when the tool is defined, since marshmallow's texts are the fields'
``error_messages`` and validators' messages: each object level gets a
:class:`Level` (data key -> :class:`Entry`: what each of the field's texts
means, and the level or list below it), and a failure is read with a lookup
per text.

The tables answer only where their answer is the walk's own; anything else
(several texts for one field, schema-level errors, unknown keys, a ``Dict``,
``Tuple`` or ``Pluck``, a value of an unexpected type, more problems than are
kept) makes :func:`quick` answer ``None``, and the walk reads the call as it
always did. The walk's order, paths, reasons and received values are the
tables' too; a test compares the two over generated calls.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import REQUIRED

from ._checks import ECHOED as _ECHOED
from ._checks import Explain
from ._errors import KEPT, plain
from ._reasons import BY_TYPE, REQUIRED_TEXT, Reasons
from ._shape import ListShape, ObjectShape, Shape

__all__ = ["Items", "Level", "Tables", "quick"]

_ABSENT = NOT_GIVEN
_SCHEMA = "_schema"
#: the Python types of JSON values: a meaning that depends on the type alone
#: is worked out for each of them
_JSON_KINDS: tuple[type, ...] = (str, int, float, bool, type(None), dict, list)

#: what a text means when a value was received: the reason itself; a reason
#: per type of the value (and the meaning for any other type); or the meaning
#: to ask (it depends on the value)
Spec = str | tuple[dict[type, str], Callable[..., Any]] | Callable[..., Any]


class Items:
    """A list field: the level of its items (objects) and its items' texts."""

    __slots__ = ("level", "texts")

    def __init__(self) -> None:
        self.level: Level | None = None
        self.texts: dict[str, Spec] = {}


class Entry:
    """One field of an object level: its texts' meanings and what lies below it."""

    __slots__ = ("items", "level", "texts")

    def __init__(self, texts: dict[str, Spec]) -> None:
        self.texts = texts
        self.level: Level | None = None
        self.items: Items | None = None


#: an object level: data key -> its field's entry
Level = dict[str, Entry]


class Tables:
    """The tables of one converted schema (``root`` is ``None``: the walk reads every call)."""

    __slots__ = ("_levels", "_texts", "missing", "root", "unknown")

    def __init__(
        self, shape: ObjectShape, required: frozenset[str], unknown: frozenset[str]
    ) -> None:
        #: a required field's text -> the reason of a missing problem
        self.missing = {
            text: REQUIRED if text == REQUIRED_TEXT else plain(text) for text in required
        }
        self.unknown = unknown
        self._levels: dict[int, Level | None] = {}
        self._texts: dict[int, dict[str, Spec]] = {}
        self.root = self._level(shape)
        del self._levels, self._texts

    def _level(self, shape: ObjectShape) -> Level | None:
        # a recursive schema's shape comes back to itself: its level is shared
        if id(shape) in self._levels:
            return self._levels[id(shape)]
        if not shape.in_order:
            # marshmallow 3 reports the fields in no stable order: the walk sorts them
            self._levels[id(shape)] = None
            return None
        level: Level = {}
        self._levels[id(shape)] = level
        for key in shape.order:
            if key == _SCHEMA:
                continue  # the walk reads that key as the level's own errors
            entry = Entry(self._meanings(shape.reasons.get(key)))
            child = shape.children.get(key)
            if type(child) is ObjectShape:
                entry.level = self._level(child)
            elif type(child) is ListShape:
                entry.items = self._items(child)
            level[key] = entry
        return level

    def _items(self, shape: ListShape) -> Items:
        items = Items()
        items.texts = self._meanings(shape.reasons)
        item: Shape | None = shape.item
        if type(item) is ObjectShape:
            items.level = self._level(item)
        return items

    def _meanings(self, reasons: Reasons | None) -> dict[str, Spec]:
        """What each of a field's texts means alone (``Reasons.single``, worked out further)."""
        if reasons is None:
            return {}
        known = self._texts.get(id(reasons))
        if known is None:
            known = self._texts[id(reasons)] = {
                text: _spec(text, explain) for text, explain in reasons.single.items()
            }
        return known


@functools.lru_cache(maxsize=1024)
def _spec(text: str, explain: Explain | None) -> Spec:
    # fields of one type share their texts and meanings: worked out once for them all
    if explain is None:
        return plain(text)
    if isinstance(explain, str):
        return explain
    if explain not in BY_TYPE:
        return explain
    # a wrong type's words depend on the JSON type received alone
    by_type: dict[type, str] = {}
    for kind in _JSON_KINDS:
        found = explain((), kind())
        if found is None:
            by_type[kind] = plain(text)
        elif isinstance(found, str):
            by_type[kind] = found
    return (by_type, explain)


def quick(messages: Any, arguments: Any, tables: Tables) -> list[ArgumentProblem] | None:
    """The problems of ``messages`` from the tables, or ``None``: the walk must read them."""
    root = tables.root
    if root is None or type(messages) is not dict or type(arguments) is not dict:
        return None
    if _over(messages, KEPT):
        # more texts than a rejection keeps: the walk builds the kept ones and
        # counts the rest, and nothing is built here first
        return None
    out: list[ArgumentProblem] = []
    if _object(messages, root, (), arguments, out, tables):
        return out
    return None


def _over(messages: dict[Any, Any], budget: int) -> bool:
    """Whether ``messages`` holds more than ``budget`` texts (read no further than that)."""
    stack = [messages]
    while stack:
        for sub in stack.pop().values():
            if type(sub) is dict:
                stack.append(sub)
            else:
                budget -= len(sub) if type(sub) is list else 1
                if budget < 0:
                    return True
    return False


def _object(
    messages: dict[Any, Any],
    level: Level,
    path: tuple[str | int, ...],
    sent: dict[Any, Any],
    out: list[ArgumentProblem],
    tables: Tables,
) -> bool:
    for key, sub in messages.items():
        entry = level.get(key) if type(key) is str else None
        if entry is None:
            return False  # not a field here: an unknown key or the level's own errors
        got = sent.get(key, _ABSENT)
        here = (*path, key)
        if type(sub) is list:
            if len(sub) != 1:
                return False
            text = sub[0]
            if type(text) is not str:
                return False
            if got is _ABSENT:
                reason = tables.missing.get(text)
                if reason is None:
                    return False
                out.append(ArgumentProblem(here, reason, _ABSENT, "missing"))
            elif text in tables.unknown:
                return False
            else:
                # _one's common cases written out: a reason known, or one per type
                spec = entry.texts.get(text)
                if type(spec) is str:
                    reason = spec
                elif type(spec) is tuple and type(got) in spec[0]:
                    reason = spec[0][type(got)]
                elif _one(text, entry.texts, here, got, out):
                    continue
                else:
                    return False
                echoed = got if isinstance(got, _ECHOED) else _ABSENT
                out.append(ArgumentProblem(here, reason, echoed))
        elif type(sub) is dict:
            if entry.level is not None:
                if type(got) is not dict or not _object(sub, entry.level, here, got, out, tables):
                    return False
            elif entry.items is not None:
                if type(got) is not list or not _items(sub, entry.items, here, got, out, tables):
                    return False
            else:
                return False
        else:
            return False
    return True


def _items(
    messages: dict[Any, Any],
    items: Items,
    path: tuple[str | int, ...],
    sent: list[Any],
    out: list[ArgumentProblem],
    tables: Tables,
) -> bool:
    level = items.level
    for index, sub in messages.items():
        if len(out) >= KEPT or type(index) is not int or not 0 <= index < len(sent):
            return False  # past the kept ones the walk counts; an index not sent
        got = sent[index]
        if type(sub) is dict:
            if level is None or type(got) is not dict:
                return False
            if not _object(sub, level, (*path, index), got, out, tables):
                return False
        elif type(sub) is list and len(sub) == 1 and type(sub[0]) is str:
            # an item's own text: the walk does not look for unknown-key texts there
            if not _one(sub[0], items.texts, (*path, index), got, out):
                return False
        else:
            return False
    return True


def _one(
    text: str,
    texts: dict[str, Spec],
    here: tuple[str | int, ...],
    got: Any,
    out: list[ArgumentProblem],
) -> bool:
    """The problem of one text for a value received (a text not known: as written)."""
    spec = texts.get(text)
    found: Any
    if spec is None:
        found = plain(text)
    elif isinstance(spec, str):
        found = spec
    elif isinstance(spec, tuple):
        found = spec[0].get(type(got))
        if found is None:
            found = spec[1](here, got)
    else:
        found = spec(here, got)
    if found is None:
        found = plain(text)
    elif type(found) is not str:
        if not isinstance(found, list):
            return False
        out.extend(found)
        return True
    out.append(ArgumentProblem(here, found, got if isinstance(got, _ECHOED) else _ABSENT))
    return True
