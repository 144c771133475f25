"""The marshmallow parser: errors as shared problems, policies, post_load, serialize."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import (
    EXCLUDE,
    INCLUDE,
    Schema,
    ValidationError,
    fields,
    post_load,
    validate,
    validates_schema,
)

import toolparse as tp
from toolparse.adapter import MAX_PROBLEMS
from toolparse_marshmallow import MarshmallowAdapter


def problems(source: Any, arguments: dict[str, Any], **kwargs: Any) -> list[tp.ArgumentProblem]:
    fn = tp.Function("t", lambda a: "x", args_schema=source, **kwargs)
    result = fn.parse_arguments(arguments)
    assert isinstance(result, tp.Error), result
    assert isinstance(result.exception, tp.InvalidArguments)
    assert isinstance(result.exception.__cause__, (ValidationError, type(None)))
    return list(result.exception.problems)


def message(source: Any, arguments: dict[str, Any], **kwargs: Any) -> str:
    result = tp.Function("t", lambda a: "x", args_schema=source, **kwargs).execute(arguments)
    assert isinstance(result, tp.Error), result
    return result.message


class Item(Schema):
    sku = fields.String(required=True, data_key="SKU")
    qty = fields.Integer(required=True, validate=validate.Range(min=1))


class Order(Schema):
    customer = fields.String(required=True, data_key="customerName")
    items = fields.List(fields.Nested(Item), required=True)
    lines = fields.Nested(Item, many=True)
    meta = fields.Dict(keys=fields.String(validate=validate.Length(max=3)), values=fields.Integer())
    point = fields.Tuple((fields.Float(), fields.Float()))
    first = fields.Pluck(Item, "qty")
    counts = fields.Pluck(Item, "qty", many=True)

    @validates_schema
    def check(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("customer") == "nobody":
            raise ValidationError("customer nobody cannot order")


def test_nested_list_paths_use_data_keys_and_indexes() -> None:
    found = problems(
        Order,
        {
            "customerName": "a",
            "items": [{"SKU": "x", "qty": 1}, {"SKU": "y", "qty": 1}, {"qty": "many"}],
        },
    )
    assert found == [
        tp.ArgumentProblem.missing(("items", 2, "SKU"), "is required"),
        tp.ArgumentProblem(("items", 2, "qty"), "must be an integer", "many"),
    ]


def test_many_nested_dict_tuple_and_pluck_paths() -> None:
    found = problems(
        Order,
        {
            "customerName": "a",
            "items": [],
            "lines": [{"SKU": "x", "qty": 0}],
            "meta": {"long": 1, "ok": "no"},
            "point": [1, "north"],
            "first": "one",
            "counts": [1, "two"],
        },
    )
    assert tp.ArgumentProblem(("lines", 0, "qty"), "must be at least 1", 0) in found
    assert (
        tp.ArgumentProblem(
            ("meta", "long"), "Invalid key: must be at most 3 characters long", "long"
        )
        in found
    )
    assert tp.ArgumentProblem(("meta", "ok"), "must be an integer", "no") in found
    assert tp.ArgumentProblem(("point", 1), "must be a number", "north") in found
    assert tp.ArgumentProblem(("first",), "must be an integer", "one") in found
    assert tp.ArgumentProblem(("counts", 1), "must be an integer", "two") in found
    assert len(found) == 6


def test_schema_level_error_lands_on_the_object() -> None:
    text = message(Order, {"customerName": "nobody", "items": []})
    assert "(arguments): customer nobody cannot order" in text


def test_nested_schema_level_error_lands_on_the_nested_path() -> None:
    class Range_(Schema):
        low = fields.Integer()
        high = fields.Integer()

        @validates_schema
        def low_before_high(self, data: dict[str, Any], **kwargs: Any) -> None:
            if data["low"] > data["high"]:
                raise ValidationError("low must not exceed high")

    source = Schema.from_dict({"span": fields.Nested(Range_)})
    found = problems(source, {"span": {"low": 3, "high": 1}})
    assert found == [tp.ArgumentProblem(("span",), "low must not exceed high")]


def test_wrong_type_for_a_nested_object_echoes_it() -> None:
    text = message(Order, {"customerName": "a", "items": ["x"]})
    assert 'items[0]: must be an object (received "x")' in text


def test_top_level_missing_and_unknown_go_on_their_lines() -> None:
    text = message(Order, {"items": [], "custmerName": "a"})
    assert "Missing parameters: customerName" in text
    assert 'Unrecognized parameters: custmerName (did you mean "customerName"?)' in text
    assert "Accepted parameters: customerName, items, lines, meta, point, first, counts" in text


def test_null_for_a_field_that_is_not_nullable() -> None:
    found = problems(Order, {"customerName": None, "items": []})
    # the same words as any other wrong type (null is not a string)
    assert found == [tp.ArgumentProblem(("customerName",), "must be a string", None)]


def test_custom_required_and_unknown_messages_are_recognised() -> None:
    class Strict(Schema):
        error_messages = {"unknown": "Not allowed here."}  # noqa: RUF012 - marshmallow's class option
        name = fields.String(required=True, error_messages={"required": "Give a name."})

    found = problems(Strict, {"nmae": "a"})
    assert tp.ArgumentProblem.missing(("name",), "Give a name") in found
    assert tp.ArgumentProblem.unrecognized(("nmae",)) in found


# -- unknown keys under each policy --------------------------------------------------------


class Inner(Schema):
    value = fields.Integer(required=True)


class OuterStrict(Schema):
    child = fields.Nested(Inner)
    children = fields.List(fields.Nested(Inner))


class InnerLoose(Schema):
    class Meta:
        unknown = EXCLUDE

    value = fields.Integer(required=True)


class OuterLoose(Schema):
    class Meta:
        unknown = INCLUDE

    child = fields.Nested(InnerLoose)


def test_report_keeps_the_schemas_own_rule() -> None:
    # RAISE (the default) at the nested level: the library's rejection stands
    found = problems(OuterStrict, {"child": {"value": 1, "extra": 2}})
    assert found == [tp.ArgumentProblem.unrecognized(("child", "extra"))]
    # INCLUDE at the top, EXCLUDE nested: extras pass through or are dropped
    fn = tp.Function("t", lambda a: a, args_schema=OuterLoose)
    parsed = fn.parse_arguments({"child": {"value": 1, "extra": 2}, "zzqx": 3})
    assert parsed == tp.Ok({"child": {"value": 1}, "zzqx": 3})


def test_reject_refuses_unknown_keys_at_every_level() -> None:
    found = problems(
        OuterLoose,
        {"child": {"value": "x", "extra": 2}, "zzqx": 3},
        unknown_arguments="reject",
    )
    assert tp.ArgumentProblem.unrecognized(("child", "extra")) in found
    assert tp.ArgumentProblem.unrecognized(("zzqx",)) in found
    assert tp.ArgumentProblem(("child", "value"), "must be an integer", "x") in found
    # nothing else wrong: the unknown nested key alone rejects the call
    found = problems(OuterLoose, {"child": {"value": 1, "extra": 2}}, unknown_arguments="reject")
    assert found == [tp.ArgumentProblem.unrecognized(("child", "extra"))]


def test_ignore_drops_unknown_keys_at_every_level() -> None:
    fn = tp.Function("t", lambda a: a, args_schema=OuterStrict, unknown_arguments="ignore")
    parsed = fn.parse_arguments(
        {"child": {"value": 1, "extra": 2}, "children": [{"value": 2, "x": 1}], "zzqx": 3}
    )
    assert parsed == tp.Ok({"child": {"value": 1}, "children": [{"value": 2}]})


# -- post_load, instances and serialisation ---------------------------------------------


@dataclass
class Point:
    x: int
    y: int


class PointSchema(Schema):
    x = fields.Integer(required=True)
    y = fields.Integer(required=True)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Point:
        return Point(**data)


class Unannotated:
    def __init__(self, name: str) -> None:
        self.name = name


class UnannotatedSchema(Schema):
    name = fields.String(required=True)

    @post_load
    def make(self, data, **kwargs):  # type: ignore[no-untyped-def]  # no annotation on purpose
        return Unannotated(**data)


def test_post_load_object_reaches_the_body_and_serialises() -> None:
    fn = tp.Function("t", lambda p: p, args_schema=PointSchema)
    result = fn.execute({"x": "1", "y": 2})
    assert isinstance(result, tp.Ok)
    assert json.loads(result.value) == {"x": 1, "y": 2}


def test_an_unannotated_post_load_type_is_learnt_when_loaded() -> None:
    fn = tp.Function("t", lambda p: p, args_schema=UnannotatedSchema)
    assert json.loads(fn.execute({"name": "a"}).value) == {"name": "a"}


def test_serialize_returns_none_for_objects_no_schema_builds() -> None:
    adapter = MarshmallowAdapter()
    assert adapter.serialize(object()) is None
    assert adapter.serialize({"a": 1}) is None


def test_keywords_of_a_post_load_object() -> None:
    seen: dict[str, Any] = {}

    @tp.tool("move", args_schema=PointSchema)
    def move(x: int, y: int) -> str:
        """Move somewhere."""
        seen.update(x=x, y=y)
        return "moved"

    assert move.execute({"x": 3, "y": "4"}) == tp.Ok("moved")
    assert seen == {"x": 3, "y": 4}


# -- LLM-shaped input: never an exception, always one Error or Ok -------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=10,
)
_ORDER_FN = tp.Function("t", lambda a: "x", args_schema=Order)


@settings(max_examples=50, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "customerName": _JSON,
            "items": _JSON,
            "lines": _JSON,
            "meta": _JSON,
            "point": _JSON,
            "first": _JSON,
            "counts": _JSON,
        },
    )
)
def test_any_json_gives_ok_or_one_rendered_error(args: dict[str, Any]) -> None:
    result = _ORDER_FN.execute(args)
    if isinstance(result, tp.Error):
        assert result.message.startswith("Invalid arguments for this tool."), result.message
        assert "ValidationError" not in result.message
        assert isinstance(result.exception, tp.InvalidArguments)
    else:
        assert result == tp.Ok("x")


@pytest.mark.parametrize("policy", ["report", "reject", "ignore"])
def test_parse_arguments_equals_execute_under_each_policy(policy: str) -> None:
    received: list[Any] = []
    fn = tp.Function(
        "t", lambda a: received.append(a) or "x", args_schema=OuterStrict, unknown_arguments=policy
    )
    args = {"child": {"value": "1"}, "children": [{"value": 2}]}
    parsed = fn.parse_arguments(args)
    assert fn.execute(args) == tp.Ok("x")
    assert parsed == tp.Ok(received[0])
    assert received[0] == {"child": {"value": 1}, "children": [{"value": 2}]}


# -- the reading of .messages: the user's words, every policy, a bound on work --------------


class Worded(Schema):
    """Texts of the user's own: a required text, a field's and a validator's."""

    code = fields.String(
        required=True,
        error_messages={"required": "Give a code!", "invalid": "Codes are text"},
        data_key="Code",
    )
    size = fields.Integer(validate=validate.Range(min=1, max=9, error="Size out of range"))
    level = fields.Integer(validate=validate.Range(min=1, max=9))
    tags = fields.List(fields.String(validate=validate.Length(max=3)), required=True)
    rows = fields.List(fields.Nested(Schema.from_dict({"n": fields.Integer(required=True)})))


