"""Cancelling a batch reaches every running async body at once, and returns once they unwound."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from tests.core.test_calls_loop import PARTNER, observed

import toolparse as tp

Run = Callable[[list[tp.Function], list[tp.ToolCall]], Awaitable[list[tp.ToolResult]]]


class Bodies:
    """Async bodies that start, then wait to be cancelled; what each went through, by call id."""

    def __init__(self, expected: int) -> None:
        self.started: list[str] = []
        self.unwound: list[str] = []
        self.all_started = asyncio.Event()
        self.expected = expected

    def tool(self, name: str, concurrent: bool = True) -> tp.Function:
        async def body(a: Any, ctx: Any) -> str:
            self.started.append(ctx["tool_call_id"])
            if len(self.started) == self.expected:
                self.all_started.set()
            try:
                await asyncio.sleep(PARTNER * 10)
            except asyncio.CancelledError:
                await asyncio.sleep(0.01)  # unwinding takes a turn of the loop or two
                self.unwound.append(ctx["tool_call_id"])
                raise
            return "finished"

        return tp.Function(name, body, concurrent=concurrent)


async def cancelled(batch: Awaitable[Any], bodies: Bodies) -> None:
    """Start ``batch``, cancel it once every body runs; it must end as cancelled."""
    task = asyncio.ensure_future(batch)
    await asyncio.wait_for(bodies.all_started.wait(), PARTNER)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


@pytest.mark.parametrize("timeout", [None, 30])
@pytest.mark.parametrize("entry", ["function", "toolset"])
def test_cancelling_a_batch_cancels_every_running_body(timeout: float | None, entry: str) -> None:
    async def main() -> list[str]:
        bodies = Bodies(3)
        fns = [bodies.tool("wait")]
        calls = [tp.ToolCall(str(i), "wait") for i in range(3)]
        if entry == "toolset":
            batch = tp.Toolset(fns).aexecute(calls, timeout=timeout)
        else:
            batch = tp.aexecute_tool_calls(fns, calls, timeout=timeout)
        await cancelled(batch, bodies)
        # the batch returned only after every body had unwound
        return sorted(bodies.unwound)

    assert asyncio.run(main()) == ["0", "1", "2"]


@pytest.mark.parametrize("timeout", [None, 30])
def test_a_lone_call_is_cancelled_with_its_batch(timeout: float | None) -> None:
    async def main() -> list[str]:
        bodies = Bodies(1)
        pm, _ = observed()  # observed: the call runs on the batch's own path, not inline
        batch = tp.aexecute_tool_calls(
            [bodies.tool("wait", concurrent=False)],
            [tp.ToolCall("a", "wait")],
            timeout=timeout,
            plugin_manager=pm,
        )
        await cancelled(batch, bodies)
        return bodies.unwound

    assert asyncio.run(main()) == ["a"]


@pytest.mark.parametrize("timeout", [None, 30])
def test_a_body_that_swallows_its_cancellation_is_abandoned_and_heard_late(
    timeout: float | None,
) -> None:
    release = asyncio.Event()

    async def stubborn(a: Any) -> str:
        try:
            await asyncio.sleep(PARTNER * 10)
        except asyncio.CancelledError:
            await release.wait()  # carries on regardless
        return "done anyway"

    async def main() -> list[tuple[str, str | None, bool, float, str]]:
        bodies = Bodies(1)
        pm, observer = observed()
        fns = [bodies.tool("wait"), tp.Function("stubborn", stubborn, concurrent=True)]
        calls = [tp.ToolCall("w", "wait"), tp.ToolCall("s", "stubborn")]
        await cancelled(
            tp.aexecute_tool_calls(fns, calls, timeout=timeout, plugin_manager=pm), bodies
        )
        assert bodies.unwound == ["w"]  # the other body unwound; this one was left behind
        assert observer.seen == []
        release.set()
        for _ in range(100):  # the abandoned body ends on this loop, a few turns later
            if observer.seen:
                break
            await asyncio.sleep(0.01)
        return observer.seen

    (heard,) = asyncio.run(main())
    assert (heard[0], heard[1], heard[2], heard[4]) == ("s", "stubborn", True, "done anyway")


def test_a_running_sync_body_is_heard_late_when_its_batch_is_cancelled() -> None:
    release = threading.Event()
    started = threading.Event()

    def send(a: Any) -> str:
        started.set()
        release.wait(PARTNER)
        return "sent"

    async def main() -> None:
        pm, observer = observed()
        task = asyncio.ensure_future(
            tp.aexecute_tool_calls(
                [tp.Function("send", send)], [tp.ToolCall("1", "send")], plugin_manager=pm
            )
        )
        await asyncio.get_running_loop().run_in_executor(None, started.wait, PARTNER)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        release.set()
        assert await asyncio.get_running_loop().run_in_executor(
            None, observer.got_late.wait, PARTNER
        )
        assert [s[:3] for s in observer.seen] == [("1", "send", True)]
        assert observer.seen[0][4] == "sent"

    asyncio.run(main())
