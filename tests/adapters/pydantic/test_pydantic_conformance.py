"""The shared adapter conformance suite, for the pydantic adapter."""

from __future__ import annotations

from typing import Any

from toolparse.testing import AdapterConformance, ConformanceCase, Invalid
from toolparse_pydantic import PydanticAdapter

from .models import Invoice, Line, corpus
from .voice import one_voice


def _check(parsed: Any) -> None:
    assert isinstance(parsed, Invoice)
    assert parsed.vendor_name == "ACME"
    assert parsed.total_amount == 12.5
    assert parsed.currency == "EUR"
    assert parsed.line_items == [Line(sku="A-1", quantity=2)]


class TestPydanticConformance(AdapterConformance):
    def case(self) -> ConformanceCase:
        return ConformanceCase(
            adapter=PydanticAdapter(),
            source=Invoice,
            valid={
                "vendor_name": "ACME",
                "total_amount": 12.5,
                "line_items": [{"sku": "A-1", "quantity": 2}],
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
                    {"vendor_name": "ACME", "total_amount": 1, "line_items": [{"sku": "A-1"}]},
                    ["line_items[0].quantity: is required"],
                ),
                Invalid(
                    {"total_amount": "abc", "line_items": [{"sku": "A-1", "quantity": 0}]},
                    [
                        'total_amount: must be a number (received "abc")',
                        "line_items[0].quantity: must be greater than 0 (received 0)",
                        "Missing parameters: vendor_name",
                    ],
                ),
                Invalid(
                    {"vendor_name": "ACME", "total_amount": 1, "line_items": "A-1"},
                    ['line_items: must be a list (received "A-1")'],
                ),
                Invalid(
                    {
                        "vendor_name": "ACME",
                        "total_amount": 1,
                        "line_items": [{"sku": "A-1", "quantity": 2}, "A-2"],
                    },
                    ['line_items[1]: must be an object (received "A-2")'],
                ),
            ],
            typo=("curency", "currency"),
            instance=Invoice(vendor_name="ACME", total_amount=1, line_items=[]),
            instance_json={
                "vendor_name": "ACME",
                "total_amount": 1.0,
                "currency": "EUR",
                "line_items": [],
            },
            corpus=corpus(),
            one_voice=one_voice,
        )
