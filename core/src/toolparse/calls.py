"""Running a batch of tool calls: the model's order, concurrency, timeouts.

The order is the model's: a call to a tool that is not ``concurrent=True`` is
a barrier (it starts after every earlier call finished, and no later call
starts before it finished); consecutive ``concurrent=True`` calls run
together. The caller's thread and loop are never hijacked: the sync entry
point runs sync tools inline (a thread only for a concurrent group or a
timeout, an event loop only for an ``async def`` tool); the async one never
blocks its loop (a sync body runs in a worker thread of the one bounded pool,
see ``toolparse._workers``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import messages
from ._aliases import alias_routes
from .contract import Error, Ok, Outcome
from .errors import FunctionDefinitionError
from .function._callables import _run_sync
from .results import ToolCall, ToolResult

if TYPE_CHECKING:
    import asyncio
    from concurrent.futures import Future

    from ._workers import WorkerPool
    from .function import Function
    from .plugins import PluginManager
    from .toolset import Toolset

__all__ = ["aexecute_tool_calls", "execute_tool_calls", "set_max_workers"]

_perf = time.perf_counter


# -- the worker pool, loaded on the first call that needs a thread -------------------
# Its module loads threading and concurrent.futures; a program whose tools all
# run inline never needs them, so ``import toolparse`` does not load them.

_pool: Callable[[], WorkerPool] | None = None


def worker_pool() -> WorkerPool:
    """The process-wide pool of worker threads (see ``toolparse._workers``)."""
    global _pool
    if _pool is None:
        # lazy: the first call that runs a body in a thread (see above)
        from ._workers import worker_pool as found

        _pool = found
    return _pool()


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
    # lazy: as worker_pool, setting the bound is the pool's first use
    from ._workers import set_max_workers as set_bound

    set_bound(max_workers)


# -- looking tools up --------------------------------------------------------------


def _tables(functions: Iterable[Function] | Toolset) -> tuple[dict[str, Function], Any]:
    """The name → Function map, and the source of alias routes (built on a miss)."""
    if isinstance(functions, (list, tuple)):
        fns: Sequence[Function] = functions
    else:
        table = getattr(functions, "_table", None)
        if table is not None:
            return table, functions  # a Toolset: both built once, at definition
        fns = list(functions)
    table = {fn.name: fn for fn in fns}
    if len(table) != len(fns):
        _duplicates(fns)
    return table, fns


def _duplicates(functions: Iterable[Function]) -> None:
    seen: set[str] = set()
    for fn in functions:
        if fn.name in seen:
            raise FunctionDefinitionError([("functions", messages.duplicate_tool(fn.name))])
        seen.add(fn.name)


class _Lookup:
    """Finds the Function of a call: by name, else by a provider alias of its name."""

    __slots__ = ("routes", "source", "table")

    def __init__(self, table: dict[str, Function], source: Any) -> None:
        self.table = table
        self.source = source  # a Toolset (its routes are built) or the Functions
        self.routes: dict[str, Function] | None = None

    def find(self, name: object) -> Function | None:
        if type(name) is str:
            found = self.table.get(name)
            if found is not None:
                return found
            if self.routes is None:
                routes = getattr(self.source, "_routes", None)
                if routes is None:
                    routes = alias_routes(self.table.values())
                self.routes = routes
            return self.routes.get(name)
        return None

    def names(self, call: ToolCall) -> list[str]:
        """The names the model can call the tools by (as exported to its provider)."""
        # the providers package loads on this error path only (no cycle: it imports no calls)
        from .providers import _callable_names

        return _callable_names(self.source, call)


# -- shared pieces -----------------------------------------------------------------


def _context(context: Any, call: ToolCall) -> Any:
    """The caller's context plus ``tool_call_id``, as a new mapping."""
    if context is None:
        return {"tool_call_id": call.id}
    if isinstance(context, Mapping):
        return {**context, "tool_call_id": call.id}
    return context  # not a mapping: passed through untouched


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
    table, source = _tables(functions)
    pm = _default_manager() if plugin_manager is None else plugin_manager
    return (
        table,
        source,
        pm if pm.observed else None,  # observers cost nothing until a plugin asks for them
        calls if type(calls) is list else list(calls),
    )


def _report(
    pm: PluginManager,
    call: ToolCall,
    fn: Function | None,
    result: ToolResult,
    start: float,
    late: bool = False,
) -> None:
    pm.hook.toolparse_tool_executed(
        call=call, function=fn, result=result, duration=_perf() - start, late=late
    )


def _store(
    results: list[Any],
    i: int,
    call: ToolCall,
    fn: Function,
    outcome: Outcome,
    pm: PluginManager | None,
    start: float,
) -> None:
    """The result of call ``i``: in its place, and to the observers."""
    results[i] = result = ToolResult.from_outcome(call, fn, outcome)
    if pm is not None:
        _report(pm, call, fn, result, start)


