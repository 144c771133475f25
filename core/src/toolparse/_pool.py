"""The one bounded pool of worker threads sync tool bodies run in, and a call's timeout.

Not :class:`concurrent.futures.ThreadPoolExecutor`: its threads are joined at
exit, so one hung tool would keep the program from exiting, and its queue is
unbounded, so a call behind hung tools would wait forever. Here at most
``max_workers`` daemon threads run, and a job starts at once or is refused
(the model is told, ``no_worker``). A thread held by a hung body stays until
the body returns; an idle one ends after ``idle_seconds``.

Past its timeout an ``async def`` body is cancelled, once, and left alone
(:func:`atimed`); a sync body cannot be stopped: the model is told it may
still finish, and its outcome, when it comes, goes to ``late`` (:func:`watch`).
"""

from __future__ import annotations

import contextvars
import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from time import perf_counter
from typing import TYPE_CHECKING, Any, TypeAlias

from . import messages
from .contract import Error, Ok, Outcome
from .function._callables import run_sync

if TYPE_CHECKING:
    import asyncio

    from .function import Function
    from .results import ToolCall

__all__ = [
    "ABANDONED",
    "POOL",
    "Share",
    "WorkerPool",
    "atimed",
    "checked",
    "in_threads",
    "in_worker",
]

#: one call of a batch: its index, the call, its tool (``None``: no such tool), its context
Step: TypeAlias = "tuple[int, ToolCall, Function | None, Any]"

_Job = tuple["Future[Any]", Callable[..., Any], tuple[Any, ...]]


class WorkerPool:
    """At most ``max_workers`` daemon threads; a job runs at once or is refused.

    ``busy`` counts the jobs running now (hung ones included), ``threads`` the
    worker threads alive now; a thread with no job for ``idle_seconds`` ends.
    """

    def __init__(self, max_workers: int = 32) -> None:
        self.max_workers = checked(max_workers)
        self.idle_seconds = 60.0
        self.busy = 0
        self.threads = 0
        self._lock = threading.Lock()
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._started = 0

    def try_submit(self, fn: Callable[..., Any], /, *args: Any) -> Future[Any] | None:
        """Start ``fn(*args)`` in a worker thread, or return ``None`` when all are busy.

        The future holds what ``fn`` returned (or raised).
        """
        future: Future[Any] = Future()
        with self._lock:
            if self.busy >= self.max_workers:
                return None
            idle = self.threads - self.busy
            self.busy += 1
            # the job runs in the submitter's context (its context variables: the current span)
            self._jobs.put((future, contextvars.copy_context().run, (fn, *args)))
            if idle > 0:
                return future
            self.threads += 1
            self._started += 1
            number = self._started
        thread = threading.Thread(target=self._work, name=f"toolparse-worker-{number}", daemon=True)
        try:
            thread.start()
        except RuntimeError:  # the system refused a new thread: refuse the job
            future.cancel()  # a thread that picks it up later skips it
            with self._lock:
                self.threads -= 1
                self.busy -= 1
            return None
        return future

    def _work(self) -> None:
        while True:
            try:
                future, fn, args = self._jobs.get(timeout=self.idle_seconds)
            except queue.Empty:
                with self._lock:
                    # leave only when no job is waiting for this thread
                    if self._jobs.empty():
                        self.threads -= 1
                        return
                continue
            if future.set_running_or_notify_cancel():
                error: BaseException | None = None
                result: Any = None
                try:
                    result = fn(*args)
                except BaseException as exc:  # handed to whoever waits
                    error = exc
                # free the slot before anyone hears of the result, so that a
                # caller that goes on at once finds the thread available
                with self._lock:
                    self.busy -= 1
                if error is None:
                    future.set_result(result)
                else:
                    future.set_exception(error)
            del future, fn, args


def checked(max_workers: Any) -> int:
    """``max_workers``, a bound of the pool; else ``ValueError``."""
    if type(max_workers) is not int or max_workers < 1:
        raise ValueError(f"max_workers must be a whole number of at least 1, got {max_workers!r}")
    return max_workers


_ENV = os.environ.get("TOOLPARSE_MAX_WORKERS", "").strip()
#: the process-wide pool, built with this module (loaded by the first body run in a thread),
#: bound by ``TOOLPARSE_MAX_WORKERS``, else 32
POOL = WorkerPool(int(_ENV) if _ENV.isdigit() and int(_ENV) > 0 else 32)


# -- running a body in the pool, and its timeout ---------------------------------------


def watch(future: Future[Any], late: Callable[[Outcome], None]) -> None:
    """Hand the outcome of a body that outlived its timeout to ``late``, when it comes."""

    def done(f: Future[Any]) -> None:
        try:
            outcome = f.result()
        except BaseException as exc:  # execute never raises; a last resort
            outcome = Error(messages.exception(exc), exc)
        late(outcome)

    future.add_done_callback(done)


