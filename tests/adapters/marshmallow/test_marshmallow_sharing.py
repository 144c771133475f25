"""Tools of one schema class share the steps the core builds from its schema."""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, fields

import toolparse as tp
from toolparse.function import _plan as plan_module
from toolparse_marshmallow import MarshmallowAdapter


class Shipment(Schema):
    weight = fields.Float(required=True)
    unit = fields.String(load_default="kg")
    note = fields.String(allow_none=True, load_default="none")
    parts = fields.List(fields.Nested(Schema.from_dict({"sku": fields.String()})))


class OtherShipment(Schema):
    weight = fields.Float(required=True)
    unit = fields.String(load_default="kg")


def _restore(fn: tp.Function) -> Any:
    """The null-restoring step a Function's plan runs."""
    return fn._run.__globals__["restore"]


def _echo(args: Any) -> Any:
    return args


def test_two_tools_of_one_class_share_the_null_step() -> None:
    first = tp.Function("a", _echo, args_schema=Shipment)
    second = tp.Function("b", _echo, args_schema=Shipment, description="other")
    assert _restore(first) is not None
    assert _restore(first) is _restore(second)
    assert first.adapter is not None
    assert first.adapter.compile(Shipment).key == (Shipment, "report")


def test_a_fresh_adapter_of_the_same_type_shares_it_too() -> None:
    first = tp.Function("a", _echo, args_schema=Shipment)
    fresh = tp.Function("a", _echo, args_schema=Shipment, adapter=MarshmallowAdapter())
    assert _restore(first) is _restore(fresh)


def test_a_different_class_or_policy_does_not_share() -> None:
    first = tp.Function("a", _echo, args_schema=Shipment)
    other = tp.Function("a", _echo, args_schema=OtherShipment)
    rejecting = tp.Function("a", _echo, args_schema=Shipment, unknown_arguments="reject")
    assert _restore(other) is not _restore(first)
    assert _restore(rejecting) is not _restore(first)


def test_an_instance_is_not_keyed() -> None:
    # an instance may be configured (only=, exclude=) or changed: never shared
    compiled = MarshmallowAdapter().compile(Shipment(only=("weight",)))
    assert compiled.key is None
    fn = tp.Function("a", _echo, args_schema=Shipment(only=("weight",)))
    assert fn.json_schema()["properties"].keys() == {"weight"}


def test_bound_names_change_the_key() -> None:
    def body(args: Any, unit: str = "lb") -> Any:
        return args

    whole = tp.Function("a", _echo, args_schema=Shipment)
    bound = tp.Function("a", functools.partial(body, unit="lb"), args_schema=Shipment)
    assert "unit" not in bound.json_schema()["properties"]
    assert "unit" in whole.json_schema()["properties"]
    assert _restore(bound) is not _restore(whole)


def test_the_step_is_built_once_for_many_tools(monkeypatch: Any) -> None:
    plan_module._shared_nulls_step.cache_clear()
    built: list[object] = []
    original = plan_module.null_restorer

    def counting(schema: Any) -> Any:
        built.append(schema)
        return original(schema)

    monkeypatch.setattr(plan_module, "null_restorer", counting)
    try:
        for i in range(5):
            tp.Function(f"t{i}", _echo, args_schema=OtherShipment)
        once = len(built)
        assert once > 0
        tp.Function("again", _echo, args_schema=OtherShipment)
        assert len(built) == once
    finally:
        plan_module._shared_nulls_step.cache_clear()


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
def test_a_shared_step_restores_as_an_unshared_one(
    unit: str | None, note: str | None, sku: str | None
) -> None:
    args = {"weight": 1.5, "unit": unit, "note": note, "parts": [{"sku": sku}]}
    shared = tp.Function("a", _echo, args_schema=Shipment)
    # an instance is compiled alone: its step is built for it
    alone = tp.Function("a", _echo, args_schema=Shipment())
    assert _restore(alone) is not _restore(shared)
    assert shared.parse_arguments(dict(args)) == alone.parse_arguments(dict(args))
