"""The client side: an MCP server's tools as Functions, validated before the call is sent."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..contract import Outcome, error, interrupt, ok
from ..function import Function
from ..plugins import plugin_manager
from ..results import ContentPart, ImagePart, TextPart
from ._request import INTERRUPT_META_KEY

if TYPE_CHECKING:
    import mcp_types as types

__all__ = ["META_CONTEXT_KEY", "functions_from_session", "outcome_of"]

#: a context key whose mapping is sent as the ``tools/call`` ``_meta`` (e.g. an approval)
META_CONTEXT_KEY = "mcp_meta"


async def _all_tools(session: Any) -> list[types.Tool]:
    import mcp_types as types
    from mcp import Client

    tools: list[types.Tool] = []
    cursor: str | None = None
    for _ in range(1000):  # a server whose cursor never ends cannot hang us
        if isinstance(session, Client):
            page = await session.list_tools(cursor=cursor)
        else:
            page = await session.list_tools(
                params=types.PaginatedRequestParams(cursor=cursor) if cursor else None
            )
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


def outcome_of(result: types.CallToolResult) -> Outcome:
    """A ``CallToolResult`` in toolparse's vocabulary.

    ``isError`` → ``Error(text)``; an error carrying toolparse's interrupt
    ``_meta`` → ``Interrupt(display, data)``; otherwise ``Ok(content)``, with
    ``structuredContent`` as the ``processed_content`` for the application.
    """
    import mcp_types as types

    parts: list[ContentPart] = []
    for block in result.content:
        if isinstance(block, types.TextContent):
            parts.append(TextPart(block.text))
        elif isinstance(block, types.ImageContent):
            parts.append(ImagePart(block.data, block.mime_type))
        elif isinstance(block, types.ResourceLink):
            mime = block.mime_type or "application/octet-stream"
            if mime.startswith("image/"):
                parts.append(ImagePart(str(block.uri), mime, url=True))
            else:
                parts.append(TextPart(str(block.uri)))
        else:
            # audio, embedded resources: the model reads what they are, not their bytes
            parts.append(TextPart(f"[{getattr(block, 'type', 'other')} content]"))
    text_only = all(isinstance(p, TextPart) for p in parts)
    text = "".join(p.text for p in parts if isinstance(p, TextPart))
    if result.is_error:
        paused = (result.meta or {}).get(INTERRUPT_META_KEY)
        if isinstance(paused, Mapping) and isinstance(paused.get("display"), str):
            return interrupt(paused["display"], paused.get("data"))
        return error(text or "The tool failed without saying why.")
    return ok(text if text_only else parts, result.structured_content)


def _body(session: Any, name: str) -> Any:
    async def call_remote(arguments: Any, context: Any) -> Outcome:
        meta = context.get(META_CONTEXT_KEY) if isinstance(context, Mapping) else None
        args = dict(arguments) if isinstance(arguments, Mapping) else {}
        meta = dict(meta) if isinstance(meta, Mapping) else None
        return outcome_of(await session.call_tool(name, args, meta=meta))

    call_remote.__name__ = call_remote.__qualname__ = name
    return call_remote


async def functions_from_session(session: Any, *, concurrent: bool = True) -> list[Function]:
    """The tools of a connected MCP server, as toolparse Functions.

    :param session: an initialized ``mcp.ClientSession`` (or an entered ``mcp.Client``).
    :param concurrent: mark them ``concurrent=True``: calls to a server overlap.

    Each Function's ``args_schema`` is the tool's ``inputSchema``, validated
    by the jsonschema adapter before anything is sent: a wrong call is
    answered locally with toolparse's message and never leaves the process.
    A valid call is sent with ``session.call_tool``; its result maps back to
    ``Ok`` / ``Error`` / ``Interrupt`` (see :func:`outcome_of`). A mapping
    under ``context["mcp_meta"]`` is sent as the request's ``_meta``.

    :raises ImportError: the jsonschema adapter is not installed.
    """
    if plugin_manager().adapter("jsonschema") is None:
        raise ImportError(
            'toolparse.mcp needs the jsonschema adapter to validate remote tools: pip install "toolparse[jsonschema]"'
        )
    return [
        Function(
            tool.name,
            _body(session, tool.name),
            description=tool.description,
            args_schema=dict(tool.input_schema),
            adapter="jsonschema",
            concurrent=concurrent,
        )
        for tool in await _all_tools(session)
    ]
