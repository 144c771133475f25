"""toolparse inside LangChain and LangGraph: to_langchain, from_langchain, ToolNode, agents."""

from __future__ import annotations

import asyncio
import operator
import warnings
from collections.abc import Iterator
from typing import Annotated, Any, TypedDict

import pytest

pytest.importorskip("langchain_core")

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool, StructuredTool
from langchain_core.tools import tool as lc_tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, Field

import toolparse as tp
from toolparse.integrations.langchain import ToolparseTool, from_langchain, to_langchain


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


# -- LangGraph ------------------------------------------------------------------


class ScriptedChat(GenericFakeChatModel):
    """GenericFakeChatModel that accepts tools and records what it was sent."""

    seen: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChat:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def script(*messages: AIMessage) -> Iterator[AIMessage]:
    return iter(messages)


WRONG_THEN_RIGHT = (
    AIMessage("", tool_calls=[{"name": "add", "args": {"a": "two", "b": 3}, "id": "c1"}]),
    AIMessage("", tool_calls=[{"name": "add", "args": {"a": 2, "b": 3}, "id": "c2"}]),
    AIMessage("2 + 3 = 5"),
)


def assert_fixed_in_one_turn(model: ScriptedChat, messages: list[BaseMessage]) -> None:
    tool_messages = [m for m in messages if isinstance(m, ToolMessage)]
    assert [(m.tool_call_id, m.status) for m in tool_messages] == [
        ("c1", "error"),
        ("c2", "success"),
    ]
    assert tool_messages[0].content == add.execute({"a": "two", "b": 3}).message
    assert tool_messages[1].content == "5"
    # the model's second turn was made after reading toolparse's message
    second_turn = model.seen[1]
    assert isinstance(second_turn[-1], ToolMessage)
    assert second_turn[-1].content == tool_messages[0].content
    assert messages[-1].content == "2 + 3 = 5"


def test_a_state_graph_with_tool_node_fixes_a_wrong_call_in_one_turn() -> None:
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    model = ScriptedChat(messages=script(*WRONG_THEN_RIGHT))
    tools = [to_langchain(add)]

    def agent(state: Any) -> dict[str, Any]:
        return {"messages": [model.bind_tools(tools).invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: END})
    graph.add_edge("tools", "agent")
    result = graph.compile().invoke({"messages": [HumanMessage("What is 2 + 3?")]})
    assert_fixed_in_one_turn(model, result["messages"])


def test_create_react_agent_fixes_a_wrong_call_in_one_turn() -> None:
    with warnings.catch_warnings():
        # moved to langchain.agents in LangGraph 1.0; still the prebuilt most graphs use
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            from langgraph.warnings import LangGraphDeprecatedSinceV10
        except ImportError:  # pragma: no cover - LangGraph before 1.0
            pass
        else:
            warnings.simplefilter("ignore", LangGraphDeprecatedSinceV10)
        from langgraph.prebuilt import create_react_agent

        model = ScriptedChat(messages=script(*WRONG_THEN_RIGHT))
        agent = create_react_agent(model, [to_langchain(add)])
    result = agent.invoke({"messages": [HumanMessage("What is 2 + 3?")]})
    assert_fixed_in_one_turn(model, result["messages"])


def test_tool_node_answers_valid_invalid_and_unknown_calls_in_one_message() -> None:
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode

    # a ToolNode runs inside a graph (it needs the graph's runtime)
    graph = StateGraph(MessagesState)
    graph.add_node("tools", ToolNode(to_langchain([add])))
    graph.add_edge(START, "tools")
    node = graph.compile()
    request = AIMessage(
        "",
        tool_calls=[
            {"name": "add", "args": {"a": 1, "b": 2}, "id": "ok"},
            {"name": "add", "args": {"a": 1, "c": 2}, "id": "bad"},
            {"name": "sub", "args": {"a": 1, "b": 2}, "id": "unknown"},
        ],
    )
    out = node.invoke({"messages": [request]})["messages"][1:]
    assert [m.tool_call_id for m in out] == ["ok", "bad", "unknown"]
    assert [m.status for m in out[:2]] == ["success", "error"]
    assert out[0].content == "3"
    assert out[1].content == add.execute({"a": 1, "c": 2}).message
    assert "sub" in out[2].content  # ToolNode's own answer for a tool it does not have


def test_an_interrupt_pauses_the_graph_and_the_resume_value_reaches_the_body() -> None:
    from langgraph.graph import START, StateGraph
    from langgraph.prebuilt import ToolNode

    types = pytest.importorskip("langgraph.types")
    if not hasattr(types, "interrupt"):
        pytest.skip("LangGraph before interrupt() (0.2.57)")
    try:
        from langgraph.checkpoint.memory import InMemorySaver
    except ImportError:  # older LangGraph
        from langgraph.checkpoint.memory import MemorySaver as InMemorySaver

    sent: list[str] = []

    @tp.tool
    def send(to: str, ctx: tp.Context) -> Any:
        """Send an email."""
        answer = ctx.get("resume")
        if answer is None:
            return tp.interrupt(f"Send an email to {to}?", {"to": to})
        if answer != "yes":
            return "The user declined."
        sent.append(to)
        return f"sent to {to}"

    class State(TypedDict):
        messages: Annotated[list[BaseMessage], operator.add]

    graph = StateGraph(State)
    graph.add_node("tools", ToolNode([to_langchain(send)]))
    graph.add_edge(START, "tools")
    app = graph.compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "t1"}}
    request = AIMessage("", tool_calls=[{"name": "send", "args": {"to": "bob"}, "id": "c1"}])
    app.invoke({"messages": [request]}, config)
    # the pending interrupts, as every LangGraph version reports them
    interrupts = [i for task in app.get_state(config).tasks for i in task.interrupts]
    assert interrupts[0].value == {"display": "Send an email to bob?", "data": {"to": "bob"}}
    assert sent == []
    done = app.invoke(types.Command(resume="yes"), config)
    assert sent == ["bob"]
    assert done["messages"][-1].content == "sent to bob"
    assert done["messages"][-1].status == "success"


