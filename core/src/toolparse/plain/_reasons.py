"""What a plain-type node accepts, in words and in JSON types, for the parser's reasons."""

from __future__ import annotations

from typing import Any

from ..adapter import JSON_TYPES
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

__all__ = ["ALL_JSON", "KIND_NAMES", "accepts", "article", "choice_reason", "json_text", "names_of"]

KIND_NAMES: dict[type, str] = {**JSON_TYPES, list: "array", dict: "object"}
ARTICLE = {
    "integer": "an integer",
    "array": "an array",
    "object": "an object",
    "null": "null",
}
ALL_JSON = (str, int, float, bool, type(None), list, dict)


def article(kind: str) -> str:
    return ARTICLE.get(kind, f"a {kind}")


def json_text(value: Any) -> str:
    import json  # only on the definition path

    return json.dumps(value, ensure_ascii=False)


def choice_reason(values: list[Any]) -> str:
    if len(values) == 1:
        return f"must be {json_text(values[0])}"
    return "must be one of: " + ", ".join(json_text(v) for v in values)


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
        return ["array"]
    if isinstance(node, (DictNode, ObjectNode)):
        return ["object"]
    return ["any value"]
