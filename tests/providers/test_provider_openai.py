from __future__ import annotations

import json
import re
from typing import Any

import pytest
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionMessage,
    ChatCompletionToolMessageParam,
    ChatCompletionToolParam,
)

import toolparse as tp
from toolparse import providers

from .cases import PIXEL, PLAN_TRIP, no_args, plan_trip, with_params
from .sdk_shapes import exact_param


def completion(*calls: tuple[str, str, str]) -> ChatCompletion:
    return ChatCompletion.model_validate(
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
                            {"id": i, "type": "function", "function": {"name": n, "arguments": a}}
                            for i, n, a in calls
                        ],
                    },
                }
            ],
        }
    )


# -- export --------------------------------------------------------------------


def test_non_strict_export_is_the_documented_shape() -> None:
    tool = providers.to_tool(plan_trip(), "openai")
    exact_param(ChatCompletionToolParam, tool)
    assert tool == {
        "type": "function",
        "function": {
            "name": "plan_trip",
            "description": "Plan a trip and return an itinerary.",
            "parameters": PLAN_TRIP,
        },
    }


def test_strict_export_closes_every_object_and_requires_every_property() -> None:
    tool = providers.to_tool(plan_trip(strict=True), "openai")
    exact_param(ChatCompletionToolParam, tool)
    function = tool["function"]
    assert function["strict"] is True
    params = function["parameters"]
    assert params["required"] == ["city", "unit", "stops", "days"]
    assert params["additionalProperties"] is False
    items = params["properties"]["stops"]["items"]
    assert items["additionalProperties"] is False
    assert items["required"] == ["name", "hours"]
    # the optional property is nullable and its default moved into words
    assert params["properties"]["days"] == {
        "type": ["integer", "null"],
        "description": "Trip length in days. (null means the default: 3)",
    }


def test_strict_argument_overrides_the_functions_own_flag() -> None:
    assert providers.to_tool(plan_trip(), "openai", strict=True)["function"]["strict"] is True
    loose = providers.to_tool(plan_trip(strict=True), "openai", strict=False)["function"]
    assert "strict" not in loose
    assert loose["parameters"] == PLAN_TRIP


def test_a_tool_without_arguments_still_has_properties() -> None:
    tool = providers.to_tool(no_args(), "openai")
    exact_param(ChatCompletionToolParam, tool)
    assert tool["function"]["parameters"] == {"type": "object", "properties": {}}
    strict = providers.to_tool(no_args(), "openai", strict=True)["function"]["parameters"]
    assert strict == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }


def test_function_params_export_in_both_modes() -> None:
    for strict in (False, True):
        tool = providers.to_tool(with_params(), "openai", strict=strict)
        exact_param(ChatCompletionToolParam, tool)
    params = providers.to_tool(with_params(), "openai", strict=True)["function"]["parameters"]
    assert params["properties"]["limit"] == {"type": ["integer", "null"], "enum": [5, 10, 20, None]}
    assert params["properties"]["filters"]["type"] == ["object", "null"]
    assert params["properties"]["filters"]["required"] == ["lang", "after"]


@pytest.mark.parametrize("name", ["a.b", "with space", "slash/name", "ünïcode"])
def test_names_outside_the_rule_get_an_alias(name: str) -> None:
    fn = tp.Function(name, lambda a: "x")
    exported = providers.to_tool(fn, "openai")["function"]["name"]
    assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", exported)


def test_a_description_over_1024_characters_is_refused() -> None:
    fn = tp.Function("long", lambda a: "x", description="d" * 1025)
    with pytest.raises(ValueError, match="1025 characters; at most 1024"):
        providers.to_tool(fn, "openai")
    ok = tp.Function("long", lambda a: "x", description="d" * 1024)
    assert providers.to_tool(ok, "openai")["function"]["description"] == "d" * 1024


def test_a_root_that_is_not_an_object_is_refused() -> None:
    fn = tp.Function("arr", lambda a: "x", parameters_schema={"type": "array"})
    with pytest.raises(ValueError, match='must be a JSON Schema of type "object"'):
        providers.to_tool(fn, "openai")


def test_strict_sends_a_map_as_a_json_string_and_refuses_an_open_root() -> None:
    schema = {
        "type": "object",
        "properties": {"tags": {"type": "object", "additionalProperties": {"type": "integer"}}},
    }
    fn = tp.Function("tagger", lambda a: "x", parameters_schema=schema, strict=True)
    tags = providers.to_tool(fn, "openai")["function"]["parameters"]["properties"]["tags"]
    assert tags["type"] == ["string", "null"]
    assert "a JSON object, encoded as a string" in tags["description"]
    assert providers.to_tool(fn, "openai", strict=False)["function"]["parameters"] == schema
    root = {"type": "object", "additionalProperties": {"type": "integer"}}
    fn = tp.Function("tagger", lambda a: "x", parameters_schema=root, strict=True)
    with pytest.raises(ValueError, match=r"openai: tool 'tagger'.*open map.*strict=False"):
        providers.to_tool(fn, "openai")


