from __future__ import annotations

from typing import Any

import pytest
from google.genai import types as gt

import toolparse as tp
from toolparse import providers

from .cases import PIXEL, no_args, plan_trip, with_params
from .sdk_shapes import exact_model

# what the Gemini Developer API refuses in `parameters`, although the SDK's
# Schema model has fields for some of them (they are Vertex-only)
_REFUSED = {
    "additionalProperties",
    "$ref",
    "$defs",
    "ref",
    "defs",
    "$schema",
    "const",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "propertyNames",
    "oneOf",
    "allOf",
}


def assert_gemini_safe(schema: Any) -> None:
    """No refused keyword, no type array, string enums only, no empty properties."""
    if isinstance(schema, list):
        for item in schema:
            assert_gemini_safe(item)
        return
    if not isinstance(schema, dict):
        return
    assert not (_REFUSED & set(schema)), schema
    assert not isinstance(schema.get("type"), list), schema
    if "enum" in schema:
        assert schema["type"] == "STRING"
        assert all(isinstance(v, str) for v in schema["enum"])
    if "properties" in schema:
        assert schema["properties"], "empty properties are refused for OBJECT"
        assert schema["propertyOrdering"] == list(schema["properties"])
        for value in schema["properties"].values():
            assert_gemini_safe(value)
    for key in ("items", "anyOf"):
        if key in schema:
            assert_gemini_safe(schema[key])


def response(*parts: dict[str, Any]) -> gt.GenerateContentResponse:
    return gt.GenerateContentResponse.model_validate(
        {
            "candidates": [
                {"content": {"role": "model", "parts": list(parts)}, "finishReason": "STOP"}
            ]
        }
    )


# -- export --------------------------------------------------------------------


def test_export_is_the_documented_shape() -> None:
    declaration = providers.to_tool(plan_trip(), "gemini")
    exact_model(gt.FunctionDeclaration, declaration)
    assert_gemini_safe(declaration["parameters"])
    assert declaration == {
        "name": "plan_trip",
        "description": "Plan a trip and return an itinerary.",
        "parameters": {
            "type": "OBJECT",
            "properties": {
                "city": {"type": "STRING", "description": "Destination city."},
                "unit": {"type": "STRING", "enum": ["celsius", "fahrenheit"]},
                "stops": {
                    "type": "ARRAY",
                    "items": {
                        "type": "OBJECT",
                        "properties": {"name": {"type": "STRING"}, "hours": {"type": "NUMBER"}},
                        "required": ["name", "hours"],
                        "propertyOrdering": ["name", "hours"],
                    },
                },
                "days": {"type": "INTEGER", "description": "Trip length in days.", "default": 3},
            },
            "required": ["city", "unit", "stops"],
            "propertyOrdering": ["city", "unit", "stops", "days"],
        },
    }


def test_strict_changes_nothing() -> None:
    assert providers.to_tool(plan_trip(strict=True), "gemini") == providers.to_tool(
        plan_trip(), "gemini"
    )


def test_a_tool_without_arguments_has_no_parameters() -> None:
    declaration = providers.to_tool(no_args(), "gemini")
    exact_model(gt.FunctionDeclaration, declaration)
    assert declaration == {"name": "ping", "description": "Check the service."}


def test_non_string_enums_are_described_instead() -> None:
    declaration = providers.to_tool(with_params(), "gemini")
    exact_model(gt.FunctionDeclaration, declaration)
    assert_gemini_safe(declaration["parameters"])
    assert declaration["parameters"]["properties"]["limit"] == {
        "type": "INTEGER",
        "description": "(one of: [5, 10, 20])",
    }


