"""toolparse.mcp in process: the SDK's client over its memory transport and its direct dispatch."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.memory import create_client_server_memory_streams
from mcp.shared.message import SessionMessage
from tests.mcp.connect import memory_session
from tests.mcp.tools import TOOLS, Forecast

import toolparse as tp
import toolparse.mcp as tmcp

Run = Callable[[Callable[[Any], Awaitable[Any]]], Any]


def server() -> Any:
    return tmcp.make_server(TOOLS, name="weather-server")


def run_legacy(body: Callable[[Any], Awaitable[Any]]) -> Any:
    """``body(session)`` over the memory streams, after the initialize handshake."""

    async def main() -> Any:
        async with memory_session(server()) as session:
            return await body(session)

    return anyio.run(main)


def run_modern(body: Callable[[Any], Awaitable[Any]]) -> Any:
    """``body(client)`` with the SDK's in-process client (2026-07-28, no handshake)."""

    async def main() -> Any:
        async with Client(server()) as client:
            return await body(client)

    return anyio.run(main)


def local_message(arguments: dict[str, Any]) -> str:
    """What toolparse answers for ``weather(arguments)`` without MCP."""
    (result,) = tp.execute_tool_calls(TOOLS, [tp.ToolCall("x", "weather", arguments)])
    assert result.is_error
    return result.text


both = pytest.mark.parametrize("run", [run_legacy, run_modern], ids=["handshake", "modern"])


def test_initialize_reports_the_server_and_consistent_capabilities() -> None:
    async def body(session: Any) -> Any:
        return session.initialize_result

    init = run_legacy(body)
    assert init.server_info.name == "weather-server"
    assert init.server_info.version == tp.__version__
    caps = init.capabilities
    assert caps.tools is not None
    assert caps.resources is not None
    assert caps.resources.subscribe is False
    assert caps.prompts is not None


@both
def test_tools_are_listed_as_exported(run: Run) -> None:
    async def body(session: Any) -> Any:
        return await session.list_tools()

    listed = run(body).tools
    exported = tp.providers.to_tools(TOOLS, "mcp")
    assert [t.name for t in listed] == [t["name"] for t in exported]
    for tool, expected in zip(listed, exported, strict=True):
        assert tool.input_schema == expected["inputSchema"]
        assert tool.description == expected["description"]


@both
def test_a_model_return_annotation_gives_an_output_schema(run: Run) -> None:
    async def body(session: Any) -> Any:
        return {t.name: t.output_schema for t in (await session.list_tools()).tools}

    schemas = run(body)
    assert schemas["weather"] is None
    assert schemas["forecast"] == Forecast.model_json_schema(mode="serialization")
    assert schemas["reading"]["properties"].keys() == {"sensor", "value"}
    assert schemas["totals"]["required"] == ["count", "total"]


@both
def test_valid_invalid_and_unknown_calls(run: Run) -> None:
    async def body(session: Any) -> Any:
        good = await session.call_tool("weather", {"city": "Oslo"})
        bad = await session.call_tool("weather", {"cty": "Oslo"})
        wrong_type = await session.call_tool("weather", {"city": "Oslo", "days": "two"})
        unknown = await session.call_tool("wether", {"city": "Oslo"})
        return good, bad, wrong_type, unknown

    good, bad, wrong_type, unknown = run(body)
    assert good.is_error is False
    assert [c.text for c in good.content] == ["sunny in Oslo for 1 day(s)"]
    assert bad.is_error is True
    assert bad.content[0].text == local_message({"cty": "Oslo"})
    assert 'cty (did you mean "city"?)' in bad.content[0].text
    assert wrong_type.is_error is True
    assert wrong_type.content[0].text == local_message({"city": "Oslo", "days": "two"})
    assert wrong_type.content[0].text.startswith("Invalid arguments for this tool.")
    assert unknown.is_error is True
    assert unknown.content[0].text.startswith(
        'Tool call made to wether but tool not found. Did you mean "weather"?'
    )


@both
def test_structured_output(run: Run) -> None:
    async def body(session: Any) -> Any:
        await session.list_tools()  # the client validates against the listed schema
        return (
            await session.call_tool("forecast", {"city": "Oslo"}),
            await session.call_tool("reading", {"sensor": "s1"}),
            await session.call_tool("totals", {"values": [1, 2, 3]}),
            await session.call_tool("weather", {"city": "Oslo"}),
        )

    forecast, reading, totals, plain = run(body)
    assert forecast.structured_content == {"city": "Oslo", "celsius": 21.5}
    assert forecast.content[0].text == '{"city":"Oslo","celsius":21.5}'  # text stays
    assert reading.structured_content == {"sensor": "s1", "value": 7}
    assert totals.structured_content == {"count": 3, "total": 6}
    assert plain.structured_content is None


