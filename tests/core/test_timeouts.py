"""Timeouts that tell the truth, and hung tools that never stall later work."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

import toolparse as tp
from toolparse.calls import set_max_workers, worker_pool


def test_an_async_body_past_its_timeout_is_stopped() -> None:
    stopped: list[bool] = []

    async def slow(a: Any) -> str:
        try:
            await asyncio.sleep(5)
        except asyncio.CancelledError:
            stopped.append(True)
            raise
        return "late"

    for run in (
        lambda calls: tp.execute_tool_calls([tp.Function("slow", slow)], calls, timeout=0.05),
        lambda calls: asyncio.run(
            tp.aexecute_tool_calls([tp.Function("slow", slow)], calls, timeout=0.05)
        ),
    ):
        (result,) = run([tp.ToolCall("1", "slow")])
        assert result.is_error
        assert result.content == "The tool slow did not finish within 0.05 seconds and was stopped."
    assert stopped == [True, True]


def test_a_sync_body_past_its_timeout_may_still_finish(release: threading.Event) -> None:
    sent: list[str] = []

    def send_email(a: Any) -> str:
        release.wait(5)
        sent.append("email")
        return "sent"

    fn = tp.Function("send_email", send_email)
    text = (
        "The tool send_email did not finish within 0.05 seconds; it may still finish, "
        "so check its effect before calling it again."
    )
    started = time.perf_counter()
    (result,) = tp.execute_tool_calls([fn], [tp.ToolCall("1", "send_email")], timeout=0.05)
    assert time.perf_counter() - started < 1
    assert result.is_error
    assert result.content == text
    (result,) = asyncio.run(
        tp.aexecute_tool_calls([fn], [tp.ToolCall("2", "send_email")], timeout=0.05)
    )
    assert result.content == text
    conc = tp.Function("send_email", send_email, concurrent=True)
    results = tp.execute_tool_calls(
        [conc], [tp.ToolCall("3", "send_email"), tp.ToolCall("4", "send_email")], timeout=0.05
    )
    assert [r.content for r in results] == [text, text]


def test_the_late_outcome_goes_to_the_observing_hook(release: threading.Event) -> None:
    seen: list[tuple[str, bool, str]] = []
    got_late = threading.Event()

    class Observer:
        @tp.hookimpl
        def toolparse_tool_executed(
            self, call: tp.ToolCall, result: tp.ToolResult, late: bool
        ) -> None:
            seen.append((call.id, late, result.text))
            if late:
                got_late.set()

    pm = tp.make_plugin_manager(load_entry_points=False)
    pm.register(Observer())

    def send_email(a: Any) -> str:
        release.wait(5)
        return "sent after all"

    fn = tp.Function("send_email", send_email)
    tp.execute_tool_calls([fn], [tp.ToolCall("1", "send_email")], timeout=0.05, plugin_manager=pm)
    assert seen == [("1", False, seen[0][2])]
    assert "may still finish" in seen[0][2]
    release.set()
    assert got_late.wait(5)
    assert seen[1] == ("1", True, "sent after all")


def test_after_200_hung_calls_later_calls_answer_in_time(release: threading.Event) -> None:
    entered: list[int] = []

    def hang(a: Any) -> str:
        entered.append(1)
        release.wait(30)
        return "late"

    fns = [
        tp.Function("hang", hang, concurrent=True),
        tp.Function("quick", lambda a: "quick"),
        tp.Function("quick_conc", lambda a: "quick", concurrent=True),
    ]
    results = tp.execute_tool_calls(
        fns, [tp.ToolCall(str(i), "hang") for i in range(200)], timeout=0.1
    )
    assert all(r.is_error for r in results)
    limit = worker_pool().max_workers
    assert worker_pool().threads <= limit  # the threads stay bounded
    # those that held a thread may still finish; those still waiting never start
    running = [r for r in results if "it may still finish" in r.text]
    withdrawn = [r for r in results if r.text.endswith("and was stopped.")]
    assert len(running) <= limit
    assert len(running) + len(withdrawn) == 200
    # a sequential call without a timeout runs inline: answered
    (quick,) = tp.execute_tool_calls(fns, [tp.ToolCall("q", "quick")])
    assert quick.content == "quick"
    # the pool bound to the threads the hung calls hold (on a busy machine a call
    # may have been withdrawn before its thread took it): the pool is full
    full = len(entered)
    deadline = time.monotonic() + 10
    while worker_pool().busy != full and time.monotonic() < deadline:
        time.sleep(0.01)  # a withdrawn call still to be skipped by its thread
    assert worker_pool().busy == full >= 1
    try:
        set_max_workers(full)
        # a call that needs a worker thread waits its turn, up to its timeout
        (waited,) = tp.execute_tool_calls(fns, [tp.ToolCall("w", "quick")], timeout=0.05)
        assert waited.text == "The tool quick did not finish within 0.05 seconds and was stopped."
        # with no room to wait, it gets a clear error at once
        set_max_workers(full, queue=0)
        for calls, kwargs in (
            ([tp.ToolCall("q", "quick")], {"timeout": 1}),
            ([tp.ToolCall("a", "quick_conc"), tp.ToolCall("b", "quick_conc")], {}),
        ):
            for result in tp.execute_tool_calls(fns, calls, **kwargs):  # type: ignore[arg-type]
                assert result.is_error
                assert result.text == (
                    f"The tool {result.name} could not be started: all {full} worker threads are "
                    "busy with earlier calls that have not finished. Try again later."
                )
        (async_quick,) = asyncio.run(tp.aexecute_tool_calls(fns, [tp.ToolCall("q", "quick")]))
        assert "worker threads are busy" in async_quick.text
    finally:
        set_max_workers(limit, queue=1000)


@pytest.mark.parametrize("bad", [0, -1, 0.0, float("nan"), True, "5"])
def test_invalid_timeouts_are_refused(bad: Any) -> None:
    fn = tp.Function("t", lambda a: "x")
    with pytest.raises(ValueError, match="timeout must be a number of seconds above 0"):
        tp.execute_tool_calls([fn], [tp.ToolCall("1", "t")], timeout=bad)
    with pytest.raises(ValueError, match="timeout must be"):
        asyncio.run(tp.aexecute_tool_calls([fn], [tp.ToolCall("1", "t")], timeout=bad))
    with pytest.raises(ValueError, match="timeout must be"):
        tp.Toolset([fn]).execute([tp.ToolCall("1", "t")], timeout=bad)


@pytest.mark.parametrize("bad", [0, -2, 1.5, True])
def test_invalid_max_concurrency_is_refused(bad: Any) -> None:
    fn = tp.Function("t", lambda a: "x")
    with pytest.raises(ValueError, match="max_concurrency must be a whole number"):
        tp.execute_tool_calls([fn], [tp.ToolCall("1", "t")], max_concurrency=bad)


def test_a_call_within_its_timeout_is_answered_normally() -> None:
    fn = tp.Function("t", lambda a: "fine")
    (result,) = tp.execute_tool_calls([fn], [tp.ToolCall("1", "t")], timeout=5)
    assert result.content == "fine"
    assert not result.is_error


def test_the_bound_is_configurable() -> None:
    pool = worker_pool()
    before = pool.max_workers
    try:
        set_max_workers(3)
        assert pool.max_workers == 3
        for bad in (0, -1, 1.5, True):
            with pytest.raises(ValueError, match="max_workers must be a whole number"):
                set_max_workers(bad)  # type: ignore[arg-type]
    finally:
        set_max_workers(before)


@pytest.mark.parametrize(("env", "bound"), [("7", 7), ("many", 32), ("0", 32)])
def test_the_bound_comes_from_the_environment(env: str, bound: int) -> None:
    probe = "from toolparse.calls import worker_pool; print(worker_pool().max_workers)"
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "TOOLPARSE_MAX_WORKERS": env},
    ).stdout
    assert int(out) == bound


def test_a_body_that_catches_its_cancellation_is_answered_at_the_timeout() -> None:
    # asyncio.wait_for would wait for the cancelled task to end: the batch would
    # hold for the body's 0.5 s nap (or forever, for a body that never returns)
    async def stubborn(a: Any) -> str:
        try:
            await asyncio.sleep(5)
        except asyncio.CancelledError:
            await asyncio.sleep(0.5)  # carries on after being cancelled
        return "late"

    calls = [tp.ToolCall("1", "stubborn", {})]
    for concurrent in (False, True):
        fn = tp.Function("stubborn", stubborn, concurrent=concurrent)
        for run in (
            lambda fn=fn: tp.execute_tool_calls([fn], calls, timeout=0.05),
            lambda fn=fn: asyncio.run(tp.aexecute_tool_calls([fn], calls, timeout=0.05)),
        ):
            start = time.perf_counter()
            [result] = run()
            # the timed-out answer, never the late "late" the body returns afterwards
            assert result.is_error
            assert result.content == (
                "The tool stubborn did not finish within 0.05 seconds and was stopped."
            )
            assert time.perf_counter() - start < 0.45
