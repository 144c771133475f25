"""toolparse Functions as LangChain tools, and LangChain tools as Functions.

``pip install "toolparse[langchain]"``. :func:`to_langchain` gives a
``langchain_core`` ``BaseTool`` that runs the Function
with toolparse's validation: a rejected call comes back as a ``ToolMessage``
with ``status="error"`` and toolparse's message, never as an exception into the
graph, so LangGraph's ``ToolNode`` and ``create_react_agent`` hand the model
something it can act on. :func:`from_langchain` goes the other way.
"""

# No ``from __future__ import annotations`` here: LangChain resolves the type
# hints of ``_run`` on every call (looking for a RunnableConfig parameter), and
# string annotations would be compiled again each time.
from collections.abc import Iterable, Mapping
from typing import Any, Literal, overload

from langchain_core.callbacks import AsyncCallbackManagerForToolRun, CallbackManagerForToolRun
from langchain_core.messages import ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, ToolException
from pydantic import BaseModel

from ..contract import error, ok
from ..function import Function
from ..results import ContentPart, ImagePart, TextPart, ToolResult
from ._common import Exported, arun, content, convert, image_url, interrupt_unavailable, paused, run

try:  # LangGraph is optional: without it an Interrupt is a documented error result
    from langgraph.types import interrupt as _graph_interrupt
except ImportError:  # pragma: no cover - LangGraph is installed in the test environment
    _graph_interrupt = None  # type: ignore[assignment]

try:
    from langgraph.runtime import get_runtime as _get_runtime
except ImportError:  # pragma: no cover - LangGraph before the runtime API, or not installed
    _get_runtime = None  # type: ignore[assignment]

__all__ = ["ToolparseTool", "from_langchain", "to_langchain"]


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
            blocks = content(
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


def _context(tool_call_id: str | None, config: RunnableConfig) -> dict[str, Any]:
    context: dict[str, Any] = {"tool_call_id": tool_call_id, "config": config}
    # only a graph run fills "configurable": elsewhere, skip the lookup (and its exception)
    if _get_runtime is not None and config.get("configurable"):
        try:
            runtime = _get_runtime()
        except (RuntimeError, KeyError):  # not inside a LangGraph run
            runtime = None
        if runtime is not None:
            context["runtime"] = runtime
    return context


def _resume(result: ToolResult) -> Any:
    """The value LangGraph's ``interrupt()`` resumes an interrupt with; else ``_NO_GRAPH``."""
    if not result.is_interrupt or _graph_interrupt is None:
        return _NO_GRAPH
    try:
        return _graph_interrupt(paused(result))
    except (RuntimeError, KeyError):
        return _NO_GRAPH


@overload
def to_langchain(source: Function, *, strict: bool | None = None) -> ToolparseTool: ...
@overload
def to_langchain(
    source: Iterable[Function], *, strict: bool | None = None
) -> list[ToolparseTool]: ...
def to_langchain(
    source: object, *, strict: bool | None = None
) -> ToolparseTool | list[ToolparseTool]:
    """A Function as a LangChain tool; a Toolset (or any iterable of Functions) as a list.

    :param source: a :class:`~toolparse.Function`, a :class:`~toolparse.Toolset`
        or an iterable of Functions.
    :param strict: export the schema in strict mode; ``None`` uses each
        Function's own ``strict``.
    :returns: a :class:`ToolparseTool` (a ``BaseTool``) per Function. Its
        ``name`` is the Function's name under the OpenAI alias rule (a name
        such as ``math.factorial`` becomes a valid one); ``description``,
        ``return_direct`` and the exported schema come from the Function.
    """
    return convert(source, strict, _to_tool)


def _to_tool(function: Function, exported: Exported) -> ToolparseTool:
    return ToolparseTool(
        name=exported.name,
        description=exported.description,
        args_schema=exported.parameters,
        return_direct=function.return_direct,
        function=function,
    )


def from_langchain(tool: BaseTool) -> Function:
    """A LangChain tool as a toolparse :class:`~toolparse.Function`.

    The tool's argument model (the schema the model is shown, injected
    arguments left out) becomes the Function's ``args_schema``: a pydantic model
    through the pydantic adapter, a JSON Schema dict through the jsonschema
    adapter. The body invokes the tool with a tool call (the context's
    ``tool_call_id`` and ``config`` are passed on); a ``ToolMessage`` with
    ``status="error"`` becomes an :class:`~toolparse.Error`, an artifact the
    ``processed_content``.
    """
    schema: Any = tool.tool_call_schema
    if isinstance(schema, dict):
        # the description is the Function's own; it is not repeated in the schema
        schema = {k: v for k, v in schema.items() if k != "description"}
    elif not (isinstance(schema, type) and issubclass(schema, BaseModel)):
        schema = schema.schema()  # a pydantic.v1 model: its JSON Schema
    native_async = type(tool)._arun is not BaseTool._arun or getattr(tool, "coroutine", None)

    def request(arguments: Any, context: Any) -> tuple[dict[str, Any], Any]:
        """The tool call to invoke the tool with, and the LangChain config to pass on."""
        given = context if isinstance(context, Mapping) else {}
        call_id = given.get("tool_call_id") or "toolparse"
        call = {"type": "tool_call", "name": tool.name, "id": call_id, "args": _plain(arguments)}
        return call, given.get("config")

    def body(arguments: Any, context: Any) -> Any:
        return _outcome(tool.invoke(*request(arguments, context)))

    async def abody(arguments: Any, context: Any) -> Any:
        return _outcome(await tool.ainvoke(*request(arguments, context)))

    return Function(
        tool.name,
        abody if native_async else body,
        description=tool.description or None,
        args_schema=schema,
        return_direct=tool.return_direct,
    )


def _plain(arguments: Any) -> dict[str, Any]:
    """Parsed arguments as the dict a LangChain tool validates again."""
    if isinstance(arguments, BaseModel):
        return arguments.model_dump(by_alias=True, exclude_unset=True)
    return dict(arguments)


def _outcome(result: Any) -> Any:
    """What a LangChain tool answered, in toolparse's vocabulary."""
    if not isinstance(result, ToolMessage):
        return result
    content = result.content
    if getattr(result, "status", "success") == "error":
        return error(content if isinstance(content, str) else _text(content))
    value: Any = content if isinstance(content, str) else _parts(content)
    return ok(value, result.artifact) if result.artifact is not None else value


def _text(blocks: list[Any]) -> str:
    return "".join(
        b if isinstance(b, str) else str(b.get("text", ""))
        for b in blocks
        if isinstance(b, (str, dict))
    )


def _parts(blocks: list[Any]) -> Any:
    """LangChain content blocks as content parts, when every block has one."""
    parts: list[ContentPart] = []
    for block in blocks:
        if isinstance(block, str):
            parts.append(TextPart(block))
        elif isinstance(block, dict) and block.get("type") == "text":
            parts.append(TextPart(str(block.get("text", ""))))
        elif isinstance(block, dict) and block.get("type") == "image_url":
            url = block.get("image_url")
            url = url.get("url") if isinstance(url, dict) else url
            parts.append(ImagePart(str(url), url=True))
        else:
            return blocks  # a block toolparse has no part for: sent on as JSON
    return parts
