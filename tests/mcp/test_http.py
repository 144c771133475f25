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
from toolparse.calls import set_max_workers


def run(url: str, body: Any, mode: str = "auto", limit: float = 120) -> Any:
    """Run ``body(client)`` against ``url``.

    ``limit`` guards against a hang, and promises nothing about speed: a busy
    machine has taken 28 s for the first run of this file.
    """

    async def main() -> Any:
        with anyio.fail_after(limit):
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


class Tally:
    """What the tools of :func:`counted_tools` did: runs per label, and overlap per kind."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.runs: collections.Counter[str] = collections.Counter()
        self.running: collections.Counter[str] = collections.Counter()
        #: the most calls of each kind that were running at the same moment
        self.peak: collections.Counter[str] = collections.Counter()
        self.started: set[str] = set()
        #: set once two calls of a kind were running at the same moment
        self.met = {"slow sync": threading.Event(), "slow async": threading.Event()}

    def enter(self, kind: str) -> bool:
        """Note a call of ``kind`` running; whether it is the first of its kind."""
        with self.lock:
            self.running[kind] += 1
            self.peak[kind] = max(self.peak[kind], self.running[kind])
            if self.running[kind] >= 2:
                self.met[kind].set()
            first = kind not in self.started
            self.started.add(kind)
            return first

    def leave(self, kind: str, label: str) -> None:
        with self.lock:
            self.running[kind] -= 1
            self.runs[label] += 1


#: how long the first slow call of a kind waits for a second one to start beside it
PARTNER_WAIT = 10.0


def counted_tools() -> tuple[list[tp.Function], Tally]:
    """Fast and slow tools (sync and async) that count their runs and how far they overlap.

    Each slow call takes 0.2 s, except the first of its kind: it holds until a
    second call of its kind runs beside it (at most PARTNER_WAIT seconds). A
    server that queued the calls would never start that second call while the
    first holds, so the overlap is proven by what ran, whatever the machine's
    load, not by how long the batch took.
    """
    tally = Tally()

    @tp.tool
    def quick(label: str) -> str:
        """Fast."""
        tally.enter("quick")
        tally.leave("quick", label)
        return f"quick {label}"

    @tp.tool
    def slow_sync(label: str) -> str:
        """A sync tool that takes 0.2 s."""
        if tally.enter("slow sync"):
            tally.met["slow sync"].wait(PARTNER_WAIT)
        else:
            time.sleep(0.2)
        tally.leave("slow sync", label)
        return f"slow sync {label}"

    @tp.tool
    async def slow_async(label: str) -> str:
        """An async tool that takes 0.2 s."""
        if tally.enter("slow async"):
            deadline = time.monotonic() + PARTNER_WAIT
            while not tally.met["slow async"].is_set() and time.monotonic() < deadline:
                await asyncio.sleep(0.01)  # polled: a threading.Event would block the loop
        else:
            await asyncio.sleep(0.2)
        tally.leave("slow async", label)
        return f"slow async {label}"

    return [quick, slow_sync, slow_async], tally


@pytest.fixture
def roomy_pool() -> Any:
    """A worker pool with room for every sync call of the batch at once.

    The server answers a call that finds every worker thread busy with the
    ``no_worker`` error (the pool's bound is tested in tests/core); a fast
    machine can have all 150 sync calls of this batch in flight at once.
    """
    from toolparse.calls import worker_pool

    pool = worker_pool()
    before = pool.max_workers
    set_max_workers(256)
    try:
        yield
    finally:
        set_max_workers(before)


@pytest.mark.usefixtures("roomy_pool")
@pytest.mark.parametrize("stateless", [False, True], ids=["sessions", "stateless"])
def test_200_concurrent_calls_are_each_answered_once_and_right(stateless: bool) -> None:
    tools, tally = counted_tools()
    kinds = {"quick": "quick", "slow_sync": "slow sync", "slow_async": "slow async"}
    plan = [(("quick", "slow_sync", "quick", "slow_async")[i % 4], f"c{i}") for i in range(200)]
    answers: dict[str, list[str]] = collections.defaultdict(list)

    async def body(client: Client) -> None:
        async def one(tool: str, label: str) -> None:
            result = await client.call_tool(tool, {"label": label})
            assert result.is_error is False, result.content
            answers[label].append(result.content[0].text)

        async with anyio.create_task_group() as tg:
            for tool, label in plan:
                tg.start_soon(one, tool, label)

    with serving(tmcp.asgi_app(tools, stateless=stateless)) as url:
        run(url, body)
    assert dict(answers) == {label: [f"{kinds[tool]} {label}"] for tool, label in plan}
    assert tally.runs == collections.Counter({label: 1 for _, label in plan})
    # the slow calls overlap instead of queueing: each kind had two calls running at
    # once (the first one held until the second started; see counted_tools)
    assert tally.peak["slow sync"] >= 2
    assert tally.peak["slow async"] >= 2
    assert set(tally.running.values()) == {0}  # every call that started ended


def test_a_ping_during_a_slow_sync_call_is_answered_while_it_runs() -> None:
    started = threading.Event()
    release = threading.Event()
    finished = threading.Event()

    @tp.tool
    def blocking(label: str) -> str:
        """A sync tool that holds its thread until released (longer than the run may take)."""
        started.set()
        released = release.wait(60)
        finished.set()
        return f"{'released' if released else 'gave up'} {label}"

    async def body(client: Client) -> tuple[bool, Any]:
        async with anyio.create_task_group() as tg:
            results: list[Any] = []

            async def call() -> None:
                results.append(await client.call_tool("blocking", {"label": "a"}))

            tg.start_soon(call)
            await anyio.to_thread.run_sync(started.wait, 10)
            for _ in range(3):
                await client.session.send_ping()
            # what is proven is the order, not a latency: a server blocked by the
            # sync body would answer no ping before the body ended (released by
            # the test only after these, else after 60 s); these were answered
            # while it still held its thread
            held = not finished.is_set()
            release.set()
        return held, results[0]

    with serving(tmcp.asgi_app([blocking])) as url:
        held, result = run(url, body, mode="legacy")  # ping is a handshake-era request
    assert held
    assert result.content[0].text == "released a"


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
