"""The marshmallow converter: every field and validator, and agreement with ``load``."""

from __future__ import annotations

import datetime as dt
import decimal
import enum
import uuid
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from marshmallow import EXCLUDE, INCLUDE, Schema, ValidationError, fields, validate

import toolparse as tp
from toolparse_marshmallow import MarshmallowAdapter

from .models import Caps

_VALIDATOR = jsonschema.Draft202012Validator


def schema_of(source: Any, **kwargs: Any) -> dict[str, Any]:
    schema = tp.Function("t", lambda a: "x", args_schema=source, **kwargs).json_schema()
    _VALIDATOR.check_schema(schema)
    return schema


def prop(field: fields.Field[Any], name: str = "f") -> dict[str, Any]:
    """The exported property of a one-field schema."""
    source = Schema.from_dict({name: field})
    return schema_of(source)["properties"][name]  # type: ignore[no-any-return]


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


# -- fields -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        (fields.String(), {"type": "string"}),
        (fields.Integer(), {"type": "integer"}),
        (fields.Integer(strict=True), {"type": "integer"}),
        (fields.Float(), {"type": "number"}),
        (fields.Decimal(), {"type": "number"}),
        (fields.Boolean(), {"type": "boolean"}),
        (fields.DateTime(), {"type": "string", "format": "date-time"}),
        (fields.AwareDateTime(), {"type": "string", "format": "date-time"}),
        (fields.Date(), {"type": "string", "format": "date"}),
        (fields.Time(), {"type": "string", "format": "time"}),
        (fields.Email(), {"type": "string", "format": "email"}),
        (fields.Url(), {"type": "string", "format": "uri"}),
        (fields.Url(relative=True), {"type": "string", "format": "uri-reference"}),
        (fields.IPv4(), {"type": "string", "format": "ipv4"}),
        (fields.IPv6(), {"type": "string", "format": "ipv6"}),
        (
            fields.IP(),
            {"type": "string", "anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]},
        ),
        (fields.Raw(), {"type": ["string", "number", "boolean", "object", "array"]}),
        (fields.Raw(allow_none=True), {}),
        (fields.List(fields.Integer()), {"type": "array", "items": {"type": "integer"}}),
        (
            fields.Tuple((fields.String(), fields.Integer())),
            {
                "type": "array",
                "prefixItems": [{"type": "string"}, {"type": "integer"}],
                "items": False,
                "minItems": 2,
                "maxItems": 2,
            },
        ),
        (fields.Dict(), {"type": "object"}),
        (
            fields.Dict(keys=fields.String(), values=fields.Float()),
            {"type": "object", "additionalProperties": {"type": "number"}},
        ),
        (
            fields.Dict(keys=fields.String(validate=validate.Length(max=3))),
            {"type": "object", "propertyNames": {"maxLength": 3}},
        ),
        (
            fields.Dict(keys=fields.Integer()),
            {"type": "object", "propertyNames": {"pattern": r"^[+-]?\d+$"}},
        ),
        (fields.Enum(Color), {"type": "string", "enum": ["RED", "BLUE"]}),
        (fields.Enum(Color, by_value=True), {"enum": ["red", "blue"]}),
        (fields.Enum(Level, by_value=fields.Integer()), {"enum": [1, 2]}),
        (fields.Constant("v1"), {"const": "v1", "default": "v1"}),
    ],
)
def test_field_mapping(field: fields.Field[Any], expected: dict[str, Any]) -> None:
    assert prop(field) == expected


def test_uuid_has_format_and_pattern() -> None:
    exported = prop(fields.UUID())
    assert exported["format"] == "uuid"
    jsonschema.validate(str(uuid.uuid4()), exported)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate("not-a-uuid", exported)


def test_timedelta_is_a_bounded_number_in_its_unit() -> None:
    exported = prop(fields.TimeDelta(precision="days"))
    assert exported["type"] == "number"
    assert exported["description"] == "a duration in days"
    Schema.from_dict({"f": fields.TimeDelta(precision="days")})().load({"f": exported["maximum"]})
    with pytest.raises(ValidationError):
        Schema.from_dict({"f": fields.TimeDelta(precision="days")})().load(
            {"f": exported["maximum"] + 1}
        )


