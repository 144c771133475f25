"""``toolparse.check_calls``: every record shape, rejection reasons, and a function safe to map over batches."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse.checking import CallCheck, detect_format


def weather_tool() -> tp.Function:
    return tp.Function(
        "weather",
        lambda a: "sunny",
        parameters=[
            tp.FunctionParam("city", "string", required=True),
            tp.FunctionParam("units", "string"),
        ],
    )


TOOLS = [weather_tool(), tp.Function("math.factorial", lambda a: "1")]


def check(*records: Any, **kwargs: Any) -> list[CallCheck]:
    return list(tp.check_calls(TOOLS, records, **kwargs))


# -- shapes ----------------------------------------------------------------------


def test_plain_records_as_dicts_lines_bytes_and_tool_calls() -> None:
    good = {"id": "c1", "name": "weather", "arguments": {"city": "Oslo"}}
    results = check(
        good,
        json.dumps(good),
        json.dumps(good).encode(),
        tp.ToolCall("c1", "weather", '{"city": "Oslo"}'),
        {"name": "weather", "arguments": '{"city": "Oslo"}'},
    )
    assert [(r.record, r.accepted, r.format) for r in results] == [
        (i, True, "plain") for i in range(5)
    ]
    assert results[0].id == "c1"
    assert results[4].id is None


def test_openai_chat_completion_sdk_object_and_its_json() -> None:
    from openai.types.chat import ChatCompletion

    completion = ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": "gpt-5",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "a",
                                "type": "function",
                                "function": {"name": "weather", "arguments": '{"city": "Oslo"}'},
                            },
                            {
                                "id": "b",
                                "type": "function",
                                "function": {"name": "weather", "arguments": "{}"},
                            },
                        ],
                    },
                }
            ],
        }
    )
    for record in (completion, completion.model_dump_json()):
        results = check(record)
        assert [(r.call, r.id, r.accepted, r.format) for r in results] == [
            (0, "a", True, "openai"),
            (1, "b", False, "openai"),
        ]
        assert results[1].reasons == ("city: is required",)


def test_openai_responses_sdk_object() -> None:
    from openai.types.responses import Response

    response = Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 0,
            "model": "gpt-5",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": [
                {
                    "type": "function_call",
                    "id": "fc_1",
                    "call_id": "call_1",
                    "name": "weather",
                    "arguments": '{"city": "Oslo"}',
                }
            ],
        }
    )
    for record in (response, response.model_dump_json()):
        [result] = check(record)
        assert (result.id, result.accepted, result.format) == ("call_1", True, "openai-responses")


def test_anthropic_message_sdk_object() -> None:
    from anthropic.types import Message

    message = Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
            "content": [
                {"type": "text", "text": "Let me check."},
                {"type": "tool_use", "id": "t1", "name": "weather", "input": {"cty": "Oslo"}},
            ],
        }
    )
    for record in (message, message.model_dump_json(), message.model_dump()["content"][1]):
        [result] = check(record)
        assert (result.id, result.accepted, result.format) == ("t1", False, "anthropic")
        assert result.reasons == ("city: is required", "cty: unrecognized parameter")
        assert 'did you mean "city"' in (result.message or "")


def test_gemini_response_sdk_object() -> None:
    from google.genai import types as gt

    response = gt.GenerateContentResponse.model_validate(
        {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [{"functionCall": {"name": "weather", "args": {"city": "Oslo"}}}],
                    },
                    "finishReason": "STOP",
                }
            ]
        }
    )
    for record in (response, response.model_dump_json()):
        [result] = check(record)
        assert (result.name, result.accepted, result.format) == ("weather", True, "gemini")


def test_mcp_call_tool_request_sdk_object() -> None:
    import mcp.types as mt

    request = mt.JSONRPCRequest(
        jsonrpc="2.0",
        id=7,
        method="tools/call",
        params={"name": "weather", "arguments": {"city": "Oslo"}},
    )
    for record in (request, request.model_dump_json()):
        [result] = check(record)
        assert (result.id, result.accepted, result.format) == ("7", True, "mcp")


def test_a_record_without_calls_yields_nothing() -> None:
    assert check({"role": "assistant", "content": "Hello"}, "", "  \n") == []
    assert check(b"", b" \t\r\n", bytearray(b"\n"), "\u3000") == []
    [bad] = check(b"  {\n")
    assert bad.reasons == ("unreadable record",)
    assert (bad.message or "").startswith("not JSON (")


def test_format_can_be_forced_and_must_be_known() -> None:
    [result] = check({"name": "weather", "arguments": {"city": "x"}}, format="mcp")
    assert (result.accepted, result.format) == (True, "mcp")
    [wrong] = check({"choices": []}, format="plain")
    assert wrong.reasons == ("unreadable record",)
    with pytest.raises(ValueError, match="unknown format 'xml'"):
        check({}, format="xml")


class _AcmeProvider:
    """A plugin's provider with a shape of its own."""

    name = "acme"

    def parse_tool_calls(self, payload: Any) -> list[tp.ToolCall]:
        call = payload["acme_call"]
        return [tp.ToolCall(call["ref"], call["tool"], call["params"])]


