"""A Toolset's loop methods pass every option through, and it knows its tools by their aliases."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import toolparse as tp
from toolparse import messages


def test_a_toolset_contains_its_tools_by_name_and_by_alias() -> None:
    fn = tp.Function("math.factorial", lambda a: "x")
    toolset = tp.Toolset([fn])
    assert "math.factorial" in toolset
    assert "math_factorial" in toolset  # the name OpenAI is given, and calls it by
    assert toolset.get("math_factorial") is fn
    assert 42 not in toolset
    (result,) = toolset.execute([tp.ToolCall("1", "math_factorial")])
    assert result.content == "x"


def test_execute_passes_max_concurrency_and_the_plugin_manager() -> None:
    running = 0
    peak = 0
    lock = threading.Lock()
    seen: list[str] = []

    async def body(a: Any) -> str:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        await asyncio.sleep(0.01)
        with lock:
            running -= 1
        return "x"

    class Observer:
        @tp.hookimpl
        def toolparse_tool_executed(self, call: tp.ToolCall) -> None:
            seen.append(call.id)

    pm = tp.make_plugin_manager(load_entry_points=False)
    pm.register(Observer())
    toolset = tp.Toolset([tp.Function("t", body, concurrent=True)])
    calls = [tp.ToolCall(str(i), "t") for i in range(5)]
    results = toolset.execute(calls, max_concurrency=1, plugin_manager=pm)
    assert [r.content for r in results] == ["x"] * 5
    assert peak == 1
    assert sorted(seen) == ["0", "1", "2", "3", "4"]
    peak = 0
    seen.clear()
    asyncio.run(toolset.aexecute(calls, max_concurrency=2, plugin_manager=pm))
    assert peak == 2
    assert sorted(seen) == ["0", "1", "2", "3", "4"]


def test_aexecute_passes_the_context_and_the_timeout() -> None:
    async def slow(a: Any) -> str:
        await asyncio.sleep(10)
        return "late"

    toolset = tp.Toolset(
        [
            tp.Function("who", lambda a, ctx: f"{ctx['user']} {ctx['tool_call_id']}"),
            tp.Function("slow", slow),
        ]
    )
    who, late = asyncio.run(
        toolset.aexecute(
            [tp.ToolCall("1", "who"), tp.ToolCall("2", "slow")], {"user": "ann"}, timeout=0.05
        )
    )
    assert who.content == "ann 1"
    assert late.text == messages.timed_out("slow", 0.05, stopped=True)


def test_to_result_message_carries_every_result() -> None:
    toolset = tp.Toolset([tp.Function("t", lambda a, ctx: ctx["tool_call_id"])])
    results = toolset.execute([tp.ToolCall("a", "t"), tp.ToolCall("b", "t")])
    assert toolset.to_result_message(results, "openai") == tp.providers.to_result_message(
        results, "openai"
    )
    assert [m["tool_call_id"] for m in toolset.to_result_message(results, "openai")] == ["a", "b"]
