"""toolparse inside LangGraph: StateGraph with ToolNode, create_react_agent, interrupts."""

from __future__ import annotations

import operator
import warnings
from collections.abc import Iterator
from typing import Annotated, Any, TypedDict

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("langgraph")

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from pydantic import Field

import toolparse as tp
from toolparse.integrations.langchain import to_langchain


@tp.tool
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


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
