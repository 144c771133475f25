"""Tools of one schema class share its compiled form; the key says so to the core."""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, fields

import toolparse as tp
from toolparse_marshmallow import MarshmallowAdapter


class Shipment(Schema):
    weight = fields.Float(required=True)
    unit = fields.String(load_default="kg")
    note = fields.String(allow_none=True, load_default="none")
    parts = fields.List(fields.Nested(Schema.from_dict({"sku": fields.String()})))


class OtherShipment(Schema):
    weight = fields.Float(required=True)
    unit = fields.String(load_default="kg")


def _echo(args: Any) -> Any:
    return args


def test_a_class_is_keyed_by_itself_and_the_policy() -> None:
    adapter = MarshmallowAdapter()
    assert adapter.compile(Shipment).key == (Shipment, "report")
    # a fresh adapter of the same type gives the same key: the core shares by it
    assert MarshmallowAdapter().compile(Shipment).key == adapter.compile(Shipment).key
    assert adapter.compile(OtherShipment).key != adapter.compile(Shipment).key
    rejecting = adapter.compile(Shipment, unknown_arguments="reject")
    assert rejecting.key == (Shipment, "reject")


def test_tools_of_one_class_share_one_parser_each_with_its_own_schema() -> None:
    adapter = MarshmallowAdapter()
    one, two = adapter.compile(Shipment), adapter.compile(Shipment)
    assert one.parser is two.parser
    assert one.schema == two.schema
    assert one.schema is not two.schema


def test_an_instance_is_not_keyed() -> None:
    # an instance may be configured (only=, exclude=) or changed: never shared
    compiled = MarshmallowAdapter().compile(Shipment(only=("weight",)))
    assert compiled.key is None
    fn = tp.Function("a", _echo, args_schema=Shipment(only=("weight",)))
    assert fn.json_schema()["properties"].keys() == {"weight"}


def test_a_plugin_mapping_fields_leaves_the_class_unkeyed() -> None:
    def field_schema(field: object, schema: dict[str, Any]) -> dict[str, Any]:
        return schema

    assert MarshmallowAdapter().compile(Shipment, field_schema=field_schema).key is None


def test_bound_names_leave_the_schema() -> None:
    def body(args: Any, unit: str = "lb") -> Any:
        return args

    whole = tp.Function("a", _echo, args_schema=Shipment)
    bound = tp.Function("a", functools.partial(body, unit="lb"), args_schema=Shipment)
    assert "unit" not in bound.json_schema()["properties"]
    assert "unit" in whole.json_schema()["properties"]


def test_nulls_are_still_restored_for_every_tool_of_the_class() -> None:
    tools = [tp.Function(f"t{i}", _echo, args_schema=Shipment) for i in range(3)]
    for fn in tools:
        out = fn.parse_arguments(
            {"weight": 2, "unit": None, "note": None, "parts": [{"sku": None}]}
        )
        assert out == tp.Ok({"weight": 2.0, "unit": "kg", "note": None, "parts": [{}]})
    rejected = tools[0].execute({"weight": None})
    assert isinstance(rejected, tp.Error)
    assert "weight" in rejected.message


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    unit=st.one_of(st.none(), st.text(max_size=5)),
    note=st.one_of(st.none(), st.text(max_size=5)),
    sku=st.one_of(st.none(), st.text(max_size=5)),
)
def test_a_shared_class_parses_as_an_unshared_instance(
    unit: str | None, note: str | None, sku: str | None
) -> None:
    args = {"weight": 1.5, "unit": unit, "note": note, "parts": [{"sku": sku}]}
    shared = tp.Function("a", _echo, args_schema=Shipment)
    # an instance is compiled alone
    alone = tp.Function("a", _echo, args_schema=Shipment())
    assert shared.parse_arguments(dict(args)) == alone.parse_arguments(dict(args))
