"""The nodes plain annotations are read into (see ``_types``).

The built-in adapter reads a dataclass or TypedDict (and every annotation
inside it) into these nodes exactly once; the JSON Schema writer
(``_schema``) and the parser compiler (``_parse``) both walk that tree, so
they cannot disagree about what a type means.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Mapping
from typing import Any

from ..adapter import JSON_TYPES

__all__ = [
    "SCALARS",
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
    "is_plain_dataclass",
    "is_typeddict",
]

#: JSON Schema ``type`` names of the scalar Python types (the SDK's one table).
SCALARS: Mapping[Any, str] = JSON_TYPES


class Node:
    """One annotation, understood."""

    __slots__ = ()


class AnyNode(Node):
    """``typing.Any`` (or ``object``): no constraint."""

    __slots__ = ()


class ScalarNode(Node):
    """``str``, ``int``, ``float``, ``bool`` or ``None``."""

    __slots__ = ("kind", "type")

    def __init__(self, py_type: type) -> None:
        self.type = py_type
        #: the JSON Schema type name
        self.kind = SCALARS[py_type]


class ListNode(Node):
    """``list[T]``, ``Sequence[T]`` or ``tuple[T, ...]`` (``as_tuple``)."""

    __slots__ = ("as_tuple", "item")

    def __init__(self, item: Node, *, as_tuple: bool = False) -> None:
        self.item = item
        self.as_tuple = as_tuple


class TupleNode(Node):
    """``tuple[A, B]``: a JSON array of exactly these items."""

    __slots__ = ("items",)

    def __init__(self, items: list[Node]) -> None:
        self.items = items


class DictNode(Node):
    """``dict[str, T]``: a JSON object with arbitrary keys."""

    __slots__ = ("value",)

    def __init__(self, value: Node) -> None:
        self.value = value


class ChoiceNode(Node):
    """``Literal[...]`` or an ``Enum`` subclass: one of fixed JSON values.

    ``choices`` pairs each JSON value with the Python value the parser
    returns for it (the value itself for a literal, the member for an enum).
    """

    __slots__ = ("choices", "enum")

    def __init__(self, choices: list[tuple[Any, Any]], enum_cls: type | None) -> None:
        self.choices = choices
        self.enum = enum_cls


class UnionNode(Node):
    """``Union[...]``, ``A | B``, ``Optional[T]``: the members in order."""

    __slots__ = ("members",)

    def __init__(self, members: list[Node]) -> None:
        self.members = members


class DescribedNode(Node):
    """``Annotated[T, "description"]`` anywhere but directly on a field."""

    __slots__ = ("description", "node")

    def __init__(self, node: Node, description: str) -> None:
        self.node = node
        self.description = description


class CustomNode(Node):
    """A type the built-in rules do not cover.

    Either another installed adapter owns it (a pydantic model, an attrs
    class): its schema is exported and its ``parser`` validates the value; or
    a ``toolparse_field_schema`` plugin described it (``parser`` is ``None``):
    the plugin's schema is exported and the value passes through unvalidated.
    """

    __slots__ = ("annotation", "parser", "schema")

    def __init__(
        self, annotation: object, schema: dict[str, Any], parser: Any | None = None
    ) -> None:
        self.annotation = annotation
        self.schema = schema
        self.parser = parser


class FieldInfo:
    """One field of a dataclass or TypedDict."""

    __slots__ = (
        "annotation",
        "default",
        "description",
        "has_default",
        "name",
        "node",
        "required",
    )

    def __init__(
        self,
        name: str,
        annotation: object,
        node: Node,
        *,
        required: bool,
        description: str | None,
        has_default: bool = False,
        default: Any = None,
    ) -> None:
        self.name = name
        self.annotation = annotation
        self.node = node
        self.required = required
        self.description = description
        #: a plain default value (not a factory), which the schema may show
        self.has_default = has_default
        self.default = default


class ObjectNode(Node):
    """A dataclass (instantiated when parsed) or a TypedDict (kept a dict).

    The same class anywhere in one tree is one node, so a recursive class is
    a cycle in the tree; ``fields`` is filled in after the node is made.
    """

    __slots__ = ("cls", "description", "fields", "is_dataclass")

    def __init__(self, cls: type, *, is_dataclass: bool) -> None:
        self.cls = cls
        self.is_dataclass = is_dataclass
        self.fields: list[FieldInfo] = []
        self.description = _class_doc(cls, generated=is_dataclass)


# -- recognising sources -------------------------------------------------------


def is_typeddict(obj: object) -> bool:
    """Whether ``obj`` is a TypedDict class (``typing``'s or a backport's)."""
    return (
        isinstance(obj, type)
        and issubclass(obj, dict)
        and hasattr(obj, "__required_keys__")
        and hasattr(obj, "__total__")
    )


def is_plain_dataclass(obj: object) -> bool:
    """Whether ``obj`` is a dataclass class that is not a pydantic dataclass."""
    return (
        isinstance(obj, type)
        and dataclasses.is_dataclass(obj)
        and not hasattr(obj, "__pydantic_fields__")
    )


def _class_doc(cls: type, *, generated: bool) -> str | None:
    doc = cls.__dict__.get("__doc__")
    if not isinstance(doc, str) or not doc.strip():
        return None
    if generated and doc.startswith(f"{cls.__name__}("):
        return None  # the signature @dataclass writes when there is no docstring
    return inspect.cleandoc(doc)
