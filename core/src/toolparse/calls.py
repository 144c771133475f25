"""Tool calls from the model, their results, and running a batch of them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import messages
from .content import ContentPart, TextPart
from .contract import Error, Interrupt, Ok, Outcome

if TYPE_CHECKING:
    from .function import Function
    from .plugins import PluginManager

__all__ = ["ToolCall", "ToolResult", "aexecute_tool_calls", "execute_tool_calls"]


class ToolCall:
    """One call the model made: an id, a tool name and its arguments.

    :param id: the provider's tool-call id (echoed back on the result).
    :param name: the tool name.
    :param arguments: a JSON string, a mapping, or ``None`` (no arguments).
    """

    __slots__ = ("arguments", "id", "name")
    __match_args__ = ("id", "name", "arguments")

    def __init__(
        self, id: str, name: str, arguments: str | Mapping[str, Any] | None = None
    ) -> None:
        self.id = id
        self.name = name
        self.arguments = arguments

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToolCall):
            return NotImplemented
        return (self.id, self.name, self.arguments) == (other.id, other.name, other.arguments)

    __hash__ = None  # type: ignore[assignment]  # arguments may be a mutable mapping

    def __repr__(self) -> str:
        return f"ToolCall({self.id!r}, {self.name!r}, {self.arguments!r})"


class ToolResult:
    """The result of one tool call, ready to go back to the model.

    :param tool_call_id: the id of the call this answers.
    :param name: the tool's name.
    :param content: text, or a list of content parts, for the model.
    :param processed_content: a native value kept for the application; never
        sent to the model.
    :param display_text: text for a user interface.
    :param is_error: the call failed (the content says why, for the model).
    :param is_interrupt: the tool paused for human review.
    :param interrupt_data: opaque data to resume an interrupted call.
    :param options: provider options (e.g. ``{"cache_control": True}``).
    :param return_direct: an agent loop should stop after this result.
    """

    __slots__ = (
        "content",
        "display_text",
        "interrupt_data",
        "is_error",
        "is_interrupt",
        "name",
        "options",
        "processed_content",
        "return_direct",
        "tool_call_id",
    )

    def __init__(
        self,
        tool_call_id: str | None,
        name: str | None,
        content: str | Sequence[ContentPart] | None,
        *,
        processed_content: Any = None,
        display_text: str | None = None,
        is_error: bool = False,
        is_interrupt: bool = False,
        interrupt_data: Any = None,
        options: Mapping[str, Any] | None = None,
        return_direct: bool = False,
    ) -> None:
        self.tool_call_id = tool_call_id
        self.name = name
        self.content = content
        self.processed_content = processed_content
        self.display_text = display_text
        self.is_error = is_error
        self.is_interrupt = is_interrupt
        self.interrupt_data = interrupt_data
        self.options = options
        self.return_direct = return_direct

    @property
    def text(self) -> str:
        """The content as plain text (text parts joined; other parts left out)."""
        if isinstance(self.content, str):
            return self.content
        if self.content is None:
            return ""
        return "".join(p.text for p in self.content if isinstance(p, TextPart))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToolResult):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        flags = "".join(
            f", {f}=True" for f in ("is_error", "is_interrupt", "return_direct") if getattr(self, f)
        )
        return f"ToolResult({self.tool_call_id!r}, {self.name!r}, {self.content!r}{flags})"

    @classmethod
    def from_outcome(
        cls, call: ToolCall, function: Function | None, outcome: Outcome
    ) -> ToolResult:
        """Turn an execution outcome into the result for ``call``."""
        display = function.display_text if function is not None else None
        direct = function.return_direct if function is not None else False
        if type(outcome) is Ok:
            value = outcome.value
            if isinstance(value, ToolResult):
                # the tool built its own result: fill in what it left out
                value.tool_call_id = value.tool_call_id or call.id
                value.name = value.name or call.name
                if value.display_text is None:
                    value.display_text = display
                value.return_direct = value.return_direct or direct
                return value
            return cls(
                call.id,
                call.name,
                value,
                processed_content=outcome.processed_content,
                display_text=display,
                return_direct=direct,
            )
        if type(outcome) is Interrupt:
            return cls(
                call.id,
                call.name,
                outcome.display,
                display_text=display,
                is_interrupt=True,
                interrupt_data=outcome.data,
                return_direct=direct,
            )
        assert type(outcome) is Error
        return cls(call.id, call.name, outcome.message, display_text=display, is_error=True)


def _in_thread(fn: Function, arguments: Any, context: Any) -> Any:
    """Run ``fn.execute`` in a daemon thread and return an awaitable of its outcome.

    Not ``asyncio.to_thread``: a timed-out call must not hold up the caller,
    and the default executor is waited for when its event loop closes.
    """
    import asyncio
    import threading

    loop = asyncio.get_running_loop()
    future: asyncio.Future[Outcome] = loop.create_future()

    def settle(outcome: Outcome) -> None:
        if not future.done():
            future.set_result(outcome)

    def work() -> None:
        outcome = fn.execute(arguments, context)
        try:
            loop.call_soon_threadsafe(settle, outcome)
        except RuntimeError:
            pass  # the loop has closed: nobody is waiting any more

    threading.Thread(target=work, name=f"toolparse-{fn.name}", daemon=True).start()
    return future


def _context(context: Any, call: ToolCall) -> Any:
    """The caller's context plus ``tool_call_id``, as a new mapping."""
    if context is None:
        return {"tool_call_id": call.id}
    if isinstance(context, Mapping):
        return {**context, "tool_call_id": call.id}
    return context  # not a mapping: passed through untouched