def test_a_declared_output_schema_is_listed_and_filled() -> None:
    fn = tp.Function(
        "pair",
        lambda a: {"left": a["x"], "right": a["x"]},
        parameters=[tp.FunctionParam("x", "integer", required=True)],
        options={
            "output_schema": {
                "type": "object",
                "properties": {"left": {"type": "integer"}, "right": {"type": "integer"}},
            }
        },
    )

    async def main() -> Any:
        async with memory_session(tmcp.make_server([fn])) as session:
            listed = await session.list_tools()
            return listed.tools[0], await session.call_tool("pair", {"x": 2})

    tool, result = anyio.run(main)
    assert tool.output_schema["properties"]["left"] == {"type": "integer"}
    assert result.structured_content == {"left": 2, "right": 2}


@both
@pytest.mark.parametrize("tool", ["steps", "asteps"])
def test_progress_reaches_the_client_in_order(run: Run, tool: str) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async def body(session: Any) -> Any:
        return await session.call_tool(tool, {"count": 3}, progress_callback=on_progress)

    result = run(body)
    assert result.content[0].text == "done 3 steps"
    assert seen == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]


def test_progress_without_a_token_sends_nothing_and_still_answers() -> None:
    async def body(session: Any) -> Any:
        return await session.call_tool("steps", {"count": 2})

    assert run_legacy(body).content[0].text == "done 2 steps"


@both
def test_the_request_reaches_the_tool_through_its_context(run: Run) -> None:
    async def body(session: Any) -> Any:
        return await session.call_tool("whoami", {})

    text = run(body).content[0].text
    call, request, client = text.split(" ")[1::2]
    assert call == request  # tool_call_id is the JSON-RPC request id
    assert client == "mcp"  # the SDK client's default name


def test_the_progress_token_and_meta_are_in_the_request() -> None:
    found: list[tmcp.McpRequest] = []

    def capture(ctx: tp.Context) -> str:
        found.append(ctx["mcp"])
        return "ok"

    fn = tp.tool(capture)

    async def noop(progress: float, total: float | None, message: str | None) -> None:
        pass

    async def main() -> None:
        async with memory_session(tmcp.make_server([fn])) as session:
            await session.call_tool("capture", {}, progress_callback=noop, meta={"trace": "t-1"})

    anyio.run(main)
    (request,) = found
    assert request.progress_token is not None
    assert request.meta["trace"] == "t-1"
    assert request.protocol_version == "2025-11-25"
    assert request.approved is False
    assert "McpRequest(request_id=" in repr(request)


def test_a_base_context_reaches_every_call() -> None:
    def where(ctx: tp.Context) -> str:
        return f"{ctx['region']} {ctx['mcp'].request_id == int(ctx['tool_call_id'])}"

    server = tmcp.make_server([tp.tool(where)], context={"region": "eu-north"})

    async def main() -> Any:
        async with memory_session(server) as session:
            return await session.call_tool("where", {})

    assert anyio.run(main).content[0].text == "eu-north True"


@both
def test_an_interrupt_is_an_error_that_asks_for_approval(run: Run) -> None:
    async def body(session: Any) -> Any:
        first = await session.call_tool("delete_file", {"path": "/tmp/a"})
        approved = await session.call_tool(
            "delete_file", {"path": "/tmp/a"}, meta={tmcp.APPROVAL_META_KEY: True}
        )
        return first, approved

    first, approved = run(body)
    assert first.is_error is True
    assert first.content[0].text.startswith(
        "The tool delete_file needs approval before it runs: Delete /tmp/a?"
    )
    assert first.meta[tmcp.INTERRUPT_META_KEY] == {
        "display": "Delete /tmp/a?",
        "data": {"path": "/tmp/a"},
    }
    assert approved.is_error is False
    assert approved.content[0].text == "deleted /tmp/a"


@both
def test_resources_and_prompts_are_empty_lists(run: Run) -> None:
    async def body(session: Any) -> Any:
        return (
            await session.list_resources(),
            await session.list_resource_templates(),
            await session.list_prompts(),
        )

    resources, templates, prompts = run(body)
    assert resources.resources == []
    assert templates.resource_templates == []
    assert prompts.prompts == []


def test_a_toolset_or_a_single_function_is_served() -> None:
    toolset_type = getattr(tp, "Toolset", None)
    sources: list[Any] = [TOOLS[0], tuple(TOOLS[:2])]
    if toolset_type is not None:
        sources.append(toolset_type(TOOLS[:2]))

    async def names(source: Any) -> list[str]:
        async with memory_session(tmcp.make_server(source)) as session:
            return [t.name for t in (await session.list_tools()).tools]

    assert anyio.run(names, sources[0]) == ["weather"]
    for source in sources[1:]:
        assert anyio.run(names, source) == ["weather", "forecast"]


def test_anything_else_is_refused_when_the_server_is_built() -> None:
    with pytest.raises(TypeError, match="expected a Function, a Toolset or a list of Functions"):
        tmcp.make_server(42)
    with pytest.raises(TypeError, match="found str"):
        tmcp.make_server([TOOLS[0], "weather"])


