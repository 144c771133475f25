"""The client side: an MCP server's tools as Functions, validated before anything is sent."""

from __future__ import annotations

import base64
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.server.lowlevel import Server
from mcp.server.mcpserver import MCPServer
from tests.mcp.connect import memory_session

import toolparse as tp
import toolparse.mcp as tmcp

PIXEL = base64.b64encode(b"\x89PNG fake").decode()


def counted_toolparse_server() -> tuple[Server[Any], list[str]]:
    seen: list[str] = []

    @tp.tool
    def book(room: str, people: int) -> str:
        """Book a room."""
        seen.append(room)
        return f"booked {room} for {people}"

    @tp.tool
    def refuse(reason: str) -> str:
        """Always fails."""
        seen.append(reason)
        raise tp.ToolError(f"cannot: {reason}")

    @tp.tool
    def launch(target: str, ctx: tp.Context) -> str | tp.Interrupt:
        """Needs approval."""
        seen.append(target)
        if not ctx["mcp"].approved:
            return tp.interrupt(f"Launch at {target}?", {"target": target})
        return f"launched at {target}"

    from tests.mcp.tools import forecast

    return tmcp.make_server([book, refuse, launch, forecast]), seen


def plain_sdk_server() -> tuple[Server[Any], list[dict[str, Any]]]:
    """A server written on the SDK alone, with its own schema and content shapes."""
    received: list[dict[str, Any]] = []
    schema = {
        "type": "object",
        "properties": {
            "width": {"type": "integer", "minimum": 1, "maximum": 512},
            "color": {"type": "string", "enum": ["red", "green"]},
        },
        "required": ["width"],
    }

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[types.Tool(name="draw", description="Draw a square.", input_schema=schema)]
        )

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        received.append(dict(params.arguments or {}))
        return types.CallToolResult(
            content=[
                types.TextContent(type="text", text="a square"),
                types.ImageContent(type="image", data=PIXEL, mime_type="image/png"),
            ]
        )

    return Server("plain", on_list_tools=list_tools, on_call_tool=call_tool), received


def test_remote_toolparse_tools_become_functions_with_their_schemas() -> None:
    server, seen = counted_toolparse_server()

    async def main() -> Any:
        async with memory_session(server) as session:
            listed = (await session.list_tools()).tools
            functions = await tmcp.functions_from_session(session)
            return listed, functions

    listed, functions = anyio.run(main)
    assert [f.name for f in functions] == ["book", "refuse", "launch", "forecast"]
    for fn, tool in zip(functions, listed, strict=True):
        assert fn.description == tool.description
        assert (
            tp.providers.to_tool(fn, "mcp")["inputSchema"]["properties"]
            == (tool.input_schema["properties"])
        )
        assert fn.concurrent is True
    assert seen == []  # listing runs nothing


def test_a_wrong_call_never_leaves_the_process() -> None:
    server, seen = counted_toolparse_server()

    async def main() -> list[tp.ToolResult]:
        async with memory_session(server) as session:
            functions = await tmcp.functions_from_session(session)
            return await tp.aexecute_tool_calls(
                functions,
                [
                    tp.ToolCall("1", "book", {"rom": "A1", "people": 2}),
                    tp.ToolCall("2", "book", {"room": "A1", "people": "two"}),
                    tp.ToolCall("3", "book", {"room": "B2", "people": 3}),
                ],
            )

    typo, wrong_type, good = anyio.run(main)
    assert typo.is_error is True
    assert 'rom (did you mean "room"?)' in typo.text
    assert wrong_type.is_error is True
    assert wrong_type.text.startswith("Invalid arguments for this tool.")
    assert "people" in wrong_type.text
    assert (good.is_error, good.text) == (False, "booked B2 for 3")
    assert seen == ["B2"]  # only the valid call reached the server


