"""toolparse's attrs adapter against cattrs itself.

The baseline is what a cattrs user writes by hand: ``converter.structure``
with detailed validation, then the call; on invalid input, the exception
turned into messages with ``cattrs.transform_error``.
"""

from __future__ import annotations

import attrs
import cattrs
from attrs import validators as v

import toolparse as tp
from harness import Row, interleaved, ratio_rounds


@attrs.define
class LineItem:
    sku: str
    quantity: int = attrs.field(validator=v.ge(1))
    unit_price: float = 0.0


@attrs.define
class Invoice:
    vendor_name: str
    total_amount: float
    line_items: list[LineItem]
    currency: str = "EUR"


VALID = {
    "vendor_name": "ACME",
    "total_amount": 12.5,
    "line_items": [{"sku": "A-1", "quantity": 2, "unit_price": 1.5}],
}
INVALID = {
    "vendor_name": "ACME",
    "total_amount": "abc",
    "line_items": [{"sku": "A-1", "quantity": "two"}],
}


def body(invoice: Invoice) -> str:
    return invoice.vendor_name


def run() -> list[Row]:
    fn = tp.Function("create_invoice", body, args_schema=Invoice)
    converter = cattrs.Converter(detailed_validation=True)
    converter.structure(VALID, Invoice)  # compile the hook before timing

    def baseline_valid() -> object:
        return body(converter.structure(VALID, Invoice))

    def baseline_invalid() -> object:
        try:
            return body(converter.structure(INVALID, Invoice))
        except cattrs.ClassValidationError as exc:
            return "\n".join(cattrs.transform_error(exc))

    assert fn.execute(VALID) == tp.Ok("ACME")
    assert isinstance(fn.execute(INVALID), tp.Error)
    rows = []
    r = ratio_rounds(lambda: fn.execute(VALID), baseline_valid)
    rows.append(r.row("attrs: valid", "cattrs structure + call", 1.15))
    # the adapter's own share: its parser against cattrs structure alone
    parser = fn.parse_arguments
    ours, theirs = interleaved(lambda: parser(VALID), lambda: converter.structure(VALID, Invoice))
    rows.append(Row("attrs: parse_arguments, valid", ours, theirs, "cattrs structure", None))
    r = ratio_rounds(lambda: fn.execute(INVALID), baseline_invalid)
    rows.append(r.row("attrs: invalid (3 problems)", "structure failure + transform_error", 1.5))
    return rows
