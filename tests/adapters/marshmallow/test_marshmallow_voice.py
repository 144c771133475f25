"""One voice: marshmallow's own messages in the shared words; every validator runs once.

Each case declares one field with a built-in validator (or a field whose own
check fails), sends a value marshmallow refuses, and expects the line the SDK's
vocabulary words. A round trip keeps the converter honest: the JSON Schema the
model is shown refuses the same value and accepts the good one.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import enum
import json
import typing
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError, fields, validate

import toolparse as tp
from toolparse.adapter import (
    REQUIRED,
    format_reason,
    length_reason,
    none_of_reason,
    one_of_reason,
    pattern_reason,
    range_reason,
    type_reason,
)
from toolparse.messages import value_text


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Point(Schema):
    x = fields.Integer(required=True)


def _schema(field: fields.Field[Any]) -> type[Schema]:
    return Schema.from_dict({"v": field})


def _lines(source: Any, arguments: Any) -> list[str]:
    result = tp.Function("t", lambda a: "ok", args_schema=source).execute(arguments)
    assert isinstance(result, tp.Error), result
    return result.message.splitlines()[2:-2]


def _line(reason: str, value: Any, path: str = "v") -> str:
    if isinstance(value, dict):
        return f"{path}: {reason}"  # an object is not echoed
    return f"{path}: {reason} (received {value_text(value)})"


_CHECKER = jsonschema.Draft202012Validator.FORMAT_CHECKER


def _refuses(schema: dict[str, Any], arguments: dict[str, Any]) -> bool:
    """Whether ``schema`` refuses ``arguments`` (a format the library cannot check: yes)."""
    formats = {sub["format"] for sub in schema["properties"].values() if "format" in sub}
    if formats - set(_CHECKER.checkers):
        return True  # jsonschema checks this format only with an optional package
    return not jsonschema.Draft202012Validator(schema, format_checker=_CHECKER).is_valid(arguments)


# (field, a value marshmallow refuses, the reason, a value it loads)
CASES: list[tuple[str, Any, Any, str, Any]] = [
    (
        "range_min",
        lambda: fields.Integer(validate=validate.Range(min=1)),
        0,
        range_reason(minimum=1),
        1,
    ),
    (
        "range_max",
        lambda: fields.Integer(validate=validate.Range(max=30)),
        31,
        range_reason(maximum=30),
        30,
    ),
    (
        "range_both_below",
        lambda: fields.Integer(validate=validate.Range(1, 30)),
        0,
        range_reason(minimum=1),
        5,
    ),
    (
        "range_both_above",
        lambda: fields.Integer(validate=validate.Range(1, 30)),
        99,
        range_reason(maximum=30),
        5,
    ),
    (
        "range_exclusive_min",
        lambda: fields.Float(validate=validate.Range(min=0, min_inclusive=False)),
        0,
        range_reason(exclusive_minimum=0),
        0.5,
    ),
    (
        "range_exclusive_max",
        lambda: fields.Integer(validate=validate.Range(1, 10, max_inclusive=False)),
        10,
        range_reason(exclusive_maximum=10),
        9,
    ),
    (
        "length_min",
        lambda: fields.String(validate=validate.Length(min=3)),
        "ab",
        length_reason(minimum=3),
        "abc",
    ),
    (
        "length_max",
        lambda: fields.String(validate=validate.Length(max=2)),
        "abc",
        length_reason(maximum=2),
        "ab",
    ),
    (
        "length_both_short",
        lambda: fields.String(validate=validate.Length(2, 4)),
        "a",
        length_reason(minimum=2),
        "abc",
    ),
    (
        "length_both_long",
        lambda: fields.String(validate=validate.Length(2, 4)),
        "abcde",
        length_reason(maximum=4),
        "abc",
    ),
    (
        "length_equal_short",
        lambda: fields.String(validate=validate.Length(equal=3)),
        "ab",
        length_reason(minimum=3),
        "abc",
    ),
    (
        "length_equal_long",
        lambda: fields.String(validate=validate.Length(equal=3)),
        "abcd",
        length_reason(maximum=3),
        "abc",
    ),
    (
        "length_items",
        lambda: fields.List(fields.Integer(), validate=validate.Length(min=2)),
        [1],
        length_reason(minimum=2, items=True),
        [1, 2],
    ),
    (
        "length_items_max",
        lambda: fields.List(fields.Integer(), validate=validate.Length(max=1)),
        [1, 2],
        length_reason(maximum=1, items=True),
        [1],
    ),
    (
        "one_of",
        lambda: fields.String(validate=validate.OneOf(["a", "b"])),
        "z",
        one_of_reason(["a", "b"]),
        "a",
    ),
    (
        "one_of_numbers",
        lambda: fields.Integer(validate=validate.OneOf([1, 2])),
        3,
        one_of_reason([1, 2]),
        2,
    ),
    (
        "equal",
        lambda: fields.String(validate=validate.Equal("yes")),
        "no",
        one_of_reason(["yes"]),
        "yes",
    ),
    (
        "none_of",
        lambda: fields.String(validate=validate.NoneOf(["root"])),
        "root",
        none_of_reason(["root"]),
        "me",
    ),
    (
        "regexp",
        lambda: fields.String(validate=validate.Regexp(r"^[A-Z]+$")),
        "abc",
        pattern_reason("^[A-Z]+$"),
        "AB",
    ),
    (
        "regexp_unanchored",
        lambda: fields.String(validate=validate.Regexp(r"[a-z]\d")),
        "1a",
        pattern_reason(r"^(?:[a-z]\d)"),
        "a1x",
    ),
    (
        "email_validator",
        lambda: fields.String(validate=validate.Email()),
        "nope",
        format_reason("email"),
        "a@b.io",
    ),
    (
        "url_validator",
        lambda: fields.String(validate=validate.URL()),
        "nope",
        format_reason("uri"),
        "https://a.io",
    ),
    ("integer", lambda: fields.Integer(), "lots", type_reason("integer"), 3),
    ("integer_for_a_float", lambda: fields.Integer(strict=True), 1.5, type_reason("integer"), 1),
    ("number", lambda: fields.Float(), "lots", type_reason("number"), 1.5),
    ("string", lambda: fields.String(), 42, type_reason("string"), "x"),
    ("boolean", lambda: fields.Boolean(), "maybe", type_reason("boolean"), True),
    ("null", lambda: fields.String(required=True), None, type_reason("string"), "x"),
    ("list", lambda: fields.List(fields.Integer()), "lots", type_reason("array"), [1]),
    ("tuple", lambda: fields.Tuple((fields.Integer(),)), "lots", type_reason("array"), [1]),
    (
        "tuple_long",
        lambda: fields.Tuple((fields.Integer(),)),
        [1, 2],
        length_reason(maximum=1, items=True),
        [1],
    ),
    ("dict", lambda: fields.Dict(), "lots", type_reason("object"), {}),
    ("nested", lambda: fields.Nested(Point), "lots", type_reason("object"), {"x": 1}),
    (
        "nested_many",
        lambda: fields.Nested(Point, many=True),
        "lots",
        type_reason("array"),
        [{"x": 1}],
    ),
    ("date", lambda: fields.Date(), "31/01/2024", format_reason("date"), "2024-01-31"),
    ("date_not_a_string", lambda: fields.Date(), 5, type_reason("string"), "2024-01-31"),
    (
        "datetime",
        lambda: fields.DateTime(),
        "noon",
        format_reason("date-time"),
        "2024-01-31T09:30:00Z",
    ),
    ("time", lambda: fields.Time(), "noon", format_reason("time"), "09:30:00"),
    (
        "uuid",
        lambda: fields.UUID(),
        "x",
        format_reason("uuid"),
        "123e4567-e89b-12d3-a456-426614174000",
    ),
    ("email", lambda: fields.Email(), "x", format_reason("email"), "a@b.io"),
    ("url", lambda: fields.Url(), "x", format_reason("uri"), "https://a.io"),
    ("ipv4", lambda: fields.IPv4(), "x", format_reason("ipv4"), "192.0.2.1"),
    ("enum", lambda: fields.Enum(Colour), "GREEN", one_of_reason(["RED", "BLUE"]), "RED"),
    (
        "enum_by_value",
        lambda: fields.Enum(Colour, by_value=True),
        "green",
        one_of_reason(["red", "blue"]),
        "red",
    ),
]


@pytest.mark.parametrize(
    ("key", "make", "wrong", "reason", "good"), CASES, ids=[c[0] for c in CASES]
)
def test_a_default_message_reads_the_shared_words(
    key: str, make: Any, wrong: Any, reason: str, good: Any
) -> None:
    source = _schema(make())
    assert _lines(source, {"v": wrong}) == [_line(reason, wrong)]
    # the round trip: the exported schema refuses what load refuses and takes
    # what load takes
    schema = tp.Function("t", lambda a: "ok", args_schema=source).json_schema()
    assert _refuses(schema, {"v": wrong})
    valid = jsonschema.Draft202012Validator(schema, format_checker=_CHECKER)
    assert valid.is_valid({"v": good})
    source().load({"v": good})


def test_contains_only_and_none_of_name_the_offending_items() -> None:
    only = _schema(fields.List(fields.String(), validate=validate.ContainsOnly(["a", "b"])))
    assert _lines(only, {"v": ["a", "z", "y"]}) == [
        _line(one_of_reason(["a", "b"]), "z", "v[1]"),
        _line(one_of_reason(["a", "b"]), "y", "v[2]"),
    ]
    none = _schema(fields.List(fields.String(), validate=validate.ContainsNoneOf(["x"])))
    assert _lines(none, {"v": ["a", "x"]}) == [_line(none_of_reason(["x"]), "x", "v[1]")]
    for source, wrong in ((only, ["z"]), (none, ["x"])):
        schema = tp.Function("t", lambda a: "ok", args_schema=source).json_schema()
        assert _refuses(schema, {"v": wrong})


def test_a_nested_required_name_and_a_dict_key() -> None:
    source = Schema.from_dict(
        {
            "point": fields.Nested(Point, required=True),
            "tags": fields.Dict(keys=fields.String(validate=validate.OneOf(["k"]))),
        }
    )
    assert _lines(source, {"point": {}, "tags": {"z": 1}}) == [
        f"point.x: {REQUIRED}",
        f'tags.z: Invalid key: {one_of_reason(["k"])} (received "z")',
    ]


def test_the_violated_bound_of_a_range_is_read_from_the_value() -> None:
    # marshmallow says "between" for both; the value received tells which bound failed
    ints = _schema(fields.Integer(validate=validate.Range(min=1, max=30)))
    assert _lines(ints, {"v": "0"}) == [_line(range_reason(minimum=1), "0")]  # coerced by load
    days = _schema(
        fields.Date(validate=validate.Range(min=dt.date(2024, 1, 1), max=dt.date(2024, 12, 31)))
    )
    assert _lines(days, {"v": "2023-06-01"}) == [
        _line(range_reason(minimum="2024-01-01"), "2023-06-01")
    ]
    assert _lines(days, {"v": "2025-06-01"}) == [
        _line(range_reason(maximum="2024-12-31"), "2025-06-01")
    ]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(low=st.integers(-50, 50), span=st.integers(0, 50), value=st.integers(-200, 200))
def test_a_two_sided_range_names_the_bound_the_value_crossed(
    low: int, span: int, value: int
) -> None:
    high = low + span
    source = _schema(fields.Integer(required=True, validate=validate.Range(low, high)))
    result = tp.Function("t", lambda a: "ok", args_schema=source).execute({"v": value})
    if low <= value <= high:
        assert result == tp.Ok("ok")
    else:
        reason = range_reason(minimum=low) if value < low else range_reason(maximum=high)
        assert isinstance(result, tp.Error)
        assert _line(reason, value) in result.message


def test_two_patterns_are_told_apart_by_their_order_when_both_fail() -> None:
    source = _schema(fields.String(validate=[validate.Regexp("^a"), validate.Regexp("^.b")]))
    assert _lines(source, {"v": "cc"}) == [
        _line(pattern_reason("^a"), "cc"),
        _line(pattern_reason("^.b"), "cc"),
    ]
    # only one failed: the text cannot say which, and neither is run again
    assert _lines(source, {"v": "ac"}) == [_line("String does not match expected pattern", "ac")]


class Shout(validate.Regexp):
    default_message = "Use capitals."


def _no_digits(value: str) -> None:
    if any(ch.isdigit() for ch in value):
        raise ValidationError("No digits, please.")


@pytest.mark.parametrize(
    ("field", "wrong", "text"),
    [
        (fields.Integer(validate=validate.Range(1, 9, error="Pick 1 to 9.")), 0, "Pick 1 to 9"),
        (fields.String(validate=validate.OneOf(["a"], error="Not {input}.")), "z", "Not z"),
        (fields.String(validate=validate.Length(min=3, error="Too short.")), "ab", "Too short"),
        (fields.String(validate=validate.Regexp("^x", error="Start with x.")), "a", "Start with x"),
        (fields.String(validate=Shout("^[A-Z]+$")), "a", "Use capitals"),
        (fields.String(validate=_no_digits), "a1", "No digits, please"),
        (
            fields.Integer(error_messages={"invalid": "Whole numbers only."}),
            "x",
            "Whole numbers only",
        ),
        (fields.IP(), "x", "Not a valid IP address"),  # no shared words for it
    ],
)
def test_a_custom_message_or_validator_keeps_its_text(field: Any, wrong: Any, text: str) -> None:
    assert _lines(_schema(field), {"v": wrong}) == [_line(text, wrong)]


def test_a_custom_text_before_a_default_one_keeps_both_apart() -> None:
    source = _schema(fields.String(validate=[_no_digits, validate.Length(max=2)]))
    assert _lines(source, {"v": "a12"}) == [
        _line("No digits, please", "a12"),
        _line(length_reason(maximum=2), "a12"),
    ]


# -- each validator runs once per call ---------------------------------------------


class Counting:
    """A validator that counts its calls (the value is refused unless it is "OK")."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, value: Any) -> None:
        self.calls += 1
        if value != "OK":
            raise ValidationError("Say OK.")