class _AcmePlugin:
    @tp.hookimpl
    def toolparse_register_providers(self, register: Any) -> None:
        register(_AcmeProvider())


@pytest.fixture
def acme() -> Any:
    pm = tp.plugin_manager()
    plugin = _AcmePlugin()
    pm.register(plugin, name="acme-test")
    yield
    pm.unregister(plugin)


@pytest.mark.usefixtures("acme")
def test_a_plugins_provider_reads_its_own_shape() -> None:
    record = {"acme_call": {"ref": "r1", "tool": "weather", "params": {"city": "Oslo"}}}
    [auto] = check(record)
    [named] = check(record, format="acme")
    assert (auto.id, auto.accepted, auto.format) == ("r1", True, "acme")
    assert named == auto


def test_detect_format() -> None:
    assert detect_format({"name": "a", "arguments": {}}) == "plain"
    assert detect_format({"type": "function_call", "name": "a"}) == "openai-responses"
    assert detect_format({"type": "tool_use", "name": "a", "input": {}}) == "anthropic"
    assert detect_format({"id": "x", "type": "function", "function": {}}) == "openai"
    assert detect_format({"name": "a", "args": {}}) == "gemini"
    assert detect_format({"method": "tools/call"}) == "mcp"
    assert detect_format([{"name": "a"}]) == "plain"
    assert detect_format(3) is None
    assert detect_format({"hello": 1}) is None


# -- reasons ---------------------------------------------------------------------


def test_reasons_are_short_and_the_same_for_the_same_mistake() -> None:
    results = check(
        {"name": "weathr", "arguments": {}},
        {"name": "weather", "arguments": "{bad"},
        {"name": "weather", "arguments": "[1]"},
        "not json",
        {"hello": "there"},
    )
    assert [r.reasons for r in results] == [
        ("unknown tool",),
        ("invalid JSON",),
        ("arguments are not an object",),
        ("unreadable record",),
        ("unreadable record",),
    ]
    assert results[0].tool is None
    assert 'Did you mean "weather"?' in (results[0].message or "")
    assert results[3].message is not None
    assert results[3].message.startswith("not JSON")


def order_tool() -> tp.Function:
    """A pydantic tool taking a list of objects (skips where pydantic's adapter is missing)."""
    pydantic = pytest.importorskip("pydantic")
    pytest.importorskip("toolparse_pydantic")

    class Item(pydantic.BaseModel):
        qty: int

    class Order(pydantic.BaseModel):
        items: list[Item]

    return tp.Function("order", lambda o: "ok", args_schema=Order)


def test_list_positions_are_left_out_of_reasons() -> None:
    order = order_tool()
    results = list(
        tp.check_calls(
            [order],
            [
                {"name": "order", "arguments": {"items": [{"qty": 1}, {"qty": "x"}]}},
                {"name": "order", "arguments": {"items": [{"qty": "y"}]}},
            ],
        )
    )
    assert results[0].reasons == results[1].reasons
    assert results[0].reasons[0].startswith("items[*].qty: ")


def test_a_call_under_a_providers_alias_is_checked_against_its_tool() -> None:
    [result] = check({"name": "math_factorial", "arguments": {}})
    assert (result.name, result.tool, result.accepted) == ("math_factorial", "math.factorial", True)


