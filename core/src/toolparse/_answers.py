"""A call's answer: its :class:`~toolparse.ToolResult`, put in its place and handed to the observers.

Every call of a batch is answered here, whichever way it ran: a known tool's
outcome (:func:`store`), a tool that is not in the set (:func:`unknown`), and
a sync body that finished after its timeout (:func:`late`), whose result the
model never sees but the ``toolparse_tool_executed`` observers do. The
results list is filled by index, so the answers keep the model's order
whatever order the calls finish in.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import messages
from .contract import Error, Outcome
from .results import ToolCall, ToolResult

if TYPE_CHECKING:
    from concurrent.futures import Future

    from ._lookup import Lookup
    from .function import Function
    from .plugins import PluginManager

__all__ = ["context_for", "late", "now", "store", "unknown"]

#: the clock of a call's ``duration`` (bound once: it is read twice per observed call)
now = time.perf_counter


def context_for(context: Any, call: ToolCall) -> Any:
    """The caller's context plus ``tool_call_id``, as a new mapping.

    A new mapping per call, so that one tool cannot change what the next sees;
    a context that is not a mapping is passed through untouched.
    """
    if context is None:
        return {"tool_call_id": call.id}
    if isinstance(context, Mapping):
        return {**context, "tool_call_id": call.id}
    return context


def _report(
    pm: PluginManager,
    call: ToolCall,
    fn: Function | None,
    result: ToolResult,
    start: float,
    late: bool = False,
) -> None:
    pm.hook.toolparse_tool_executed(
        call=call, function=fn, result=result, duration=now() - start, late=late
    )


def store(
    results: list[Any],
    i: int,
    call: ToolCall,
    fn: Function,
    outcome: Outcome,
    pm: PluginManager | None,
    start: float,
) -> None:
    """The result of call ``i``: in its place, and to the observers (``pm``, when any observe)."""
    results[i] = result = ToolResult.from_outcome(call, fn, outcome)
    if pm is not None:
        _report(pm, call, fn, result, start)


def unknown(
    results: list[Any], i: int, call: ToolCall, lookup: Lookup, pm: PluginManager | None
) -> None:
    """Answer call ``i``, to a tool that is not in the set, with the names the model can call."""
    start = now()
    results[i] = result = ToolResult(
        call.id,
        call.name,
        messages.unknown_tool(call.name, lookup.names(call)),
        is_error=True,
        kind=call.kind,
    )
    if pm is not None:
        _report(pm, call, None, result, start)


def late(
    future: Future[Any], pm: PluginManager | None, call: ToolCall, fn: Function, start: float
) -> None:
    """Hand the outcome of a sync body that finished after its timeout to the observers.

    The model was answered at the timeout; a body cannot be stopped, so its
    outcome, when it comes, is reported with ``late=True`` (and to nobody when
    nothing observes).
    """
    if pm is None:
        return

    def done(f: Future[Any]) -> None:
        try:
            outcome = f.result()
        except BaseException as exc:  # execute never raises; a last resort
            outcome = Error(messages.exception(exc), exc)
        _report(pm, call, fn, ToolResult.from_outcome(call, fn, outcome), start, late=True)

    future.add_done_callback(done)
