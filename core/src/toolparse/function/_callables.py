"""Calling user code: how many arguments it takes, whether it is async, and running it."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

__all__: list[str] = []


def _arity(fn: Callable[..., Any], field: str, errors: list[tuple[str, str]]) -> int:
    """How many positional arguments to pass ``fn``: 1 or 2 (0 on error)."""
    if not callable(fn):
        errors.append((field, f"must be callable, got {fn!r:.60}"))
        return 0
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return 1  # builtins without a signature: call with the arguments only
    positional = 0
    required = 0
    varargs = False
    for p in sig.parameters.values():
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            positional += 1
            required += p.default is p.empty
        elif p.kind is p.VAR_POSITIONAL:
            varargs = True
        elif p.kind is p.KEYWORD_ONLY and p.default is p.empty:
            errors.append((field, f"keyword-only parameter {p.name!r} has no default"))
            return 0
    if required > 2 or (positional == 0 and not varargs):
        errors.append(
            (
                field,
                f"expected 1 (arguments) or 2 (arguments, context) parameters, has {required if required > 2 else positional}",
            )
        )
        return 0
    return 2 if positional >= 2 or varargs else 1


def _is_async(fn: object) -> bool:
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)  # noqa: B004 - callable objects with async __call__
    )


def _accepts_keyword(method: Callable[..., Any], keyword: str) -> bool:
    try:
        return keyword in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False


def _run_sync(awaitable: Awaitable[Any]) -> Any:
    """Run a coroutine to completion from sync code, even inside a running loop."""
    import asyncio  # only code with async tools pays for importing asyncio

    async def _main() -> Any:
        return await awaitable

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_main())
    # a loop is running in this thread: run ours in a worker thread instead
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, _main()).result()
