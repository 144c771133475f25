"""toolparse Functions as LangChain tools, and LangChain tools as Functions.

``pip install "toolparse[langchain]"``. :func:`to_langchain` gives a
``langchain_core`` ``BaseTool`` that runs the Function
with toolparse's validation: a rejected call comes back as a ``ToolMessage``
with ``status="error"`` and toolparse's message, never as an exception into the
graph, so LangGraph's ``ToolNode`` and ``create_react_agent`` hand the model
something it can act on. :func:`from_langchain` goes the other way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, overload

# installed or not, said here: the module itself is lazy, and cheap to import
import langchain_core.tools

from ..contract import error, ok
from ..function import Function
from ..results import ContentPart, ImagePart, TextPart
from ._common import Exported, convert

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

    from ._langchain_tool import ToolparseTool

__all__ = ["ToolparseTool", "from_langchain", "to_langchain"]


def __getattr__(name: str) -> Any:
    # ``ToolparseTool`` is a ``BaseTool``, whose import pulls in LangChain's tracers
    # and langsmith: it loads when first asked for, as ``to_langchain`` asks
    if name == "ToolparseTool":
        from ._langchain_tool import ToolparseTool

        return ToolparseTool
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    from ._langchain_tool import ToolparseTool

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
    from pydantic import BaseModel

    schema: Any = tool.tool_call_schema
    if isinstance(schema, dict):
        # the description is the Function's own; it is not repeated in the schema
        schema = {k: v for k, v in schema.items() if k != "description"}
    elif not (isinstance(schema, type) and issubclass(schema, BaseModel)):
        schema = schema.schema()  # a pydantic.v1 model: its JSON Schema
    native_async = type(tool)._arun is not langchain_core.tools.BaseTool._arun or getattr(
        tool, "coroutine", None
    )

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
    from pydantic import BaseModel

    if isinstance(arguments, BaseModel):
        return arguments.model_dump(by_alias=True, exclude_unset=True)
    return dict(arguments)


def _outcome(result: Any) -> Any:
    """What a LangChain tool answered, in toolparse's vocabulary."""
    from langchain_core.messages import ToolMessage

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
