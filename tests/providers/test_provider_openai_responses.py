from __future__ import annotations

import json
import typing
from typing import Any

import pytest
from openai.types.responses import FunctionToolParam, Response
from openai.types.responses.response_input_param import FunctionCallOutput

import toolparse as tp
from toolparse import providers

from .cases import PIXEL, PLAN_TRIP, no_args, plan_trip
from .sdk_shapes import exact_param


def response(*calls: tuple[str, str, str]) -> Response:
    return Response.model_validate(
        {
            "id": "resp_1",
            "created_at": 0,
            "model": "gpt-5",
            "object": "response",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": [
                {"type": "reasoning", "id": "rs_1", "summary": []},
                *(
                    {
                        "type": "function_call",
                        "id": f"fc_{i}",
                        "call_id": call_id,
                        "name": name,
                        "arguments": arguments,
                        "status": "completed",
                    }
                    for i, (call_id, name, arguments) in enumerate(calls)
                ),
            ],
        }
    )


def test_export_is_flat_and_always_says_strict() -> None:
    tool = providers.to_tool(plan_trip(), "openai-responses")
    exact_param(FunctionToolParam, tool)
    assert tool == {
        "type": "function",
        "name": "plan_trip",
        "description": "Plan a trip and return an itinerary.",
        "parameters": PLAN_TRIP,
        "strict": False,
    }


def test_strict_export_matches_the_chat_completions_one() -> None:
    tool = providers.to_tool(plan_trip(strict=True), "openai-responses")
    exact_param(FunctionToolParam, tool)
    chat = providers.to_tool(plan_trip(strict=True), "openai")["function"]
    assert tool["strict"] is True
    assert tool["parameters"] == chat["parameters"]


def test_no_args_and_no_description() -> None:
    fn = tp.Function("ping", lambda a: "pong")
    tool = providers.to_tool(fn, "openai-responses")
    exact_param(FunctionToolParam, tool)
    assert "description" not in tool
    assert tool["parameters"] == {"type": "object", "properties": {}}


def test_names_follow_the_openai_rule() -> None:
    assert providers.to_tool(tp.Function("a.b", lambda a: "x"), "openai-responses")["name"] == "a_b"
    with pytest.raises(ValueError, match="two tools are named"):
        providers.to_tools([no_args(), no_args()], "openai-responses")


def test_parses_function_call_items_by_call_id() -> None:
    reply = response(("call_1", "plan_trip", '{"city":"Paris"}'), ("call_2", "ping", "{}"))
    expected = [
        tp.ToolCall("call_1", "plan_trip", '{"city":"Paris"}'),
        tp.ToolCall("call_2", "ping", "{}"),
    ]
    assert providers.parse_tool_calls(reply, "openai-responses") == expected
    assert providers.parse_tool_calls(reply.model_dump(), "openai-responses") == expected
    assert providers.parse_tool_calls(reply.output, "openai-responses") == expected
    assert providers.parse_tool_calls(reply.output[1], "openai-responses") == expected[:1]
    assert providers.parse_tool_calls(response(), "openai-responses") == []
    with pytest.raises(ValueError, match=r"expected a Response.*; got an int"):
        providers.parse_tool_calls(42, "openai-responses")


@pytest.mark.parametrize(
    "payload",
    [
        {"type": "tool_call", "name": "ping", "args": {}, "id": "call_1"},
        [{"type": "tool_call", "name": "ping", "args": {}, "id": "call_1"}],
        {"type": "ai", "content": "", "tool_calls": [{"name": "ping", "args": {}, "id": "c"}]},
    ],
    ids=["tool_call", "tool_call-list", "ai-message"],
)
def test_an_item_of_a_type_responses_does_not_define_is_refused(payload: Any) -> None:
    # read as [] a loop would take it for "the model is done" and drop the call
    with pytest.raises(ValueError, match=r"expected a Response.*another provider"):
        providers.parse_tool_calls(payload, "openai-responses")


def test_a_langchain_message_with_a_tool_call_is_refused() -> None:
    messages = pytest.importorskip("langchain_core.messages")
    message = messages.AIMessage("", tool_calls=[{"name": "ping", "args": {}, "id": "call_1"}])
    with pytest.raises(ValueError, match="of type 'ai'"):
        providers.parse_tool_calls(message, "openai-responses")


def test_every_output_item_type_of_the_sdk_is_read() -> None:
    from openai.types.responses import ResponseOutputItem

    union = typing.get_args(ResponseOutputItem)[0]
    kinds = {typing.get_args(m.model_fields["type"].annotation)[0] for m in typing.get_args(union)}
    assert {"message", "function_call"} <= kinds
    for kind in kinds - {"function_call", "custom_tool_call"}:
        # no call id: nothing to answer, but never refused as another provider's
        assert providers.parse_tool_calls([{"type": kind}], "openai-responses") == [], kind


def test_results_become_function_call_outputs_with_images() -> None:
    results = [
        tp.ToolResult("call_1", "plan_trip", "Itinerary"),
        tp.ToolResult(
            "call_2",
            "shot",
            [
                tp.TextPart("Here:"),
                tp.ImagePart(PIXEL, options={"detail": "low"}),
                tp.ImagePart("https://example.com/a.png", url=True),
            ],
        ),
        tp.ToolResult("call_3", "ping", "boom", is_error=True),
    ]
    items = providers.to_result_message(results, "openai-responses")
    for item in items:
        exact_param(FunctionCallOutput, item)
    assert items[0] == {"type": "function_call_output", "call_id": "call_1", "output": "Itinerary"}
    assert items[1]["output"] == [
        {"type": "input_text", "text": "Here:"},
        {"type": "input_image", "image_url": f"data:image/png;base64,{PIXEL}", "detail": "low"},
        {"type": "input_image", "image_url": "https://example.com/a.png"},
    ]
    assert items[2]["output"] == "boom"


def test_round_trip() -> None:
    fn = plan_trip(strict=True)
    args = {"city": "Oslo", "unit": "celsius", "stops": [], "days": None}
    calls = providers.parse_tool_calls(
        response(("call_1", "plan_trip", json.dumps(args))), "openai-responses"
    )
    items: list[Any] = providers.to_result_message(
        tp.execute_tool_calls([fn], calls), "openai-responses"
    )
    assert items == [
        {"type": "function_call_output", "call_id": "call_1", "output": "Oslo: 0 stops over 3 days"}
    ]
