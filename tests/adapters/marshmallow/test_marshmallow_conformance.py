"""The shared adapter conformance suite, for the marshmallow adapter."""

from __future__ import annotations

from typing import Any

from toolparse.testing import AdapterConformance, ConformanceCase, Invalid
from toolparse_marshmallow import MarshmallowAdapter

from .models import Invoice, InvoiceSchema, Line, corpus
from .voice import ONE_VOICE_GAPS, one_voice


def _check(parsed: Any) -> None:
    # @post_load builds the Invoice: the body receives it, not a dict
    assert isinstance(parsed, Invoice)
    assert parsed.vendor_name == "ACME"
    assert parsed.total_amount == 12.5
    assert parsed.currency == "EUR"
    assert parsed.line_items == [Line(sku="A-1", quantity=2)]


class TestMarshmallowConformance(AdapterConformance):
    def case(self) -> ConformanceCase:
        return ConformanceCase(
            adapter=MarshmallowAdapter(),
            source=InvoiceSchema,
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
                        "line_items[0].quantity: must be at least 1 (received 0)",
                        "Missing parameters: vendor_name",
                    ],
                ),
                Invalid(
                    {"vendor_name": "ACME", "total_amount": 1, "line_items": "A-1"},
                    ['line_items: must be a list (received "A-1")'],
                ),
                Invalid(
                    {"vendor_name": "ACME", "total_amount": 1, "line_items": [], "currency": "YEN"},
                    ['currency: must be one of: "EUR", "USD", "GBP" (received "YEN")'],
                ),
            ],
            typo=("curency", "currency"),
            instance=Invoice(vendor_name="ACME", total_amount=1, line_items=[Line("A-1", 2)]),
            instance_json={
                "vendor_name": "ACME",
                "total_amount": 1.0,
                "currency": "EUR",
                "line_items": [{"sku": "A-1", "quantity": 2}],
            },
            corpus=corpus(),
            one_voice=one_voice,
            one_voice_gaps=ONE_VOICE_GAPS,
        )
