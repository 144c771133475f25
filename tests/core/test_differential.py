"""Every way of running a tool agrees: execute(dict), execute(JSON text), aexecute, and
parse_arguments followed by the body, for a corpus of Functions and generated arguments.

The corpus covers every adapter installed (the built-in one always; pydantic,
marshmallow, attrs and jsonschema when present), every ``unknown_arguments``
policy, strict mode, async bodies and async parsers, ``parameters`` and
``parameters_schema``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib.util
import inspect
import json
from collections.abc import Callable
from typing import Any, TypedDict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolparse as tp

POLICIES = ("report", "reject", "ignore")


def _has(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def describe(value: Any) -> str:
    """A body's answer that shows exactly what it received."""
    if isinstance(value, dict):
        return "dict " + json.dumps(value, sort_keys=True, default=repr)
    if dataclasses.is_dataclass(value) or hasattr(type(value), "__attrs_attrs__"):
        return repr(value)
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return f"{type(value).__name__} " + json.dumps(dump(), sort_keys=True, default=repr)
    return repr(value)


def body(value: Any) -> str:
    return describe(value)


async def async_body(value: Any, context: Any) -> str:
    await asyncio.sleep(0)
    return describe(value)


def own_parser(arguments: dict[str, Any]) -> tp.ParseResult:
    if "city" not in arguments:
        return tp.error("city is needed")
    return tp.ok({"city": str(arguments["city"]), "extra": sorted(arguments)})


async def async_parser(arguments: dict[str, Any], context: Any) -> tp.ParseResult:
    await asyncio.sleep(0)
    return own_parser(arguments)


# -- the sources, each accepting: city (required string), days (optional int), note (optional)


@dataclasses.dataclass
class PlainForecast:
    city: str
    days: int = 1
    note: str | None = None


class TypedForecast(TypedDict, total=False):
    city: str
    days: int


PARAMS = [
    tp.FunctionParam("city", "string", required=True),
    tp.FunctionParam("days", "integer"),
    tp.FunctionParam("note", "string"),
]

SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "days": {"type": "integer", "default": 1},
        "note": {"type": ["string", "null"]},
    },
    "required": ["city"],
}


def sources() -> dict[str, dict[str, Any]]:
    """Name -> the Function keywords declaring the arguments (one per installed adapter)."""
    pm = tp.make_plugin_manager(load_entry_points=False)
    found: dict[str, dict[str, Any]] = {
        "parameters": {"parameters": PARAMS},
        "parameters_schema": {"parameters_schema": SCHEMA},
        "plain dataclass": {"args_schema": PlainForecast, "plugin_manager": pm},
        "plain TypedDict": {"args_schema": TypedForecast, "plugin_manager": pm},
    }
    if _has("pydantic"):
        import pydantic

        class Forecast(pydantic.BaseModel):
            city: str
            days: int = 1
            note: str | None = None

        found["pydantic"] = {"args_schema": Forecast}
    if _has("marshmallow") and _has("toolparse_marshmallow"):
        import marshmallow

        class ForecastSchema(marshmallow.Schema):
            city = marshmallow.fields.String(required=True)
            days = marshmallow.fields.Integer(load_default=1)
            note = marshmallow.fields.String(allow_none=True)

        found["marshmallow"] = {"args_schema": ForecastSchema}
    if _has("attrs") and _has("toolparse_attrs"):
        import attrs

        @attrs.define
        class AttrsForecast:
            city: str
            days: int = 1

        found["attrs"] = {"args_schema": AttrsForecast}
    if _has("toolparse_jsonschema"):
        found["jsonschema"] = {"args_schema": SCHEMA}
    return found


def corpus() -> dict[str, tp.Function]:
    functions: dict[str, tp.Function] = {}
    for label, declared in sources().items():
        for policy in POLICIES:
            functions[f"{label}, {policy}"] = tp.Function(
                "forecast", body, unknown_arguments=policy, **declared
            )
        functions[f"{label}, strict"] = tp.Function("forecast", body, strict=True, **declared)
        functions[f"{label}, async body"] = tp.Function("forecast", async_body, **declared)
    functions["parse_args"] = tp.Function(
        "forecast", body, parse_args=own_parser, parameters=PARAMS
    )
    functions["async parse_args"] = tp.Function(
        "forecast", body, parse_args=async_parser, parameters_schema=SCHEMA
    )
    functions["async parse_args and body"] = tp.Function(
        "forecast", async_body, parse_args=async_parser, unknown_arguments="reject"
    )
    return functions


CORPUS = corpus()

names = st.sampled_from(["city", "days", "note", "cty", "dayz", "extra"])
values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["Oslo", "", "3", "x y"]),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(names, inner, max_size=2),
    max_leaves=4,
)
arguments = st.dictionaries(names, values, max_size=4)


def shape(outcome: Any) -> tuple[Any, ...]:
    """What the model reads and the application keeps (exceptions are compared by kind)."""
    if isinstance(outcome, tp.Error):
        return ("error", outcome.message, type(outcome.exception).__name__)
    if isinstance(outcome, tp.Ok):
        return ("ok", outcome.value, outcome.processed_content)
    return ("other", outcome)


def through_parse(fn: tp.Function, sent: Any) -> tuple[Any, ...]:
    parsed = fn.parse_arguments(sent)
    if isinstance(parsed, tp.Error):
        return shape(parsed)
    call: Callable[..., Any] = fn.function
    result = call(parsed.value, None) if call is async_body else call(parsed.value)
    if inspect.isawaitable(result):
        result = asyncio.run(result)
    return shape(tp.Ok(result))


@pytest.mark.parametrize("label", sorted(CORPUS))
@settings(
    max_examples=15,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(sent=arguments)
def test_every_path_gives_the_same_outcome(label: str, sent: dict[str, Any]) -> None:
    fn = CORPUS[label]
    expected = shape(fn.execute(sent))
    assert shape(fn.execute(json.dumps(sent))) == expected
    assert shape(asyncio.run(fn.aexecute(sent))) == expected
    assert shape(asyncio.run(fn.aexecute(json.dumps(sent)))) == expected
    assert through_parse(fn, sent) == expected
    assert shape(asyncio.run(fn.aparse_arguments(sent))) == shape(fn.parse_arguments(sent))


def test_the_corpus_covers_the_paths() -> None:
    assert {"parameters, report", "parameters_schema, ignore", "plain dataclass, strict"} <= set(
        CORPUS
    )
    assert any(fn._async for fn in CORPUS.values())
    # with every adapter installed, every adapter is in it
    installed = {n for n in ("pydantic", "marshmallow", "attrs", "jsonschema") if _has(n)}
    labels = {label.partition(",")[0] for label in CORPUS}
    assert {"pydantic"} & installed <= labels
    assert {fn.adapter.name for fn in CORPUS.values() if fn.adapter is not None} >= {"plain"}
