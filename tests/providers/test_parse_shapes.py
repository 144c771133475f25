"""parse_tool_calls never loses a call: wrong shapes raise, every client-side call comes back."""

from __future__ import annotations

from typing import Any

import hypothesis.strategies as st
import pytest
from anthropic.types import Message
from google.genai import types as gt
from hypothesis import example, given, settings
from openai.types.chat import ChatCompletionToolMessageParam
from openai.types.responses.response_custom_tool_call_output_param import (
    ResponseCustomToolCallOutputParam,
)

import toolparse as tp
from toolparse import providers

from .payloads import REPLIES, anthropic_reply, gemini_reply, responses_reply
from .sdk_shapes import exact_model, exact_param

PROVIDERS = sorted(REPLIES)


def reply_of(provider: str) -> Any:
    return REPLIES[provider]([("plan_trip", {"city": "Paris"})])


@pytest.mark.parametrize("given", PROVIDERS)
@pytest.mark.parametrize("parser", PROVIDERS)
def test_a_payload_of_another_provider_raises(parser: str, given: str) -> None:
    payload = reply_of(given)
    if parser == given:
        (call,) = providers.parse_tool_calls(payload, parser)
        assert call.name == "plan_trip"
        return
    for shape in (payload, getattr(payload, "model_dump", lambda: payload)()):
        with pytest.raises(ValueError, match=f"^{parser}: expected .*another provider"):
            providers.parse_tool_calls(shape, parser)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_junk_raises_and_an_empty_reply_is_no_calls(provider: str) -> None:
    for junk in ("text", 42, None, {"unrelated": True}):
        with pytest.raises(ValueError, match=f"^{provider}: expected"):
            providers.parse_tool_calls(junk, provider)
    if provider == "mcp":
        assert providers.parse_tool_calls([], provider) == []
    else:
        empty = REPLIES[provider]([], text="All done.")
        assert providers.parse_tool_calls(empty, provider) == []


def test_openai_custom_calls_come_back_beside_function_calls() -> None:
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "ping", "arguments": "{}"}},
            {"id": "c2", "type": "custom", "custom": {"name": "sql", "input": "SELECT 1"}},
        ],
    }
    calls = providers.parse_tool_calls(message, "openai")
    assert calls == [
        tp.ToolCall("c1", "ping", "{}"),
        tp.ToolCall("c2", "sql", "SELECT 1", kind="custom"),
    ]
    sql = tp.Function("sql", lambda a: "1 row")  # a free-form tool gets its text as is
    results = tp.execute_tool_calls([sql, tp.Function("ping", lambda a: "pong")], calls)
    for message in providers.to_result_message(results, "openai"):
        exact_param(ChatCompletionToolMessageParam, message)


def test_responses_custom_calls_and_server_side_calls() -> None:
    reply = responses_reply(
        [("ping", {})],
        extra=[
            {
                "type": "custom_tool_call",
                "id": "ctc_1",
                "call_id": "call_c",
                "name": "sql",
                "input": "SELECT 1",
            },
            {
                "type": "web_search_call",
                "id": "ws_1",
                "status": "completed",
                "action": {"type": "search", "query": "x"},
            },
        ],
    )
    calls = providers.parse_tool_calls(reply, "openai-responses")
    assert [(c.id, c.name, c.kind) for c in calls] == [
        ("call_0_0", "ping", "function"),
        ("call_c", "sql", "custom"),
    ]
    assert calls[1].arguments == "SELECT 1"
    results = [tp.ToolResult("call_c", "sql", "1 row", kind="custom")]
    (item,) = providers.to_result_message(results, "openai-responses")
    assert item == {"type": "custom_tool_call_output", "call_id": "call_c", "output": "1 row"}
    exact_param(ResponseCustomToolCallOutputParam, item)
    # the kind travels from the call to its result
    (ran,) = tp.execute_tool_calls([tp.Function("sql", lambda a: "1 row")], calls[1:])
    assert ran.kind == "custom"
    assert (
        providers.to_result_message([ran], "openai-responses")[0]["type"]
        == "custom_tool_call_output"
    )


def test_anthropic_server_tool_use_is_skipped() -> None:
    reply = anthropic_reply(
        [("ping", {})],
        extra=[
            {
                "type": "server_tool_use",
                "id": "srvtoolu_1",
                "name": "web_search",
                "input": {"query": "x"},
            },
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
        ],
    )
    assert isinstance(reply, Message)
    assert providers.parse_tool_calls(reply, "anthropic") == [tp.ToolCall("toolu_0_0", "ping", {})]


def test_gemini_server_side_parts_are_skipped() -> None:
    reply = gt.GenerateContentResponse.model_validate(
        {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [
                            {"executableCode": {"language": "PYTHON", "code": "print(1)"}},
                            {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1"}},
                            {"functionCall": {"name": "ping", "args": {}}},
                        ],
                    }
                }
            ]
        }
    )
    assert [c.name for c in providers.parse_tool_calls(reply, "gemini")] == ["ping"]


