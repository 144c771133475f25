"""Running a batch of tool calls: the model's order, concurrency, timeouts.

Both entry points walk one description of the batch (:class:`_Batch`) in the model's
order; only how a step runs differs: inline, in a worker thread of the one bounded pool
(:func:`worker_pool`), or awaited on the caller's loop or on a loop of its own.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

from . import messages
from ._aliases import ToolNames, alias_routes, kept
from ._log import logger
from .contract import Outcome
from .errors import FunctionDefinitionError
from .function import _tracing
from .function._callables import run_sync
from .plugins import plugin_manager as default_manager
from .results import ToolCall, ToolResult

if TYPE_CHECKING:
    from ._pool import Late, Step, WorkerPool
    from .function import Function
    from .plugins import PluginManager

__all__ = ["aexecute_tool_calls", "execute_tool_calls", "set_max_workers", "worker_pool"]


#: the clock of a call's ``duration``
now = time.perf_counter


def set_max_workers(max_workers: int, *, queue: int | None = None) -> None:
    """Set the bounds of the process-wide worker pool (threads already running are kept).

    :param max_workers: the most sync bodies running at once. The default is
        ``TOOLPARSE_MAX_WORKERS`` from the environment, else 32.
    :param queue: the most calls waiting for a thread, first come, first
        served (default 1,000; ``None`` keeps the current bound). A call that
        finds the queue full is answered at once that it could not be started.
    :raises ValueError: a bound that is not a whole number (``max_workers`` at least 1).
    """
    from ._pool import POOL  # the worker threads load with their first use

    POOL.resize(max_workers, queue)


def worker_pool() -> WorkerPool:
    """The process-wide pool that sync bodies run in, off the caller's thread.

    Read its ``max_workers`` and ``max_queue`` (the bounds), ``busy`` (calls
    running in it now, hung ones included), ``waiting`` (calls queued for a
    thread) and ``threads`` (alive now; each ends after ``idle_seconds``, 60,
    with no call).
    """
    from ._pool import POOL  # the worker threads load with their first use

    return POOL


def _check(timeout: object, max_concurrency: object) -> None:
    if timeout is not None and (
        isinstance(timeout, bool)
        or not isinstance(timeout, (int, float))
        or not timeout > 0  # (NaN too)
    ):
        raise ValueError(f"timeout must be a number of seconds above 0 (or None), got {timeout!r}")
    if max_concurrency is not None and (type(max_concurrency) is not int or max_concurrency < 1):
        raise ValueError(
            f"max_concurrency must be a whole number of at least 1 (or None), got {max_concurrency!r}"
        )


def _together(fns: list[Function | None]) -> dict[int, int]:
    """First → end of each run of concurrent calls to two known tools or more."""
    runs: dict[int, int] = {}
    start, known = -1, 0  # the open run's first call (-1: none open), its known tools
    for i, fn in enumerate(fns):
        if fn is None:
            continue
        if fn.concurrent:
            start = i if start < 0 else start
            known += 1
        else:  # only a known tool that is not concurrent=True ends a run
            if known > 1:
                runs[start] = i
            start, known = -1, 0
    if known > 1:
        runs[start] = len(fns)
    return runs


def _context(context: Any, call: ToolCall) -> Any:
    """The caller's context plus ``tool_call_id``, as a new mapping; a context not a mapping as is."""
    if context is None:
        return {"tool_call_id": call.id}
    if isinstance(context, Mapping):
        return {**context, "tool_call_id": call.id}
    return context


def _table(functions: Iterable[Function]) -> tuple[Any, dict[str, Function], Any]:
    """The tools, their name → tool map, and their alias routes (``None``: not worked out yet)."""
    tools: Any = functions
    if type(tools) is not list:
        try:  # a Toolset keeps both, built once
            return tools, tools._names._table, tools._names._routes
        except AttributeError:  # any other iterable of Functions
            tools = list(tools)
    # a long list's tables are kept for the next batch given the same tools
    found = kept(tools) if len(tools) > messages.MAX_NAMES else None
    if found is not None:
        return found, found._table, None
    table = {fn.name: fn for fn in tools}
    if len(table) != len(tools):
        names = [fn.name for fn in tools]
        twice = next(name for name in names if names.count(name) > 1)
        raise FunctionDefinitionError([("functions", messages.duplicate_tool(twice))])
    return (kept(tools, table) if len(tools) > messages.MAX_NAMES else tools), table, None


