"""The marshmallow adapter against marshmallow itself.

    uv run --frozen --no-sync python benchmarks/run.py marshmallow

Every row is a ratio of thread CPU time in interleaved rounds (``ratio_rounds``),
with its spread.

- valid arguments: ``fn.execute(args)`` with ``args_schema=InvoiceSchema``
  (a ``@post_load`` building a dataclass) against a reused
  ``InvoiceSchema().load(args)`` plus a direct call of the body (target <= 1.1x);
- the same under ``unknown_arguments="reject"`` (which also checks the keys of
  nested objects) against ``load(args, unknown=RAISE)``;
- invalid arguments, three problems and three hundred: ``fn.execute(bad)``,
  message included, against a bare ``load`` failure and its ``.messages``
  (target <= 3x); for three, that failure followed by rendering the same
  problems (built beforehand), the floor that the message the model reads
  puts under the row, and the call against that floor (what the reading of
  ``.messages`` and the plan add, side by side, without ``load``'s own spread
  in between);
- defining a tool: another tool of a class already compiled (the adapter keeps
  a class's compiled form) against ``InvoiceSchema()`` (target <= 3x), and the
  first tool of a class (a fresh adapter: instantiation, conversion, parser).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, post_load, validate

import toolparse as tp
from harness import Row, ratio_rounds
from toolparse.adapter import REQUIRED
from toolparse_marshmallow import MarshmallowAdapter


@dataclass
class Line:
    sku: str
    quantity: int


@dataclass
class Invoice:
    vendor_name: str
    total_amount: float
    currency: str = "EUR"
    line_items: list[Line] = field(default_factory=list)


class LineSchema(Schema):
    sku = fields.String(required=True)
    quantity = fields.Integer(required=True, validate=validate.Range(min=1))

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Line:
        return Line(**data)


class InvoiceSchema(Schema):
    vendor_name = fields.String(required=True)
    total_amount = fields.Float(required=True)
    currency = fields.String(load_default="EUR")
    line_items = fields.List(fields.Nested(LineSchema), required=True)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Invoice:
        return Invoice(**data)


VALID = {
    "vendor_name": "ACME",
    "total_amount": 12.5,
    "line_items": [{"sku": "A-1", "quantity": 2}],
}
# three problems: a missing name, a wrong type, a nested constraint
INVALID = {"total_amount": "abc", "line_items": [{"sku": "A-1", "quantity": 0}]}
# three hundred problems: each of 150 lines misses its sku and has a wrong quantity
MANY = {"vendor_name": "ACME", "total_amount": 1, "line_items": [{"quantity": "many"}] * 150}


def body(invoice: Invoice) -> str:
    return "ok"


def run() -> list[Row]:
    schema = InvoiceSchema()
    fn = tp.Function("invoice", body, args_schema=InvoiceSchema)
    strict = tp.Function("invoice", body, args_schema=InvoiceSchema, unknown_arguments="reject")
    assert fn.execute(VALID) == tp.Ok("ok")
    assert strict.execute(VALID) == tp.Ok("ok")

    def raw_valid() -> object:
        return body(schema.load(VALID))

    def raw_strict() -> object:
        return body(schema.load(VALID, unknown=RAISE))

    def raw_invalid(bad: dict[str, Any] = INVALID) -> object:
        try:
            return body(schema.load(bad))
        except ValidationError as exc:
            return exc.messages

    rows = []
    r = ratio_rounds(lambda: fn.execute(VALID), raw_valid)
    rows.append(r.row("marshmallow execute (valid)", "schema.load + call", 1.1))
    r = ratio_rounds(lambda: strict.execute(VALID), raw_strict)
    rows.append(r.row("marshmallow execute (valid, reject)", "load(unknown=RAISE) + call"))
    r = ratio_rounds(lambda: fn.execute(INVALID), raw_invalid)
    rows.append(r.row("marshmallow execute (3 problems)", "load failure + .messages", 3.0))
    many = fn.execute(MANY)
    assert isinstance(many, tp.Error)
    assert isinstance(many.exception, tp.InvalidArguments)
    assert len(many.exception.problems) == 300
    r = ratio_rounds(lambda: fn.execute(MANY), lambda: raw_invalid(MANY))
    rows.append(r.row("marshmallow execute (300 problems)", "load failure + .messages", 3.0))
    # the floor under the promise of the message: load's failure, then rendering
    # the same three problems (built beforehand: no walk of .messages at all)
    rejected = fn.execute(INVALID)
    assert isinstance(rejected, tp.Error)
    exc = rejected.exception
    assert isinstance(exc, tp.InvalidArguments)
    built, accepted = list(exc.problems), exc.accepted

    def load_and_render() -> object:
        try:
            return body(schema.load(INVALID))
        except ValidationError as error:
            return tp.invalid_arguments(built, arguments=INVALID, accepted=accepted, cause=error)

    floor = load_and_render()
    assert isinstance(floor, tp.Error)
    assert floor.message == rejected.message
    r = ratio_rounds(load_and_render, raw_invalid)
    rows.append(
        r.row(
            "marshmallow 3 problems floor: load failure + the message", "load failure + .messages"
        )
    )

    # the least any adapter does under that promise: the three problems built
    # (no reading of .messages at all), then the message
    def load_build_and_render() -> object:
        try:
            return body(schema.load(INVALID))
        except ValidationError as error:
            made = [
                tp.ArgumentProblem(("vendor_name",), REQUIRED, kind="missing"),
                tp.ArgumentProblem(("total_amount",), "must be a number", "abc"),
                tp.ArgumentProblem(("line_items", 0, "quantity"), "must be at least 1", 0),
            ]
            return tp.invalid_arguments(made, arguments=INVALID, accepted=accepted, cause=error)

    least = load_build_and_render()
    assert isinstance(least, tp.Error)
    assert least.message == rejected.message
    r = ratio_rounds(load_build_and_render, raw_invalid)
    rows.append(
        r.row(
            "marshmallow 3 problems floor, problems built: load failure + building them + the message",
            "load failure + .messages",
        )
    )
    # what the tool adds on top of that floor: the reading of .messages and the plan
    r = ratio_rounds(lambda: fn.execute(INVALID), load_and_render)
    rows.append(r.row("marshmallow execute (3 problems) over its floor", "the floor row's call"))
    r = ratio_rounds(lambda: tp.Function("invoice", body, args_schema=InvoiceSchema), InvoiceSchema)
    rows.append(r.row("define: marshmallow args_schema", "InvoiceSchema()", 3.0))
    r = ratio_rounds(
        lambda: tp.Function(
            "invoice", body, args_schema=InvoiceSchema, adapter=MarshmallowAdapter()
        ),
        InvoiceSchema,
    )
    rows.append(r.row("define: marshmallow args_schema, first of its class", "InvoiceSchema()"))
    return rows