def test_to_tools_validates_each_and_checks_the_list() -> None:
    tools = providers.to_tools([plan_trip(strict=True), no_args(), with_params()], "openai")
    assert [t["function"]["name"] for t in tools] == ["plan_trip", "ping", "search"]
    for tool in tools:
        exact_param(ChatCompletionToolParam, tool)
    with pytest.raises(ValueError, match="two tools are named 'ping'"):
        providers.to_tools([no_args(), no_args()], "openai")
    many = [tp.Function(f"t{i}", lambda a: "x") for i in range(129)]
    with pytest.raises(ValueError, match="at most 128 tools"):
        providers.to_tools(many, "openai")
    assert len(providers.to_tools(many[:128], "openai")) == 128


# -- parsing ---------------------------------------------------------------------


def test_parses_calls_from_the_sdk_object_and_from_dicts() -> None:
    response = completion(("call_1", "plan_trip", '{"city":"Paris"}'), ("call_2", "ping", ""))
    expected = [
        tp.ToolCall("call_1", "plan_trip", '{"city":"Paris"}'),
        tp.ToolCall("call_2", "ping", ""),
    ]
    assert providers.parse_tool_calls(response, "openai") == expected
    assert providers.parse_tool_calls(response.model_dump(), "openai") == expected
    message = response.choices[0].message
    assert providers.parse_tool_calls(message, "openai") == expected
    assert providers.parse_tool_calls(message.tool_calls, "openai") == expected
    assert providers.parse_tool_calls(response.choices[0], "openai") == expected
    assert providers.parse_tool_calls(message.tool_calls[0], "openai") == expected[:1]


def test_a_reply_without_calls_has_none() -> None:
    message = ChatCompletionMessage(role="assistant", content="Hello")
    assert providers.parse_tool_calls(message, "openai") == []
    assert providers.parse_tool_calls({"choices": []}, "openai") == []


def test_custom_tool_calls_come_back_and_unknown_payloads_are_refused() -> None:
    custom = [{"id": "c", "type": "custom", "custom": {"name": "x", "input": "text"}}]
    assert providers.parse_tool_calls(custom, "openai") == [
        tp.ToolCall("c", "x", "text", kind="custom")
    ]
    with pytest.raises(ValueError, match="expected a ChatCompletion"):
        providers.parse_tool_calls("nonsense", "openai")


# -- results ---------------------------------------------------------------------


def test_results_become_tool_messages() -> None:
    results = [
        tp.ToolResult("call_1", "plan_trip", "Itinerary"),
        tp.ToolResult("call_2", "ping", "boom", is_error=True),
        tp.ToolResult("call_3", "ping", [tp.TextPart("a"), tp.TextPart("b")]),
        tp.ToolResult("call_4", "ping", None),
    ]
    messages = providers.to_result_message(results, "openai")
    for message in messages:
        exact_param(ChatCompletionToolMessageParam, message)
    assert messages == [
        {"role": "tool", "tool_call_id": "call_1", "content": "Itinerary"},
        {"role": "tool", "tool_call_id": "call_2", "content": "boom"},
        {
            "role": "tool",
            "tool_call_id": "call_3",
            "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
        },
        {"role": "tool", "tool_call_id": "call_4", "content": ""},
    ]


def test_images_and_missing_ids_are_refused() -> None:
    image = tp.ToolResult("call_1", "shot", [tp.ImagePart(PIXEL)])
    with pytest.raises(ValueError, match="openai cannot carry ImagePart in a tool message"):
        providers.to_result_message([image], "openai")
    with pytest.raises(ValueError, match="has no tool_call_id"):
        providers.to_result_message([tp.ToolResult(None, "ping", "x")], "openai")


# -- the whole round -------------------------------------------------------------------


def test_round_trip_with_strict_nulls_restored() -> None:
    fn = plan_trip(strict=True)
    args = {"city": "Paris", "unit": "celsius", "stops": [{"name": "Louvre", "hours": 2}]}
    response = completion(
        ("call_1", "plan_trip", json.dumps({**args, "days": None})),
        ("call_2", "plan_trip", json.dumps({**args, "days": 5})),
        ("call_3", "plan_trip", "{not json"),
        ("call_4", "nope", "{}"),
    )
    calls = providers.parse_tool_calls(response, "openai")
    results = tp.execute_tool_calls([fn], calls)
    messages: list[Any] = providers.to_result_message(results, "openai")
    for message in messages:
        exact_param(ChatCompletionToolMessageParam, message)
    assert [m["tool_call_id"] for m in messages] == ["call_1", "call_2", "call_3", "call_4"]
    # null for the optional "days" was restored to "absent": the default applied
    assert messages[0]["content"] == "Paris: 1 stops over 3 days"
    assert messages[1]["content"] == "Paris: 1 stops over 5 days"
    assert [r.is_error for r in results] == [False, False, True, True]


def test_a_made_up_id_is_none_the_response_holds_before_or_after_it() -> None:
    def call(call_id: str | None) -> dict[str, Any]:
        made = {"type": "function", "function": {"name": "ping", "arguments": "{}"}}
        return made if call_id is None else {"id": call_id, **made}

    message = {"role": "assistant", "tool_calls": [call("call_1"), call(None), call("call_2")]}
    calls = providers.parse_tool_calls(message, "openai")
    assert [c.id for c in calls] == ["call_1", "call_3", "call_2"]
    # without any id: numbered in order, each once
    ids = [c.id for c in providers.parse_tool_calls([call(None)] * 3, "openai")]
    assert ids == ["call_1", "call_2", "call_3"]