# -- from_langchain -----------------------------------------------------------


@lc_tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


class SearchArgs(BaseModel):
    query: str = Field(description="What to look for.")
    limit: int = Field(default=10, ge=1, le=50)


calls: list[tuple[str, int]] = []


def search(query: str, limit: int = 10) -> str:
    calls.append((query, limit))
    return f"{limit} results for {query}"


structured = StructuredTool.from_function(
    search, name="search", description="Search the catalogue.", args_schema=SearchArgs
)


def test_from_langchain_on_a_tool_decorated_function() -> None:
    fn = from_langchain(multiply)
    assert isinstance(fn, tp.Function)
    assert (fn.name, fn.description) == ("multiply", "Multiply two integers.")
    assert fn.accepted_param_names() == ["a", "b"]
    assert fn.execute({"a": 6, "b": 7}) == tp.Ok("42")
    rejected = fn.execute({"a": "six", "bb": 7})
    assert isinstance(rejected, tp.Error)
    assert rejected.message.startswith("Invalid arguments for this tool.")
    assert 'bb (did you mean "b"?)' in rejected.message


def test_from_langchain_on_a_structured_tool_with_a_pydantic_schema() -> None:
    fn = from_langchain(structured)
    assert fn.args_schema is not None
    assert fn.required_param_names() == ["query"]
    calls.clear()
    assert fn.execute({"query": "lamps"}) == tp.Ok("10 results for lamps")
    assert calls == [("lamps", 10)]
    rejected = fn.execute({"query": "lamps", "limit": 99})
    assert isinstance(rejected, tp.Error)
    assert "limit" in rejected.message
    assert calls == [("lamps", 10)]  # the tool never ran for the rejected call
    assert tp.providers.to_tool(fn, "openai")["function"]["name"] == "search"


def test_from_langchain_keeps_artifacts_errors_and_the_call_id() -> None:
    @lc_tool(response_format="content_and_artifact")
    def rows(table: str) -> tuple[str, list[int]]:
        """Read rows."""
        return f"3 rows of {table}", [1, 2, 3]

    assert from_langchain(rows).execute({"table": "t"}) == tp.Ok("3 rows of t", [1, 2, 3])

    class Failing(BaseTool):
        name: str = "failing"
        description: str = "Always fails."
        handle_tool_error: Any = True

        def _run(self, what: str) -> str:
            from langchain_core.tools import ToolException

            raise ToolException(f"cannot do {what}")

    failed = from_langchain(Failing()).execute({"what": "that"})
    assert failed == tp.Error("cannot do that")

    seen: list[str] = []

    class Spy(BaseTool):
        name: str = "spy"
        description: str = "Spies."

        def _run(self, text: str) -> str:
            return text

        def invoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
            seen.append(input["id"])
            return super().invoke(input, config, **kwargs)

    assert from_langchain(Spy()).execute({"text": "hi"}, {"tool_call_id": "c-7"}) == tp.Ok("hi")
    assert seen == ["c-7"]


def test_from_langchain_on_an_async_tool_and_the_round_trip() -> None:
    async def fetch(url: str) -> str:
        await asyncio.sleep(0)
        return f"fetched {url}"

    atool = StructuredTool.from_function(coroutine=fetch, name="fetch", description="Fetch.")
    fn = from_langchain(atool)
    assert asyncio.run(fn.aexecute({"url": "x"})) == tp.Ok("fetched x")
    back = to_langchain(from_langchain(multiply))
    assert back.invoke(call({"a": 2, "b": 2}, name="multiply")).content == "4"
    assert back.invoke(call({"a": "2x", "b": 2}, name="multiply")).status == "error"


def test_inside_a_graph_the_body_gets_the_graph_runtime() -> None:
    pytest.importorskip("langgraph.runtime")
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode

    seen: dict[str, Any] = {}

    @tp.tool
    def probe(ctx: tp.Context) -> str:
        """Look around."""
        seen.update(ctx)
        return "ok"

    graph = StateGraph(MessagesState)
    graph.add_node("tools", ToolNode([to_langchain(probe)]))
    graph.add_edge(START, "tools")
    request = AIMessage("", tool_calls=[{"name": "probe", "args": {}, "id": "c1"}])
    graph.compile().invoke({"messages": [request]}, {"configurable": {"user": "ann"}})
    assert seen["tool_call_id"] == "c1"
    assert seen["config"]["configurable"]["user"] == "ann"
    assert seen["runtime"] is not None
    assert hasattr(seen["runtime"], "store")


def test_from_langchain_on_a_tool_with_a_json_schema_uses_the_jsonschema_adapter() -> None:
    pytest.importorskip("toolparse_jsonschema")
    schema = {
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
        "required": ["city"],
    }
    received: list[dict[str, Any]] = []

    def forecast(**arguments: Any) -> str:
        received.append(arguments)
        return f"sunny in {arguments['city']}"

    tool = StructuredTool(
        name="forecast", description="The forecast.", args_schema=schema, func=forecast
    )
    fn = from_langchain(tool)
    assert fn.adapter is not None
    assert fn.adapter.name == "jsonschema"
    assert fn.execute({"city": "Oslo", "days": 2}) == tp.Ok("sunny in Oslo")
    rejected = fn.execute({"city": "Oslo", "days": 0})
    assert isinstance(rejected, tp.Error)
    assert "days" in rejected.message
    assert received == [{"city": "Oslo", "days": 2}]
