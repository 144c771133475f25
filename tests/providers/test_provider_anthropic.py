from __future__ import annotations

import pytest
from anthropic.types import Message, MessageParam, ToolParam

import toolparse as tp
from toolparse import providers

from .cases import PIXEL, PLAN_TRIP, no_args, plan_trip, with_params
from .sdk_shapes import exact_param


def message(*blocks: dict[str, object]) -> Message:
    return Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
            "content": [{"type": "text", "text": "Let me check."}, *blocks],
        }
    )


def tool_use(id_: str, name: str, args: dict[str, object]) -> dict[str, object]:
    return {"type": "tool_use", "id": id_, "name": name, "input": args}


# -- export --------------------------------------------------------------------


def test_export_is_the_documented_shape() -> None:
    tool = providers.to_tool(plan_trip(), "anthropic")
    exact_param(ToolParam, tool)
    assert tool == {
        "name": "plan_trip",
        "description": "Plan a trip and return an itinerary.",
        "input_schema": PLAN_TRIP,
    }


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (True, {"type": "ephemeral"}),
        ("1h", {"type": "ephemeral", "ttl": "1h"}),
        ({"type": "ephemeral", "ttl": "5m"}, {"type": "ephemeral", "ttl": "5m"}),
    ],
)
def test_cache_control_option(value: object, expected: dict[str, str]) -> None:
    tool = providers.to_tool(plan_trip(cache_control=value), "anthropic")
    exact_param(ToolParam, tool)
    assert tool["cache_control"] == expected


def test_bad_cache_control_and_false_cache_control() -> None:
    with pytest.raises(ValueError, match="cache_control must be True"):
        providers.to_tool(plan_trip(cache_control="forever"), "anthropic")
    assert "cache_control" not in providers.to_tool(plan_trip(cache_control=False), "anthropic")


def test_strict_keeps_optional_properties_optional_and_closes_objects() -> None:
    tool = providers.to_tool(plan_trip(strict=True), "anthropic")
    exact_param(ToolParam, tool)
    assert tool["strict"] is True
    schema = tool["input_schema"]
    assert schema["required"] == ["city", "unit", "stops"]
    assert schema["additionalProperties"] is False
    assert schema["properties"]["stops"]["items"]["additionalProperties"] is False
    # optional stays optional: no null union, the default is supported
    assert schema["properties"]["days"] == PLAN_TRIP["properties"]["days"]


def test_strict_describes_what_it_cannot_decode() -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 1, "maximum": 9},
            "s": {"type": "string", "maxLength": 5, "format": "uri"},
            "xs": {"type": "array", "items": {"type": "string"}, "minItems": 2},
            "one": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        },
    }
    fn = tp.Function("f", lambda a: "x", parameters_schema=schema, strict=True)
    props = providers.to_tool(fn, "anthropic")["input_schema"]["properties"]
    assert props["n"] == {"type": "integer", "description": "(minimum: 1; maximum: 9)"}
    assert props["s"] == {"type": "string", "format": "uri", "description": "(maxLength: 5)"}
    assert props["xs"]["description"] == "(minItems: 2)"
    assert props["one"]["minItems"] == 1


def test_strict_refuses_recursion() -> None:
    schema = {
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Node"}},
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
            }
        },
    }
    fn = tp.Function("f", lambda a: "x", parameters_schema=schema, strict=True)
    with pytest.raises(ValueError, match=r"anthropic: tool 'f'.*recursive"):
        providers.to_tool(fn, "anthropic")
    assert providers.to_tool(fn, "anthropic", strict=False)["input_schema"] == schema


@pytest.mark.parametrize("key", ["anyOf", "oneOf"])
def test_top_level_composition_is_refused(key: str) -> None:
    schema = {"type": "object", key: [{"required": ["a"]}, {"required": ["b"]}]}
    fn = tp.Function("f", lambda a: "x", parameters_schema=schema)
    with pytest.raises(ValueError, match=f"may not use {key} at the top level"):
        providers.to_tool(fn, "anthropic")


def test_a_top_level_all_of_is_merged() -> None:
    schema = {"type": "object", "allOf": [{"required": ["a"]}, {"required": ["b"]}]}
    fn = tp.Function("f", lambda a: "x", parameters_schema=schema)
    assert providers.to_tool(fn, "anthropic")["input_schema"] == {
        "type": "object",
        "required": ["a", "b"],
    }
    clash = {"type": "object", "allOf": [{"type": "object"}, {"type": "string"}]}
    fn = tp.Function("f", lambda a: "x", parameters_schema=clash)
    with pytest.raises(ValueError, match="may not use allOf at the top level"):
        providers.to_tool(fn, "anthropic")