def test_the_users_texts_keep_their_words_and_the_defaults_read_the_shared_ones() -> None:
    found = problems(Worded, {"size": 20, "level": 20, "tags": ["abcd"], "rows": [{}]})
    assert found == [
        tp.ArgumentProblem.missing(
            ("Code",), "Give a code!"
        ),  # a missing field, in the user's words
        tp.ArgumentProblem(("size",), "Size out of range", 20),
        tp.ArgumentProblem(("level",), "must be at most 9", 20),  # the value says which bound
        tp.ArgumentProblem(("tags", 0), "must be at most 3 characters long", "abcd"),
        tp.ArgumentProblem.missing(("rows", 0, "n")),
    ]
    assert problems(Worded, {"Code": 5, "tags": []}) == [
        tp.ArgumentProblem(("Code",), "Codes are text", 5)
    ]


def test_a_rejection_reads_the_same_under_every_policy() -> None:
    from .models import InvoiceSchema

    args = {"total_amount": "abc", "line_items": [{"sku": "A-1", "quantity": 0}]}
    expected = (
        "Invalid arguments for this tool.\n\n"
        'total_amount: must be a number (received "abc")\n'
        "line_items[0].quantity: must be at least 1 (received 0)\n"
        "Missing parameters: vendor_name\n"
        "Accepted parameters: vendor_name, total_amount, currency, line_items\n\n"
        "Fix these arguments and call the tool again."
    )
    adapter = MarshmallowAdapter()
    for policy in ("report", "reject", "ignore"):
        result = tp.Function(
            "t", lambda invoice: "x", args_schema=InvoiceSchema, unknown_arguments=policy
        ).execute(args)
        assert isinstance(result, tp.Error)
        assert result.message == expected
        parser = adapter.compile(InvoiceSchema, unknown_arguments=policy).parser
        assert parser is not None
        parsed = parser(args)
        assert isinstance(parsed, tp.Error)
        assert parsed.message == expected


