"""The one bounded pool of worker threads sync tool bodies run in, and a call's timeout.

Not :class:`concurrent.futures.ThreadPoolExecutor`: its threads are joined at exit (one hung
tool would keep the program from exiting) and its queue is unbounded (a call behind hung tools
would wait forever). Here at most ``max_workers`` daemon threads run; a job that finds them all
busy waits its turn among at most ``max_queue`` others, else it is refused (``no_worker``).

Past its timeout an ``async def`` body is cancelled, once, and left alone (:func:`atimed`);
a sync body cannot be stopped: its outcome goes to ``late`` (:func:`watch`), and a job still
waiting then is withdrawn and never starts.
"""

from __future__ import annotations

import contextvars
import os
import queue
import threading
from collections import deque
from collections.abc import Callable, Iterable
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
    "GRACE",
    "POOL",
    "WorkerPool",
    "atimed",
    "checked",
    "in_threads",
    "in_worker",
    "settle",
]

#: one call of a batch: its index, the call, its tool (``None``: no such tool), its context
Step: TypeAlias = "tuple[int, ToolCall, Function | None, Any]"

#: who hears the outcome of a body that outlived its timeout (``None``: nobody)
Late: TypeAlias = "Callable[[Outcome], None]"
#: a job: its future, the callable and its arguments; the callable is ``None`` once withdrawn
_Job: TypeAlias = "list[Any]"


class WorkerPool:
    """At most ``max_workers`` daemon threads; a job runs at once, waits its turn, or is refused.

    ``busy``: jobs running now (hung ones included); ``threads``: worker threads alive now;
    ``waiting``: jobs queued for a thread. A thread with no job for ``idle_seconds`` ends.
    """

    def __init__(self, max_workers: int = 32, max_queue: int = 1000) -> None:
        self.max_workers = checked(max_workers)
        self.max_queue = checked(max_queue, "max_queue", 0)
        self.idle_seconds = 60.0
        self.busy = self.threads = 0
        self._lock = threading.Lock()
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()  # handed to a thread
        self._waiting: deque[_Job] = deque()  # for a thread to free up, oldest first
        self._started = 0

    @property
    def waiting(self) -> int:
        """How many jobs wait for a thread now (withdrawn ones may count until skipped)."""
        return len(self._waiting)

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future[Any] | None:
        """Run ``fn(*args)`` in a thread, now or in its turn (cancel the future: it never starts).

        ``None`` when the queue is full.
        """
        # the job runs in the submitter's context (its context variables: the current span)
        job: _Job = [Future(), contextvars.copy_context().run, (fn, *args)]
        with self._lock:
            if self.busy >= self.max_workers:
                if len(self._waiting) >= self.max_queue:
                    # withdrawn jobs leave room (looked for only when the queue seems full)
                    self._waiting = deque(j for j in self._waiting if not j[0].cancelled())
                    if len(self._waiting) >= self.max_queue:
                        return None
                self._waiting.append(job)
                return job[0]  # type: ignore[no-any-return]
            number = self._hand(job)
        if number and not self._start(number, job):
            return None
        return job[0]  # type: ignore[no-any-return]

    def resize(self, max_workers: int, max_queue: int | None = None) -> None:
        """Set the bounds; waiting jobs start at once on the threads a higher bound allows."""
        workers = checked(max_workers)
        bound = self.max_queue if max_queue is None else checked(max_queue, "max_queue", 0)
        starts: list[tuple[int, _Job]] = []
        with self._lock:
            self.max_workers, self.max_queue = workers, bound
            while self.busy < self.max_workers and (job := self._next()) is not None:
                if number := self._hand(job):
                    starts.append((number, job))
        for number, job in starts:
            self._start(number, job)

    def _next(self) -> _Job | None:
        """The oldest waiting job not withdrawn (under the lock)."""
        while self._waiting:
            job = self._waiting.popleft()
            if not job[0].cancelled():
                return job
        return None

    def _hand(self, job: _Job) -> int:
        """Give ``job`` a thread (under the lock): an idle one (0), else the number of a new one."""
        idle = self.threads - self.busy
        self.busy += 1
        self._jobs.put(job)
        if idle > 0:
            return 0
        self.threads += 1
        self._started += 1
        return self._started

    def _start(self, number: int, job: _Job) -> bool:
        """Start worker thread ``number``; if the system refuses, withdraw ``job`` (``False``)."""
        thread = threading.Thread(target=self._work, name=f"toolparse-worker-{number}", daemon=True)
        try:
            thread.start()
        except RuntimeError:  # the system refused a new thread: refuse the job
            with self._lock:
                self.threads -= 1
                if not job[0].cancel():
                    return True  # a thread that came free took it meanwhile
                job[1] = None  # a thread that picks it up later skips it
                self.busy -= 1
            return False
        return True

    def _finished(self) -> _Job | None:
        """A thread's job ended: the next waiting job for it, or its slot freed (``None``)."""
        with self._lock:
            job = self._next() if self.busy <= self.max_workers else None
            if job is None:
                self.busy -= 1
            return job

    def _work(self) -> None:
        job: _Job | None = None
        while True:
            if job is None:
                try:
                    job = self._jobs.get(timeout=self.idle_seconds)
                except queue.Empty:
                    with self._lock:
                        # leave only when no job is waiting for this thread
                        if self._jobs.empty():
                            self.threads -= 1
                            return
                    continue
            future, fn, args = job
            with self._lock:  # (so a refused thread's withdrawal cannot race this)
                started = fn is not None and future.set_running_or_notify_cancel()
            if fn is None:
                job = None
                continue
            error: BaseException | None = None
            result: Any = None
            if started:  # (else cancelled while it waited for this thread)
                try:
                    result = fn(*args)
                except BaseException as exc:  # handed to whoever waits
                    error = exc
            # take the next job or free the slot before anyone hears of the result,
            # so that a caller that goes on at once finds the thread available
            job = self._finished()
            if started:
                if error is None:
                    future.set_result(result)
                else:
                    future.set_exception(error)
            del future, fn, args, result, error


