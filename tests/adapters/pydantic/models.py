"""Models shared by the pydantic adapter's tests (and its schema/parser corpus)."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import uuid
from typing import Annotated, Literal

import pydantic
import pydantic.dataclasses
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import NotRequired, TypedDict

from toolparse import SignatureParam
from toolparse_pydantic import PydanticAdapter

from .models_v1 import LegacyOpen, LegacyOrder


class Line(BaseModel):
    sku: str = Field(description="stock keeping unit")
    quantity: int = Field(gt=0)


class Invoice(BaseModel):
    """The conformance suite's model: required, optional and nested fields."""

    vendor_name: str
    total_amount: float
    currency: str = "EUR"
    line_items: list[Line]


class Color(str, enum.Enum):
    red = "red"
    green = "green"


class Priority(enum.IntEnum):
    low = 1
    high = 2


class Choices(BaseModel):
    mode: Literal["fast", "slow"]
    color: Color = Color.red
    priority: Priority = Priority.low
    note: str | None = None


class Moments(BaseModel):
    day: datetime.date
    at: datetime.datetime
    alarm: datetime.time | None = None


class Money(BaseModel):
    amount: decimal.Decimal
    ref: uuid.UUID
    rate: float = 1.0


class Cat(BaseModel):
    kind: Literal["cat"]
    meows: int


class Dog(BaseModel):
    kind: Literal["dog"]
    barks: int
    good: bool = True


class Owner(BaseModel):
    owner: str
    pet: Annotated[Cat | Dog, Field(discriminator="kind")]


class Unions(BaseModel):
    value: int | str
    values: list[int | float] = []
    counts: dict[str, int] = {}
    pair: tuple[int, str] | None = None
    tags: set[str] = set()


class Aliased(BaseModel):
    full_name: str = Field(alias="fullName", description="first and last name")
    age_years: int = Field(default=0, alias="ageYears", ge=0)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    line: Line
    extras: list[Line] = []


class Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")
    key: str


class Outer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    inner: Closed


class Constrained(BaseModel):
    code: Annotated[str, Field(min_length=2, max_length=8)]
    count: Annotated[int, Field(ge=1, le=100)] = 1
    ratio: Annotated[float, Field(ge=0, lt=1)] = 0.5
    labels: Annotated[list[str], Field(min_length=1, max_length=3)]


class Movie(TypedDict):
    title: str
    year: int
    rating: NotRequired[float]


@dataclasses.dataclass
class Point:
    x: int
    y: int = 0
    label: str = "origin"


@pydantic.dataclasses.dataclass
class Box:
    width: float
    height: float = 1.0


def signature_model() -> type[BaseModel]:
    """A model built from a function's parameters, as ``@tool`` builds it."""
    model: type[BaseModel] = PydanticAdapter().from_signature(
        "search",
        [
            SignatureParam("query", str, description="what to look for"),
            SignatureParam("limit", int, default=10),
            SignatureParam("json", bool, default=False),
        ],
    )
    return model


def corpus() -> list[object]:
    """Representative models whose schema and parser must agree."""
    return [
        Invoice,
        Choices,
        Moments,
        Money,
        Owner,
        Unions,
        Aliased,
        Strict,
        Outer,
        Constrained,
        Movie,
        Point,
        Box,
        pydantic.TypeAdapter(Movie),
        signature_model(),
        LegacyOrder,
        LegacyOpen,
    ]
