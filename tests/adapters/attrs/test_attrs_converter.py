"""The converter option, serialising results, signatures, and round trips."""

import dataclasses
import datetime as dt
import json
from typing import Any

import attrs
import cattrs
import jsonschema
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import utils as conjecture_utils

import toolparse as tp
import toolparse_attrs
from toolparse_attrs import AttrsAdapter

from .models import (
    CORPUS,
    Aliased,
    Choices,
    Collections,
    Dates,
    Defaults,
    Invoice,
    LineItem,
    Mappings,
    Point,
    Scalars,
    Unions,
)


def fn(source: Any, body: Any = lambda a: "x", **kwargs: Any) -> tp.Function:
    return tp.Function("t", body, args_schema=source, **kwargs)


# -- accepts --------------------------------------------------------------------------


def test_accepts_attrs_classes_and_wrapped_sources_only() -> None:
    adapter = AttrsAdapter()
    assert adapter.accepts(Invoice)
    assert adapter.accepts(toolparse_attrs.using(Point))
    assert not adapter.accepts(Point)  # a bare dataclass is for the other adapters
    assert not adapter.accepts(Invoice(vendor_name="a", total_amount=1, line_items=[]))
    assert not adapter.accepts({"type": "object"})
    assert not adapter.accepts(int)


def test_a_wrapped_dataclass_is_structured_by_cattrs() -> None:
    f = fn(toolparse_attrs.using(Point))
    assert f.adapter is not None
    assert f.adapter.name == "attrs"
    assert f.parse_arguments({"x": 1, "labels": ["a"]}) == tp.Ok(Point(1, 0, ["a"]))
    result = f.parse_arguments({"x": "1", "labels": "a"})
    assert isinstance(result, tp.Error)
    assert 'x: must be an integer (received "1")' in result.message
    assert 'labels: must be a list (received "a")' in result.message


def test_definition_errors() -> None:
    with pytest.raises(tp.FunctionDefinitionError, match="attrs class or a dataclass"):
        fn(toolparse_attrs.using(int))  # type: ignore[arg-type]
    with pytest.raises(tp.FunctionDefinitionError, match="cattrs converter"):
        fn(toolparse_attrs.using(Invoice, object()))


def test_using_is_a_value() -> None:
    converter = cattrs.Converter()
    assert toolparse_attrs.using(Invoice, converter) == toolparse_attrs.using(Invoice, converter)
    assert toolparse_attrs.using(Invoice) != toolparse_attrs.using(Invoice, converter)
    assert repr(toolparse_attrs.using(Invoice)) == "using(Invoice)"


# -- your converter ---------------------------------------------------------------------


def test_user_converter_hooks_structure_and_serialise() -> None:
    converter = cattrs.Converter()  # plain cattrs: its own (lenient) rules apply
    converter.register_structure_hook(dt.date, lambda v, _: dt.date.fromisoformat(v))
    converter.register_unstructure_hook(dt.date, lambda d: d.strftime("%d/%m/%Y"))

    @attrs.define
    class Event:
        name: str
        day: dt.date

    source = toolparse_attrs.using(Event, converter)
    parsed = fn(source).parse_arguments({"name": 5, "day": "2024-05-01"})
    assert parsed == tp.Ok(Event("5", dt.date(2024, 5, 1)))  # cattrs' str(5): your rules
    returned = fn(source, lambda a: Event("x", dt.date(2024, 5, 1))).execute(
        {"name": "a", "day": "2024-01-01"}
    )
    assert returned == tp.Ok('{"name": "x", "day": "01/05/2024"}')
    result = fn(source).parse_arguments({"name": "a", "day": "soon"})
    assert isinstance(result, tp.Error)
    # your hook's own words (the value was a string, as a date should be)
    assert "day: Invalid isoformat string: 'soon' (received \"soon\")" in result.message