def test_names_outside_the_rule_get_an_alias() -> None:
    assert providers.to_tool(tp.Function("server.tool", lambda a: "x"), "anthropic")["name"] == (
        "server_tool"
    )
    tools = providers.to_tools([plan_trip(), no_args(), with_params()], "anthropic")
    for tool in tools:
        exact_param(ToolParam, tool)


# -- parsing ---------------------------------------------------------------------


def test_parses_tool_use_blocks_from_objects_and_dicts() -> None:
    reply = message(
        tool_use("toolu_1", "plan_trip", {"city": "Paris"}), tool_use("toolu_2", "ping", {})
    )
    expected = [
        tp.ToolCall("toolu_1", "plan_trip", {"city": "Paris"}),
        tp.ToolCall("toolu_2", "ping", {}),
    ]
    assert providers.parse_tool_calls(reply, "anthropic") == expected
    assert providers.parse_tool_calls(reply.model_dump(), "anthropic") == expected
    assert providers.parse_tool_calls(reply.content, "anthropic") == expected
    assert providers.parse_tool_calls(reply.content[2], "anthropic") == expected[1:]
    param = {"role": "assistant", "content": "just text"}
    assert providers.parse_tool_calls(param, "anthropic") == []
    with pytest.raises(ValueError, match="expected a Message"):
        providers.parse_tool_calls(None, "anthropic")


# -- results ---------------------------------------------------------------------


def test_results_go_back_in_one_user_message() -> None:
    results = [
        tp.ToolResult("toolu_1", "plan_trip", "Itinerary"),
        tp.ToolResult("toolu_2", "plan_trip", "city not found", is_error=True),
        tp.ToolResult(
            "toolu_3",
            "shot",
            [
                tp.TextPart("Here:", options={"cache_control": True}),
                tp.ImagePart(PIXEL, "image/png"),
                tp.ImagePart("https://example.com/a.jpg", "image/jpeg", url=True),
            ],
            options={"cache_control": "1h"},
        ),
        tp.ToolResult("toolu_4", "ping", None),
    ]
    messages = providers.to_result_message(results, "anthropic")
    assert len(messages) == 1
    exact_param(MessageParam, messages[0])
    assert messages[0]["role"] == "user"
    blocks = messages[0]["content"]
    assert blocks[0] == {"type": "tool_result", "tool_use_id": "toolu_1", "content": "Itinerary"}
    assert blocks[1] == {
        "type": "tool_result",
        "tool_use_id": "toolu_2",
        "content": "city not found",
        "is_error": True,
    }
    assert blocks[2] == {
        "type": "tool_result",
        "tool_use_id": "toolu_3",
        "content": [
            {"type": "text", "text": "Here:", "cache_control": {"type": "ephemeral"}},
            {
                "type": "image",
                "source": {"type": "base64", "media_type": "image/png", "data": PIXEL},
            },
            {"type": "image", "source": {"type": "url", "url": "https://example.com/a.jpg"}},
        ],
        "cache_control": {"type": "ephemeral", "ttl": "1h"},
    }
    assert blocks[3] == {"type": "tool_result", "tool_use_id": "toolu_4"}


def test_unsupported_image_types_are_refused() -> None:
    result = tp.ToolResult("toolu_1", "shot", [tp.ImagePart(PIXEL, "image/bmp")])
    with pytest.raises(ValueError, match="got 'image/bmp'"):
        providers.to_result_message([result], "anthropic")


def test_round_trip() -> None:
    fn = plan_trip(strict=True)
    reply = message(
        tool_use("toolu_1", "plan_trip", {"city": "Rome", "unit": "celsius", "stops": []}),
        tool_use("toolu_2", "plan_trip", {"unit": "celsius"}),
    )
    results = tp.execute_tool_calls([fn], providers.parse_tool_calls(reply, "anthropic"))
    messages = providers.to_result_message(results, "anthropic")
    exact_param(MessageParam, messages[0])
    first, second = messages[0]["content"]
    assert first["content"] == "Rome: 0 stops over 3 days"
    assert second["is_error"] is True
    assert "city" in second["content"]
