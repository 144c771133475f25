"""Rejected calls and unknown keys: what the model sees most when it is wrong.

Every row is a ratio against the cheapest way the library itself reaches the
same knowledge (a failure plus its own message text), measured side by side in
interleaved rounds (:func:`harness.ratio_rounds`):

- pydantic, 1, 3 and 300 problems: in ``bench_pydantic.py``, against a
  failing ``model_validate`` plus ``str(e)`` (pydantic's own full message);
- JSON Schema, on either engine and with 3 and 300 problems: in
  ``bench_jsonschema.py``, against the library's ``iter_errors`` messages;
- no parser, an accepted call carrying one extra key that is no typo of any
  parameter, against the required-key check plus the body.
"""

from __future__ import annotations

from typing import Any

import toolparse as tp
from bench_core import ARGS, params, typed_floor
from harness import Row, ratio_rounds


def body(arguments: Any) -> str:
    return "ok"


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
    return _unknown_key_rows()


if __name__ == "__main__":
    from harness import table

    print(table(run()))
