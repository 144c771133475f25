"""Ollama's chat API, checked with the ``ollama`` package's own types and client."""

from __future__ import annotations

import ollama
import pytest

import toolparse as tp
from toolparse import providers

from .cases import PIXEL, PLAN_TRIP, no_args, plan_trip, with_params
from .corpus import CASES
from .payloads import ollama_reply
from .sdk_shapes import exact_ollama, ollama_request


def test_export_keeps_what_ollamas_types_keep_and_says_the_rest() -> None:
    tool = providers.to_tool(plan_trip(), "ollama")
    exact_ollama(ollama.Tool, tool)
    props = tool["function"]["parameters"]["properties"]
    assert props["city"] == PLAN_TRIP["properties"]["city"]
    assert props["unit"] == PLAN_TRIP["properties"]["unit"]
    assert props["stops"] == PLAN_TRIP["properties"]["stops"]  # items travel whole
    # a default has no place in ollama's Property: the model reads it in the description
    assert props["days"] == {
        "type": "integer",
        "description": "Trip length in days. (default: 3)",
    }
    assert tool["function"]["parameters"]["required"] == PLAN_TRIP["required"]


def test_nested_objects_and_unions_are_said_in_the_description() -> None:
    (tool,) = providers.to_tools([with_params()], "ollama", strict=True)  # no strict mode
    exact_ollama(ollama.Tool, tool)
    filters = tool["function"]["parameters"]["properties"]["filters"]
    assert filters["type"] == "object"
    assert '"lang"' in filters["description"]
    assert "required" in filters["description"]
    optional = tp.Function(
        "f",
        lambda a: "ok",
        parameters_schema={
            "type": "object",
            "properties": {"n": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
        },
    )
    (tool,) = providers.to_tools([optional], "ollama")
    assert tool["function"]["parameters"]["properties"]["n"] == {"type": ["integer", "null"]}


def test_every_corpus_export_survives_ollamas_types() -> None:
    for case in CASES:
        for tool in providers.to_tools([case.build()], "ollama"):
            exact_ollama(ollama.Tool, tool)


def test_a_whole_turn_through_the_ollama_client() -> None:
    tools = tp.Toolset([plan_trip(), no_args(), tp.Function("get.time", lambda a: "noon")])
    exported = tools.to_tools("ollama")
    reply = ollama_reply([("ping", {}), ("plan_trip", {"city": "Oslo"}), ("get_time", {})])
    calls = tools.parse_tool_calls(reply, "ollama")
    assert calls == [
        tp.ToolCall("ollama-call-1", "ping", {}),
        tp.ToolCall("ollama-call-2", "plan_trip", {"city": "Oslo"}),
        tp.ToolCall("ollama-call-3", "get.time", {}),  # the alias routed back
    ]
    answers = tools.to_result_message(tools.execute(calls), "ollama")
    assert [(a["tool_name"], a["content"][:7]) for a in answers] == [
        ("ping", "pong"),
        ("plan_trip", "Missing"),
        ("get_time", "noon"),  # the name the model called
    ]
    for answer in answers:
        exact_ollama(ollama.Message, answer)
    history = [{"role": "user", "content": "Go."}, reply.message, *answers]
    ollama_request(history, exported)


def test_shapes_it_reads_and_refuses() -> None:
    reply = ollama_reply([("ping", {})])
    for shape in (reply, reply.model_dump(), reply.message, reply.message.tool_calls):
        assert providers.parse_tool_calls(shape, "ollama") == [
            tp.ToolCall("ollama-call-1", "ping", {})
        ]
    given = {"id": "call_7", "function": {"name": "ping", "arguments": {}}}  # newer servers
    assert providers.parse_tool_calls([given], "ollama")[0].id == "call_7"
    assert providers.parse_tool_calls(ollama_reply([], text="Hi."), "ollama") == []
    with pytest.raises(ValueError, match=r"^ollama: expected"):
        providers.parse_tool_calls({"role": "assistant", "content": [{"type": "text"}]}, "ollama")


def test_images_go_in_images_and_urls_are_refused() -> None:
    (answer,) = providers.to_result_message(
        [tp.ToolResult("c1", "snap", [tp.TextPart("a pixel"), tp.ImagePart(PIXEL)])], "ollama"
    )
    assert answer == {"role": "tool", "content": "a pixel", "tool_name": "snap", "images": [PIXEL]}
    ollama_request([answer], [])  # the client sends the image as it came
    with pytest.raises(ValueError, match="cannot carry"):
        providers.to_result_message(
            [tp.ToolResult("c1", "snap", [tp.ImagePart("https://x.test/a.png", url=True)])],
            "ollama",
        )
