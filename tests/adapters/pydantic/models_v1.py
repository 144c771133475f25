"""``pydantic.v1`` models (legacy code's models) for the adapter's tests.

No ``from __future__ import annotations`` here: ``pydantic.v1`` resolves
string annotations in the module namespace only.
"""

import datetime
import enum
import uuid
from typing import Literal

from pydantic import v1


class LegacyItem(v1.BaseModel):
    sku: str
    quantity: int = v1.Field(..., gt=0, description="how many")


class LegacyOrder(v1.BaseModel):
    customer: str = v1.Field(..., alias="customerName")
    items: list[LegacyItem]
    note: str | None = None

    class Config:
        extra = v1.Extra.forbid

    @v1.root_validator(skip_on_failure=True)
    def _no_bad_note(cls, values):  # type: ignore[no-untyped-def]  # v1 validator signature
        if values.get("note") == "bad":
            raise ValueError("note may not be bad")
        return values


class LegacyOpen(v1.BaseModel):
    name: str
    size: int = 1


class Shade(enum.Enum):
    red = "red"
    blue = "blue"


class LegacyInner(v1.BaseModel):
    n: int


class LegacyVoice(v1.BaseModel):
    """Every JSON-level constraint, for the same-words check against pydantic 2."""

    count: int
    price: float
    name: str
    flag: bool
    meta: dict
    tags: list[str]
    at_least: int = v1.Field(..., ge=1)
    above: int = v1.Field(..., gt=0)
    at_most: float = v1.Field(..., le=5)
    below: float = v1.Field(..., lt=5)
    triple: int = v1.Field(..., multiple_of=3)
    code: str = v1.Field(..., min_length=3)
    short: str = v1.Field(..., max_length=2)
    upper: str = v1.Field(..., regex=r"^[A-Z]+$")
    pair: list[int] = v1.Field(..., min_items=2)
    single: list[int] = v1.Field(..., max_items=1)
    shade: Shade
    unit: Literal["c", "f"]
    day: datetime.date
    when: datetime.datetime
    alarm: datetime.time
    wait: datetime.timedelta
    ident: uuid.UUID
    link: v1.AnyUrl
    inner: LegacyInner
    inners: list[LegacyInner]
    label: str = ""
    needed: int

    class Config:
        extra = v1.Extra.forbid

    @v1.validator("label")
    def _not_blank(cls, value):  # type: ignore[no-untyped-def]  # v1 validator signature
        if value and not value.strip():
            raise ValueError("must not be blank")
        return value


# the conformance kit's one-voice declarations of ``value``, in pydantic.v1
# (a v1 ``str`` field takes 42 as "42": the string check needs StrictStr)


class V1Named(v1.BaseModel):
    name: str


class V1String(v1.BaseModel):
    value: v1.StrictStr


class V1Integer(v1.BaseModel):
    value: int


class V1Number(v1.BaseModel):
    value: float


class V1Boolean(v1.BaseModel):
    value: bool


class V1Object(v1.BaseModel):
    value: V1Named


class V1List(v1.BaseModel):
    value: list[int]


class V1Choice(v1.BaseModel):
    value: Literal["a", "b"]


class V1AtLeast(v1.BaseModel):
    value: int = v1.Field(..., ge=1)


class V1AtMost(v1.BaseModel):
    value: int = v1.Field(..., le=50)


class V1LongEnough(v1.BaseModel):
    value: str = v1.Field(..., min_length=3)


class V1ShortEnough(v1.BaseModel):
    value: str = v1.Field(..., max_length=5)


class V1Matching(v1.BaseModel):
    value: str = v1.Field(..., regex="^[A-Z]+$")


class V1EnoughItems(v1.BaseModel):
    value: list[int] = v1.Field(..., min_items=2)


class V1Date(v1.BaseModel):
    value: datetime.date


class V1Union(v1.BaseModel):
    value: int | str


V1_ONE_VOICE = {
    "string": V1String,
    "integer": V1Integer,
    "number": V1Number,
    "boolean": V1Boolean,
    "object": V1Object,
    "list": V1List,
    "enum": V1Choice,
    "minimum": V1AtLeast,
    "maximum": V1AtMost,
    "min_length": V1LongEnough,
    "max_length": V1ShortEnough,
    "pattern": V1Matching,
    "min_items": V1EnoughItems,
    "date": V1Date,
    "union": V1Union,
    "nested_required": V1Object,
}


class LegacyEither(v1.BaseModel):
    value: int | str
    items: list[int] | dict[str, int] = []
