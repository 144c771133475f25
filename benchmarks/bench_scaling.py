"""Scaling: cost against the number of fields and the size of the JSON text.

- a pydantic model of 3, 30 and 300 integer fields: a valid call against
  ``model_validate`` plus the body, and every field wrong against a failing
  ``model_validate`` plus ``str(e)`` (the library's own full message);
- JSON text of about 1 KB, 100 KB and 1 MB (a list of records, the shape
  that makes a depth check walk the most): ``execute(text)`` against
  ``json.loads`` plus the same call on the decoded dict;
- a set of 1,000 and 10,000 tools against the same set of 100: a call to an
  unknown name (a typo of a tool, and a name like none of them) through a
  Toolset and through a list of Functions (whose tables are kept for the next
  batch), and a known call through a list;
- ``Toolset.to_tools`` (kept per provider and strictness) against a deep
  copy of the same export, what a caller keeping it would do.
"""

from __future__ import annotations

import copy
import json
import random
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
        rows.append(
            r.row(
                f"pydantic: valid, {n} fields",
                "model_validate + body",
                curve=("pydantic: fields in the model", "valid", n),
            )
        )
        r = ratio_rounds(lambda f=fn, b=bad: f.execute(b), floor_bad)
        rows.append(
            r.row(
                f"pydantic: {n} wrong fields",
                "model_validate failure + str(e)",
                1.5 if n == 300 else None,
                curve=("pydantic: fields in the model", "all wrong", n),
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
        rows.append(
            r.row(
                f"execute(JSON text), {label}",
                "json.loads + the same dict call",
                1.2,
                curve=("JSON text arguments: bytes", "execute(text)", size),
            )
        )
    return rows


def tool_names(n: int) -> list[str]:
    """``n`` tool names as a large set of tools has them: verbs, nouns, and numbered variants."""
    pick = random.Random(7).choice
    verbs = [
        "get",
        "set",
        "list",
        "create",
        "delete",
        "update",
        "search",
        "send",
        "fetch",
        "find",
        "read",
        "write",
        "sync",
        "move",
    ]
    nouns = [
        "user",
        "order",
        "invoice",
        "email",
        "file",
        "weather",
        "report",
        "issue",
        "ticket",
        "page",
        "comment",
        "repo",
    ]
    names: dict[str, None] = {}
    while len(names) < n:
        name = f"{pick(verbs)}_{pick(nouns)}"
        names[name if len(names) < 150 else f"{name}_{pick(nouns)}_{len(names)}"] = None
    return list(names)


def _toolset_rows() -> list[Row]:
    def tools(n: int) -> list[tp.Function]:
        return [tp.Function(name, lambda arguments: "ok", parameters=[]) for name in tool_names(n)]

    sets = {n: tools(n) for n in (100, 300, 1_000, 3_000, 10_000)}
    toolsets = {n: tp.Toolset(fns) for n, fns in sets.items()}
    rows = []
    for label, name in (("a typo", "serch_ordr"), ("a name like none", "book_flight")):
        call = [tp.ToolCall("1", name, {})]
        for n in (300, 1_000, 3_000, 10_000):
            big, small = toolsets[n], toolsets[100]
            assert big.execute(call)[0].is_error
            r = ratio_rounds(
                lambda b=big, c=call: b.execute(c),  # type: ignore[misc]
                lambda s=small, c=call: s.execute(c),  # type: ignore[misc]
            )
            row = r.row(
                f"unknown tool ({label}), {n:,} tools",
                "the same, 100 tools",
                3.0,
                curve=("unknown tool: tools in the set (vs 100)", label, n),
            )
            row.listed = n in (1_000, 10_000)  # the sizes between are drawn only
            rows.append(row)
    call = [tp.ToolCall("1", "serch_ordr", {})]
    big, small = sets[10_000], sets[100]
    r = ratio_rounds(
        lambda: tp.execute_tool_calls(big, call), lambda: tp.execute_tool_calls(small, call)
    )
    rows.append(r.row("unknown tool, a list of 10,000 tools", "the same, 100 tools", 3.0))
    known = [tp.ToolCall("1", big[-1].name, {})]
    r = ratio_rounds(lambda: tp.execute_tool_calls(big, known), lambda: {fn.name: fn for fn in big})
    rows.append(
        r.row("execute_tool_calls, a list of 10,000 tools", "a name → tool dict of it", 1.0)
    )
    for provider in ("openai", "anthropic", "gemini"):
        toolset = toolsets[100]
        kept = toolset.to_tools(provider)
        r = ratio_rounds(
            lambda t=toolset, p=provider: t.to_tools(p), lambda k=kept: copy.deepcopy(k)
        )  # type: ignore[misc]
        rows.append(r.row(f"Toolset.to_tools({provider!r}), 100 tools", "copy.deepcopy of it", 1.2))
    return rows


def run() -> list[Row]:
    return [*_field_rows(), *_text_rows(), *_toolset_rows()]


if __name__ == "__main__":
    from harness import table

    print(table(run()))
