"""Provider formats: export tools to each LLM API, parse its tool calls, send results back.

Four functions, one vocabulary for every provider::

    tools = to_tools(functions, "openai")               # the request's `tools`
    calls = parse_tool_calls(response, "openai")        # -> list[ToolCall]
    results = toolparse.execute_tool_calls(functions, calls)
    messages.extend(to_result_message(results, "openai"))

Built in: ``"openai"`` (Chat Completions), ``"openai-responses"``, ``"anthropic"``, ``"gemini"``,
``"bedrock"``, ``"ollama"`` and ``"mcp"``; :class:`ToolCallStream` assembles calls from a
streamed response. More through the ``toolparse_register_providers`` hook. This package is itself the
plugin that registers the built-in ones, on a plugin manager the first time it needs that
manager's providers, so the plugin manager never imports it. Importing this module is cheap: each
provider's module loads when it is first needed.
"""

from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..hookspecs import hookimpl
from ..plugins import plugin_manager as default_manager

if TYPE_CHECKING:
    from ..function import Function
    from ..messages._index import NameIndex
    from ..plugins import PluginManager
    from ..results import ToolCall, ToolResult
    from ._base import NameRule
    from ._stream import PendingCall

__all__ = [
    "NameRule",
    "PendingCall",
    "Provider",
    "ToolCallStream",
    "builtin_providers",
    "get_provider",
    "name_rules",
    "parse_tool_calls",
    "registered",
    "to_result_message",
    "to_tool",
    "to_tools",
]


