"""The tool-call loop's promises, each held by a test: context, ids, groups, pool, timeouts, observers."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

import toolparse as tp
from toolparse import messages
from toolparse.calls import set_max_workers, worker_pool

#: how long a body waits for a partner that should be running beside it: far
#: longer than any machine needs to start it, and only spent when a test fails
PARTNER = 10.0


def both(fns: Any, calls: list[tp.ToolCall], **kwargs: Any) -> list[list[tp.ToolResult]]:
    """The results of the sync and the async entry point, for the same batch."""
    return [
        tp.execute_tool_calls(fns, calls, **kwargs),
        asyncio.run(tp.aexecute_tool_calls(fns, calls, **kwargs)),
    ]


class Observer:
    """Every ``toolparse_tool_executed`` call: (call id, tool name or None, late, duration, text)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str | None, bool, float, str]] = []
        self.got_late = threading.Event()

    @tp.hookimpl
    def toolparse_tool_executed(
        self,
        call: tp.ToolCall,
        function: tp.Function | None,
        result: tp.ToolResult,
        duration: float,
        late: bool,
    ) -> None:
        name = None if function is None else function.name
        self.seen.append((call.id, name, late, duration, result.text))
        if late:
            self.got_late.set()


def observed() -> tuple[tp.PluginManager, Observer]:
    pm = tp.make_plugin_manager(load_entry_points=False)
    observer = Observer()
    pm.register(observer)
    return pm, observer


# -- the context ------------------------------------------------------------------


@pytest.mark.parametrize("concurrent", [False, True])
def test_a_context_that_is_not_a_mapping_is_passed_through_untouched(concurrent: bool) -> None:
    marker = object()
    seen: list[object] = []
    fn = tp.Function("t", lambda a, ctx: seen.append(ctx) or "x", concurrent=concurrent)
    for results in both([fn], [tp.ToolCall("1", "t"), tp.ToolCall("2", "t")], context=marker):
        assert [r.content for r in results] == ["x", "x"]
    assert seen == [marker] * 4


def test_the_async_entry_point_gives_each_tool_its_own_id() -> None:
    seen: list[dict[str, Any]] = []

    async def body(a: Any, ctx: Any) -> str:
        seen.append(ctx)
        return ctx["tool_call_id"]

    fn = tp.Function("t", body)
    context = {"user": "u"}
    results = asyncio.run(
        tp.aexecute_tool_calls([fn], [tp.ToolCall("a", "t"), tp.ToolCall("b", "t")], context)
    )
    assert [r.content for r in results] == ["a", "b"]
    assert seen == [{"user": "u", "tool_call_id": "a"}, {"user": "u", "tool_call_id": "b"}]
    assert seen[0] is not seen[1]
    assert context == {"user": "u"}


# -- ids, kinds, unknown tools ----------------------------------------------------------


def test_every_result_answers_its_own_call_whatever_happened() -> None:
    def crash(a: Any) -> str:
        raise RuntimeError("boom")

    fns = [
        tp.Function("ok", lambda a: "fine"),
        tp.Function("crash", crash, concurrent=True),
        tp.Function("conc", lambda a: "together", concurrent=True),
        tp.Function("strict", lambda a: "x", parameters=[tp.FunctionParam("n", "integer")]),
    ]
    calls = [
        tp.ToolCall("id-ok", "ok"),
        tp.ToolCall("id-crash", "crash"),
        tp.ToolCall("id-missing", "nope", kind="custom"),
        tp.ToolCall("id-conc", "conc"),
        tp.ToolCall("id-bad", "strict", {"n": "seven"}),
    ]
    for results in both(fns, calls):
        assert [r.tool_call_id for r in results] == [c.id for c in calls]
        assert [r.name for r in results] == [c.name for c in calls]
        assert [r.is_error for r in results] == [False, True, True, False, True]
        # the answer to an unknown tool keeps the kind of the call it answers
        assert [r.kind for r in results] == [
            "function",
            "function",
            "custom",
            "function",
            "function",
        ]
        assert results[2].text == messages.unknown_tool("nope", ["ok", "crash", "conc", "strict"])


def test_an_unknown_tool_inside_a_concurrent_group_does_not_split_it() -> None:
    # the two calls around the unknown one run together: each waits for the other
    meet = threading.Barrier(2, timeout=PARTNER)

    def body(a: Any) -> str:
        meet.wait()
        return "met"

    fn = tp.Function("t", body, concurrent=True)
    calls = [tp.ToolCall("1", "t"), tp.ToolCall("2", "nope"), tp.ToolCall("3", "t")]
    for results in both([fn], calls):
        assert [r.content for r in results][0::2] == ["met", "met"]
        assert results[1].is_error
        meet.reset()


