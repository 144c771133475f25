from __future__ import annotations

from typing import Any, Literal, Optional

import jsonschema
import pytest
from anthropic.types import ToolParam
from google.genai import types as gt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import types as mt
from openai.lib._pydantic import to_strict_json_schema
from openai.types.chat import ChatCompletionToolParam
from pydantic import BaseModel, Field

import toolparse as tp
from toolparse import providers

from .sdk_shapes import exact_model, exact_param


def obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required or [], **extra}


def tool(schema: dict[str, Any]) -> tp.Function:
    return tp.Function("t", lambda args: "x", parameters_schema=schema)


def strict(schema: dict[str, Any], target: str = "openai") -> dict[str, Any]:
    """The parameters of a tool taking ``schema``, exported in ``target``'s strict mode."""
    exported = providers.to_tool(tool(schema), target, strict=True)
    found: dict[str, Any] = (
        exported["function"]["parameters"] if target == "openai" else exported["input_schema"]
    )
    return found


def restored(schema: dict[str, Any], arguments: Any) -> Any:
    """The arguments a tool taking ``schema`` hands on, the nulls of a strict export dropped."""
    result = tool(schema).parse_arguments(arguments)
    assert isinstance(result, tp.Ok), result
    return result[0]


# -- nullability of optional properties (OpenAI) -------------------------------------


