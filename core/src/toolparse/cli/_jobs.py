"""``toolparse check --jobs N``: the same check over N worker processes, in the same order.

Each worker loads the target once and runs :func:`toolparse.check_calls` over
batches of lines, sending back each batch's summary and ``--json`` text. At most a few batches per worker are in flight, so memory
stays flat however long the file is, and results come back in file order, so
the output is the same as with one process.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..function import Function
from ._batch import check_batch
from ._errors import FAILED, CommandError
from ._summary import Summary

__all__ = ["checked_in_processes"]

#: the tools of this worker process (loaded once, by the pool's initializer)
_tools: list[Function] = []


def _start(target: str) -> None:
    from ._targets import load_tools

    _tools[:] = load_tools(target, tolerant=True).tools


def _check(
    names: list[str], first: int, lines: list[bytes], fmt: str, label: str, as_json: bool
) -> tuple[Summary, str]:
    return check_batch(_tools, names, first, lines, fmt, label, as_json)


def checked_in_processes(
    target: str,
    names: list[str],
    chunks: Iterator[tuple[int, list[bytes]]],
    jobs: int,
    fmt: str,
    label: str,
    as_json: bool,
) -> Iterator[tuple[Summary, str]]:
    """Each batch of ``chunks`` checked by one of ``jobs`` processes: its summary and text, in order."""
    try:
        with ProcessPoolExecutor(jobs, initializer=_start, initargs=(target,)) as pool:
            pending: deque[Future[tuple[Summary, str]]] = deque()
            for first, lines in chunks:
                pending.append(pool.submit(_check, names, first, lines, fmt, label, as_json))
                if len(pending) >= 2 * jobs:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
    except BrokenProcessPool:
        raise CommandError(
            "a --jobs worker process stopped before it finished; run without --jobs to see why",
            FAILED,
        ) from None
