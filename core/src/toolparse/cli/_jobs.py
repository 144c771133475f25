"""``toolparse check --jobs N``: the same check over N worker processes, in the same order.

Each worker loads the target once and runs :func:`toolparse.check_calls` over
batches of lines. At most a few batches per worker are in flight, so memory
stays flat however long the file is, and results come back in file order, so
the output is the same as with one process.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..checking import CallCheck, check_calls
from ..function import Function
from ._errors import FAILED, CommandError

__all__ = ["checked_in_processes"]

#: the tools of this worker process (loaded once, by the pool's initializer)
_tools: list[Function] = []


def _start(target: str) -> None:
    from ._targets import load_tools

    _tools[:] = load_tools(target, tolerant=True).tools


def _check(first: int, lines: list[bytes], fmt: str) -> tuple[list[CallCheck], int]:
    return list(check_calls(_tools, lines, format=fmt, start=first)), len(lines)


def checked_in_processes(
    target: str, fmt: str, chunks: Iterator[tuple[int, list[bytes]]], jobs: int
) -> Iterator[tuple[list[CallCheck], int]]:
    """``(results, line count)`` per batch of ``chunks``, in order, checked by ``jobs`` processes."""
    try:
        with ProcessPoolExecutor(jobs, initializer=_start, initargs=(target,)) as pool:
            pending: deque[Future[tuple[list[CallCheck], int]]] = deque()
            for first, lines in chunks:
                pending.append(pool.submit(_check, first, lines, fmt))
                if len(pending) >= 2 * jobs:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
    except BrokenProcessPool:
        raise CommandError(
            "a --jobs worker process stopped before it finished; run without --jobs to see why",
            FAILED,
        ) from None
