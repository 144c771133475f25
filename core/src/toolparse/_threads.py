"""The worker threads a batch runs sync bodies in, reached without loading them on import.

The pool itself is :mod:`toolparse._workers`; its module loads ``threading``
and ``concurrent.futures``. A program whose tools all run inline never needs
them, so neither ``import toolparse`` nor the first batch loads them: only the
first body that runs in a thread (a concurrent group, a timeout, a sync body
awaited from async code).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .function._callables import _run_sync

if TYPE_CHECKING:
    from ._workers import WorkerPool
    from .contract import Outcome
    from .function import Function

__all__ = ["body", "worker_pool"]

_pool: Callable[[], WorkerPool] | None = None


def worker_pool() -> WorkerPool:
    """The process-wide pool of worker threads (see :mod:`toolparse._workers`)."""
    global _pool
    if _pool is None:
        # lazy: the first call that runs a body in a thread (see above)
        from ._workers import worker_pool as found

        _pool = found
    return _pool()


def body(fn: Function, value: Any, context: Any) -> Outcome:
    """Run a sync tool's body on arguments already parsed (in a worker thread).

    The arguments were parsed on the loop, so a rejected call never takes a
    thread; a sync callable that returned an awaitable has it run to the end
    here, in the worker, not on the caller's loop.
    """
    outcome = fn._call(value, context)
    if not isinstance(outcome, tuple):  # a sync callable that returned an awaitable
        outcome = _run_sync(outcome)  # an async body's coroutine of its outcome
    return outcome  # type: ignore[no-any-return]
