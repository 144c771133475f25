from __future__ import annotations

import json
import logging

import mcp.types as mt
import pytest
from mcp.shared.tool_name_validation import validate_tool_name

import toolparse as tp
from toolparse import providers

from .cases import PIXEL, PLAN_TRIP, no_args, plan_trip, with_params
from .sdk_shapes import exact_model


def test_export_is_the_documented_shape() -> None:
    tool = providers.to_tool(plan_trip(), "mcp")
    exact_model(mt.Tool, tool)
    assert tool == {
        "name": "plan_trip",
        "description": "Plan a trip and return an itinerary.",
        "inputSchema": PLAN_TRIP,
    }
    assert providers.to_tool(plan_trip(strict=True), "mcp") == tool


def test_options_add_title_annotations_and_output_schema() -> None:
    output = {
        "type": "object",
        "properties": {"result": {"type": "string"}},
        "required": ["result"],
    }
    fn = plan_trip(
        title="Trip planner",
        annotations={"readOnlyHint": True, "openWorldHint": False},
        output_schema=output,
        cache_control=True,  # another provider's option: ignored here
    )
    tool = providers.to_tool(fn, "mcp")
    exact_model(mt.Tool, tool)
    assert tool["title"] == "Trip planner"
    assert tool["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
    assert tool["outputSchema"] == output
    with pytest.raises(ValueError, match=r'output_schema of tool .* type "object"'):
        providers.to_tool(plan_trip(output_schema={"type": "string"}), "mcp")
    with pytest.raises(ValueError, match="must be a mapping"):
        providers.to_tool(plan_trip(annotations=["readOnly"]), "mcp")


@pytest.mark.parametrize("name", ["server.tool", "get-user_2", "a"])
def test_names_mcp_accepts(name: str) -> None:
    assert validate_tool_name(name).is_valid
    assert providers.to_tool(tp.Function(name, lambda a: "x"), "mcp")["name"] == name


@pytest.mark.parametrize("name", ["with space", "a,b", "a/b"])
def test_names_mcp_warns_about_get_an_alias(name: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.CRITICAL):
        assert not validate_tool_name(name).is_valid
        exported = providers.to_tool(tp.Function(name, lambda a: "x"), "mcp")["name"]
        assert validate_tool_name(exported).is_valid


def test_to_tools_is_a_tools_list() -> None:
    tools = providers.to_tools([plan_trip(), no_args(), with_params()], "mcp")
    listed = mt.ListToolsResult.model_validate({"tools": tools})
    assert [t.name for t in listed.tools] == ["plan_trip", "ping", "search"]
    assert tools[1]["inputSchema"] == {"type": "object", "properties": {}}


def test_parses_tools_call_requests() -> None:
    request = mt.CallToolRequest(
        params=mt.CallToolRequestParams(name="plan_trip", arguments={"city": "Paris"})
    )
    rpc = {"jsonrpc": "2.0", "id": 7, **request.model_dump(by_alias=True, exclude_none=True)}
    assert providers.parse_tool_calls(rpc, "mcp") == [
        tp.ToolCall("7", "plan_trip", {"city": "Paris"})
    ]
    expected = [tp.ToolCall("mcp-call-1", "plan_trip", {"city": "Paris"})]
    assert providers.parse_tool_calls(request, "mcp") == expected
    assert providers.parse_tool_calls(request.params, "mcp") == expected
    batch = [rpc, {"jsonrpc": "2.0", "id": 8, "method": "ping"}, {**rpc, "id": "x"}]
    assert [c.id for c in providers.parse_tool_calls(batch, "mcp")] == ["7", "x"]
    bare = mt.CallToolRequestParams(name="ping")
    assert providers.parse_tool_calls(bare, "mcp") == [tp.ToolCall("mcp-call-1", "ping", None)]
    # no tool name: a call all the same (execute_tool_calls answers it with an error)
    (nameless,) = providers.parse_tool_calls({"method": "tools/call", "params": {}}, "mcp")
    assert nameless.name is None
    with pytest.raises(ValueError, match="expected a tools/call request"):
        providers.parse_tool_calls([1], "mcp")


def test_results_are_call_tool_results() -> None:
    results = [
        tp.ToolResult(
            "7", "plan_trip", "Itinerary", options={"structured_content": {"result": "Itinerary"}}
        ),
        tp.ToolResult("8", "plan_trip", "city not found", is_error=True),
        tp.ToolResult(
            "9",
            "shot",
            [
                tp.TextPart("Here"),
                tp.ImagePart(PIXEL),
                tp.ImagePart("https://x.org/img/a.png", url=True),
            ],
        ),
        tp.ToolResult("10", "ping", None),
    ]
    out = providers.to_result_message(results, "mcp")
    for item in out:
        exact_model(mt.CallToolResult, item)
    assert out[0] == {
        "content": [{"type": "text", "text": "Itinerary"}],
        "structuredContent": {"result": "Itinerary"},
        "isError": False,
    }
    assert out[1] == {"content": [{"type": "text", "text": "city not found"}], "isError": True}
    assert out[2]["content"] == [
        {"type": "text", "text": "Here"},
        {"type": "image", "data": PIXEL, "mimeType": "image/png"},
        {
            "type": "resource_link",
            "uri": "https://x.org/img/a.png",
            "name": "a.png",
            "mimeType": "image/png",
        },
    ]
    assert out[3] == {"content": [], "isError": False}


def test_round_trip() -> None:
    fn = plan_trip()
    args = {"city": "Lima", "unit": "celsius", "stops": [{"name": "a", "hours": 1}]}
    rpc = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "plan_trip", "arguments": args},
    }
    calls = providers.parse_tool_calls(rpc, "mcp")
    [result] = providers.to_result_message(tp.execute_tool_calls([fn], calls), "mcp")
    parsed = mt.CallToolResult.model_validate_json(json.dumps(result))
    assert parsed.is_error is False
    assert parsed.content[0].text == "Lima: 1 stops over 3 days"  # type: ignore[union-attr]
