"""Scaling: cost against the number of fields and the size of the JSON text.

- a pydantic model of 3, 30 and 300 integer fields: a valid call against
  ``model_validate`` plus the body, and every field wrong against a failing
  ``model_validate`` plus ``str(e)`` (the library's own full message);
- JSON text of about 1 KB, 100 KB and 1 MB (a list of records, the shape
  that makes a depth check walk the most): ``execute(text)`` against
  ``json.loads`` plus the same call on the decoded dict.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ValidationError, create_model

import toolparse as tp
from harness import Row, ratio_rounds

FIELDS = (3, 30, 300)
SIZES = ((1_000, "1 KB"), (100_000, "100 KB"), (1_000_000, "1 MB"))


def model(n: int) -> type[BaseModel]:
    fields: dict[str, Any] = {f"field_{i}": (int, ...) for i in range(n)}
    return create_model(f"Wide{n}", **fields)


def _field_rows() -> list[Row]:
    rows = []
    for n in FIELDS:
        m = model(n)
        fn = tp.Function(f"wide_{n}", lambda arguments: "ok", args_schema=m)
        good = {f"field_{i}": i for i in range(n)}
        bad = {f"field_{i}": "x" for i in range(n)}
        assert fn.execute(good) == tp.Ok("ok")
        assert isinstance(fn.execute(bad), tp.Error)

        def floor_bad(m: type[BaseModel] = m, bad: dict[str, Any] = bad) -> object:
            try:
                return m.model_validate(bad)
            except ValidationError as exc:
                return str(exc)

        r = ratio_rounds(
            lambda f=fn, g=good: f.execute(g), lambda m=m, g=good: (m.model_validate(g), "ok")
        )
        rows.append(r.row(f"pydantic: valid, {n} fields", "model_validate + body"))
        r = ratio_rounds(lambda f=fn, b=bad: f.execute(b), floor_bad)
        rows.append(
            r.row(
                f"pydantic: {n} wrong fields",
                "model_validate failure + str(e)",
                1.5 if n == 300 else None,
            )
        )
    return rows


def payload(size: int) -> str:
    """JSON text of about ``size`` bytes: a note and a list of line items."""
    record = {"sku": "A-0001", "quantity": 2, "price": 12.5, "note": "blue"}
    one = len(json.dumps(record)) + 2
    items = [dict(record, sku=f"A-{i:04d}") for i in range(max(1, (size - 40) // one))]
    return json.dumps({"title": "order", "items": items})


def _text_rows() -> list[Row]:
    schema = {
        "type": "object",
        "properties": {"title": {"type": "string"}, "items": {"type": "array"}},
        "required": ["title", "items"],
    }

    def body(arguments: Any) -> int:
        return len(arguments["items"])

    fn = tp.Function("order", body, parameters_schema=schema)
    rows = []
    for size, label in SIZES:
        text = payload(size)
        assert isinstance(fn.execute(text), tp.Ok), fn.execute(text)
        r = ratio_rounds(
            lambda t=text: fn.execute(t),  # type: ignore[misc]
            lambda t=text: fn.execute(json.loads(t)),  # type: ignore[misc]
            rounds=11,
            budget=0.1,  # a call of a large text is long: more of them per round, more rounds
        )
        rows.append(r.row(f"execute(JSON text), {label}", "json.loads + the same dict call", 1.15))
    return rows


def run() -> list[Row]:
    return [*_field_rows(), *_text_rows()]


if __name__ == "__main__":
    from harness import table

    print(table(run()))