def test_timestamp_datetime_is_a_number() -> None:
    if "timestamp" not in fields.DateTime.DESERIALIZATION_FUNCS:
        pytest.skip("this marshmallow has no timestamp format")
    assert prop(fields.DateTime(format="timestamp")) == {
        "type": "number",
        "minimum": 0,
        "maximum": 253_402_300_799,
    }


def test_custom_date_format_is_described_with_an_example() -> None:
    exported = prop(fields.Date(format="%d/%m/%Y", metadata={"description": "Due date"}))
    assert exported == {
        "type": "string",
        "description": "Due date (format %d/%m/%Y, e.g. 31/01/2024)",
    }


def test_naive_datetime_says_no_offset() -> None:
    exported = prop(fields.NaiveDateTime())
    assert "format" not in exported
    jsonschema.validate("2024-01-31T13:45:00", exported)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate("2024-01-31T13:45:00Z", exported)


def test_boolean_with_custom_spellings_lists_them() -> None:
    exported = prop(fields.Boolean(truthy={"yes"}, falsy={"no"}))
    assert exported == {"enum": ["no", "yes"]}


def test_nested_only_exclude_many_and_pluck() -> None:
    class Address(Schema):
        street = fields.String(required=True)
        city = fields.String(data_key="cityName")
        zip_code = fields.String()

    class Person(Schema):
        home = fields.Nested(Address, only=("street", "city"))
        offices = fields.Nested(Address, many=True, exclude=("zip_code",))
        cities = fields.Pluck(Address, "city", many=True)
        first_city = fields.Pluck(Address, "city")

    props = schema_of(Person)["properties"]
    assert list(props["home"]["properties"]) == ["street", "cityName"]
    assert props["home"]["required"] == ["street"]
    assert props["offices"]["type"] == "array"
    assert list(props["offices"]["items"]["properties"]) == ["street", "cityName"]
    assert props["cities"] == {"type": "array", "items": {"type": "string"}}
    assert props["first_city"] == {"type": "string"}
    loaded = Person().load({"cities": ["a", "b"], "first_city": "c"})
    assert loaded == {"cities": [{"city": "a"}, {"city": "b"}], "first_city": {"city": "c"}}


def test_self_referencing_schema_uses_defs() -> None:
    class Node(Schema):
        name = fields.String(required=True)
        children = fields.List(fields.Nested(lambda: Node()))

    schema = schema_of(Node)
    assert schema["type"] == "object"
    assert schema["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    assert schema["$defs"]["Node"]["properties"]["name"] == {"type": "string"}
    tree = {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}
    jsonschema.validate(tree, schema, cls=_VALIDATOR)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"name": "a", "children": [{"children": []}]}, schema)
    fn = tp.Function("t", lambda a: "x", args_schema=Node)
    assert fn.execute(tree) == tp.Ok("x")
    result = fn.execute({"name": "a", "children": [{"name": "b", "children": [{}]}]})
    assert isinstance(result, tp.Error)
    assert "children[0].children[0].name: is required" in result.message


def test_mutually_recursive_nested_through_a_field_ref() -> None:
    class Employee(Schema):
        name = fields.String()
        manager = fields.Nested(lambda: Employee(), allow_none=True)

    schema = schema_of(Employee)
    assert schema["properties"]["manager"] == {
        "anyOf": [{"$ref": "#/$defs/Employee"}, {"type": "null"}]
    }
    jsonschema.validate(
        {"name": "a", "manager": {"name": "b", "manager": None}}, schema, cls=_VALIDATOR
    )


# -- field options -------------------------------------------------------------------


