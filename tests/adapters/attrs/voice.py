"""The attrs adapter's sources for the conformance kit's one-voice check."""

from __future__ import annotations

import datetime
from typing import Any, Literal

import attrs
from attrs import validators as v

from toolparse.testing import OneVoice


@attrs.define
class Named:
    name: str


@attrs.define
class AString:
    value: str


@attrs.define
class AnInteger:
    value: int


@attrs.define
class ANumber:
    value: float


@attrs.define
class ABoolean:
    value: bool


@attrs.define
class AnObject:
    value: Named


@attrs.define
class AList:
    value: list[int]


@attrs.define
class AChoice:
    value: Literal["a", "b"]


@attrs.define
class AtLeast:
    value: int = attrs.field(validator=v.ge(1))


@attrs.define
class AtMost:
    value: int = attrs.field(validator=v.le(50))


@attrs.define
class LongEnough:
    value: str = attrs.field(validator=v.min_len(3))


@attrs.define
class ShortEnough:
    value: str = attrs.field(validator=v.max_len(5))


@attrs.define
class Matching:
    value: str = attrs.field(validator=v.matches_re("^[A-Z]+$"))


@attrs.define
class EnoughItems:
    value: list[int] = attrs.field(validator=v.min_len(2))


@attrs.define
class ADate:
    value: datetime.date


@attrs.define
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
    "minimum": AtLeast,
    "maximum": AtMost,
    "min_length": LongEnough,
    "max_length": ShortEnough,
    "pattern": Matching,
    "min_items": EnoughItems,
    "date": ADate,
    "nested_required": AnObject,
}


def one_voice(check: OneVoice) -> Any:
    """The attrs class declaring ``value`` as ``check`` says."""
    return SOURCES.get(check.key)