@pytest.mark.parametrize(
    ("prop", "nullable"),
    [
        ({"type": "string"}, {"type": ["string", "null"]}),
        ({"type": ["string", "integer"]}, {"type": ["string", "integer", "null"]}),
        ({"type": "string", "enum": ["a"]}, {"type": ["string", "null"], "enum": ["a", None]}),
        ({"enum": ["a", 1]}, {"enum": ["a", 1, None]}),
        ({"const": "a"}, {"enum": ["a", None]}),
        (
            {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
        ),
        ({"$ref": "#/$defs/D"}, {"anyOf": [{"$ref": "#/$defs/D"}, {"type": "null"}]}),
        ({"type": ["string", "null"]}, {"type": ["string", "null"]}),
        (
            {"anyOf": [{"type": "string"}, {"type": "null"}]},
            {"anyOf": [{"type": "string"}, {"type": "null"}]},
        ),
    ],
)
def test_openai_makes_optional_properties_nullable(
    prop: dict[str, Any], nullable: dict[str, Any]
) -> None:
    schema = obj({"x": prop}, [], **{"$defs": {"D": obj({"a": {"type": "string"}}, ["a"])}})
    out = strict(schema)
    assert out["required"] == ["x"]
    assert out["properties"]["x"] == nullable
    # required properties are left as they are
    assert strict(obj({"x": prop}, ["x"], **{"$defs": schema["$defs"]}))["properties"]["x"] == (
        {"enum": ["a"]} if prop == {"const": "a"} else prop
    )


def test_a_described_ref_is_inlined_so_the_description_survives() -> None:
    schema = obj(
        {"x": {"$ref": "#/$defs/D", "description": "An x."}},
        ["x"],
        **{"$defs": {"D": obj({"a": {"type": "string"}}, ["a"])}},
    )
    out = strict(schema)
    assert out["properties"]["x"] == {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
        "additionalProperties": False,
        "description": "An x.",
    }


def test_defaults_move_into_the_description() -> None:
    schema = obj(
        {
            "a": {"type": "integer", "default": 3, "description": "Count."},
            "b": {"type": ["integer", "null"], "default": 4},
            "c": {"type": "string", "default": None},
            "d": {"type": "integer", "default": 5},
        },
        ["d"],
    )
    props = strict(schema)["properties"]
    assert props["a"] == {
        "type": ["integer", "null"],
        "description": "Count. (null means the default: 3)",
    }
    assert props["b"] == {"type": ["integer", "null"], "description": "(default: 4)"}
    assert props["c"] == {"type": ["string", "null"]}
    assert props["d"] == {"type": "integer", "description": "(default: 5)"}


def test_unsupported_keywords_are_described_per_provider() -> None:
    schema = obj(
        {
            "u": {"type": "string", "format": "uri", "minLength": 2},
            "e": {"type": "string", "format": "email"},
            "xs": {
                "type": "array",
                "items": {"type": "integer"},
                "uniqueItems": True,
                "minItems": 2,
            },
            "n": {"type": "number", "not": {"const": 0}, "minimum": 0},
        },
        ["u", "e", "xs", "n"],
    )
    openai = strict(schema)["properties"]
    assert openai["u"] == {"type": "string", "minLength": 2, "description": "(format: uri)"}
    assert openai["e"] == {"type": "string", "format": "email"}
    assert openai["xs"] == {
        "type": "array",
        "items": {"type": "integer"},
        "minItems": 2,
        "description": "(uniqueItems: true)",
    }
    assert openai["n"] == {"type": "number", "minimum": 0, "description": '(not: {"const": 0})'}
    anthropic = strict(schema, "anthropic")["properties"]
    assert anthropic["u"] == {"type": "string", "format": "uri", "description": "(minLength: 2)"}
    assert anthropic["xs"]["description"] == "(uniqueItems: true; minItems: 2)"
    assert anthropic["n"]["description"] == '(not: {"const": 0}; minimum: 0)'


def test_composition_is_rewritten() -> None:
    schema = obj(
        {
            "one": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "single": {"allOf": [{"type": "string"}], "description": "S."},
            "pair": {
                "type": "array",
                "prefixItems": [{"type": "number"}, {"type": "string"}],
                "minItems": 2,
            },
            "tuple": {"type": "array", "items": [{"type": "number"}, {"type": "number"}]},
        },
        ["one", "single", "pair", "tuple"],
    )
    props = strict(schema)["properties"]
    assert props["one"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert props["single"] == {"type": "string", "description": "S."}
    assert props["pair"] == {
        "type": "array",
        "items": {
            "anyOf": [{"type": "number"}, {"type": "string"}, {"type": "boolean"}, {"type": "null"}]
        },
        "minItems": 2,
        "description": "(in this order: number, string, then any number of values)",
    }
    assert props["tuple"] == {
        "type": "array",
        "items": {
            "anyOf": [{"type": "number"}, {"type": "string"}, {"type": "boolean"}, {"type": "null"}]
        },
        "description": "(in this order: number, number, then any number of values)",
    }


def test_closed_tuples_say_their_order_and_length() -> None:
    closed = {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}
    schema = obj({"t": {**closed, "items": False}, "u": {**closed, "maxItems": 2}}, ["t", "u"])
    for target in ("openai", "anthropic"):
        props = strict(schema, target)["properties"]  # type: ignore[arg-type]
        assert props["t"]["items"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
        assert "in this order: string, integer" in props["t"]["description"]
    openai = strict(schema)["properties"]
    assert openai["t"]["maxItems"] == 2
    assert openai["u"] == openai["t"]
    anthropic = strict(schema, "anthropic")["properties"]
    assert "maxItems" not in anthropic["t"]
    assert "maxItems: 2" in anthropic["t"]["description"]


def test_open_tuples_allow_any_other_items_however_it_is_said() -> None:
    # `items: true` (or Draft-07 `additionalItems: true`) once gave a union nested in the
    # union and "then any number of string or number or boolean or null"
    prefix = [{"type": "string"}]
    said = [{"items": {}}, {"items": True}, {}]
    for target in ("openai", "anthropic"):
        exported = [
            strict(obj({"t": {"type": "array", "prefixItems": prefix, **rest}}, ["t"]), target)
            for rest in said
        ]
        assert exported[0] == exported[1] == exported[2]
        t = exported[0]["properties"]["t"]
        assert t["items"] == {
            "anyOf": [{"type": k} for k in ("string", "number", "boolean", "null")]
        }
        assert t["description"] == "(in this order: string, then any number of values)"


def test_all_of_parts_are_merged_for_both_strict_modes() -> None:
    schema = obj(
        {
            "x": {
                "allOf": [
                    {"$ref": "#/$defs/A"},
                    obj({"b": {"type": "integer"}}, ["b"]),
                ],
                "description": "Both.",
            }
        },
        ["x"],
        **{"$defs": {"A": obj({"a": {"type": "string"}}, ["a"])}},
    )
    for target in ("openai", "anthropic"):
        x = strict(schema, target)["properties"]["x"]  # type: ignore[arg-type]
        assert "allOf" not in x
        assert list(x["properties"]) == ["a", "b"]
        assert x["required"] == ["a", "b"]
        assert x["additionalProperties"] is False
        assert x["description"] == "Both."
    disagree = obj({"x": {"allOf": [{"type": "string"}, {"type": "integer"}]}})
    with pytest.raises(ValueError, match="parts disagree on 'type'; make the parts agree"):
        strict(disagree)


def test_free_form_objects_travel_as_json_strings() -> None:
    schema = obj(
        {
            "any": {"type": "object", "description": "Extra."},
            "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
        },
        ["any"],
    )
    for target in ("openai", "anthropic"):
        props = strict(schema, target)["properties"]  # type: ignore[arg-type]
        assert props["any"] == {
            "type": "string",
            "description": "Extra. (a JSON object, encoded as a string)",
        }
        assert "each value" in props["counts"]["description"]
    assert restored(schema, {"any": '{"a": [1]}', "counts": '{"x": 2}'}) == {
        "any": {"a": [1]},
        "counts": {"x": 2},
    }
    assert restored(schema, {"any": "not json"}) == {"any": "not json"}  # the parser says why


def test_any_value_is_a_union_of_primitives() -> None:
    out = strict(obj({"v": {"description": "Anything."}, "xs": {"type": "array"}}))
    primitives = [{"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}]
    assert out["properties"]["v"] == {"anyOf": primitives, "description": "Anything."}
    assert out["properties"]["xs"]["items"] == {"anyOf": primitives}


@pytest.mark.parametrize(
    ("schema", "why"),
    [
        (
            obj(
                {
                    "m": {
                        "type": "object",
                        "properties": {"a": {"type": "string"}},
                        "additionalProperties": {"type": "integer"},
                    }
                }
            ),
            "next to declared properties; declare every key as a property",
        ),
        (
            {"type": "object", "additionalProperties": {"type": "integer"}},
            "as the arguments; declare the arguments as named properties",
        ),
        (obj({"x": {"allOf": [{"type": "string"}, {"type": "integer"}]}}), "disagree"),
        (
            {"type": "object", "allOf": [obj({"a": {"type": "string"}}), {"type": "string"}]},
            "at the root: allOf: its parts disagree on 'type'; make the parts agree",
        ),
        (
            obj({"x": {"anyOf": [{"type": "string"}], "oneOf": [{"type": "string"}]}}),
            "both anyOf and oneOf",
        ),
        (obj({"xs": {"type": "array", "items": False}}), "allows no items"),
        ({"type": "object", "anyOf": [obj({}), obj({})]}, "must be an object, not anyOf/oneOf"),
        ({"type": "string"}, 'must be a JSON Schema of type "object"'),
    ],
)
def test_what_strict_mode_cannot_express(schema: dict[str, Any], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        strict(schema)


def test_open_objects_are_closed() -> None:
    schema = obj(
        {
            "m": {
                "type": "object",
                "properties": {"a": {"type": "string"}},
                "additionalProperties": True,
            }
        }
    )
    out = strict(schema)
    assert out["properties"]["m"]["additionalProperties"] is False
    assert strict({"properties": {}}, "anthropic") == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }


def test_a_root_reference_is_inlined() -> None:
    schema = {"$ref": "#/$defs/Root", "$defs": {"Root": obj({"a": {"type": "string"}}, ["a"])}}
    out = strict(schema)
    assert out["type"] == "object"
    assert out["properties"] == {"a": {"type": "string"}}
    assert "$defs" in out


def test_openai_recursion_is_kept_anthropic_refuses_it() -> None:
    schema = obj(
        {"tree": {"$ref": "#/$defs/Node"}},
        ["tree"],
        **{
            "$defs": {
                "Node": obj(
                    {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}, ["kids"]
                )
            }
        },
    )
    assert strict(schema)["$defs"]["Node"]["properties"]["kids"]["items"] == {
        "$ref": "#/$defs/Node"
    }
    with pytest.raises(ValueError, match="recursive"):
        strict(schema, "anthropic")
    with pytest.raises(ValueError, match="recursive"):
        strict(obj({"me": {"$ref": "#"}}), "anthropic")
    # a described self-reference is inlined once, then kept bare
    described = obj(
        {"tree": {"$ref": "#/$defs/Node", "description": "T."}}, **{"$defs": schema["$defs"]}
    )
    out = strict(described)
    tree = out["properties"]["tree"]
    assert tree["description"] == "T."
    assert tree["type"] == ["object", "null"]
    assert tree["properties"]["kids"]["items"] == {"$ref": "#/$defs/Node"}


def test_anthropic_non_recursive_defs_are_fine() -> None:
    schema = obj(
        {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/A"}},
        ["a", "b"],
        **{"$defs": {"A": obj({"x": {"$ref": "#/$defs/B"}}, ["x"]), "B": {"type": "string"}}},
    )
    out = strict(schema, "anthropic")
    assert out["$defs"]["A"]["additionalProperties"] is False


def test_openai_size_limits() -> None:
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(10):
        deep = obj({"x": deep}, ["x"])
    strict(deep)
    with pytest.raises(
        ValueError, match="at most 10 levels of object nesting in a schema; tool 't' has 11"
    ):
        strict(obj({"x": deep}, ["x"]))
    with pytest.raises(ValueError, match="1000 enum values"):
        strict(obj({"e": {"type": "integer", "enum": list(range(1001))}}))
    with pytest.raises(ValueError, match="5000 properties"):
        strict(obj({f"p{i}": {"type": "string"} for i in range(5001)}))
    with pytest.raises(ValueError, match="120000 characters"):
        strict(obj({"e": {"type": "string", "enum": ["x" * 200] * 601}}))
    # the limits are OpenAI's: its other API has them, Anthropic has not
    with pytest.raises(ValueError, match="levels of object nesting"):
        providers.to_tool(tool(obj({"x": deep}, ["x"])), "openai-responses", strict=True)
    strict(obj({"x": deep}, ["x"]), "anthropic")


# -- agreement with openai-python's own helper ----------------------------------------


class Stop(BaseModel):
    """A waypoint."""

    name: str
    hours: float


class Node(BaseModel):
    value: int
    children: list[Node]


class Trip(BaseModel):
    city: str = Field(description="Destination city.")
    unit: Literal["celsius", "fahrenheit"]
    stops: list[Stop]
    first: Stop = Field(description="The first stop.")
    maybe: Optional[Stop] = None  # noqa: UP045 - the spelling pydantic users write
    tree: Node
    days: int | None = None
    either: str | int


def test_agrees_with_openai_to_strict_json_schema() -> None:
    assert strict(Trip.model_json_schema()) == to_strict_json_schema(Trip)


def test_documented_differences_from_openai_helper() -> None:
    class Defaults(BaseModel):
        days: int = 3
        label: str | None = "x"

    ours = strict(Defaults.model_json_schema())["properties"]
    theirs = to_strict_json_schema(Defaults)["properties"]
    # openai's helper keeps the default and leaves a defaulted int non-nullable,
    # so the model must always send a number; here null asks for the default
    assert theirs["days"] == {"default": 3, "title": "Days", "type": "integer"}
    assert ours["days"] == {
        "title": "Days",
        "type": ["integer", "null"],
        "description": "(null means the default: 3)",
    }
    # a non-null default is not a supported keyword: it moves into the description
    assert theirs["label"]["default"] == "x"
    assert "default" not in ours["label"]
    assert ours["label"]["description"] == "(default: x)"


# -- null restored to "absent", at every level -------------------------------------------


def test_nulls_are_dropped_where_the_export_made_them_possible() -> None:
    schema = obj(
        {
            "name": {"type": "string"},
            "opt": {"type": "integer", "default": 3},
            "nullable": {"type": ["integer", "null"]},
            "inner": obj({"a": {"type": "string"}, "b": {"type": "integer"}}, ["a"]),
            "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
        },
        ["name"],
        **{
            "$defs": {"Item": obj({"q": {"type": "integer"}, "tree": {"$ref": "#/$defs/Item"}}, [])}
        },
    )
    args = {
        "name": None,
        "opt": None,
        "nullable": None,
        "inner": {"a": None, "b": None},
        "items": [{"q": None, "tree": {"q": 1, "tree": None}}, 5],
    }
    assert restored(schema, args) == {
        "name": None,
        "nullable": None,
        "inner": {"a": None},
        "items": [{"tree": {"q": 1}}, 5],
    }
    assert args["opt"] is None  # the input is not modified


def test_nulls_stay_where_the_export_made_none_possible() -> None:
    assert restored(obj({"a": {"type": "string"}}, ["a"]), {"a": None}) == {"a": None}
    assert restored(obj({"a": {"type": ["string", "null"]}}), {"a": None}) == {"a": None}
    assert restored({"type": "object"}, {"a": None}) == {"a": None}
    recursive = obj(
        {"t": {"$ref": "#/$defs/T"}},
        ["t"],
        **{"$defs": {"T": obj({"t": {"$ref": "#/$defs/T"}}, ["t"])}},
    )
    assert restored(recursive, {"t": {"t": None}}) == {"t": {"t": None}}


# -- properties over random FunctionParam tools -----------------------------------------

_NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True)
_SCALARS = st.sampled_from(["string", "integer", "number", "boolean"])


def _param(depth: int) -> st.SearchStrategy[tp.FunctionParam]:
    scalar = st.builds(
        lambda name, kind, required, enum, described: tp.FunctionParam(
            name,
            kind,
            required=required,
            enum=enum if kind in ("string", "integer") else None,
            description="A value." if described else None,
        ),
        _NAMES,
        _SCALARS,
        st.booleans(),
        st.one_of(st.none(), st.just(["a", "b"]).map(list)),
        st.booleans(),
    ).map(_fix_enum)
    array = st.builds(
        lambda name, item, required: tp.FunctionParam(
            name, "array", item_type=item, required=required
        ),
        _NAMES,
        _SCALARS,
        st.booleans(),
    )
    if depth == 0:
        return st.one_of(scalar, array)
    children = st.lists(_param(depth - 1), min_size=1, max_size=3, unique_by=lambda p: p.name)
    nested = st.builds(
        lambda name, kind, props, required: tp.FunctionParam(
            name,
            kind,
            item_type="object" if kind == "array" else None,
            object_properties=props,
            required=required,
        ),
        _NAMES,
        st.sampled_from(["object", "array"]),
        children,
        st.booleans(),
    )
    return st.one_of(scalar, array, nested)


def _fix_enum(param: tp.FunctionParam) -> tp.FunctionParam:
    if param.type == "integer" and param.enum:
        return tp.FunctionParam(param.name, "integer", enum=[1, 2], required=param.required)
    return param


_FUNCTIONS = st.lists(_param(2), min_size=0, max_size=4, unique_by=lambda p: p.name).map(
    lambda params: tp.Function("tool", lambda a: "x", parameters=params)
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fn=_FUNCTIONS)
def test_every_function_param_tool_exports_to_every_provider(fn: tp.Function) -> None:
    for strict in (False, True):
        openai = providers.to_tool(fn, "openai", strict=strict)
        exact_param(ChatCompletionToolParam, openai)
        jsonschema.Draft202012Validator.check_schema(openai["function"]["parameters"])
        exact_param(ToolParam, providers.to_tool(fn, "anthropic", strict=strict))
    exact_model(gt.FunctionDeclaration, providers.to_tool(fn, "gemini"))
    exact_model(mt.Tool, providers.to_tool(fn, "mcp"))
    _all_closed_and_required(providers.to_tool(fn, "openai", strict=True)["function"]["parameters"])


def _all_closed_and_required(schema: Any) -> None:
    if isinstance(schema, list):
        for item in schema:
            _all_closed_and_required(item)
    elif isinstance(schema, dict):
        if "properties" in schema:
            assert schema["additionalProperties"] is False
            assert schema["required"] == list(schema["properties"])
        for value in schema.values():
            _all_closed_and_required(value)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data(), fn=_FUNCTIONS)
def test_what_a_strict_model_may_send_is_valid_once_nulls_are_restored(
    data: st.DataObject, fn: tp.Function
) -> None:
    exported = providers.to_tool(fn, "openai", strict=True)["function"]["parameters"]
    arguments = data.draw(_instances(exported))
    parsed = fn.parse_arguments(arguments)
    assert isinstance(parsed, tp.Ok), parsed
    jsonschema.validate(parsed[0], fn.json_schema())


def _instances(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values valid under a strict export of FunctionParams (what a model may send)."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    options = []
    for kind in kinds:
        if kind == "null":
            options.append(st.none())
        elif kind == "string":
            options.append(st.text(max_size=3))
        elif kind == "integer":
            options.append(st.integers(-5, 5))
        elif kind == "number":
            options.append(st.floats(-5, 5))
        elif kind == "boolean":
            options.append(st.booleans())
        elif kind == "array":
            items = schema.get("items")
            options.append(st.lists(_instances(items) if items else st.none(), max_size=2))
        elif kind == "object":
            options.append(
                st.fixed_dictionaries({k: _instances(v) for k, v in schema["properties"].items()})
            )
    return st.one_of(options)