def test_data_key_dump_only_load_only_required_and_descriptions() -> None:
    class Account(Schema):
        user_name = fields.String(
            required=True, data_key="userName", metadata={"description": "Login"}
        )
        password = fields.String(load_only=True)
        created = fields.DateTime(dump_only=True)
        shown = fields.Method("show")

        def show(self, obj: Any) -> str:
            return "x"

    schema = schema_of(Account)
    assert list(schema["properties"]) == ["userName", "password"]
    assert schema["required"] == ["userName"]
    assert schema["properties"]["userName"]["description"] == "Login"


def test_allow_none_and_defaults() -> None:
    class Opts(Schema):
        limit = fields.Integer(load_default=10)
        label = fields.String(load_default=None)
        when = fields.Date(load_default=dt.date(2024, 1, 31))
        color = fields.Enum(Color, load_default=Color.RED)
        tags = fields.List(fields.String(), load_default=list)
        kind = fields.String(allow_none=True, validate=validate.OneOf(["a", "b"]))
        price = fields.Decimal(load_default=decimal.Decimal("1.50"))

    props = schema_of(Opts)["properties"]
    assert props["limit"] == {"type": "integer", "default": 10}
    assert props["label"] == {"type": ["string", "null"], "default": None}
    assert props["when"]["default"] == "2024-01-31"
    assert props["color"]["default"] == "RED"  # as the model sends it: by name
    assert "default" not in props["tags"]  # a callable default has no JSON form
    assert props["kind"] == {"type": ["string", "null"], "enum": ["a", "b", None]}
    assert props["price"]["default"] == 1.5


def test_partial_instance_requires_nothing() -> None:
    class Person(Schema):
        name = fields.String(required=True)
        age = fields.Integer(required=True)

    assert "required" not in schema_of(Person(partial=True))
    assert schema_of(Person(partial=("age",)))["required"] == ["name"]
    fn = tp.Function("t", lambda a: "x", args_schema=Person(partial=("age",)))
    assert fn.execute({"name": "a"}) == tp.Ok("x")


def test_many_instance_is_a_definition_error() -> None:
    class Person(Schema):
        name = fields.String()

    with pytest.raises(tp.FunctionDefinitionError, match="many=True"):
        tp.Function("t", lambda a: "x", args_schema=Person(many=True))


def test_from_dict_and_instances_are_accepted() -> None:
    generated = Schema.from_dict({"q": fields.String(required=True)})
    assert schema_of(generated)["required"] == ["q"]
    assert schema_of(generated())["required"] == ["q"]
    adapter = MarshmallowAdapter()
    assert adapter.accepts(generated)
    assert adapter.accepts(generated())
    assert not adapter.accepts({"type": "object"})
    assert not adapter.accepts(int)


@pytest.mark.parametrize(("unknown", "expected"), [(EXCLUDE, None), (INCLUDE, True), (None, False)])
def test_meta_unknown_sets_additional_properties(unknown: str | None, expected: Any) -> None:
    meta = type("Meta", (), {} if unknown is None else {"unknown": unknown})
    source = type("S", (Schema,), {"Meta": meta, "a": fields.String()})
    schema = schema_of(source)
    assert schema.get("additionalProperties") == expected
    # "reject" closes every object level, nested ones included
    nested = type("P", (Schema,), {"Meta": meta, "child": fields.Nested(source)})
    closed = schema_of(nested, unknown_arguments="reject")
    assert closed["additionalProperties"] is False
    assert closed["properties"]["child"]["additionalProperties"] is False
    opened = schema_of(nested, unknown_arguments="ignore")
    assert "additionalProperties" not in opened["properties"]["child"]


def test_no_generated_titles_anywhere_in_the_corpus() -> None:
    from toolparse.testing import generated_titles as _titles

    from .models import corpus

    for source in corpus():
        assert _titles(schema_of(source)) == [], source


