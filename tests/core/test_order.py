"""The model's order: sequential calls are barriers, consecutive concurrent calls run together."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

import toolparse as tp


def recorder() -> tuple[list[str], list[tp.Function]]:
    """Tools that record their side effects; the sequential ones are slow, the concurrent fast."""
    log: list[str] = []
    notes: dict[str, str] = {}

    def write_note(a: Any) -> str:
        time.sleep(0.03)  # slower than the read: a wrong order would show
        notes["note"] = a["text"]
        log.append(f"write:{a['text']}")
        return "saved"

    def read_note(a: Any) -> str:
        log.append("read")
        return notes.get("note", "<no note yet>")

    async def fetch(a: Any) -> str:
        await asyncio.sleep(0.01)
        log.append(f"fetch:{a['n']}")
        return "fetched"

    return log, [
        tp.Function("write_note", write_note),
        tp.Function("read_note", read_note, concurrent=True),
        tp.Function("fetch", fetch, concurrent=True),
    ]


def mixed_calls() -> list[tp.ToolCall]:
    return [
        tp.ToolCall("1", "write_note", {"text": "a"}),
        tp.ToolCall("2", "read_note", {}),
        tp.ToolCall("3", "fetch", {"n": 1}),
        tp.ToolCall("4", "write_note", {"text": "b"}),
        tp.ToolCall("5", "read_note", {}),
    ]


def check_mixed(log: list[str], results: list[tp.ToolResult]) -> None:
    assert [r.tool_call_id for r in results] == ["1", "2", "3", "4", "5"]
    assert results[1].content == "a"  # the read saw the write before it
    assert results[4].content == "b"
    # every side effect happened in the model's order, except inside the
    # concurrent group (2, 3), whose members may finish in any order
    assert log[0] == "write:a"
    assert sorted(log[1:3]) == ["fetch:1", "read"]
    assert log[3:] == ["write:b", "read"]


def test_sync_execute_follows_the_models_order() -> None:
    log, fns = recorder()
    check_mixed(log, tp.execute_tool_calls(fns, mixed_calls()))


def test_async_execute_follows_the_models_order() -> None:
    log, fns = recorder()
    check_mixed(log, asyncio.run(tp.aexecute_tool_calls(fns, mixed_calls())))


def test_a_concurrent_read_after_a_sequential_write_sees_it() -> None:
    _log, fns = recorder()
    calls = [tp.ToolCall("w", "write_note", {"text": "x"}), tp.ToolCall("r", "read_note", {})]
    for results in (
        tp.execute_tool_calls(fns, calls),
        asyncio.run(tp.aexecute_tool_calls(fns, calls)),
        tp.Toolset(fns).execute(calls),
    ):
        assert [r.content for r in results] == ["saved", "x"]


def test_a_later_sequential_call_waits_for_the_concurrent_group() -> None:
    finished: list[str] = []

    def slow(a: Any) -> str:
        time.sleep(0.05)
        finished.append("slow")
        return "s"

    def after(a: Any) -> str:
        finished.append("after")
        return "a"

    fns = [tp.Function("slow", slow, concurrent=True), tp.Function("after", after)]
    calls = [tp.ToolCall("1", "slow"), tp.ToolCall("2", "slow"), tp.ToolCall("3", "after")]
    tp.execute_tool_calls(fns, calls)
    assert finished == ["slow", "slow", "after"]
    finished.clear()
    asyncio.run(tp.aexecute_tool_calls(fns, calls))
    assert finished == ["slow", "slow", "after"]


def sleepers() -> list[tp.Function]:
    def sync_sleep(a: Any) -> str:
        time.sleep(0.2)
        return "s"

    async def async_sleep(a: Any) -> str:
        await asyncio.sleep(0.2)
        return "a"

    return [
        tp.Function("sync_sleep", sync_sleep, concurrent=True),
        tp.Function("async_sleep", async_sleep, concurrent=True),
    ]


@pytest.mark.parametrize(
    "names", [("sync_sleep",) * 2, ("async_sleep",) * 2, ("sync_sleep", "async_sleep")]
)
def test_two_concurrent_sleeps_finish_together(names: tuple[str, str]) -> None:
    calls = [tp.ToolCall(str(i), name) for i, name in enumerate(names)]
    started = time.perf_counter()
    results = tp.execute_tool_calls(sleepers(), calls)
    assert time.perf_counter() - started < 0.35
    assert not any(r.is_error for r in results)
    started = time.perf_counter()
    results = asyncio.run(tp.aexecute_tool_calls(sleepers(), calls))
    assert time.perf_counter() - started < 0.35
    assert not any(r.is_error for r in results)


def test_unknown_tools_inside_a_concurrent_group_are_answered_in_place() -> None:
    log, fns = recorder()
    calls = [
        tp.ToolCall("1", "read_note", {}),
        tp.ToolCall("2", "nope", {}),
        tp.ToolCall("3", "fetch", {"n": 2}),
    ]
    results = tp.execute_tool_calls(fns, calls)
    assert [r.tool_call_id for r in results] == ["1", "2", "3"]
    assert results[1].is_error
    assert "nope" in results[1].text
    assert sorted(log) == ["fetch:2", "read"]


def test_max_concurrency_bounds_a_sync_group() -> None:
    active = 0
    peak = 0
    lock = threading.Lock()

    def body(a: Any) -> str:
        nonlocal active, peak
        with lock:
            active += 1
            peak = max(peak, active)
        time.sleep(0.02)
        with lock:
            active -= 1
        return "x"

    fn = tp.Function("t", body, concurrent=True)
    results = tp.execute_tool_calls(
        [fn], [tp.ToolCall(str(i), "t") for i in range(8)], max_concurrency=3
    )
    assert peak == 3
    assert [r.content for r in results] == ["x"] * 8


def test_a_group_larger_than_the_pool_still_runs_every_call() -> None:
    from toolparse.calls import worker_pool

    pool = worker_pool()
    calls = [tp.ToolCall(str(i), "t") for i in range(pool.max_workers + 10)]
    fn = tp.Function("t", lambda a: (time.sleep(0.005), "x")[1], concurrent=True)
    assert [r.content for r in tp.execute_tool_calls([fn], calls)] == ["x"] * len(calls)
    assert [r.content for r in asyncio.run(tp.aexecute_tool_calls([fn], calls))] == ["x"] * len(
        calls
    )
