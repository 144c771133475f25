"""Whatever the model sends, execute returns an outcome and never raises."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse import FunctionParam as P

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
anything = json_values | st.binary(max_size=20) | st.text(max_size=40) | st.builds(object)
OUTCOMES = (tp.Ok, tp.Error, tp.Interrupt)


def body(arguments: Any) -> str:
    return f"{arguments['city']} {arguments.get('units')}"


TOOLS = [
    tp.Function(
        "weather", body, parameters=[P("city", "string", required=True), P("units", "string")]
    ),
    tp.Function(
        "weather",
        body,
        parameters_schema={"type": "object", "properties": {"city": {}}, "required": ["city"]},
    ),
    tp.Function(
        "weather", body, parameters=[P("city", "string", required=True)], unknown_arguments="reject"
    ),
    tp.Function(
        "weather", body, parameters=[P("city", "string", required=True)], unknown_arguments="ignore"
    ),
    tp.Function("weather", body, parse_args=lambda a: tp.ok({"city": str(a.get("city")), **a})),
    tp.Function(
        "weather", body, parameters=[P("city", "string"), P("units", "string")], strict=True
    ),
]


@settings(max_examples=150, deadline=None)
@given(value=json_values)
def test_any_json_value_as_arguments(value: Any) -> None:
    for fn in TOOLS:
        assert type(fn.execute(value)) in OUTCOMES
        assert type(fn.execute(json.dumps(value))) in OUTCOMES
        assert type(fn.parse_arguments(value)) in (tp.Ok, tp.Error)


@settings(max_examples=100, deadline=None)
@given(value=anything)
def test_anything_at_all(value: Any) -> None:
    for fn in TOOLS:
        assert type(fn.execute(value)) in OUTCOMES


@settings(max_examples=100, deadline=None)
@given(args=st.dictionaries(st.text(max_size=10), json_values, max_size=6))
def test_any_object_async_too(args: dict[str, Any]) -> None:
    for fn in TOOLS[:2]:
        assert type(asyncio.run(fn.aexecute(args))) in OUTCOMES


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=60))
def test_any_text_as_arguments(text: str) -> None:
    result = TOOLS[0].execute(text)
    assert type(result) in OUTCOMES
    if isinstance(result, tp.Error):
        assert len(result.message) <= 2000


@settings(max_examples=50, deadline=None)
@given(
    names=st.lists(
        st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,11}", fullmatch=True), min_size=1, max_size=5
    ),
    args=st.dictionaries(st.text(max_size=12), st.integers(), max_size=8),
)
def test_messages_stay_within_limits(names: list[str], args: dict[str, Any]) -> None:
    fn = tp.Function(
        "t", lambda a: "x", parameters=[P(n, "string", required=True) for n in dict.fromkeys(names)]
    )
    result = fn.execute(args)
    if isinstance(result, tp.Error):
        assert len(result.message) <= 2000 or len(args) > 20


def test_deep_and_huge_inputs_never_crash() -> None:
    deep = "[" * 50_000 + "]" * 50_000
    for fn in TOOLS:
        assert isinstance(fn.execute('{"city": ' + deep + "}"), tp.Error)
    huge = '{"city": "' + "x" * (2 * 1024 * 1024) + '"}'
    assert isinstance(TOOLS[0].execute(huge), tp.Error)


@settings(max_examples=50, deadline=None)
@given(
    calls=st.lists(st.tuples(st.text(max_size=8), st.text(max_size=30) | json_values), max_size=5)
)
def test_batches_always_give_one_result_per_call(calls: list[tuple[str, Any]]) -> None:
    tool_calls = [tp.ToolCall(str(i), name, args) for i, (name, args) in enumerate(calls)]
    results = tp.execute_tool_calls(TOOLS[:1], tool_calls)
    assert [r.tool_call_id for r in results] == [c.id for c in tool_calls]