def test_past_the_problems_kept_the_rest_are_counted() -> None:
    from .models import InvoiceSchema

    args = {"vendor_name": "v", "total_amount": 1, "line_items": [{"sku": 1}] * (MAX_PROBLEMS + 5)}
    result = tp.Function("t", lambda invoice: "x", args_schema=InvoiceSchema).execute(args)
    assert isinstance(result, tp.Error)
    assert isinstance(result.exception, tp.InvalidArguments)
    # each item misses its quantity and has a wrong sku: two problems an item
    assert len(result.exception.problems) == MAX_PROBLEMS
    assert result.exception.more == 2 * (MAX_PROBLEMS + 5) - MAX_PROBLEMS
    assert result.message.splitlines()[2] == "line_items[0].sku: must be a string (received 1)"
    assert f"... and {2 * (MAX_PROBLEMS + 5) - 20} more" in result.message


class Node(Schema):
    """A recursive schema: its level is its own child's."""

    name = fields.String(required=True, validate=validate.Length(min=1))
    children = fields.List(fields.Nested(lambda: Node()))
    parent = fields.Nested(lambda: Node(), allow_none=True)


def test_a_recursive_schema_reads_every_level() -> None:
    found = problems(Node, {"name": "a", "children": [{"name": ""}, {"parent": {"name": 3}}]})
    assert found == [
        tp.ArgumentProblem(("children", 0, "name"), "must be at least 1 character long", ""),
        tp.ArgumentProblem.missing(("children", 1, "name")),
        tp.ArgumentProblem(("children", 1, "parent", "name"), "must be a string", 3),
    ]


@pytest.mark.parametrize("policy", ["report", "reject", "ignore"])
@settings(max_examples=30, deadline=None, derandomize=True)
@given(
    source=st.sampled_from([Node, Worded, Order]),
    args=st.dictionaries(
        st.sampled_from(["name", "children", "parent", "Code", "size", "tags", "rows", "items"]),
        _JSON,
        max_size=4,
    ),
)
def test_any_call_to_any_schema_gives_ok_or_one_rendered_error(
    policy: str, source: type[Schema], args: dict[str, Any]
) -> None:
    result = tp.Function("t", lambda a: "x", args_schema=source, unknown_arguments=policy).execute(
        args
    )
    if isinstance(result, tp.Error):
        assert result.message.startswith("Invalid arguments for this tool."), result.message
        assert isinstance(result.exception, tp.InvalidArguments)
    else:
        assert result == tp.Ok("x")
