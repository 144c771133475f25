"""The worker pool sync bodies run in: daemon threads, reused, ended when idle, never over the bound."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

import toolparse as tp
from toolparse import messages
from toolparse.calls import worker_pool

#: the longest a test waits for a thread to do what it should (spent only on failure)
WAIT = 10.0


def _until(condition: Callable[[], bool], seconds: float = WAIT) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def _threads_of_a_group() -> list[threading.Thread]:
    """The worker threads two concurrent calls ran in (each waits for the other)."""
    meet = threading.Barrier(2, timeout=WAIT)
    seen: list[threading.Thread] = []

    def body(a: Any) -> str:
        seen.append(threading.current_thread())
        meet.wait()
        return "x"

    fn = tp.Function("t", body, concurrent=True)
    results = tp.execute_tool_calls([fn], [tp.ToolCall("1", "t"), tp.ToolCall("2", "t")])
    assert [r.content for r in results] == ["x", "x"]
    return seen


def test_workers_are_daemon_threads_that_take_the_next_job() -> None:
    pool = worker_pool()
    first = _threads_of_a_group()
    # daemon: a hung body never keeps the program from exiting
    assert all(t.daemon and t.name.startswith("toolparse-worker-") for t in first)
    assert threading.current_thread() not in first
    assert _until(lambda: pool.busy == 0)
    threads = pool.threads
    again = _threads_of_a_group()
    assert pool.threads == threads  # idle threads took the calls: no new one
    assert threads <= pool.max_workers
    assert all(t.is_alive() for t in again)


def test_what_a_body_raises_past_execute_frees_its_thread() -> None:
    class Stop(BaseException):  # not an Exception: execute lets it through
        pass

    def body(a: Any) -> str:
        raise Stop

    fn = tp.Function("t", body, concurrent=True)
    with pytest.raises(Stop):
        tp.execute_tool_calls([fn], [tp.ToolCall("1", "t"), tp.ToolCall("2", "t")])
    assert _until(lambda: worker_pool().busy == 0)
    assert len(_threads_of_a_group()) == 2


def test_an_idle_thread_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worker_pool(), "idle_seconds", 0.05)
    threads = _threads_of_a_group()
    for thread in threads:  # after its idle time, not kept forever
        thread.join(WAIT)
        assert not thread.is_alive()
    monkeypatch.undo()
    assert len(_threads_of_a_group()) == 2  # and new calls start new threads


def test_a_thread_the_system_refuses_refuses_the_call() -> None:
    # in a fresh process, so that no idle thread of another test can take the calls
    probe = (
        "import threading, toolparse as tp\n"
        "from toolparse.calls import worker_pool\n"
        "def refuse(self):\n"
        '    raise RuntimeError("can\'t start new thread")\n'
        "threading.Thread.start = refuse\n"
        "fn = tp.Function('t', lambda a: 'x', concurrent=True)\n"
        "for r in tp.execute_tool_calls([fn], [tp.ToolCall('1', 't'), tp.ToolCall('2', 't')]):\n"
        "    print(r.text)\n"
        "print(worker_pool().busy, worker_pool().threads)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    # an answer, not an exception; nothing held by the refused calls
    assert out == [messages.no_worker("t", worker_pool().max_workers)] * 2 + ["0 0"]


def test_the_bounds_are_checked_and_a_queue_of_none_is_kept() -> None:
    pool = worker_pool()
    workers, queue = pool.max_workers, pool.max_queue
    try:
        for bad in ({"queue": -1}, {"queue": 1.5}, {"queue": True}):
            with pytest.raises(ValueError, match="max_queue must be a whole number of at least 0"):
                tp.calls.set_max_workers(4, **bad)  # type: ignore[arg-type]
        assert (pool.max_workers, pool.max_queue) == (workers, queue)  # nothing half set
        tp.calls.set_max_workers(5, queue=7)
        tp.calls.set_max_workers(6)
        assert (pool.max_workers, pool.max_queue) == (6, 7)
    finally:
        tp.calls.set_max_workers(workers, queue=queue)


def test_a_higher_bound_starts_the_waiting_calls_at_once(release: threading.Event) -> None:
    pool = worker_pool()
    workers = pool.max_workers
    assert _until(lambda: pool.busy == 0)
    tp.calls.set_max_workers(1)
    try:
        hung = tp.Function("hang", lambda a: release.wait(WAIT) and "late")
        tp.execute_tool_calls([hung], [tp.ToolCall("h", "hang")], timeout=0.01)  # holds the thread
        started = threading.Event()
        quick = tp.Function("quick", lambda a: started.set() or "quick", concurrent=True)
        box: list[list[tp.ToolResult]] = []
        waiter = threading.Thread(
            target=lambda: box.append(
                tp.execute_tool_calls([quick], [tp.ToolCall("q", "quick")] * 2)
            )
        )
        waiter.start()
        assert _until(lambda: pool.waiting == 2)
        assert not started.is_set()  # waiting its turn behind the hung call
        tp.calls.set_max_workers(3)  # room for both: they start without the hung call ending
        waiter.join(WAIT)
        assert [r.content for r in box[0]] == ["quick", "quick"]
        assert not release.is_set()
    finally:
        release.set()
        tp.calls.set_max_workers(workers)
