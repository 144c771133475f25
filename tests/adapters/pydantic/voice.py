"""The pydantic adapter's sources for the conformance kit's one-voice check."""

from __future__ import annotations

import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from toolparse.testing import OneVoice


class Named(BaseModel):
    name: str


class AString(BaseModel):
    value: str


class AnInteger(BaseModel):
    value: int


class ANumber(BaseModel):
    value: float


class ABoolean(BaseModel):
    value: bool


class AnObject(BaseModel):
    value: Named


class AList(BaseModel):
    value: list[int]


class AChoice(BaseModel):
    value: Literal["a", "b"]


class AtLeast(BaseModel):
    value: int = Field(ge=1)


class AtMost(BaseModel):
    value: int = Field(le=50)


class LongEnough(BaseModel):
    value: str = Field(min_length=3)


class ShortEnough(BaseModel):
    value: str = Field(max_length=5)


class Matching(BaseModel):
    value: str = Field(pattern="^[A-Z]+$")


class EnoughItems(BaseModel):
    value: list[int] = Field(min_length=2)


class ADate(BaseModel):
    value: datetime.date


class AUnion(BaseModel):
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
    """The model declaring ``value`` as ``check`` says (``None``: no such model)."""
    return SOURCES.get(check.key)
