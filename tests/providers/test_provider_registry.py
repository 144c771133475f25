from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import pytest

import toolparse as tp
from toolparse import providers

from .cases import plan_trip

BUILTIN = ["anthropic", "bedrock", "gemini", "mcp", "ollama", "openai", "openai-responses"]


def test_builtin_providers_are_registered_through_the_hook(pm: tp.PluginManager) -> None:
    assert sorted(p.name for p in providers.builtin_providers()) == BUILTIN
    assert pm.providers() == {}  # the providers package registers them on first use
    assert sorted(providers.registered(pm)) == BUILTIN
    assert pm.get_plugin(providers.BUILTIN) is providers
    assert sorted(pm.providers()) == BUILTIN
    for name in BUILTIN:
        found = providers.get_provider(name, pm)
        assert found.name == name
        assert isinstance(found, providers.Provider)


def test_an_unknown_provider_lists_the_available_ones(pm: tp.PluginManager) -> None:
    with pytest.raises(
        ValueError,
        match="unknown provider 'cohere'; available: anthropic, bedrock, gemini, mcp, ollama, "
        "openai, openai-responses",
    ):
        providers.get_provider("cohere", pm)
    with pytest.raises(ValueError, match="unknown provider"):
        providers.to_tool(plan_trip(), "cohere")


class Echo:
    """A third-party provider: the tool as a plain dict, calls as (id, name, args) triples."""

    name = "echo"

    def to_tool(self, function: tp.Function, *, strict: bool) -> dict[str, Any]:
        return {"name": function.name, "strict": strict}

    def to_tools(self, functions: Sequence[tp.Function]) -> list[Any]:
        return [self.to_tool(f, strict=f.strict) for f in functions]

    def parse_tool_calls(self, payload: Any) -> list[tp.ToolCall]:
        return [tp.ToolCall(*call) for call in payload]

    def to_result_message(self, results: Sequence[tp.ToolResult]) -> list[dict[str, Any]]:
        return [{"id": r.tool_call_id, "text": r.text} for r in results]


class EchoPlugin:
    @tp.hookimpl
    def toolparse_register_providers(self, register: Any) -> None:
        register(Echo())


def test_a_plugin_adds_a_provider(pm: tp.PluginManager) -> None:
    pm.register(EchoPlugin())
    echo = providers.get_provider("echo", pm)
    assert isinstance(echo, providers.Provider)
    assert providers.to_tool(plan_trip(), echo) == {"name": "plan_trip", "strict": False}
    assert providers.to_tool(plan_trip(), echo, strict=True) == {
        "name": "plan_trip",
        "strict": True,
    }
    assert providers.to_tools([plan_trip(strict=True)], echo) == [
        {"name": "plan_trip", "strict": True}
    ]
    calls = providers.parse_tool_calls([("1", "plan_trip", {"city": "X"})], echo)
    assert calls == [tp.ToolCall("1", "plan_trip", {"city": "X"})]
    results = tp.execute_tool_calls([plan_trip()], calls)
    assert providers.to_result_message(results, echo)[0]["id"] == "1"


def test_the_default_plugin_manager_is_used_by_name() -> None:
    assert providers.to_tool(plan_trip(), "openai")["type"] == "function"
    assert providers.to_tools([], "openai") == []


def test_importing_providers_is_cheap() -> None:
    code = (
        "import sys, toolparse.providers as p\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in "
        "('openai', 'anthropic', 'google', 'mcp', 'pydantic', 'jsonschema')"
        " or m.startswith('toolparse.providers._')]\n"
        "assert not heavy, heavy\n"
        "assert callable(p.to_tool)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_later_plugin_replaces_a_builtin_provider(pm: tp.PluginManager) -> None:
    class Mine(Echo):
        name = "openai"

    class Override:
        @tp.hookimpl
        def toolparse_register_providers(self, register: Any) -> None:
            register(Mine())

    pm.register(Override())
    assert isinstance(providers.get_provider("openai", pm), Mine)
    # registered before the built-in ones, or after: the plugin's provider wins
    later = tp.make_plugin_manager(load_entry_points=False)
    assert not isinstance(providers.get_provider("openai", later), Mine)
    later.register(Override())
    assert isinstance(providers.get_provider("openai", later), Mine)


def test_blocking_the_builtin_providers_leaves_a_plugins_own(pm: tp.PluginManager) -> None:
    pm.set_blocked(providers.BUILTIN)
    pm.register(EchoPlugin())
    assert sorted(providers.registered(pm)) == ["echo"]


def test_name_rules_lists_each_distinct_rule_once_and_every_alias_is_one_of_theirs() -> None:
    rules = providers.name_rules()
    assert len({(r.pattern, r.invalid, r.max_length, r.first) for _, r in rules}) == len(rules)
    # every built-in provider's alias of a name is the alias some listed rule gives it
    listed = {rule.alias("a.b c" * 20) for _, rule in rules}
    for provider in providers.builtin_providers():
        assert provider.name_rule.alias("a.b c" * 20) in listed  # type: ignore[attr-defined]
