"""Parsing with the attrs adapter: strict coercion rules, and every problem with its path."""

import datetime as dt
from typing import Any

import attrs
import cattrs
import pytest

import toolparse as tp

from .models import (
    Aliased,
    Cat,
    Choices,
    Circle,
    Collections,
    Color,
    Dates,
    Dog,
    FixedTuple,
    Invoice,
    Level,
    Mappings,
    OldStyle,
    Scalars,
    Unions,
    Validated,
)


def parse(source: Any, arguments: Any, **kwargs: Any) -> Any:
    return tp.Function("t", lambda a: "x", args_schema=source, **kwargs).parse_arguments(arguments)


def value(source: Any, arguments: Any, **kwargs: Any) -> Any:
    result = parse(source, arguments, **kwargs)
    assert isinstance(result, tp.Ok), result
    return result.value


def lines(source: Any, arguments: Any, **kwargs: Any) -> list[str]:
    """The problem lines of the one error message."""
    result = parse(source, arguments, **kwargs)
    assert isinstance(result, tp.Error), result
    assert isinstance(result.exception, tp.InvalidArguments)
    body = result.message.split("\n\n")[1]
    return body.splitlines()


SCALARS = {"text": "a", "count": 1, "ratio": 0.5, "flag": True}


# -- strict coercion ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "sent", "reason"),
    [
        ("text", 123, "must be a string"),
        ("text", None, "must be a string"),
        ("count", True, "must be an integer"),
        ("count", 1.5, "must be an integer"),
        ("count", "1", "must be an integer"),
        ("ratio", "0.5", "must be a number"),
        ("ratio", False, "must be a number"),
        ("flag", 1, "must be true or false"),
        ("flag", "true", "must be true or false"),
    ],
)
def test_no_silent_coercion(field: str, sent: Any, reason: str) -> None:
    import json

    assert lines(Scalars, {**SCALARS, field: sent}) == [
        f"{field}: {reason} (received {json.dumps(sent)})"
    ]


def test_lossless_number_conversions_are_allowed() -> None:
    parsed = value(Scalars, {**SCALARS, "count": 5.0, "ratio": 2})
    assert parsed.count == 5
    assert type(parsed.count) is int
    assert parsed.ratio == 2.0
    assert type(parsed.ratio) is float


def test_arrays_only_from_arrays() -> None:
    assert lines(Invoice, {"vendor_name": "a", "total_amount": 1, "line_items": "ab"}) == [
        'line_items: must be a list (received "ab")'
    ]
    assert lines(Collections, {"unique": {"a": 1}}) == [
        'unique: must be a list (received {"a": 1})'
    ]
    parsed = value(
        Collections, {"many": [1, 2.5], "unique": [1, 1, 2], "frozen": ["a"], "sequence": [3]}
    )
    assert parsed.many == (1.0, 2.5)
    assert parsed.unique == {1, 2}
    assert parsed.frozen == frozenset({"a"})
    assert list(parsed.sequence) == [3]


def test_fixed_tuples() -> None:
    assert value(FixedTuple, {"pair": [1, "a"]}).pair == (1, "a")
    assert lines(FixedTuple, {"pair": [1]}) == [
        "pair: must be a list of exactly 2 items (received [1])"
    ]
    assert lines(FixedTuple, {"pair": ["a", 1]}) == [
        'pair[0]: must be an integer (received "a")',
        "pair[1]: must be a string (received 1)",
    ]
    assert lines(FixedTuple, {"pair": [1, "a"], "empty": [1]}) == [
        "empty: must be an empty list (received [1])"
    ]


def test_every_failing_item_is_named_whatever_comes_between() -> None:
    # an array's hook keeps structuring after the first failing item
    assert lines(Collections, {"many": ["a", 1, True, 2.5, "b"]}) == [
        'many[0]: must be a number (received "a")',
        "many[2]: must be a number (received true)",
        'many[4]: must be a number (received "b")',
    ]
    assert lines(FixedTuple, {"pair": [1.5, "a"]}) == ["pair[0]: must be an integer (received 1.5)"]


def test_enums_and_literals_match_value_and_type() -> None:
    parsed = value(Choices, {"color": "green", "level": 2, "mode": "slow", "answer": 3})
    assert parsed.color is Color.GREEN
    assert parsed.level is Level.HIGH
    assert lines(Choices, {"color": "blue", "level": True, "mode": "quick", "answer": True}) == [
        'color: must be one of: "red", "green" (received "blue")',
        "level: must be one of: 1, 2 (received true)",
        'mode: must be one of: "fast", "slow" (received "quick")',
        "answer: must be one of: 1, 2, 3 (received true)",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-05-01T14:30:00Z", dt.datetime(2024, 5, 1, 14, 30, tzinfo=dt.timezone.utc)),
        ("2024-05-01t14:30:00z", dt.datetime(2024, 5, 1, 14, 30, tzinfo=dt.timezone.utc)),
        (
            "2024-05-01T14:30:00.123456789+02:00",
            dt.datetime(2024, 5, 1, 14, 30, 0, 123456, tzinfo=dt.timezone(dt.timedelta(hours=2))),
        ),
        ("2024-05-01 14:30", dt.datetime(2024, 5, 1, 14, 30)),
    ],
)
def test_datetimes_from_iso_strings(text: str, expected: dt.datetime) -> None:
    assert value(Dates, {"when": text, "day": "2024-05-01"}).when == expected


