"""The seam tracing plugs into: one span around each tool call, while a tracer is installed.

:mod:`toolparse.otel` sets ``tracer`` (``start(name, call_id, arguments, context)`` gives a
span, current while entered, with ``finish(outcome, error_type)``); unset, it costs one check
per entry point. A call's span is the Function's own, unless a batch opened it around a run
it answers for (a timeout, a worker thread) and claimed the steps for it.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from contextvars import ContextVar
from time import perf_counter
from typing import TYPE_CHECKING, Any

from ..contract import Error, Ok, Outcome
from ..problems import InvalidArguments
from ._callables import run_sync
from ._plan import OUTCOMES

if TYPE_CHECKING:
    from collections.abc import Awaitable, Iterator

    from ..results import ToolCall
    from ._function import Function

__all__ = ["aexecute", "around", "deadline", "execute", "parsed", "qualified", "unknown"]

#: the installed tracer (``toolparse.otel``), or ``None``: what each entry point checks
tracer: Any = None


class _Call:
    """One call's span and what its steps told it."""

    __slots__ = ("began", "rejected", "span", "timeout")

    def __init__(self, span: Any, timeout: float | None) -> None:
        self.span, self.timeout = span, timeout
        self.began = perf_counter()
        self.rejected = False

    def finish(self, outcome: Outcome) -> None:
        # a call answered past the batch's timeout is a timeout, whatever its body did later
        late = self.timeout is not None and perf_counter() - self.began >= self.timeout
        self.span.finish(outcome, "timeout" if late else error_type(outcome, self.rejected))


#: the Function whose steps a batch claimed for the span it opened, in this context
_claim: ContextVar[tuple[Function, _Call] | None] = ContextVar("toolparse_claim", default=None)
#: the batch's timeout, for the spans of sync bodies it runs in worker threads
_deadline: ContextVar[float | None] = ContextVar("toolparse_deadline", default=None)


def error_type(outcome: Outcome, rejected: bool) -> str | None:
    """A failed outcome's ``error.type`` (``None``: it did not fail).

    ``invalid_arguments`` (rejected before the body ran), the type a parser or
    the body raised, or ``tool_error`` (an ``Error`` the body returned).
    """
    if type(outcome) is not Error:
        return None
    exc = outcome.exception
    if rejected and (exc is None or isinstance(exc, (InvalidArguments, json.JSONDecodeError))):
        return "invalid_arguments"
    return "tool_error" if exc is None else qualified(type(exc))


def qualified(kind: type) -> str:
    """``module.QualName`` of an exception type (without ``builtins.``)."""
    name = kind.__qualname__
    return name if kind.__module__ == "builtins" else f"{kind.__module__}.{name}"


def _own(function: Function, arguments: object, context: Any) -> tuple[_Call, bool]:
    """The call's span, and whether it is its own to end (a claim is taken once: not a nested call's)."""
    claim = _claim.get()
    if claim is not None and claim[0] is function:
        _claim.set(None)
        return claim[1], False
    call_id = context.get("tool_call_id") if isinstance(context, dict) else None
    span = tracer.start(function.name, call_id, arguments, context)
    return _Call(span, _deadline.get()), True


def execute(function: Function, arguments: object, context: Any) -> Outcome:
    """``Function.execute`` while traced: the call's steps, in its span."""
    call, own = _own(function, arguments, context)
    if not own:
        return _steps(function, arguments, context, call)
    with call.span, deadline(None):  # (the tools the body runs have no batch timeout)
        outcome = _steps(function, arguments, context, call)
        call.finish(outcome)
    return outcome


async def aexecute(function: Function, arguments: object, context: Any) -> Outcome:
    """``Function.aexecute`` while traced: the call's steps, in its span."""
    call, own = _own(function, arguments, context)
    if not own:
        return await _asteps(function, arguments, context, call)
    with call.span, deadline(None):  # (the tools the body runs have no batch timeout)
        outcome = await _asteps(function, arguments, context, call)
        call.finish(outcome)
    return outcome


def _steps(function: Function, arguments: object, context: Any, call: _Call) -> Outcome:
    # what ``execute`` runs, in two steps, so that the span knows which one answered
    if function._async:  # an async parser and body on one loop, as ``execute`` runs them
        return run_sync(_asteps(function, arguments, context, call))  # type: ignore[no-any-return]
    parsed_ = function.parse_arguments(arguments, context)
    if type(parsed_) is not Ok:
        call.rejected = True
        return parsed_
    out = function._call(parsed_[0], context)
    return out if type(out) in OUTCOMES else run_sync(out)  # type: ignore[no-any-return]


async def _asteps(function: Function, arguments: object, context: Any, call: _Call) -> Outcome:
    parsed_ = await function.aparse_arguments(arguments, context)
    if type(parsed_) is not Ok:
        call.rejected = True
        return parsed_
    out = function._call(parsed_[0], context)
    return out if type(out) in OUTCOMES else await out  # type: ignore[no-any-return]


def parsed(function: Function, result: object) -> None:
    """``parse_arguments`` while traced: a rejection is told to the span that claimed the call."""
    claim = _claim.get()
    if claim is not None and claim[0] is function and type(result) is not Ok:
        claim[1].rejected = True


async def around(
    run: Awaitable[Outcome], function: Function, call: ToolCall, context: Any, timeout: float | None
) -> Outcome:
    """Await a batch's ``run`` of ``call`` in the call's span, the Function's steps claimed for it."""
    traced = _Call(tracer.start(function.name, call.id, call.arguments, context), timeout)
    with traced.span:
        token = _claim.set((function, traced))
        try:
            outcome = await run
        finally:
            _claim.reset(token)
        traced.finish(outcome)
    return outcome


@contextmanager
def deadline(timeout: float | None) -> Iterator[None]:
    """The batch's timeout, for the spans of the bodies it starts in worker threads."""
    token = _deadline.set(timeout)
    try:
        yield
    finally:
        _deadline.reset(token)


def unknown(call: ToolCall, text: str, context: Any) -> None:
    """The span of a call to no known tool, answered with ``text``."""
    with tracer.start(str(call.name), call.id, call.arguments, context) as span:
        span.finish(Error(text), "unknown_tool")
