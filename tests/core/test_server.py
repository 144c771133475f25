"""``toolparse mcp``: the MCP server, by hand and through the MCP SDK's own client."""

from __future__ import annotations

import asyncio
import io
import json
import pathlib
import sys
import textwrap
from typing import Any

import pytest

import toolparse as tp
from toolparse.server import PROTOCOL_VERSIONS, McpServer


def weather() -> tp.Function:
    return tp.Function(
        "weather",
        lambda a, ctx: f"sunny in {a['city']} ({ctx['tool_call_id']})",
        description="Weather for a city.",
        parameters=[tp.FunctionParam("city", "string", required=True)],
    )


def rpc(method: str, params: Any = None, ident: int | None = 1) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    if ident is not None:
        message["id"] = ident
    return message


def test_initialize_and_list() -> None:
    server = McpServer([weather()], name="weather-server")
    init = server.handle(rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}}))
    assert init is not None
    assert init["result"]["protocolVersion"] == "2025-06-18"
    assert init["result"]["serverInfo"]["name"] == "weather-server"
    assert init["result"]["capabilities"] == {"tools": {"listChanged": False}}
    unknown = server.handle(rpc("initialize", {"protocolVersion": "1999-01-01"}))
    assert unknown is not None
    assert unknown["result"]["protocolVersion"] == PROTOCOL_VERSIONS[0]
    assert server.handle(rpc("notifications/initialized", ident=None)) is None
    listed = server.handle(rpc("tools/list", ident=2))
    assert listed is not None
    assert listed["result"]["tools"] == [tp.providers.to_tool(weather(), "mcp")]
    assert server.handle(rpc("ping", ident=3)) == {"jsonrpc": "2.0", "id": 3, "result": {}}


def test_calls_answer_in_toolparse_voice() -> None:
    server = McpServer([weather()])
    ok = server.handle(rpc("tools/call", {"name": "weather", "arguments": {"city": "Oslo"}}))
    assert ok is not None
    assert ok["result"] == {
        "content": [{"type": "text", "text": "sunny in Oslo (mcp-1)"}],
        "isError": False,
    }
    bad = server.handle(rpc("tools/call", {"name": "weather", "arguments": {"cty": "Oslo"}}))
    assert bad is not None
    assert bad["result"]["isError"] is True
    assert 'cty (did you mean "city"?)' in bad["result"]["content"][0]["text"]
    missing = server.handle(rpc("tools/call", {"name": "wether"}))
    assert missing is not None
    assert missing["result"]["content"][0]["text"].startswith(
        "Tool call made to wether but tool not found."
    )


def test_protocol_errors() -> None:
    server = McpServer([weather()])
    assert server.handle(rpc("resources/list"))["error"]["code"] == -32601  # type: ignore[index]
    assert server.handle(rpc("tools/call", {"arguments": {}}))["error"]["code"] == -32602  # type: ignore[index]
    assert server.handle([1, 2])["error"]["code"] == -32600  # type: ignore[index]
    out = io.StringIO()
    server.serve(io.StringIO('{not json\n\n{"jsonrpc": "2.0", "id": 7, "method": "ping"}\n'), out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies[0]["error"]["code"] == -32700
    assert replies[1] == {"jsonrpc": "2.0", "id": 7, "result": {}}


MODULE = textwrap.dedent(
    """
    import toolparse as tp

    weather = tp.Function(
        "weather",
        lambda a: f"sunny in {a['city']}",
        description="Weather for a city.",
        parameters=[tp.FunctionParam("city", "string", required=True)],
    )
    """
)


def test_through_the_mcp_sdk_client(tmp_path: pathlib.Path) -> None:
    mcp = pytest.importorskip("mcp")
    from mcp.client.stdio import stdio_client

    (tmp_path / "mcp_tools_example.py").write_text(MODULE)

    async def session() -> list[Any]:
        params = mcp.StdioServerParameters(
            command=sys.executable,
            args=["-m", "toolparse.cli", "mcp", "mcp_tools_example"],
            cwd=str(tmp_path),
        )
        # the server's stderr goes to a file: pytest's captured stderr has no descriptor
        with (tmp_path / "server.log").open("w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                mcp.ClientSession(read, write) as client,
            ):
                init = await client.initialize()
                tools = await client.list_tools()
                good = await client.call_tool("weather", {"city": "Oslo"})
                bad = await client.call_tool("weather", {"cty": "Oslo"})
                return [init, tools, good, bad]

    init, tools, good, bad = asyncio.run(session())
    assert init.server_info.name == "toolparse"
    assert [t.name for t in tools.tools] == ["weather"]
    assert tools.tools[0].input_schema["required"] == ["city"]
    assert (good.is_error, good.content[0].text) == (False, "sunny in Oslo")
    assert bad.is_error
    assert 'cty (did you mean "city"?)' in bad.content[0].text
