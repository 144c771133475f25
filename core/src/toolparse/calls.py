"""Running a batch of tool calls: order, concurrency, timeouts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from . import messages
from .contract import Error, Outcome
from .results import ToolCall, ToolResult

if TYPE_CHECKING:
    from .function import Function
    from .plugins import PluginManager

__all__ = ["aexecute_tool_calls", "execute_tool_calls"]


def _in_thread(fn: Function, arguments: Any, context: Any) -> Any:
    """Run ``fn.execute`` in a daemon thread and return an awaitable of its outcome.

    Not ``asyncio.to_thread``: a timed-out call must not hold up the caller,
    and the default executor is waited for when its event loop closes.
    """
    import asyncio
    import threading

    loop = asyncio.get_running_loop()
    future: asyncio.Future[Outcome] = loop.create_future()

    def settle(outcome: Outcome) -> None:
        if not future.done():
            future.set_result(outcome)

    def work() -> None:
        outcome = fn.execute(arguments, context)
        try:
            loop.call_soon_threadsafe(settle, outcome)
        except RuntimeError:
            pass  # the loop has closed: nobody is waiting any more

    threading.Thread(target=work, name=f"toolparse-{fn.name}", daemon=True).start()
    return future


def _context(context: Any, call: ToolCall) -> Any:
    """The caller's context plus ``tool_call_id``, as a new mapping."""
    if context is None:
        return {"tool_call_id": call.id}
    if isinstance(context, Mapping):
        return {**context, "tool_call_id": call.id}
    return context  # not a mapping: passed through untouched


async def aexecute_tool_calls(
    functions: Iterable[Function],
    calls: Iterable[ToolCall],
    context: Any = None,
    *,
    timeout: float | None = None,
    max_concurrency: int | None = None,
    plugin_manager: PluginManager | None = None,
) -> list[ToolResult]:
    """Run every call and return one result per call, in the order of ``calls``.

    Tools marked ``concurrent=True`` run concurrently (at most
    ``max_concurrency`` at once); the others run one at a time, after them.
    An unknown tool, bad arguments or a ``timeout`` (seconds, per call) each
    give an ``is_error`` result; nothing raises. Each tool sees the caller's
    ``context`` plus ``tool_call_id`` (a new mapping; yours is not mutated).
    Plugins implementing ``toolparse_tool_executed`` observe every call.
    """
    import asyncio
    import time

    if plugin_manager is None:
        from .plugins import plugin_manager as default_pm

        plugin_manager = default_pm()
    pm = plugin_manager if plugin_manager.observed else None

    def done(i: int, call: ToolCall, fn: Function | None, result: ToolResult, start: float) -> None:
        results[i] = result
        if pm is not None:
            pm.hook.toolparse_tool_executed(
                call=call, function=fn, result=result, duration=time.perf_counter() - start
            )

    table: dict[str, Function] = {}
    for fn in functions:
        table[fn.name] = fn  # a later duplicate wins, as in a tool registry
    calls = list(calls)
    results: list[ToolResult | None] = [None] * len(calls)
    limit = asyncio.Semaphore(max_concurrency) if max_concurrency else None

    async def run(i: int, call: ToolCall, fn: Function) -> None:
        start = time.perf_counter()
        ctx = _context(context, call)
        try:
            if fn._async:
                job: Any = fn.aexecute(call.arguments, ctx)
            else:
                # a sync body runs in a worker thread so it cannot block the
                # other calls or escape its timeout
                job = _in_thread(fn, call.arguments, ctx)
            outcome: Outcome = await asyncio.wait_for(job, timeout)
        except (asyncio.TimeoutError, TimeoutError):
            outcome = Error(messages.timed_out(fn.name, timeout or 0))
        except Exception as exc:  # execute never raises; this is a last resort
            outcome = Error(messages.exception(exc), exc)
        done(i, call, fn, ToolResult.from_outcome(call, fn, outcome), start)

    async def limited(i: int, call: ToolCall, fn: Function) -> None:
        if limit is None:
            await run(i, call, fn)
        else:
            async with limit:
                await run(i, call, fn)

    concurrent = []
    sequential = []
    for i, call in enumerate(calls):
        found = table.get(call.name)
        if found is None:
            text = messages.unknown_tool(str(call.name), list(table))
            done(
                i,
                call,
                None,
                ToolResult(call.id, call.name, text, is_error=True),
                time.perf_counter(),
            )
        elif found.concurrent:
            concurrent.append(limited(i, call, found))
        else:
            sequential.append((i, call, found))
    if concurrent:
        await asyncio.gather(*concurrent)
    for i, call, fn in sequential:
        if timeout is None and not fn._async:
            start = time.perf_counter()
            outcome = fn.execute(call.arguments, _context(context, call))
            done(i, call, fn, ToolResult.from_outcome(call, fn, outcome), start)
        else:
            await run(i, call, fn)
    return [r for r in results if r is not None]


def execute_tool_calls(
    functions: Iterable[Function],
    calls: Iterable[ToolCall],
    context: Any = None,
    *,
    timeout: float | None = None,
    max_concurrency: int | None = None,
    plugin_manager: PluginManager | None = None,
) -> list[ToolResult]:
    """Sync :func:`aexecute_tool_calls` (runs its own event loop)."""
    from .function._callables import _run_sync

    return _run_sync(  # type: ignore[no-any-return]
        aexecute_tool_calls(
            functions,
            calls,
            context,
            timeout=timeout,
            max_concurrency=max_concurrency,
            plugin_manager=plugin_manager,
        )
    )
