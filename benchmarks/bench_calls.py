"""Calls: the cost of execute_tool_calls, aexecute_tool_calls and Toolset.execute over what they wrap.

The baseline is what a caller would write by hand: ``fn.execute`` and building
the ``ToolResult`` (``ToolResult.from_outcome``). The difference is the batch's
own work: the name lookup, the context with ``tool_call_id``, the order.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import toolparse as tp
from harness import Row, interleaved

ARGS = {"city": "Oslo", "days": 3}


def body(a: dict[str, object]) -> str:
    return f"{a['city']}: {a['days']} days"


async def abody(a: dict[str, object]) -> str:
    return f"{a['city']}: {a['days']} days"


def params() -> list[tp.FunctionParam]:
    return [
        tp.FunctionParam("city", "string", required=True),
        tp.FunctionParam("days", "integer", required=True),
    ]


def run() -> list[Row]:
    fn = tp.Function(
        "weather",
        body,
        parameters_schema={
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            "required": ["city", "days"],
        },
    )
    fns = [fn]
    toolset = tp.Toolset(fns)
    one = [tp.ToolCall("c1", "weather", ARGS)]
    ten = [tp.ToolCall(f"c{i}", "weather", ARGS) for i in range(10)]
    from_outcome = tp.ToolResult.from_outcome

    def by_hand(calls: list[tp.ToolCall]) -> list[tp.ToolResult]:
        return [from_outcome(c, fn, fn.execute(c.arguments)) for c in calls]

    rows = []
    ours, base = interleaved(
        lambda: tp.execute_tool_calls(fns, one), lambda: by_hand(one), rounds=7
    )
    rows.append(Row("execute_tool_calls, 1 sync call", ours, base, "fn.execute + ToolResult", 1.5))
    ours, base = interleaved(
        lambda: tp.execute_tool_calls(fns, ten), lambda: by_hand(ten), rounds=7
    )
    rows.append(
        Row("execute_tool_calls, 10 sync calls", ours, base, "fn.execute + ToolResult", 1.3)
    )
    ours, base = interleaved(lambda: toolset.execute(one), lambda: by_hand(one), rounds=7)
    rows.append(Row("Toolset.execute, 1 sync call", ours, base, "fn.execute + ToolResult", 1.5))

    afn = tp.Function("weather", abody, parameters_schema=fn.parameters_schema)
    afns = [afn]
    loop = asyncio.new_event_loop()

    async def ours_async() -> object:
        return await tp.aexecute_tool_calls(afns, one)

    async def base_async() -> object:
        call = one[0]
        return from_outcome(call, afn, await afn.aexecute(call.arguments))

    try:
        ours, base = _ainterleaved(loop, ours_async, base_async)
    finally:
        loop.close()
    rows.append(
        Row(
            "await aexecute_tool_calls, 1 async call",
            ours,
            base,
            "await fn.aexecute + ToolResult",
            1.5,
        )
    )
    return rows


def _aper_call_us(
    loop: asyncio.AbstractEventLoop, make: Callable[[], Awaitable[object]], number: int = 5_000
) -> float:
    """Best of 3 times of ``await make()`` inside one running loop, per call, in microseconds.

    Timed inside the loop, so the cost of entering the loop is no part of
    either figure.
    """

    async def many() -> float:
        start = time.perf_counter()
        for _ in range(number):
            await make()
        return time.perf_counter() - start

    return min(loop.run_until_complete(many()) for _ in range(3)) / number * 1e6


def _ainterleaved(
    loop: asyncio.AbstractEventLoop,
    a: Callable[[], Awaitable[object]],
    b: Callable[[], Awaitable[object]],
) -> tuple[float, float]:
    best_a = best_b = float("inf")
    for _ in range(7):  # many short rounds: a busy machine disturbs some of them
        best_a = min(best_a, _aper_call_us(loop, a))
        best_b = min(best_b, _aper_call_us(loop, b))
    return best_a, best_b
