"""Calling user code: how many arguments it takes, whether it is async, and running it."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from types import CoroutineType, GeneratorType
from typing import Any

__all__ = [
    "BOUND_ATTRIBUTE",
    "accepts_keyword",
    "arity",
    "bound_names",
    "is_async",
    "isawaitable",
    "run_sync",
]

# flags of a code object, as ``inspect`` names them (CPython's values): the
# awaitable test runs on every body result, without importing ``inspect``
_CO_ITERABLE_COROUTINE = 0x100


def arity(fn: Callable[..., Any], field: str, errors: list[tuple[str, str]]) -> int:
    """How many positional arguments to pass ``fn``: 1 or 2 (0 on error)."""
    if not callable(fn):
        errors.append((field, f"must be callable, got {fn!r:.60}"))
        return 0
    import inspect  # at definition only: ``import toolparse`` does not load it

    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        # without a signature neither the arity nor any bound argument can be
        # known, and guessing could hand the model an argument it must not set
        errors.append(
            (field, f"has no signature Python can read ({exc}); wrap it in a def or a lambda")
        )
        return 0
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
        has = required if required > 2 else positional
        text = f"expected 1 (arguments) or 2 (arguments, context) parameters, has {has}"
        errors.append((field, text))
        return 0
    return 2 if positional >= 2 or varargs else 1


#: the attribute a body sets to name arguments its application bound
#: (``@tool`` sets it on the keyword-calling body of a ``functools.partial``)
BOUND_ATTRIBUTE = "_toolparse_bound"


def bound_names(fn: object) -> frozenset[str]:
    """The names of ``fn``'s parameters the application already bound.

    A ``functools.partial`` binds its keywords and, positionally, the first
    parameters of the function it wraps; these are the application's
    (a secret, a client), never the model's to see or set.
    """
    declared = getattr(fn, BOUND_ATTRIBUTE, None)
    if isinstance(declared, frozenset):
        return declared
    names: set[str] = set()
    target = fn
    while isinstance(target, functools.partial):
        names.update(target.keywords)
        if target.args:
            import inspect  # at definition only

            try:
                params = list(inspect.signature(target.func).parameters.values())
            except (TypeError, ValueError):
                params = []
            positional = [
                p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
            ]
            names.update(positional[: len(target.args)])
        target = target.func
    return frozenset(names)


def is_async(fn: object) -> bool:
    """Whether calling ``fn`` gives a coroutine (an ``async def``, or an object with one as ``__call__``)."""
    import inspect  # at definition only

    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)  # noqa: B004 - callable objects with async __call__
    )


def accepts_keyword(method: Callable[..., Any], keyword: str) -> bool:
    """Whether ``method`` takes ``keyword`` (an adapter's optional keyword argument)."""
    import inspect  # at definition only

    try:
        return keyword in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False


def isawaitable(value: object) -> bool:
    """Whether ``value`` can be awaited: :func:`inspect.isawaitable`, without importing inspect."""
    return (
        isinstance(value, CoroutineType)
        or (
            isinstance(value, GeneratorType)
            and bool(value.gi_code.co_flags & _CO_ITERABLE_COROUTINE)
        )
        or isinstance(value, Awaitable)
    )


def run_sync(awaitable: Awaitable[Any]) -> Any:
    """Run a coroutine to completion from sync code, even inside a running loop."""
    import asyncio  # only code with async tools pays for importing asyncio

    async def _main() -> Any:
        return await awaitable

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _run(_main())
    # a loop is running in this thread: run ours in a worker thread instead
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(_run, _main()).result()


#: how long tasks left over at the end of a run get to end once cancelled
_GRACE = 0.1


def _run(main: Any) -> Any:
    """:func:`asyncio.run`, except that a task left over is cancelled once, not waited for.

    ``asyncio.run`` cancels the tasks still pending when ``main`` ends and then
    waits for every one of them: a tool body that catches its CancelledError and
    carries on (one cancelled past its timeout) would keep the caller waiting
    forever. Here such a task gets a short grace and is then abandoned with its loop.
    """
    import asyncio

    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(main)
    finally:
        try:
            pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.wait(pending, timeout=_GRACE))
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            loop.close()
