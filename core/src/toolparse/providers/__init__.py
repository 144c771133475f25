"""Provider formats: export tools to each LLM API, parse its tool calls, send results back.

Four functions, one vocabulary for every provider::

    tools = to_tools(functions, "openai")               # the request's `tools`
    calls = parse_tool_calls(response, "openai")        # -> list[ToolCall]
    results = toolparse.execute_tool_calls(functions, calls)
    messages.extend(to_result_message(results, "openai"))

Built in: ``"openai"`` (Chat Completions), ``"openai-responses"``,
``"anthropic"``, ``"gemini"`` and ``"mcp"``; more through the
``toolparse_register_providers`` hook. Importing this module is cheap: each
provider's module loads when it is first needed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ..function import Function
    from ..plugins import PluginManager
    from ..results import ToolCall, ToolResult

__all__ = [
    "Provider",
    "builtin_providers",
    "get_provider",
    "parse_tool_calls",
    "to_result_message",
    "to_tool",
    "to_tools",
]


@runtime_checkable
class Provider(Protocol):
    """What a provider format implements (register one with ``toolparse_register_providers``).

    ``name`` is what users pass as ``provider``. The four methods back the
    module-level functions of the same names; ``strict`` is already decided
    (from ``Function.strict`` or the caller) when ``to_tool`` is called.
    """

    name: str

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """One tool definition in the provider's shape."""
        ...

    def to_tools(self, functions: Sequence[Function]) -> list[Any]:
        """The value of the request's ``tools`` for these functions."""
        ...

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The tool calls in a response (a dict or an SDK object)."""
        ...

    def to_result_message(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        """The message(s) that carry these results back, to append to the conversation."""
        ...


def builtin_providers() -> list[Provider]:
    """The providers toolparse ships (registered through the plugin hook)."""
    from ._anthropic import AnthropicProvider
    from ._gemini import GeminiProvider
    from ._mcp import MCPProvider
    from ._openai import OpenAIProvider
    from ._openai_responses import OpenAIResponsesProvider

    return [
        OpenAIProvider(),
        OpenAIResponsesProvider(),
        AnthropicProvider(),
        GeminiProvider(),
        MCPProvider(),
    ]


def get_provider(name: str, plugin_manager: PluginManager | None = None) -> Provider:
    """The provider registered as ``name``.

    :param name: e.g. ``"openai"``, ``"anthropic"``.
    :param plugin_manager: where to look (default: :func:`toolparse.plugin_manager`).
    :raises ValueError: no provider has that name (the message lists those that do).
    """
    if plugin_manager is None:
        from ..plugins import plugin_manager as default

        plugin_manager = default()
    providers = plugin_manager.providers()
    found = providers.get(name)
    if found is None:
        raise ValueError(
            f"unknown provider {name!r}; available: {', '.join(sorted(providers)) or 'none'}"
        )
    return found  # type: ignore[no-any-return]


def _provider(provider: str | Provider, plugin_manager: PluginManager | None = None) -> Provider:
    if isinstance(provider, str):
        return get_provider(provider, plugin_manager)
    return provider


def to_tool(
    function: Function, provider: str | Provider, *, strict: bool | None = None
) -> dict[str, Any]:
    """``function`` as one tool definition in ``provider``'s shape.

    :param strict: ask for strict mode (OpenAI, Anthropic); ``None`` uses
        ``function.strict``. Providers without a strict mode ignore it.
    :raises ValueError: the name breaks the provider's rule, or the schema
        cannot be expressed (the message says which rule).
    """
    found = _provider(provider, function._pm)
    return found.to_tool(function, strict=function.strict if strict is None else bool(strict))


def to_tools(functions: Iterable[Function], provider: str | Provider) -> list[Any]:
    """The value of the request's ``tools`` parameter for ``functions``.

    Each function's own ``strict`` applies. Names must be unique.
    """
    functions = list(functions)
    found = _provider(provider, functions[0]._pm if functions else None)
    return found.to_tools(functions)


def parse_tool_calls(payload: Any, provider: str | Provider) -> list[ToolCall]:
    """The tool calls in a provider's response, as :class:`toolparse.ToolCall`.

    :param payload: the response as a dict, or the SDK's own object (anything
        with ``model_dump()``); smaller pieces (a message, a list of calls)
        work too. Nothing is validated here: the arguments go to
        ``execute_tool_calls`` as they came.
    """
    return _provider(provider).parse_tool_calls(payload)


def to_result_message(
    results: Iterable[ToolResult], provider: str | Provider
) -> list[dict[str, Any]]:
    """The message(s) carrying ``results`` back, ready to append to the conversation.

    Always a list (OpenAI: one ``tool`` message per result; Anthropic and
    Gemini: one ``user`` message; MCP: one ``CallToolResult`` per result), so
    ``messages.extend(to_result_message(results, provider))`` works for all.
    """
    return _provider(provider).to_result_message(list(results))
