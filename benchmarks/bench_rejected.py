"""Rejected calls and unknown keys: what the model sees most when it is wrong.

Every row is a ratio against the cheapest way the library itself reaches the
same knowledge (a failure plus its own message text), measured side by side in
interleaved rounds (:func:`harness.ratio_rounds`):

- pydantic, 1, 3 and 300 problems: in ``bench_pydantic.py``, against a
  failing ``model_validate`` plus ``str(e)`` (pydantic's own full message);
- JSON Schema, jsonschema-rs and the pure path: against the library's
  ``iter_errors`` with each error's message;
- no parser, an accepted call carrying one extra key that is no typo of any
  parameter, against the required-key check plus the body.
"""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import jsonschema_rs

import toolparse as tp
from bench_core import ARGS, params, typed_floor
from bench_jsonschema import SCHEMA, VALID
from harness import Row, ratio_rounds
from toolparse_jsonschema import JsonSchema

#: three problems: a missing required name, a wrong type, a broken format
BAD_EVENT: dict[str, Any] = {
    **{k: v for k, v in copy.deepcopy(VALID).items() if k != "summary"},
    "priority": "high",
    "attendees": [{"email": "ana@example.com", "optional": "yes"}],
}


def body(arguments: Any) -> str:
    return "ok"


def _jsonschema_rows() -> list[Row]:
    pure_validator = jsonschema.Draft202012Validator(
        SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    rs_validator = jsonschema_rs.validator_for(SCHEMA, validate_formats=True)
    assert not rs_validator.is_valid(BAD_EVENT)
    assert len(list(pure_validator.iter_errors(BAD_EVENT))) >= 3
    fast = tp.Function("create_event", body, args_schema=JsonSchema(SCHEMA, fast=True))
    pure = tp.Function("create_event", body, args_schema=JsonSchema(SCHEMA, fast=False))
    assert isinstance(fast.execute(BAD_EVENT), tp.Error)
    assert isinstance(pure.execute(BAD_EVENT), tp.Error)

    def rs_floor() -> object:
        return [e.message for e in rs_validator.iter_errors(BAD_EVENT)]

    def pure_floor() -> object:
        return [e.message for e in pure_validator.iter_errors(BAD_EVENT)]

    r_fast = ratio_rounds(lambda: fast.execute(BAD_EVENT), rs_floor)
    r_pure = ratio_rounds(lambda: pure.execute(BAD_EVENT), pure_floor)
    return [
        r_fast.row("jsonschema-rs: rejected (3 problems)", "rs iter_errors + messages", 3.0),
        r_pure.row("jsonschema pure: rejected (3 problems)", "list(iter_errors()) + messages", 1.3),
    ]


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
    return [*_jsonschema_rows(), *_unknown_key_rows()]


if __name__ == "__main__":
    from harness import table

    print(table(run()))
