"""A schema whose ``allOf`` leads back to itself defines, exports and answers calls."""

from __future__ import annotations

from typing import Any

import pytest

import toolparse as tp

SELF: dict[str, Any] = {"type": "object", "allOf": [{"$ref": "#"}]}
LOOP: dict[str, Any] = {
    "type": "object",
    "properties": {"a": {"type": "string"}},
    "allOf": [{"$ref": "#/$defs/X"}],
    "$defs": {
        "X": {"allOf": [{"$ref": "#/$defs/Y"}], "required": ["a"]},
        "Y": {"allOf": [{"$ref": "#/$defs/X"}], "properties": {"b": {"type": "integer"}}},
    },
}


def test_a_part_that_is_itself_adds_nothing_to_the_merge() -> None:
    # the exports merge allOf into one schema
    alone = tp.Function("f", lambda a: "ok", parameters_schema=SELF)
    assert tp.providers.to_tool(alone, "openai")["function"]["parameters"] == {
        "type": "object",
        "properties": {},
    }
    looped = tp.Function("f", lambda a: "ok", parameters_schema=LOOP)
    merged = tp.providers.to_tool(looped, "gemini")["parameters"]
    assert merged["required"] == ["a"]
    assert set(merged["properties"]) == {"a", "b"}


@pytest.mark.parametrize("schema", [SELF, LOOP], ids=["self", "loop"])
def test_a_cyclic_all_of_defines_and_answers(schema: dict[str, Any]) -> None:
    fn = tp.Function("f", lambda a: "ok", parameters_schema=schema)
    assert fn.execute({"a": "x"}) == tp.Ok("ok")
    for provider in ("openai", "anthropic", "gemini", "mcp"):
        for strict in (False, True):
            # an export, never a RecursionError
            assert tp.providers.to_tool(fn, provider, strict=strict), (provider, strict)