def test_remote_errors_interrupts_and_structured_output_map_back() -> None:
    server, _ = counted_toolparse_server()

    async def main() -> list[tp.ToolResult]:
        async with Client(server) as client:
            functions = await tmcp.functions_from_session(client)
            calls = [
                tp.ToolCall("1", "refuse", {"reason": "closed"}),
                tp.ToolCall("2", "launch", {"target": "moon"}),
                tp.ToolCall("3", "forecast", {"city": "Oslo"}),
            ]
            first = await tp.aexecute_tool_calls(functions, calls)
            approved = await tp.aexecute_tool_calls(
                functions,
                [calls[1]],
                {tmcp.META_CONTEXT_KEY: {tmcp.APPROVAL_META_KEY: True}},
            )
            return [*first, *approved]

    refused, paused, forecast, approved = anyio.run(main)
    assert (refused.is_error, refused.text) == (True, "cannot: closed")
    assert paused.is_interrupt is True
    assert paused.content == "Launch at moon?"
    assert paused.interrupt_data == {"target": "moon"}
    assert forecast.text == '{"city":"Oslo","celsius":21.5}'
    assert forecast.processed_content == {"city": "Oslo", "celsius": 21.5}
    assert (approved.is_interrupt, approved.text) == (False, "launched at moon")


def test_a_plain_sdk_server_is_validated_against_its_own_schema() -> None:
    server, received = plain_sdk_server()

    async def main() -> list[tp.ToolResult]:
        async with memory_session(server) as session:
            (draw,) = await tmcp.functions_from_session(session)
            return await tp.aexecute_tool_calls(
                [draw],
                [
                    tp.ToolCall("1", "draw", {"width": 0}),
                    tp.ToolCall("2", "draw", {"width": 8, "color": "blue"}),
                    tp.ToolCall("3", "draw", {"width": 8, "color": "red"}),
                ],
            )

    too_small, bad_color, good = anyio.run(main)
    assert too_small.is_error
    assert "width: must be at least 1" in too_small.text
    assert bad_color.is_error
    assert "color: must be one of:" in bad_color.text
    assert '(received "blue")' in bad_color.text
    assert good.is_error is False
    assert good.content == [tp.TextPart("a square"), tp.ImagePart(PIXEL, "image/png")]
    assert received == [{"width": 8, "color": "red"}]


def test_the_sdk_high_level_server_works_too() -> None:
    app = MCPServer("high-level")

    @app.tool()
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    async def main() -> list[tp.ToolResult]:
        async with Client(app) as client:
            functions = await tmcp.functions_from_session(client)
            return await tp.aexecute_tool_calls(
                functions,
                [tp.ToolCall("1", "add", {"a": 2, "b": 3}), tp.ToolCall("2", "add", {"a": 2})],
            )

    good, missing = anyio.run(main)
    assert good.text == "5"
    assert good.processed_content == {"result": 5}
    assert missing.is_error
    assert "Missing parameters: b" in missing.text


@pytest.mark.parametrize(
    ("block", "part"),
    [
        (
            types.ResourceLink(
                type="resource_link", uri="https://x.test/a.png", name="a", mime_type="image/png"
            ),
            tp.ImagePart("https://x.test/a.png", "image/png", url=True),
        ),
        (
            types.ResourceLink(type="resource_link", uri="file:///notes.txt", name="notes"),
            "see: file:///notes.txt",  # text only: one string
        ),
        (
            types.AudioContent(type="audio", data=PIXEL, mime_type="audio/wav"),
            "see: [audio content]",
        ),
    ],
)
def test_other_content_blocks(block: Any, part: Any) -> None:
    outcome = tmcp.outcome_of(
        types.CallToolResult(content=[types.TextContent(type="text", text="see: "), block])
    )
    expected = part if isinstance(part, str) else [tp.TextPart("see: "), part]
    assert outcome == tp.Ok(expected)


def test_an_error_without_text_still_says_something() -> None:
    outcome = tmcp.outcome_of(types.CallToolResult(content=[], is_error=True))
    assert outcome == tp.Error("The tool failed without saying why.")
