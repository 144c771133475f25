"""Shared timing helpers for the benchmark scripts.

Each ``bench_*.py`` module defines ``run() -> list[Row]``; ``run.py`` runs them
all and prints one table. Times are the best of several repeats (the least
disturbed run), per call, in microseconds.
"""

from __future__ import annotations

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

    @property
    def ratio(self) -> float:
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


def table(rows: list[Row]) -> str:
    """A Markdown table of the rows."""
    lines = [
        "| benchmark | toolparse (us) | baseline | baseline (us) | ratio | target |",
        "|---|---:|---|---:|---:|---:|",
    ]
    for r in rows:
        target = f"<= {r.target:g}x {r.verdict}" if r.target is not None else ""
        lines.append(
            f"| {r.name} | {r.toolparse_us:.2f} | {r.baseline} | {r.baseline_us:.2f} | {r.ratio:.2f}x | {target} |"
        )
    return "\n".join(lines)