def _unknown(
    results: list[Any], i: int, call: ToolCall, lookup: _Lookup, pm: PluginManager | None
) -> None:
    """Answer call ``i``, to a tool that is not in the set."""
    start = _perf()
    results[i] = result = ToolResult(
        call.id,
        call.name,
        messages.unknown_tool(call.name, lookup.names(call)),
        is_error=True,
        kind=call.kind,
    )
    if pm is not None:
        _report(pm, call, None, result, start)


def _late(
    future: Future[Any], pm: PluginManager | None, call: ToolCall, fn: Function, start: float
) -> None:
    """Hand the outcome of a sync body that finished after its timeout to the observers."""
    if pm is None:
        return

    def done(f: Future[Any]) -> None:
        try:
            outcome = f.result()
        except BaseException as exc:  # execute never raises; a last resort
            outcome = Error(messages.exception(exc), exc)
        _report(pm, call, fn, ToolResult.from_outcome(call, fn, outcome), start, late=True)

    future.add_done_callback(done)


def _body(fn: Function, value: Any, context: Any) -> Outcome:
    """Run a sync tool's body on arguments already parsed (in a worker thread)."""
    outcome = fn._call(value, context)
    if not isinstance(outcome, tuple):  # a sync callable that returned an awaitable
        outcome = _run_sync(fn._finish(outcome, value, context))
    return outcome  # type: ignore[no-any-return]


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
                    {"tool_call_id": call.id} if context is None else _context(context, call),
                ),
            )
            i += 1
        else:
            return results
    lookup = _Lookup(table, source)
    while i < n:
        call = calls[i]
        fn = lookup.find(call.name)
        if fn is None:
            _unknown(results, i, call, lookup, pm)
            i += 1
            continue
        if fn.concurrent:
            group, i = _group(calls, i, lookup, results, pm, context)
            if len(group) != 1 or timeout is not None:
                if any(g[2]._async for g in group):
                    _run_sync(_agroup(group, results, timeout, max_concurrency, pm))
                else:
                    _sync_group(group, results, timeout, max_concurrency, pm)
                continue
            j, call, fn, ctx = group[0]  # alone: nothing to overlap with, run it here
        else:
            j = i
            ctx = _context(context, call)
            i += 1
        start = _perf()
        if timeout is None:
            outcome = fn.execute(call.arguments, ctx)
        elif fn._async:
            outcome = _run_sync(_atimed(fn, call.arguments, ctx, timeout))
        else:
            outcome = _timed(fn, call, ctx, timeout, pm, start)
        _store(results, j, call, fn, outcome, pm, start)
    return results


def _group(
    calls: list[ToolCall],
    i: int,
    lookup: _Lookup,
    results: list[Any],
    pm: PluginManager | None,
    context: Any,
) -> tuple[list[tuple[int, ToolCall, Function, Any]], int]:
    """The run of consecutive concurrent calls from ``i`` (unknown tools are answered here)."""
    group = []
    n = len(calls)
    while i < n:
        call = calls[i]
        fn = lookup.find(call.name)
        if fn is None:
            _unknown(results, i, call, lookup, pm)
        elif fn.concurrent:
            group.append((i, call, fn, _context(context, call)))
        else:
            break
        i += 1
    return group, i


def _timed(
    fn: Function,
    call: ToolCall,
    ctx: Any,
    timeout: float,
    pm: PluginManager | None,
    start: float,
) -> Outcome:
    """A sync body with a timeout, in a worker thread; this thread waits for it."""
    from concurrent.futures import TimeoutError as FutureTimeout

    pool = worker_pool()
    future = pool.try_submit(fn.execute, call.arguments, ctx)
    if future is None:
        return Error(messages.no_worker(fn.name, pool.max_workers))
    try:
        return future.result(timeout)  # type: ignore[no-any-return]
    except FutureTimeout:
        _late(future, pm, call, fn, start)
        return Error(messages.timed_out(fn.name, timeout, stopped=False))


def _sync_group(
    group: list[tuple[int, ToolCall, Function, Any]],
    results: list[Any],
    timeout: float | None,
    limit: int | None,
    pm: PluginManager | None,
) -> None:
    """Run a group of sync concurrent calls in worker threads; this thread waits."""
    from collections import deque
    from concurrent.futures import FIRST_COMPLETED, wait

    pool = worker_pool()
    pending = deque(group)
    running: dict[Future[Any], tuple[int, ToolCall, Function, float]] = {}

    while pending or running:
        while pending and (limit is None or len(running) < limit):
            i, call, fn, ctx = pending[0]
            start = _perf()
            future = pool.try_submit(fn.execute, call.arguments, ctx)
            if future is None:
                if running:
                    break  # our own calls hold the threads: wait for one of them
                pending.popleft()
                outcome = Error(messages.no_worker(fn.name, pool.max_workers))
                _store(results, i, call, fn, outcome, pm, start)
                continue
            pending.popleft()
            running[future] = (i, call, fn, start)
        if not running:
            continue
        wait_for = None
        if timeout is not None:
            first = min(start for _, _, _, start in running.values())
            wait_for = max(0.0, first + timeout - _perf())
        done, _ = wait(running, timeout=wait_for, return_when=FIRST_COMPLETED)
        for future in done:
            i, call, fn, start = running.pop(future)
            _store(results, i, call, fn, future.result(), pm, start)
        if timeout is not None:
            now = _perf()
            for future, (i, call, fn, start) in list(running.items()):
                if now - start >= timeout:
                    del running[future]
                    _late(future, pm, call, fn, start)
                    outcome = Error(messages.timed_out(fn.name, timeout, stopped=False))
                    _store(results, i, call, fn, outcome, pm, start)


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
                    {"tool_call_id": call.id} if context is None else _context(context, call),
                ),
            )
            i += 1
        else:
            return results
    lookup = _Lookup(table, source)
    while i < n:
        call = calls[i]
        fn = lookup.find(call.name)
        if fn is None:
            _unknown(results, i, call, lookup, pm)
            i += 1
        elif fn.concurrent:
            group, i = _group(calls, i, lookup, results, pm, context)
            await _agroup(group, results, timeout, max_concurrency, pm)
        else:
            await _arun(i, call, fn, _context(context, call), results, timeout, pm, None)
            i += 1
    return results


