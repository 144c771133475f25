"""toolparse Functions as OpenAI Agents SDK tools.

``pip install "toolparse[openai-agents]"``. :func:`to_openai_agents` gives an
``agents`` ``FunctionTool`` whose ``on_invoke_tool`` parses the
model's raw JSON text with toolparse: a rejected call is answered with
toolparse's message as the tool output (the SDK's own path answers every
failure with one fixed sentence), so the model can fix its call in one turn.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any, overload

from agents import FunctionTool
from agents.tool_context import ToolContext

from ..calls import execute_tool_calls
from ..function import Function
from ..results import ToolCall
from . import _common
from ._common import Exported, arun, content, convert, image_url, interrupt_unavailable, run

try:  # structured tool outputs (text and image items) are newer than FunctionTool
    from agents import ToolOutputImage, ToolOutputText
except ImportError:  # pragma: no cover - older SDKs: content parts go back as text
    ToolOutputImage = ToolOutputText = None  # type: ignore[assignment, misc]

__all__ = ["to_openai_agents", "unknown_tool_formatter"]


@overload
def to_openai_agents(
    source: Function, *, strict: bool | None = None, needs_approval: Any = False
) -> FunctionTool: ...
@overload
def to_openai_agents(
    source: Iterable[Function], *, strict: bool | None = None, needs_approval: Any = False
) -> list[FunctionTool]: ...
def to_openai_agents(
    source: object, *, strict: bool | None = None, needs_approval: Any = False
) -> FunctionTool | list[FunctionTool]:
    """A Function as a ``FunctionTool``; a Toolset (or iterable of Functions) as a list.

    :param source: a :class:`~toolparse.Function`, a :class:`~toolparse.Toolset`
        or an iterable of Functions.
    :param strict: export the schema in strict mode (``strict_json_schema``);
        ``None`` uses each Function's own ``strict``.
    :param needs_approval: passed to ``FunctionTool`` (the SDK's
        human-in-the-loop: the call waits for ``RunState.approve()`` before the
        tool runs).

    The body's context is a dict with ``context`` (the object given to
    ``Runner.run``), ``tool_call_id`` and ``run_context`` (the SDK's
    ``ToolContext``). A tool that interrupts cannot pause the SDK's run once
    it is running: the model is told that the call needs a person (use
    ``needs_approval`` to ask before the tool runs).
    """
    return convert(source, strict, lambda fn, exported: _to_tool(fn, exported, needs_approval))


def _to_tool(function: Function, exported: Exported, needs_approval: Any) -> FunctionTool:

    async def on_invoke_tool(ctx: ToolContext[Any], arguments: str) -> Any:
        context = {
            "context": ctx.context,
            "tool_call_id": getattr(ctx, "tool_call_id", None),
            "run_context": ctx,
        }
        if function._async:
            result = await arun(function, arguments, context)
        else:
            # as the SDK runs its own sync tools: in a worker thread, off the loop
            result = await asyncio.to_thread(run, function, arguments, context)
        if result.is_interrupt:
            return interrupt_unavailable(function.name, result.text)
        if result.is_error or ToolOutputText is None:  # older SDKs: content parts as text
            return result.text
        return content(
            result,
            lambda text: ToolOutputText(text=text),
            lambda part: ToolOutputImage(image_url=image_url(part)),
        )

    options: dict[str, Any] = {} if needs_approval is False else {"needs_approval": needs_approval}
    return FunctionTool(
        name=exported.name,
        description=exported.description,
        params_json_schema=exported.parameters,
        on_invoke_tool=on_invoke_tool,
        strict_json_schema=exported.strict,
        **options,
    )


def unknown_tool_formatter(source: object) -> Callable[[Any], str | None]:
    """A ``RunConfig.tool_error_formatter`` that answers a call to an unknown tool as toolparse does.

    By default the SDK ends the run with ``ModelBehaviorError`` when the model
    calls a tool the agent does not have: toolparse never sees the call. With
    ``RunConfig(tool_not_found_behavior="return_error_to_model",
    tool_error_formatter=unknown_tool_formatter(tools))`` the model is told
    instead, in toolparse's words, which tools it can call (the closest
    first); the call is traced and observed like any other. Other errors
    keep the SDK's own message.

    :param source: the tools the agent was given: a Function, a Toolset or an
        iterable of Functions.
    """
    functions, _ = _common.functions_of(source)

    def formatter(error: Any) -> str | None:
        if getattr(error, "kind", None) != "tool_not_found":
            return None  # the SDK's own message
        call = ToolCall(str(error.call_id), str(error.tool_name), None)
        pm = functions[0]._pm if functions else None  # whose observers hear of it
        (result,) = execute_tool_calls(functions, [call], plugin_manager=pm)
        return result.text

    return formatter
