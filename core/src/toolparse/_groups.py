"""Concurrent groups: the run of ``concurrent=True`` calls that goes together, and running it.

The model's order holds across groups: :func:`group` takes the calls from
one index up to the first call to a tool that is not ``concurrent=True`` (a
barrier), answering unknown tools on the way, and the caller runs that group
to its end before going on. Within a group the calls overlap, at most
``max_concurrency`` at once: sync bodies in worker threads (:func:`sync_group`
when the caller is sync and no body is async), else on a loop
(:func:`agroup`), where each call goes through :func:`arun` as a lone async
call does.

A group's sync bodies share the one bounded pool with every other batch. When
our own calls hold its threads, the next one waits for them rather than
failing; only a pool held by others answers ``no_worker``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from . import messages
from ._answers import context_for, late, now, store, unknown
from ._threads import body, worker_pool
from ._timeouts import atimed
from .contract import Error, Ok, Outcome

if TYPE_CHECKING:
    import asyncio
    from concurrent.futures import Future

    from ._lookup import Lookup
    from ._workers import WorkerPool
    from .function import Function
    from .plugins import PluginManager
    from .results import ToolCall

__all__ = ["Member", "agroup", "arun", "group", "sync_group"]

#: one call of a group: its index in the batch, the call, its tool, its context
Member: TypeAlias = tuple[int, "ToolCall", "Function", Any]


def group(
    calls: list[ToolCall],
    i: int,
    lookup: Lookup,
    results: list[Any],
    pm: PluginManager | None,
    context: Any,
) -> tuple[list[Member], int]:
    """The run of consecutive concurrent calls from ``i``, and the index after it.

    Unknown tools are answered here, in place, and do not end the run: only a
    known tool that is not ``concurrent=True`` does.
    """
    members = []
    n = len(calls)
    while i < n:
        call = calls[i]
        fn = lookup.find(call.name)
        if fn is None:
            unknown(results, i, call, lookup, pm)
        elif fn.concurrent:
            members.append((i, call, fn, context_for(context, call)))
        else:
            break
        i += 1
    return members, i


def sync_group(
    members: list[Member],
    results: list[Any],
    timeout: float | None,
    limit: int | None,
    pm: PluginManager | None,
) -> None:
    """Run a group of sync concurrent calls in worker threads; this thread waits."""
    # the pool's module has loaded both already: a group is the first use of threads
    from collections import deque
    from concurrent.futures import FIRST_COMPLETED, wait

    pool = worker_pool()
    pending = deque(members)
    running: dict[Future[Any], tuple[int, ToolCall, Function, float]] = {}

    while pending or running:
        while pending and (limit is None or len(running) < limit):
            i, call, fn, ctx = pending[0]
            start = now()
            future = pool.try_submit(fn.execute, call.arguments, ctx)
            if future is None:
                if running:
                    break  # our own calls hold the threads: wait for one of them
                pending.popleft()
                outcome = Error(messages.no_worker(fn.name, pool.max_workers))
                store(results, i, call, fn, outcome, pm, start)
                continue
            pending.popleft()
            running[future] = (i, call, fn, start)
        if not running:
            continue
        wait_for = None
        if timeout is not None:
            # wake for the first call to reach its timeout, not the last
            first = min(start for _, _, _, start in running.values())
            wait_for = max(0.0, first + timeout - now())
        done, _ = wait(running, timeout=wait_for, return_when=FIRST_COMPLETED)
        for future in done:
            i, call, fn, start = running.pop(future)
            store(results, i, call, fn, future.result(), pm, start)
        if timeout is not None:
            stamp = now()
            for future, (i, call, fn, start) in list(running.items()):
                if stamp - start >= timeout:
                    del running[future]
                    late(future, pm, call, fn, start)
                    outcome = Error(messages.timed_out(fn.name, timeout, stopped=False))
                    store(results, i, call, fn, outcome, pm, start)


class _Slots:
    """A group's share of the pool: wait for one of our own threads rather than fail."""

    __slots__ = ("event", "running")

    def __init__(self) -> None:
        import asyncio  # a loop runs the group: asyncio is loaded already

        self.running = 0
        self.event = asyncio.Event()


async def _submit(
    pool: WorkerPool, slots: _Slots | None, fn: Any, *args: Any
) -> Future[Any] | None:
    """Start ``fn(*args)`` in the pool; in a group, wait while our own calls hold it full."""
    while True:
        future = pool.try_submit(fn, *args)
        if future is not None or slots is None or slots.running == 0:
            return future
        slots.event.clear()
        await slots.event.wait()


async def arun(
    i: int,
    call: ToolCall,
    fn: Function,
    ctx: Any,
    results: list[Any],
    timeout: float | None,
    pm: PluginManager | None,
    slots: _Slots | None,
) -> None:
    """Run call ``i`` on the loop and store its result: async on the loop, sync in a thread.

    A sync body's arguments are parsed on the loop first, so a rejected call
    needs no thread; ``slots`` is the group's share of the pool (``None`` alone).
    """
    start = now()
    outcome: Outcome
    if fn._async:
        if timeout is None:
            outcome = await fn.aexecute(call.arguments, ctx)
        else:
            outcome = await atimed(fn, call.arguments, ctx, timeout)
    else:
        parsed = fn.parse_arguments(call.arguments, ctx)
        if type(parsed) is not Ok:
            outcome = parsed
        else:
            pool = worker_pool()
            future = await _submit(pool, slots, body, fn, parsed.value, ctx)
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
                    late(future, pm, call, fn, start)
                    outcome = Error(messages.timed_out(fn.name, timeout or 0, stopped=False))
                finally:
                    if slots is not None:
                        slots.running -= 1
                        slots.event.set()
    store(results, i, call, fn, outcome, pm, start)


async def agroup(
    members: list[Member],
    results: list[Any],
    timeout: float | None,
    limit: int | None,
    pm: PluginManager | None,
) -> None:
    """Run a group of concurrent calls together: async bodies on the loop, sync in threads."""
    import asyncio  # a loop runs this: loaded already, kept off ``import toolparse``

    if not members:
        return
    slots = _Slots()
    gate: asyncio.Semaphore | None = asyncio.Semaphore(limit) if limit else None

    async def one(i: int, call: ToolCall, fn: Function, ctx: Any) -> None:
        if gate is None:
            await arun(i, call, fn, ctx, results, timeout, pm, slots)
        else:
            async with gate:
                await arun(i, call, fn, ctx, results, timeout, pm, slots)

    await asyncio.gather(*(one(*item) for item in members))
