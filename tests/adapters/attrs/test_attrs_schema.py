"""The JSON Schema the attrs adapter exports, construct by construct."""

import dataclasses
import re
import sys
from collections.abc import Callable
from typing import Any

import attrs
import jsonschema
import pytest
from attrs import validators as v

import toolparse as tp
import toolparse_attrs

from .models import (
    Aliased,
    Choices,
    Collections,
    Dates,
    Defaults,
    FixedTuple,
    Invoice,
    Mappings,
    Node,
    OldStyle,
    Point,
    Unions,
    Validated,
)


def schema(source: Any, **kwargs: Any) -> dict[str, Any]:
    result = tp.Function("t", lambda a: "x", args_schema=source, **kwargs).json_schema()
    jsonschema.Draft202012Validator.check_schema(result)
    return result


def props(source: Any, **kwargs: Any) -> dict[str, Any]:
    return schema(source, **kwargs)["properties"]  # type: ignore[no-any-return]


def test_class_docstring_and_field_description() -> None:
    s = schema(Invoice)
    assert s["description"] == "Record an invoice."
    item = s["properties"]["line_items"]["items"]
    assert item["description"] == "One line of an invoice."
    assert item["properties"]["sku"] == {"type": "string", "description": "Stock keeping unit"}
    assert s["required"] == ["vendor_name", "total_amount", "line_items"]
    assert list(s["properties"]) == [
        "vendor_name",
        "total_amount",
        "line_items",
        "currency",
        "priority",
    ]
    assert "additionalProperties" not in s  # cattrs ignores extra keys by default


def test_scalars_defaults_and_factories() -> None:
    p = props(Defaults)
    assert p["name"] == {"type": "string", "default": "anon"}
    assert p["tags"] == {"type": "array", "items": {"type": "string"}, "default": []}
    assert p["limit"] == {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None}
    assert p["extra"] == {
        "type": "object",
        "additionalProperties": {"type": "integer"},
        "default": {},
    }
    assert "required" not in schema(Defaults)


def test_a_factory_of_the_users_is_not_called() -> None:
    calls: list[int] = []

    def make() -> list[int]:
        calls.append(1)
        return [1]

    @attrs.define
    class Model:
        numbers: list[int] = attrs.Factory(make)
        other: Any = attrs.field(default=object())

    p = props(Model)
    assert p["numbers"] == {"type": "array", "items": {"type": "integer"}}
    assert p["other"] == {}  # not JSON: no default exported
    assert calls == []


def test_enums_and_literals() -> None:
    p = props(Choices)
    assert p["color"] == {"type": "string", "enum": ["red", "green"]}
    assert p["level"] == {"type": "integer", "enum": [1, 2], "default": 1}
    assert p["mode"] == {"type": "string", "enum": ["fast", "slow"], "default": "fast"}
    assert p["answer"] == {"type": "integer", "enum": [1, 2, 3], "default": 1}


def test_dates() -> None:
    p = props(Dates)
    assert p["when"] == {"type": "string", "format": "date-time"}
    assert p["day"] == {"type": "string", "format": "date"}


def test_collections() -> None:
    p = props(Collections)
    assert p["many"] == {"type": "array", "items": {"type": "number"}, "default": []}
    assert p["unique"] == {
        "type": "array",
        "items": {"type": "integer"},
        "uniqueItems": True,
        "default": [],
    }
    assert p["frozen"]["uniqueItems"] is True
    assert p["sequence"] == {"type": "array", "items": {"type": "integer"}, "default": []}
    fixed = props(FixedTuple)
    assert fixed["pair"] == {
        "type": "array",
        "prefixItems": [{"type": "integer"}, {"type": "string"}],
        "minItems": 2,
        "maxItems": 2,
    }
    assert fixed["empty"] == {"type": "array", "maxItems": 0, "default": []}


def test_mappings() -> None:
    p = props(Mappings)
    assert p["counts"] == {"type": "object", "additionalProperties": {"type": "integer"}}
    assert p["nested"]["additionalProperties"] == {"type": "array", "items": {"type": "string"}}
    assert p["sizes"]["propertyNames"] == {"enum": ["s", "m"]}


def test_mapping_keys_must_be_strings() -> None:
    @attrs.define
    class Model:
        counts: dict[int, int]

    with pytest.raises(tp.FunctionDefinitionError, match="keys must be str"):
        schema(Model)


