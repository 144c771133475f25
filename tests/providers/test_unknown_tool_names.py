"""An unknown tool is answered with the names the model can call: those its provider was given.

A tool named ``math.factorial`` is ``math_factorial`` for OpenAI and Anthropic: a model that
misspells it must be told ``math_factorial``, and every name the answer offers must run its tool.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import toolparse as tp

from .payloads import REPLIES
from .test_loop import exported_names

PROVIDERS = list(REPLIES)


def toolset() -> tp.Toolset:
    return tp.Toolset(
        [
            tp.Function("math.factorial", lambda a: "factorial ran"),
            tp.Function("notes/write", lambda a: "write ran"),
            tp.Function("search", lambda a: "search ran"),
        ]
    )


def offered(text: str) -> tuple[str | None, list[str]]:
    """The "Did you mean" name and the available names of an unknown-tool answer."""
    hint = re.search(r'Did you mean "([^"]+)"\?', text)
    names = text.split("Available tools: ", 1)[1].rstrip(".").split(", ")
    return (hint.group(1) if hint else None), names


def runs(tools: Any, name: str) -> str:
    [result] = tp.execute_tool_calls(tools, [tp.ToolCall("1", name, {})])
    assert not result.is_error, result.content
    return str(result.content)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_parsed_call_is_told_the_names_its_provider_was_given(provider: str) -> None:
    tools = toolset()
    given = exported_names(tools.to_tools(provider), provider)
    misspelt = given[0][:-1] + "x"  # math_factorial -> math_factoriax, as that model saw it
    calls = tools.parse_tool_calls(REPLIES[provider]([(misspelt, {})]), provider)
    [result] = tools.execute(calls)
    assert result.is_error
    hint, names = offered(str(result.content))
    assert hint == given[0]
    assert sorted(names) == sorted(given)
    for name in names:
        assert runs(tools, name).endswith("ran")


@pytest.mark.parametrize(
    ("called", "expected"),
    [
        # an OpenAI-shaped name: the names OpenAI gets, which every provider accepts
        ("math_factorl", ["math_factorial", "notes_write", "search"]),
        ("serch", ["math_factorial", "notes_write", "search"]),
        # a dotted name is not OpenAI's: the names of a provider that takes dots
        ("math.factorl", ["math.factorial", "notes_write", "search"]),
        ("not a name", ["math_factorial", "notes_write", "search"]),
    ],
)
def test_a_call_made_by_hand_is_told_names_that_fit_it(called: str, expected: list[str]) -> None:
    for tools in (toolset(), list(toolset())):
        [result] = tp.execute_tool_calls(tools, [tp.ToolCall("1", called, {})])
        hint, names = offered(str(result.content))
        assert sorted(names) == expected
        if hint is not None:
            assert hint in expected
        for name in names:
            assert runs(tools, name).endswith("ran")


def test_names_without_aliases_are_as_they_are() -> None:
    tools = [tp.Function("lookup", lambda a: "x"), tp.Function("search", lambda a: "y")]
    [result] = tp.execute_tool_calls(tools, [tp.ToolCall("1", "serch", {})])
    assert result.content == (
        'Tool call made to serch but tool not found. Did you mean "search"? '
        "Available tools: lookup, search."
    )


def test_a_recorded_provider_that_is_unknown_falls_back_to_the_call_name() -> None:
    call = tp.ToolCall("1", "math.factorl", {})
    call._provider = "no-such-provider"
    [result] = tp.execute_tool_calls(toolset(), [call])
    hint, names = offered(str(result.content))
    assert hint == "math.factorial"
    assert sorted(names) == ["math.factorial", "notes_write", "search"]


@pytest.mark.parametrize("provider", ["openai", "gemini"])
def test_checked_calls_are_told_the_names_of_their_format(provider: str) -> None:
    from toolparse.checking import check_calls

    tools = list(toolset())
    given = exported_names(tp.providers.to_tools(tools, provider), provider)
    record = REPLIES[provider]([(given[0][:-1] + "x", {})]).model_dump(mode="json")
    [check] = check_calls(tools, [record], format=provider)
    assert not check.accepted
    hint, names = offered(str(check.message))
    assert hint == given[0]
    assert sorted(names) == sorted(given)
