"""What a plain-type node accepts, in words and in JSON types, for the parser's reasons."""

from __future__ import annotations

from typing import Any

from ..adapter import JSON_TYPES, TYPE_WORDS, one_of_reason
from ._nodes import (
    AnyNode,
    ChoiceNode,
    CustomNode,
    DescribedNode,
    DictNode,
    ListNode,
    Node,
    ObjectNode,
    ScalarNode,
    TupleNode,
    UnionNode,
)

__all__ = [
    "ALL_JSON",
    "KIND_NAMES",
    "TYPE_NAMES",
    "accepts",
    "article",
    "choice_reason",
    "json_text",
    "names_of",
]

KIND_NAMES: dict[type, str] = {**JSON_TYPES, list: "array", dict: "object"}
ALL_JSON = (str, int, float, bool, type(None), list, dict)


#: what each name :func:`names_of` gives a JSON type is called in a reason
_WORDS: dict[str, str] = {**TYPE_WORDS, "list": TYPE_WORDS["array"]}
#: the names :func:`names_of` gives JSON types (not values or "any value")
TYPE_NAMES = frozenset(_WORDS) - {"array"}


def article(kind: str) -> str:
    """A JSON type in the shared words (``an integer``, ``a list``); other names as they are."""
    return _WORDS.get(kind, kind)


def json_text(value: Any) -> str:
    import json  # only on the definition path

    return json.dumps(value, ensure_ascii=False)


def choice_reason(values: list[Any]) -> str:
    """``must be one of: "c", "f"``, in the shared words."""
    return one_of_reason(values)


def accepts(node: Node) -> tuple[list[type], list[type]]:
    """Return the JSON value types ``node`` takes as they are, and those it coerces."""
    while isinstance(node, DescribedNode):
        node = node.node
    if isinstance(node, (AnyNode, CustomNode)):
        return list(ALL_JSON), []
    if isinstance(node, ScalarNode):
        return [node.type], [int] if node.type is float else []
    if isinstance(node, (ListNode, TupleNode)):
        return [list], []
    if isinstance(node, (DictNode, ObjectNode)):
        return [dict], []
    if isinstance(node, ChoiceNode):
        return list(dict.fromkeys(type(v) for v, _ in node.choices)), []
    assert isinstance(node, UnionNode)
    exact: list[type] = []
    coerced: list[type] = []
    for member in node.members:
        e, c = accepts(member)
        exact.extend(t for t in e if t not in exact)
        coerced.extend(t for t in c if t not in coerced)
    return exact, [t for t in coerced if t not in exact]


def names_of(node: Node) -> list[str]:
    """How ``node`` is named in a "must be one of" reason."""
    while isinstance(node, DescribedNode):
        node = node.node
    if isinstance(node, ScalarNode):
        return [node.kind]
    if isinstance(node, ChoiceNode):
        return [json_text(v) for v, _ in node.choices]
    if isinstance(node, UnionNode):
        return [name for m in node.members for name in names_of(m)]
    if isinstance(node, (ListNode, TupleNode)):
        return ["list"]  # the shared word for a JSON array
    if isinstance(node, (DictNode, ObjectNode)):
        return ["object"]
    return ["any value"]