def test_user_converter_with_forbid_extra_keys_reports_every_level() -> None:
    converter = toolparse_attrs.make_converter(forbid_extra_keys=True)
    f = fn(toolparse_attrs.using(Invoice, converter))
    assert f.json_schema()["additionalProperties"] is False
    result = f.parse_arguments(
        {
            "vendor_name": "a",
            "total_amount": 1,
            "line_items": [{"sku": "s", "quantity": 1, "x": 1}],
            "zzqx": 1,
        }
    )
    assert isinstance(result, tp.Error)
    assert "line_items[0].x: is not accepted" in result.message
    assert "Unrecognized parameters: zzqx" in result.message


def test_with_your_converter_nested_levels_follow_its_rule() -> None:
    nested = {
        "vendor_name": "a",
        "total_amount": 1,
        "line_items": [{"sku": "s", "quantity": 1, "x": 1}],
    }
    forbidding = toolparse_attrs.make_converter(forbid_extra_keys=True)
    ignoring = fn(toolparse_attrs.using(Invoice, forbidding), unknown_arguments="ignore")
    refused = ignoring.parse_arguments({**nested, "zz": 1})  # the top level: dropped
    assert isinstance(refused, tp.Error)
    assert "line_items[0].x: is not accepted" in refused.message
    assert "zz" not in refused.message
    assert (
        ignoring.json_schema()["properties"]["line_items"]["items"]["additionalProperties"] is False
    )
    rejecting = fn(toolparse_attrs.using(Invoice, cattrs.Converter()), unknown_arguments="reject")
    assert isinstance(rejecting.parse_arguments(nested), tp.Ok)
    assert isinstance(rejecting.parse_arguments({**nested, "zz": 1}), tp.Error)
    schema = rejecting.json_schema()
    assert schema["additionalProperties"] is False
    assert "additionalProperties" not in schema["properties"]["line_items"]["items"]


def test_user_rename_overrides_are_the_exported_names() -> None:
    from cattrs.gen import make_dict_structure_fn, override

    converter = toolparse_attrs.make_converter()
    converter.register_structure_hook(
        LineItem,
        make_dict_structure_fn(LineItem, converter, unit_price=override(rename="price")),
    )
    f = fn(toolparse_attrs.using(LineItem, converter))
    if not hasattr(
        converter.get_structure_hook(LineItem)
        if hasattr(converter, "get_structure_hook")
        else None,
        "overrides",
    ):
        pytest.skip("this cattrs does not record a hook's overrides")
    assert list(f.json_schema()["properties"]) == ["sku", "quantity", "price"]
    assert f.parse_arguments({"sku": "s", "quantity": 1, "price": 2}) == tp.Ok(
        LineItem("s", 1, 2.0)
    )


def test_without_detailed_validation_problems_are_still_named() -> None:
    converter = cattrs.Converter(detailed_validation=False)
    result = fn(toolparse_attrs.using(Scalars, converter)).parse_arguments({"text": "a"})
    assert isinstance(result, tp.Error)
    assert "Missing parameters: count, ratio, flag" in result.message


def test_configured_hooks_can_be_replaced() -> None:
    converter = toolparse_attrs.make_converter()
    converter.register_structure_hook(str, lambda v, _: str(v))  # lenient again, on purpose
    assert fn(toolparse_attrs.using(Scalars, converter)).parse_arguments(
        {"text": 5, "count": 1, "ratio": 1, "flag": True}
    ) == tp.Ok(Scalars("5", 1, 1.0, True))


# -- serialising ----------------------------------------------------------------------------


def test_serialise_instances_with_aliases_dates_and_enums() -> None:
    adapter = AttrsAdapter()
    assert json.loads(adapter.serialize(Aliased(fullName="Ada", secret=2)) or "") == {
        "fullName": "Ada",
        "secret": 2,
    }
    when = dt.datetime(2024, 5, 1, 10, tzinfo=dt.timezone.utc)
    assert json.loads(adapter.serialize(Dates(when, dt.date(2024, 5, 2))) or "") == {
        "when": "2024-05-01T10:00:00+00:00",
        "day": "2024-05-02",
        "until": None,
    }
    assert json.loads(adapter.serialize([LineItem("a", 1), LineItem("b", 2)]) or "") == [
        {"sku": "a", "quantity": 1, "unit_price": 0.0},
        {"sku": "b", "quantity": 2, "unit_price": 0.0},
    ]
    assert adapter.serialize(Point(1)) is None
    assert adapter.serialize([]) is None
    assert adapter.serialize("text") is None