def test_bad_dates() -> None:
    assert lines(Dates, {"when": "yesterday", "day": "2024-13-01", "until": 20240101}) == [
        'when: must be a date-time like "2024-01-31T09:30:00Z" (RFC 3339) (received "yesterday")',
        'day: must be a date like "2024-01-31" (received "2024-13-01")',
        'until: must be a date like "2024-01-31" (received 20240101)',
    ]


# -- unions --------------------------------------------------------------------------


def test_union_of_classes_by_structure() -> None:
    parsed = value(Unions, {"pet": {"kind": "dog", "good": True}, "shape": {"radius": 2}})
    assert parsed.pet == Dog("dog", True)
    assert parsed.shape == Circle(2.0)
    assert value(Unions, {"pet": {"kind": "cat", "lives": 9}}).pet == Cat("cat", 9)
    assert lines(Unions, {"pet": {"kind": "cat", "lives": "nine"}}) == [
        'pet.lives: must be an integer (received "nine")'
    ]
    assert lines(Unions, {"pet": {"kind": "cow"}, "shape": 3}) == [
        'pet: Input does not match any of the allowed objects (received {"kind": "cow"})',
        "shape: must be an object or null (received 3)",
    ]


def test_union_of_scalars() -> None:
    assert value(Unions, {"pet": {"kind": "cat", "lives": 1}, "value": "x"}).value == "x"
    assert value(Unions, {"pet": {"kind": "cat", "lives": 1}, "value": 4}).value == 4
    assert lines(Unions, {"pet": {"kind": "cat", "lives": 1}, "value": 1.5, "maybe": ["a"]}) == [
        "value: must be an integer or a string (received 1.5)",
        'maybe[0]: must be an integer (received "a")',
    ]


# -- paths ---------------------------------------------------------------------------


def test_mapping_values_and_keys() -> None:
    assert value(Mappings, {"counts": {"a": 1}, "sizes": {"s": 1}}).sizes == {"s": 1}
    assert lines(
        Mappings, {"counts": {"a": "x"}, "nested": {"k": ["a", 2]}, "sizes": {"xl": 1}}
    ) == [
        'counts.a: must be an integer (received "x")',
        "nested.k[1]: must be a string (received 2)",
        'sizes.xl: Invalid key: must be one of: "s", "m"',
    ]
    assert lines(Mappings, {"counts": [1]}) == ["counts: must be an object (received [1])"]


def test_nested_object_that_is_not_an_object() -> None:
    assert lines(Invoice, {"vendor_name": "a", "total_amount": 1, "line_items": [None, 3]}) == [
        "line_items[0]: must be an object (received null)",
        "line_items[1]: must be an object (received 3)",
    ]


def test_aliases_are_read_and_named() -> None:
    parsed = value(Aliased, {"fullName": "Ada", "secret": 3})
    assert parsed == Aliased(fullName="Ada", secret=3)
    result = parse(Aliased, {"full_name": "Ada", "secret": "x"})
    assert isinstance(result, tp.Error)
    assert "secret: must be an integer" in result.message
    assert "Missing parameters: fullName" in result.message
    assert "Accepted parameters: fullName, secret" in result.message


# -- validators ----------------------------------------------------------------------

VALID = {"code": "ABC", "age": 30}


def test_every_failing_validator_is_reported() -> None:
    # attrs stops at the first failing validator; the model learns them all
    assert lines(
        Validated,
        {
            "code": "abc",
            "age": 200,
            "score": 0,
            "name": "",
            "size": "xl",
            "numbers": [1, -1, 2, -3],
            "nickname": "a",
        },
    ) == [
        'code: must match the pattern [A-Z]{3} (received "abc")',
        "age: must be less than 150 (received 200)",
        "score: must be greater than 0 (received 0)",
        'name: must be at least 1 character long (received "")',
        'size: must be one of: "s", "m", "l" (received "xl")',
        "numbers[1]: must be at least 0 (received -1)",
        "numbers[3]: must be at least 0 (received -3)",
        'nickname: must be at least 2 characters long (received "a")',
    ]


def test_validators_of_fields_beside_a_type_error_still_run() -> None:
    assert lines(Validated, {"code": 5, "age": -1}) == [
        "code: must be a string (received 5)",
        "age: must be at least 0 (received -1)",
    ]


def test_deep_iterable_checks_the_collection_itself() -> None:
    assert lines(Validated, {**VALID, "numbers": [1, 2, 3, 4, 5, 6]}) == [
        "numbers: must have at most 5 items (received [1, 2, 3, 4, 5, 6])"
    ]
    assert value(Validated, {**VALID, "nickname": None}).nickname is None