class CountingRegexp(validate.Regexp):
    def __init__(self, pattern: str) -> None:
        super().__init__(pattern)
        self.calls = 0

    def __call__(self, value: Any) -> Any:
        self.calls += 1
        return super().__call__(value)


@pytest.mark.parametrize("policy", ["report", "reject", "ignore"])
@pytest.mark.parametrize("way", ["execute", "text", "aexecute", "parse"])
def test_each_validator_runs_once_per_call(policy: str, way: str) -> None:
    plain, pattern, inner, item = Counting(), CountingRegexp("^[A-Z]+$"), Counting(), Counting()
    nested = Schema.from_dict({"s": fields.String(required=True, validate=inner)})
    source = Schema.from_dict(
        {
            "a": fields.String(required=True, validate=plain),
            "b": fields.String(required=True, validate=[pattern, validate.Length(min=3)]),
            "n": fields.Nested(nested, many=True),
            "xs": fields.List(fields.String(validate=item)),
        }
    )
    fn = tp.Function("t", lambda a: "ok", args_schema=source, unknown_arguments=policy)
    arguments = {"a": "no", "b": "ab", "n": [{"s": "no"}], "xs": ["no"]}
    if way == "execute":
        result: Any = fn.execute(arguments)
    elif way == "text":
        result = fn.execute(json.dumps(arguments))
    elif way == "aexecute":
        result = asyncio.run(fn.aexecute(arguments))
    else:
        result = fn.parse_arguments(arguments)
    assert isinstance(result, tp.Error)
    assert (plain.calls, pattern.calls, inner.calls, item.calls) == (1, 1, 1, 1)
    assert pattern_reason("^[A-Z]+$") in str(result.exception)


