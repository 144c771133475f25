"""MCP: one valid tools/call through toolparse's server against the SDK's own server doing the same work.

Every server runs on the SDK's memory transport with the SDK's ``ClientSession``,
all connected at once after the initialize handshake. A round is ``CALLS``
sequential calls on one connection, the collector off inside it and run before
it; the rounds go round the servers (each toolparse server next to its floor),
the order reversed every round so drift hits each alike, and each row is the
median of the per-round ratios with their spread. Time is the CPU time of the
process (the client, the server and any worker thread alike), so other
processes on a loaded machine cost only through caches.

The floors are the SDK's low-level server doing what toolparse's server does,
each tool given the context a call carries (its ``tool_call_id``):

- a sync tool: toolparse never runs a sync body on the event loop (the SDK's
  ``MCPServer`` does, and blocks every other request while it runs), so its
  floor is the SDK's server running ``execute`` in a worker thread the way the
  SDK's own stack does it (``anyio.to_thread.run_sync``), answering the wire
  dict. A floor calling the body inline, on the loop, would compare a thread
  hop against no thread at all; that comparison is shown too, with no target.
- an ``async def`` tool: no thread on either side; the floor awaits
  ``aexecute`` inline and answers the wire dict.

What toolparse's server does beyond either floor is its own layer: the tool
look-up, the :class:`McpRequest` in the call's context, the observers' and
timeout's check and the result message. Over the transport that layer is about
1% of a call, below the rounds' spread, so those rows' target (1.1x) says only
that the layer stays small; the handler row measures the layer itself: the
``tools/call`` handler called directly with the request context the SDK gave
it, against the async floor's handler.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Callable
from typing import Any

import anyio
import mcp_types as types
from mcp import ClientSession
from mcp.server.lowlevel import Server
from mcp.server.mcpserver import MCPServer
from mcp.shared.memory import create_client_server_memory_streams

import toolparse as tp
import toolparse.mcp
from harness import Ratio, Row, ratio_of_samples, ratio_rounds

ARGS = {"city": "Oslo", "days": 3}
CALLS = 100
ROUNDS = 15
EXPECTED = "sunny in Oslo for 3 day(s)"


def weather(city: str, days: int = 1) -> str:
    """Weather for a city."""
    return f"sunny in {city} for {days} day(s)"


async def aweather(city: str, days: int = 1) -> str:
    """Weather for a city."""
    return f"sunny in {city} for {days} day(s)"


FUNCTION = tp.tool(weather)
# the same tool as ``async def``: no worker thread, so the row shows the server alone
AFUNCTION = tp.tool("weather")(aweather)


def _answer(outcome: Any) -> dict[str, Any]:
    """The wire dict of a ``CallToolResult`` for an outcome, as toolparse's server answers it."""
    return {
        "content": [{"type": "text", "text": outcome[0]}],
        "isError": type(outcome) is tp.Error,
        "resultType": "complete",
    }


def _server(name: str, call_tool: Callable[..., Any]) -> Server[Any]:
    listed = types.ListToolsResult(
        tools=[types.Tool.model_validate(tp.providers.to_tool(FUNCTION, "mcp"))]
    )

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return listed

    server: Server[Any] = Server(name, on_list_tools=list_tools)
    server.add_request_handler("tools/call", types.CallToolRequestParams, call_tool)
    return server


def sdk_thread_server() -> Server[Any]:
    """The SDK's server running ``execute`` in a worker thread, as anyio does it: the sync floor."""
    execute = FUNCTION.execute
    run_sync = anyio.to_thread.run_sync

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> dict[str, Any]:
        context = {"tool_call_id": str(ctx.request_id)}
        return _answer(await run_sync(execute, params.arguments, context))

    return _server("sdk-thread", call_tool)


def sdk_async_server() -> Server[Any]:
    """The SDK's server awaiting ``aexecute`` of the ``async def`` tool inline: the async floor."""
    aexecute = AFUNCTION.aexecute

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> dict[str, Any]:
        return _answer(await aexecute(params.arguments, {"tool_call_id": str(ctx.request_id)}))

    return _server("sdk-async", call_tool)


def sdk_inline_server() -> Server[Any]:
    """The SDK's server running the sync tool's ``execute`` on the loop (which it then blocks)."""
    execute = FUNCTION.execute

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> dict[str, Any]:
        return _answer(execute(params.arguments, {"tool_call_id": str(ctx.request_id)}))

    return _server("sdk-inline", call_tool)


def sdk_bare_server() -> Server[Any]:
    """The SDK's server calling the body directly, with no checking: the SDK's own cost."""

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> dict[str, Any]:
        args = params.arguments or {}
        return _answer((weather(args["city"], args.get("days", 1)),))

    return _server("sdk-bare", call_tool)


def sdk_high_level_server() -> Any:
    """The SDK's MCPServer with the same function as a tool (its own validation)."""
    app = MCPServer("high-level")
    app.tool()(weather)
    return app._lowlevel_server  # the low-level server it runs on


#: each toolparse server next to its floor, so a pair's rounds run back to back
SERVERS: dict[str, Callable[[], Server[Any]]] = {
    "toolparse": lambda: toolparse.mcp.make_server([FUNCTION]),
    "sdk thread": sdk_thread_server,
    "toolparse async": lambda: toolparse.mcp.make_server([AFUNCTION]),
    "sdk async": sdk_async_server,
    "sdk inline": sdk_inline_server,
    "sdk high": sdk_high_level_server,
    "sdk bare": sdk_bare_server,
}


