"""toolparse.mcp over Streamable HTTP: uvicorn on 127.0.0.1 and the SDK's HTTP client."""

from __future__ import annotations

import asyncio
import collections
import threading
import time
from typing import Any

import anyio
import pytest
from mcp import Client
from tests.mcp.http_server import serving
from tests.mcp.tools import TOOLS

import toolparse as tp
import toolparse.mcp as tmcp


def run(url: str, body: Any, mode: str = "auto") -> Any:
    async def main() -> Any:
        with anyio.fail_after(30):
            async with Client(url, mode=mode) as client:
                return await body(client)

    return anyio.run(main)


@pytest.mark.parametrize("stateless", [False, True], ids=["sessions", "stateless"])
@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_the_calls_over_http(stateless: bool, mode: str) -> None:
    seen: list[float] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append(progress)

    async def body(client: Client) -> Any:
        listed = await client.list_tools()
        return (
            client.protocol_version,
            listed,
            await client.call_tool("weather", {"city": "Oslo"}),
            await client.call_tool("weather", {"cty": "Oslo"}),
            await client.call_tool("wether", {}),
            await client.call_tool("forecast", {"city": "Bergen"}),
            await client.call_tool("asteps", {"count": 3}, progress_callback=on_progress),
            await client.list_resources(),
            await client.list_prompts(),
        )

    app = tmcp.asgi_app(TOOLS, name="http-tools", stateless=stateless)
    with serving(app) as url:
        version, listed, good, bad, unknown, forecast, steps, resources, prompts = run(
            url, body, mode
        )
    assert version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
    exported = tp.providers.to_tools(TOOLS, "mcp")
    assert [t.input_schema for t in listed.tools] == [t["inputSchema"] for t in exported]
    assert good.content[0].text == "sunny in Oslo for 1 day(s)"
    assert bad.is_error is True
    assert 'cty (did you mean "city"?)' in bad.content[0].text
    assert unknown.is_error is True
    assert forecast.structured_content == {"city": "Bergen", "celsius": 21.5}
    assert steps.content[0].text == "done 3 steps"
    assert seen == [1, 2, 3], mode
    assert (resources.resources, prompts.prompts) == ([], [])


def counted_tools() -> tuple[list[tp.Function], collections.Counter[str]]:
    """Fast and 0.2 s tools (sync and async) that count how often each label ran."""
    runs: collections.Counter[str] = collections.Counter()
    lock = threading.Lock()

    def note(label: str) -> None:
        with lock:
            runs[label] += 1

    @tp.tool
    def quick(label: str) -> str:
        """Fast."""
        note(label)
        return f"quick {label}"

    @tp.tool
    def slow_sync(label: str) -> str:
        """A sync tool that takes 0.2 s."""
        time.sleep(0.2)
        note(label)
        return f"slow sync {label}"

    @tp.tool
    async def slow_async(label: str) -> str:
        """An async tool that takes 0.2 s."""
        await asyncio.sleep(0.2)
        note(label)
        return f"slow async {label}"

    return [quick, slow_sync, slow_async], runs


@pytest.mark.parametrize("stateless", [False, True], ids=["sessions", "stateless"])
def test_200_concurrent_calls_are_each_answered_once_and_right(stateless: bool) -> None:
    tools, runs = counted_tools()
    kinds = {"quick": "quick", "slow_sync": "slow sync", "slow_async": "slow async"}
    plan = [(("quick", "slow_sync", "quick", "slow_async")[i % 4], f"c{i}") for i in range(200)]
    answers: dict[str, list[str]] = collections.defaultdict(list)

    async def body(client: Client) -> float:
        async def one(tool: str, label: str) -> None:
            result = await client.call_tool(tool, {"label": label})
            assert result.is_error is False
            answers[label].append(result.content[0].text)

        start = time.perf_counter()
        async with anyio.create_task_group() as tg:
            for tool, label in plan:
                tg.start_soon(one, tool, label)
        return time.perf_counter() - start

    with serving(tmcp.asgi_app(tools, stateless=stateless)) as url:
        elapsed = run(url, body)
    assert dict(answers) == {label: [f"{kinds[tool]} {label}"] for tool, label in plan}
    assert runs == collections.Counter({label: 1 for _, label in plan})
    # 100 slow calls, 0.2 s each: they overlap instead of queueing (20 s one by one)
    assert elapsed < 15


def test_a_ping_during_a_slow_sync_call_is_answered_at_once() -> None:
    started = threading.Event()
    release = threading.Event()

    @tp.tool
    def blocking(label: str) -> str:
        """A sync tool that holds its thread until released."""
        started.set()
        release.wait(10)
        return f"released {label}"

    async def body(client: Client) -> tuple[float, Any]:
        async with anyio.create_task_group() as tg:
            results: list[Any] = []

            async def call() -> None:
                results.append(await client.call_tool("blocking", {"label": "a"}))

            tg.start_soon(call)
            await anyio.to_thread.run_sync(started.wait, 10)
            await client.session.send_ping()  # warm: the first request on a connection costs more
            # the best of a few: a blocked server would hold every one of them until
            # release (10 s); a busy test machine delays one now and then
            latency = float("inf")
            for _ in range(5):
                begin = time.perf_counter()
                await client.session.send_ping()
                latency = min(latency, time.perf_counter() - begin)
            assert not release.is_set()
            release.set()
        return latency, results[0]

    with serving(tmcp.asgi_app([blocking])) as url:
        latency, result = run(url, body, mode="legacy")  # ping is a handshake-era request
    assert result.content[0].text == "released a"
    assert latency < 0.1


def test_mounted_in_another_app() -> None:
    import contextlib

    from starlette.applications import Starlette
    from starlette.routing import Mount

    mcp_app = tmcp.asgi_app(TOOLS, path="/")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        async with mcp_app.router.lifespan_context(mcp_app):
            yield

    parent = Starlette(routes=[Mount("/tools", app=mcp_app)], lifespan=lifespan)

    async def body(client: Client) -> Any:
        return await client.call_tool("weather", {"city": "Oslo"})

    with serving(parent) as url:
        result = run(url.replace("/mcp", "/tools/"), body)
    assert result.content[0].text == "sunny in Oslo for 1 day(s)"