INITIALIZE = types.JSONRPCRequest(
    jsonrpc="2.0",
    id=1,
    method="initialize",
    params={
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
)


def test_a_call_before_initialize_is_refused() -> None:
    async def main() -> Any:
        async with (
            create_client_server_memory_streams() as (client, server_streams),
            anyio.create_task_group() as tg,
        ):
            srv = server()
            tg.start_soon(
                lambda: srv.run(
                    server_streams[0], server_streams[1], srv.create_initialization_options()
                )
            )
            request = types.JSONRPCRequest(
                jsonrpc="2.0",
                id=1,
                method="tools/call",
                params={"name": "weather", "arguments": {"city": "Oslo"}},
            )
            await client[1].send(SessionMessage(request))
            with anyio.fail_after(5):
                reply = await client[0].receive()
            tg.cancel_scope.cancel()
            return reply

    reply = anyio.run(main)
    assert isinstance(reply, SessionMessage)
    assert isinstance(reply.message, types.JSONRPCError)
    assert reply.message.id == 1
    assert reply.message.error.code == types.INVALID_PARAMS


def test_a_cancelled_call_is_not_answered_and_its_task_is_cancelled() -> None:
    started = asyncio.Event()
    outcome: list[str] = []

    async def wait_forever() -> str:
        started.set()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            outcome.append("cancelled")
            raise
        outcome.append("finished")
        return "too late"

    srv = tmcp.make_server([tp.tool(wait_forever)])

    async def main() -> list[Any]:
        async with (
            create_client_server_memory_streams() as (client, server_streams),
            anyio.create_task_group() as tg,
        ):
            tg.start_soon(
                lambda: srv.run(
                    server_streams[0], server_streams[1], srv.create_initialization_options()
                )
            )
            read, write = client

            async def send(message: Any) -> None:
                await write.send(SessionMessage(message))

            await send(INITIALIZE)
            replies = [await read.receive()]
            await send(types.JSONRPCNotification(jsonrpc="2.0", method="notifications/initialized"))
            await send(
                types.JSONRPCRequest(
                    jsonrpc="2.0",
                    id=2,
                    method="tools/call",
                    params={"name": "wait_forever", "arguments": {}},
                )
            )
            with anyio.fail_after(5):
                await started.wait()
            await send(
                types.JSONRPCNotification(
                    jsonrpc="2.0",
                    method="notifications/cancelled",
                    params={"requestId": 2, "reason": "the user gave up"},
                )
            )
            await send(types.JSONRPCRequest(jsonrpc="2.0", id=3, method="ping"))
            with anyio.fail_after(5):
                replies.append(await read.receive())
            # anything still owed would arrive now
            with anyio.move_on_after(0.3):
                replies.append(await read.receive())
            tg.cancel_scope.cancel()
            return replies

    replies = anyio.run(main, backend="asyncio")
    ids = [r.message.id for r in replies if isinstance(r, SessionMessage)]
    assert ids == [1, 3]  # initialize and ping answered; the cancelled call never
    assert outcome == ["cancelled"]


@pytest.mark.parametrize(
    "params",
    [
        {"name": "weather", "arguments": "city=Oslo"},  # not decoded as JSON text
        {"arguments": {"city": "Oslo"}},  # no tool name
        {"name": 5},
    ],
)
def test_malformed_tools_call_params_are_a_protocol_error(params: dict[str, Any]) -> None:
    async def main() -> Any:
        async with (
            create_client_server_memory_streams() as (client, server_streams),
            anyio.create_task_group() as tg,
        ):
            srv = server()
            tg.start_soon(
                lambda: srv.run(
                    server_streams[0], server_streams[1], srv.create_initialization_options()
                )
            )
            read, write = client
            await write.send(SessionMessage(INITIALIZE))
            await read.receive()
            await write.send(
                SessionMessage(
                    types.JSONRPCNotification(jsonrpc="2.0", method="notifications/initialized")
                )
            )
            await write.send(
                SessionMessage(
                    types.JSONRPCRequest(jsonrpc="2.0", id=2, method="tools/call", params=params)
                )
            )
            with anyio.fail_after(5):
                reply = await read.receive()
            tg.cancel_scope.cancel()
            return reply.message

    reply = anyio.run(main)
    assert isinstance(reply, types.JSONRPCError)
    assert (reply.id, reply.error.code) == (2, types.INVALID_PARAMS)


def test_a_name_mcp_does_not_allow_is_served_under_its_alias_and_routed_back() -> None:
    fn = tp.Function(
        "math factorial",
        lambda a: str(a["n"]),
        parameters=[tp.FunctionParam("n", "integer", required=True)],
    )

    async def main() -> Any:
        async with Client(tmcp.make_server([fn])) as client:
            listed = await client.list_tools()
            return listed.tools[0].name, await client.call_tool("math_factorial", {"n": 5})

    name, result = anyio.run(main)
    assert name == tp.providers.to_tool(fn, "mcp")["name"] == "math_factorial"
    assert (result.is_error, result.content[0].text) == (False, "5")
