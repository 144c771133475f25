"""attrs models shared by the attrs adapter's tests (the agreement corpus among them)."""

import dataclasses
import datetime as dt
import enum
import typing

import attr
import attrs
from attrs import validators as v

import toolparse_attrs


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


@attrs.define
class LineItem:
    """One line of an invoice."""

    sku: str = attrs.field(metadata={"description": "Stock keeping unit"})
    quantity: int = attrs.field(validator=v.ge(1))
    unit_price: float = 0.0


@attrs.define
class Invoice:
    """Record an invoice."""

    vendor_name: str
    total_amount: float = attrs.field(validator=v.ge(0))
    line_items: list[LineItem]
    currency: str = "EUR"
    priority: int = 1


@attrs.define
class Scalars:
    text: str
    count: int
    ratio: float
    flag: bool


@attrs.frozen
class Defaults:
    name: str = "anon"
    tags: list[str] = attrs.Factory(list)
    limit: int | None = None
    extra: dict[str, int] = attrs.field(factory=dict)


@attrs.define
class Choices:
    color: Color
    level: Level = Level.LOW
    mode: typing.Literal["fast", "slow"] = "fast"
    answer: typing.Literal[1, 2, 3] = 1


@attrs.define
class Dates:
    when: dt.datetime
    day: dt.date
    until: dt.date | None = None


@attrs.define
class FixedTuple:
    pair: tuple[int, str]
    empty: tuple[()] = ()


@attrs.define
class Collections:
    many: tuple[float, ...] = ()
    unique: set[int] = attrs.Factory(set)
    frozen: frozenset[str] = frozenset()
    sequence: typing.Sequence[int] = ()


@attrs.define
class Mappings:
    counts: dict[str, int]
    nested: dict[str, list[str]] = attrs.Factory(dict)
    sizes: dict[typing.Literal["s", "m"], int] = attrs.Factory(dict)


@attrs.define
class Validated:
    code: str = attrs.field(validator=v.matches_re(r"[A-Z]{3}"))
    age: int = attrs.field(validator=[v.ge(0), v.lt(150)])
    score: float = attrs.field(default=0.5, validator=v.and_(v.gt(0), v.le(1)))
    name: str = attrs.field(default="x", validator=[v.min_len(1), v.max_len(10)])
    size: str = attrs.field(default="m", validator=v.in_(["s", "m", "l"]))
    numbers: list[int] = attrs.field(factory=list, validator=v.deep_iterable(v.ge(0), v.max_len(5)))
    nickname: str | None = attrs.field(default=None, validator=v.optional(v.min_len(2)))


@attrs.define
class Cat:
    kind: typing.Literal["cat"]
    lives: int


@attrs.define
class Dog:
    kind: typing.Literal["dog"]
    good: bool


@attrs.define
class Square:
    side: float


@attrs.define
class Circle:
    radius: float


@attrs.define
class Unions:
    pet: Cat | Dog
    shape: Square | Circle | None = None
    value: int | str = 0
    maybe: list[int] | None = None


@attr.s
class OldStyle:
    """Declared with attr.s and attr.ib."""

    name = attr.ib(validator=attr.validators.instance_of(str))
    weight = attr.ib(validator=attr.validators.instance_of(float))
    label = attr.ib(type=str, default="none")


@attrs.frozen
class Aliased:
    full_name: str = attrs.field(alias="fullName")
    _secret: int = 0


@dataclasses.dataclass
class Point:
    """A point on a plane."""

    x: int
    y: int = 0
    labels: list[str] = dataclasses.field(default_factory=list)


@attrs.define
class Node:
    value: int
    children: list["Node"] = attrs.Factory(list)


CORPUS = [
    Invoice,
    Scalars,
    Defaults,
    Choices,
    Dates,
    Collections,
    Mappings,
    Validated,
    Unions,
    OldStyle,
    Aliased,
    toolparse_attrs.using(Point),
]