# -- the same wrong call reads the same as under pydantic ------------------------------


def test_the_same_wrong_call_reads_as_under_pydantic() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Model(pydantic.BaseModel):
        n: int = pydantic.Field(ge=1, le=30)
        c: typing.Literal["a", "b"]
        s: str = pydantic.Field(min_length=3)
        p: str = pydantic.Field(pattern=r"^[A-Z]+$")
        t: str = pydantic.Field(max_length=2)

    source = Schema.from_dict(
        {
            "n": fields.Integer(required=True, validate=validate.Range(min=1, max=30)),
            "c": fields.String(required=True, validate=validate.OneOf(["a", "b"])),
            "s": fields.String(required=True, validate=validate.Length(min=3)),
            "p": fields.String(required=True, validate=validate.Regexp(r"^[A-Z]+$")),
            "t": fields.String(required=True, validate=validate.Length(max=2)),
        }
    )
    for wrong in (
        {"n": 0, "c": "z", "s": "ab", "p": "abc", "t": "abc"},
        {"n": 99, "c": "q", "s": 5, "p": "", "t": "ok"},
    ):
        ours = tp.Function("t", lambda a: "ok", args_schema=source).execute(wrong)
        theirs = tp.Function("t", lambda a: "ok", args_schema=Model).execute(wrong)
        assert isinstance(ours, tp.Error)
        assert ours.message == getattr(theirs, "message", None)


