"""The built-in adapter's sources for the conformance kit's one-voice check.

Plain types declare JSON types, choices (``Literal``) and nested required
fields; ranges, lengths and patterns are not plain-type constraints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from toolparse.testing import OneVoice


@dataclass
class Named:
    name: str


@dataclass
class AString:
    value: str


@dataclass
class AnInteger:
    value: int


@dataclass
class ANumber:
    value: float


@dataclass
class ABoolean:
    value: bool


@dataclass
class AnObject:
    value: Named


@dataclass
class AList:
    value: list[int]


@dataclass
class AChoice:
    value: Literal["a", "b"]


@dataclass
class AUnion:
    value: int | str


SOURCES: dict[str, Any] = {
    "string": AString,
    "integer": AnInteger,
    "number": ANumber,
    "boolean": ABoolean,
    "object": AnObject,
    "union": AUnion,
    "list": AList,
    "enum": AChoice,
    "nested_required": AnObject,
}


def one_voice(check: OneVoice) -> Any:
    """The dataclass declaring ``value`` as ``check`` says (``None``: plain types cannot)."""
    return SOURCES.get(check.key)
