"""The models the plain adapter's tests share."""

# the corpus spells unions every way a user may: Optional, Union and X | None
# ruff: noqa: UP007, UP045

from __future__ import annotations

import enum
import sys
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Optional, Union

if sys.version_info >= (3, 11):
    from typing import NotRequired, TypedDict
else:  # typing's TypedDict learnt NotRequired in 3.11
    from typing_extensions import NotRequired, TypedDict


class Priority(enum.Enum):
    LOW = "low"
    HIGH = "high"


@dataclass
class LineItem:
    sku: str
    quantity: int
    unit_price: float = 0.0


@dataclass
class Invoice:
    """An invoice to create."""

    vendor_name: str
    total_amount: float
    line_items: list[LineItem]
    currency: Annotated[str, "ISO 4217 code"] = "EUR"
    priority: Priority = Priority.LOW


# -- the corpus: models whose schema must agree with the parser ----------------


class Point(TypedDict):
    x: int
    y: int


class Tagged(TypedDict, total=False):
    label: str
    weight: float
    flags: list[bool]


class WithNotRequired(TypedDict):
    name: str
    nickname: NotRequired[Optional[str]]


@dataclass
class Scalars:
    text: str
    count: int
    ratio: float
    on: bool
    nothing: None = None


@dataclass
class Containers:
    names: list[str]
    scores: dict[str, float]
    # no tuple[A, B] here: hypothesis-jsonschema (drafts 4 to 7) ignores
    # ``prefixItems``; the core tests cover fixed tuples
    rest: tuple[int, ...] = ()


@dataclass
class Choices:
    mode: Literal["fast", "slow"]
    priority: Priority
    level: Literal[1, 2, 3] = 1
    flag: Literal[True] = True


@dataclass
class Unions:
    value: Union[int, str]
    maybe: Optional[float] = None
    either: Union[Point, list[int], None] = None


@dataclass
class Nested:
    points: list[Point]
    inner: Scalars
    table: dict[str, list[Point]] = field(default_factory=dict)


@dataclass
class Anything:
    payload: Any
    items: list[Any] = field(default_factory=list)
    mapping: dict[str, Any] = field(default_factory=dict)


@dataclass
class Described:
    query: Annotated[str, "what to search for"]
    limit: int = field(default=10, metadata={"description": "how many results"})
    sort: Annotated[Literal["asc", "desc"], "order"] = "asc"


class Deep(TypedDict):
    invoice: Invoice
    choices: list[Choices]


CORPUS = [
    Invoice,
    Point,
    Tagged,
    WithNotRequired,
    Scalars,
    Containers,
    Choices,
    Unions,
    Nested,
    Anything,
    Described,
    Deep,
]
