"""LangChain's own standard tool suite (``langchain-tests``) on the bridge, for three kinds of tool."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

pytest.importorskip("langchain_tests")

from langchain_core.tools import BaseTool
from langchain_tests.integration_tests import ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests
from pydantic import BaseModel, Field

import toolparse as tp
from toolparse.integrations.langchain import to_langchain
from toolparse_jsonschema import JsonSchema


class Weather(BaseModel):
    """The weather in a city."""

    city: str
    days: int = Field(default=1, ge=1)


def forecast(args: Weather) -> str:
    return f"{args.city}: sunny for {args.days} day(s)"


@tp.tool
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


EVENT = {
    "type": "object",
    "properties": {"title": {"type": "string"}, "seats": {"type": "integer"}},
    "required": ["title"],
}

WEATHER_ARGS = {"city": "Oslo", "days": 2}
ADD_ARGS = {"a": 2, "b": 3}
EVENT_ARGS = {"title": "standup", "seats": 4}

PYDANTIC = to_langchain(tp.Function("forecast", forecast, args_schema=Weather))
DECORATED = to_langchain(add)
JSON_SCHEMA = to_langchain(
    tp.Function(
        "create_event",
        lambda a: f"created {a['title']}",
        description="Create an event.",
        args_schema=JsonSchema(EVENT),
    )
)


class _Standard:
    """The three tools, each with an example call LangChain's suite invokes.

    The suite's async tests run on pytest-asyncio (marked in this folder's conftest).
    """

    tool_under_test: ClassVar[BaseTool]
    example: ClassVar[dict[str, Any]]

    @property
    def tool_constructor(self) -> BaseTool:
        return self.tool_under_test

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return self.example


class TestPydanticToolUnit(_Standard, ToolsUnitTests):
    tool_under_test = PYDANTIC
    example = WEATHER_ARGS


class TestPydanticToolIntegration(_Standard, ToolsIntegrationTests):
    tool_under_test = PYDANTIC
    example = WEATHER_ARGS


class TestDecoratedToolUnit(_Standard, ToolsUnitTests):
    tool_under_test = DECORATED
    example = ADD_ARGS


class TestDecoratedToolIntegration(_Standard, ToolsIntegrationTests):
    tool_under_test = DECORATED
    example = ADD_ARGS


class TestJsonSchemaToolUnit(_Standard, ToolsUnitTests):
    tool_under_test = JSON_SCHEMA
    example = EVENT_ARGS


class TestJsonSchemaToolIntegration(_Standard, ToolsIntegrationTests):
    tool_under_test = JSON_SCHEMA
    example = EVENT_ARGS


def test_a_plain_result_declares_content_and_an_artifact_comes_in_the_message() -> None:
    @tp.tool(response_format="content_and_artifact")
    def rows() -> tuple[str, list[int]]:
        """Rows."""
        return "2 rows", [1, 2]

    plain = DECORATED.invoke(
        {"type": "tool_call", "id": "c1", "name": "add", "args": {"a": 1, "b": 2}}
    )
    assert DECORATED.response_format == "content"
    assert (plain.content, plain.artifact) == ("3", None)
    tool = to_langchain(rows)
    message = tool.invoke({"type": "tool_call", "id": "c2", "name": "rows", "args": {}})
    assert (message.content, message.artifact, message.tool_call_id) == ("2 rows", [1, 2], "c2")
    assert tool.invoke({}) == "2 rows"  # no call id: the content, as LangChain gives it
