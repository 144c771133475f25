"""The caller's thread and loop are never hijacked."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

import toolparse as tp


def spy() -> tuple[list[tuple[str, bool]], tp.Function]:
    """A sync tool that records its thread and whether an event loop runs there."""
    seen: list[tuple[str, bool]] = []

    def body(a: Any) -> str:
        try:
            asyncio.get_running_loop()
            running = True
        except RuntimeError:
            running = False
        seen.append((threading.current_thread().name, running))
        return "x"

    return seen, tp.Function("spy", body)


def test_sync_tools_run_inline_with_no_loop_and_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    seen, fn = spy()
    started: list[object] = []
    real_start = threading.Thread.start
    monkeypatch.setattr(
        threading.Thread, "start", lambda self: (started.append(self), real_start(self))[1]
    )
    real_run = asyncio.run
    monkeypatch.setattr(
        asyncio, "run", lambda *a, **k: (started.append("loop"), real_run(*a, **k))[1]
    )
    results = tp.execute_tool_calls([fn], [tp.ToolCall("1", "spy"), tp.ToolCall("2", "spy")])
    assert [r.content for r in results] == ["x", "x"]
    here = threading.current_thread().name
    assert seen == [(here, False), (here, False)]
    assert started == []  # no thread, no event loop


def test_a_lone_concurrent_call_runs_inline_too() -> None:
    seen, fn = spy()
    conc = tp.Function("spy", fn.function, concurrent=True)
    tp.execute_tool_calls([conc], [tp.ToolCall("1", "spy")])
    assert seen == [(threading.current_thread().name, False)]


def test_execute_inside_a_running_loops_thread() -> None:
    _seen, fn = spy()

    async def an_async(a: Any) -> str:
        await asyncio.sleep(0)
        return "async"

    afn = tp.Function("an_async", an_async)

    async def main() -> list[tp.ToolResult]:
        return tp.execute_tool_calls(
            [fn, afn], [tp.ToolCall("1", "spy"), tp.ToolCall("2", "an_async")], timeout=5
        )

    results = asyncio.run(main())
    assert [r.content for r in results] == ["x", "async"]


def test_execute_inside_a_worker_thread() -> None:
    seen, fn = spy()
    out: list[list[tp.ToolResult]] = []
    worker = threading.Thread(
        target=lambda: out.append(tp.execute_tool_calls([fn], [tp.ToolCall("1", "spy")])),
        name="app-worker",
    )
    worker.start()
    worker.join(5)
    assert [r.content for r in out[0]] == ["x"]
    assert seen == [("app-worker", False)]


def test_aexecute_never_blocks_the_loop() -> None:
    def blocking(a: Any) -> str:
        time.sleep(0.5)
        return "done"

    fn = tp.Function("blocking", blocking)  # sequential: still off the loop
    ticks = 0

    async def heartbeat() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.05)
            ticks += 1

    async def main() -> list[tp.ToolResult]:
        beat = asyncio.create_task(heartbeat())
        try:
            return await tp.aexecute_tool_calls([fn], [tp.ToolCall("1", "blocking")])
        finally:
            beat.cancel()

    (result,) = asyncio.run(main())
    assert result.content == "done"
    assert ticks >= 5


def test_aexecute_parses_on_the_loop_and_needs_no_thread_for_a_rejected_call() -> None:
    calls: list[str] = []

    def body(a: Any) -> str:
        calls.append(threading.current_thread().name)
        return "ran"

    fn = tp.Function("t", body, parameters=[tp.FunctionParam("q", "string", required=True)])

    async def main() -> list[tp.ToolResult]:
        return await tp.aexecute_tool_calls(
            [fn], [tp.ToolCall("1", "t", {}), tp.ToolCall("2", "t", {"q": "a"})]
        )

    rejected, ran = asyncio.run(main())
    assert rejected.is_error
    assert "Missing required parameters" in rejected.text
    assert ran.content == "ran"
    assert calls
    assert calls[0].startswith("toolparse-worker-")


def test_cancelling_aexecute_cancels_its_async_tools_and_leaves_no_task() -> None:
    cancelled: list[str] = []

    async def forever(a: Any) -> str:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.append(a["n"])
            raise
        return "never"

    fn = tp.Function(
        "forever", forever, concurrent=True, parameters=[tp.FunctionParam("n", "string")]
    )

    async def main() -> set[asyncio.Task[Any]]:
        run = asyncio.create_task(
            tp.aexecute_tool_calls(
                [fn],
                [tp.ToolCall("1", "forever", {"n": "a"}), tp.ToolCall("2", "forever", {"n": "b"})],
            )
        )
        await asyncio.sleep(0.05)
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run
        return asyncio.all_tasks() - {asyncio.current_task()}  # type: ignore[operator]

    left = asyncio.run(main())
    assert left == set()
    assert sorted(cancelled) == ["a", "b"]
