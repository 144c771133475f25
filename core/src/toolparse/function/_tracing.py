"""The seam tracing plugs into: one span around each tool call, while a tracer is installed.

Nothing here imports OpenTelemetry: :mod:`toolparse.otel` installs its tracer
(``tracer``) and takes it away; until then ``tracer`` is ``None`` and one check
of it at each entry point is all tracing costs.

One span per call, whatever the layers it passes: the Function runs a call's
steps in a span of its own (``execute``/``aexecute``, whichever bridge or
batch led there), unless a batch opened that call's span around a run it
answers for itself (a timeout, a sync body in a worker thread) and *claimed*
the Function's steps for it: they then tell that span whether the arguments
were rejected, and open none. An unknown tool, which no Function runs, gets
its span from the batch. A span is the current one while its call runs, in a
worker thread too (the pool runs each job in its submitter's context), so the
body's own spans nest under it, and a tool that runs another tool is its parent.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from contextvars import ContextVar
from time import perf_counter
from typing import TYPE_CHECKING, Any, Protocol

from ..contract import Error, Ok, Outcome
from ..problems import InvalidArguments
from ._callables import run_sync
from ._plan import OUTCOMES

if TYPE_CHECKING:
    from collections.abc import Awaitable, Iterator

    from ..results import ToolCall
    from ._function import Function

__all__ = ["Span", "Tracer", "aexecute", "around", "deadline", "execute", "parsed", "unknown"]


class Span(Protocol):
    """A call's span, entered (made current) while the call runs, ended on exit."""

    def __enter__(self) -> Span: ...

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None: ...

    def finish(self, outcome: Outcome, error_type: str | None) -> None:
        """Record how the call ended (``error_type``: ``None`` unless it failed)."""


class Tracer(Protocol):
    """What :mod:`toolparse.otel` installs: a span for each call."""

    def start(self, name: str, call_id: object, arguments: object, context: object) -> Span:
        """A new span for the call of tool ``name`` (not entered yet)."""


#: the installed tracer, or ``None``: the one thing each entry point checks
tracer: Tracer | None = None


class _Call:
    """One call's span and what its steps told it."""

    __slots__ = ("began", "rejected", "span", "timeout")

    def __init__(self, span: Span, timeout: float | None) -> None:
        self.span = span
        self.timeout = timeout
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
    """The ``error.type`` of a call's outcome (``None``: it did not fail).

    Arguments rejected before the body ran are ``invalid_arguments``; an
    exception a parser or the body raised is its qualified type name; an
    ``Error`` the body returned is ``tool_error``.
    """
    if type(outcome) is not Error:
        return None
    exc = outcome.exception
    if rejected and (exc is None or isinstance(exc, (InvalidArguments, json.JSONDecodeError))):
        return "invalid_arguments"
    if exc is None:
        return "tool_error"
    kind = type(exc)
    return (
        kind.__qualname__
        if kind.__module__ == "builtins"
        else f"{kind.__module__}.{kind.__qualname__}"
    )


def _call_id(context: object) -> object:
    return context.get("tool_call_id") if isinstance(context, dict) else None


def _taken(function: Function) -> _Call | None:
    """The span a batch claimed this Function's steps for, taken (a call its body makes opens its own)."""
    claim = _claim.get()
    if claim is None or claim[0] is not function:
        return None
    _claim.set(None)
    return claim[1]


def execute(function: Function, arguments: object, context: Any) -> Outcome:
    """``Function.execute`` while traced: the call's steps, in its span."""
    call = _taken(function)
    if call is not None:
        return _steps(function, arguments, context, call)
    assert tracer is not None  # (the caller checked)
    span = tracer.start(function.name, _call_id(context), arguments, context)
    call = _Call(span, _deadline.get())
    with span:
        outcome = _steps(function, arguments, context, call)
        call.finish(outcome)
    return outcome


async def aexecute(function: Function, arguments: object, context: Any) -> Outcome:
    """``Function.aexecute`` while traced: the call's steps, in its span."""
    call = _taken(function)
    if call is not None:
        return await _asteps(function, arguments, context, call)
    assert tracer is not None  # (the caller checked)
    span = tracer.start(function.name, _call_id(context), arguments, context)
    call = _Call(span, _deadline.get())
    with span:
        outcome = await _asteps(function, arguments, context, call)
        call.finish(outcome)
    return outcome


def _steps(function: Function, arguments: object, context: Any, call: _Call) -> Outcome:
    # what ``execute`` runs, in two steps, so that the span knows which one answered
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
    """``parse_arguments`` while traced: a rejection is told to the span that claimed it."""
    claim = _claim.get()
    if claim is not None and claim[0] is function and type(result) is not Ok:
        claim[1].rejected = True


async def around(
    run: Awaitable[Outcome], function: Function, call: ToolCall, context: Any, timeout: float | None
) -> Outcome:
    """Await a batch's ``run`` of ``call`` in the call's span, the Function's steps claimed for it."""
    assert tracer is not None  # (the caller checked)
    span = tracer.start(function.name, call.id, call.arguments, context)
    traced = _Call(span, timeout)
    with span:
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
    assert tracer is not None  # (the caller checked)
    with tracer.start(str(call.name), call.id, call.arguments, context) as span:
        span.finish(Error(text), "unknown_tool")