# -- a class compiled once ---------------------------------------------------------


def test_tools_of_one_class_share_the_parser_and_not_the_schema() -> None:
    source = _schema(fields.Integer(validate=validate.Range(min=1)))
    first = tp.Function("a", lambda a: "ok", args_schema=source)
    second = tp.Function("b", lambda a: "ok", args_schema=source)
    adapter = first.adapter
    assert adapter is not None
    one = adapter.compile(source)
    two = adapter.compile(source)
    assert one.parser is two.parser
    assert one.schema == two.schema
    assert one.schema is not two.schema
    one.schema["properties"]["v"]["minimum"] = 99
    assert second.json_schema()["properties"]["v"]["minimum"] == 1
    assert adapter.compile(source).schema["properties"]["v"]["minimum"] == 1


def test_a_plugin_mapping_fields_is_asked_even_for_a_class_compiled_before() -> None:
    source = _schema(fields.String())
    assert tp.Function("a", lambda a: "ok", args_schema=source).json_schema()["properties"][
        "v"
    ] == {"type": "string"}

    class Plugin:
        @tp.hookimpl
        def toolparse_field_schema(self, adapter: str, field: Any, schema: Any) -> Any:
            return {"type": "string", "maxLength": 9} if adapter == "marshmallow" else None

    plugin = Plugin()
    tp.plugin_manager().register(plugin)
    try:
        fn = tp.Function("b", lambda a: "ok", args_schema=source)
        assert fn.json_schema()["properties"]["v"] == {"type": "string", "maxLength": 9}
    finally:
        tp.plugin_manager().unregister(plugin)