class _Batch:
    """One batch: ``fns``, each call's tool (``None``: no such tool), by its name or an alias.

    ``together``: the first call of each run of concurrent calls → the run's end; every
    other call runs alone. ``results`` is filled by index; ``pm`` observes (``None``: nothing).
    """

    __slots__ = (
        "calls",
        "cancelled",
        "context",
        "fns",
        "limit",
        "pm",
        "results",
        "source",
        "timeout",
        "together",
    )

    def __init__(
        self,
        functions: Iterable[Function],
        calls: Iterable[ToolCall],
        context: Any,
        timeout: float | None,
        limit: int | None,
        plugin_manager: PluginManager | None,
    ) -> None:
        if timeout is not None or limit is not None:
            _check(timeout, limit)
        self.context, self.timeout, self.limit = context, timeout, limit
        self.cancelled = False  # the caller cancelled the batch: what still ends comes late
        # what the model can call, named in the answer to an unknown tool
        self.source, table, routes = _table(functions)
        # the default manager is taken here, at the edge, when the caller gives none
        pm = default_manager() if plugin_manager is None else plugin_manager
        self.pm = pm if pm.observed else None  # observers cost nothing until a plugin asks
        self.calls = calls = calls if type(calls) is list else list(calls)
        fns: list[Function | None] = []
        split = False  # a call to no known tool, or to a concurrent one
        try:
            for call in calls:
                fns.append(fn := table.get(call.name))
                if fn is None or fn.concurrent:
                    split = True
        except TypeError:  # a name that cannot be a key (a list, a dict) names no tool
            fns = [table.get(c.name) if type(c.name) is str else None for c in calls]
            split = True
        if split and None in fns:
            # a provider's alias of a tool name, or no such tool: the routes are
            # worked out on a miss only, as most models call tools by their names
            if routes is None:  # a kept list's are worked out once, on its first miss
                source = self.source
                routes = source._routes if isinstance(source, ToolNames) else alias_routes(source)
            for i, call in enumerate(calls):
                if fns[i] is None and type(call.name) is str:
                    fns[i] = routes.get(call.name)
        self.fns = fns
        self.together = _together(fns) if split else {}
        self.results: list[Any] = [None] * len(fns)

    def step(self, i: int) -> Step:
        """Call ``i``, its tool and the context it sees."""
        call = self.calls[i]
        return i, call, self.fns[i], _context(self.context, call)

    def steps(self, run: range) -> list[Step]:
        """The calls of ``run`` to known tools; those to no known tool are answered here."""
        for i in run:
            if self.fns[i] is None:
                self.answer(i, None, None, now())
        return [self.step(i) for i in run if self.fns[i] is not None]

    def answer(
        self, i: int, fn: Function | None, outcome: Outcome | None, start: float, late: bool = False
    ) -> None:
        """Call ``i``'s result (``outcome``, or no such tool): in its place, and to the observers.

        A ``late`` outcome (past the timeout the model was answered at) goes to the observers only.
        """
        call = self.calls[i]
        if fn is None:
            # the providers load on this error path only (no cycle: they import no calls)
            from .providers import _callable_names

            text = messages.unknown_tool(call.name, _callable_names(self.source, call))
            result = ToolResult(call.id, call.name, text, is_error=True, kind=call.kind)
            if _tracing.tracer is not None:
                _tracing.unknown(call, text, self.context)
        else:
            result = ToolResult.from_outcome(call, fn, outcome)  # type: ignore[arg-type]
        if not late:
            self.results[i] = result
        else:  # the model was told it may still finish: the application's logs say how it did
            level = 30 if result.is_error else 20  # logging.WARNING / INFO (logging loads here)
            text = "the tool %s (call %s) finished after its timeout: %s"
            logger(__name__).log(level, text, call.name, call.id, result.text)
        if self.pm is not None:
            self.pm.hook.toolparse_tool_executed(
                call=call, function=fn, result=result, duration=now() - start, late=late
            )

    def late(self, i: int, fn: Function, start: float) -> Late:
        """Who hears the outcome of call ``i``'s body if it outlives its timeout (the log, observers)."""
        return lambda outcome: self.answer(i, fn, outcome, start, late=True)

    def off_thread(self, run: range) -> None:
        """Run the calls of ``run`` together: in worker threads, or on a loop of its own.

        A lone call with a timeout comes here too, to be answered at the timeout.
        """
        steps = self.steps(run)
        if any(fn._async for _, _, fn, _ in steps):  # type: ignore[union-attr]
            run_sync(self.agroup(steps))
        elif steps:
            from ._pool import in_threads  # the worker threads load with their first use

            # traced: the spans of bodies still running at the timeout say so
            with _tracing.deadline(self.timeout) if _tracing.tracer else nullcontext():
                in_threads(steps, self.timeout, self.limit, self.answer, self.late)

    async def arun(self, step: Step) -> None:
        """Run ``step`` on the loop: an async body awaited here, a sync one in a worker thread."""
        i, call, fn, ctx = step
        start = now()
        outcome: Outcome | None = None
        if fn is not None:
            run = self.run(step, fn, start)
            if _tracing.tracer is not None:  # traced: the call's span is opened here
                run = _tracing.around(run, fn, call, ctx, self.timeout)
            outcome = await run
        self.answer(i, fn, outcome, start, late=self.cancelled)

    async def run(self, step: Step, fn: Function, start: float) -> Outcome:
        """Run ``step``'s call of ``fn`` on the loop: its outcome."""
        from ._pool import atimed, in_worker  # the worker threads load with their first use

        i, call, _, ctx = step
        if not fn._async:
            return await in_worker(fn, call.arguments, ctx, self.timeout, self.late(i, fn, start))
        if self.timeout is None:
            return await fn.aexecute(call.arguments, ctx)
        return await atimed(fn, call.arguments, ctx, self.timeout, self.late(i, fn, start))

    async def agroup(self, steps: list[Step]) -> None:
        """Run ``steps`` together on the loop, ``limit`` at once.

        Cancelled, it cancels every call running and returns once they unwound
        (a body that swallows that is abandoned after a second: see ``settle``).
        """
        import asyncio  # a loop runs this: loaded already, kept off ``import toolparse``

        from ._pool import settle  # the worker threads load with their first use

        gate = asyncio.Semaphore(self.limit) if self.limit else nullcontext()

        async def one(step: Step) -> None:
            async with gate:
                await self.arun(step)

        # not gather: cancelled, it waits for every child, however long one runs on
        tasks = [asyncio.ensure_future(one(step)) for step in steps]
        try:
            await asyncio.wait(tasks)
        except asyncio.CancelledError:
            self.cancelled = True
            await settle(tasks)
            raise
        for task in tasks:
            task.result()  # what a body let through (not an Exception) goes on


