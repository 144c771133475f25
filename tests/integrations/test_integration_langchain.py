"""toolparse inside LangChain and LangGraph: to_langchain, from_langchain, ToolNode, agents."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

import toolparse as tp
from toolparse.integrations.langchain import ToolparseTool, to_langchain


@tp.tool
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


def call(args: Any, id: str = "call-1", name: str = "add") -> dict[str, Any]:
    return {"type": "tool_call", "id": id, "name": name, "args": args}


# -- to_langchain -------------------------------------------------------------


def test_the_tool_offers_the_exported_definition() -> None:
    tool = to_langchain(add)
    assert isinstance(tool, BaseTool)
    assert tool.function is add
    exported = tp.providers.to_tool(add, "openai")
    assert convert_to_openai_tool(tool) == exported
    assert tool.name == "add"
    assert tool.description == "Add two integers."


def test_a_strict_function_exports_its_strict_schema() -> None:
    @tp.tool(strict=True)
    def find(query: str, limit: int = 5) -> str:
        """Find things."""
        return query

    tool = to_langchain(find)
    strict = tp.providers.to_tool(find, "openai")["function"]["parameters"]
    assert tool.args_schema == strict
    assert (
        to_langchain(find, strict=False).args_schema
        == (tp.providers.to_tool(find, "openai", strict=False)["function"]["parameters"])
    )


def test_an_accepted_call_is_a_tool_message() -> None:
    message = to_langchain(add).invoke(call({"a": 2, "b": 3}))
    assert isinstance(message, ToolMessage)
    assert (message.content, message.tool_call_id, message.status) == ("5", "call-1", "success")


def test_a_rejected_call_is_an_error_tool_message_with_toolparses_message() -> None:
    args = {"a": "two", "bb": 3}
    message = to_langchain(add).invoke(call(args))
    assert isinstance(message, ToolMessage)
    assert message.status == "error"
    assert message.tool_call_id == "call-1"
    assert message.content == add.execute(args).message
    assert 'bb (did you mean "b"?)' in message.content


def test_without_a_tool_call_the_message_is_the_answer() -> None:
    tool = to_langchain(add)
    assert tool.invoke({"a": 1, "b": 2}) == "3"
    assert tool.invoke({"a": 1}) == add.execute({"a": 1}).message


def test_json_text_and_broken_json_are_parsed_by_toolparse() -> None:
    tool = to_langchain(add)
    assert tool.invoke('{"a": 1, "b": 1}') == "2"
    broken = tool.invoke('{"a": 1,')
    assert broken == add.execute('{"a": 1,').message
    assert "not valid JSON" in broken


def test_tool_call_id_and_config_reach_the_body() -> None:
    seen: dict[str, Any] = {}

    @tp.tool
    def where(city: str, ctx: tp.Context) -> str:
        """Say where."""
        seen.update(ctx)
        return city

    message = to_langchain(where).invoke(
        call({"city": "Oslo"}, id="c-9", name="where"), {"metadata": {"user": "ann"}}
    )
    assert message.content == "Oslo"
    assert seen["tool_call_id"] == "c-9"
    assert seen["config"]["metadata"]["user"] == "ann"


def test_ainvoke_runs_async_and_sync_bodies() -> None:
    @tp.tool
    async def slow_add(a: int, b: int) -> str:
        """Add, later."""
        await asyncio.sleep(0)
        return str(a + b)

    async def main() -> tuple[Any, Any, Any]:
        return (
            await to_langchain(slow_add).ainvoke(call({"a": 1, "b": 2}, name="slow_add")),
            await to_langchain(add).ainvoke(call({"a": 4, "b": 4})),
            await to_langchain(slow_add).ainvoke(call({"a": "x", "b": 2}, name="slow_add")),
        )

    ok_async, ok_sync, rejected = asyncio.run(main())
    assert (ok_async.content, ok_async.status) == ("3", "success")
    assert ok_sync.content == "8"
    assert rejected.status == "error"
    assert rejected.content == slow_add.execute({"a": "x", "b": 2}).message


def test_processed_content_is_the_artifact() -> None:
    @tp.tool(response_format="content_and_artifact")
    def lookup(key: str) -> tuple[str, dict[str, str]]:
        """Look a key up."""
        return f"found {key}", {"key": key, "raw": "row-1"}

    message = to_langchain(lookup).invoke(call({"key": "k"}, name="lookup"))
    assert message.content == "found k"
    assert message.artifact == {"key": "k", "raw": "row-1"}


def test_content_parts_become_content_blocks() -> None:
    @tp.tool
    def chart(title: str) -> list[tp.ContentPart]:
        """Draw a chart."""
        return [tp.TextPart(title), tp.ImagePart("aGVsbG8=", "image/png")]

    message = to_langchain(chart).invoke(call({"title": "Sales"}, name="chart"))
    assert message.content == [
        {"type": "text", "text": "Sales"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,aGVsbG8="}},
    ]


def test_return_direct_is_carried() -> None:
    @tp.tool(return_direct=True)
    def final(answer: str) -> str:
        """Give the final answer."""
        return answer

    assert to_langchain(final).return_direct is True
    assert to_langchain(add).return_direct is False


def test_an_interrupt_outside_a_graph_is_a_documented_error_result() -> None:
    @tp.tool
    def send(to: str) -> Any:
        """Send an email."""
        return tp.interrupt(f"Send an email to {to}?", {"to": to})

    message = to_langchain(send).invoke(call({"to": "bob"}, name="send"))
    assert message.status == "error"
    assert "paused for a person to review" in message.content
    assert "Send an email to bob?" in message.content
    assert message.artifact == {"display": "Send an email to bob?", "data": {"to": "bob"}}


def test_a_toolset_or_iterable_gives_a_list() -> None:
    @tp.tool
    def sub(a: int, b: int) -> str:
        """Subtract."""
        return str(a - b)

    tools = to_langchain([add, sub])
    assert [t.name for t in tools] == ["add", "sub"]
    assert all(isinstance(t, ToolparseTool) for t in tools)
    toolset = getattr(tp, "Toolset", None)
    if toolset is not None:
        assert [t.name for t in to_langchain(toolset([add, sub]))] == ["add", "sub"]


def test_bad_sources_are_refused() -> None:
    with pytest.raises(TypeError, match="Function"):
        to_langchain("add")  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="Function"):
        to_langchain([add, object()])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="'add'"):
        to_langchain([add, add])


@settings(max_examples=30, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["a", "b", "c", "aa"]),
        st.one_of(st.integers(-5, 5), st.text(max_size=3), st.none(), st.booleans()),
        max_size=4,
    )
)
def test_the_tool_message_always_says_what_execute_says(args: dict[str, Any]) -> None:
    outcome = add.execute(dict(args))
    message = to_langchain(add).invoke(call(dict(args)))
    assert isinstance(message, ToolMessage)
    if isinstance(outcome, tp.Error):
        assert (message.status, message.content) == ("error", outcome.message)
    else:
        assert (message.status, message.content) == ("success", outcome.value)
