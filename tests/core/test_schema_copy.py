"""A raw ``parameters_schema`` is copied and checked at definition: any depth, cycles, odd values
and keywords whose values are of the wrong kind are definition errors naming the problem, never a
RecursionError or a crash later; a schema up to 100 levels works everywhere (definition, execute,
every export)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

import toolparse as tp
from toolparse import providers
from toolparse.function._raw_schema import copy_schema
from toolparse.nulls import MAX_DEPTH

PROVIDERS = ["openai", "openai-responses", "anthropic", "gemini", "mcp"]


def body(arguments: Any) -> str:
    return "ok"


def nested_properties(levels: int) -> dict[str, Any]:
    """``levels`` objects inside each other: each one level deeper, as the exports count."""
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


def nested_items(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "array", "items": schema}
    return {"type": "object", "properties": {"a": schema}}


def nested_any_of(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"anyOf": [schema, {"type": "null"}]}
    return {"type": "object", "properties": {"a": schema}}


def definition_error(schema: Any) -> str:
    with pytest.raises(tp.FunctionDefinitionError) as info:
        tp.Function("deep", body, parameters_schema=schema)
    [(field, message)] = info.value.errors
    assert field == "parameters_schema"
    return message


@pytest.mark.parametrize("levels", [1_000, 10_000])
def test_a_thousand_deep_schema_is_a_definition_error(levels: int) -> None:
    message = definition_error(nested_properties(levels))
    assert f"is nested deeper than {MAX_DEPTH} levels" in message
    assert "properties.a" in message  # where it happened, shortened
    assert len(message) < 200


def test_the_depth_check_needs_no_stack() -> None:
    # a thread with a small stack (as in a worker pool) defines it too
    found: list[object] = []

    def define() -> None:
        try:
            tp.Function("deep", body, parameters_schema=nested_properties(5_000))
        except tp.FunctionDefinitionError as exc:
            found.append(exc)

    thread = threading.Thread(target=define)
    thread.start()
    thread.join()
    assert len(found) == 1


@pytest.mark.parametrize("shape", [nested_properties, nested_items, nested_any_of])
def test_the_deepest_accepted_schema_works_everywhere(shape: Any) -> None:
    levels = 1
    refused = ""
    while not refused:
        try:
            tp.Function("deep", body, parameters_schema=shape(levels + 1))
        except tp.FunctionDefinitionError as exc:
            refused = str(exc)
        else:
            levels += 1
    assert "nested deeper" in refused
    assert levels >= 49  # 49 anyOf levels are 98 levels as the exports count them
    fn = tp.Function("deep", body, parameters_schema=shape(levels))
    assert fn.json_schema() == shape(levels)
    assert fn.execute({"a": None}) == tp.Ok("ok")
    for provider in PROVIDERS:
        assert isinstance(providers.to_tool(fn, provider, strict=False), dict)
        said = ""
        try:
            providers.to_tool(fn, provider, strict=True)
        except ValueError as exc:  # a provider's own strict limit, said as such
            said = str(exc)
        assert "nested deeper" not in said
        assert not said or "at most" in said


def test_a_schema_that_contains_itself_is_a_definition_error() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    schema["properties"]["me"] = schema
    assert "contains itself (at properties.me)" in definition_error(schema)
    items: list[Any] = []
    items.append(items)
    assert "contains itself" in definition_error({"type": "object", "enum": items})


def test_a_value_that_cannot_be_copied_is_a_definition_error() -> None:
    lock = threading.Lock()
    message = definition_error({"type": "object", "properties": {"a": {"default": lock}}})
    assert "cannot be copied" in message
    assert "properties.a.default" in message


def test_the_copy_keeps_types_and_shared_parts() -> None:
    shared = {"type": "string"}
    pair = ("x", "y")
    schema = {
        "type": "object",
        "properties": {"a": shared, "b": shared, "c": {"enum": pair}},
        "required": ("a",),
    }
    fn = tp.Function("t", body, parameters_schema=schema)
    copied = fn._schema
    assert copied == schema
    assert copied is not schema
    assert copied["properties"]["a"] is copied["properties"]["b"]  # copied once
    assert copied["properties"]["a"] is not shared
    assert copied["properties"]["c"]["enum"] == pair
    assert isinstance(copied["required"], tuple)
    shared["type"] = "integer"  # the definition does not see later changes
    assert fn.json_schema()["properties"]["a"] == {"type": "string"}


def test_many_shared_parts_copy_in_linear_time() -> None:
    # 40 levels, each naming the next twice: 2**40 paths, 41 objects
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(40):
        schema = {"type": "object", "properties": {"a": schema, "b": schema}}
    copied = copy_schema(schema)
    assert copied["properties"]["a"] is copied["properties"]["b"]
    node, depth = copied, 0
    while "properties" in node:
        node, depth = node["properties"]["a"], depth + 1
    assert depth == 40


@pytest.mark.parametrize(
    ("schema", "said"),
    [
        ({"properties": {"a": {"required": 1}}}, "a.required: must be a list of names (text)"),
        ({"properties": {"a": {"required": ["x", 2]}}}, "a.required: must be a list of names"),
        ({"properties": {"a": {"properties": []}}}, "a.properties: must be an object of schemas"),
        ({"properties": {"a": 5}}, "properties.a: must be a schema (an object, or true or false)"),
        ({"properties": {1: {}}}, "properties: has a name that is not text: 1"),
        ({"anyOf": {"type": "string"}}, "anyOf: must be a list of schemas"),
        ({"properties": {"a": {"items": [1]}}}, "properties.a.items[0]: must be a schema"),
        ({"properties": {"a": {"type": 5}}}, "properties.a.type: must be a type name"),
        ({"properties": {"a": {"type": []}}}, "properties.a.type: must be a type name"),
        ({"$ref": ["#"]}, "$ref: must be text"),
        ({"properties": {"a": {"maxLength": -1}}}, "maxLength: must be a whole number"),
        ({"properties": {"a": {"minimum": "1"}}}, "minimum: must be a number"),
        ({"properties": {"a": {"enum": "ab"}}}, "enum: must be a list"),
        ({"properties": {"a": {"$ref": "#/$defs/missing"}}}, "points to nothing in the schema"),
        ({None: {}}, "has a key that is not text: None"),
    ],
)
def test_a_keyword_with_a_value_of_the_wrong_kind_is_a_definition_error(
    schema: dict[Any, Any], said: str
) -> None:
    assert said in definition_error(schema)


def test_what_the_check_leaves_alone() -> None:
    # keywords it does not know, Draft-04 bounds, tuples and data under data keywords
    schema = {
        "type": ["object", "null"],
        "x-vendor": {"anything": [1, {2: 3}]},
        "properties": {
            "a": {"type": "number", "exclusiveMinimum": True, "minimum": 0},
            "b": {"items": [{"type": "string"}], "additionalItems": False},
            "c": {"default": {"required": 5, "properties": []}, "enum": [{"x": 1}]},
            "d": {"$ref": "#/$defs/d"},
            "e": {"$ref": "https://example.com/other.json"},  # the exports refuse it, by name
            "f": True,
        },
        "required": ("a",),
        "$defs": {"d": {"type": "string"}},
    }
    fn = tp.Function("fine", body, parameters_schema=schema)
    assert fn.execute({"a": 1}) == tp.Ok("ok")


def test_every_problem_is_listed_up_to_ten() -> None:
    schema = {"properties": {f"p{i}": {"type": i} for i in range(30)}}
    with pytest.raises(tp.FunctionDefinitionError) as info:
        tp.Function("many", body, parameters_schema=schema)
    assert len(info.value.errors) == 10
    assert info.value.errors[0] == (
        "parameters_schema",
        "properties.p0.type: must be a type name or a list of type names",
    )


def test_the_top_level_names_are_read_leniently() -> None:
    # as the Elixir original reads them: not a list (or a map) means none, non-text names dropped
    fn = tp.Function("t", body, parameters_schema={"type": "object", "required": "path"})
    assert fn.required_param_names() == []
    fn = tp.Function("t", body, parameters_schema={"properties": [], "required": ["a", 2]})
    assert fn.accepted_param_names() == []
    assert fn.required_param_names() == ["a"]