def execute_tool_calls(
    functions: Iterable[Function],
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
    :param plugin_manager: whose ``toolparse_tool_executed`` observers to call
        (default: :func:`toolparse.plugin_manager`).
    :raises ValueError: an invalid ``timeout`` or ``max_concurrency``;
        :class:`~toolparse.FunctionDefinitionError` for two tools of one name.
    """
    batch = _Batch(functions, calls, context, timeout, max_concurrency, plugin_manager)
    calls, fns, together, results = batch.calls, batch.fns, batch.together, batch.results
    lean = batch.pm is None  # nothing observes: no clock
    i, n = 0, len(calls)
    while i < n:
        if timeout is None and i not in together:  # inline, in this thread
            call, fn = calls[i], fns[i]
            ctx = {"tool_call_id": call.id} if context is None else _context(context, call)
            if lean and fn is not None:
                results[i] = ToolResult.from_outcome(call, fn, fn.execute(call.arguments, ctx))
            else:
                start = now()
                batch.answer(i, fn, None if fn is None else fn.execute(call.arguments, ctx), start)
            i += 1
        else:
            stop = together.get(i, i + 1)
            batch.off_thread(range(i, stop))
            i = stop
    return results


async def aexecute_tool_calls(
    functions: Iterable[Function],
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
    thread). Cancelling this coroutine cancels every async tool body it is
    running, at once, with or without ``timeout``, and returns (raising
    ``CancelledError``) once they have unwound: a body that swallows its
    cancellation is abandoned after one second, and its outcome, should it
    end, goes to the observing hook with ``late=True``. A lone ``async def``
    call with no ``timeout`` is awaited directly (no task of its own), as
    asyncio awaits any coroutine: a body that swallows that cancellation runs
    on, and its result is returned. A sync body already running in a thread
    cannot be stopped; it finishes there, and its outcome goes to the hook the
    same way.
    """
    batch = _Batch(functions, calls, context, timeout, max_concurrency, plugin_manager)
    calls, fns, together, results = batch.calls, batch.fns, batch.together, batch.results
    lean = batch.pm is None and timeout is None  # an async body awaited here, no clock
    i, n = 0, len(calls)
    while i < n:
        call, fn, stop = calls[i], fns[i], together.get(i, i + 1)
        if stop > i + 1:
            await batch.agroup(batch.steps(range(i, stop)))
        elif lean and fn is not None and fn._async:
            ctx = {"tool_call_id": call.id} if context is None else _context(context, call)
            results[i] = ToolResult.from_outcome(call, fn, await fn.aexecute(call.arguments, ctx))
        else:
            await batch.arun(batch.step(i))
        i = stop
    return results
