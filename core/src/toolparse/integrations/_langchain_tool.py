"""The LangChain tool class: ``BaseTool`` loads LangChain's tracers and langsmith, so it loads with the first ``to_langchain``."""

# No ``from __future__ import annotations`` here: LangChain resolves the type
# hints of ``_run`` on every call (looking for a RunnableConfig parameter), and
# string annotations would be compiled again each time.
import functools
from typing import Any, Literal

from langchain_core.callbacks import AsyncCallbackManagerForToolRun, CallbackManagerForToolRun
from langchain_core.messages import ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, ToolException

from ..function import Function
from ..results import ToolResult
from ._common import arun, content, image_url, interrupt_unavailable, paused, run

__all__ = ["ToolparseTool"]


class ToolparseTool(BaseTool):
    """A toolparse :class:`~toolparse.Function` as a LangChain tool.

    Built by :func:`to_langchain`. ``args_schema`` is the Function's exported
    JSON Schema, so ``bind_tools`` and ``convert_to_openai_tool`` offer the
    model exactly what toolparse validates. The arguments reach toolparse as
    the model sent them; what comes back:

    - accepted: the content; with a tool call id and ``processed_content``
      the body kept for the application, a ``ToolMessage`` whose
      ``artifact`` it is (the tool declares ``response_format="content"``:
      LangChain's ``"content_and_artifact"`` promises an artifact on every
      message, which a Function cannot promise);
    - rejected, or the body failed: with a tool call id, a ``ToolMessage``
      with ``status="error"`` and toolparse's message; without one, a
      ``ToolException`` (answered with the message, as ``handle_tool_error``
      says);
    - an interrupt: LangGraph's ``interrupt()`` inside a graph; the value it
      is resumed with reaches the body again as ``context["resume"]``.
    """

    function: Function
    """The Function this tool runs."""

    response_format: Literal["content", "content_and_artifact"] = "content"
    handle_tool_error: Any = True

    def _to_args_and_kwargs(
        self, tool_input: str | dict[str, Any], tool_call_id: str | None = None
    ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        # the arguments go to toolparse untouched (no langchain-side validation)
        # and the call id with them: the body's context needs it
        return (tool_input, tool_call_id), {}

    def _run(
        self,
        tool_input: str | dict[str, Any] | None = None,
        tool_call_id: str | None = None,
        *,
        config: RunnableConfig,
        run_manager: CallbackManagerForToolRun | None = None,
    ) -> Any:
        context = _context(tool_call_id, config)
        result = run(self.function, tool_input, context)
        while (resumed := _resume(result)) is not _NO_GRAPH:
            result = run(self.function, tool_input, {**context, "resume": resumed})
        return self._finish(result, tool_call_id)

    async def _arun(
        self,
        tool_input: str | dict[str, Any] | None = None,
        tool_call_id: str | None = None,
        *,
        config: RunnableConfig,
        run_manager: AsyncCallbackManagerForToolRun | None = None,
    ) -> Any:
        if not self.function._async:
            # a sync body runs in langchain's executor, off the event loop
            return await super()._arun(
                tool_input, tool_call_id, config=config, run_manager=run_manager
            )
        context = _context(tool_call_id, config)
        result = await arun(self.function, tool_input, context)
        while (resumed := _resume(result)) is not _NO_GRAPH:
            result = await arun(self.function, tool_input, {**context, "resume": resumed})
        return self._finish(result, tool_call_id)

    def _finish(self, result: ToolResult, tool_call_id: str | None) -> Any:
        if not result.is_error and not result.is_interrupt:
            blocks: Any = content(
                result,
                lambda text: {"type": "text", "text": text},
                lambda part: {"type": "image_url", "image_url": {"url": image_url(part)}},
            )
            if result.processed_content is None or tool_call_id is None:
                return blocks
            # an artifact only when there is one: the message is made here
            return ToolMessage(
                content=blocks,
                tool_call_id=tool_call_id,
                name=self.name,
                artifact=result.processed_content,
            )
        text, artifact = result.text, None
        if result.is_interrupt:
            text, artifact = interrupt_unavailable(self.function.name, text), paused(result)
        if tool_call_id is None:
            raise ToolException(text)
        message = ToolMessage(
            content=text,
            tool_call_id=tool_call_id,
            name=self.name,
            status="error",
            artifact=artifact,
        )
        return message


_NO_GRAPH = object()


@functools.cache
def _graph() -> tuple[Any, Any]:
    """LangGraph's ``interrupt`` and ``get_runtime`` (``None`` where not installed), loaded on first use."""
    try:  # LangGraph is optional: without it an Interrupt is a documented error result
        from langgraph.types import interrupt
    except ImportError:  # pragma: no cover - LangGraph is installed in the test environment
        interrupt = None  # type: ignore[assignment]
    try:
        from langgraph.runtime import get_runtime
    except ImportError:  # pragma: no cover - LangGraph before the runtime API, or not installed
        get_runtime = None  # type: ignore[assignment]
    return interrupt, get_runtime


def _context(tool_call_id: str | None, config: RunnableConfig) -> dict[str, Any]:
    context: dict[str, Any] = {"tool_call_id": tool_call_id, "config": config}
    # only a graph run fills "configurable": elsewhere, skip the lookup (and its exception)
    get_runtime = _graph()[1] if config.get("configurable") else None
    if get_runtime is not None:
        try:
            runtime = get_runtime()
        except (RuntimeError, KeyError):  # not inside a LangGraph run
            runtime = None
        if runtime is not None:
            context["runtime"] = runtime
    return context


def _resume(result: ToolResult) -> Any:
    """The value LangGraph's ``interrupt()`` resumes an interrupt with; else ``_NO_GRAPH``."""
    interrupt = _graph()[0] if result.is_interrupt else None
    if interrupt is None:
        return _NO_GRAPH
    try:
        return interrupt(paused(result))
    except (RuntimeError, KeyError):
        return _NO_GRAPH
