"""LangChain tools as toolparse Functions: from_langchain."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.tools import BaseTool, StructuredTool
from langchain_core.tools import tool as lc_tool
from pydantic import BaseModel, Field

import toolparse as tp
from toolparse.integrations.langchain import from_langchain, to_langchain


def call(args: Any, id: str = "call-1", name: str = "add") -> dict[str, Any]:
    return {"type": "tool_call", "id": id, "name": name, "args": args}


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