def test_an_alias_two_tools_share_is_checked_as_it_runs_an_unknown_tool() -> None:
    # "a.b" and "a:b" are both "a_b" for OpenAI: running "a_b" finds neither
    tools = [tp.Function("a.b", lambda a: "1"), tp.Function("a:b", lambda a: "2")]
    [ran] = tp.execute_tool_calls(tools, [tp.ToolCall("c1", "a_b", {})])
    [result] = tp.check_calls(tools, [{"name": "a_b", "arguments": {}}])
    assert ran.is_error
    assert (result.tool, result.accepted, result.message) == (None, False, ran.content)


# -- a function to map over batches -----------------------------------------------


def test_the_function_and_its_results_pickle() -> None:
    assert pickle.loads(pickle.dumps(tp.check_calls)) is tp.check_calls
    [result] = check({"name": "weather", "arguments": {}})
    assert pickle.loads(pickle.dumps(result)) == result
    assert json.loads(json.dumps(result.as_dict()))["reasons"] == ["city: is required"]


def test_as_dict_is_every_field_in_order() -> None:
    results = check(
        {"name": "weather", "arguments": {"town": 1}},
        {"name": "weather", "arguments": {"city": "x"}},
    )
    for result in results:
        assert result.as_dict() == {**dataclasses.asdict(result), "reasons": list(result.reasons)}
        assert list(result.as_dict()) == [f.name for f in dataclasses.fields(result)]


def test_batches_give_what_the_whole_gives() -> None:
    records = [{"name": "weather", "arguments": {"city": "x"} if i % 3 else {}} for i in range(25)]
    whole = check(*records)
    batched = [
        r
        for start in range(0, 25, 10)
        for r in tp.check_calls(TOOLS, records[start : start + 10], start=start)
    ]
    assert batched == whole
    # stateless: two runs side by side do not see each other
    a = tp.check_calls(TOOLS, records)
    b = tp.check_calls(TOOLS, records[::-1])
    pairs = list(itertools.islice(zip(a, b, strict=True), 25))
    assert [p[0] for p in pairs] == whole
    # a partial of it is what an engine's map_batches takes
    mapped = functools.partial(tp.check_calls, TOOLS)
    assert list(mapped(records)) == whole


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
KEYS = st.sampled_from(
    [
        "name",
        "arguments",
        "args",
        "input",
        "type",
        "id",
        "function",
        "choices",
        "content",
        "role",
        "parts",
        "params",
        "method",
        "output",
        "candidates",
    ]
)
RECORDS = JSON | st.dictionaries(KEYS, JSON, max_size=5)


@settings(max_examples=50, deadline=None)
@given(st.lists(RECORDS | RECORDS.map(json.dumps) | st.text(max_size=20), max_size=4))
def test_no_record_makes_it_raise(records: list[Any]) -> None:
    for result in tp.check_calls(TOOLS, records):
        assert result.accepted == (not result.reasons)
        assert result.accepted == (result.message is None)


ARGUMENTS = st.dictionaries(st.sampled_from(["city", "units", "town", "x", "y"]), JSON, max_size=3)
ITEMS = st.fixed_dictionaries(
    {"items": st.lists(st.dictionaries(st.just("qty"), JSON), max_size=3)}
)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["weather", "order"]), ARGUMENTS | ITEMS), max_size=12))
def test_a_record_is_checked_as_it_would_be_alone(calls: list[tuple[str, Any]]) -> None:
    # what the check remembers between records (reasons, messages) changes no result
    tools = [*TOOLS, order_tool()]
    records = [{"name": name, "arguments": arguments} for name, arguments in calls]
    alone = [r for i, x in enumerate(records) for r in tp.check_calls(tools, [x], start=i)]
    assert list(tp.check_calls(tools, records)) == alone


def test_past_what_is_remembered_reasons_are_the_same() -> None:
    strict = weather_tool().replace(unknown_arguments="reject")
    records = [{"name": "weather", "arguments": {"city": "x", f"n{i}": 1}} for i in range(1100)]
    results = list(tp.check_calls([strict], [*records, records[-1], records[0]]))
    assert [r.reasons for r in results[-2:]] == [
        ("n1099: unrecognized parameter",),
        ("n0: unrecognized parameter",),
    ]
    assert results[-1] == dataclasses.replace(results[0], record=1101)