def test_pydantic_style_schemas_are_flattened() -> None:
    schema = {
        "type": "object",
        "properties": {
            "first": {"$ref": "#/$defs/Stop", "description": "The first stop."},
            "maybe": {"anyOf": [{"$ref": "#/$defs/Stop"}, {"type": "null"}], "default": None},
            "n": {"type": ["integer", "null"], "exclusiveMinimum": 0},
            "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "kind": {"const": "trip"},
            "num": {"const": 3},
            "size": {"enum": [1, "x", None]},
            "tags": {"type": "object", "additionalProperties": {"type": "integer"}},
            "pair": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}]},
            "when": {"type": "string", "format": "date-time"},
            "site": {"type": "string", "format": "uri", "examples": ["https://a.b"]},
            "mixed": {"allOf": [{"properties": {"a": {"type": "string"}}}, {"required": ["a"]}]},
        },
        "required": ["first"],
        "$defs": {
            "Stop": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"],
                "additionalProperties": False,
            }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
    }
    fn = tp.Function("f", lambda a: "x", parameters_schema=schema)
    declaration = providers.to_tool(fn, "gemini")
    exact_model(gt.FunctionDeclaration, declaration)
    params = declaration["parameters"]
    assert_gemini_safe(params)
    props = params["properties"]
    stop = {
        "type": "OBJECT",
        "properties": {"name": {"type": "STRING"}},
        "required": ["name"],
        "propertyOrdering": ["name"],
    }
    assert props["first"] == {**stop, "description": "The first stop."}
    assert props["maybe"] == {**stop, "nullable": True}
    assert props["n"] == {
        "type": "INTEGER",
        "nullable": True,
        "description": "(exclusiveMinimum: 0)",
    }
    assert props["either"] == {"anyOf": [{"type": "STRING"}, {"type": "INTEGER"}]}
    assert props["kind"] == {"enum": ["trip"], "type": "STRING"}
    assert props["num"] == {"type": "INTEGER", "description": "(must be: 3)"}
    assert props["size"] == {
        "anyOf": [{"type": "STRING"}, {"type": "NUMBER"}, {"type": "BOOLEAN"}],
        "nullable": True,
        "description": '(one of: [1, "x"])',
    }
    assert props["tags"] == {
        "type": "STRING",
        "description": '(a JSON object, encoded as a string; each value: {"type": "integer"})',
    }
    assert props["pair"] == {
        "type": "ARRAY",
        "items": {"anyOf": [{"type": "NUMBER"}, {"type": "STRING"}, {"type": "BOOLEAN"}]},
        "description": "(in this order: number, number, then any number of values)",
    }
    assert props["when"] == {"type": "STRING", "format": "date-time"}
    assert props["site"] == {
        "type": "STRING",
        "example": "https://a.b",
        "description": "(format: uri)",
    }
    assert props["mixed"] == {
        "type": "OBJECT",
        "properties": {"a": {"type": "STRING"}},
        "propertyOrdering": ["a"],
        "required": ["a"],
    }


RECURSIVE = {
    "type": "object",
    "properties": {"tree": {"$ref": "#/$defs/Node"}},
    "required": ["tree"],
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
        }
    },
}


def test_recursion_needs_the_json_schema_option() -> None:
    fn = tp.Function("tree", lambda a: "x", parameters_schema=RECURSIVE)
    with pytest.raises(ValueError, match="parameters_json_schema"):
        providers.to_tool(fn, "gemini")
    fn = tp.Function(
        "tree",
        lambda a: "x",
        parameters_schema={
            **RECURSIVE,
            "$schema": "x",
            "properties": {**RECURSIVE["properties"], "k": {"const": 1}},
        },
        options={"parameters_json_schema": True},
    )
    declaration = providers.to_tool(fn, "gemini")
    exact_model(gt.FunctionDeclaration, declaration)
    assert "parameters" not in declaration
    assert declaration["parametersJsonSchema"] == {
        **RECURSIVE,
        "properties": {**RECURSIVE["properties"], "k": {"enum": [1]}},
    }


def test_the_json_schema_option_leaves_names_that_spell_keywords_alone() -> None:
    # properties and definitions named "const" and "$schema" are names, not keywords: they
    # were once read as keywords, "const" becoming "enum" and "$schema" dropped
    keyword_names = {"const": {"type": "string", "const": "x"}, "$schema": {"type": "integer"}}
    schema = {
        "type": "object",
        "properties": {**keyword_names, "ref": {"$ref": "#/$defs/const"}},
        "required": ["const"],
        "$defs": keyword_names,
    }
    fn = tp.Function(
        "t", lambda a: "x", parameters_schema=schema, options={"parameters_json_schema": True}
    )
    kept = {"const": {"type": "string", "enum": ["x"]}, "$schema": {"type": "integer"}}
    assert providers.to_tool(fn, "gemini")["parametersJsonSchema"] == {
        "type": "object",
        "properties": {**kept, "ref": {"$ref": "#/$defs/const"}},
        "required": ["const"],
        "$defs": kept,
    }


def test_names_and_to_tools() -> None:
    for bad, alias in (("1abc", "_1abc"), ("with space", "with_space"), ("ns:tool", "ns_tool")):
        assert providers.to_tool(tp.Function(bad, lambda a: "x"), "gemini")["name"] == alias
    assert (
        providers.to_tool(tp.Function("ns.tool-1", lambda a: "x"), "gemini")["name"] == "ns.tool-1"
    )
    tools = providers.to_tools([plan_trip(), no_args(), with_params()], "gemini")
    assert len(tools) == 1
    exact_model(gt.Tool, tools[0])
    assert [d["name"] for d in tools[0]["functionDeclarations"]] == ["plan_trip", "ping", "search"]
    assert providers.to_tools([], "gemini") == []


# -- parsing ---------------------------------------------------------------------


