"""The one reading of ``ValidationError.messages``: the shared :class:`~toolparse.ArgumentProblem` list.

marshmallow reports errors as nested dicts and lists keyed by data keys, list
indexes, ``"_schema"`` (an error about the object itself) and, for a ``Dict``
field, ``"key"``/``"value"``. The reading follows the schema's shape (``_shape``)
so each text lands on the path the model sent (``items[2].sku``), with the
value it sent there, and each text is looked up among what the field's texts
mean (``_reasons``, worked out when the tool was defined).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import MAX_PROBLEMS

from ._reasons import ECHOED, Meaning, Path, Texts, plain
from ._shape import Level, Node

__all__ = ["problems"]

_ABSENT = NOT_GIVEN
_SCHEMA = "_schema"  # marshmallow's key of errors about an object level itself
#: a place whose texts mean nothing in the shared words (a key no field has)
_ANY = Node()


def problems(messages: Any, root: Level, arguments: Any) -> tuple[list[ArgumentProblem], int]:
    """The problems in ``messages``, with paths and received values, and how many more.

    Past :data:`~toolparse.adapter.MAX_PROBLEMS` problems the errors of a
    list's items (and a ``Dict``'s values) are counted, not built; the top
    level's own (missing and unknown names) are always built.
    """
    reading = _Reading()
    if isinstance(messages, Mapping):
        reading.level(messages, root, (), arguments)
    else:
        reading.node(messages, root.own, (), arguments)
    return reading.out, reading.more


def _count(messages: Any) -> int:
    """How many texts ``messages`` holds: the problems it would have become."""
    if isinstance(messages, Mapping):
        return sum(_count(sub) for sub in messages.values())
    if isinstance(messages, (list, tuple)):
        return sum(_count(sub) for sub in messages)
    return 1


def _child(value: Any, key: Any) -> Any:
    if isinstance(value, Mapping):
        return value.get(key, _ABSENT)
    if type(key) is int and isinstance(value, (list, tuple)) and 0 <= key < len(value):
        return value[key]
    return _ABSENT


class _Reading:
    """One reading: the problems built so far, and how many more were only counted."""

    __slots__ = ("more", "out")

    def __init__(self) -> None:
        self.out: list[ArgumentProblem] = []
        self.more = 0

    def level(self, messages: Mapping[Any, Any], level: Level, path: Path, value: Any) -> None:
        """The errors of one object level: its own first, then its fields in declaration order."""
        keys: Any = messages
        if len(messages) > 1 and (not level.in_order or _SCHEMA in messages):
            # marshmallow 3 reports the fields in no stable order
            rank, last = level.rank, len(level.rank)
            keys = sorted(messages, key=lambda key: rank.get(key, last))
        sent = value if type(value) is dict or isinstance(value, Mapping) else {}
        fields = level.fields
        for key in keys:
            sub = messages[key]
            if key == _SCHEMA:
                self.node(sub, level.own, path, value)
                continue
            here = (*path, key)
            node = fields.get(key)
            if node is None:
                if sub == [level.unknown]:  # a key the level does not accept
                    self.out.append(ArgumentProblem.unrecognized(here))
                    continue
                node = _ANY
            got = sent.get(key, _ABSENT)
            if type(sub) is list and len(sub) == 1 and type(sub[0]) is str:
                self.text(sub[0], node.texts, here, got)  # the commonest failure
            else:
                self.node(sub, node, here, got)

    def node(self, messages: Any, node: Node, path: Path, value: Any) -> None:
        """The errors of one field: its own texts, or those of what it holds."""
        if type(messages) is list or isinstance(messages, tuple):
            self.texts(messages, node, path, value)
        elif type(messages) is not dict and not isinstance(messages, Mapping):
            self.text(str(messages), node.texts, path, value)
        elif node.level is not None:
            self.level(messages, node.level, path, value)
        elif node.plucked is not None:
            # {inner_key: [...]}: the inner key is marshmallow's wrapping, not the model's
            for sub in messages.values():
                self.node(sub, node.plucked, path, value)
        elif node.values is not None:
            self.mapping(messages, node, path, value)
        else:
            self.items(messages, node, path, value)

    def items(self, messages: Mapping[Any, Any], node: Node, path: Path, value: Any) -> None:
        """The errors of a list's or a tuple's items, keyed by index."""
        out = self.out
        sent = value if type(value) is list else None
        for key, sub in messages.items():
            if len(out) >= MAX_PROBLEMS:
                self.more += _count(sub)
                continue
            if type(key) is not int:
                self.node(sub, node if key == _SCHEMA else _ANY, path, value)
                continue
            child = node.item
            if child is None:
                items = node.items or ()
                child = items[key] if 0 <= key < len(items) else _ANY
            got = sent[key] if sent is not None and 0 <= key < len(sent) else _child(value, key)
            if child.level is not None and type(sub) is dict:
                self.level(sub, child.level, (*path, key), got)  # a list of objects
            else:
                self.node(sub, child, (*path, key), got)

    def mapping(self, messages: Mapping[Any, Any], node: Node, path: Path, value: Any) -> None:
        """The errors of a ``Dict``: ``{key: {"key": [...], "value": [...]}}``."""
        for key, sub in messages.items():
            if len(self.out) >= MAX_PROBLEMS:
                self.more += _count(sub)
                continue
            here = (*path, str(key))
            parts = sub if isinstance(sub, Mapping) else {"value": sub}
            start = len(self.out)
            self.node(parts.get("key", ()), node.keys or _ANY, here, key)
            for problem in self.out[start:]:
                problem.reason = f"Invalid key: {problem.reason}"
                problem.received = key
            self.node(parts.get("value", ()), node.values or _ANY, here, _child(value, key))

    def texts(self, texts: Any, node: Node, path: Path, value: Any) -> None:
        """A field's texts (alike ones told apart by the order of the validators raising them)."""
        known = node.texts
        for i, text in enumerate(texts):
            if type(text) is not str:
                self.node(text, node, path, value)
                continue
            alike = known.alike.get(text)
            if alike is None or value is _ABSENT:
                self.text(text, known, path, value)
            elif texts.count(text) == len(alike):
                # as many alike as validators that raise it: in their order;
                # fewer, and the text cannot say whose it is (none runs again)
                self.meant(text, alike[texts[:i].count(text)], path, value)
            else:
                self.meant(text, None, path, value)

    def text(self, text: str, known: Texts, path: Path, value: Any) -> None:
        """The problem of one text of a field."""
        if value is not _ABSENT:
            self.meant(text, known.single.get(text), path, value)
        elif text == known.required:
            self.out.append(ArgumentProblem(path, known.required_reason, kind="missing"))
        else:
            self.out.append(ArgumentProblem(path, plain(text)))

    def meant(self, text: str, meaning: Meaning, path: Path, value: Any) -> None:
        """The problem of a text at ``path`` as ``meaning`` says (``None``: in its own words)."""
        if meaning is None:
            reason = plain(text)
        elif isinstance(meaning, str):
            reason = meaning
        else:
            found = meaning(path, value)
            if isinstance(found, list):
                self.out.extend(found)
                return
            reason = plain(text) if found is None else found
        echoed = value if isinstance(value, ECHOED) else NOT_GIVEN
        self.out.append(ArgumentProblem(path, reason, echoed))
