from typing import Any

from toolparse.testing import AdapterConformance, ConformanceCase, Invalid
from toolparse_attrs import AttrsAdapter

from .models import CORPUS, Invoice, LineItem
from .voice import one_voice


def _check(parsed: Any) -> None:
    assert isinstance(parsed, Invoice)
    assert parsed.vendor_name == "ACME"
    assert parsed.total_amount == 12.5
    assert parsed.line_items == [LineItem("A-1", 2, 1.5)]
    assert parsed.currency == "EUR"


class TestAttrsConformance(AdapterConformance):
    def case(self) -> ConformanceCase:
        valid = {
            "vendor_name": "ACME",
            "total_amount": 12.5,
            "line_items": [{"sku": "A-1", "quantity": 2, "unit_price": 1.5}],
        }
        return ConformanceCase(
            adapter=AttrsAdapter(),
            source=Invoice,
            valid=valid,
            check_parsed=_check,
            invalid=[
                Invalid(
                    {**valid, "total_amount": "abc"},
                    ['total_amount: must be a number (received "abc")'],
                ),
                Invalid(
                    {k: v for k, v in valid.items() if k != "vendor_name"},
                    ["Missing parameters: vendor_name"],
                ),
                Invalid(
                    {**valid, "line_items": [{"sku": "A-1", "quantity": 0}]},
                    ["line_items[0].quantity: must be at least 1 (received 0)"],
                ),
                Invalid(
                    {"total_amount": -1, "line_items": [{"quantity": "2"}, 7]},
                    [
                        "Missing parameters: vendor_name",
                        "total_amount: must be at least 0 (received -1)",
                        "line_items[0].sku: is required",
                        'line_items[0].quantity: must be an integer (received "2")',
                        "line_items[1]: must be an object (received 7)",
                    ],
                ),
                Invalid(
                    # (null for the optional currency would mean "absent", not a problem)
                    {**valid, "vendor_name": 12, "currency": 5},
                    [
                        "vendor_name: must be a string (received 12)",
                        "currency: must be a string (received 5)",
                    ],
                ),
            ],
            typo=("priorty", "priority"),
            instance=Invoice("ACME", 3.0, [LineItem("A-1", 1)], priority=2),
            instance_json={
                "vendor_name": "ACME",
                "total_amount": 3.0,
                "line_items": [{"sku": "A-1", "quantity": 1, "unit_price": 0.0}],
                "currency": "EUR",
                "priority": 2,
            },
            corpus=CORPUS,
            one_voice=one_voice,
        )
