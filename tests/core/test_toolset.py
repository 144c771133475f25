"""Toolset, interrupts and their resolution, and results that are never mutated."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import toolparse as tp
from toolparse import providers

PROVIDERS = ["openai", "openai-responses", "anthropic", "gemini", "mcp"]


def search() -> tp.Function:
    return tp.Function(
        "search",
        lambda a: f"found {a['q']}",
        parameters=[tp.FunctionParam("q", "string", required=True)],
    )


def deploy() -> tp.Function:
    def body(a: Any, ctx: Any) -> Any:
        if not ctx.get("approved"):
            return tp.interrupt("Deploy to production?", {"target": a["target"]})
        return f"deployed {a['target']}"

    return tp.Function(
        "deploy", body, parameters=[tp.FunctionParam("target", "string", required=True)]
    )


def test_a_toolset_is_an_immutable_iterable_of_its_functions() -> None:
    s, d = search(), deploy()
    toolset = tp.Toolset([s, d])
    assert toolset.functions == (s, d)
    assert list(toolset) == [s, d]
    assert len(toolset) == 2
    assert "search" in toolset
    assert "nope" not in toolset
    assert toolset.get("search") is s
    assert toolset.get("nope") is None
    assert toolset.names() == ["search", "deploy"]
    assert repr(toolset) == "Toolset(search, deploy)"
    with pytest.raises(AttributeError, match="immutable"):
        toolset.functions = ()  # type: ignore[misc]
    assert tp.Toolset(toolset).functions == (s, d)  # a toolset of a toolset


def test_definition_errors_name_the_tools() -> None:
    with pytest.raises(tp.FunctionDefinitionError, match="two tools are named 'search'"):
        tp.Toolset([search(), search()])
    with pytest.raises(tp.FunctionDefinitionError, match=r"functions\[1\]: expected a Function"):
        tp.Toolset([search(), "not a tool"])  # type: ignore[list-item]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_to_tools_matches_the_providers_own(provider: str) -> None:
    toolset = tp.Toolset([search(), deploy()])
    assert toolset.to_tools(provider) == providers.to_tools(list(toolset), provider)


def test_to_tools_strict_overrides_every_tool() -> None:
    toolset = tp.Toolset([search()])
    assert "strict" not in toolset.to_tools("openai")[0]["function"]
    assert toolset.to_tools("openai", strict=True)[0]["function"]["strict"] is True
    assert toolset.to_tools("openai-responses", strict=False)[0]["strict"] is False


def test_execute_and_aexecute() -> None:
    toolset = tp.Toolset([search()])
    calls = [tp.ToolCall("1", "search", {"q": "a"}), tp.ToolCall("2", "serch", {})]
    results = toolset.execute(calls)
    assert results[0].content == "found a"
    assert results[1].is_error
    assert 'Did you mean "search"?' in results[1].text
    assert asyncio.run(toolset.aexecute(calls)) == results


def test_execute_tool_calls_takes_a_toolset() -> None:
    toolset = tp.Toolset([search()])
    (result,) = tp.execute_tool_calls(toolset, [tp.ToolCall("1", "search", {"q": "b"})])
    assert result.content == "found b"


def test_two_functions_of_one_name_in_a_list_are_a_clear_error() -> None:
    with pytest.raises(tp.FunctionDefinitionError, match="two tools are named 'search'"):
        tp.execute_tool_calls([search(), search()], [tp.ToolCall("1", "search", {"q": "a"})])
    with pytest.raises(tp.FunctionDefinitionError, match="two tools are named 'search'"):
        asyncio.run(tp.aexecute_tool_calls([search(), search()], []))


# -- interrupts ---------------------------------------------------------------------


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_interrupt_is_refused_until_resolved(provider: str) -> None:
    toolset = tp.Toolset([deploy()])
    (paused,) = toolset.execute([tp.ToolCall("c1", "deploy", {"target": "prod"})])
    assert paused.is_interrupt
    assert paused.interrupt_data == {"target": "prod"}
    with pytest.raises(ValueError, match="is an interrupt, not an answer: resolve it first"):
        toolset.to_result_message([paused], provider)
    with pytest.raises(ValueError, match="resolve it first"):
        providers.get_provider(provider).to_result_message([paused])
    answer = paused.resolve("The user declined.", is_error=True)
    assert paused.is_interrupt  # the interrupt itself is left as it was
    assert (answer.tool_call_id, answer.name, answer.content) == (
        "c1",
        "deploy",
        "The user declined.",
    )
    assert answer.is_error
    assert not answer.is_interrupt
    assert answer.interrupt_data is None
    assert toolset.to_result_message([answer], provider)  # accepted now


def test_re_running_with_the_approval_in_the_context() -> None:
    toolset = tp.Toolset([deploy()])
    call = tp.ToolCall("c1", "deploy", {"target": "prod"})
    (paused,) = toolset.execute([call])
    assert paused.is_interrupt
    (done,) = toolset.execute([call], {"approved": True})
    assert done.content == "deployed prod"
    assert done.tool_call_id == "c1"


def test_resolve_keeps_the_call_and_takes_content_parts() -> None:
    result = tp.ToolResult(
        "c9", "t", "paused", is_interrupt=True, display_text="Waiting", options={"o": 1}
    )
    answer = result.resolve([tp.TextPart("approved")])
    assert answer == tp.ToolResult(
        "c9", "t", [tp.TextPart("approved")], display_text="Waiting", options={"o": 1}
    )


# -- results a tool returned ------------------------------------------------------------


def test_a_tool_result_the_tool_returned_is_never_mutated() -> None:
    shared = tp.ToolResult(None, None, "same object")
    fn = tp.Function("t", lambda a: shared, display_text="Working")
    first, second = tp.execute_tool_calls([fn], [tp.ToolCall("a", "t"), tp.ToolCall("b", "t")])
    assert (first.tool_call_id, second.tool_call_id) == ("a", "b")
    assert first.display_text == "Working"
    assert shared.tool_call_id is None
    assert shared.name is None
    assert shared.display_text is None
    assert first is not shared


def test_the_context_each_tool_sees_is_a_new_mapping() -> None:
    seen: list[Any] = []
    fn = tp.Function("t", lambda a, ctx: seen.append(ctx) or "x", concurrent=True)
    ctx = {"user": "u"}
    tp.execute_tool_calls([fn], [tp.ToolCall("1", "t"), tp.ToolCall("2", "t")], ctx, timeout=5)
    assert sorted(c["tool_call_id"] for c in seen) == ["1", "2"]
    assert ctx == {"user": "u"}


def test_a_call_with_no_name_or_a_non_string_name_is_an_error_result() -> None:
    toolset = tp.Toolset([search()])
    calls = [tp.ToolCall("1", None, {}), tp.ToolCall("2", 42, {}), tp.ToolCall("3", "", {})]  # type: ignore[arg-type]
    results = toolset.execute(calls)
    assert [r.is_error for r in results] == [True, True, True]
    assert results[0].text == "Tool call made without a tool name. Available tools: search."
    assert results[1].text.startswith("Tool call made with a tool name that is not text.")
    for provider in PROVIDERS:
        assert toolset.to_result_message(results, provider)  # never a crash


def test_an_undeclared_key_read_by_the_body_is_called_a_tool_bug() -> None:
    fn = tp.Function(
        "read",
        lambda a: a["verbose"],
        parameters=[tp.FunctionParam("path", "string", required=True)],
    )
    (result,) = tp.execute_tool_calls([fn], [tp.ToolCall("1", "read", {"path": "a"})])
    assert result.text == (
        'ERROR: The tool read the "verbose" argument, which it does not declare (a bug in the '
        "tool, not in this call). Accepted parameters: path. Received: path."
    )
