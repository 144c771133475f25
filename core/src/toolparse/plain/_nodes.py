"""The tree plain annotations are read into (by ``_annotations``), once per source.

The JSON Schema writer (``_schema``) and the parser compiler (``_parser``)
both walk this one tree, so they cannot disagree about what a type means.
Nodes compare by identity: the same class anywhere in one tree is one node.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "AnyNode",
    "ChoiceNode",
    "CustomNode",
    "DescribedNode",
    "DictNode",
    "FieldInfo",
    "ListNode",
    "Node",
    "ObjectNode",
    "ScalarNode",
    "TupleNode",
    "UnionNode",
    "bare",
]


class Node:
    """One annotation, understood."""


@dataclass(eq=False)
class AnyNode(Node):
    """``typing.Any`` (or ``object``): any JSON value."""


@dataclass(eq=False)
class ScalarNode(Node):
    """``str``, ``int``, ``float``, ``bool`` or ``None`` (``type`` is ``NoneType``)."""

    type: type


@dataclass(eq=False)
class ListNode(Node):
    """``list[T]``, ``Sequence[T]`` or ``tuple[T, ...]`` (``as_tuple``)."""

    item: Node
    as_tuple: bool = False


@dataclass(eq=False)
class TupleNode(Node):
    """``tuple[A, B]``: a JSON array of exactly these items."""

    items: list[Node]


@dataclass(eq=False)
class DictNode(Node):
    """``dict[str, T]``: a JSON object with any keys."""

    value: Node


@dataclass(eq=False)
class ChoiceNode(Node):
    """``Literal[...]`` or an ``Enum``: each JSON value with the Python value parsed from it."""

    choices: list[tuple[Any, Any]]


@dataclass(eq=False)
class UnionNode(Node):
    """``Union[...]``, ``A | B``, ``Optional[T]``: the members in order."""

    members: list[Node]


@dataclass(eq=False)
class DescribedNode(Node):
    """``Annotated[T, "description"]``."""

    node: Node
    description: str


@dataclass(eq=False)
class CustomNode(Node):
    """A type another installed adapter owns, or a ``toolparse_field_schema`` plugin describes.

    The adapter's ``parser`` validates the value; with a plugin's (``None``) it passes unvalidated.
    """

    annotation: object
    schema: dict[str, Any]
    parser: Any = None


@dataclass(eq=False)
class FieldInfo:
    """One field of a dataclass or TypedDict; ``default`` is ``dataclasses.MISSING`` when none."""

    name: str
    annotation: object
    node: Node
    required: bool
    description: str | None = None
    # (given by a factory: ``@dataclass`` reads a default of ``MISSING`` as no default)
    default: Any = field(default_factory=lambda: dataclasses.MISSING)


@dataclass(eq=False)
class ObjectNode(Node):
    """A dataclass (instantiated when parsed) or a TypedDict (kept a dict).

    A recursive class is a cycle in the tree: ``fields`` is filled in after the node is made.
    """

    cls: type
    is_dataclass: bool
    fields: list[FieldInfo] = field(default_factory=list)
    description: str | None = None


def bare(node: Node) -> Node:
    """``node`` without the descriptions around it."""
    while isinstance(node, DescribedNode):
        node = node.node
    return node
