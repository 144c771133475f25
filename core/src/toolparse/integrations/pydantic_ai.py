"""toolparse Functions as pydantic-ai tools.

``pip install "toolparse[pydantic-ai]"``. :func:`to_pydantic_ai` gives a
pydantic-ai ``Tool`` (a ``FunctionToolset`` for a Toolset)
that validates with toolparse: a rejected call raises ``ModelRetry`` with
toolparse's message, so pydantic-ai's retry loop sends the model exactly what
to fix.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable
from typing import Any, overload

from pydantic_ai import RunContext, Tool
from pydantic_ai.exceptions import ApprovalRequired, CallDeferred, ModelRetry
from pydantic_ai.messages import BinaryContent, ImageUrl, ToolReturn
from pydantic_ai.toolsets import FunctionToolset

from ..contract import Error
from ..function import Function
from ..results import ImagePart, ToolResult
from ._common import Exported, arun, content, convert, paused, run

__all__ = ["to_pydantic_ai"]


@overload
def to_pydantic_ai(
    source: Function, *, strict: bool | None = None, max_retries: int | None = None
) -> Tool[Any]: ...
@overload
def to_pydantic_ai(
    source: Iterable[Function], *, strict: bool | None = None, max_retries: int | None = None
) -> FunctionToolset[Any]: ...
def to_pydantic_ai(
    source: object, *, strict: bool | None = None, max_retries: int | None = None
) -> Tool[Any] | FunctionToolset[Any]:
    """A Function as a pydantic-ai ``Tool``; a Toolset (or iterable) as a ``FunctionToolset``.

    :param source: a :class:`~toolparse.Function`, a :class:`~toolparse.Toolset`
        or an iterable of Functions.
    :param strict: export the schema in strict mode and ask the model for it;
        ``None`` uses each Function's own ``strict``.
    :param max_retries: how many rejected calls of the tool pydantic-ai
        answers before it gives up (``None``: the agent's default).

    The body's context is a dict with ``deps``, ``tool_call_id``, ``retry``,
    ``tool_call_approved`` and ``run_context`` (the ``RunContext`` itself).
    An interrupt raises ``ApprovalRequired`` (the call waits for the
    application's approval, as pydantic-ai's deferred tools do); once approved,
    the body runs again with ``context["tool_call_approved"]`` true.
    """
    tools = convert(source, strict, lambda fn, exported: _to_tool(fn, exported, max_retries))
    return tools if isinstance(tools, Tool) else FunctionToolset(tools)


class _Arguments:
    """The tool's argument validator: JSON text decoded, toolparse's message otherwise.

    pydantic-ai's own would answer a call that is no JSON object in its own words; the rest is
    validated when the tool runs.
    """

    __slots__ = ("function",)

    def __init__(self, function: Function) -> None:
        self.function = function

    def validate_json(self, input: str | bytes | bytearray, **_: Any) -> dict[str, Any]:
        try:
            value = json.loads(input or "{}")
        except ValueError:
            value = None
        if isinstance(value, dict):
            return value
        raise self._retry(input)

    def validate_python(self, input: Any, **_: Any) -> dict[str, Any]:
        if isinstance(input, dict):
            return input
        if input is None or isinstance(input, (str, bytes, bytearray)):
            return self.validate_json(input or "{}")
        raise self._retry(input)

    def _retry(self, input: Any) -> ModelRetry:
        if isinstance(input, (bytes, bytearray)):
            input = bytes(input).decode("utf-8", "replace")
        # decoding fails before any parser or the body runs, so this is toolparse's own
        # text (run as a call, so that it is traced as one)
        rejected = self.function.execute(input)
        return ModelRetry(rejected.message if type(rejected) is Error else "")


def _to_tool(function: Function, exported: Exported, max_retries: int | None) -> Tool[Any]:
    def context_of(ctx: RunContext[Any]) -> dict[str, Any]:
        return {
            "deps": ctx.deps,
            "tool_call_id": ctx.tool_call_id,
            "retry": ctx.retry,
            "tool_call_approved": getattr(ctx, "tool_call_approved", False),
            "run_context": ctx,
        }

    # a sync function: pydantic-ai runs it in a worker thread, off the loop
    def body(ctx: RunContext[Any], /, **arguments: Any) -> Any:
        context = context_of(ctx)
        return _answer(run(function, arguments, context), context)

    async def abody(ctx: RunContext[Any], /, **arguments: Any) -> Any:
        context = context_of(ctx)
        return _answer(await arun(function, arguments, context), context)

    tool: Tool[Any] = Tool.from_schema(
        abody if function._async else body,
        name=exported.name,
        description=exported.description or None,
        json_schema=exported.parameters,
        takes_ctx=True,
    )
    tool.strict = exported.strict
    tool.max_retries = max_retries
    tool.sequential = not function.concurrent
    schema = getattr(tool, "function_schema", None)
    if schema is not None and hasattr(schema, "validator"):
        schema.validator = _Arguments(function)
    return tool


def _answer(result: ToolResult, context: dict[str, Any]) -> Any:
    """A result as pydantic-ai's answer: the content, ``ModelRetry``, or a deferral."""
    if result.is_error:
        raise ModelRetry(result.text)
    if not result.is_interrupt:
        value = content(result, str, _image)
        if result.processed_content is None:
            return value
        return ToolReturn(return_value=value, metadata=result.processed_content)
    # approved, and the body still asks for a person: the application decides
    kind = CallDeferred if context["tool_call_approved"] else ApprovalRequired
    try:
        deferral = kind(metadata=paused(result))
    except TypeError:  # pydantic-ai before deferral metadata: the call id is all it keeps
        deferral = kind()
    raise deferral


def _image(part: ImagePart) -> ImageUrl | BinaryContent:
    """An image part as pydantic-ai's ``ImageUrl``, or ``BinaryContent`` of its bytes."""
    if part.url:
        return ImageUrl(url=part.data)
    try:
        data = base64.b64decode(part.data, validate=True)
    except ValueError:  # binascii.Error is one
        data = part.data.encode()
    return BinaryContent(data=data, media_type=part.media_type)