def test_parses_function_calls_from_objects_and_dicts() -> None:
    reply = response(
        {"text": "Let me plan."},
        {
            "functionCall": {
                "id": "c1",
                "name": "plan_trip",
                "args": {"city": "Paris", "days": 3.0, "stops": [{"hours": 1.5}]},
            },
            "thoughtSignature": "c2ln",
        },
        {"functionCall": {"name": "ping", "args": {}}},
    )
    expected = [
        tp.ToolCall("c1", "plan_trip", {"city": "Paris", "days": 3, "stops": [{"hours": 1.5}]}),
        tp.ToolCall("gemini-call-1", "ping", {}),  # made up: unique within the response
    ]
    calls = providers.parse_tool_calls(reply, "gemini")
    assert calls == expected
    assert type(calls[0].arguments["days"]) is int  # type: ignore[index]
    assert providers.parse_tool_calls(reply.model_dump(), "gemini") == expected
    assert providers.parse_tool_calls(reply.model_dump(by_alias=True), "gemini") == expected
    assert providers.parse_tool_calls(reply.candidates[0], "gemini") == expected  # type: ignore[index]
    content = reply.candidates[0].content  # type: ignore[index]
    assert providers.parse_tool_calls(content, "gemini") == expected
    assert providers.parse_tool_calls(content.parts, "gemini") == expected  # type: ignore[union-attr]
    assert providers.parse_tool_calls(reply.function_calls, "gemini") == expected


def test_a_response_without_calls_or_content() -> None:
    assert providers.parse_tool_calls(response({"text": "Hi"}), "gemini") == []
    blocked = gt.GenerateContentResponse.model_validate(
        {"candidates": [{"finishReason": "SAFETY"}]}
    )
    assert providers.parse_tool_calls(blocked, "gemini") == []
    assert providers.parse_tool_calls({"candidates": []}, "gemini") == []
    with pytest.raises(ValueError, match="expected a GenerateContentResponse"):
        providers.parse_tool_calls("x", "gemini")


# -- results ---------------------------------------------------------------------


def test_results_go_back_as_function_responses() -> None:
    results = [
        tp.ToolResult("c1", "plan_trip", "Itinerary"),
        tp.ToolResult("gemini-call-1", "ping", "boom", is_error=True),
        tp.ToolResult(
            "c3",
            "shot",
            [tp.TextPart("Here"), tp.ImagePart(PIXEL), tp.ImagePart("gs://b/a.png", url=True)],
        ),
    ]
    messages = providers.to_result_message(results, "gemini")
    assert len(messages) == 1
    exact_model(gt.Content, messages[0])
    assert messages[0] == {
        "role": "user",
        "parts": [
            {
                "functionResponse": {
                    "id": "c1",
                    "name": "plan_trip",
                    "response": {"output": "Itinerary"},
                }
            },
            # a call without an id got a made-up one: no id goes back
            {"functionResponse": {"name": "ping", "response": {"error": "boom"}}},
            {
                "functionResponse": {
                    "id": "c3",
                    "name": "shot",
                    "response": {"output": "Here"},
                    "parts": [
                        {"inlineData": {"mimeType": "image/png", "data": PIXEL}},
                        {"fileData": {"mimeType": "image/png", "fileUri": "gs://b/a.png"}},
                    ],
                }
            },
        ],
    }
    # a call that named no tool is answered (under no name), never a crash
    (nameless,) = providers.to_result_message([tp.ToolResult("c1", None, "x")], "gemini")
    assert nameless["parts"][0]["functionResponse"]["name"] == ""


def test_round_trip_with_float_integers() -> None:
    fn = tp.Function(
        "count",
        lambda args: "ok" if type(args["n"]) is int else "float",
        parameters_schema={
            "type": "object",
            "properties": {"n": {"type": "integer"}},
            "required": ["n"],
        },
    )
    reply = response({"functionCall": {"name": "count", "args": {"n": 2.0}}})
    results = tp.execute_tool_calls([fn], providers.parse_tool_calls(reply, "gemini"))
    messages = providers.to_result_message(results, "gemini")
    exact_model(gt.Content, messages[0])
    assert messages[0]["parts"][0]["functionResponse"] == {
        "name": "count",
        "response": {"output": "ok"},
    }


def test_declarations_are_accepted_by_the_sdk_config() -> None:
    tools = providers.to_tools([plan_trip(), with_params()], "gemini")
    config = gt.GenerateContentConfig.model_validate({"tools": tools})
    assert config.tools is not None
    declarations = config.tools[0].function_declarations  # type: ignore[union-attr]
    assert declarations is not None
    assert declarations[0].parameters.properties["days"].type == gt.Type.INTEGER  # type: ignore[union-attr,index]
