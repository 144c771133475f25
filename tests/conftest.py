from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import settings

import toolparse as tp
from toolparse import problems
from toolparse.messages import _arguments

# CI explores a fixed set of examples, so a run is reproducible; locally every
# run explores new ones. Either way a failure prints the blob to replay it.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def pm() -> tp.PluginManager:
    """A fresh plugin manager with the core's defaults and no entry points."""
    return tp.make_plugin_manager(load_entry_points=False)


@pytest.fixture
def full_pm() -> tp.PluginManager:
    """A fresh plugin manager with every installed plugin loaded."""
    return tp.make_plugin_manager(load_entry_points=True)


@pytest.fixture
def release() -> Iterator[threading.Event]:
    """An event hung bodies wait on; set at the end so their threads go back to the pool."""
    from toolparse.calls import worker_pool

    event = threading.Event()
    yield event
    event.set()
    deadline = time.monotonic() + 5
    while worker_pool().busy and time.monotonic() < deadline:
        time.sleep(0.01)


def race(work: Callable[[int], None], threads: int = 8) -> None:
    """Run ``work(i)`` in ``threads`` threads at once, switching as often as the interpreter allows.

    So a race between them is met, not merely possible. A failure in a thread
    (an assertion, any exception) is raised again here, in the test's own thread.
    """
    failures: list[BaseException] = []

    def run(i: int) -> None:
        try:
            work(i)
        except BaseException as exc:  # reported below, in the test's own thread
            failures.append(exc)

    started = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for thread in started:
            thread.start()
        for thread in started:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []


class Count:
    """How many times a counting fixture saw its call (``problems_built``, ``comparisons``)."""

    count = 0


@pytest.fixture
def problems_built(monkeypatch: pytest.MonkeyPatch) -> Count:
    """Count every ArgumentProblem built during the test: bounded work is asserted on it."""
    built = Count()
    init = problems.ArgumentProblem.__init__

    def counted(self: problems.ArgumentProblem, *args: Any, **kwargs: Any) -> None:
        built.count += 1
        init(self, *args, **kwargs)

    monkeypatch.setattr(problems.ArgumentProblem, "__init__", counted)
    return built


@pytest.fixture
def comparisons(monkeypatch: pytest.MonkeyPatch) -> Count:
    """Count every name comparison the "did you mean" search makes during the test."""
    compared = Count()
    similarity = _arguments.similarity

    def counted(name: str, candidate: str) -> float:
        compared.count += 1
        return similarity(name, candidate)

    # patched where the search looks it up: toolparse.messages re-exports it,
    # and a patch of that name would count nothing
    monkeypatch.setattr(_arguments, "similarity", counted)
    return compared