# -- signatures ------------------------------------------------------------------------------


def test_from_signature_builds_an_attrs_class() -> None:
    adapter = AttrsAdapter()
    params = [
        tp.SignatureParam("query", str, description="What to look for"),
        tp.SignatureParam("limit", int, default=10),
        tp.SignatureParam("_raw", bool, default=False),
    ]
    cls = adapter.from_signature("search", params)
    assert attrs.has(cls)
    f = fn(cls)
    assert f.json_schema() == {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to look for"},
            "limit": {"type": "integer", "default": 10},
            "_raw": {"type": "boolean", "default": False},
        },
        "required": ["query"],
    }
    parsed = f.parse_arguments({"query": "cats", "_raw": True})
    assert isinstance(parsed, tp.Ok)
    assert tp.adapter.keywords(parsed.value) == {"query": "cats", "limit": 10, "_raw": True}


# -- round trips ------------------------------------------------------------------------------

ROUND_TRIP = [Scalars, Defaults, Choices, Dates, Collections, Mappings, Unions, Aliased]


@pytest.mark.parametrize("cls", ROUND_TRIP, ids=lambda c: c.__name__)
def test_instances_round_trip_through_the_schema(cls: type) -> None:
    adapter = AttrsAdapter()
    f = fn(cls)
    schema = f.json_schema()

    @settings(
        max_examples=25, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
    )
    @given(st.from_type(cls))
    def check(instance: Any) -> None:
        text = adapter.serialize(instance)
        assume(text is not None)  # NaN and infinities are not JSON
        data = json.loads(text or "")
        jsonschema.validate(data, schema, cls=jsonschema.Draft202012Validator)
        parsed = f.parse_arguments(data)
        assert isinstance(parsed, tp.Ok), (data, parsed)
        again = json.loads(adapter.serialize(parsed.value) or "")
        assert f.parse_arguments(again) == parsed  # (sets come back in any order)

    check()


# hypothesis-jsonschema 0.23 reads a hypothesis internal that hypothesis 6.170 removed
_HYPOTHESIS_JSONSCHEMA_WORKS = hasattr(conjecture_utils.many, "more")


@pytest.mark.skipif(
    not _HYPOTHESIS_JSONSCHEMA_WORKS, reason="hypothesis-jsonschema needs hypothesis < 6.170"
)
@pytest.mark.parametrize("source", CORPUS, ids=repr)
def test_generated_arguments_structure_and_serialise_back_into_the_schema(source: Any) -> None:
    from hypothesis_jsonschema import from_schema

    adapter = AttrsAdapter()
    f = fn(source, unknown_arguments="ignore")
    schema = fn(source, unknown_arguments="reject").json_schema()

    @settings(
        max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(from_schema(schema))
    def check(arguments: dict[str, Any]) -> None:
        parsed = f.parse_arguments(arguments)
        assert isinstance(parsed, tp.Ok), (arguments, parsed)
        if attrs.has(type(parsed.value)):
            data = json.loads(adapter.serialize(parsed.value) or "")
        else:
            data = dataclasses.asdict(parsed.value)
        jsonschema.validate(data, schema, cls=jsonschema.Draft202012Validator)

    check()


def test_a_configured_converter_without_detailed_validation_structures() -> None:
    converter = toolparse_attrs.configure_converter(cattrs.Converter(detailed_validation=False))
    source = toolparse_attrs.using(Scalars, converter)
    parsed = fn(source).parse_arguments({"text": "a", "count": 2, "ratio": 1, "flag": True})
    assert parsed == tp.Ok(Scalars("a", 2, 1.0, True))
