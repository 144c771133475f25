"""Null means absent, at every level and in every union branch; free-form objects decoded."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Optional, Union

import pytest
from pydantic import BaseModel, Field

import toolparse as tp
from toolparse import providers
from toolparse.nulls import MAX_DEPTH, null_restorer

from . import rules


class Filter(BaseModel):
    field: str
    op: Literal["eq", "ne"] = "eq"


class Search(BaseModel):
    query: str
    filter: Optional[Filter] = None  # noqa: UP045 - the spelling the issue reports
    limit: int = 10


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = 9


class Dog(BaseModel):
    kind: Literal["dog"]
    name: str | None = "Rex"


class Adopt(BaseModel):
    pet: Annotated[Union[Cat, Dog], Field(discriminator="kind")]  # noqa: UP007
    queue: list[Optional[Filter]] = []  # noqa: UP045


def restore(schema: dict[str, Any], value: Any) -> Any:
    restorer = null_restorer(schema)
    assert restorer is not None
    return restorer(value)


def test_inside_optional_models() -> None:
    schema = Search.model_json_schema()
    assert restore(schema, {"query": "q", "filter": {"field": "a", "op": None}, "limit": None}) == {
        "query": "q",
        "filter": {"field": "a"},
    }
    assert restore(schema, {"query": "q", "filter": None}) == {"query": "q", "filter": None}


def test_discriminated_union_members_decide_by_their_tag() -> None:
    schema = Adopt.model_json_schema()
    assert restore(schema, {"pet": {"kind": "cat", "lives": None}}) == {"pet": {"kind": "cat"}}
    # Dog.name admits null: there it is a value, and stays
    assert restore(schema, {"pet": {"kind": "dog", "name": None}}) == {
        "pet": {"kind": "dog", "name": None}
    }
    assert restore(
        schema, {"pet": {"kind": "cat"}, "queue": [None, {"field": "f", "op": None}]}
    ) == {
        "pet": {"kind": "cat"},
        "queue": [None, {"field": "f"}],
    }


def obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required or [], **extra}


def test_raw_branches_all_of_maps_and_tuples() -> None:
    branch_a = obj({"kind": {"const": "a"}, "x": {"type": "integer"}}, ["kind"])
    branch_b = obj({"kind": {"const": "b"}, "x": {"type": ["integer", "null"]}}, ["kind"])
    schema = obj(
        {
            "one": {"oneOf": [branch_a, branch_b]},
            "any": {"anyOf": [{"type": "string"}, obj({"y": {"type": "string"}})]},
            "both": {"allOf": [obj({"p": {"type": "string"}}), obj({"q": {"type": "integer"}})]},
            "map": {"type": "object", "additionalProperties": obj({"z": {"type": "number"}})},
            "pair": {"type": "array", "prefixItems": [obj({"w": {"type": "string"}})]},
        }
    )
    sent = {
        "one": {"kind": "a", "x": None},
        "any": {"y": None},
        "both": {"p": None, "q": None},
        "map": {"k": {"z": None}},
        "pair": [{"w": None}],
    }
    assert restore(schema, sent) == {
        "one": {"kind": "a"},
        "any": {},
        "both": {},
        "map": {"k": {}},
        "pair": [{}],
    }
    assert restore(schema, {"one": {"kind": "b", "x": None}}) == {"one": {"kind": "b", "x": None}}
    # where two branches fit, a null one of them admits is kept
    two = obj({"v": {"anyOf": [obj({"x": {"type": "integer"}}), obj({"x": {"type": "null"}})]}})
    assert restore(two, {"v": {"x": None}}) == {"v": {"x": None}}


def test_free_form_objects_are_decoded_only_where_an_object_is_required() -> None:
    schema = obj(
        {
            "payload": {"type": "object"},
            "either": {"anyOf": [{"type": "string"}, {"type": "object"}]},
            "rows": {"type": "array", "items": {"type": "object"}},
        }
    )
    assert restore(schema, {"payload": '{"a": 1}', "either": '{"a": 1}', "rows": ['{"b": 2}']}) == {
        "payload": {"a": 1},
        "either": {"a": 1},  # the exports ask for the object as JSON text there too
        "rows": [{"b": 2}],
    }
    assert restore(schema, {"payload": "[1]"}) == {"payload": "[1]"}  # the parser says why


def test_nothing_to_restore_is_none_so_callers_skip_the_step() -> None:
    assert null_restorer(obj({"a": {"type": "string"}}, ["a"])) is None
    assert null_restorer(obj({"a": {"type": ["string", "null"]}})) is None
    assert null_restorer({"type": "object"}) is None  # the arguments arrive decoded
    assert null_restorer(obj({"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}})) is None


def test_deep_schemas_and_arguments_are_bounded() -> None:
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(1000):
        deep = obj({"x": deep}, ["x"], description="level")
    assert null_restorer(deep) is None  # no RecursionError, and nothing to restore
    deep_optional: dict[str, Any] = {"type": "string"}
    for _ in range(1000):
        deep_optional = obj({"x": deep_optional})
    restorer = null_restorer(deep_optional)
    assert restorer is not None
    assert restorer({"x": {"x": None}}) == {"x": {}}
    node = {
        "$defs": {"N": obj({"next": {"$ref": "#/$defs/N"}, "v": {"type": "integer"}})},
        **obj({"head": {"$ref": "#/$defs/N"}}),
    }
    value: dict[str, Any] = {"v": None}
    for _ in range(1000):
        value = {"next": value}
    restored = restore(node, {"head": value})
    inner = restored["head"]
    for _ in range(MAX_DEPTH - 2):
        inner = inner["next"]
    assert "next" in inner  # deeper than the cap: unchanged below it
    assert restore(node, {"head": {"next": {"v": None}}}) == {"head": {"next": {}}}


def test_a_strict_export_of_a_non_strict_function_is_answered() -> None:
    fn = tp.Function("search", lambda a: "ok", args_schema=Search)
    assert not fn.strict
    params = providers.to_tool(fn, "openai", strict=True)["function"]["parameters"]
    assert params["required"] == ["query", "filter", "limit"]
    sent = json.dumps({"query": "q", "filter": {"field": "a", "op": None}, "limit": None})
    assert fn.parse_arguments(sent) == tp.Ok(Search(query="q", filter=Filter(field="a")))


# -- export fixes --------------------------------------------------------------------------


def test_a_root_ref_next_to_type_object_keeps_its_properties() -> None:
    schema = {
        "$ref": "#/$defs/A",
        "type": "object",
        "$defs": {"A": obj({"q": {"type": "string"}}, ["q"])},
    }
    fn = tp.Function("t", lambda a: "x", parameters_schema=schema)
    for strict in (False, True):
        params = providers.to_tool(fn, "openai", strict=strict)["function"]["parameters"]
        assert list(params["properties"]) == ["q"]
    assert list(providers.to_tool(fn, "anthropic", strict=True)["input_schema"]["properties"]) == [
        "q"
    ]


def test_the_description_is_said_once() -> None:
    class Args(BaseModel):
        """Look it up."""

        q: str

    fn = tp.Function("t", lambda a: "x", args_schema=Args)
    tool = providers.to_tool(fn, "openai")["function"]
    assert tool["description"] == "Look it up."
    assert "description" not in tool["parameters"]
    other = tp.Function("t", lambda a: "x", args_schema=Args, description="Other words.")
    assert (
        providers.to_tool(other, "openai")["function"]["parameters"]["description"] == "Look it up."
    )


def test_arrays_without_items_get_items_for_openai_and_gemini() -> None:
    fn = tp.Function("t", lambda a: "x", parameters_schema=obj({"xs": {"type": "array"}}))
    assert (
        providers.to_tool(fn, "openai")["function"]["parameters"]["properties"]["xs"]["items"] == {}
    )
    gemini = providers.to_tool(fn, "gemini")["parameters"]["properties"]["xs"]
    assert gemini["items"] == {
        "anyOf": [{"type": "STRING"}, {"type": "NUMBER"}, {"type": "BOOLEAN"}]
    }
    assert providers.to_tool(fn, "mcp")["inputSchema"]["properties"]["xs"] == {"type": "array"}


def test_nesting_is_counted_through_refs() -> None:
    defs = {
        f"L{i}": obj({"x": {"$ref": f"#/$defs/L{i + 1}"} if i < 10 else {"type": "string"}}, ["x"])
        for i in range(11)
    }
    schema = {**obj({"a": {"$ref": "#/$defs/L0"}}, ["a"]), "$defs": defs}
    fn = tp.Function("t", lambda a: "x", parameters_schema=schema)
    with pytest.raises(ValueError, match=r"10 levels of object nesting.*has 12"):
        providers.to_tool(fn, "openai", strict=True)


def test_gemini_keeps_text_parts_apart() -> None:
    result = tp.ToolResult("c1", "t", [tp.TextPart("line one"), tp.TextPart("line two")])
    [content] = providers.to_result_message([result], "gemini")
    assert content["parts"][0]["functionResponse"]["response"] == {"output": "line one\nline two"}


# -- the rules checker itself catches what the providers refuse --------------------------


@pytest.mark.parametrize(
    ("check", "why"),
    [
        (
            lambda: rules.check_openai(obj({"a": {"type": "array"}}), "t", None, False),
            "missing items",
        ),
        (
            lambda: rules.check_openai(obj({"a": {"type": "string"}}), "t", None, True),
            "additionalProperties",
        ),
        (
            lambda: rules.check_openai(
                obj({"a": {"type": "string"}}, additionalProperties=False), "t", None, True
            ),
            "every key",
        ),
        (lambda: rules.check_openai(obj({}), "a.b", None, False), "name"),
        (
            lambda: rules.check_anthropic({"type": "object", "anyOf": [obj({})]}, "t", False),
            "top level",
        ),
        (
            lambda: rules.check_anthropic(
                obj({"n": {"type": "integer", "minimum": 1}}, additionalProperties=False), "t", True
            ),
            "minimum",
        ),
        (
            lambda: rules.check_gemini(
                {
                    "name": "t",
                    "parameters": {
                        "type": "OBJECT",
                        "properties": {"n": {"type": "INTEGER", "enum": ["1"]}},
                    },
                }
            ),
            "only allowed for STRING",
        ),
        (
            lambda: rules.check_gemini(
                {
                    "name": "t",
                    "parameters": {"type": "OBJECT", "properties": {"o": {"type": "OBJECT"}}},
                }
            ),
            "non-empty",
        ),
        (
            lambda: rules.check_gemini(
                {
                    "name": "t",
                    "parameters": {"type": "OBJECT", "properties": {"a": {"type": "ARRAY"}}},
                }
            ),
            "items: missing field",
        ),
    ],
)
def test_the_rules_checker_refuses_what_providers_refuse(check: Any, why: str) -> None:
    with pytest.raises(AssertionError, match=why):
        check()
