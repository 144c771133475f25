"""Running a batch of tool calls: the model's order, concurrency, timeouts.

The order is the model's: a call to a tool that is not ``concurrent=True`` is
a barrier (it starts after every earlier call finished, and no later call
starts before it finished); consecutive ``concurrent=True`` calls run
together. The caller's thread and loop are never hijacked: the sync entry
point runs sync tools inline (a thread only for a concurrent group or a
timeout, an event loop only for an ``async def`` tool); the async one never
blocks its loop (a sync body runs in a worker thread of the one bounded pool,
see ``toolparse._workers``).

This module holds the two entry points and what both do first; the parts
they share live in private modules named for what they hold: the tool
look-up (``_lookup``), answering a call (``_answers``), concurrent groups
(``_groups``), runs under a timeout (``_timeouts``) and the worker threads
(``_threads``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ._answers import context_for, now, store, unknown
from ._groups import agroup, arun, group, sync_group
from ._lookup import Lookup, tables
from ._timeouts import atimed, timed
from .function._callables import _run_sync
from .results import ToolCall, ToolResult

if TYPE_CHECKING:
    from .function import Function
    from .plugins import PluginManager
    from .toolset import Toolset

__all__ = ["aexecute_tool_calls", "execute_tool_calls", "set_max_workers"]


_default_pm: Callable[[], PluginManager] | None = None


def _default_manager() -> PluginManager:
    """The default plugin manager, for a batch run without one (looked up once, not per batch)."""
    global _default_pm
    if _default_pm is None:
        # a default-manager look-up, lazy: the plugins (and pluggy) load on the
        # first batch that needs them, not on ``import toolparse``
        from .plugins import plugin_manager

        _default_pm = plugin_manager
    return _default_pm()


def set_max_workers(max_workers: int) -> None:
    """Set the bound of the process-wide worker pool (threads already running are kept).

    The default is ``TOOLPARSE_MAX_WORKERS`` from the environment, else 32.
    """
    # lazy: setting the bound is the pool's first use, as the first body run in a thread is
    from ._workers import set_max_workers as set_bound

    set_bound(max_workers)


# -- what both entry points do first ------------------------------------------------


def _check(timeout: object, max_concurrency: object) -> None:
    if timeout is not None and (
        isinstance(timeout, bool)
        or not isinstance(timeout, (int, float))
        or not timeout > 0
        or timeout != timeout
    ):
        raise ValueError(f"timeout must be a number of seconds above 0 (or None), got {timeout!r}")
    if max_concurrency is not None and (type(max_concurrency) is not int or max_concurrency < 1):
        raise ValueError(
            f"max_concurrency must be a whole number of at least 1 (or None), got {max_concurrency!r}"
        )


def _prepare(
    functions: Iterable[Function] | Toolset,
    calls: Iterable[ToolCall],
    timeout: object,
    max_concurrency: object,
    plugin_manager: PluginManager | None,
) -> tuple[dict[str, Function], Any, PluginManager | None, list[ToolCall]]:
    """What both entry points do first.

    The options checked, the name → tool map and the source of alias routes,
    the observing manager (``None`` when nothing observes) and the calls as a list.
    """
    if timeout is not None or max_concurrency is not None:
        _check(timeout, max_concurrency)
    table, source = tables(functions)
    pm = _default_manager() if plugin_manager is None else plugin_manager
    return (
        table,
        source,
        pm if pm.observed else None,  # observers cost nothing until a plugin asks for them
        calls if type(calls) is list else list(calls),
    )


# -- sync ----------------------------------------------------------------------------


def execute_tool_calls(
    functions: Iterable[Function] | Toolset,
    calls: Iterable[ToolCall],
    context: Any = None,
    *,
    timeout: float | None = None,
    max_concurrency: int | None = None,
    plugin_manager: PluginManager | None = None,
) -> list[ToolResult]:
    """Run every call and return one result per call, in the order of ``calls``.

    The order is the model's: a tool that is not ``concurrent=True`` starts
    after every earlier call finished, and no later call starts before it
    finished; consecutive ``concurrent=True`` calls run together (at most
    ``max_concurrency`` at once). Sync tools run inline, in this thread, with
    no event loop and no thread; threads are used only for a concurrent group
    and for ``timeout``, an event loop only for ``async def`` tools.

    An unknown tool, bad arguments, a crash or a timeout each give an
    ``is_error`` result; nothing raises for what the model or a tool did.
    Each tool sees the caller's ``context`` plus ``tool_call_id`` (a new
    mapping). A call made under a provider's alias of a tool name (``math_factorial``
    for ``math.factorial``) runs that tool.

    :param functions: the tools, as an iterable of Functions or a :class:`~toolparse.Toolset`.
    :param timeout: seconds per call, above 0. An ``async def`` body past it
        is cancelled; a sync body cannot be stopped: the model is told it may
        still finish, and its late outcome goes to the observing hook.
    :param max_concurrency: the most calls of a concurrent group running at once.
    :param plugin_manager: whose ``toolparse_tool_executed`` observers to call.
    :raises ValueError: an invalid ``timeout`` or ``max_concurrency``;
        :class:`~toolparse.FunctionDefinitionError` for two tools of one name.
    """
    table, source, pm, calls = _prepare(functions, calls, timeout, max_concurrency, plugin_manager)
    n = len(calls)
    results: list[Any] = [None] * n
    i = 0
    if pm is None and timeout is None:
        # the common case, kept lean: known sequential tools run here one
        # after the other; anything else goes the general way below
        from_outcome = ToolResult.from_outcome
        while i < n:
            call = calls[i]
            name = call.name
            fn = table.get(name) if type(name) is str else None
            if fn is None or fn.concurrent:
                break
            results[i] = from_outcome(
                call,
                fn,
                fn.execute(
                    call.arguments,
                    {"tool_call_id": call.id} if context is None else context_for(context, call),
                ),
            )
            i += 1
        else:
            return results
    lookup = Lookup(table, source)
    while i < n:
        call = calls[i]
        fn = lookup.find(call.name)
        if fn is None:
            unknown(results, i, call, lookup, pm)
            i += 1
            continue
        if fn.concurrent:
            members, i = group(calls, i, lookup, results, pm, context)
            if len(members) != 1 or timeout is not None:
                if any(m[2]._async for m in members):
                    _run_sync(agroup(members, results, timeout, max_concurrency, pm))
                else:
                    sync_group(members, results, timeout, max_concurrency, pm)
                continue
            j, call, fn, ctx = members[0]  # alone: nothing to overlap with, run it here
        else:
            j = i
            ctx = context_for(context, call)
            i += 1
        start = now()
        if timeout is None:
            outcome = fn.execute(call.arguments, ctx)
        elif fn._async:
            outcome = _run_sync(atimed(fn, call.arguments, ctx, timeout))
        else:
            outcome = timed(fn, call, ctx, timeout, pm, start)
        store(results, j, call, fn, outcome, pm, start)
    return results


# -- async ---------------------------------------------------------------------------


async def aexecute_tool_calls(
    functions: Iterable[Function] | Toolset,
    calls: Iterable[ToolCall],
    context: Any = None,
    *,
    timeout: float | None = None,
    max_concurrency: int | None = None,
    plugin_manager: PluginManager | None = None,
) -> list[ToolResult]:
    """:func:`execute_tool_calls` for async code; it never blocks the running loop.

    ``async def`` bodies run on the loop; a sync body runs in a worker thread
    (its arguments are parsed on the loop first, so a rejected call needs no
    thread). Cancelling this coroutine cancels the async tools it is running
    and leaves no task behind; a sync body already running in a thread
    cannot be stopped and finishes there.
    """
    table, source, pm, calls = _prepare(functions, calls, timeout, max_concurrency, plugin_manager)
    n = len(calls)
    results: list[Any] = [None] * n
    i = 0
    if pm is None and timeout is None:
        # the common case, kept lean: known sequential async tools are awaited
        # here one after the other; anything else goes the general way below
        from_outcome = ToolResult.from_outcome
        while i < n:
            call = calls[i]
            name = call.name
            fn = table.get(name) if type(name) is str else None
            if fn is None or fn.concurrent or not fn._async:
                break
            results[i] = from_outcome(
                call,
                fn,
                await fn.aexecute(
                    call.arguments,
                    {"tool_call_id": call.id} if context is None else context_for(context, call),
                ),
            )
            i += 1
        else:
            return results
    lookup = Lookup(table, source)
    while i < n:
        call = calls[i]
        fn = lookup.find(call.name)
        if fn is None:
            unknown(results, i, call, lookup, pm)
            i += 1
        elif fn.concurrent:
            members, i = group(calls, i, lookup, results, pm, context)
            await agroup(members, results, timeout, max_concurrency, pm)
        else:
            await arun(i, call, fn, context_for(context, call), results, timeout, pm, None)
            i += 1
    return results
