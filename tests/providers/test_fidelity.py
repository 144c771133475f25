"""Shapes the exports once got wrong: what each export tells the model, and what the parser takes.

Each definition is a case of the provider corpus (``corpus.py``), so the SDK and rule checks of
``test_corpus.py`` hold for it too; here both directions are pinned down.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import toolparse as tp
from toolparse import providers

from .test_corpus import JSON_OBJECT_NOTE, export, function, parameters

#: the strict modes and Gemini's Schema: the exports that cannot say a free-form object
TEXT_MODES = [("openai", True), ("anthropic", True), ("gemini", False)]


def parsed(name: str, arguments: dict[str, Any]) -> Any:
    """What the tool's body receives, as plain data."""
    result = function(name).parse_arguments(arguments)
    assert isinstance(result, tp.Ok), result
    value = result.value
    return value.model_dump() if hasattr(value, "model_dump") else value


def branches(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """A property's branches, without ``null`` (one: the schema itself)."""
    found = schema.get("anyOf", [schema])
    return [b for b in found if b.get("type") not in ("null", ["null"])]


# -- a free-form object next to a string --------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "key"), [("text_or_object", "value"), ("mcp_object_or_string", "body")]
)
@pytest.mark.parametrize(("provider", "strict"), TEXT_MODES)
def test_a_string_or_free_form_object_is_one_string_that_may_hold_an_object(
    name: str, key: str, provider: str, strict: bool
) -> None:
    prop = parameters(export(name, provider, strict), provider)["properties"][key]
    kinds = [b.get("type") for b in branches(prop)]
    kinds = [
        k for kind in kinds for k in (kind if isinstance(kind, list) else [kind]) if k != "null"
    ]
    assert kinds == ["string"]  # once: two string branches would tell the model nothing more
    assert JSON_OBJECT_NOTE in json.dumps(prop)


@pytest.mark.parametrize(
    ("name", "key"), [("text_or_object", "value"), ("mcp_object_or_string", "body")]
)
def test_the_object_sent_as_text_reaches_the_tool_as_the_object(name: str, key: str) -> None:
    base = {} if name == "text_or_object" else {"id": "1"}
    sent = {**base, key: json.dumps({"a": [1]})}
    assert parsed(name, sent)[key] == {"a": [1]}
    assert parsed(name, {**base, key: {"a": [1]}})[key] == {"a": [1]}
    assert parsed(name, {**base, key: "plain text"})[key] == "plain text"


# -- strict nulls beside an open-object branch --------------------------------------------------


@pytest.mark.parametrize("name", ["query_or_map", "query_or_map_raw"])
def test_an_optional_property_beside_an_open_object_is_nullable_and_null_means_absent(
    name: str,
) -> None:
    schema = parameters(export(name, "openai", True), "openai")
    query = (
        schema["$defs"]["Query"]
        if "$defs" in schema
        else branches(schema["properties"]["where"])[0]
    )
    assert query["properties"]["op"]["type"] == ["string", "null"]
    where = parsed(name, {"where": {"field": "f", "type": None, "op": None}})["where"]
    assert where.get("op", "eq") == "eq"  # the default, not None
    assert "type" in where or name == "query_or_map_raw"  # a nullable one keeps its null
    assert where.get("type") is None


# -- names longer than a provider allows ----------------------------------------------------------

LONG = "list_open_issues_assigned_to_the_current_user_in_every_repository_of_an_org"


@pytest.mark.parametrize("provider", ["openai", "openai-responses", "anthropic", "gemini"])
def test_a_long_name_is_exported_under_an_alias_and_routed_back(provider: str) -> None:
    fn = function(LONG)
    assert fn.name == LONG  # MCP's limit is 128; no longer refused at definition

    def exported_name() -> str:
        tool = providers.to_tool(function(LONG), provider)
        return str((tool.get("function") or tool)["name"])

    name = exported_name()
    assert len(name) <= 64
    assert name[:40] == LONG[:40]  # cut, with a short hash of the whole name
    assert name == exported_name()  # stable
    payload = {
        "openai": {
            "role": "assistant",
            "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": name, "arguments": "{}"}}
            ],
        },
        "openai-responses": {
            "output": [{"type": "function_call", "call_id": "c", "name": name, "arguments": "{}"}]
        },
        "anthropic": {"content": [{"type": "tool_use", "id": "c", "name": name, "input": {}}]},
        "gemini": {
            "candidates": [{"content": {"parts": [{"functionCall": {"name": name, "args": {}}}]}}]
        },
    }[provider]
    assert [call.name for call in tp.Toolset([fn]).parse_tool_calls(payload, provider)] == [LONG]


def test_mcp_takes_the_long_name_as_it_is_and_129_characters_are_refused() -> None:
    assert providers.to_tool(function(LONG), "mcp")["name"] == LONG
    with pytest.raises(tp.FunctionDefinitionError, match="at most 128"):
        tp.Function("a" * 129, lambda a: "ok")


# -- descriptions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text"), [("attrs_memo", "Write a memo."), ("ma_note", "Write a note.")]
)
@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini", "mcp"])
def test_a_class_docstring_is_the_description_said_once(
    name: str, text: str, provider: str
) -> None:
    fn = function(name)
    assert fn.description == text
    tool = export(name, provider, False)
    assert json.dumps(tool).count(text.rstrip(".")) == 1
    assert "description" not in parameters(tool, provider)


# -- a root reference without a type (zod) -------------------------------------------------------


@pytest.mark.parametrize(
    ("provider", "strict"),
    [("openai", True), ("anthropic", False), ("gemini", False), ("mcp", False)],
)
def test_a_root_reference_exports_its_target_object(provider: str, strict: bool) -> None:
    schema = parameters(export("zod_root_ref", provider, strict), provider)
    assert schema["type"] == "object"
    assert list(schema["properties"]) == ["city", "days"]


def test_a_root_reference_is_checked_as_its_target() -> None:
    fn = function("zod_root_ref")
    assert fn.accepted_param_names() == ["city", "days"]
    assert fn.required_param_names() == ["city"]
    assert parsed("zod_root_ref", {"city": "Oslo", "days": 2}) == {"city": "Oslo", "days": 2}
    missing = fn.execute({"days": 2})
    assert isinstance(missing, tp.Error)
    assert "city" in missing.message
    assert isinstance(fn.execute({"city": "Oslo", "days": "two"}), tp.Error)


# -- problems in declaration order --------------------------------------------------------------


@pytest.mark.parametrize("fast", [False, None])
def test_jsonschema_problems_keep_the_declaration_order(fast: bool | None) -> None:
    from toolparse_jsonschema import JsonSchema

    names = [f"f{i}" for i in range(1, 12)]
    schema = {"type": "object", "properties": {n: {"type": "integer"} for n in names}}
    fn = tp.Function("t", lambda a: "ok", args_schema=JsonSchema(schema, fast=fast))
    result = fn.execute(dict.fromkeys(names, "x"))
    assert isinstance(result, tp.Error)
    lines = [line.split(":")[0] for line in result.message.splitlines() if line.startswith("f")]
    assert lines == names  # f2 before f10, as pydantic, attrs and marshmallow list them