@pytest.mark.parametrize("make", [list, tuple, iter, lambda fns: (f for f in fns)])
def test_two_tools_of_one_name_in_any_iterable_are_a_clear_error(make: Any) -> None:
    fns = [tp.Function("t", lambda a: "1"), tp.Function("t", lambda a: "2")]
    with pytest.raises(tp.FunctionDefinitionError, match="two tools are named 't'"):
        tp.execute_tool_calls(make(fns), [tp.ToolCall("1", "t")])
    with pytest.raises(tp.FunctionDefinitionError, match="two tools are named 't'"):
        asyncio.run(tp.aexecute_tool_calls(make(fns), [tp.ToolCall("1", "t")]))


def test_calls_can_be_any_iterable() -> None:
    fn = tp.Function("t", lambda a, ctx: ctx["tool_call_id"])
    for results in (
        tp.execute_tool_calls([fn], (tp.ToolCall(str(i), "t") for i in range(3))),
        asyncio.run(tp.aexecute_tool_calls([fn], (tp.ToolCall(str(i), "t") for i in range(3)))),
    ):
        assert [r.content for r in results] == ["0", "1", "2"]


# -- the pool ------------------------------------------------------------------------


@pytest.fixture
def two_workers() -> Iterator[None]:
    """The process-wide pool bound to 2 threads for the test (then as it was)."""
    pool = worker_pool()
    before = pool.max_workers
    deadline = time.monotonic() + 5
    while pool.busy and time.monotonic() < deadline:  # threads of earlier tests
        time.sleep(0.01)
    set_max_workers(2)
    try:
        yield
    finally:
        set_max_workers(before, queue=1000)


@pytest.mark.usefixtures("two_workers")
def test_a_group_larger_than_the_pool_waits_for_its_own_threads() -> None:
    running = 0
    peak = 0
    lock = threading.Lock()

    def body(a: Any) -> str:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        time.sleep(0.02)  # holds its thread, so the next call finds the pool full
        with lock:
            running -= 1
        return "x"

    fn = tp.Function("t", body, concurrent=True)
    calls = [tp.ToolCall(str(i), "t") for i in range(6)]
    for results in both([fn], calls):
        # never no_worker: the pool is full of this group's own calls, which end
        assert [r.content for r in results] == ["x"] * 6
    assert peak == 2


@pytest.mark.usefixtures("two_workers")
def test_a_pool_held_by_other_calls_queues_then_answers_no_worker_when_full(
    release: threading.Event,
) -> None:
    def hang(a: Any) -> str:
        release.wait(PARTNER)
        return "late"

    hung = tp.Function("hang", hang, concurrent=True)
    holder = threading.Thread(
        target=tp.execute_tool_calls, args=([hung], [tp.ToolCall("h1", "hang")] * 2), daemon=True
    )
    holder.start()  # two hung calls hold both threads
    deadline = time.monotonic() + PARTNER
    while worker_pool().busy < 2 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert worker_pool().busy == 2
    conc = tp.Function("t", lambda a: "x", concurrent=True)
    seq = tp.Function("t", lambda a: "x")
    group = [tp.ToolCall("a", "t"), tp.ToolCall("b", "t")]
    # they wait their turn, and past their timeout never start
    stopped = "The tool t did not finish within 0.05 seconds and was stopped."
    for results in both([conc], group, timeout=0.05):
        assert [r.text for r in results] == [stopped, stopped]
    # no room to wait: answered at once
    set_max_workers(2, queue=0)
    text = messages.no_worker("t", 2)
    for results in both([conc], group):  # a concurrent group
        assert [r.text for r in results] == [text, text]
    for results in both([seq], [tp.ToolCall("c", "t")], timeout=1):  # a timed call
        assert [r.text for r in results] == [text]
    # a sync body from async code needs a thread; its arguments are checked first
    (result,) = asyncio.run(tp.aexecute_tool_calls([seq], [tp.ToolCall("d", "t")]))
    assert result.text == text
    # the waiting calls start, oldest first, as soon as a thread is free (one, to see the order)
    set_max_workers(1, queue=10)
    order: list[str] = []
    record = tp.Function("r", lambda a: order.append(a["n"]) or a["n"], concurrent=True)
    calls = [tp.ToolCall(str(n), "r", {"n": str(n)}) for n in range(5)]
    box: list[list[tp.ToolResult]] = []
    runner = threading.Thread(target=lambda: box.append(tp.execute_tool_calls([record], calls)))
    runner.start()
    deadline = time.monotonic() + PARTNER
    while worker_pool().waiting < 5 and time.monotonic() < deadline:
        time.sleep(0.005)
    release.set()
    runner.join(PARTNER)
    assert [r.content for r in box[0]] == ["0", "1", "2", "3", "4"]
    assert order == ["0", "1", "2", "3", "4"]


