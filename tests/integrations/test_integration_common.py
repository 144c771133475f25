"""What the bridges share: no framework imported by the core, names, results."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import pytest

import toolparse as tp
from toolparse.integrations._common import exports, functions_of, is_async, reply

FRAMEWORKS = ("langchain_core", "langgraph", "pydantic_ai", "agents")


def test_importing_toolparse_and_the_package_imports_no_framework() -> None:
    code = (
        "import sys, toolparse, toolparse.integrations, toolparse.integrations._common\n"
        f"loaded = [m for m in {FRAMEWORKS!r} if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


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


def test_a_dotted_name_is_exported_under_its_alias() -> None:
    [exported] = exports([factorial_tool()], None)
    assert exported.name == "math_factorial"
    assert exported.description == "The factorial of n."


def test_two_names_sharing_an_alias_are_refused() -> None:
    other = tp.Function("math_factorial", lambda a: "x", parameters_schema={"type": "object"})
    with pytest.raises(ValueError, match=r"'math\.factorial' and 'math_factorial'"):
        exports([factorial_tool(), other], None)


def test_functions_of_accepts_functions_toolsets_and_iterables() -> None:
    fn = factorial_tool()
    assert functions_of(fn) == ([fn], True)
    assert functions_of((fn,)) == ([fn], False)
    assert functions_of(tp.Toolset([fn])) == ([fn], False)
    for bad in ("name", {"a": fn}, 3):
        with pytest.raises(TypeError):
            functions_of(bad)


def test_is_async_looks_at_the_body_and_the_parser() -> None:
    async def abody(arguments: Any) -> str:
        return "x"

    async def aparse(arguments: Any) -> Any:
        return tp.ok()

    schema = {"type": "object", "properties": {}}
    assert is_async(tp.Function("a", abody, parameters_schema=schema))
    assert is_async(tp.Function("b", lambda a: "x", parse_args=aparse))
    assert not is_async(tp.Function("c", lambda a: "x", parameters_schema=schema))


def test_reply_reads_results_a_body_built_itself() -> None:
    assert reply(tp.Ok("text", {"raw": 1})) == ("ok", "text", {"raw": 1})
    assert reply(tp.Error("wrong")) == ("error", "wrong", None)
    assert reply(tp.Interrupt("Approve?", {"id": 1})) == ("interrupt", "Approve?", {"id": 1})
    built = tp.ToolResult("c1", "t", [tp.TextPart("hi")], processed_content=5)
    assert reply(tp.Ok(built)) == ("ok", [tp.TextPart("hi")], 5)
    failed = tp.ToolResult("c1", "t", "no", is_error=True)
    assert reply(tp.Ok(failed)) == ("error", "no", None)
    paused = tp.ToolResult("c1", "t", "Approve?", is_interrupt=True, interrupt_data=7)
    assert reply(tp.Ok(paused)) == ("interrupt", "Approve?", 7)


def test_a_dotted_name_routes_back_in_langchain() -> None:
    pytest.importorskip("langchain_core")
    from toolparse.integrations.langchain import to_langchain

    tool = to_langchain(factorial_tool())
    assert tool.name == "math_factorial"
    message = tool.invoke({"type": "tool_call", "id": "c1", "name": tool.name, "args": {"n": 5}})
    assert message.content == "120"


def test_a_dotted_name_routes_back_in_pydantic_ai() -> None:
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import FunctionModel

    from toolparse.integrations.pydantic_ai import to_pydantic_ai

    steps: list[Any] = [
        [ToolCallPart("math_factorial", {"n": 4}, tool_call_id="c1")],
        [TextPart("24")],
    ]
    model = FunctionModel(lambda messages, info: ModelResponse(parts=steps.pop(0)))
    tool = to_pydantic_ai(factorial_tool())
    assert tool.name == "math_factorial"
    result = asyncio.run(Agent(model, tools=[tool]).run("4!"))
    returns = [
        p
        for m in result.all_messages()
        for p in m.parts
        if getattr(p, "tool_call_id", None) == "c1"
    ]
    assert returns[-1].content == "24"


def test_a_dotted_name_routes_back_in_openai_agents() -> None:
    pytest.importorskip("agents")
    from agents.tool_context import ToolContext

    from toolparse.integrations.openai_agents import to_openai_agents

    tool = to_openai_agents(factorial_tool())
    assert tool.name == "math_factorial"
    try:
        ctx = ToolContext(
            context=None, tool_name=tool.name, tool_call_id="c1", tool_arguments='{"n": 3}'
        )
    except TypeError:  # SDKs before tool_arguments on the context
        ctx = ToolContext(context=None, tool_name=tool.name, tool_call_id="c1")
    assert asyncio.run(tool.on_invoke_tool(ctx, '{"n": 3}')) == "6"