def checked(value: Any, name: str = "max_workers", least: int = 1) -> int:
    """``value``, a bound of the pool (a whole number of at least ``least``); else ``ValueError``."""
    if type(value) is not int or value < least:
        raise ValueError(f"{name} must be a whole number of at least {least}, got {value!r}")
    return value


_ENV = os.environ.get("TOOLPARSE_MAX_WORKERS", "").strip()
#: the process-wide pool, built with this module (loaded by the first body run in a thread),
#: bound by ``TOOLPARSE_MAX_WORKERS``, else 32
POOL = WorkerPool(int(_ENV) if _ENV.isdigit() and int(_ENV) > 0 else 32)


# -- running a body in the pool, and its timeout ---------------------------------------


def watch(future: Future[Any] | asyncio.Task[Any], late: Callable[[Outcome], None]) -> None:
    """Hand the outcome of a body that outlived its timeout or its cancellation to ``late``."""

    def done(f: Any) -> None:  # (a thread's Future or a loop's Task: both give result())
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
    late: Callable[[int, Function, float], Late],
) -> None:
    """Run the sync bodies of ``steps`` in worker threads, ``limit`` at once; this thread waits.

    ``answer(i, fn, outcome, start)`` takes each call's outcome (``no_worker``: the queue is
    full). Past ``timeout`` a call still waiting is withdrawn, a running body's outcome goes
    to ``late(i, fn, start)``.
    """
    pool = POOL
    pending = steps[::-1]
    running: dict[Future[Outcome], tuple[int, Function, float]] = {}
    while pending or running:
        while pending and (limit is None or len(running) < limit):
            i, call, fn, ctx = pending[-1]
            assert fn is not None  # the steps of known tools only
            start = perf_counter()
            future = pool.submit(fn.execute, call.arguments, ctx)
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
            if future.cancelled():  # the system refused a thread a higher bound called for
                answer(i, fn, Error(messages.no_worker(fn.name, pool.max_workers)), start)
            else:
                answer(i, fn, future.result(), start)
        stamp = perf_counter()
        for future, (i, fn, start) in list(running.items()):
            if timeout is not None and stamp - start >= timeout:
                del running[future]
                answer(i, fn, _overdue(future, fn, timeout, late(i, fn, start)), start)


