"""The pydantic adapter against pydantic itself and against pydantic-ai's tool-call path.

    uv run --frozen --no-sync python benchmarks/run.py pydantic

- valid arguments: ``fn.execute(args)`` with ``args_schema=Invoice`` against
  ``Invoice.model_validate(args)`` plus a direct call of the body;
- invalid arguments (three problems): ``fn.execute(bad)``, message included,
  against a bare ``model_validate`` failure, for information only: pydantic's
  own failure plus its message (``str(e)``) is already 2.5-3x its bare
  failure, and reading every error with its input (``errors()``) 1.4x, so
  against the bare failure a bound measures what any message costs, not the
  adapter;
- rejected calls with 1 and 3 problems, 3 problems at nested paths (a
  missing field and a constraint inside a nested model, a wrong type inside an
  item of a list of models), and 300 wrong fields, against a failing
  ``model_validate`` plus ``str(e)`` (pydantic's own full message),
  and the reading every problem needs (the validator's failure and
  ``errors()``) against the same;
- the same tool through pydantic-ai: ``ToolManager.handle_call`` on a
  ``FunctionToolset`` (no model request), with the retry prompt text it sends
  back; timed inside one event loop, since that path is async;
- a definition: the first tool of a model (through an adapter that has
  kept no compiled form yet) against ``model_json_schema()``; another tool of the
  same model is the ``define`` row of ``bench_startup.py``;
- a ``pydantic.v1`` model, valid and rejected (3 problems), against
  ``parse_obj`` (plus ``str(e)`` for the rejected call).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel, Field, ValidationError

import toolparse as tp
from harness import Row, per_call_us, ratio_rounds


class Line(BaseModel):
    sku: str
    quantity: int = Field(gt=0)


class Invoice(BaseModel):
    vendor_name: str
    total_amount: float
    currency: str = "EUR"
    line_items: list[Line]


VALID = {
    "vendor_name": "ACME",
    "total_amount": 12.5,
    "line_items": [{"sku": "A-1", "quantity": 2}],
}
# three problems: a missing name, a wrong type, a nested constraint
INVALID = {"total_amount": "abc", "line_items": [{"sku": "A-1", "quantity": 0}]}
ONE_PROBLEM = {"vendor_name": "ACME", "total_amount": "abc", "line_items": []}


class Address(BaseModel):
    street: str
    city: str
    postcode: str = Field(min_length=4)


class ShippedInvoice(BaseModel):
    vendor_name: str
    address: Address
    line_items: list[Line]


# three problems at nested paths: a missing field and a constraint in the
# address, a wrong type in the second line item
NESTED = {
    "vendor_name": "ACME",
    "address": {"street": "1 Main St", "postcode": "12"},
    "line_items": [{"sku": "A-1", "quantity": 2}, {"sku": "B-2", "quantity": "two"}],
}


def body(invoice: Invoice) -> str:
    return "ok"


def _raw_valid() -> object:
    return body(Invoice.model_validate(VALID))


def _raw_invalid() -> object:
    try:
        return body(Invoice.model_validate(INVALID))
    except ValidationError as exc:
        return exc


def _async_per_call_us(
    call: Callable[[], Awaitable[object]], number: int = 3000, repeat: int = 5
) -> float:
    """Best-of-``repeat`` time of one awaited call, inside one running loop."""

    async def main() -> float:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            for _ in range(number):
                await call()
            best = min(best, (time.perf_counter() - start) / number)
        return best * 1e6

    return asyncio.run(main())


def _pydantic_ai_rows(fn: tp.Function) -> list[Row]:
    try:
        from pydantic_ai import RunContext
        from pydantic_ai.exceptions import ToolRetryError
        from pydantic_ai.messages import ToolCallPart
        from pydantic_ai.models.test import TestModel
        from pydantic_ai.tool_manager import ToolManager
        from pydantic_ai.toolsets import FunctionToolset
        from pydantic_ai.usage import RunUsage
    except ImportError:  # pydantic-ai is optional for this comparison
        return []

    def create_invoice(invoice: Invoice) -> str:
        return "ok"

    async def prepare() -> ToolManager[None]:
        toolset = FunctionToolset([create_invoice], max_retries=10**9)
        ctx = RunContext(deps=None, model=TestModel(), usage=RunUsage())
        return await ToolManager(toolset=toolset).for_run_step(ctx)

    manager = asyncio.run(prepare())

    def call(arguments: dict[str, object]) -> Callable[[], Awaitable[object]]:
        async def run() -> object:
            try:
                return await manager.handle_call(
                    ToolCallPart(tool_name="create_invoice", args=arguments)
                )
            except ToolRetryError as exc:
                # what goes back to the model
                return exc.tool_retry.model_response_str()

        return run

    rows = []
    for label, arguments in (("invalid (3 problems)", INVALID), ("valid", VALID)):
        ours = per_call_us(lambda a=arguments: fn.execute(a))  # type: ignore[misc]
        theirs = _async_per_call_us(call(arguments))
        rows.append(
            Row(
                f"pydantic: execute {label} vs pydantic-ai",
                ours,
                theirs,
                "pydantic-ai ToolManager.handle_call",
                target=0.2 if label.startswith("invalid") else None,
            )
        )
    return rows


def _pydantic_failure(model: type[BaseModel], bad: dict[str, Any]) -> Callable[[], object]:
    """A failing ``model_validate`` plus ``str(e)``: pydantic's own full message."""

    def call() -> object:
        try:
            return model.model_validate(bad)
        except ValidationError as exc:
            return str(exc)

    return call


