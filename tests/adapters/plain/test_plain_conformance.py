"""The built-in plain-type adapter against the conformance kit (``toolparse.testing``).

pydantic and attrs are installed in the test environment, and their adapters
would take dataclasses and TypedDicts over; the kit builds its own plugin
manager with the core's defaults only, so the plain adapter is the one tested.
"""

from __future__ import annotations

from typing import Any

from toolparse.plain import PlainAdapter
from toolparse.testing import AdapterConformance, ConformanceCase, Invalid

from .models import CORPUS, Invoice, LineItem, Priority
from .voice import one_voice


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
            adapter=PlainAdapter(),
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
                        "line_items[0].quantity: is required",
                        'line_items[1].quantity: must be an integer (received "2")',
                    ],
                ),
                Invalid(
                    {"total_amount": True, "line_items": {}, "priority": "urgent"},
                    [
                        "total_amount: must be a number (received true)",
                        "line_items: must be a list (received {})",
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
            one_voice=one_voice,
        )