async def aexecute_tool_calls(
    functions: Iterable[Function],
    calls: Iterable[ToolCall],
    context: Any = None,
    *,
    timeout: float | None = None,
    max_concurrency: int | None = None,
    plugin_manager: PluginManager | None = None,
) -> list[ToolResult]:
    """Run every call and return one result per call, in the order of ``calls``.

    Tools marked ``concurrent=True`` run concurrently (at most
    ``max_concurrency`` at once); the others run one at a time, after them.
    An unknown tool, bad arguments or a ``timeout`` (seconds, per call) each
    give an ``is_error`` result; nothing raises. Each tool sees the caller's
    ``context`` plus ``tool_call_id`` (a new mapping; yours is not mutated).
    Plugins implementing ``toolparse_tool_executed`` observe every call.
    """
    import asyncio
    import time

    if plugin_manager is None:
        from .plugins import plugin_manager as default_pm

        plugin_manager = default_pm()
    pm = plugin_manager if plugin_manager.observed else None

    def done(i: int, call: ToolCall, fn: Function | None, result: ToolResult, start: float) -> None:
        results[i] = result
        if pm is not None:
            pm.hook.toolparse_tool_executed(
                call=call, function=fn, result=result, duration=time.perf_counter() - start
            )

    table: dict[str, Function] = {}
    for fn in functions:
        table[fn.name] = fn  # a later duplicate wins, as in a tool registry
    calls = list(calls)
    results: list[ToolResult | None] = [None] * len(calls)
    limit = asyncio.Semaphore(max_concurrency) if max_concurrency else None

    async def run(i: int, call: ToolCall, fn: Function) -> None:
        start = time.perf_counter()
        ctx = _context(context, call)
        try:
            if fn._async:
                job: Any = fn.aexecute(call.arguments, ctx)
            else:
                # a sync body runs in a worker thread so it cannot block the
                # other calls or escape its timeout
                job = _in_thread(fn, call.arguments, ctx)
            outcome: Outcome = await asyncio.wait_for(job, timeout)
        except (asyncio.TimeoutError, TimeoutError):
            outcome = Error(messages.timed_out(fn.name, timeout or 0))
        except Exception as exc:  # execute never raises; this is a last resort
            outcome = Error(messages.exception(exc), exc)
        done(i, call, fn, ToolResult.from_outcome(call, fn, outcome), start)

    async def limited(i: int, call: ToolCall, fn: Function) -> None:
        if limit is None:
            await run(i, call, fn)
        else:
            async with limit:
                await run(i, call, fn)

    concurrent = []
    sequential = []
    for i, call in enumerate(calls):
        found = table.get(call.name)
        if found is None:
            text = messages.unknown_tool(str(call.name), list(table))
            done(
                i,
                call,
                None,
                ToolResult(call.id, call.name, text, is_error=True),
                time.perf_counter(),
            )
        elif found.concurrent:
            concurrent.append(limited(i, call, found))
        else:
            sequential.append((i, call, found))
    if concurrent:
        await asyncio.gather(*concurrent)
    for i, call, fn in sequential:
        if timeout is None and not fn._async:
            start = time.perf_counter()
            outcome = fn.execute(call.arguments, _context(context, call))
            done(i, call, fn, ToolResult.from_outcome(call, fn, outcome), start)
        else:
            await run(i, call, fn)
    return [r for r in results if r is not None]


def execute_tool_calls(
    functions: Iterable[Function],
    calls: Iterable[ToolCall],
    context: Any = None,
    *,
    timeout: float | None = None,
    max_concurrency: int | None = None,
    plugin_manager: PluginManager | None = None,
) -> list[ToolResult]:
    """Sync :func:`aexecute_tool_calls` (runs its own event loop)."""
    from ._callables import _run_sync

    return _run_sync(  # type: ignore[no-any-return]
        aexecute_tool_calls(
            functions,
            calls,
            context,
            timeout=timeout,
            max_concurrency=max_concurrency,
            plugin_manager=plugin_manager,
        )
    )