def test_gemini_calls_without_ids_get_unique_ids_and_answers_match_back() -> None:
    reply = gemini_reply(
        [("schedule_meeting", {"who": "ana"}), ("schedule_meeting", {"who": "bo"})]
    )
    calls = providers.parse_tool_calls(reply, "gemini")
    assert len({c.id for c in calls}) == 2
    fn = tp.Function("schedule_meeting", lambda a: f"booked {a['who']}")
    results = tp.execute_tool_calls([fn], calls)
    assert [r.tool_call_id for r in results] == [c.id for c in calls]
    (content,) = providers.to_result_message(results, "gemini")
    exact_model(gt.Content, content)
    # no made-up id goes back: Gemini matches these by order and name
    assert content["parts"] == [
        {"functionResponse": {"name": "schedule_meeting", "response": {"output": "booked ana"}}},
        {"functionResponse": {"name": "schedule_meeting", "response": {"output": "booked bo"}}},
    ]


def test_gemini_ids_the_model_sent_go_back_even_when_equal_to_the_name() -> None:
    part = {"functionCall": {"id": "ping", "name": "ping", "args": {}}}
    (call,) = providers.parse_tool_calls({"parts": [part]}, "gemini")
    assert call.id == "ping"
    (result,) = tp.execute_tool_calls([tp.Function("ping", lambda a: "pong")], [call])
    (content,) = providers.to_result_message([result], "gemini")
    assert content["parts"][0]["functionResponse"]["id"] == "ping"


def test_calls_without_ids_get_ids_unique_within_the_response() -> None:
    calls = [
        {"type": "function", "function": {"name": "a", "arguments": "{}"}},
        {"id": "call_1", "type": "function", "function": {"name": "b", "arguments": "{}"}},
        {"type": "function", "function": {"name": "c", "arguments": "{}"}},
    ]
    ids = [c.id for c in providers.parse_tool_calls(calls, "openai")]
    assert len(set(ids)) == 3
    assert ids[1] == "call_1"
    blocks = [
        {"type": "tool_use", "name": "a", "input": {}},
        {"type": "tool_use", "name": "a", "input": {}},
    ]
    assert len({c.id for c in providers.parse_tool_calls(blocks, "anthropic")}) == 2
    params = [{"name": "a", "arguments": {}}, {"name": "a", "arguments": {}}]
    assert len({c.id for c in providers.parse_tool_calls(params, "mcp")}) == 2


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_call_with_no_name_becomes_an_error_result(provider: str) -> None:
    nameless: dict[str, Any] = {
        "openai": [{"id": "c1", "type": "function", "function": {"arguments": "{}"}}],
        "openai-responses": [{"type": "function_call", "call_id": "c1", "arguments": "{}"}],
        "anthropic": [{"type": "tool_use", "id": "c1", "input": {}}],
        "gemini": [{"functionCall": {"name": None, "args": {}}}],
        "mcp": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": None}},
        "bedrock": [{"toolUse": {"toolUseId": "c1", "input": {}}}],
        "ollama": [{"function": {"arguments": {}}}],
    }
    (call,) = providers.parse_tool_calls(nameless[provider], provider)
    assert call.name is None
    (result,) = tp.execute_tool_calls([tp.Function("ping", lambda a: "pong")], [call])
    assert result.is_error
    assert result.text == "Tool call made without a tool name. Available tools: ping."
    assert providers.to_result_message([result], provider)


def test_mcp_batches_skip_other_requests_and_refuse_a_lone_other_method() -> None:
    batch = [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "ping"}},
        {"jsonrpc": "2.0", "id": 3, "result": {}},
    ]
    assert providers.parse_tool_calls(batch, "mcp") == [tp.ToolCall("2", "ping", None)]
    with pytest.raises(ValueError, match="expected a tools/call request"):
        providers.parse_tool_calls({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "mcp")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
KEYS = st.sampled_from(
    [
        "choices",
        "message",
        "tool_calls",
        "function",
        "custom",
        "id",
        "type",
        "name",
        "arguments",
        "output",
        "call_id",
        "content",
        "input",
        "candidates",
        "parts",
        "functionCall",
        "args",
        "method",
        "params",
        "role",
        "text",
    ]
)
SHAPED = st.recursive(
    JSON,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None)
@given(payload=SHAPED, provider=st.sampled_from(PROVIDERS))
@example(payload={"choices": None, "parts": True}, provider="gemini")  # parts that are no list
def test_any_payload_is_calls_or_a_value_error_and_every_call_is_answered(
    payload: Any, provider: str
) -> None:
    try:
        calls = providers.parse_tool_calls(payload, provider)
    except ValueError:
        return
    assert all(isinstance(call, tp.ToolCall) for call in calls)
    results = tp.execute_tool_calls([tp.Function("ping", lambda a: "pong")], calls)
    assert len(results) == len(calls)
    providers.to_result_message(results, provider)  # never a crash
