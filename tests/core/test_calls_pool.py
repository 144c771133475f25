"""The worker pool sync bodies run in: daemon threads, reused, ended when idle, never over the bound."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from toolparse import _workers
from toolparse._workers import WorkerPool

#: the longest a test waits for a thread to do what it should (spent only on failure)
WAIT = 10.0


def _until(condition: Callable[[], bool], seconds: float = WAIT) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def test_workers_are_daemon_threads_that_take_the_next_job() -> None:
    pool = WorkerPool(4)
    first = pool.try_submit(threading.current_thread)
    assert first is not None
    thread = first.result(WAIT)
    # daemon: a hung body never keeps the program from exiting
    assert thread.daemon
    assert thread.name.startswith("toolparse-worker-")
    assert _until(lambda: pool.busy == 0)
    again = pool.try_submit(threading.current_thread)
    assert again is not None
    assert again.result(WAIT) is thread  # the idle thread took it: no new one
    assert pool.threads == 1


def test_what_a_job_raises_goes_to_its_future_and_frees_the_thread() -> None:
    pool = WorkerPool(1)

    def boom() -> None:
        raise KeyError("k")

    future = pool.try_submit(boom)
    assert future is not None
    with pytest.raises(KeyError):
        future.result(WAIT)
    assert _until(lambda: pool.busy == 0)
    after = pool.try_submit(lambda: "next")
    assert after is not None
    assert after.result(WAIT) == "next"


def test_an_idle_thread_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_workers, "_IDLE_SECONDS", 0.05)
    pool = WorkerPool(2)
    future = pool.try_submit(lambda: "done")
    assert future is not None
    assert future.result(WAIT) == "done"
    assert _until(lambda: pool.threads == 0)  # after its idle time, not kept forever
    later = pool.try_submit(lambda: "again")  # and a new job starts a new thread
    assert later is not None
    assert later.result(WAIT) == "again"


def test_a_thread_the_system_refuses_refuses_the_job(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    pool = WorkerPool(2)
    monkeypatch.setattr(threading.Thread, "start", refuse)
    assert pool.try_submit(lambda: 1) is None  # an answer, not an exception
    assert (pool.busy, pool.threads) == (0, 0)  # nothing held by the refused job
    monkeypatch.undo()
    future = pool.try_submit(lambda: 2)
    assert future is not None
    assert future.result(WAIT) == 2
