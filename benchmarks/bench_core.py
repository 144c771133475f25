"""Core: the cost of execute over what it wraps, and of defining a Function.

Each row is measured side by side with its floor (``harness.ratio_rounds``):

- a call of a Function declared with FunctionParams (the required keys, then
  each value's JSON type and enum checked) against a hand-written dict check
  doing the same key and type work, plus the same body;
- a call of a Function declared with a raw ``parameters_schema`` (the
  required keys alone) against the hand-written key check plus the body;
- an accepted call carrying an extra key that is no typo of a parameter,
  on both declarations, against the same floors given the same dict;
- an ``@tool`` function's valid call against ``pydantic.validate_call`` on
  the same signature;
- definitions: the same declaration defined again (what Functions of one
  declaration share is built once) and a new declaration each time;
- a valid call with a nested object and an array, which needs no repair,
  under the default ``repair="safe"`` against the same Function with
  ``repair=None`` (with no parser, and with an adapter's).

``import toolparse`` in a fresh process is a row of ``bench_startup``.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import toolparse as tp
from harness import Row, ratio_rounds

ARGS = {"city": "Oslo", "units": "celsius", "days": 3}
EXTRA = {**ARGS, "reasoning": "the user asked about Oslo"}
REQUIRED = frozenset(("city", "units", "days"))
UNITS = ("celsius", "fahrenheit")


def body(a: dict[str, object]) -> str:
    return f"{a['city']}: {a['days']} days in {a['units']}"


def floor(a: dict[str, object]) -> str | None:
    # the floor of the required-key check: a set difference plus a direct call of the same body
    if REQUIRED - a.keys():
        return None
    return body(a)


def typed_floor(a: dict[str, Any]) -> str | None:
    # the floor of the FunctionParam check: the same keys and the same JSON types
    # (a bool is no integer, the enum compared by value and type), then the same body
    if REQUIRED - a.keys():
        return None
    units = a["units"]
    if (
        type(a["city"]) is not str
        or type(units) is not str
        or units not in UNITS
        or type(a["days"]) is not int
    ):
        return None
    return body(a)


def bare_body(a: dict[str, object]) -> str:
    return "ok"


def bare_floor(a: dict[str, object]) -> str | None:
    if REQUIRED - a.keys():
        return None
    return bare_body(a)


def params(prefix: str = "") -> list[tp.FunctionParam]:
    return [
        tp.FunctionParam(f"{prefix}city", "string", required=True),
        tp.FunctionParam(f"{prefix}units", "string", required=True, enum=list(UNITS)),
        tp.FunctionParam(f"{prefix}days", "integer", required=True),
    ]


def _call_rows() -> list[Row]:
    typed = tp.Function("weather", body, parameters=params()).execute
    keys = tp.Function(
        "weather", body, parameters_schema=tp.FunctionParam.to_parameters_schema(params())
    ).execute
    assert typed(ARGS) == keys(ARGS) == tp.Ok(typed_floor(ARGS))
    rows = [
        ratio_rounds(lambda: typed(ARGS), lambda: typed_floor(ARGS)).row(
            "execute, no parser, 3 FunctionParams", "key + type check + body", 1.3
        ),
        ratio_rounds(lambda: keys(ARGS), lambda: floor(ARGS)).row(
            "execute, no parser, 3 required keys (parameters_schema)", "key check + body", 2.0
        ),
        ratio_rounds(lambda: typed(ARGS), lambda: keys(ARGS)).row(
            "execute, 3 FunctionParams type-checked",
            "required-key check only (parameters_schema)",
            2.5,
        ),
    ]
    # the body does the floor's own work, so the ratio is what the call adds to it
    typed_extra = tp.Function("weather", typed_floor, parameters=params()).execute
    keys_extra = tp.Function(
        "weather", floor, parameters_schema=tp.FunctionParam.to_parameters_schema(params())
    ).execute
    assert typed_extra(EXTRA) == keys_extra(EXTRA) == tp.Ok(body(ARGS))
    rows += [
        ratio_rounds(lambda: keys_extra(EXTRA), lambda: floor(EXTRA)).row(
            "no parser: accepted call + a non-typo extra key (required keys)",
            "key check + body",
            2.5,
        ),
        ratio_rounds(lambda: typed_extra(EXTRA), lambda: typed_floor(EXTRA)).row(
            "no parser: accepted call + a non-typo extra key (3 FunctionParams)",
            "key + type check + body",
            2.5,
        ),
    ]

    bare = tp.Function(
        "weather", bare_body, parameters_schema=tp.FunctionParam.to_parameters_schema(params())
    )
    rows.append(
        ratio_rounds(lambda: bare.execute(ARGS), lambda: bare_floor(ARGS)).row(
            "execute, no parser, 3 required keys, body reads nothing", "key check + body"
        )
    )

    def parser(a: dict[str, object]) -> tp.ParseResult:
        return tp.ok()

    parsed = tp.Function("weather", body, parse_args=parser).execute
    rows.append(
        ratio_rounds(lambda: parsed(ARGS), lambda: (parser(ARGS), body(ARGS))).row(
            "execute, parse_args", "parser + body"
        )
    )

    text = json.dumps(ARGS)
    rows.append(
        ratio_rounds(lambda: keys(text), lambda: floor(json.loads(text))).row(
            "execute, JSON text arguments", "json.loads + key check + body"
        )
    )
    return rows


def _definition_rows() -> list[Row]:
    declared = params()
    fresh = itertools.count()

    def new_declaration() -> list[tp.FunctionParam]:
        return params(f"p{next(fresh)}_")

    return [
        ratio_rounds(lambda: tp.Function("weather", body, parameters=params()), params).row(
            "define a Function (3 FunctionParams, a declaration defined before)",
            "the FunctionParams alone",
        ),
        ratio_rounds(
            lambda: tp.Function("weather", body, parameters=new_declaration()), new_declaration
        ).row(
            "define a Function (3 FunctionParams, a new declaration)", "the FunctionParams alone"
        ),
        ratio_rounds(
            lambda: tp.Function("weather", body), lambda: tp.FunctionParam("city", "string")
        ).row("define a Function (no parameters)", "one FunctionParam"),
        ratio_rounds(
            lambda: tp.Function(
                "weather", body, parameters_schema=tp.FunctionParam.to_parameters_schema(declared)
            ),
            lambda: tp.FunctionParam.to_parameters_schema(declared),
        ).row("define a Function (parameters_schema, 3 properties)", "building the schema dict"),
    ]


def _decorator_rows() -> list[Row]:
    import pydantic

    def weather(city: str, units: str = "celsius", days: int = 1) -> str:
        """Weather for a city."""
        return f"{city}: {days} days in {units}"

    tool = tp.tool(weather)
    checked = pydantic.validate_call(weather)
    assert tool.execute(ARGS) == tp.Ok(checked(**ARGS))
    return [
        ratio_rounds(lambda: tool.execute(ARGS), lambda: checked(**ARGS)).row(
            "@tool, valid call (3 parameters)", "pydantic.validate_call, the same signature", 1.5
        )
    ]


ISSUE = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "assignee": {
            "type": "object",
            "properties": {"email": {"type": "string"}, "name": {"type": "string"}},
            "required": ["email"],
        },
        "labels": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["title", "assignee", "labels"],
}
ISSUE_ARGS = {"title": "t", "assignee": {"email": "a@b.c", "name": "n"}, "labels": ["bug", "ui"]}


def _repair_rows() -> list[Row]:
    rows = []
    for style, label in (("parameters_schema", "no parser"), ("args_schema", "jsonschema adapter")):
        safe = tp.Function("issue", bare_body, **{style: ISSUE}).execute  # (the default)
        as_sent = tp.Function("issue", bare_body, repair=None, **{style: ISSUE}).execute
        assert safe(ISSUE_ARGS) == as_sent(ISSUE_ARGS) == tp.Ok("ok")
        rows.append(
            ratio_rounds(lambda f=safe: f(ISSUE_ARGS), lambda f=as_sent: f(ISSUE_ARGS)).row(
                f"valid call needing no repair, repair='safe' ({label}, object + array)",
                "the same Function, repair=None",
                1.1,
            )
        )
    return rows


def run() -> list[Row]:
    return [*_call_rows(), *_decorator_rows(), *_definition_rows(), *_repair_rows()]


if __name__ == "__main__":
    from harness import table

    print(table(run()))