@attrs.define
class Period:
    start: int
    end: int = attrs.field()
    label: str = attrs.field(default="", converter=str.strip)

    @end.validator
    def _after_start(self, attribute: Any, value: int) -> None:
        if value < self.start:
            raise ValueError("end must not be before start")

    def __attrs_post_init__(self) -> None:
        if self.label == "forbidden":
            raise ValueError("this label is reserved")


@attrs.define
class Plan:
    periods: list[Period]


def test_custom_validators_speak_for_themselves() -> None:
    assert lines(Plan, {"periods": [{"start": 5, "end": 1}, {"start": 1, "end": 2}]}) == [
        "periods[0].end: end must not be before start (received 1)"
    ]


def test_custom_validator_reading_a_field_that_failed_is_not_a_problem() -> None:
    assert lines(Period, {"start": "x", "end": 1}) == ['start: must be an integer (received "x")']


def test_post_init_errors_are_reported_on_the_object() -> None:
    assert lines(Plan, {"periods": [{"start": 1, "end": 2, "label": " forbidden "}]}) == [
        "periods[0]: this label is reserved"
    ]
    assert lines(Period, {"start": 1, "end": 2, "label": "forbidden"}) == [
        "(arguments): this label is reserved"
    ]


def test_attrs_converter_errors_carry_the_field_path() -> None:
    @attrs.define
    class Model:
        number: Any = attrs.field(converter=int)

    assert value(Model, {"number": "12"}).number == 12
    assert lines(Model, {"number": "twelve"}) == [
        "number: invalid literal for int() with base 10: 'twelve' (received \"twelve\")"
    ]


def test_untyped_fields_take_the_instance_of_type() -> None:
    parsed = value(OldStyle, {"name": "box", "weight": 3})
    assert parsed.weight == 3.0
    assert type(parsed.weight) is float
    assert lines(OldStyle, {"name": 1, "weight": "heavy"}) == [
        "name: must be a string (received 1)",
        'weight: must be a number (received "heavy")',
    ]


def test_instance_of_on_an_untyped_field_when_structuring_passes_through() -> None:
    @attr.s
    class Model:
        thing = attr.ib(validator=attr.validators.instance_of((int, str)))

    assert value(Model, {"thing": "a"}).thing == "a"
    assert lines(Model, {"thing": 1.5}) == ["thing: must be an integer or a string (received 1.5)"]


import attr  # noqa: E402 - used by the test right above only

# -- unknown keys --------------------------------------------------------------------

VALID_INVOICE = {"vendor_name": "a", "total_amount": 1, "line_items": [{"sku": "s", "quantity": 1}]}


def test_nested_extra_keys_under_each_policy() -> None:
    nested = {**VALID_INVOICE, "line_items": [{"sku": "s", "quantity": 1, "colour": "red"}]}
    assert isinstance(parse(Invoice, nested), tp.Ok)  # report: cattrs ignores them
    assert isinstance(parse(Invoice, nested, unknown_arguments="ignore"), tp.Ok)
    assert lines(Invoice, nested, unknown_arguments="reject") == [
        "line_items[0].colour: is not accepted"
    ]


def test_reject_names_top_level_extras_once_with_other_problems() -> None:
    result = parse(
        Invoice, {**VALID_INVOICE, "total_amount": "x", "zz": 1}, unknown_arguments="reject"
    )
    assert isinstance(result, tp.Error)
    assert result.message.count("zz") == 1
    assert "Unrecognized parameters: zz" in result.message
    assert 'total_amount: must be a number (received "x")' in result.message


def test_optional_fields_left_out_take_their_defaults() -> None:
    parsed = value(Invoice, VALID_INVOICE)
    assert parsed.currency == "EUR"
    assert parsed.priority == 1


def test_optional_int_accepts_null() -> None:
    @attrs.define
    class Model:
        limit: int | None = 5

    assert value(Model, {"limit": None}).limit is None
    assert value(Model, {}).limit == 5


def test_each_problem_carries_its_path_and_the_value_sent() -> None:
    result = parse(
        Invoice,
        {"vendor_name": 5, "total_amount": "abc", "line_items": [{"sku": "A", "quantity": 0}]},
    )
    assert isinstance(result, tp.Error)
    assert isinstance(result.exception, tp.InvalidArguments)
    assert [(p.path, p.received) for p in result.exception.problems] == [
        (("vendor_name",), 5),
        (("total_amount",), "abc"),
        (("line_items", 0, "quantity"), 0),
    ]
    assert isinstance(result.exception.__cause__, cattrs.ClassValidationError)


def test_a_nested_extra_key_follows_the_fields_problems() -> None:
    assert lines(
        Invoice,
        {**VALID_INVOICE, "line_items": [{"sku": 5, "quantity": 0, "zz": 1}]},
        unknown_arguments="reject",
    ) == [
        "line_items[0].sku: must be a string (received 5)",
        "line_items[0].quantity: must be at least 1 (received 0)",
        "line_items[0].zz: is not accepted",
    ]
