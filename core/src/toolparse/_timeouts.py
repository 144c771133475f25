"""Runs under a timeout: a sync body waited for in a worker thread, an async one cancelled.

The two kinds of body end differently past their timeout. A sync body cannot
be stopped: the caller stops waiting, the model is told the tool may still
finish, and its late outcome goes to the observers (:func:`~toolparse._answers.late`).
An ``async def`` body is cancelled, once, and then left alone: a body that
catches its ``CancelledError`` and carries on must not hold the batch, so its
task is kept in :data:`ABANDONED` until it ends rather than waited for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import messages
from ._answers import late
from ._threads import worker_pool
from .contract import Error, Outcome

if TYPE_CHECKING:
    from .function import Function
    from .plugins import PluginManager
    from .results import ToolCall

__all__ = ["ABANDONED", "atimed", "timed"]


def timed(
    fn: Function,
    call: ToolCall,
    ctx: Any,
    timeout: float,
    pm: PluginManager | None,
    start: float,
) -> Outcome:
    """A sync body with a timeout, in a worker thread; this thread waits for it.

    A full pool answers at once (``no_worker``) rather than queue behind hung tools.
    """
    # only a sync call with a timeout needs it; the pool has loaded it already
    from concurrent.futures import TimeoutError as FutureTimeout

    pool = worker_pool()
    future = pool.try_submit(fn.execute, call.arguments, ctx)
    if future is None:
        return Error(messages.no_worker(fn.name, pool.max_workers))
    try:
        return future.result(timeout)  # type: ignore[no-any-return]
    except FutureTimeout:
        late(future, pm, call, fn, start)
        return Error(messages.timed_out(fn.name, timeout, stopped=False))


async def atimed(fn: Function, arguments: Any, ctx: Any, timeout: float | None) -> Outcome:
    """An async tool, cancelled past ``timeout`` (awaited plainly without one)."""
    if timeout is None:
        return await fn.aexecute(arguments, ctx)
    import asyncio  # only a call with a timeout needs it (a loop runs this: it is loaded)

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
    for old in [old for old in ABANDONED if old.get_loop().is_closed()]:
        ABANDONED.discard(old)
    ABANDONED.add(task)
    task.add_done_callback(ABANDONED.discard)
    return Error(messages.timed_out(fn.name, timeout, stopped=True))


#: async tools cancelled past their timeout that have not ended yet
ABANDONED: set[Any] = set()