async def _round(session: ClientSession, calls: int) -> float:
    """CPU time per call, in microseconds, of ``calls`` sequential calls."""
    start = time.process_time()
    for _ in range(calls):
        result = await session.call_tool("weather", ARGS)
    spent = time.process_time() - start
    assert result.content[0].text == EXPECTED, result  # type: ignore[union-attr]
    return spent / calls * 1e6


async def samples(
    names: list[str], rounds: int = ROUNDS, calls: int = CALLS
) -> dict[str, list[float]]:
    """Per-round CPU time per call of each named server, all connected at once."""
    out: dict[str, list[float]] = {name: [] for name in names}
    async with contextlib.AsyncExitStack() as stack:
        tg = await stack.enter_async_context(anyio.create_task_group())
        sessions: dict[str, ClientSession] = {}
        for name in names:
            server = SERVERS[name]()
            client, srv = await stack.enter_async_context(create_client_server_memory_streams())
            tg.start_soon(
                lambda s=server, r=srv: s.run(r[0], r[1], s.create_initialization_options())
            )
            session = await stack.enter_async_context(ClientSession(client[0], client[1]))
            await session.initialize()
            await _round(session, 30)  # warm up caches, the first-call paths and the threads
            sessions[name] = session
        enabled = gc.isenabled()
        try:
            for i in range(rounds):
                for name in names if i % 2 == 0 else names[::-1]:
                    # the collector off in a round, run between rounds: the SDK's
                    # garbage then costs no round more than another
                    gc.collect()
                    gc.disable()
                    out[name].append(await _round(sessions[name], calls))
                    gc.enable()
        finally:
            if enabled:
                gc.enable()
            else:
                gc.disable()
        tg.cancel_scope.cancel()
    return out


def execute_samples(rounds: int = ROUNDS, number: int = 5000) -> list[float]:
    """Per-round CPU time of toolparse's ``execute`` alone, in microseconds."""
    execute = FUNCTION.execute
    out = []
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(number):
            execute(ARGS)
        out.append((time.process_time() - start) / number * 1e6)
    return out


def handler_ratio(per_round: int = 100) -> Ratio:
    """toolparse's ``tools/call`` handler alone against the async floor's, on one loop.

    The handler is called with the request context the SDK gave it for a real
    call (captured once), ``per_round`` calls a timed callable, so the SDK's
    transport and dispatch, about 95% of a call, no longer hide the layer's cost.
    """
    server = toolparse.mcp.make_server([AFUNCTION])
    entry = server.get_request_handler("tools/call")
    assert entry is not None
    ours = entry.handler
    floor = sdk_async_server().get_request_handler("tools/call").handler  # type: ignore[union-attr]
    seen: list[tuple[Any, Any]] = []

    async def capture(ctx: Any, params: types.CallToolRequestParams) -> Any:
        seen.append((ctx, params))
        return await ours(ctx, params)

    server.add_request_handler("tools/call", types.CallToolRequestParams, capture)
    SERVERS["capture"] = lambda: server
    try:
        anyio.run(lambda: samples(["capture"], rounds=0))
    finally:
        del SERVERS["capture"]
    ctx, params = seen[0]

    def many(handler: Callable[..., Any]) -> Callable[[], Any]:
        async def calls() -> None:
            for _ in range(per_round):
                await handler(ctx, params)

        return lambda: loop.run_until_complete(calls())

    loop = asyncio.new_event_loop()
    try:
        assert loop.run_until_complete(ours(ctx, params))["content"][0]["text"] == EXPECTED
        r = ratio_rounds(many(ours), many(floor), rounds=9, budget=0.05)
    finally:
        loop.close()
    return Ratio(r.a_us / per_round, r.b_us / per_round, r.ratio, r.spread)


def _row(
    name: str, a: list[float], b: list[float], baseline: str, target: float | None = None
) -> Row:
    a_us, b_us, ratio, spread = ratio_of_samples(a, b)
    return Row(name, a_us, b_us, baseline, target, spread, ratio)


def run() -> list[Row]:
    got: dict[str, list[float]] = {}

    async def main() -> None:
        got.update(await samples(list(SERVERS)))

    anyio.run(main)
    execute = execute_samples()
    handler = handler_ratio()
    return [
        _row(
            "mcp: tools/call, valid (memory transport; body in a worker thread)",
            got["toolparse"],
            got["sdk thread"],
            "SDK server + execute in a worker thread (anyio)",
            1.1,
        ),
        _row(
            "mcp: tools/call, valid, async def tool (no worker thread)",
            got["toolparse async"],
            got["sdk async"],
            "SDK server + aexecute inline",
            1.1,
        ),
        handler.row(
            "mcp: tools/call handler alone, async def tool (toolparse's server layer)",
            "SDK server's handler: aexecute inline",
            1.5,
        ),
        _row(
            "mcp: tools/call, valid vs SDK server running execute on the loop",
            got["toolparse"],
            got["sdk inline"],
            "SDK server + execute inline (blocks the loop)",
        ),
        _row(
            "mcp: tools/call, valid vs SDK MCPServer",
            got["toolparse"],
            got["sdk high"],
            "SDK MCPServer, same function (on the loop)",
        ),
        _row(
            "mcp: SDK server's own cost (body called directly)",
            got["sdk bare"],
            execute,
            "toolparse execute alone",
        ),
    ]


if __name__ == "__main__":
    from harness import table

    print(table(run()))
