"""Type annotations, looked at from JSON: what they accept and how to say it."""

from __future__ import annotations

import collections.abc as cabc
import dataclasses
import datetime as dt
import enum
import types
import typing
from typing import Any

import attrs

from toolparse.adapter import FORMAT_WORDS, TYPE_WORDS, one_of_reason

__all__ = [
    "MAPPINGS",
    "SEQUENCES",
    "SETS",
    "SIMPLE",
    "NoneType",
    "describe",
    "is_array",
    "is_empty_tuple",
    "is_enum",
    "is_literal",
    "is_model",
    "json_kinds",
    "literal_values",
    "union_members",
    "unwrap",
]

NoneType = type(None)
_UNIONS: tuple[Any, ...] = (typing.Union, types.UnionType)
SEQUENCES = frozenset({list, cabc.Sequence, cabc.MutableSequence})
SETS = frozenset({set, frozenset, cabc.Set, cabc.MutableSet})
MAPPINGS = frozenset({dict, cabc.Mapping, cabc.MutableMapping})
_ANY_KIND: frozenset[type] = frozenset({str, int, float, bool, list, dict, NoneType})
#: the JSON Schema of each type that has one of its own
SIMPLE: dict[Any, dict[str, str]] = {
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    float: {"type": "number"},
    str: {"type": "string"},
    NoneType: {"type": "null"},
    dt.datetime: {"type": "string", "format": "date-time"},
    dt.date: {"type": "string", "format": "date"},
}


def is_model(cls: object) -> bool:
    """Whether cattrs structures ``cls`` field by field (attrs class or dataclass)."""
    return isinstance(cls, type) and (attrs.has(cls) or dataclasses.is_dataclass(cls))


def unwrap(tp: Any) -> Any:
    """``Annotated[T, ...]``, ``NewType`` and ``Final[T]`` stand for ``T``."""
    while True:
        if typing.get_origin(tp) in (typing.Annotated, typing.Final):
            tp = typing.get_args(tp)[0]
        elif hasattr(tp, "__supertype__"):
            tp = tp.__supertype__
        else:
            return tp


def union_members(tp: Any) -> tuple[Any, ...]:
    """The members of a union type (``()`` for anything else)."""
    return typing.get_args(tp) if typing.get_origin(tp) in _UNIONS else ()


def is_literal(tp: Any) -> bool:
    """Whether ``tp`` is a ``Literal[...]``."""
    return typing.get_origin(tp) is typing.Literal


def is_enum(tp: Any) -> bool:
    """Whether ``tp`` is an enum class."""
    return isinstance(tp, type) and issubclass(tp, enum.Enum)


def is_array(tp: Any) -> bool:
    """Whether ``tp`` is read from a JSON array (list, set, tuple, sequence)."""
    origin = typing.get_origin(tp) or tp
    return origin in SEQUENCES or origin in SETS or origin is tuple


def is_empty_tuple(tp: Any) -> bool:
    """Whether ``tp`` is ``tuple[()]`` (spelled ``Tuple[()]`` on older Pythons too)."""
    return typing.get_origin(tp) is tuple and typing.get_args(tp) in ((), ((),))


def literal_values(tp: Any) -> list[Any]:
    """The JSON values of a ``Literal`` or an enum (members give their value)."""
    if is_enum(tp):
        return [member.value for member in tp]
    return [a.value if isinstance(a, enum.Enum) else a for a in typing.get_args(tp)]


def json_kinds(tp: Any) -> frozenset[type]:
    """The Python types a JSON decoder produces that may structure into ``tp``."""
    tp = unwrap(tp)
    if tp is NoneType or tp is None:
        return frozenset({NoneType})
    if tp is bool:
        return frozenset({bool})
    if tp is int or tp is float:
        return frozenset({int, float})
    if tp is str or tp in (dt.datetime, dt.date):
        return frozenset({str})
    if is_literal(tp) or is_enum(tp):
        return frozenset(type(v) for v in literal_values(tp))
    members = union_members(tp)
    if members:
        return frozenset().union(*(json_kinds(m) for m in members))
    if is_array(tp):
        return frozenset({list, tuple})
    origin = typing.get_origin(tp) or tp
    if is_model(origin) or origin in MAPPINGS:
        return frozenset({dict})
    return _ANY_KIND


def describe(tp: Any) -> str | None:
    """What ``tp`` is, in the words of ``must be ...`` (``None``: no words for it)."""
    tp = unwrap(tp)
    simple = SIMPLE.get(tp)
    if simple is not None:
        return FORMAT_WORDS[simple["format"]] if "format" in simple else TYPE_WORDS[simple["type"]]
    if is_literal(tp) or is_enum(tp):
        return one_of_reason(literal_values(tp)).removeprefix("must be ")
    members = union_members(tp)
    if members:
        words = [describe(m) for m in members]
        if any(w is None for w in words):
            return None
        return " or ".join(dict.fromkeys(typing.cast("list[str]", words)))
    origin = typing.get_origin(tp) or tp
    args = typing.get_args(tp)
    if is_empty_tuple(tp):
        return "an empty list"
    if origin is tuple and args and args[-1] is not Ellipsis:
        return f"a list of exactly {len(args)} item{'s' * (len(args) != 1)}"
    if is_array(tp):
        return TYPE_WORDS["array"]
    if is_model(origin) or origin in MAPPINGS:
        return TYPE_WORDS["object"]
    return None