def _rejected_rows() -> list[Row]:
    from pydantic import create_model

    fn = tp.Function("create_invoice", lambda invoice: "ok", args_schema=Invoice)
    rows = []
    for label, bad, target in (("1 problem", ONE_PROBLEM, 1.8), ("3 problems", INVALID, 1.5)):
        assert isinstance(fn.execute(bad), tp.Error)
        r = ratio_rounds(lambda b=bad: fn.execute(b), _pydantic_failure(Invoice, bad))  # type: ignore[misc]
        rows.append(
            r.row(f"pydantic: rejected, {label}", "model_validate failure + str(e)", target)
        )
    shipped = tp.Function("ship_invoice", lambda invoice: "ok", args_schema=ShippedInvoice)
    nested = shipped.execute(NESTED)
    assert isinstance(nested, tp.Error)
    assert isinstance(nested.exception, tp.InvalidArguments)
    assert [p.path for p in nested.exception.problems] == [
        ("address", "city"),
        ("address", "postcode"),
        ("line_items", 1, "quantity"),
    ]
    r = ratio_rounds(lambda: shipped.execute(NESTED), _pydantic_failure(ShippedInvoice, NESTED))
    rows.append(
        r.row("pydantic: rejected, 3 nested problems", "model_validate failure + str(e)", 3.0)
    )
    # what the promises need read before any text is written (every problem,
    # with its input): the validator's failure and its errors(), the part of
    # the rejected rows no wording can make cheaper
    validate = Invoice.__pydantic_validator__.validate_python

    def reading() -> object:
        try:
            return validate(INVALID)
        except ValidationError as exc:
            return exc.errors(include_url=False)

    r = ratio_rounds(reading, _pydantic_failure(Invoice, INVALID))
    rows.append(
        r.row(
            "pydantic: 3 problems, validator failure + errors() alone",
            "model_validate failure + str(e)",
        )
    )
    wide = create_model("Wide300", **{f"field_{i}": (int, ...) for i in range(300)})  # type: ignore[call-overload]
    many = tp.Function("wide", lambda arguments: "ok", args_schema=wide)
    bad = {f"field_{i}": "x" for i in range(300)}
    result = many.execute(bad)
    assert isinstance(result, tp.Error)
    assert "... and 280 more" in result.message
    r = ratio_rounds(lambda: many.execute(bad), _pydantic_failure(wide, bad))
    # every error read and mapped (the message shows 20 lines and counts the rest)
    rows.append(
        r.row("pydantic: rejected, 300 wrong fields", "model_validate failure + str(e)", 3.0)
    )
    return rows


def _definition_row() -> Row:
    from toolparse.plugins import plugin_manager
    from toolparse_pydantic import PydanticAdapter

    assert isinstance(plugin_manager().adapter("pydantic"), PydanticAdapter)

    def first() -> object:
        # a new adapter has kept nothing: as if no tool of the model was defined yet
        return tp.Function("create_invoice", body, args_schema=Invoice, adapter=PydanticAdapter())

    r = ratio_rounds(first, Invoice.model_json_schema)
    return r.row("define: pydantic args_schema, a model's first tool", "model_json_schema()")


def _v1_rows() -> list[Row]:
    from pydantic import v1

    class V1Line(v1.BaseModel):
        sku: str
        quantity: int = v1.Field(..., gt=0)

    class V1Invoice(v1.BaseModel):
        vendor_name: str
        total_amount: float
        currency: str = "EUR"
        line_items: list[V1Line]

    V1Invoice.update_forward_refs(V1Line=V1Line)
    fn = tp.Function("create_invoice", lambda invoice: "ok", args_schema=V1Invoice)
    assert fn.execute(VALID) == tp.Ok("ok")
    bad = fn.execute(INVALID)
    assert isinstance(bad, tp.Error)
    assert isinstance(bad.exception, tp.InvalidArguments)
    assert len(bad.exception.problems) == 3, bad

    def failure() -> object:
        try:
            return V1Invoice.parse_obj(INVALID)
        except v1.ValidationError as exc:
            return str(exc)

    valid = ratio_rounds(lambda: fn.execute(VALID), lambda: (V1Invoice.parse_obj(VALID), "ok"))
    invalid = ratio_rounds(lambda: fn.execute(INVALID), failure)
    return [
        valid.row("pydantic.v1: execute valid", "parse_obj + body"),
        invalid.row("pydantic.v1: execute invalid (3 problems)", "parse_obj failure + str(e)"),
    ]


def run() -> list[Row]:
    fn = tp.Function("create_invoice", body, args_schema=Invoice)
    assert fn.execute(VALID) == tp.Ok("ok")
    bad = fn.execute(INVALID)
    assert isinstance(bad, tp.Error)
    assert isinstance(bad.exception, tp.InvalidArguments)
    assert len(bad.exception.problems) == 3, bad

    valid = ratio_rounds(lambda: fn.execute(VALID), _raw_valid)
    invalid = ratio_rounds(lambda: fn.execute(INVALID), _raw_invalid)
    parse = ratio_rounds(lambda: fn.parse_arguments(VALID), _raw_valid)
    return [
        valid.row("pydantic: execute valid", "model_validate + body", 1.2),
        # no target: a message costs pydantic itself 2.5-3x its bare failure
        # (see the module's docstring); the rejected rows hold the rejected call
        # to its failure plus str(e)
        invalid.row("pydantic: execute invalid (3 problems)", "model_validate failure"),
        parse.row("pydantic: parse_arguments valid", "model_validate + body"),
        *_rejected_rows(),
        _definition_row(),
        *_v1_rows(),
        *_pydantic_ai_rows(fn),
    ]