@runtime_checkable
class Provider(Protocol):
    """What a provider format implements (register one with ``toolparse_register_providers``).

    ``name`` is what users pass as ``provider``. The four methods back the module-level functions
    of the same names; ``strict`` is already decided (from ``Function.strict`` or the caller)
    when ``to_tool`` is called.
    """

    name: str
    #: Optional: a provider with a :class:`NameRule` attribute ``name_rule`` has aliased names
    #: mapped back by ``parse_tool_calls(..., functions=)``. Optional: ``stream()`` returns a
    #: reader of one streamed response, for :class:`ToolCallStream` (built-in ones: ``_readers``).

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """One tool definition in the provider's shape."""

    def to_tools(self, functions: Sequence[Function]) -> list[Any]:
        """The value of the request's ``tools`` for these functions."""

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The tool calls in a response (a dict or an SDK object)."""

    def to_result_message(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        """The message(s) that carry these results back, to append to the conversation."""


#: the name this package, the plugin of the built-in providers, is registered under
BUILTIN = "toolparse.providers"
# two threads asking a new manager for its first provider register the built-in ones once
_registering = threading.Lock()


def builtin_providers() -> list[Provider]:
    """The providers toolparse ships (registered through the plugin hook)."""
    from ._anthropic import AnthropicProvider
    from ._bedrock import BedrockProvider
    from ._gemini import GeminiProvider
    from ._mcp import MCPProvider
    from ._ollama import OllamaProvider
    from ._openai import OpenAIProvider, OpenAIResponsesProvider

    return [
        OpenAIProvider(),
        OpenAIResponsesProvider(),
        AnthropicProvider(),
        GeminiProvider(),
        MCPProvider(),
        BedrockProvider(),
        OllamaProvider(),
    ]


def name_rules() -> list[tuple[str, NameRule]]:
    """``(provider, rule)`` for each distinct tool-name rule of the built-in providers.

    Calls made under any of these aliases are routed back to their tool by ``execute_tool_calls``
    and :class:`toolparse.Toolset`. A rule that gives the aliases an earlier one gives (those of
    Responses, Anthropic, Bedrock and Ollama are OpenAI's) is listed once, under the first provider.
    """
    found: dict[tuple[object, ...], tuple[str, NameRule]] = {}
    for p in builtin_providers():  # each has a name_rule (the Provider protocol makes it optional)
        rule = p.name_rule  # type: ignore[attr-defined]
        # (compiled patterns compare and hash by their pattern and flags)
        found.setdefault((rule.pattern, rule.invalid, rule.max_length, rule.first), (p.name, rule))
    return list(found.values())


@hookimpl(trylast=True)
def toolparse_register_providers(register: Callable[[Provider], None]) -> None:
    """Register the built-in providers; a plugin's provider of the same name wins (``trylast``)."""
    for provider in builtin_providers():
        register(provider)


def registered(plugin_manager: PluginManager | None = None) -> dict[str, Provider]:
    """Every provider of ``plugin_manager`` by name, the built-in ones included.

    The first time, this package registers itself on the manager as the plugin
    ``"toolparse.providers"`` (unless that name is blocked), through the hook a third party uses.

    :param plugin_manager: where to look (default: :func:`toolparse.plugin_manager`).
    """
    plugin_manager = default_manager() if plugin_manager is None else plugin_manager
    if plugin_manager.get_plugin(BUILTIN) is None:  # (has_plugin() is this, one call deeper)
        with _registering:
            if not plugin_manager.has_plugin(BUILTIN) and not plugin_manager.is_blocked(BUILTIN):
                plugin_manager.register(sys.modules[__name__], name=BUILTIN)
    return plugin_manager.providers()


def get_provider(name: str, plugin_manager: PluginManager | None = None) -> Provider:
    """The provider registered as ``name``.

    :param name: e.g. ``"openai"``, ``"anthropic"``.
    :param plugin_manager: where to look (default: :func:`toolparse.plugin_manager`).
    :raises ValueError: no provider has that name (the message lists those that do).
    """
    providers = registered(plugin_manager)
    found = providers.get(name)
    if found is None:
        raise ValueError(
            f"unknown provider {name!r}; available: {', '.join(sorted(providers)) or 'none'}"
        )
    return found


def _provider(provider: str | Provider, plugin_manager: PluginManager | None = None) -> Provider:
    return get_provider(provider, plugin_manager) if isinstance(provider, str) else provider


def to_tool(
    function: Function, provider: str | Provider, *, strict: bool | None = None
) -> dict[str, Any]:
    """``function`` as one tool definition in ``provider``'s shape.

    :param strict: ask for strict mode (OpenAI, Anthropic); ``None`` uses ``function.strict``.
        Providers without a strict mode ignore it.
    :raises ValueError: the name breaks the provider's rule, or the schema cannot be expressed
        (the message says which rule).
    """
    found = _provider(provider, function._pm)
    return found.to_tool(function, strict=function.strict if strict is None else bool(strict))


def to_tools(
    functions: Iterable[Function], provider: str | Provider, *, strict: bool | None = None
) -> list[Any]:
    """The value of the request's ``tools`` parameter for ``functions``.

    Each function's own ``strict`` applies, unless ``strict`` says otherwise for all. Names must
    be unique, and so must the names they are exported under (a name that breaks the provider's
    rule gets an alias: see :class:`NameRule`).
    """
    functions = list(functions)
    found = _provider(provider, functions[0]._pm if functions else None)
    if strict is None:
        return found.to_tools(functions)
    return found.to_tools(functions, strict=bool(strict))  # type: ignore[call-arg]


def parse_tool_calls(
    payload: Any, provider: str | Provider, functions: Iterable[Function] | None = None
) -> list[ToolCall]:
    """The tool calls in a provider's response, as :class:`toolparse.ToolCall`.

    Never loses a call: a payload that is not of the provider's shape raises ``ValueError`` saying
    what was expected (``[]`` means a response of that shape without tool calls); every call the
    application must answer comes back, a custom (free-form) tool call with ``kind="custom"`` and
    its raw input text as ``arguments``; server-side tool calls (web search, code execution) are
    skipped. Calls without an id get ids unique within the response. A call without a usable
    name keeps it as it came (``execute_tool_calls`` answers it with an error result).

    :param payload: the response as a dict, or the SDK's own object (anything with
        ``model_dump()``); smaller pieces (a message, a list of calls) work too. Nothing is
        validated here: the arguments go to ``execute_tool_calls`` as they came.
    :param functions: the tools offered (Functions or a Toolset): a call made under the alias a
        tool was exported as gets the tool's own name back.
    """
    found = get_provider(provider) if isinstance(provider, str) else provider
    calls = found.parse_tool_calls(payload)
    _record(calls, found.name)
    if functions is None or not calls or (rule := getattr(found, "name_rule", None)) is None:
        return calls
    names = _exported_names(functions, found.name, rule)
    for call in calls:
        real = names.get(call.name) if isinstance(call.name, str) else None
        if real is not None and real != call.name:
            call.name = real
    return calls


def to_result_message(
    results: Iterable[ToolResult], provider: str | Provider
) -> list[dict[str, Any]]:
    """The message(s) carrying ``results`` back, ready to append to the conversation.

    Always a list (OpenAI: one ``tool`` message per result; Anthropic and Gemini: one ``user``
    message; MCP: one ``CallToolResult`` per result), so
    ``messages.extend(to_result_message(results, provider))`` works for all.

    :raises ValueError: a result is an interrupt (``is_interrupt``): it is not an answer; resolve
        it first (:meth:`toolparse.ToolResult.resolve`).
    """
    from ._base import refuse_interrupts

    results = list(results)
    refuse_interrupts(results)
    return _provider(provider).to_result_message(results)


class ToolCallStream:
    """Tool calls assembled from a streamed response, each as soon as its provider completes it.

    ``feed`` each stream event or chunk (the SDK's object or its dict) as it arrives: it returns
    the calls that event completed; ``close()`` at the end returns those still open. The calls
    equal what :func:`parse_tool_calls` gives for the whole response (the same ids, made-up ones
    included; names routed back from aliases when ``functions`` are given). One per response.

    :param provider: the provider's name (``"openai"``, ``"anthropic"``, ...) or object.
    :param functions: the tools offered (Functions or a Toolset): names are routed back, and
        :meth:`early_problems` can tell an unknown tool or argument before a call is complete.
    :raises ValueError: the provider does not stream tool calls (``"mcp"``).
    """

    __slots__ = ("_calls", "_functions")

    def __init__(
        self, provider: str | Provider, functions: Iterable[Function] | None = None
    ) -> None:
        from ._stream import Assembly

        fns = (
            functions if functions is None or hasattr(functions, "_names_for") else list(functions)
        )
        first = next(iter(fns or ()), None)
        found = _provider(provider, None if first is None else first._pm)
        if not hasattr(found, "stream"):
            raise ValueError(f"provider {found.name!r} has no stream reader (stream())")
        rule = getattr(found, "name_rule", None)
        routes = {} if fns is None or rule is None else _exported_names(fns, found.name, rule)
        self._calls = Assembly(found, lambda items: parse_tool_calls(items, found, fns), routes)
        self._functions = fns

    def feed(self, event: Any) -> list[ToolCall]:
        """Read one stream event or chunk; the calls it completed, in order.

        :raises ValueError: the event is not one of this provider's stream events.
        """
        return self._calls.feed(event)

    def close(self) -> list[ToolCall]:
        """The calls still open at the end (a call cut off, as it was received)."""
        self._calls.finish_all()
        return self._calls.flush()

    @property
    def pending(self) -> list[PendingCall]:
        """The calls still being written (``id``, ``name``, ``arguments_text``), in order."""
        return list(self._calls.open.values())

    def early_problems(self) -> list[str]:
        """What is already certain to be wrong with the calls being written, as the model is told.

        A tool that is not offered; a complete top-level key the tool would refuse (any unknown
        key under ``unknown_arguments="reject"``, one that looks like a typo of a name not sent
        yet under ``"report"``). Empty without ``functions``.
        """
        fns = self._functions
        if fns is None:
            return []
        aliases = [_exported_names(fns, p, rule) for p, rule in name_rules()]
        return self._calls.problems(fns, aliases, lambda call: _callable_names(fns, call))


# -- the names a call may use: what parse_tool_calls and the tool-call loop route back ----------


def _record(calls: Iterable[ToolCall], provider: str) -> None:
    """Note on each call the provider it came from: an unknown tool is answered with its names."""
    for call in calls:
        try:
            call._provider = provider
        except AttributeError:  # a provider plugin's own kind of call may take no new attribute
            pass


def _exported_names(functions: Iterable[Function], provider: str, rule: Any) -> dict[str, str]:
    """Exported name → own name of each tool ``rule`` can name (an alias two share: the first's)."""
    kept = getattr(functions, "_names_for", None)
    if kept is not None:
        return kept(provider, rule)  # type: ignore[no-any-return]
    found: dict[str, str] = {}
    for fn in functions:
        try:
            found.setdefault(rule.alias(fn.name, provider), fn.name)
        except ValueError:
            pass  # cannot be offered to this provider: no name to map back
    return found


def _callable_names(
    functions: Iterable[Function], call: ToolCall, cache: dict[str, Any] | None = None
) -> list[str] | NameIndex:
    """The names the model can call these tools by, for the answer to an unknown tool.

    As exported to the call's provider, else to the first built-in one whose rule the name meets
    (else OpenAI's); ``cache`` (a Toolset's, or a kept list's) holds them per provider.
    """
    from ..messages import MAX_NAMES  # the answer to an unknown tool only
    from ..messages._index import NameIndex

    # a Toolset's (its ToolNames'), or a kept list's
    kept = getattr(getattr(functions, "_names", functions), "_callable", None)
    cache = cache if kept is None else kept
    provider: str | None = getattr(call, "_provider", None)
    rules = dict(name_rules())
    rule = rules.get(provider or "")
    if rule is None and provider is not None:
        try:
            rule = getattr(get_provider(provider), "name_rule", None)
        except ValueError:
            pass
    if rule is None or provider is None:
        # the first (strictest) rule's names run under every provider
        name = call.name if isinstance(call.name, str) else ""
        meeting = [(p, r) for p, r in rules.items() if r.pattern.fullmatch(name)]
        provider, rule = (meeting or list(rules.items()))[0]
    if cache is not None and provider in cache:
        return cache[provider]  # type: ignore[no-any-return]
    tools = functions if hasattr(functions, "_names_for") else list(functions)
    alias = {tool: name for name, tool in _exported_names(tools, provider, rule).items()}
    # a tool the rule cannot name (or whose alias another tool holds) keeps its own name
    names = [alias.get(fn.name, fn.name) for fn in tools]
    big = kept is not None and len(names) > MAX_NAMES
    found: list[str] | NameIndex = NameIndex(names) if big else names
    if cache is not None:
        cache[provider] = found
    return found


def __getattr__(name: str) -> Any:
    # NameRule and PendingCall are public, but their modules cost imports (hashlib, json):
    # they load on first use, like the providers themselves
    module = {"NameRule": "._base", "PendingCall": "._stream"}.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)
