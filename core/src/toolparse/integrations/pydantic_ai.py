"""toolparse Functions as pydantic-ai tools.

``pip install "toolparse[pydantic-ai]"``. :func:`to_pydantic_ai` gives a
pydantic-ai ``Tool`` (a ``FunctionToolset`` for a Toolset)
that validates with toolparse: a rejected call raises ``ModelRetry`` with
toolparse's message, so pydantic-ai's retry loop sends the model exactly what
to fix.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable
from typing import Any, overload

from pydantic_ai import RunContext, Tool
from pydantic_ai.exceptions import ApprovalRequired, CallDeferred, ModelRetry
from pydantic_ai.messages import BinaryContent, ImageUrl, ToolReturn
from pydantic_ai.toolsets import FunctionToolset

from ..contract import Error
from ..function import Function
from ..results import ContentPart, ImagePart, TextPart
from ._common import Exported, Reply, exports, functions_of, is_async, reply

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
    functions, single = functions_of(source)
    tools = [
        _to_tool(fn, e, max_retries)
        for fn, e in zip(functions, exports(functions, strict), strict=True)
    ]
    if single:
        return tools[0]
    return FunctionToolset(tools)


class _Arguments:
    """The tool's argument validator: JSON text decoded, toolparse's message otherwise.

    pydantic-ai decodes the model's JSON before the tool runs; with its own
    validator a broken call would be answered in pydantic-ai's words. Here the
    decoding failures get toolparse's message (everything else is validated
    when the tool runs).
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
        raise ModelRetry(self._rejection(input))

    def validate_python(self, input: Any, **_: Any) -> dict[str, Any]:
        if input is None:
            return {}
        if isinstance(input, dict):
            return input
        if isinstance(input, (str, bytes, bytearray)):
            return self.validate_json(input)
        raise ModelRetry(self._rejection(input))

    def _rejection(self, input: Any) -> str:
        if isinstance(input, (bytes, bytearray)):
            input = bytes(input).decode("utf-8", "replace")
        outcome = self.function.parse_arguments(input)
        # decoding fails before any parser runs, so this is toolparse's own text
        if type(outcome) is Error:
            return outcome.message
        return "Send the arguments as one JSON object."  # pragma: no cover - unreachable


def _to_tool(function: Function, exported: Exported, max_retries: int | None) -> Tool[Any]:

    def context_of(ctx: RunContext[Any]) -> dict[str, Any]:
        return {
            "deps": ctx.deps,
            "tool_call_id": ctx.tool_call_id,
            "retry": ctx.retry,
            "tool_call_approved": getattr(ctx, "tool_call_approved", False),
            "run_context": ctx,
        }

    if is_async(function):

        async def arun(ctx: RunContext[Any], /, **arguments: Any) -> Any:
            context = context_of(ctx)
            return _answer(await function.aexecute(arguments, context), context)

        body: Any = arun
    else:
        # a sync function: pydantic-ai runs it in a worker thread, off the loop
        def run(ctx: RunContext[Any], /, **arguments: Any) -> Any:
            context = context_of(ctx)
            return _answer(function.execute(arguments, context), context)

        body = run

    tool: Tool[Any] = Tool.from_schema(
        body,
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


def _answer(outcome: object, context: dict[str, Any]) -> Any:
    """An outcome as pydantic-ai's answer: the content, ``ModelRetry``, or a deferral."""
    answer: Reply = reply(outcome)
    if answer.kind == "ok":
        content = _content(answer.content)
        if answer.artifact is None:
            return content
        return ToolReturn(return_value=content, metadata=answer.artifact)
    if answer.kind == "error":
        raise ModelRetry(answer.content if isinstance(answer.content, str) else "")
    metadata = {"display": answer.content, "data": answer.artifact}
    # approved, and the body still asks for a person: the application decides
    kind = CallDeferred if context["tool_call_approved"] else ApprovalRequired
    try:
        deferral = kind(metadata=metadata)
    except TypeError:  # pydantic-ai before deferral metadata: the call id is all it keeps
        deferral = kind()
    raise deferral


def _content(content: str | list[ContentPart]) -> Any:
    """Content parts as pydantic-ai's multimodal content (text, ``ImageUrl``, ``BinaryContent``)."""
    if isinstance(content, str):
        return content
    items: list[Any] = []
    for part in content:
        if isinstance(part, TextPart):
            items.append(part.text)
        elif isinstance(part, ImagePart):
            if part.url:
                items.append(ImageUrl(url=part.data))
            else:
                try:
                    data = base64.b64decode(part.data, validate=True)
                except (binascii.Error, ValueError):
                    data = part.data.encode()
                items.append(BinaryContent(data=data, media_type=part.media_type))
    return items
