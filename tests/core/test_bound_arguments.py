"""Bound arguments (a ``functools.partial``'s) are the application's: never in a schema, never the model's to set."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp

SECRET = "sk-SECRET-0123456789"
PROVIDERS = ["openai", "openai-responses", "anthropic", "gemini", "mcp"]


def search(query: str, limit: int = 5, api_key: str = "none") -> str:
    """Search the web."""
    return f"{query}:{limit}:{api_key}"


async def asearch(query: str, api_key: str = "none") -> str:
    return f"{query}:{api_key}"


def search_body(arguments: Mapping[str, Any], api_key: str = "none") -> str:
    return f"{arguments['query']}:{api_key}"


def _tools() -> list[tp.Function]:
    return [
        tp.tool("search", functools.partial(search, api_key=SECRET)),
        tp.tool("search_async", functools.partial(asearch, api_key=SECRET)),
        tp.Function(
            "search_fn",
            functools.partial(search_body, api_key=SECRET),
            parameters=[tp.FunctionParam("query", "string", required=True)],
        ),
        tp.Function(
            "search_schema",
            functools.partial(search_body, api_key=SECRET),
            parameters_schema={
                "type": "object",
                "properties": {"query": {"type": "string"}, "api_key": {"type": "string"}},
                "required": ["query", "api_key"],
            },
        ),
    ]


@pytest.mark.parametrize("fn", _tools(), ids=lambda f: f.name)
def test_bound_name_is_not_in_the_schema_nor_accepted(fn: tp.Function) -> None:
    schema = fn.json_schema()
    assert "api_key" not in schema["properties"]
    assert "api_key" not in schema.get("required", [])
    assert "api_key" not in fn.accepted_param_names()
    assert "api_key" not in fn.required_param_names()
    assert SECRET not in json.dumps(schema)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("fn", _tools(), ids=lambda f: f.name)
def test_secret_is_absent_from_every_provider_export(fn: tp.Function, provider: str) -> None:
    for strict in (None, True):
        exported = tp.providers.to_tool(fn, provider, strict=strict)
        text = json.dumps(exported, default=repr)
        assert SECRET not in text
        assert "api_key" not in text


def test_openai_export_is_a_valid_sdk_tool() -> None:
    pytest.importorskip("openai")
    from openai.types.chat import ChatCompletionToolParam
    from pydantic import TypeAdapter

    fn = _tools()[0]
    tool = TypeAdapter(ChatCompletionToolParam).validate_python(tp.providers.to_tool(fn, "openai"))
    assert "api_key" not in tool["function"]["parameters"]["properties"]  # type: ignore[typeddict-item]


@pytest.mark.parametrize("fn", _tools(), ids=lambda f: f.name)
@pytest.mark.parametrize("policy", ["report", "reject", "ignore"])
def test_overriding_the_bound_argument_is_rejected(fn: tp.Function, policy: str) -> None:
    fn = fn.replace(unknown_arguments=policy)
    result = fn.execute({"query": "q", "api_key": "mine"})
    assert isinstance(result, tp.Error)
    assert "Unrecognized parameters: api_key" in result.message
    assert "mine" not in result.message
    assert SECRET not in result.message
    assert isinstance(fn.parse_arguments({"query": "q", "api_key": "mine"}), tp.Error)


@pytest.mark.parametrize("fn", _tools(), ids=lambda f: f.name)
def test_the_body_gets_the_bound_value(fn: tp.Function) -> None:
    result = fn.execute({"query": "q"})
    assert isinstance(result, tp.Ok)
    assert SECRET in result.value
    assert "mine" not in result.value


def test_required_message_comes_first_when_a_bound_name_is_sent() -> None:
    fn = _tools()[0]
    result = fn.execute({"api_key": "mine"})
    assert isinstance(result, tp.Error)
    assert result.message.startswith("Missing required parameters for this tool.")
    assert "Unrecognized parameters: api_key" in result.message


def test_positionally_bound_parameters_are_removed() -> None:
    def lookup(client: str, query: str) -> str:
        return f"{client}/{query}"

    fn = tp.tool("lookup", functools.partial(lookup, SECRET))
    assert fn.accepted_param_names() == ["query"]
    assert fn.execute({"query": "q"}) == tp.Ok(f"{SECRET}/q")
    assert isinstance(fn.execute({"query": "q", "client": "x"}), tp.Error)


@settings(max_examples=40, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["query", "limit", "api_key", "qeury", "apikey"]),
        st.one_of(
            st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=2)
        ),
        max_size=4,
    )
)
def test_the_secret_is_in_no_message(arguments: dict[str, Any]) -> None:
    for fn in _tools():
        result = fn.execute(arguments)
        if isinstance(result, tp.Error):
            assert SECRET not in result.message
        if "api_key" in arguments:
            assert isinstance(result, tp.Error)


def test_a_callable_without_a_readable_signature_is_a_definition_error() -> None:
    with pytest.raises(tp.FunctionDefinitionError, match="no signature Python can read"):
        tp.Function("biggest", max, parameters=[tp.FunctionParam("x", "integer")])
    with pytest.raises(tp.FunctionDefinitionError, match="no signature Python can read"):
        tp.tool("biggest", max)
