"""The MCP server: the SDK's low-level ``Server`` with toolparse's tool list and calls.

A tool whose output is a model declares an ``outputSchema``, and its result's text (that
model's JSON) is also sent as ``structuredContent``.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

import mcp_types as types
from mcp.server.lowlevel import Server

from .. import __version__, messages
from ..calls import _check, aexecute_tool_calls, set_max_workers, worker_pool
from ..contract import Error, Ok, Outcome
from ..integrations._common import functions_of
from ..plugins import plugin_manager
from ..providers import get_provider
from ..providers._mcp import MCPProvider
from ..results import ToolCall, ToolResult
from ._request import CONTEXT_KEY, INTERRUPT_META_KEY, request_of

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext

    from ..function import Function
    from ..providers import Provider

__all__ = ["make_server"]


def interrupt_text(name: str | None, display: str) -> str:
    """What the model reads when a tool paused for approval."""
    return (
        f"The tool {name} needs approval before it runs: {display}\n"
        "It did not run. Tell the user what it would do and ask them to approve it; "
        "once they have, the call can be made again."
    )


def make_server(  # noqa: PLR0913 -- API.md fixes these keyword options
    tools: Any,
    *,
    name: str = "toolparse",
    version: str | None = None,
    instructions: str | None = None,
    context: Mapping[str, Any] | None = None,
    timeout: float | None = None,
    error_detail: Literal["full", "type"] = "full",
    max_workers: int | None = None,
    max_queue: int | None = None,
) -> Server[Any]:
    """The SDK's :class:`mcp.server.lowlevel.Server` serving ``tools``.

    :param tools: a Function, a Toolset or a list of Functions.
    :param name: the server name clients show.
    :param version: the server version (default: toolparse's).
    :param instructions: text a client may give its model about these tools.
    :param context: entries every tool call's context starts from; the call
        adds ``tool_call_id`` and ``"mcp"`` (an :class:`McpRequest`).
    :param timeout: seconds per call (see :func:`toolparse.aexecute_tool_calls`).
    :param error_detail: what the client reads when a tool raises an unexpected
        exception: ``"full"``, the usual one-line text; ``"type"``, only
        ``ERROR: (<ExcType>) in <tool name>``. Argument rejections and
        ``ToolError`` texts are always sent in full.
    :param max_workers: the most sync bodies running at once, and
    :param max_queue: the most calls waiting for a thread, in the process's
        worker pool (see :func:`toolparse.calls.set_max_workers`).

    The SDK owns the protocol (versions, lifecycle, cancellation, transports);
    every ``tools/call`` runs through :func:`toolparse.aexecute_tool_calls`, so
    a rejected call is answered with toolparse's message and ``isError: true``.
    The tool list, each tool's ``outputSchema`` and the lookup table are built
    here, once.
    """
    if error_detail not in ("full", "type"):
        raise ValueError(f"error_detail must be 'full' or 'type', got {error_detail!r}")
    _check(timeout, None)  # here, not at the first call
    if max_workers is not None or max_queue is not None:
        set_max_workers(
            worker_pool().max_workers if max_workers is None else max_workers, queue=max_queue
        )
    brief = error_detail == "type"
    functions, _ = functions_of(tools)
    # the tools' own plugin manager: its providers, and the observers that hear each call
    pm = functions[0]._pm if functions else plugin_manager()
    provider = get_provider("mcp", pm)
    batch = functools.partial(aexecute_tool_calls, timeout=timeout, plugin_manager=pm)
    listed: list[dict[str, Any]] = provider.to_tools(functions)
    # the exported name may be an alias of the Function's: each routes back to its tool
    table: dict[str, tuple[Function, bool, bool]] = {}
    for fn, tool in zip(functions, listed, strict=True):
        if (schema := output_schema(fn)) is not None:
            tool.setdefault("outputSchema", schema)
        table[tool["name"]] = (fn, "outputSchema" in tool, timeout is None and fn._async)
    base = dict(context or {})
    # the built-in provider's message for text is built here; a plugin's is always asked
    plain = type(provider) is MCPProvider

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> dict[str, Any]:
        fn, has_schema, inline = table.get(params.name, (None, False, False))
        call_id = str(ctx.request_id)
        name = params.name if fn is None else fn.name
        call_context = {**base, CONTEXT_KEY: request_of(ctx), "tool_call_id": call_id}
        try:
            if fn is not None and inline and not pm.observed:
                # async, no timeout, no observer: what aexecute_tool_calls does, without the batch
                outcome = await fn.aexecute(params.arguments, call_context)
                if brief and type(outcome) is Error:
                    outcome = Error(_brief(outcome.message, params.name), outcome.exception)
                if plain and (found := _text_message(outcome, has_schema)) is not None:
                    return found
                call = ToolCall(call_id, name, params.arguments)
                result = ToolResult.from_outcome(call, fn, outcome)
            else:
                # an unknown tool is answered by the core, naming the closest tools
                # by the names this server lists (the MCP provider's)
                call = ToolCall(call_id, name, params.arguments)
                call._provider = "mcp"
                (result,) = await batch(functions if fn is None else [fn], [call], call_context)
        except Exception as exc:
            # execute never raises; should it, the client still gets a result,
            # never the exception's text as a protocol error
            result = ToolResult(call_id, name, messages.exception(exc), is_error=True)
        if brief and result.is_error and isinstance(result.content, str):
            result.content = _brief(result.content, params.name)
        return _message(provider, result, has_schema)

    server: Server[Any] = Server(name, version=version or __version__, instructions=instructions)
    server.add_request_handler("tools/call", types.CallToolRequestParams, call_tool)
    # built once as the SDK's models: they carry the fields (cache hints, result type) each protocol
    # revision requires; the empty lists answer clients that ask (the MCP Inspector does)
    for method, answer in (
        ("tools/list", types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in listed])),
        ("resources/list", types.ListResourcesResult(resources=[])),
        ("resources/templates/list", types.ListResourceTemplatesResult(resource_templates=[])),
        ("prompts/list", types.ListPromptsResult(prompts=[])),
    ):
        server.add_request_handler(method, types.PaginatedRequestParams, _constant(answer))
    return server


def _brief(text: str, name: str) -> str:
    """``ERROR: (<ExcType>) in <name>`` for an unexpected exception's text; any other as is."""
    if not text.startswith("ERROR: (") or ")" not in text:
        return text  # an argument rejection, a ToolError's text, a timeout: the model needs it
    return f"{text[: text.index(')') + 1]} in {name}"


def _constant(answer: Any) -> Any:
    """A handler that always answers ``answer`` (the runner dumps it, never mutates it)."""

    async def handler(ctx: ServerRequestContext[Any, Any], params: Any) -> Any:
        return answer

    return handler


def _message(provider: Provider, result: ToolResult, has_schema: bool) -> dict[str, Any]:
    """The ``CallToolResult`` for one result; an interrupt is an error carrying it in ``_meta``."""
    paused = _interrupt(result) if result.is_interrupt else None
    if paused is not None:
        result = result.resolve(interrupt_text(result.name, result.text), is_error=True)
    (message,) = provider.to_result_message([result])
    message["resultType"] = "complete"  # required from 2026-07-28; older revisions drop it
    if paused is not None:
        message["_meta"] = {INTERRUPT_META_KEY: paused}
    elif has_schema and not result.is_error and "structuredContent" not in message:
        found = structured(result.content)
        if found is not None:
            message["structuredContent"] = found
    return message


def _interrupt(result: ToolResult) -> dict[str, Any]:
    """What a client application reads of an interrupt: its display, and its data if JSON."""
    found: dict[str, Any] = {"display": result.text}
    if result.interrupt_data is not None:
        try:
            json.dumps(result.interrupt_data)
        except (TypeError, ValueError):
            pass  # data the application keeps: not for the wire
        else:
            found["data"] = result.interrupt_data
    return found


def _text_message(outcome: Outcome, has_schema: bool) -> dict[str, Any] | None:
    """The ``CallToolResult`` the MCP provider gives an outcome of non-empty text, else ``None``."""
    kind = type(outcome)
    if kind is not Ok and kind is not Error:
        return None
    text = outcome[0]
    if type(text) is not str or not text:
        return None
    message: dict[str, Any] = {
        "content": [{"type": "text", "text": text}],
        "isError": kind is Error,
        "resultType": "complete",
    }
    if has_schema and kind is Ok and (found := structured(text)) is not None:
        message["structuredContent"] = found
    return message


def output_schema(function: Function) -> dict[str, Any] | None:
    """The ``outputSchema`` of ``function``, or ``None`` when its output is plain text.

    The one it declares (``options={"output_schema": ...}``), else that of a return annotation
    that is a model (pydantic, dataclass, TypedDict), as the core serialises it: field names,
    not aliases (pydantic's serialisation schema, else the adapter's that takes the type).
    """
    declared = (function.options or {}).get("output_schema")
    if isinstance(declared, Mapping):
        return dict(declared)
    # ``@tool`` keeps the decorated function on its body as ``func``, as a
    # ``functools.partial`` does: its return annotation describes the output
    body: Any = function.function
    for _ in range(8):  # bounded: a mock's ``func`` is another mock, for ever
        if not callable(getattr(body, "func", None)):
            break
        body = body.func
    from pydantic import BaseModel, TypeAdapter  # installed with the mcp SDK

    try:
        annotation = typing.get_type_hints(body).get("return")
    except Exception:
        return None  # an annotation that cannot be resolved describes nothing
    if not isinstance(annotation, type) or not (
        dataclasses.is_dataclass(annotation)
        or typing.is_typeddict(annotation)
        or issubclass(annotation, BaseModel)
    ):
        return None
    try:
        schema: dict[str, Any] | None = TypeAdapter(annotation).json_schema(
            mode="serialization", by_alias=False
        )
    except Exception:  # e.g. a typing.TypedDict before Python 3.12
        schema = _adapter_schema(function, annotation)
    return schema if schema is not None and schema.get("type") == "object" else None


def _adapter_schema(function: Function, annotation: type) -> dict[str, Any] | None:
    """The schema of the first adapter of the Function's plugin manager that takes ``annotation``."""
    for adapter in function._pm.adapters():
        try:
            if adapter.accepts(annotation):
                return dict(adapter.json_schema(annotation))
        except Exception:
            continue  # an adapter that cannot describe it: ask the next one
    return None


def structured(content: object) -> dict[str, Any] | None:
    """The JSON object a result's text holds, for ``structuredContent`` (not serialised twice)."""
    if not isinstance(content, str) or not content.startswith("{"):
        return None
    try:
        value = json.loads(content)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
