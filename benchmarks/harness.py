"""Shared timing helpers for the benchmark scripts.

Each ``bench_*.py`` module defines ``run() -> list[Row]``; ``run.py`` runs them
all and prints one table. Times are the best of several repeats (the least
disturbed run), per call, in microseconds.
"""

from __future__ import annotations

import gc
import statistics
import time
import timeit
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Row:
    """One benchmark: toolparse against the baseline it wraps."""

    name: str
    toolparse_us: float
    baseline_us: float
    baseline: str
    target: float | None = None  # the highest acceptable ratio, if any
    #: the lowest and highest per-round ratio, when measured in rounds
    spread: tuple[float, float] | None = None
    #: the median of the per-round ratios (else the ratio of the two times)
    median_ratio: float | None = None
    #: a point of a scaling curve: (panel, curve, x), drawn by ``plot.py``
    curve: tuple[str, str, float] | None = None
    #: in the table too (a curve's in-between sizes are drawn only)
    listed: bool = True

    @property
    def ratio(self) -> float:
        if self.median_ratio is not None:
            return self.median_ratio
        return self.toolparse_us / self.baseline_us

    @property
    def verdict(self) -> str:
        if self.target is None:
            return ""
        return "ok" if self.ratio <= self.target else "OVER"


def per_call_us(fn: Callable[[], object], repeat: int = 7) -> float:
    """Best-of-``repeat`` time of one call of ``fn``, in microseconds."""
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    number = max(number, 1000)
    return min(timer.repeat(repeat=repeat, number=number)) / number * 1e6


def interleaved(
    a: Callable[[], object], b: Callable[[], object], rounds: int = 3
) -> tuple[float, float]:
    """Time ``a`` and ``b`` alternately (so drift hits both) and keep the best."""
    best_a = best_b = float("inf")
    for _ in range(rounds):
        best_a = min(best_a, per_call_us(a, repeat=3))
        best_b = min(best_b, per_call_us(b, repeat=3))
    return best_a, best_b


@dataclass
class Ratio:
    """Side-by-side timing of two callables: medians, the median ratio and its spread."""

    a_us: float
    b_us: float
    ratio: float
    spread: tuple[float, float]

    def row(
        self,
        name: str,
        baseline: str,
        target: float | None = None,
        curve: tuple[str, str, float] | None = None,
    ) -> Row:
        """The table row for this measurement (``curve``: its point on a scaling plot)."""
        return Row(name, self.a_us, self.b_us, baseline, target, self.spread, self.ratio, curve)


def _number(
    fn: Callable[[], object], budget: float, clock: Callable[[], float] = time.thread_time
) -> int:
    """How many calls of ``fn`` take about ``budget`` seconds of CPU."""
    number = 1
    while True:
        start = clock()
        for _ in range(number):
            fn()
        spent = clock() - start
        if spent >= budget / 4 or number >= 1 << 24:
            return max(1, int(number * budget / max(spent, 1e-9)))
        number *= 4


def _cpu(
    fn: Callable[[], object], number: int, clock: Callable[[], float] = time.thread_time
) -> float:
    start = clock()
    for _ in range(number):
        fn()
    return (clock() - start) / number * 1e6


def _collected(
    fn: Callable[[], object], number: int, collect: bool, clock: Callable[[], float]
) -> float:
    """One timed round of ``fn``, the garbage before it collected outside the timing."""
    if collect:
        gc.collect()
    return _cpu(fn, number, clock)


def ratio_rounds(
    a: Callable[[], object],
    b: Callable[[], object],
    rounds: int = 7,
    budget: float = 0.02,
    *,
    collect: bool = True,
    clock: Callable[[], float] = time.thread_time,
) -> Ratio:
    """Time ``a`` against ``b`` in alternating rounds, in CPU time of this thread.

    Each round times ``a`` then ``b`` (the order swapped every round, so drift
    hits both) over about ``budget`` seconds each; the figure is the median of
    the per-round ratios, with their lowest and highest as the spread. CPU time
    rather than wall time: other processes on a loaded machine then cost only
    through caches, not through waiting.

    The collector is off inside a round (its pauses would land in whichever
    round they happen to fall) and runs before each round, outside the
    timing: a call that leaves garbage in reference cycles (an exception kept
    in a list of the frame its traceback holds: cattrs, marshmallow,
    pydantic.v1 on a rejected call; any definition) would otherwise pile it up
    over every round, and each side would allocate in a heap grown by both.
    ``collect=False`` keeps the garbage, to measure what that changes.

    ``clock=time.process_time`` counts every thread of the process: for paths
    that run a body in a worker thread (an async framework's sync tool), whose
    work this thread's clock would leave out.
    """
    a()
    b()
    na, nb = _number(a, budget, clock), _number(b, budget, clock)
    ta: list[float] = []
    tb: list[float] = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        for i in range(rounds):
            if i % 2:
                tb.append(_collected(b, nb, collect, clock))
                ta.append(_collected(a, na, collect, clock))
            else:
                ta.append(_collected(a, na, collect, clock))
                tb.append(_collected(b, nb, collect, clock))
    finally:
        if enabled:
            gc.enable()
    ratios = [x / y for x, y in zip(ta, tb, strict=True)]
    return Ratio(
        statistics.median(ta),
        statistics.median(tb),
        statistics.median(ratios),
        (min(ratios), max(ratios)),
    )


def ratio_of_samples(
    a: list[float], b: list[float]
) -> tuple[float, float, float, tuple[float, float]]:
    """Medians, median ratio and spread of paired samples (e.g. fresh processes)."""
    ratios = [x / y for x, y in zip(a, b, strict=True)]
    return (
        statistics.median(a),
        statistics.median(b),
        statistics.median(ratios),
        (min(ratios), max(ratios)),
    )


def table(rows: list[Row]) -> str:
    """A Markdown table of the rows."""
    lines = [
        "| benchmark | toolparse (us) | baseline | baseline (us) | ratio | spread | target |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    for r in (r for r in rows if r.listed):
        target = f"<= {r.target:g}x {r.verdict}" if r.target is not None else ""
        spread = f"{r.spread[0]:.2f}-{r.spread[1]:.2f}" if r.spread else ""
        lines.append(
            f"| {r.name} | {r.toolparse_us:.2f} | {r.baseline} | {r.baseline_us:.2f}"
            f" | {r.ratio:.2f}x | {spread} | {target} |"
        )
    return "\n".join(lines)
