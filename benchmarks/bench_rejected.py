"""Rejected calls and unknown keys: what the model sees most when it is wrong.

Every row is a ratio against the cheapest way the library itself reaches the
same knowledge (a failure plus its own message text), measured side by side in
interleaved rounds (:func:`harness.ratio_rounds`):

- pydantic, 1 and 3 problems: ``fn.execute(bad)`` against a failing
  ``model_validate`` plus ``str(e)`` (pydantic's own full message), and the
  reading every problem needs (the validator's failure and ``errors()``)
  against the same;
- (JSON Schema, on either engine and with 3 and 300 problems: in
  ``bench_jsonschema.py``, against the library's ``iter_errors`` messages);
- no parser, an accepted call carrying one extra key that is no typo of any
  parameter, against the required-key check plus the body.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

import toolparse as tp
from bench_core import ARGS, params, typed_floor
from bench_pydantic import INVALID, Invoice
from harness import Row, ratio_rounds

ONE_PROBLEM = {"vendor_name": "ACME", "total_amount": "abc", "line_items": []}


def body(arguments: Any) -> str:
    return "ok"


def _pydantic_failure(model: type[BaseModel], bad: dict[str, Any]) -> Any:
    def call() -> object:
        try:
            return model.model_validate(bad)
        except ValidationError as exc:
            return str(exc)

    return call


def _pydantic_rows() -> list[Row]:
    fn = tp.Function("create_invoice", lambda invoice: "ok", args_schema=Invoice)
    rows = []
    for label, bad, target in (("1 problem", ONE_PROBLEM, 1.8), ("3 problems", INVALID, 1.5)):
        result = fn.execute(bad)
        assert isinstance(result, tp.Error), result
        r = ratio_rounds(lambda b=bad: fn.execute(b), _pydantic_failure(Invoice, bad))  # type: ignore[misc]
        rows.append(
            r.row(f"pydantic: rejected, {label}", "model_validate failure + str(e)", target)
        )
    # what the promises need read before any text is written (every problem,
    # with its input): the validator's failure and its errors(), the part of
    # the rejected rows no wording can make cheaper
    validate = Invoice.__pydantic_validator__.validate_python

    def reading() -> object:
        try:
            return validate(INVALID)
        except ValidationError as exc:
            return exc.errors(include_url=False, include_context=True)

    r = ratio_rounds(reading, _pydantic_failure(Invoice, INVALID))
    rows.append(
        r.row(
            "pydantic: 3 problems, validator failure + errors() alone",
            "model_validate failure + str(e)",
        )
    )
    return rows


def _unknown_key_rows() -> list[Row]:
    # FunctionParams check types too: the floor does the same key and type work
    fn = tp.Function("weather", lambda a: typed_floor(a), parameters=params())
    extra = {**ARGS, "reasoning": "the user asked about Oslo"}
    assert isinstance(fn.execute(extra), tp.Ok)
    r = ratio_rounds(lambda: fn.execute(extra), lambda: typed_floor(extra))
    return [
        r.row("no parser: accepted call + a non-typo extra key", "key + type check + body", 2.5),
    ]


def run() -> list[Row]:
    return [*_pydantic_rows(), *_unknown_key_rows()]


if __name__ == "__main__":
    from harness import table

    print(table(run()))