# -- validators ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        (
            fields.String(validate=validate.Length(min=1, max=5)),
            {"type": "string", "minLength": 1, "maxLength": 5},
        ),
        (
            fields.String(validate=validate.Length(equal=3)),
            {"type": "string", "minLength": 3, "maxLength": 3},
        ),
        (
            fields.List(fields.String(), validate=validate.Length(max=2)),
            {"type": "array", "items": {"type": "string"}, "maxItems": 2},
        ),
        (
            fields.Dict(validate=validate.Length(min=1)),
            {"type": "object", "minProperties": 1},
        ),
        (
            fields.Integer(validate=validate.Range(min=1, max=9)),
            {"type": "integer", "minimum": 1, "maximum": 9},
        ),
        (
            fields.Float(
                validate=validate.Range(min=0, max=1, min_inclusive=False, max_inclusive=False)
            ),
            {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
        ),
        (
            fields.Decimal(validate=validate.Range(min=decimal.Decimal("0.5"))),
            {"type": "number", "minimum": 0.5},
        ),
        (
            fields.String(validate=validate.OneOf(["a", "b"])),
            {"type": "string", "enum": ["a", "b"]},
        ),
        (
            fields.Enum(Color, validate=validate.OneOf([Color.RED])),
            {"type": "string", "enum": ["RED"]},
        ),
        (
            fields.String(validate=validate.NoneOf(["root"])),
            {"type": "string", "not": {"enum": ["root"]}},
        ),
        (fields.Integer(validate=validate.Equal(3)), {"type": "integer", "const": 3}),
        (
            fields.String(validate=validate.Regexp(r"[a-z]+\d")),
            {"type": "string", "pattern": r"^(?:[a-z]+\d)"},
        ),
        (
            fields.String(validate=validate.Regexp(r"^x$")),
            {"type": "string", "pattern": "^x$"},
        ),
        (
            fields.List(fields.String(), validate=validate.ContainsOnly(["a", "b"])),
            {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
        ),
        (
            fields.List(fields.Integer(), validate=validate.ContainsNoneOf([0])),
            {"type": "array", "items": {"type": "integer", "not": {"enum": [0]}}},
        ),
        (fields.String(validate=validate.Email()), {"type": "string", "format": "email"}),
        (fields.String(validate=validate.URL()), {"type": "string", "format": "uri"}),
        (
            fields.String(validate=[validate.Length(min=2), validate.Length(min=4, max=9)]),
            {"type": "string", "minLength": 4, "maxLength": 9},
        ),
        (
            fields.String(validate=validate.Predicate("isupper")),
            {"type": "string"},
        ),
        (
            fields.Date(validate=validate.Range(min=dt.date(2000, 1, 1))),
            {"type": "string", "format": "date"},
        ),
    ],
)
def test_validator_mapping(field: fields.Field[Any], expected: dict[str, Any]) -> None:
    assert prop(field) == expected


def test_and_validator_is_flattened() -> None:
    if not hasattr(validate, "And"):
        pytest.skip("this marshmallow has no validate.And")
    field = fields.Integer(validate=validate.And(validate.Range(min=1), validate.Range(max=5)))
    assert prop(field) == {"type": "integer", "minimum": 1, "maximum": 5}


def test_regexp_with_multiline_flag_is_not_exported() -> None:
    import re

    assert prop(fields.String(validate=validate.Regexp("a$", flags=re.MULTILINE))) == {
        "type": "string"
    }


def test_validators_without_equivalent_still_run() -> None:
    source = Schema.from_dict({"code": fields.String(validate=validate.Predicate("isupper"))})
    fn = tp.Function("t", lambda a: "x", args_schema=source)
    result = fn.execute({"code": "abc"})
    assert isinstance(result, tp.Error)
    assert 'code: Invalid input (received "abc")' in result.message


# -- custom fields and the plugin hook ------------------------------------------------


def test_custom_field_falls_back_to_its_parent() -> None:
    assert prop(Caps(validate=validate.Length(max=3))) == {"type": "string", "maxLength": 3}


