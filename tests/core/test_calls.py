"""ToolCall, ToolResult and running a batch of calls."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

import toolparse as tp
from toolparse import FunctionParam as P


def search() -> tp.Function:
    return tp.Function(
        "search",
        lambda a, ctx: f"results for {a['q']} ({ctx['tool_call_id']})",
        parameters=[P("q", "string", required=True)],
        display_text="Searching...",
    )


def test_results_in_call_order_one_per_call() -> None:
    calls = [
        tp.ToolCall("c1", "search", '{"q": "a"}'),
        tp.ToolCall("c2", "serch", "{}"),
        tp.ToolCall("c3", "search", "{bad json"),
        tp.ToolCall("c4", "search", {"q": "b"}),
    ]
    results = tp.execute_tool_calls([search()], calls, {"user": "u"})
    assert [r.tool_call_id for r in results] == ["c1", "c2", "c3", "c4"]
    assert results[0].content == "results for a (c1)"
    assert results[0].display_text == "Searching..."
    assert not results[0].is_error
    assert results[1].is_error
    assert results[1].content == (
        'Tool call made to serch but tool not found. Did you mean "search"? Available tools: search.'
    )
    assert results[2].is_error
    assert "not valid JSON" in results[2].text
    assert results[3].content == "results for b (c4)"


def test_context_gets_tool_call_id_without_mutating_the_callers() -> None:
    seen: list[Any] = []
    fn = tp.Function("t", lambda a, ctx: seen.append(ctx) or "x")
    ctx = {"user": "u1"}
    tp.execute_tool_calls([fn], [tp.ToolCall("id1", "t", None)], ctx)
    assert seen == [{"user": "u1", "tool_call_id": "id1"}]
    assert ctx == {"user": "u1"}
    tp.execute_tool_calls([fn], [tp.ToolCall("id2", "t", None)])
    assert seen[-1] == {"tool_call_id": "id2"}


def test_outcomes_become_results() -> None:
    fns = [
        tp.Function("ok", lambda a: tp.ok("2024-11-01", {"native": True})),
        tp.Function(
            "interrupt", lambda a: tp.interrupt("SubAgent requires approval.", {"step": 2})
        ),
        tp.Function(
            "custom",
            lambda a: tp.ToolResult(None, None, [tp.TextPart("Hello!")], options={"custom": 1}),
            display_text="Custom",
        ),
        tp.Function("direct", lambda a: "done", return_direct=True),
        tp.Function("fails", lambda a: tp.error("nope"), return_direct=True),
    ]
    calls = [tp.ToolCall(f"c{i}", fn.name) for i, fn in enumerate(fns)]
    ok, intr, custom, direct, fails = tp.execute_tool_calls(fns, calls)
    assert (ok.content, ok.processed_content) == ("2024-11-01", {"native": True})
    assert intr.is_interrupt
    assert not intr.is_error
    assert (intr.content, intr.interrupt_data) == ("SubAgent requires approval.", {"step": 2})
    assert custom.tool_call_id == "c2"
    assert custom.name == "custom"
    assert custom.display_text == "Custom"
    assert custom.options == {"custom": 1}
    assert custom.content == [tp.TextPart("Hello!")]
    assert custom.processed_content is None
    assert direct.return_direct is True
    assert fails.is_error
    assert fails.return_direct is False  # a failed call is not a final answer


def test_two_tools_of_one_name_are_a_clear_error() -> None:
    first = tp.Function("t", lambda a: "first")
    second = tp.Function("t", lambda a: "second")
    with pytest.raises(tp.FunctionDefinitionError, match="two tools are named 't'"):
        tp.execute_tool_calls([first, second], [tp.ToolCall("1", "t")])


def test_concurrent_tools_overlap_and_others_run_one_at_a_time() -> None:
    active = 0
    peak = 0
    lock = threading.Lock()

    def slow(a: Any) -> str:
        nonlocal active, peak
        with lock:
            active += 1
            peak = max(peak, active)
            first = not started
            started.append(True)
        if first:
            # the first holds until a second runs beside it (only a failure waits long)
            deadline = time.monotonic() + 10
            while peak < 2 and time.monotonic() < deadline:
                time.sleep(0.005)
        else:
            time.sleep(0.05)
        with lock:
            active -= 1
        return "x"

    started: list[bool] = []
    conc = tp.Function("conc", slow, concurrent=True)
    results = tp.execute_tool_calls([conc], [tp.ToolCall(str(i), "conc") for i in range(4)])
    assert peak >= 2
    assert len(results) == 4
    peak = 0
    started.append(True)  # no holding now: sequential calls never overlap
    seq = tp.Function("seq", slow)
    tp.execute_tool_calls([seq], [tp.ToolCall(str(i), "seq") for i in range(3)])
    assert peak == 1


def test_max_concurrency() -> None:
    active = 0
    peak = 0

    async def body(a: Any) -> str:
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        await asyncio.sleep(0.01)
        active -= 1
        return "x"

    fn = tp.Function("t", body, concurrent=True)
    tp.execute_tool_calls([fn], [tp.ToolCall(str(i), "t") for i in range(6)], max_concurrency=2)
    assert peak == 2


def test_timeout_is_an_error_result() -> None:
    async def slow(a: Any) -> str:
        await asyncio.sleep(5)
        return "late"

    fast = tp.Function("fast", lambda a: "quick")
    results = tp.execute_tool_calls(
        [tp.Function("slow", slow, concurrent=True), fast],
        [tp.ToolCall("1", "slow"), tp.ToolCall("2", "fast")],
        timeout=0.05,
    )
    assert results[0].is_error
    assert results[0].content == "The tool slow did not finish within 0.05 seconds and was stopped."
    assert results[1].content == "quick"


def test_timeout_on_a_sync_tool() -> None:
    release = threading.Event()
    finished = threading.Event()

    def slow(a: Any) -> str:
        release.wait(10)
        finished.set()
        return "late"

    (result,) = tp.execute_tool_calls(
        [tp.Function("slow", slow)], [tp.ToolCall("1", "slow")], timeout=0.05
    )
    # the hung body does not hold up the caller: answered while it still runs
    # (proven by order, not by a wall-clock bound a busy machine could break)
    held = not finished.is_set()
    release.set()
    assert held
    assert result.is_error
    assert result.text == (
        "The tool slow did not finish within 0.05 seconds; it may still finish, "
        "so check its effect before calling it again."
    )


def test_async_entry_point() -> None:
    async def main() -> list[tp.ToolResult]:
        return await tp.aexecute_tool_calls([search()], [tp.ToolCall("x", "search", {"q": "z"})])

    (result,) = asyncio.run(main())
    assert result.content == "results for z (x)"


def test_sync_entry_point_inside_a_running_loop() -> None:
    async def main() -> list[tp.ToolResult]:
        return tp.execute_tool_calls([search()], [tp.ToolCall("x", "search", {"q": "z"})])

    (result,) = asyncio.run(main())
    assert result.content == "results for z (x)"


def test_tool_call_and_result_value_semantics() -> None:
    assert tp.ToolCall("1", "a", "{}") == tp.ToolCall("1", "a", "{}")
    assert tp.ToolCall("1", "a", "{}") != tp.ToolCall("2", "a", "{}")
    assert repr(tp.ToolCall("1", "a")) == "ToolCall('1', 'a', None)"
    r = tp.ToolResult(
        "1", "a", [tp.TextPart("x"), tp.ImagePart("AAAA"), tp.TextPart("y")], is_error=True
    )
    assert r.text == "xy"
    assert "is_error=True" in repr(r)
    assert r == tp.ToolResult(
        "1", "a", [tp.TextPart("x"), tp.ImagePart("AAAA"), tp.TextPart("y")], is_error=True
    )
    with pytest.raises(TypeError):
        hash(r)


def test_content_parts_validate() -> None:
    with pytest.raises(TypeError):
        tp.TextPart(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        tp.ImagePart(b"raw")  # type: ignore[arg-type]
    assert tp.TextPart("a") != tp.TextPart("a", options={"cache_control": True})
    assert (
        repr(tp.ImagePart("u", url=True)) == "ImagePart(data='u', media_type='image/png', url=True)"
    )


def test_a_toolset_asks_each_name_rule_once_per_tool(monkeypatch: pytest.MonkeyPatch) -> None:
    # the aliases are worked out once, at definition, for both the clash check and the routes
    from toolparse import providers

    rules = providers.name_rules()
    asked: list[tuple[str, str]] = []

    class Counting:
        def __init__(self, rule: Any) -> None:
            self.rule = rule
            self.pattern = rule.pattern

        def alias(self, name: str, provider: str) -> str:
            asked.append((name, provider))
            return self.rule.alias(name, provider)  # type: ignore[no-any-return]

    monkeypatch.setattr(providers, "name_rules", lambda: [(p, Counting(r)) for p, r in rules])
    fns = [
        tp.Function("math.add", lambda a: "add"),
        tp.Function("weather", lambda a: "w"),
        tp.Function("weather/today", lambda a: "today"),
    ]
    toolset = tp.Toolset(fns)
    assert len(asked) == len(fns) * len(rules)
    assert toolset.get("weather_today") is fns[2]
    assert toolset.get("math_add") is fns[0]
    (result,) = toolset.execute([tp.ToolCall("1", "weather_today")])
    assert result.content == "today"
    assert len(asked) == len(fns) * len(rules)  # the batch asked nothing again
