"""Tools of one schema class share the steps the core builds from its schema; lone texts."""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, fields, validate

import toolparse as tp
from toolparse.function import _plan as plan_module
from toolparse_marshmallow import MarshmallowAdapter
from toolparse_marshmallow._errors import _explained, problems
from toolparse_marshmallow._reasons import Reasons
from toolparse_marshmallow._schema import convert


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


# -- one failure text for a field: read with one lookup, meaning what the walk says --


class Checked(Schema):
    count = fields.Integer(validate=[validate.Range(min=1, max=9), validate.Range(max=5)])
    code = fields.String(
        validate=[validate.Regexp("^[a-z]+$"), validate.Regexp("^.{2}$"), validate.Length(max=3)]
    )
    color = fields.String(validate=validate.OneOf(["red", "blue"]))
    mail = fields.Email()
    when = fields.Date()
    own = fields.String(validate=validate.Length(min=2, error="too short, friend."))
    tags = fields.List(fields.String(), validate=validate.Length(min=1))


_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-20, 20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.lists(st.integers(0, 3), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


def _texts(reasons: Reasons) -> list[str]:
    return [*reasons.fixed, *(said for said, _ in reasons.checks if said is not None)]


_CONVERTED = convert(Checked(), policy="report", field_schema=None)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data(), value=_VALUES)
def test_a_lone_text_means_what_the_general_walk_says(data: st.DataObject, value: Any) -> None:
    shape = _CONVERTED.shape
    key = data.draw(st.sampled_from(sorted(shape.reasons)))
    reasons = shape.reasons[key]
    text = data.draw(st.sampled_from([*_texts(reasons), "Some text of a custom validator."]))
    found, more = problems(
        {key: [text]},
        shape,
        {key: value},
        required_messages=_CONVERTED.required_messages,
        unknown_messages=_CONVERTED.unknown_messages,
    )
    # the general walk, as a field with several texts goes through it
    assert found == _explained([text], reasons, (key,), value)
    assert more == 0


def test_a_shared_text_alone_is_kept_as_written() -> None:
    reasons = _CONVERTED.shape.reasons["code"]
    shared = list(reasons.shared)
    assert shared  # the two Regexp raise one default text
    assert all(reasons.single[text] is None for text in shared)
