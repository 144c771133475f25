"""toolparse's attrs adapter against cattrs itself.

The baseline is what a cattrs user writes by hand: ``converter.structure``
with detailed validation, then the call; on invalid input, the exception
turned into messages with ``cattrs.transform_error``. A rejected call is also
timed against its floor (the strict converter's failure, then the same three
problems rendered without reading the failure) and that floor against cattrs.
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


def body(invoice: Invoice) -> str:
    return invoice.vendor_name


def run() -> list[Row]:
    fn = tp.Function("create_invoice", body, args_schema=Invoice)
    converter = cattrs.Converter(detailed_validation=True)
    converter.structure(VALID, Invoice)  # compile the hook before timing
    # the same converter work toolparse does: its strict converter, its hook
    strict = make_converter()
    hook = strict.get_structure_hook(Invoice)

    def baseline_valid() -> object:
        return body(converter.structure(VALID, Invoice))

    def baseline_invalid() -> object:
        try:
            return body(converter.structure(INVALID, Invoice))
        except cattrs.ClassValidationError as exc:
            return "\n".join(cattrs.transform_error(exc))

    def strict_invalid() -> object:
        try:
            return body(hook(INVALID, Invoice))
        except cattrs.ClassValidationError as exc:
            return "\n".join(cattrs.transform_error(exc))

    assert fn.execute(VALID) == tp.Ok("ACME")
    result = fn.execute(INVALID)
    assert isinstance(result, tp.Error)
    assert result.message.count("\n") == 6, result.message  # the three problem lines
    rows = []
    r = ratio_rounds(lambda: fn.execute(VALID), baseline_valid)
    rows.append(r.row("attrs: valid", "cattrs structure + call", 1.15))
    # the floor of toolparse's strict rules: its own converter's hook, no toolparse step
    r = ratio_rounds(lambda: fn.execute(VALID), lambda: body(hook(VALID, Invoice)))
    rows.append(r.row("attrs: valid, vs its converter", "strict converter's hook + call"))
    r = ratio_rounds(lambda: fn.parse_arguments(VALID), lambda: converter.structure(VALID, Invoice))
    rows.append(r.row("attrs: parse_arguments, valid", "cattrs structure"))
    r = ratio_rounds(lambda: fn.execute(INVALID), baseline_invalid)
    rows.append(r.row("attrs: invalid (3 problems)", "structure failure + transform_error", 1.5))
    r = ratio_rounds(lambda: fn.execute(INVALID), strict_invalid)
    rows.append(
        r.row("attrs: invalid, vs its converter", "strict converter failure + transform_error")
    )
    # the floor under the promises of the message: the strict converter's
    # failure with every problem in it (detailed validation), then rendering the
    # same three problems (as rows, worked out beforehand: no reading at all)
    exc = result.exception
    assert isinstance(exc, tp.InvalidArguments)
    found = [(p.path, p.reason, p.received, p.kind) for p in exc.problems]
    accepted = exc.accepted

    def fail_and_render() -> object:
        try:
            return body(hook(INVALID, Invoice))
        except cattrs.ClassValidationError as error:
            return tp.invalid_rows(found, arguments=INVALID, accepted=accepted, cause=error)

    floor = fail_and_render()
    assert isinstance(floor, tp.Error)
    assert floor.message == result.message
    r = ratio_rounds(fail_and_render, baseline_invalid)
    rows.append(
        r.row(
            "attrs 3 problems floor: strict failure + the message",
            "structure failure + transform_error",
        )
    )
    # what the tool adds on top of that floor: reading the failure, and the plan
    r = ratio_rounds(lambda: fn.execute(INVALID), fail_and_render)
    rows.append(r.row("attrs execute (3 problems) over its floor", "the floor row's call"))
    return rows
