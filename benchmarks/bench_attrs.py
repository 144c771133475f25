"""toolparse's attrs adapter against cattrs itself.

The baseline is what a cattrs user writes by hand: ``converter.structure``
with detailed validation, then the call; on invalid input, the exception
turned into messages with ``cattrs.transform_error``. A rejected call is timed
with 3 problems and with 300 (both found by cattrs too: wrong types and a
failing validator), and the valid call against toolparse's own strict
converter's hook as well (the floor of its stricter rules).
"""

from __future__ import annotations

import attrs
import cattrs
from attrs import validators as v

import toolparse as tp
from harness import Row, ratio_rounds
from toolparse_attrs import make_converter


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
INVALID = {  # three problems: two wrong types and a failing validator
    "vendor_name": 5,
    "total_amount": "abc",
    "line_items": [{"sku": "A-1", "quantity": 0}],
}
#: 300 problems, each of which cattrs' own converter finds too: items whose
#: quantity is not a number, and items whose validator refuses it
MANY = {
    "vendor_name": "ACME",
    "total_amount": 1.0,
    "line_items": [{"sku": "A", "quantity": "x" if i % 2 else 0} for i in range(300)],
}


def body(invoice: Invoice) -> str:
    return invoice.vendor_name


def run() -> list[Row]:
    fn = tp.Function("create_invoice", body, args_schema=Invoice)
    converter = cattrs.Converter(detailed_validation=True)
    converter.structure(VALID, Invoice)  # compile the hook before timing
    # the same converter work toolparse does: its strict converter, its hook
    hook = make_converter().get_structure_hook(Invoice)

    def baseline_valid() -> object:
        return body(converter.structure(VALID, Invoice))

    def transform_error(arguments: dict[str, object]) -> object:
        try:
            return body(converter.structure(arguments, Invoice))
        except cattrs.ClassValidationError as exc:
            return "\n".join(cattrs.transform_error(exc))

    assert fn.execute(VALID) == tp.Ok("ACME")
    result = fn.execute(INVALID)
    assert isinstance(result, tp.Error)
    assert result.message.count("\n") == 6, result.message  # the three problem lines
    many = fn.execute(MANY)
    assert isinstance(many, tp.Error)
    assert isinstance(many.exception, tp.InvalidArguments)
    assert len(many.exception.problems) + many.exception.more == 300
    assert len(str(transform_error(MANY)).splitlines()) == 300
    rows = []
    r = ratio_rounds(lambda: fn.execute(VALID), baseline_valid)
    rows.append(r.row("attrs: valid", "cattrs structure + call", 1.15))
    r = ratio_rounds(lambda: fn.execute(VALID), lambda: body(hook(VALID, Invoice)))
    rows.append(r.row("attrs: valid, vs its converter", "strict converter's hook + call"))
    r = ratio_rounds(lambda: fn.parse_arguments(VALID), lambda: converter.structure(VALID, Invoice))
    rows.append(r.row("attrs: parse_arguments, valid", "cattrs structure"))
    r = ratio_rounds(lambda: fn.execute(INVALID), lambda: transform_error(INVALID))
    rows.append(r.row("attrs: invalid (3 problems)", "structure failure + transform_error", 3.0))
    r = ratio_rounds(lambda: fn.execute(MANY), lambda: transform_error(MANY))
    rows.append(r.row("attrs: invalid (300 problems)", "structure failure + transform_error", 3.0))
    return rows