class _Slots:
    """A group's share of the pool: wait for one of our own threads rather than fail."""

    __slots__ = ("event", "running")

    def __init__(self) -> None:
        import asyncio

        self.running = 0
        self.event = asyncio.Event()


async def _submit(
    pool: WorkerPool, slots: _Slots | None, fn: Any, *args: Any
) -> Future[Any] | None:
    while True:
        future = pool.try_submit(fn, *args)
        if future is not None or slots is None or slots.running == 0:
            return future
        slots.event.clear()
        await slots.event.wait()


async def _arun(
    i: int,
    call: ToolCall,
    fn: Function,
    ctx: Any,
    results: list[Any],
    timeout: float | None,
    pm: PluginManager | None,
    slots: _Slots | None,
) -> None:
    start = _perf()
    outcome: Outcome
    if fn._async:
        if timeout is None:
            outcome = await fn.aexecute(call.arguments, ctx)
        else:
            outcome = await _atimed(fn, call.arguments, ctx, timeout)
    else:
        parsed = fn.parse_arguments(call.arguments, ctx)
        if type(parsed) is not Ok:
            outcome = parsed
        else:
            pool = worker_pool()
            future = await _submit(pool, slots, _body, fn, parsed.value, ctx)
            if future is None:
                outcome = Error(messages.no_worker(fn.name, pool.max_workers))
            else:
                # asyncio is loaded (a loop runs this); imported here, not at the
                # top, so that ``import toolparse`` does not load it
                import asyncio

                if slots is not None:
                    slots.running += 1
                try:
                    outcome = await asyncio.wait_for(asyncio.wrap_future(future), timeout)
                except (asyncio.TimeoutError, TimeoutError):
                    _late(future, pm, call, fn, start)
                    outcome = Error(messages.timed_out(fn.name, timeout or 0, stopped=False))
                finally:
                    if slots is not None:
                        slots.running -= 1
                        slots.event.set()
    _store(results, i, call, fn, outcome, pm, start)


async def _atimed(fn: Function, arguments: Any, ctx: Any, timeout: float | None) -> Outcome:
    """An async tool, cancelled past ``timeout``."""
    if timeout is None:
        return await fn.aexecute(arguments, ctx)
    import asyncio  # only a call with a timeout needs it (see _arun)

    # not asyncio.wait_for: after cancelling, it waits for the task to end, so
    # a body that catches its CancelledError and carries on would hold the
    # batch forever; here the task is cancelled once and left to finish alone
    task = asyncio.ensure_future(fn.aexecute(arguments, ctx))
    done, _ = await asyncio.wait((task,), timeout=timeout)
    if done:
        return task.result()
    task.cancel()
    # a reference, so a live loop does not drop a task still running; those of
    # loops already closed (a sync batch's own loop) will never end: let them go
    for old in [old for old in _ABANDONED if old.get_loop().is_closed()]:
        _ABANDONED.discard(old)
    _ABANDONED.add(task)
    task.add_done_callback(_ABANDONED.discard)
    return Error(messages.timed_out(fn.name, timeout, stopped=True))


#: async tools cancelled past their timeout that have not ended yet
_ABANDONED: set[Any] = set()


async def _agroup(
    group: list[tuple[int, ToolCall, Function, Any]],
    results: list[Any],
    timeout: float | None,
    limit: int | None,
    pm: PluginManager | None,
) -> None:
    """Run a group of concurrent calls together: async bodies on the loop, sync in threads."""
    import asyncio

    if not group:
        return
    slots = _Slots()
    gate: asyncio.Semaphore | None = asyncio.Semaphore(limit) if limit else None

    async def one(i: int, call: ToolCall, fn: Function, ctx: Any) -> None:
        if gate is None:
            await _arun(i, call, fn, ctx, results, timeout, pm, slots)
        else:
            async with gate:
                await _arun(i, call, fn, ctx, results, timeout, pm, slots)

    await asyncio.gather(*(one(*item) for item in group))
