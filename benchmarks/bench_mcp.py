"""MCP: one valid tools/call through toolparse's server vs the SDK's own server, in process.

Both servers run on the SDK's memory transport with the SDK's ClientSession,
after the initialize handshake; a round is a number of sequential calls, and
each figure is the best round's cost per call.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import mcp_types as types
from mcp import ClientSession
from mcp.server.lowlevel import Server
from mcp.server.mcpserver import MCPServer
from mcp.shared.memory import create_client_server_memory_streams

import toolparse as tp
import toolparse.mcp
from harness import Row

ARGS = {"city": "Oslo", "days": 3}
CALLS = 300
ROUNDS = 7


def weather(city: str, days: int = 1) -> str:
    """Weather for a city."""
    return f"sunny in {city} for {days} day(s)"


async def aweather(city: str, days: int = 1) -> str:
    """Weather for a city."""
    return f"sunny in {city} for {days} day(s)"


FUNCTION = tp.tool(weather)
# the same tool as ``async def``: no worker thread, so the row shows the server alone
AFUNCTION = tp.tool("weather")(aweather)


def sdk_lowlevel_server() -> Server[Any]:
    """The SDK's low-level server for the same tool, running toolparse's execute inline."""
    listed = types.ListToolsResult(
        tools=[types.Tool.model_validate(tp.providers.to_tool(FUNCTION, "mcp"))]
    )
    execute = FUNCTION.execute

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return listed

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        outcome = execute(params.arguments)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=outcome[0])],
            is_error=type(outcome) is tp.Error,
        )

    return Server("sdk", on_list_tools=list_tools, on_call_tool=call_tool)


def sdk_bare_server() -> Server[Any]:
    """The SDK's low-level server calling the body directly: the SDK's own cost."""

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        args = params.arguments or {}
        text = weather(args["city"], args.get("days", 1))
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

    listed = types.ListToolsResult(
        tools=[types.Tool.model_validate(tp.providers.to_tool(FUNCTION, "mcp"))]
    )

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return listed

    return Server("bare", on_list_tools=list_tools, on_call_tool=call_tool)


def sdk_high_level_server() -> Any:
    """The SDK's MCPServer with the same function as a tool (its own validation)."""
    app = MCPServer("high-level")
    app.tool()(weather)
    return app._lowlevel_server  # the low-level server it runs on


async def timed(server: Server[Any], measure: Callable[[ClientSession], Awaitable[float]]) -> float:
    async with (
        create_client_server_memory_streams() as (client, srv),
        anyio.create_task_group() as tg,
    ):
        tg.start_soon(lambda: server.run(srv[0], srv[1], server.create_initialization_options()))
        async with ClientSession(client[0], client[1]) as session:
            await session.initialize()
            result = await measure(session)
        tg.cancel_scope.cancel()
    return result


async def per_call_us(session: ClientSession) -> float:
    for _ in range(30):  # warm up caches and the first-call paths
        await session.call_tool("weather", ARGS)
    start = time.perf_counter()
    for _ in range(CALLS):
        result = await session.call_tool("weather", ARGS)
    elapsed = time.perf_counter() - start
    assert result.content[0].text == "sunny in Oslo for 3 day(s)", result  # type: ignore[union-attr]
    return elapsed / CALLS * 1e6


def execute_us() -> float:
    execute = FUNCTION.execute
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(10_000):
            execute(ARGS)
        best = min(best, (time.perf_counter() - start) / 10_000 * 1e6)
    return best


def run() -> list[Row]:
    servers = {
        "toolparse": toolparse.mcp.make_server([FUNCTION]),
        "toolparse async": toolparse.mcp.make_server([AFUNCTION]),
        "lowlevel+execute": sdk_lowlevel_server(),
        "bare": sdk_bare_server(),
        "high": sdk_high_level_server(),
    }
    best = dict.fromkeys(servers, float("inf"))

    async def main() -> None:
        for _ in range(ROUNDS):  # interleaved, so drift hits every server alike
            for name, server in servers.items():
                best[name] = min(best[name], await timed(server, per_call_us))

    anyio.run(main)
    execute = execute_us()
    return [
        Row(
            "mcp: tools/call, valid (memory transport)",
            best["toolparse"],
            best["bare"] + execute,
            "SDK server (body called directly) + execute",
            1.0,
        ),
        Row(
            "mcp: tools/call, valid, async def tool (no worker thread)",
            best["toolparse async"],
            best["bare"] + execute,
            "SDK server (body called directly) + execute",
            1.0,
        ),
        Row(
            "mcp: tools/call, valid vs SDK server running execute",
            best["toolparse"],
            best["lowlevel+execute"],
            "SDK low-level server + execute inline",
            None,
        ),
        Row(
            "mcp: tools/call, valid vs SDK MCPServer",
            best["toolparse"],
            best["high"],
            "SDK MCPServer, same function",
            None,
        ),
        Row(
            "mcp: SDK server's own cost (body called directly)",
            best["bare"],
            execute,
            "toolparse execute alone",
            None,
        ),
    ]


if __name__ == "__main__":
    from harness import table

    print(table(run()))
