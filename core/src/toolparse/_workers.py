"""The one bounded pool of worker threads that sync tool bodies run in, off the caller's thread.

Why not :class:`concurrent.futures.ThreadPoolExecutor`: a sync body that
times out cannot be stopped, and the executor's threads are joined when the
interpreter exits, so one hung tool would keep the program from exiting; and
its queue is unbounded, so a call behind hung tools would wait forever. Here
the threads are daemon threads, at most ``max_workers`` of them, and a job
is only accepted when a thread is free for it at once: when every thread is
held by a call that has not finished, :meth:`WorkerPool.try_submit` says so
and the caller answers the model with a clear error instead of waiting.

A thread that finished its job waits for the next one; after 60 idle seconds
it ends. A thread held by a hung body stays until the body returns (or the
process exits): that is the cost of a body that cannot be stopped, and the
bound keeps it from growing.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

__all__ = ["DEFAULT_MAX_WORKERS", "WorkerPool", "set_max_workers", "worker_pool"]

#: The default bound: ``TOOLPARSE_MAX_WORKERS`` from the environment, else 32.
DEFAULT_MAX_WORKERS = 32
_IDLE_SECONDS = 60.0

_Job = tuple["Future[Any]", Callable[..., Any], tuple[Any, ...]]


class WorkerPool:
    """At most ``max_workers`` daemon threads; a job runs at once or is refused.

    :param max_workers: the most threads (and so the most jobs running at once).
    """

    def __init__(self, max_workers: int = DEFAULT_MAX_WORKERS) -> None:
        _check(max_workers)
        self.max_workers = max_workers
        self._lock = threading.Lock()
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._threads = 0
        self._busy = 0
        self._started = 0

    @property
    def busy(self) -> int:
        """How many jobs are running now (hung ones included)."""
        return self._busy

    @property
    def threads(self) -> int:
        """How many worker threads exist now."""
        return self._threads

    def try_submit(self, fn: Callable[..., Any], /, *args: Any) -> Future[Any] | None:
        """Start ``fn(*args)`` in a worker thread, or return ``None`` when all are busy.

        The future holds what ``fn`` returned (or raised).
        """
        future: Future[Any] = Future()
        with self._lock:
            if self._busy >= self.max_workers:
                return None
            idle = self._threads - self._busy
            self._busy += 1
            self._jobs.put((future, fn, args))
            if idle <= 0:
                self._threads += 1
                self._started += 1
                number = self._started
            else:
                number = 0
        if number:
            thread = threading.Thread(
                target=self._work, name=f"toolparse-worker-{number}", daemon=True
            )
            try:
                thread.start()
            except RuntimeError:  # the system refused a new thread: refuse the job
                future.cancel()  # a thread that picks it up later skips it
                with self._lock:
                    self._threads -= 1
                    self._busy -= 1
                return None
        return future

    def _work(self) -> None:
        while True:
            try:
                future, fn, args = self._jobs.get(timeout=_IDLE_SECONDS)
            except queue.Empty:
                with self._lock:
                    # leave only when no job is waiting for this thread
                    if self._jobs.empty():
                        self._threads -= 1
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
                    self._busy -= 1
                if error is None:
                    future.set_result(result)
                else:
                    future.set_exception(error)
            del future, fn, args


def _check(max_workers: object) -> None:
    if type(max_workers) is not int or max_workers < 1:
        raise ValueError(f"max_workers must be a whole number of at least 1, got {max_workers!r}")


_pool: WorkerPool | None = None
_pool_lock = threading.Lock()


def worker_pool() -> WorkerPool:
    """The process-wide pool (built on first use)."""
    global _pool
    if _pool is None:
        with _pool_lock:
            if _pool is None:
                env = os.environ.get("TOOLPARSE_MAX_WORKERS", "").strip()
                _pool = WorkerPool(
                    int(env) if env.isdigit() and int(env) > 0 else DEFAULT_MAX_WORKERS
                )
    return _pool


def set_max_workers(max_workers: int) -> None:
    """Set the bound of the process-wide pool (threads already running are kept)."""
    _check(max_workers)
    pool = worker_pool()
    with pool._lock:
        pool.max_workers = max_workers
