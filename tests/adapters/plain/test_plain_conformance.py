"""The built-in plain-type adapter against the shared conformance suite.

pydantic and attrs are installed in the test environment, and their adapters
(registered later) would take dataclasses and TypedDicts over; the suite
builds Functions with the default plugin manager, so it is swapped for one
holding the core's defaults only.

"""

# the corpus spells unions every way a user may: Optional, Union and X | None
# ruff: noqa: UP007, UP045

from __future__ import annotations

import enum
import sys
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Optional, Union

import pytest
from tests.adapters.conformance import (
    AdapterConformance,
    ConformanceCase,
    Invalid,
)

import toolparse as tp
from toolparse import plugins

if sys.version_info >= (3, 11):
    from typing import NotRequired, TypedDict
else:  # typing's TypedDict learnt NotRequired in 3.11
    from typing_extensions import NotRequired, TypedDict


@pytest.fixture(autouse=True)
def _core_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugins, "_default", tp.make_plugin_manager(load_entry_points=False))


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


def _check(parsed: Any) -> None:
    assert isinstance(parsed, Invoice)
    assert parsed.vendor_name == "ACME"
    assert parsed.total_amount == 12.0
    assert type(parsed.total_amount) is float  # the one coercion: int -> float
    assert parsed.line_items == [LineItem("a-1", 2)]
    assert parsed.currency == "EUR"
    assert parsed.priority is Priority.HIGH


class TestPlainConformance(AdapterConformance):
    def case(self) -> ConformanceCase:
        return ConformanceCase(
            adapter="plain",
            source=Invoice,
            valid={
                "vendor_name": "ACME",
                "total_amount": 12,
                "line_items": [{"sku": "a-1", "quantity": 2}],
                "priority": "high",
            },
            check_parsed=_check,
            invalid=[
                Invalid(
                    {"vendor_name": "ACME", "total_amount": "abc", "line_items": []},
                    ['total_amount: must be a number (received "abc")'],
                ),
                Invalid(
                    {"total_amount": 1, "line_items": []},
                    ["Missing parameters: vendor_name"],
                ),
                Invalid(
                    {
                        "vendor_name": "ACME",
                        "total_amount": 1,
                        "line_items": [{"sku": "a"}, {"sku": "b", "quantity": "2"}],
                    },
                    [
                        "line_items[0].quantity: Field required",
                        'line_items[1].quantity: must be an integer (received "2")',
                    ],
                ),
                Invalid(
                    {"total_amount": True, "line_items": {}, "priority": "urgent"},
                    [
                        "total_amount: must be a number (received true)",
                        "line_items: must be an array (received {})",
                        'priority: must be one of: "low", "high" (received "urgent")',
                        "Missing parameters: vendor_name",
                    ],
                ),
                Invalid(
                    {
                        "vendor_name": "ACME",
                        "total_amount": 1,
                        "line_items": [{"sku": "a", "quantity": 1, "qty": 1}],
                    },
                    [("line_items[0].qty: is not accepted (accepted: sku, quantity, unit_price)")],
                ),
            ],
            typo=("curency", "currency"),
            instance=Invoice("ACME", 3.5, [LineItem("a", 1)], priority=Priority.HIGH),
            instance_json={
                "vendor_name": "ACME",
                "total_amount": 3.5,
                "line_items": [{"sku": "a", "quantity": 1, "unit_price": 0.0}],
                "currency": "EUR",
                "priority": "high",
            },
            corpus=CORPUS,
        )
