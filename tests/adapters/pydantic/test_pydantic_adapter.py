"""What is special to pydantic: kinds of models, schema details, error paths, policies."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import inspect
import json
import re
import uuid
from typing import Any

import attrs
import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import (
    UUID4,
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

import toolparse as tp
from toolparse.adapter import UUID_PATTERN
from toolparse.testing import FORBIDDEN_IN_MESSAGES
from toolparse_pydantic import PydanticAdapter

from .models import (
    Aliased,
    Box,
    Choices,
    Constrained,
    Invoice,
    Line,
    Moments,
    Money,
    Movie,
    Outer,
    Owner,
    Point,
    Strict,
    Unions,
)

ADAPTER = PydanticAdapter()
#: pydantic 2.12 and later forbid extra keys for one validation, at every level
NESTED_REJECT = "extra" in inspect.signature(TypeAdapter.validate_python).parameters
#: the strings of a Decimal the schema allows (the documented pattern)
DECIMAL_PATTERN = r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,5})?$"


def function(source: Any, **kwargs: Any) -> tp.Function:
    return tp.Function("tool", lambda a: "done", args_schema=source, **kwargs)


def message(source: Any, arguments: Any, **kwargs: Any) -> str:
    result = function(source, **kwargs).execute(arguments)
    assert isinstance(result, tp.Error), result
    return result.message


def problem_lines(text: str) -> list[str]:
    """The lines between the head and the tail of an "Invalid arguments" message."""
    head, tail = (
        "Invalid arguments for this tool.\n\n",
        "\n\nFix these arguments and call the tool again.",
    )
    assert text.startswith(head)
    assert text.endswith(tail)
    return text[len(head) : -len(tail)].split("\n")


class Booking(BaseModel):
    start: datetime.date
    end: datetime.date
    guests: int = 1

    @field_validator("guests")
    @classmethod
    def _cap(cls, value: int) -> int:
        if value > 8:
            raise ValueError("at most 8 guests per booking")
        return value

    @model_validator(mode="after")
    def _order(self) -> Booking:
        if self.end <= self.start:
            raise ValueError("end must be after start")
        return self


class Node(BaseModel):
    name: str
    children: list[Node] = []


class Forward(BaseModel):
    later: Later


class Later(BaseModel):
    value: int


class Open(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str


# -- registration and kinds ------------------------------------------------------


def test_registered_by_its_entry_point(full_pm: tp.PluginManager) -> None:
    adapter = full_pm.adapter("pydantic")
    assert isinstance(adapter, PydanticAdapter)
    assert full_pm.select_adapter(Invoice) is adapter
    assert full_pm.select_adapter(Box) is adapter
    # a plain TypedDict or dataclass stays the core's, installed or not
    assert full_pm.select_adapter(Movie) is full_pm.adapter("plain")
    assert full_pm.select_adapter(Point) is full_pm.adapter("plain")


@pytest.mark.parametrize(
    "source", [Invoice, Box, TypeAdapter(Movie), Node, RootModel[dict[str, int]]]
)
def test_accepts_pydantic_kinds(source: object) -> None:
    assert ADAPTER.accepts(source)


@pytest.mark.parametrize("source", [Movie, Point])
def test_a_plain_typeddict_or_dataclass_is_not_claimed(source: object) -> None:
    # the built-in adapter's whatever is installed; adapter="pydantic" still compiles it
    assert not ADAPTER.accepts(source)
    assert function(source, adapter="pydantic").adapter is not None


@attrs.define
class AttrsThing:
    x: int


@pytest.mark.parametrize(
    "source",
    [
        int,
        str,
        list[int],
        dict[str, int],
        {"type": "object"},
        "Invoice",
        object(),
        AttrsThing,
        Invoice(vendor_name="a", total_amount=1, line_items=[]),
    ],
)
def test_leaves_other_sources_alone(source: object) -> None:
    assert not ADAPTER.accepts(source)


@pytest.mark.parametrize("source", [TypeAdapter(int), RootModel[list[int]]])
def test_a_type_that_is_not_an_object_is_a_definition_error(source: object) -> None:
    with pytest.raises(tp.FunctionDefinitionError, match="does not describe a JSON object"):
        function(source)


def test_typeddict_gives_the_validated_dict() -> None:
    fn = function(Movie, adapter="pydantic")
    assert fn.parse_arguments({"title": "Heat", "year": "1995"}) == tp.Ok(
        {"title": "Heat", "year": 1995}
    )


def test_dataclasses_give_instances() -> None:
    assert function(Point, adapter="pydantic").parse_arguments({"x": "3"}) == tp.Ok(
        Point(3, 0, "origin")
    )
    assert function(Box).parse_arguments({"width": 2}) == tp.Ok(Box(2.0, 1.0))


def test_a_ready_type_adapter_is_used_as_is() -> None:
    fn = function(TypeAdapter(Movie))
    assert fn.json_schema() == function(Movie, adapter="pydantic").json_schema()
    assert fn.parse_arguments({"title": "Heat", "year": 1995}) == tp.Ok(
        {"title": "Heat", "year": 1995}
    )


def test_validators_are_built_once_per_function(monkeypatch: pytest.MonkeyPatch) -> None:
    fns = [function(Invoice), function(Movie), function(Point)]

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a TypeAdapter was built on the call path")

    monkeypatch.setattr(TypeAdapter, "__init__", refuse)
    assert fns[0].execute({"vendor_name": "a", "total_amount": 1, "line_items": []}) == tp.Ok(
        "done"
    )
    assert fns[1].execute({"title": "Heat", "year": 1995}) == tp.Ok("done")
    assert fns[2].execute({"x": 1}) == tp.Ok("done")
    assert isinstance(fns[2].execute({"x": "a"}), tp.Error)


def test_a_model_with_a_forward_reference_is_completed() -> None:
    assert not Forward.__pydantic_complete__
    fn = function(Forward)
    assert fn.parse_arguments({"later": {"value": "2"}}) == tp.Ok(Forward(later=Later(value=2)))


def test_a_recursive_model_has_an_object_schema_at_the_top() -> None:
    schema = function(Node).json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object"
    assert schema["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    tree = {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}
    jsonschema.validate(tree, schema, cls=jsonschema.Draft202012Validator)
    assert function(Node).parse_arguments(tree) == tp.Ok(Node.model_validate(tree))


# -- schema --------------------------------------------------------------------------


def test_invoice_schema_exactly() -> None:
    assert function(Invoice).json_schema() == {
        "$defs": {
            "Line": {
                "properties": {
                    "sku": {"description": "stock keeping unit", "type": "string"},
                    "quantity": {"exclusiveMinimum": 0, "type": "integer"},
                },
                "required": ["sku", "quantity"],
                "type": "object",
            }
        },
        "properties": {
            "vendor_name": {"type": "string"},
            "total_amount": {"type": "number"},
            "currency": {"default": "EUR", "type": "string"},
            "line_items": {"items": {"$ref": "#/$defs/Line"}, "type": "array"},
        },
        "required": ["vendor_name", "total_amount", "line_items"],
        "type": "object",
        # pydantic describes a model by its docstring
        "description": "The conformance suite's model: required, optional and nested fields.",
    }


def test_schema_keeps_enums_formats_defaults_and_constraints() -> None:
    choices = function(Choices).json_schema()
    assert choices["properties"]["mode"] == {"enum": ["fast", "slow"], "type": "string"}
    assert choices["properties"]["color"] == {"$ref": "#/$defs/Color", "default": "red"}
    assert choices["$defs"]["Color"] == {"enum": ["red", "green"], "type": "string"}
    assert choices["$defs"]["Priority"] == {"enum": [1, 2], "type": "integer"}
    moments = function(Moments).json_schema()
    assert moments["properties"]["day"] == {"format": "date", "type": "string"}
    assert moments["properties"]["at"] == {"format": "date-time", "type": "string"}
    constrained = function(Constrained).json_schema()["properties"]
    assert constrained["code"] == {"maxLength": 8, "minLength": 2, "type": "string"}
    assert constrained["count"] == {"default": 1, "maximum": 100, "minimum": 1, "type": "integer"}
    assert constrained["labels"] == {
        "items": {"type": "string"},
        "maxItems": 3,
        "minItems": 1,
        "type": "array",
    }


def test_titles_are_dropped_but_a_property_called_title_is_kept() -> None:
    class Titled(BaseModel):
        model_config = ConfigDict(title="Explicit")
        title: str = Field(title="Also explicit", description="the title")

    schema = function(Titled).json_schema()
    assert schema == {
        "properties": {"title": {"description": "the title", "type": "string"}},
        "required": ["title"],
        "type": "object",
    }
    assert "title" in function(Movie).json_schema()["properties"]


def test_decimal_and_uuid_strings_get_a_pattern() -> None:
    schema = function(Money).json_schema()["properties"]
    assert schema["amount"] == {
        "anyOf": [{"type": "number"}, {"pattern": DECIMAL_PATTERN, "type": "string"}]
    }
    assert schema["ref"] == {"format": "uuid", "pattern": UUID_PATTERN, "type": "string"}


@settings(max_examples=50, deadline=None)
@given(st.from_regex(DECIMAL_PATTERN, fullmatch=True))
def test_every_decimal_string_the_schema_allows_parses(text: str) -> None:
    TypeAdapter(decimal.Decimal).validate_python(text)


@settings(max_examples=25, deadline=None)
@given(st.from_regex(UUID_PATTERN, fullmatch=True))
def test_every_uuid_string_the_schema_allows_parses(text: str) -> None:
    assert isinstance(TypeAdapter(uuid.UUID).validate_python(text), uuid.UUID)


def test_a_versioned_uuid_keeps_only_its_format() -> None:
    class V4(BaseModel):
        ref: UUID4

    assert function(V4).json_schema()["properties"]["ref"] == {"format": "uuid4", "type": "string"}


# -- the message ------------------------------------------------------------------


def test_the_message_exactly() -> None:
    result = function(Invoice).execute(
        {"total_amount": "abc", "vendor": "ACME", "line_items": [{"sku": "A-1"}]}
    )
    assert result == tp.Error(
        "Invalid arguments for this tool.\n"
        "\n"
        'total_amount: must be a number (received "abc")\n'
        "line_items[0].quantity: is required\n"
        "Missing parameters: vendor_name\n"
        'Unrecognized parameters: vendor (did you mean "vendor_name"?)\n'
        "Accepted parameters: vendor_name, total_amount, currency, line_items\n"
        "\n"
        "Fix these arguments and call the tool again.",
        result.exception,
    )
    exc = result.exception
    assert isinstance(exc, tp.InvalidArguments)
    assert isinstance(exc.__cause__, ValidationError)
    assert exc.problems == (
        tp.ArgumentProblem.missing("vendor_name", "is required"),
        tp.ArgumentProblem(
            ("total_amount",),
            "must be a number",
            "abc",
        ),
        tp.ArgumentProblem.missing(("line_items", 0, "quantity"), "is required"),
        tp.ArgumentProblem.unrecognized("vendor"),
    )


def test_the_parser_alone_renders_the_same_layout() -> None:
    parse = ADAPTER.parser(Invoice)
    result = parse({"total_amount": 1, "line_items": []})
    assert isinstance(result, tp.Error)
    assert problem_lines(result.message) == [
        "Missing parameters: vendor_name",
        "Accepted parameters: vendor_name, total_amount, currency, line_items",
    ]
    ok = parse({"vendor_name": "a", "total_amount": "2", "line_items": []})
    assert ok == tp.Ok(Invoice(vendor_name="a", total_amount=2, line_items=[]))


def test_discriminated_union_paths_are_data_paths() -> None:
    assert problem_lines(message(Owner, {"owner": "a", "pet": {"kind": "cat"}})) == [
        "pet.meows: is required"
    ]
    assert problem_lines(
        message(Owner, {"owner": "a", "pet": {"kind": "dog", "barks": "many"}})
    ) == ['pet.barks: must be an integer (received "many")']
    # a wrong or absent tag is about the tag's own key
    assert problem_lines(message(Owner, {"owner": "a", "pet": {"kind": "cow"}})) == [
        'pet.kind: must be one of: "cat", "dog" (received "cow")'
    ]
    assert problem_lines(message(Owner, {"owner": "a", "pet": {"meows": 1}})) == [
        "pet.kind: is required"
    ]
    assert problem_lines(message(Owner, {"owner": "a", "pet": 3})) == [
        "pet: must be an object (received 3)"
    ]


def test_union_list_dict_and_tuple_paths() -> None:
    text = message(
        Unions,
        {"value": [1], "values": [1, "x"], "counts": {"a": "b"}, "pair": [1], "tags": "x"},
    )
    assert problem_lines(text) == [
        # a union's members that each want another type: one line naming them all
        "value: must be an integer or a string (received [1])",
        'values[1]: must be an integer or a number (received "x")',
        'counts.a: must be an integer (received "b")',
        "pair[1]: is required",
        'tags: must be a list (received "x")',
    ]


def test_a_union_of_models_reports_each_member_at_the_data_path() -> None:
    class Either(BaseModel):
        pet: Owner | Line

    lines = problem_lines(message(Either, {"pet": {"sku": "a"}}))
    assert "pet.quantity: is required" in lines
    assert "pet.owner: is required" in lines
    assert all(not line.startswith(("pet.Owner", "pet.Line")) for line in lines)


def test_validator_messages_in_the_users_words() -> None:
    assert problem_lines(
        message(Booking, {"start": "2024-05-02", "end": "2024-05-03", "guests": 9})
    ) == ["guests: at most 8 guests per booking (received 9)"]
    assert problem_lines(message(Booking, {"start": "2024-05-02", "end": "2024-05-01"})) == [
        "(arguments): end must be after start"
    ]


def test_a_nested_object_is_not_echoed() -> None:
    class Range(BaseModel):
        low: int
        high: int

        @model_validator(mode="after")
        def _order(self) -> Range:
            if self.high < self.low:
                raise ValueError("high must not be below low")
            return self

    class Query(BaseModel):
        range: Range

    assert problem_lines(message(Query, {"range": {"low": 2, "high": 1}})) == [
        "range: high must not be below low"
    ]


def test_lax_coercions_are_pydantics() -> None:
    class Lax(BaseModel):
        count: int
        flag: bool
        day: datetime.date
        amount: decimal.Decimal

    parsed = function(Lax).parse_arguments(
        {"count": "3", "flag": "yes", "day": "2024-05-01", "amount": "1.10"}
    )
    assert parsed == tp.Ok(
        Lax(count=3, flag=True, day=datetime.date(2024, 5, 1), amount=decimal.Decimal("1.10"))
    )
    lines = problem_lines(
        message(Lax, {"count": 1.5, "flag": "maybe", "day": "May 1st", "amount": "lots"})
    )
    assert lines[0] == "count: must be an integer (received 1.5)"
    assert lines[1].startswith('flag: must be true or false (received "maybe")')
    assert lines[2].startswith('day: must be a date like "2024-01-31"')
    assert lines[3] == 'amount: must be a number (received "lots")'


@settings(max_examples=50, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["vendor_name", "total_amount", "currency", "line_items", "vendor", "x"]),
        st.recursive(
            st.none()
            | st.booleans()
            | st.integers()
            | st.floats(allow_nan=False)
            | st.text(max_size=5),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.text(max_size=5), inner, max_size=3)
            ),
            max_leaves=8,
        ),
    )
)
def test_whatever_the_model_sends_is_ok_or_one_clean_error(arguments: dict[str, Any]) -> None:
    result = function(Invoice).execute(arguments)
    if isinstance(result, tp.Error):
        assert result.message.startswith("Invalid arguments for this tool.\n\n")
        assert not FORBIDDEN_IN_MESSAGES.search(result.message)
        assert len(result.message) <= 2000
    else:
        assert result == tp.Ok("done")


# -- aliases and extra keys ------------------------------------------------------


def test_aliases_in_the_schema_and_the_parser() -> None:
    fn = function(Aliased)
    schema = fn.json_schema()
    assert list(schema["properties"]) == ["fullName", "ageYears"]
    assert schema["properties"]["fullName"] == {
        "description": "first and last name",
        "type": "string",
    }
    assert schema["required"] == ["fullName"]
    assert fn.parse_arguments({"fullName": "Ann", "ageYears": "3"}) == tp.Ok(
        Aliased(fullName="Ann", ageYears=3)
    )
    assert problem_lines(message(Aliased, {"full_name": "Ann", "ageYears": -1})) == [
        "ageYears: must be at least 0 (received -1)",
        "Missing parameters: fullName",
        'Unrecognized parameters: full_name (did you mean "fullName"?)',
        "Accepted parameters: fullName, ageYears",
    ]


def test_keywords_are_attribute_names_not_aliases() -> None:
    parsed = function(Aliased).parse_arguments({"fullName": "Ann"})
    assert isinstance(parsed, tp.Ok)
    assert ADAPTER.keywords(parsed.value) == {"full_name": "Ann", "age_years": 0}
    assert ADAPTER.keywords({"a": 1}) == {"a": 1}
    assert ADAPTER.keywords(Point(1)) == {"x": 1, "y": 0, "label": "origin"}


def test_keywords_leave_out_extra_keys() -> None:
    parsed = function(Open).parse_arguments({"name": "a", "size": 3})
    assert isinstance(parsed, tp.Ok)
    assert parsed.value.model_extra == {"size": 3}
    assert ADAPTER.keywords(parsed.value) == {"name": "a"}


def test_extra_forbid_closes_the_schema_and_reports_extra_keys() -> None:
    schema = function(Outer).json_schema()
    assert schema["additionalProperties"] is False
    assert schema["$defs"]["Closed"]["additionalProperties"] is False
    assert problem_lines(message(Outer, {"inner": {"key": "k", "zz": 1}, "yy": 2})) == [
        "inner.zz: is not accepted",
        "Unrecognized parameters: yy",
        "Accepted parameters: inner",
    ]


def test_extra_allow_says_so_and_keeps_unknown_names() -> None:
    fn = function(Open)
    assert fn.json_schema()["additionalProperties"] is True
    parsed = fn.parse_arguments({"name": "a", "zzqx_unrelated": 1})
    assert isinstance(parsed, tp.Ok)
    assert parsed.value.model_extra == {"zzqx_unrelated": 1}


def test_reject_closes_every_object_pydantic_can_close() -> None:
    schema = function(Invoice, unknown_arguments="reject").json_schema()
    assert schema["additionalProperties"] is False
    assert ("additionalProperties" in schema["$defs"]["Line"]) is NESTED_REJECT
    open_schema = function(Open, unknown_arguments="reject").json_schema()
    assert open_schema["additionalProperties"] is False


@pytest.mark.skipif(
    not NESTED_REJECT, reason="this pydantic cannot forbid extra keys per validation"
)
def test_reject_refuses_nested_extra_keys_too() -> None:
    args = {
        "vendor_name": "a",
        "total_amount": 1,
        "line_items": [{"sku": "A", "quantity": 1, "zz": 1}],
    }
    assert function(Invoice).execute(args) == tp.Ok("done")
    assert problem_lines(message(Invoice, args, unknown_arguments="reject")) == [
        "line_items[0].zz: is not accepted"
    ]
    assert problem_lines(message(Point, {"x": 1, "zz": 1}, unknown_arguments="reject")) == [
        "Unrecognized parameters: zz",
        "Accepted parameters: x, y, label",
    ]
    schema = function(Invoice, unknown_arguments="reject").json_schema()
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(args, schema, cls=jsonschema.Draft202012Validator)


def test_ignore_drops_top_level_names_only() -> None:
    assert function(Strict, unknown_arguments="ignore").execute(
        {"name": "n", "line": {"sku": "a", "quantity": 1}, "yy": 2}
    ) == tp.Ok("done")
    assert problem_lines(
        message(Outer, {"inner": {"key": "k", "zz": 1}, "yy": 2}, unknown_arguments="ignore")
    ) == ["inner.zz: is not accepted"]


# -- results ------------------------------------------------------------------------


def test_serialize_pydantic_instances_only() -> None:
    assert json.loads(ADAPTER.serialize(Line(sku="a", quantity=1)) or "") == {
        "sku": "a",
        "quantity": 1,
    }
    assert json.loads(ADAPTER.serialize(Box(2.0)) or "") == {"width": 2.0, "height": 1.0}
    assert ADAPTER.serialize(Point(1)) is None
    assert ADAPTER.serialize({"a": 1}) is None
    assert ADAPTER.serialize(object()) is None


def test_an_instance_pydantic_cannot_serialise_is_not_shown() -> None:
    class Opaque(BaseModel):
        model_config = ConfigDict(arbitrary_types_allowed=True)
        thing: object

    assert ADAPTER.serialize(Opaque(thing=object())) is None
    fn = tp.Function("tool", lambda a: Opaque(thing=object()))
    assert fn.execute({}) == tp.Error("An unexpected response was returned from the tool.")


def test_a_returned_pydantic_dataclass_gives_its_json() -> None:
    fn = tp.Function("tool", lambda box: box, args_schema=Box)
    result = fn.execute({"width": "2.5"})
    assert isinstance(result, tp.Ok)
    assert json.loads(result.value) == {"width": 2.5, "height": 1.0}


def test_dataclass_extra_keys_are_named_like_model_ones() -> None:
    @dataclasses.dataclass
    class Strictish:
        a: int

    text = message(Strictish, {"b": 1}, unknown_arguments="reject")
    assert "Missing parameters: a" in text
    assert "Unrecognized parameters: b" in text
    assert re.search(r"^(?!.*[Kk]eyword).*$", text, re.S)
