"""FunctionParam: the Elixir rules and JSON Schema output."""

from __future__ import annotations

import pytest

import toolparse as tp
from toolparse import FunctionParam as P


def errors_of(**kwargs: object) -> list[tuple[str, str]]:
    with pytest.raises(tp.FunctionDefinitionError) as info:
        P(**kwargs)  # type: ignore[arg-type]
    return info.value.errors


def test_defaults_and_storage() -> None:
    p = P("name", "string", description="A name", required=True)
    assert (p.name, p.type, p.description, p.required) == ("name", "string", "A name", True)
    q = P("x", "string")
    assert q.description is None
    assert q.required is False
    assert q.item_type is None
    assert P("tags", "array", item_type="string").item_type == "string"
    assert P("color", "string", enum=["red", "green"]).enum == ("red", "green")


def test_object_properties_stored_and_nested() -> None:
    inner = P("inner", "object", object_properties=[P("a", "string")])
    outer = P("outer", "object", object_properties=[P("x", "string"), P("y", "integer"), inner])
    assert len(outer.object_properties) == 3
    assert outer.object_properties[2].object_properties[0].name == "a"


def test_is_a_value_error_and_immutable() -> None:
    assert issubclass(tp.FunctionDefinitionError, ValueError)
    p = P("x", "string")
    with pytest.raises(AttributeError):
        p.name = "y"  # type: ignore[misc]


def test_item_type_not_allowed_on_string() -> None:
    assert ("item_type", "not allowed for type 'string'") in errors_of(
        name="x", type="string", item_type="number"
    )


def test_object_properties_not_allowed_on_string() -> None:
    errs = errors_of(name="x", type="string", object_properties=[P("a", "string")])
    assert ("object_properties", "not allowed for type 'string'") in errs


def test_array_of_object_requires_properties() -> None:
    assert ("object_properties", "required when array type of object is used") in errors_of(
        name="x", type="array", item_type="object"
    )


def test_object_requires_properties() -> None:
    assert ("object_properties", "is required for object type") in errors_of(
        name="x", type="object"
    )


def test_enum_only_on_string_integer_number() -> None:
    assert ("enum", "not allowed for type 'boolean'") in errors_of(
        name="x", type="boolean", enum=[True]
    )
    for kind in ("string", "integer", "number"):
        P("x", kind, enum=[1])


def test_every_problem_named_at_once() -> None:
    errs = errors_of(name="", type="banana", item_type="string")
    fields = [f for f, _ in errs]
    assert fields == ["name", "type", "item_type"]


def test_bad_nested_element_named() -> None:
    errs = errors_of(name="o", type="object", object_properties=["nope"])
    assert errs[0][0] == "object_properties[0]"


@pytest.mark.parametrize(
    ("param", "expected"),
    [
        (P("name", "string"), {"type": "string"}),
        (P("age", "integer", enum=[1, 2, 10]), {"type": "integer", "enum": [1, 2, 10]}),
        (
            P("height", "number", enum=[5.0, 5.5, 6, 6.5]),
            {"type": "number", "enum": [5.0, 5.5, 6, 6.5]},
        ),
        (P("color", "string", enum=["red", "green"]), {"type": "string", "enum": ["red", "green"]}),
        (
            P("enabled", "boolean", description="If option is enabled"),
            {"type": "boolean", "description": "If option is enabled"},
        ),
        (
            P("list_data", "array", description="A list of things"),
            {"type": "array", "description": "A list of things"},
        ),
        (
            P("tags", "array", item_type="string", description="tag values"),
            {"type": "array", "items": {"type": "string"}, "description": "tag values"},
        ),
    ],
)
def test_property_schemas(param: P, expected: dict[str, object]) -> None:
    assert param.to_json_schema() == expected


def test_object_property_schema() -> None:
    p = P(
        "attributes",
        "object",
        description="Set of attributes for a new thing",
        object_properties=[
            P("name", "string", description="The name of the thing"),
            P("code", "string", description="Unique code", required=True),
        ],
    )
    assert p.to_json_schema() == {
        "type": "object",
        "description": "Set of attributes for a new thing",
        "properties": {
            "name": {"type": "string", "description": "The name of the thing"},
            "code": {"type": "string", "description": "Unique code"},
        },
        "required": ["code"],
        "additionalProperties": False,
    }


def test_array_of_objects_schema() -> None:
    p = P(
        "info",
        "array",
        item_type="object",
        object_properties=[P("name", "string"), P("age", "number")],
    )
    assert p.to_json_schema() == {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "age": {"type": "number"}},
            "required": [],
            "additionalProperties": False,
        },
    }


def test_parameters_schema_basic() -> None:
    params = [P("code", "string", required=True), P("name", "string")]
    assert P.to_parameters_schema(params) == {
        "type": "object",
        "properties": {"code": {"type": "string"}, "name": {"type": "string"}},
        "required": ["code"],
        "additionalProperties": False,
    }


def test_parameters_schema_nested_closed_at_every_level() -> None:
    person = P(
        "person",
        "object",
        object_properties=[
            P("name", "string", required=True),
            P("age", "integer"),
            P(
                "education",
                "object",
                object_properties=[
                    P("institution_name", "string", required=True),
                    P("completed", "boolean"),
                ],
            ),
        ],
    )
    schema = P.to_parameters_schema([person])
    assert schema["required"] == []
    assert schema["additionalProperties"] is False
    person_schema = schema["properties"]["person"]
    assert person_schema["required"] == ["name"]
    assert person_schema["additionalProperties"] is False
    edu = person_schema["properties"]["education"]
    assert edu["required"] == ["institution_name"]
    assert edu["additionalProperties"] is False


def test_required_properties_in_order() -> None:
    assert P.required_properties([P("a", "string")]) == []
    params = [
        P("code", "string", required=True),
        P("x", "string"),
        P("important", "string", required=True),
    ]
    assert P.required_properties(params) == ["code", "important"]


def test_equality() -> None:
    assert P("a", "string") == P("a", "string")
    assert P("a", "string") != P("a", "integer")
    assert hash(P("a", "string", enum=["x"])) == hash(P("a", "string", enum=["x"]))