def test_a_sync_tool_that_returns_an_awaitable_is_awaited() -> None:
    async def later(value: str) -> str:
        await asyncio.sleep(0)
        return f"awaited {value}"

    fn = tp.Function("t", lambda a: later(a["v"]))
    for results in both([fn], [tp.ToolCall("1", "t", {"v": "x"})]):
        assert [r.content for r in results] == ["awaited x"]


# -- timeouts -------------------------------------------------------------------------


def test_invalid_timeouts_include_nan() -> None:
    fn = tp.Function("t", lambda a: "x")
    for bad in (float("nan"), float("-inf"), 0, -1, True, "1"):
        with pytest.raises(ValueError, match="timeout must be a number of seconds above 0"):
            tp.execute_tool_calls([fn], [], timeout=bad)
        with pytest.raises(ValueError, match="timeout must be a number of seconds above 0"):
            asyncio.run(tp.aexecute_tool_calls([fn], [], timeout=bad))


def test_a_lone_concurrent_call_keeps_its_timeout(release: threading.Event) -> None:
    finished = threading.Event()

    def hang(a: Any) -> str:
        release.wait(PARTNER)
        finished.set()
        return "late"

    async def ahang(a: Any) -> str:
        await asyncio.sleep(PARTNER)
        return "late"

    sync = tp.Function("hang", hang, concurrent=True)
    (result,) = tp.execute_tool_calls([sync], [tp.ToolCall("1", "hang")], timeout=0.05)
    assert result.text == messages.timed_out("hang", 0.05, stopped=False)
    assert not finished.is_set()  # answered while the body still held its thread
    asyncs = tp.Function("hang", ahang, concurrent=True)
    for results in both([asyncs], [tp.ToolCall("2", "hang")], timeout=0.05):
        assert [r.text for r in results] == [messages.timed_out("hang", 0.05, stopped=True)]


def test_a_sync_body_past_its_timeout_in_async_code_reports_late(
    release: threading.Event,
) -> None:
    def send(a: Any) -> str:
        release.wait(PARTNER)
        return "sent after all"

    pm, observer = observed()
    fn = tp.Function("send", send)
    (result,) = asyncio.run(
        tp.aexecute_tool_calls([fn], [tp.ToolCall("1", "send")], timeout=0.05, plugin_manager=pm)
    )
    assert result.text == messages.timed_out("send", 0.05, stopped=False)
    assert [s[:3] for s in observer.seen] == [("1", "send", False)]
    release.set()
    assert observer.got_late.wait(PARTNER)
    assert observer.seen[1][:3] == ("1", "send", True)
    assert observer.seen[1][4] == "sent after all"


# -- observers --------------------------------------------------------------------------


def test_the_observers_hear_every_call_with_its_tool_and_duration() -> None:
    def slow(a: Any) -> str:
        time.sleep(0.02)
        return "slow"

    fns = [tp.Function("slow", slow), tp.Function("conc", lambda a: "c", concurrent=True)]
    calls = [
        tp.ToolCall("1", "slow"),
        tp.ToolCall("2", "nope"),
        tp.ToolCall("3", "conc"),
        tp.ToolCall("4", "conc"),
    ]
    for run in (
        lambda pm: tp.execute_tool_calls(fns, calls, plugin_manager=pm),
        lambda pm: asyncio.run(tp.aexecute_tool_calls(fns, calls, plugin_manager=pm)),
    ):
        pm, observer = observed()
        run(pm)
        heard = sorted(observer.seen)
        assert [(i, name, late) for i, name, late, _, _ in heard] == [
            ("1", "slow", False),
            ("2", None, False),  # an unknown tool: no Function
            ("3", "conc", False),
            ("4", "conc", False),
        ]
        assert heard[0][3] >= 0.02  # the duration covers the body (a sleep lasts at least this)
        assert all(d >= 0 for _, _, _, d, _ in heard)
