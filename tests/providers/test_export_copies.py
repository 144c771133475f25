"""Exporting a tool never changes the tool: each format works on its own copy of the schema."""

from __future__ import annotations

import copy

import pytest

import toolparse as tp

PROVIDERS = ["openai", "openai-responses", "anthropic", "gemini", "mcp", "bedrock", "ollama"]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_exported_schema_is_a_copy(provider: str) -> None:
    schema = {
        "type": "object",
        "description": "Weather for a city.",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        "required": ["city"],
    }
    fn = tp.Function("weather", lambda a: "ok", parameters_schema=schema)
    before = copy.deepcopy(fn.json_schema())
    assert fn.description == "Weather for a city."  # taken from the schema
    first = tp.providers.to_tool(fn, provider)
    assert "Weather for a city." in str(first)  # said once, as the tool's description
    assert fn.json_schema() == before
    assert schema["description"] == "Weather for a city."
    assert tp.providers.to_tool(fn, provider) == first  # the same export every time