def test_validators_become_keywords() -> None:
    p = props(Validated)
    assert p["code"] == {"type": "string", "pattern": "^(?:[A-Z]{3})$"}
    assert p["age"] == {"type": "integer", "minimum": 0, "exclusiveMaximum": 150}
    assert p["score"] == {"type": "number", "exclusiveMinimum": 0, "maximum": 1, "default": 0.5}
    assert p["name"] == {"type": "string", "minLength": 1, "maxLength": 10, "default": "x"}
    assert p["size"] == {"type": "string", "enum": ["s", "m", "l"], "default": "m"}
    assert p["numbers"] == {
        "type": "array",
        "items": {"type": "integer", "minimum": 0},
        "maxItems": 5,
        "default": [],
    }
    assert p["nickname"] == {
        "anyOf": [{"type": "string", "minLength": 2}, {"type": "null"}],
        "default": None,
    }


def test_pattern_anchoring_follows_the_match_function() -> None:
    @attrs.define
    class Model:
        full: str = attrs.field(validator=v.matches_re("a+"))
        start: str = attrs.field(validator=v.matches_re("a+", func=re.match))
        anywhere: str = attrs.field(validator=v.matches_re("a+", func=re.search))
        flagged: str = attrs.field(validator=v.matches_re("a+", flags=re.IGNORECASE))

    p = props(Model)
    assert p["full"]["pattern"] == "^(?:a+)$"
    assert p["start"]["pattern"] == "^(?:a+)"
    assert p["anywhere"]["pattern"] == "a+"
    assert "pattern" not in p["flagged"]  # no JSON Schema flag for it; it still runs


def test_deep_mapping_and_validators_without_keywords() -> None:
    @attrs.define
    class Model:
        scores: dict[str, int] = attrs.field(validator=v.deep_mapping(v.min_len(2), v.ge(0)))
        # a substring test has no enum, a custom function no keyword
        letter: str = attrs.field(validator=[v.in_("abc"), lambda i, a, x: None])

    p = props(Model)
    assert p["scores"] == {
        "type": "object",
        "additionalProperties": {"type": "integer", "minimum": 0},
        "propertyNames": {"type": "string", "minLength": 2},
    }
    assert p["letter"] == {"type": "string"}


def test_unions() -> None:
    p = props(Unions)
    pet = p["pet"]["anyOf"]
    assert [b["properties"]["kind"] for b in pet] == [
        {"type": "string", "enum": ["cat"]},
        {"type": "string", "enum": ["dog"]},
    ]
    # cattrs picks the class from the keys: each shape is closed
    assert all(b["additionalProperties"] is False for b in pet)
    assert [b.get("type") for b in p["shape"]["anyOf"]] == ["object", "object", "null"]
    assert p["value"] == {"anyOf": [{"type": "integer"}, {"type": "string"}], "default": 0}
    assert p["maybe"]["anyOf"] == [
        {"type": "array", "items": {"type": "integer"}},
        {"type": "null"},
    ]


def test_attr_s_style_and_untyped_fields() -> None:
    s = schema(OldStyle)
    assert s["description"] == "Declared with attr.s and attr.ib."
    # no annotation: the instance_of validator gives the type
    assert s["properties"] == {
        "name": {"type": "string"},
        "weight": {"type": "number"},
        "label": {"type": "string", "default": "none"},
    }


def test_aliases_are_the_exported_names() -> None:
    s = schema(Aliased)
    assert list(s["properties"]) == ["fullName", "secret"]
    assert s["required"] == ["fullName"]


def test_dataclass_through_using() -> None:
    s = schema(toolparse_attrs.using(Point))
    assert s["description"] == "A point on a plane."
    assert s["required"] == ["x"]

    @dataclasses.dataclass
    class Bare:
        x: int

    assert "A point" not in str(schema(toolparse_attrs.using(Bare)))  # no made-up docstring


