"""The MCP server: the SDK's low-level ``Server`` with toolparse's tool list and calls."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import mcp_types as types
from mcp.server.lowlevel import Server

from .. import messages
from .._pool import in_worker
from ..calls import aexecute_tool_calls
from ..contract import Error, Ok
from ..function import Function
from ..results import ToolCall, ToolResult
from ._output import output_schema, structured_content, structured_of_text
from ._request import CONTEXT_KEY, INTERRUPT_META_KEY, McpRequest

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext

__all__ = ["functions_of", "interrupt_text", "make_server"]


def functions_of(tools: Any) -> list[Function]:
    """The Functions of a Function, a Toolset or an iterable of Functions."""
    if isinstance(tools, Function):
        return [tools]
    found = getattr(tools, "functions", None)
    items: Iterable[Any] = found if found is not None else tools
    try:
        functions = list(items)
    except TypeError:
        raise TypeError(
            f"expected a Function, a Toolset or a list of Functions, got {type(tools).__name__}"
        ) from None
    for item in functions:
        if not isinstance(item, Function):
            raise TypeError(
                f"expected a Function, a Toolset or a list of Functions; found {type(item).__name__} {item!r:.60}"
            )
    return functions


def interrupt_text(name: str | None, display: str) -> str:
    """What the model reads when a tool paused for approval."""
    return (
        f"The tool {name} needs approval before it runs: {display}\n"
        "It did not run. Tell the user what it would do and ask them to approve it; "
        "once they have, the call can be made again."
    )


class _Tool:
    """What the server keeps per tool: the Function, its name and its structured-output flag."""

    __slots__ = ("function", "name", "structured")

    def __init__(self, function: Function, structured: bool) -> None:
        self.function = function
        self.name = function.name  # the call's name (the exported one may be an alias)
        self.structured = structured


def _request(ctx: ServerRequestContext[Any, Any]) -> McpRequest:
    raw = ctx.params
    raw_meta = raw.get("_meta") if raw else None
    # a dict on every transport the SDK has: the abstract check only for anything else
    meta: Mapping[str, Any] = (
        raw_meta if type(raw_meta) is dict or isinstance(raw_meta, Mapping) else {}
    )
    token = meta.get("progressToken") if meta else None
    session = ctx.session
    client = session.client_params
    return McpRequest._of(
        ctx.request_id,
        client.client_info if client is not None else None,
        token if isinstance(token, (str, int)) and token is not True else None,
        meta,
        ctx.protocol_version,
        session,
    )


def make_server(
    tools: Any,
    *,
    name: str = "toolparse",
    version: str | None = None,
    instructions: str | None = None,
    context: Mapping[str, Any] | None = None,
    timeout: float | None = None,
) -> Server[Any]:
    """The SDK's :class:`mcp.server.lowlevel.Server` serving ``tools``.

    :param tools: a Function, a Toolset or a list of Functions.
    :param name: the server name clients show.
    :param version: the server version (default: toolparse's).
    :param instructions: text a client may give its model about these tools.
    :param context: entries every tool call's context starts from; the call
        adds ``tool_call_id`` and ``"mcp"`` (an :class:`McpRequest`).
    :param timeout: seconds per call (see :func:`toolparse.aexecute_tool_calls`).

    The SDK owns the protocol (versions, lifecycle, cancellation, transports);
    every ``tools/call`` runs through :func:`toolparse.aexecute_tool_calls`, so
    a rejected call is answered with toolparse's message and ``isError: true``.
    The tool list, each tool's ``outputSchema`` and the lookup table are built
    here, once.
    """
    from .. import __version__

    # the default manager, looked up when the server is built: the observers
    # aexecute_tool_calls would consult for a call given no manager
    from ..plugins import plugin_manager as default_pm
    from ..providers import get_provider
    from ..providers._mcp import MCPProvider

    functions = functions_of(tools)
    provider = get_provider("mcp", functions[0]._pm if functions else None)
    listed: list[dict[str, Any]] = provider.to_tools(functions)
    table: dict[str, _Tool] = {}
    for fn, tool in zip(functions, listed, strict=True):
        schema = output_schema(fn)
        if schema is not None:
            tool.setdefault("outputSchema", schema)
        # the exported name may be an alias of the Function's: route it back
        table[tool["name"]] = _Tool(fn, "outputSchema" in tool)
    # built once as the SDK's models: they carry the fields each protocol
    # revision requires (cache hints, result type) with their defaults
    tools_result = types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in listed])
    resources = types.ListResourcesResult(resources=[])
    templates = types.ListResourceTemplatesResult(resource_templates=[])
    prompts = types.ListPromptsResult(prompts=[])
    base: dict[str, Any] = dict(context or {})
    # the built-in MCP provider's message for plain text is built here directly;
    # a plugin's own "mcp" provider is always asked
    plain = type(provider) is MCPProvider

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams
    ) -> types.ListToolsResult:
        return tools_result  # one page; the runner dumps it, never mutates it

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> dict[str, Any]:
        entry = table.get(params.name)
        call_id = str(ctx.request_id)
        arguments = params.arguments
        # the caller's entries, the request and the call's id: the context
        # aexecute_tool_calls would build from the first two, built once here
        call_context = {**base, CONTEXT_KEY: _request(ctx), "tool_call_id": call_id}
        name = params.name if entry is None else entry.name
        structured = False
        try:
            if entry is None:
                # unknown: the core's message names the closest tools
                call = ToolCall(call_id, name, arguments)
                (result,) = await aexecute_tool_calls(functions, [call], call_context)
            elif timeout is None and not default_pm().observed:
                # the common case: a known tool, nothing observing, no timeout;
                # what aexecute_tool_calls runs for it, without the batch around it
                fn = entry.function
                structured = entry.structured
                if fn._async:
                    outcome = await fn.aexecute(arguments, call_context)
                    if plain:
                        found = _plain_message(outcome, structured)
                        if found is not None:
                            return found
                    result = ToolResult.from_outcome(
                        ToolCall(call_id, name, arguments), fn, outcome
                    )
                else:
                    # parsed on the loop, the body in a worker thread
                    outcome = await in_worker(fn, arguments, call_context, None, None)
                    result = ToolResult.from_outcome(
                        ToolCall(call_id, name, arguments), fn, outcome
                    )
            else:
                structured = entry.structured
                call = ToolCall(call_id, name, arguments)
                (result,) = await aexecute_tool_calls(
                    [entry.function], [call], call_context, timeout=timeout
                )
        except Exception as exc:
            # execute never raises; should it, the client still gets a result,
            # never the exception's text as a protocol error
            result = ToolResult(call_id, name, messages.exception(exc), is_error=True)
        return _message(provider, result, structured)

    async def no_resources(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams
    ) -> types.ListResourcesResult:
        return resources

    async def no_templates(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams
    ) -> types.ListResourceTemplatesResult:
        return templates

    async def no_prompts(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams
    ) -> types.ListPromptsResult:
        return prompts

    server: Server[Any] = Server(name, version=version or __version__, instructions=instructions)
    # registered one by one: the handlers answer wire dicts, built once or by the provider
    server.add_request_handler("tools/list", types.PaginatedRequestParams, list_tools)
    server.add_request_handler("tools/call", types.CallToolRequestParams, call_tool)
    # empty lists, so clients that ask (the MCP Inspector does) get an answer,
    # and the capabilities say what is served
    server.add_request_handler("resources/list", types.PaginatedRequestParams, no_resources)
    server.add_request_handler(
        "resources/templates/list", types.PaginatedRequestParams, no_templates
    )
    server.add_request_handler("prompts/list", types.PaginatedRequestParams, no_prompts)
    return server


def _message(provider: Any, result: ToolResult, structured: bool) -> dict[str, Any]:
    """The ``CallToolResult`` for one result."""
    if result.is_interrupt:
        text = interrupt_text(result.name, result.text)
        (message,) = provider.to_result_message(
            [ToolResult(result.tool_call_id, result.name, text, is_error=True)]
        )
        interrupt: dict[str, Any] = {"display": result.text}
        if result.interrupt_data is not None:
            try:
                json.dumps(result.interrupt_data)
            except (TypeError, ValueError):
                pass  # data the application keeps: not for the wire
            else:
                interrupt["data"] = result.interrupt_data
        message["_meta"] = {INTERRUPT_META_KEY: interrupt}
        message["resultType"] = "complete"
        return message  # type: ignore[no-any-return]
    (message,) = provider.to_result_message([result])
    message["resultType"] = "complete"  # required from 2026-07-28; older revisions drop it
    if structured and not result.is_error and "structuredContent" not in message:
        found = structured_content(result)
        if found is not None:
            message["structuredContent"] = found
    return message  # type: ignore[no-any-return]


def _plain_message(outcome: Any, structured: bool) -> dict[str, Any] | None:
    """The ``CallToolResult`` of an outcome whose content is non-empty text, else ``None``.

    What the MCP provider answers for a :class:`ToolResult` of that text, with
    no result built in between; anything else (content parts, an interrupt,
    a returned ``ToolResult``) goes the provider's way.
    """
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
    if structured and kind is Ok:
        found = structured_of_text(text)
        if found is not None:
            message["structuredContent"] = found
    return message