class Money(fields.Field):  # type: ignore[type-arg]  # generic only on marshmallow 4
    """A custom field loading "12.50 EUR"."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        amount, currency = str(value).split()
        return decimal.Decimal(amount), currency


def test_plugin_maps_a_custom_field() -> None:
    seen: list[tuple[str, Any, dict[str, Any]]] = []

    class Plugin:
        @tp.hookimpl
        def toolparse_field_schema(
            self, adapter: str, field: object, schema: dict[str, Any]
        ) -> dict[str, Any] | None:
            seen.append((adapter, field, dict(schema)))
            if isinstance(field, Money):
                return {"type": "string", "pattern": r"^\d+\.\d{2} [A-Z]{3}$"}
            return None

    pm = tp.make_plugin_manager(load_entry_points=False)
    pm.register(Plugin())
    from toolparse_marshmallow import toolparse_register_adapters

    class Adapters:
        @tp.hookimpl
        def toolparse_register_adapters(self, register: Callable[[Any], None]) -> None:
            toolparse_register_adapters(register)

    pm.register(Adapters())
    source = Schema.from_dict({"price": Money(required=True), "note": fields.String()})
    fn = tp.Function("t", lambda a: "x", args_schema=source, plugin_manager=pm)
    props = fn.json_schema()["properties"]
    assert props["price"] == {"type": "string", "pattern": r"^\d+\.\d{2} [A-Z]{3}$"}
    assert props["note"] == {"type": "string"}
    assert {adapter for adapter, _, _ in seen} == {"marshmallow"}
    # without the plugin, the custom field is "any value but null"
    plain = schema_of(source)["properties"]["price"]
    assert plain == {"type": ["string", "number", "boolean", "object", "array"]}


# -- round trips -----------------------------------------------------------------------


class Constrained(Schema):
    name = fields.String(required=True, validate=validate.Length(min=2, max=5))
    count = fields.Integer(
        required=True, validate=validate.Range(min=0, max=10, max_inclusive=False)
    )
    code = fields.String(required=True, validate=validate.Regexp(r"[A-C]\d"))
    kind = fields.String(required=True, validate=validate.OneOf(["x", "y"]))
    tags = fields.List(
        fields.String(),
        required=True,
        validate=[validate.Length(max=2), validate.ContainsOnly(["p", "q"])],
    )

    class Meta:
        unknown = EXCLUDE


_CONSTRAINED = schema_of(Constrained)
_CANDIDATES = st.fixed_dictionaries(
    {
        "name": st.text(alphabet="abc", max_size=7),
        "count": st.integers(-3, 13),
        "code": st.from_regex(r"[A-E]\d?.?", fullmatch=True),
        "kind": st.sampled_from(["x", "y", "z"]),
        "tags": st.lists(st.sampled_from(["p", "q", "r"]), max_size=3),
    }
)


@settings(max_examples=50, deadline=None)
@given(_CANDIDATES)
def test_exported_constraints_accept_and_reject_what_load_does(args: dict[str, Any]) -> None:
    exported_ok = _VALIDATOR(_CONSTRAINED).is_valid(args)
    try:
        Constrained().load(args)
    except ValidationError:
        loaded_ok = False
    else:
        loaded_ok = True
    assert exported_ok == loaded_ok, args


@settings(max_examples=25, deadline=None)
@given(from_schema(_CONSTRAINED))
def test_generated_instances_load(args: dict[str, Any]) -> None:
    Constrained().load(args)


def test_schema_is_built_once_per_function_and_instance_reused() -> None:
    created: list[int] = []

    class Counting(Schema):
        a = fields.Integer()

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            created.append(1)
            super().__init__(*args, **kwargs)

    fn = tp.Function("t", lambda a: "x", args_schema=Counting)
    for _ in range(3):
        assert fn.execute({"a": "1"}) == tp.Ok("x")
    assert len(created) == 1


def test_marshmallow3_description_keyword_is_read_from_metadata() -> None:
    from importlib.metadata import version

    major = int(version("marshmallow").split(".")[0])
    if major >= 4:
        pytest.skip("marshmallow 4 has no extra field keywords")
    with pytest.warns(Warning, match="metadata"):
        field = fields.String(description="Old style")
    assert prop(field) == {"type": "string", "description": "Old style"}