@pytest.mark.skipif(
    sys.version_info < (3, 11),
    reason="Python 3.10's get_type_hints leaves a quoted name inside list[...] unresolved",
)
def test_recursive_class() -> None:
    s = schema(Node)
    assert s["properties"]["children"]["items"] == {"$ref": "#"}
    jsonschema.validate({"value": 1, "children": [{"value": 2, "children": []}]}, s)

    @attrs.define
    class Tree:
        root: Node

    t = schema(Tree)
    assert t["properties"]["root"] == {"$ref": "#/$defs/Node"}
    assert t["$defs"]["Node"]["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"root": {"value": 1, "children": [{"value": "x"}]}}, t)


def test_reject_closes_every_object() -> None:
    s = schema(Invoice, unknown_arguments="reject")
    assert s["additionalProperties"] is False
    assert s["properties"]["line_items"]["items"]["additionalProperties"] is False


class Money:
    def __init__(self, text: str) -> None:
        self.text = text


def money_converter() -> Any:
    converter = toolparse_attrs.make_converter()
    converter.register_structure_hook(Money, lambda value, _: Money(value))
    return converter


def test_unknown_type_is_a_definition_error_with_the_way_out() -> None:
    @attrs.define
    class Model:
        price: Money

    with pytest.raises(tp.FunctionDefinitionError, match="json_schema"):
        schema(Model)

    @attrs.define
    class Described:
        price: Money = attrs.field(
            metadata={"json_schema": {"type": "string", "examples": ["1.00 EUR"]}}
        )

    import cattrs

    if hasattr(cattrs.Converter, "get_structure_hook"):  # cattrs >= 24
        with pytest.raises(tp.FunctionDefinitionError, match="Money"):
            schema(Described)  # described, but cattrs has no structure hook for it
    else:  # cattrs 23 finds out when it structures
        parsed = tp.Function("t", lambda a: "x", args_schema=Described).parse_arguments(
            {"price": "1 EUR"}
        )
        assert isinstance(parsed, tp.Error)
        assert "Money" in parsed.message
    source = toolparse_attrs.using(Described, money_converter())
    assert props(source)["price"] == {"type": "string", "examples": ["1.00 EUR"]}
    parsed = tp.Function("t", lambda a: "x", args_schema=source).parse_arguments({"price": "1 EUR"})
    assert isinstance(parsed, tp.Ok)
    assert parsed.value.price.text == "1 EUR"


def _plugin(answer: Callable[[object, Any], Any]) -> tp.PluginManager:
    class Plugin:
        @tp.hookimpl
        def toolparse_field_schema(self, adapter: str, field: object, schema: Any) -> Any:
            assert adapter == "attrs"
            return answer(field, schema)

    pm = tp.make_plugin_manager(load_entry_points=False)
    from toolparse_attrs import AttrsAdapter

    class Register:
        @tp.hookimpl
        def toolparse_register_adapters(self, register: Callable[[Any], None]) -> None:
            register(AttrsAdapter())

    pm.register(Register())
    pm.register(Plugin())
    return pm


def test_field_schema_plugin_overrides_a_field_and_a_type() -> None:
    @attrs.define
    class Model:
        price: Money
        prices: list[Money]
        note: str = attrs.field(default="", metadata={"description": "Free text"})

    def answer(field: object, schema: Any) -> Any:
        if field is Money:
            return {"type": "string", "pattern": "^[0-9]+ [A-Z]{3}$"}
        if isinstance(field, attrs.Attribute) and field.name == "note":
            return {**schema, "maxLength": 200}
        return None

    pm = _plugin(answer)
    source = toolparse_attrs.using(Model, money_converter())
    s = tp.Function("t", lambda a: "x", args_schema=source, plugin_manager=pm).json_schema()
    assert s["properties"]["price"] == {"type": "string", "pattern": "^[0-9]+ [A-Z]{3}$"}
    assert s["properties"]["prices"]["items"]["pattern"] == "^[0-9]+ [A-Z]{3}$"
    assert s["properties"]["note"] == {
        "type": "string",
        "description": "Free text",
        "default": "",
        "maxLength": 200,
    }


def test_metadata_json_schema_adds_keywords() -> None:
    @attrs.define
    class Model:
        city: str = attrs.field(metadata={"json_schema": {"examples": ["Paris"]}})

    assert props(Model)["city"] == {"type": "string", "examples": ["Paris"]}


def test_schema_is_built_for_the_reject_policy_from_a_user_converter() -> None:
    import cattrs

    strict = toolparse_attrs.make_converter(forbid_extra_keys=True)
    s = schema(toolparse_attrs.using(Invoice, strict))
    # the converter refuses extra keys: the schema says so at every level
    assert s["additionalProperties"] is False
    assert s["properties"]["line_items"]["items"]["additionalProperties"] is False
    lenient = schema(toolparse_attrs.using(Invoice, cattrs.Converter()))
    assert "additionalProperties" not in lenient