def _overdue(future: Future[Any], fn: Function, timeout: float, late: Late) -> Error:
    """A sync body past its timeout: withdrawn if it still waits, else its outcome goes to ``late``."""
    if future.cancel():  # it was still waiting: it never starts
        return Error(messages.timed_out(fn.name, timeout, stopped=True))
    watch(future, late)
    return Error(messages.timed_out(fn.name, timeout, stopped=False))


async def in_worker(
    fn: Function, arguments: Any, context: Any, timeout: float | None, late: Late
) -> Outcome:
    """A sync tool from async code: its arguments parsed on the loop, its body in a worker thread.

    Past ``timeout`` (waiting for a thread included), or cancelled, a call still waiting never
    starts, and a running body's outcome goes to ``late`` when it comes.
    """
    start = perf_counter()
    parsed = fn.parse_arguments(arguments, context)
    if type(parsed) is not Ok:
        return parsed
    import asyncio  # a loop runs this: loaded already, kept off ``import toolparse``

    future = POOL.submit(_body, fn, parsed.value, context)
    if future is None:
        return Error(messages.no_worker(fn.name, POOL.max_workers))
    left = None if timeout is None else max(0.0, timeout - (perf_counter() - start))
    try:
        # (cancelling the wrapper withdraws a job still waiting: it never starts)
        return await asyncio.wait_for(asyncio.wrap_future(future), left)
    except (asyncio.TimeoutError, TimeoutError):
        return _overdue(future, fn, timeout or 0, late)
    except asyncio.CancelledError:
        if not future.cancelled():
            watch(future, late)  # running: its outcome, when it comes, is heard
        raise


#: how long cancelled async bodies get to unwind before they are abandoned
GRACE = 1.0


async def settle(tasks: Iterable[asyncio.Future[Any]]) -> set[asyncio.Future[Any]]:
    """Cancel ``tasks``, wait up to :data:`GRACE` seconds for them to unwind; return those abandoned."""
    import asyncio  # a loop runs this: loaded already, kept off ``import toolparse``

    pending = {task for task in tasks if not task.done()}
    for task in pending:
        task.cancel()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + GRACE
    while pending and (left := deadline - loop.time()) > 0:
        try:
            await asyncio.wait(pending, timeout=left)
        except asyncio.CancelledError:
            # an anyio cancel scope (the MCP SDK's) cancels again at every await
            # until its task leaves the scope: keep waiting, up to the deadline
            pass
        pending = {task for task in pending if not task.done()}
    for task in pending:
        _abandon(task)
    return pending


def _abandon(task: asyncio.Future[Any]) -> None:
    # kept, so a live loop does not drop a task still running; those of loops
    # already closed (a sync batch's own loop) will never end: let them go
    ABANDONED.difference_update([old for old in ABANDONED if old.get_loop().is_closed()])
    ABANDONED.add(task)
    task.add_done_callback(ABANDONED.discard)


async def atimed(fn: Function, arguments: Any, context: Any, timeout: float, late: Late) -> Outcome:
    """An async tool, cancelled past ``timeout`` or with this coroutine.

    Cancelled with it, a body that swallows that for :data:`GRACE` seconds is
    abandoned; its outcome, should it end, goes to ``late``.
    """
    import asyncio  # a loop runs this: loaded already, kept off ``import toolparse``

    # not asyncio.wait_for: after cancelling, it waits for the task to end, so
    # a body that catches its CancelledError and carries on would hold the
    # batch forever; here the task is cancelled once and left to finish alone
    task = asyncio.ensure_future(fn.aexecute(arguments, context))
    try:
        done, _ = await asyncio.wait((task,), timeout=timeout)
    except asyncio.CancelledError:
        if await settle((task,)):
            watch(task, late)  # abandoned: its outcome, when it comes, is heard
        raise
    if done:
        return task.result()
    task.cancel()
    _abandon(task)
    return Error(messages.timed_out(fn.name, timeout, stopped=True))


#: async tools cancelled (past their timeout, or with their batch) that have not ended yet
ABANDONED: set[asyncio.Future[Any]] = set()
