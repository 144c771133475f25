"""Flat memory: tens of thousands of mixed calls leave nothing behind."""

from __future__ import annotations

import gc
import sys
import tracemalloc
from typing import Any

from pydantic import BaseModel

import toolparse as tp


class Invoice(BaseModel):
    vendor: str
    total: float


def _pay(arguments: Any) -> str:
    if arguments["amount"] == 13:
        raise ValueError("unlucky amount")
    return "paid"


def _invoice(invoice: Invoice) -> str:
    if invoice.total < 0:
        raise ValueError("negative total")
    return invoice.vendor


PAY = tp.Function(
    "pay",
    _pay,
    parameters=[tp.FunctionParam("amount", "integer", required=True)],
)
INVOICE = tp.Function("invoice", _invoice, args_schema=Invoice)
TOOLS = tp.Toolset([PAY, INVOICE])


def _calls(start: int, n: int) -> list[tp.ToolCall]:
    """``n`` calls: valid, rejected, raising, unknown keys never seen before, broken JSON."""
    shapes: list[tuple[str, Any]] = []
    for i in range(start, start + n):
        kind = i % 16
        if kind == 1:
            shapes.append(("pay", {"amount": "many", f"note_{i}": i}))  # rejected, new key
        elif kind == 2:
            shapes.append(("pay", {"amount": 13}))  # the body raises
        elif kind == 3:
            shapes.append(("pay", f'{{"amount": {i}, "q{i}zz": 1}}'))  # accepted, new key
        elif kind == 5:
            shapes.append(("invoice", {"vendor": i, "total": "x", f"k{i}": None}))  # rejected
        elif kind == 6:
            shapes.append(("invoice", '{"vendor": "v", "total": -1}'))  # the body raises
        elif kind == 7:
            shapes.append(("invoice", '{"vendor": "v", "total": '))  # not JSON
        elif kind % 2:
            shapes.append(("invoice", {"vendor": f"v{i}", "total": 1.5}))
        else:
            shapes.append(("pay", {"amount": i}))
    return [tp.ToolCall(f"id-{start + j}", name, args) for j, (name, args) in enumerate(shapes)]


def _run(start: int, n: int, batch: int = 400) -> None:
    for at in range(start, start + n, batch):
        results = TOOLS.execute(_calls(at, batch))
        assert sum(r.is_error for r in results) == batch * 5 // 16


def test_forty_thousand_mixed_calls_keep_memory_flat() -> None:
    _run(0, 4_000)  # warm up: compiled plans, caches filled to their bounds
    gc.collect()
    # every Python object still alive: cheap enough to watch all 40,000 calls
    blocks = sys.getallocatedblocks()
    _run(4_000, 40_000)
    gc.collect()
    kept = sys.getallocatedblocks() - blocks
    assert kept < 5_000, f"{kept} memory blocks kept after 40,000 calls"
    # and in bytes, over a window traced allocation by allocation
    tracemalloc.start()
    try:
        _run(44_000, 800)
        gc.collect()
        before, _ = tracemalloc.get_traced_memory()
        _run(44_800, 4_000)
        gc.collect()
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert after - before < 256 * 1024, f"{(after - before) / 1024:.0f} KiB kept after 4,000 calls"
