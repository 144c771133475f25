"""What every bridge does alike: no framework imported by the core, sources, names, results."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest

import toolparse as tp

FRAMEWORKS = ("langchain_core", "langgraph", "pydantic_ai", "agents")


def test_importing_toolparse_and_the_package_imports_no_framework() -> None:
    code = (
        "import sys, toolparse, toolparse.integrations\n"
        f"loaded = [m for m in {FRAMEWORKS!r} if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _langchain() -> Callable[..., Any]:
    pytest.importorskip("langchain_core")
    from toolparse.integrations.langchain import to_langchain

    return to_langchain


def _pydantic_ai() -> Callable[..., Any]:
    pytest.importorskip("pydantic_ai")
    from toolparse.integrations.pydantic_ai import to_pydantic_ai

    def bridge(source: Any, **kwargs: Any) -> Any:
        made = to_pydantic_ai(source, **kwargs)
        return made if isinstance(source, tp.Function) else list(made.tools.values())

    return bridge


def _openai_agents() -> Callable[..., Any]:
    pytest.importorskip("agents")
    from toolparse.integrations.openai_agents import to_openai_agents

    return to_openai_agents


BRIDGES = {"langchain": _langchain, "pydantic_ai": _pydantic_ai, "openai_agents": _openai_agents}


@pytest.fixture(params=list(BRIDGES))
def bridge(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """A bridge as ``bridge(source) -> tool or list of tools``."""
    return BRIDGES[request.param]()


def factorial_tool() -> tp.Function:
    def body(arguments: Any) -> str:
        n = arguments["n"]
        out = 1
        for i in range(2, n + 1):
            out *= i
        return str(out)

    return tp.Function(
        "math.factorial",
        body,
        description="The factorial of n.",
        parameters=[tp.FunctionParam("n", "integer", required=True)],
    )


def test_a_dotted_name_is_exported_under_its_alias(bridge: Callable[..., Any]) -> None:
    tool = bridge(factorial_tool())
    assert tool.name == "math_factorial"
    assert tool.description == "The factorial of n."


def test_two_names_sharing_an_alias_are_refused(bridge: Callable[..., Any]) -> None:
    other = tp.Function("math_factorial", lambda a: "x", parameters_schema={"type": "object"})
    with pytest.raises(ValueError, match=r"'math\.factorial' and 'math_factorial'"):
        bridge([factorial_tool(), other])


def test_functions_toolsets_and_iterables_are_taken_anything_else_refused(
    bridge: Callable[..., Any],
) -> None:
    fn = factorial_tool()
    assert bridge(fn).name == "math_factorial"
    assert [t.name for t in bridge((fn,))] == ["math_factorial"]
    assert [t.name for t in bridge(tp.Toolset([fn]))] == ["math_factorial"]
    for bad in ("name", {"a": fn}, 3, [fn, "name"]):
        with pytest.raises(TypeError, match="expected a Function, a Toolset or a list"):
            bridge(bad)
    with pytest.raises(ValueError, match=r"two tools are named 'math\.factorial'"):
        bridge([fn, fn])


def test_a_dotted_name_routes_back_in_langchain() -> None:
    tool = _langchain()(factorial_tool())
    message = tool.invoke({"type": "tool_call", "id": "c1", "name": tool.name, "args": {"n": 5}})
    assert message.content == "120"


def test_a_dotted_name_routes_back_in_pydantic_ai() -> None:
    tool = _pydantic_ai()(factorial_tool())
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import FunctionModel

    steps: list[Any] = [
        [ToolCallPart("math_factorial", {"n": 4}, tool_call_id="c1")],
        [TextPart("24")],
    ]
    model = FunctionModel(lambda messages, info: ModelResponse(parts=steps.pop(0)))
    result = asyncio.run(Agent(model, tools=[tool]).run("4!"))
    returns = [
        p
        for m in result.all_messages()
        for p in m.parts
        if getattr(p, "tool_call_id", None) == "c1"
    ]
    assert returns[-1].content == "24"


def agents_invoke(tool: Any, arguments: str) -> Any:
    """What an OpenAI Agents SDK tool answers for ``arguments`` (JSON text)."""
    from agents.tool_context import ToolContext

    try:
        ctx = ToolContext(
            context=None, tool_name=tool.name, tool_call_id="c1", tool_arguments=arguments
        )
    except TypeError:  # SDKs before tool_arguments on the context
        ctx = ToolContext(context=None, tool_name=tool.name, tool_call_id="c1")
    return asyncio.run(tool.on_invoke_tool(ctx, arguments))


def test_a_dotted_name_routes_back_in_openai_agents() -> None:
    assert agents_invoke(_openai_agents()(factorial_tool()), '{"n": 3}') == "6"


def test_an_async_body_runs_on_the_loop_a_sync_one_off_it() -> None:
    to_openai_agents = _openai_agents()
    loop_thread = threading.get_ident()

    def sync_where(arguments: Any) -> str:
        return "loop" if threading.get_ident() == loop_thread else "worker"

    async def async_where(arguments: Any) -> str:
        return "loop" if threading.get_ident() == loop_thread else "worker"

    async def aparse(arguments: Any) -> Any:
        return tp.ok()

    schema = {"type": "object", "properties": {}}
    sync_tool = tp.Function("s", sync_where, parameters_schema=schema)
    async_tool = tp.Function("a", async_where, parameters_schema=schema)
    async_parser = tp.Function("p", async_where, parse_args=aparse)
    assert agents_invoke(to_openai_agents(sync_tool), "{}") == "worker"
    assert agents_invoke(to_openai_agents(async_tool), "{}") == "loop"
    assert agents_invoke(to_openai_agents(async_parser), "{}") == "loop"


def test_a_result_the_body_built_itself_is_read_as_it_says() -> None:
    to_langchain = _langchain()
    built = {
        "parts": tp.ToolResult("x", "t", [tp.TextPart("hi")], processed_content=5),
        "failed": tp.ToolResult("x", "t", "no", is_error=True),
        "paused": tp.ToolResult("x", "t", "Approve?", is_interrupt=True, interrupt_data=7),
    }

    def answer(kind: str) -> Any:
        schema = {"type": "object", "properties": {}}
        tool = to_langchain(tp.Function(kind, lambda a: built[kind], parameters_schema=schema))
        return tool.invoke({"type": "tool_call", "id": "c1", "name": kind, "args": {}})

    parts = answer("parts")
    assert (parts.status, parts.content, parts.artifact) == (
        "success",
        [{"type": "text", "text": "hi"}],
        5,
    )
    failed = answer("failed")
    assert (failed.status, failed.content, failed.artifact) == ("error", "no", None)
    paused = answer("paused")
    assert paused.status == "error"
    assert "paused for a person to review this call (Approve?)" in paused.content
    assert paused.artifact == {"display": "Approve?", "data": 7}
