"""Generated input over the adapter paths: every call is a result, every message capped."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, TypedDict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

import toolparse as tp
from toolparse import messages


@dataclasses.dataclass
class Point:
    x: float
    label: str = ""


class Options(TypedDict):
    name: str
    count: int


class Invoice(BaseModel):
    vendor: str
    total: float


_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 20},
        "n": {"type": "number", "multipleOf": 0.5},
    },
    "required": ["name"],
}


def _tools() -> list[tp.Function]:
    from toolparse_jsonschema import JsonSchema

    body = lambda a: "ok"  # noqa: E731
    return [
        tp.Function("params", body, parameters=[tp.FunctionParam("name", "string", required=True)]),
        tp.Function("schema", body, parameters_schema=_SCHEMA),
        tp.Function("point", body, args_schema=Point),
        tp.Function("options", body, args_schema=Options),
        tp.Function("invoice", body, args_schema=Invoice),
        tp.Function("fast", body, args_schema=JsonSchema(_SCHEMA, fast=True)),
        tp.Function("pure", body, args_schema=JsonSchema(_SCHEMA, fast=False)),
    ]


TOOLS = _tools()

_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**500), max_value=10**500),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
)
_json = st.recursive(
    _leaf,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=20,
)
_keys = st.one_of(
    st.sampled_from(["name", "x", "label", "count", "vendor", "total", "n"]), st.text(max_size=12)
)
_mappings = st.dictionaries(_keys, _json, max_size=8)


def _check(result: Any) -> None:
    assert isinstance(result, (tp.Ok, tp.Error))
    if isinstance(result, tp.Error):
        assert isinstance(result.message, str)
        assert len(result.message) <= messages.MAX_MESSAGE_CHARS
        assert " at 0x" not in result.message


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(_mappings)
def test_any_mapping_is_a_result(arguments: dict[str, Any]) -> None:
    for fn in TOOLS:
        _check(fn.execute(arguments))


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(_mappings, st.sampled_from(["", "\ufeff", " "]), st.booleans())
def test_any_json_text_is_a_result(arguments: dict[str, Any], prefix: str, surrogate: bool) -> None:
    try:
        text = prefix + json.dumps(arguments)
    except ValueError:  # an integer past Python's text limit
        return
    if surrogate:
        text = text[:-1] + ', "zz": "\ud800"}' if text.endswith("}") and len(text) > 3 else text
    for fn in TOOLS:
        _check(fn.execute(text))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(_json)
def test_any_non_object_is_a_result(value: Any) -> None:
    for fn in TOOLS:
        _check(fn.execute(value))


def test_a_thousand_mixed_calls_in_order_with_the_right_ids() -> None:
    calls = [
        tp.ToolCall(f"id-{i}", TOOLS[i % len(TOOLS)].name, {"name": "a"} if i % 3 else '{"bad json')
        for i in range(1_000)
    ]
    results = tp.execute_tool_calls(TOOLS, calls)
    assert [r.tool_call_id for r in results] == [c.id for c in calls]
    assert all(r.is_error for i, r in enumerate(results) if i % 3 == 0)