def _body(fn: Function, value: Any, context: Any) -> Outcome:
    """A sync tool's body on arguments already parsed, in a worker thread."""
    outcome = fn._call(value, context)
    if not isinstance(outcome, tuple):  # a sync callable returned an awaitable: it runs
        outcome = run_sync(outcome)  # to the end here, in the worker, not on the caller's loop
    return outcome  # type: ignore[no-any-return]


def in_threads(
    steps: list[Step],
    timeout: float | None,
    limit: int | None,
    answer: Callable[[int, Function, Outcome, float], None],
    late: Callable[[int, Function, float], Callable[[Outcome], None] | None],
) -> None:
    """Run the sync bodies of ``steps`` in worker threads, ``limit`` at once; this thread waits.

    ``answer(i, fn, outcome, start)`` takes each call's outcome. A pool held
    full by these calls waits for one of them; a pool held by others answers
    ``no_worker``. Past ``timeout`` a body's outcome goes to ``late(i, fn, start)``.
    """
    pool = POOL
    pending = steps[::-1]
    running: dict[Future[Outcome], tuple[int, Function, float]] = {}
    while pending or running:
        while pending and (limit is None or len(running) < limit):
            i, call, fn, ctx = pending[-1]
            assert fn is not None  # the steps of known tools only
            start = perf_counter()
            future = pool.try_submit(fn.execute, call.arguments, ctx)
            if future is None and running:
                break  # our own calls hold the threads: wait for one of them
            pending.pop()
            if future is None:
                answer(i, fn, Error(messages.no_worker(fn.name, pool.max_workers)), start)
            else:
                running[future] = (i, fn, start)
        wait_for = None
        if timeout is not None and running:
            # wake for the first call to reach its timeout, not the last
            wait_for = max(0.0, min(s for _, _, s in running.values()) + timeout - perf_counter())
        done, _ = wait(running, timeout=wait_for, return_when=FIRST_COMPLETED)
        for future in done:
            i, fn, start = running.pop(future)
            answer(i, fn, future.result(), start)
        stamp = perf_counter()
        for future, (i, fn, start) in list(running.items()):
            if timeout is not None and stamp - start >= timeout:
                del running[future]
                heard = late(i, fn, start)
                if heard is not None:
                    watch(future, heard)
                answer(i, fn, Error(messages.timed_out(fn.name, timeout, stopped=False)), start)


class Share:
    """A group's share of the pool: while its own calls hold every thread, the next one waits.

    Only a pool held by others answers ``no_worker``; our own calls end.
    """

    __slots__ = ("event", "running")

    def __init__(self) -> None:
        import asyncio  # a loop runs the group: asyncio is loaded already

        self.running = 0
        self.event = asyncio.Event()


async def in_worker(
    fn: Function,
    arguments: Any,
    context: Any,
    timeout: float | None,
    late: Callable[[Outcome], None] | None,
    share: Share | None = None,
) -> Outcome:
    """A sync tool from async code: its arguments parsed on the loop, its body in a worker thread.

    A rejected call needs no thread. Past ``timeout`` the model is told the
    body may still finish, and its outcome goes to ``late`` when it does.
    """
    parsed = fn.parse_arguments(arguments, context)
    if type(parsed) is not Ok:
        return parsed
    import asyncio  # a loop runs this: loaded already, kept off ``import toolparse``

    pool = POOL
    while True:
        future = pool.try_submit(_body, fn, parsed.value, context)
        if future is not None or share is None or share.running == 0:
            break
        share.event.clear()
        await share.event.wait()
    if future is None:
        return Error(messages.no_worker(fn.name, pool.max_workers))
    if share is not None:
        share.running += 1
    try:
        outcome: Outcome = await asyncio.wait_for(asyncio.wrap_future(future), timeout)
    except (asyncio.TimeoutError, TimeoutError):
        if late is not None:
            watch(future, late)
        return Error(messages.timed_out(fn.name, timeout or 0, stopped=False))
    finally:
        if share is not None:
            share.running -= 1
            share.event.set()
    return outcome


async def atimed(fn: Function, arguments: Any, context: Any, timeout: float) -> Outcome:
    """An async tool, cancelled past ``timeout``."""
    import asyncio  # a loop runs this: loaded already, kept off ``import toolparse``

    # not asyncio.wait_for: after cancelling, it waits for the task to end, so
    # a body that catches its CancelledError and carries on would hold the
    # batch forever; here the task is cancelled once and left to finish alone
    task = asyncio.ensure_future(fn.aexecute(arguments, context))
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
ABANDONED: set[asyncio.Task[Outcome]] = set()
