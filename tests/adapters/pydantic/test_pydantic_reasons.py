"""Reasons in detail: unions, validators' own words, discriminator tags, choices, raised errors."""

from __future__ import annotations

import enum
from typing import Any, Literal

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field, HttpUrl, create_model, field_validator
from pydantic_core import PydanticCustomError

import toolparse as tp
from toolparse import NOT_GIVEN
from toolparse.adapter import one_of_reason

from .models_v1 import LegacyItem
from .test_pydantic_voice import lines


def test_a_union_of_types_is_one_line() -> None:
    class Either(BaseModel):
        value: int | str
        items: list[int] | dict[str, int] = []

    assert lines(Either, {"value": [1], "items": "x"}) == [
        "value: must be an integer or a string (received [1])",
        'items: must be a list or an object (received "x")',
    ]


def test_validators_keep_their_own_words_without_pydantics_prefix() -> None:
    class Checked(BaseModel):
        a: int = 0
        b: int = 0
        c: int = 0

        @field_validator("a")
        @classmethod
        def _a(cls, value: int) -> int:
            raise ValueError("a is never right")

        @field_validator("b")
        @classmethod
        def _b(cls, value: int) -> int:
            if value <= 10:
                # pytest rewrites an assert statement's message: raise it as one would
                raise AssertionError("b must exceed 10")
            return value

        @field_validator("c")
        @classmethod
        def _c(cls, value: int) -> int:
            raise PydanticCustomError("not_even", "c must be even, got {got}", {"got": value})

    assert lines(Checked, {"a": 1, "b": 2, "c": 3}) == [
        "a: a is never right (received 1)",
        "b: b must exceed 10 (received 2)",
        "c: c must be even, got 3 (received 3)",
    ]


def test_text_with_no_shared_words_stays_pydantics() -> None:
    class Site(BaseModel):
        home: HttpUrl

    assert lines(Site, {"home": "ftp://example.com"}) == [
        "home: URL scheme should be 'http' or 'https' (received \"ftp://example.com\")"
    ]

    class Count(BaseModel):
        n: int

    # thousands of digits are an integer, only too long to parse: "must be an integer" would mislead
    (line,) = lines(Count, {"n": "9" * 5000})
    assert line.startswith("n: Unable to parse input string as an integer, exceeded maximum size")


def test_a_discriminator_tag_is_named_at_its_key() -> None:
    class Cat(BaseModel):
        kind: Literal["cat"]

    class Dog(BaseModel):
        kind: Literal["dog"]

    class Home(BaseModel):
        pet: Cat | Dog = Field(discriminator="kind")

    assert lines(Home, {"pet": {"kind": "cow"}}) == [
        'pet.kind: must be one of: "cat", "dog" (received "cow")'
    ]
    assert lines(Home, {"pet": {}}) == ["pet.kind: is required"]

    class One(BaseModel):
        kind: Literal[1]

    class Two(BaseModel):
        kind: Literal[2]

    class Numbered(BaseModel):
        item: One | Two = Field(discriminator="kind")

    # the value sent is echoed (pydantic's context holds its text, "5")
    assert lines(Numbered, {"item": {"kind": 5}}) == [
        "item.kind: must be one of: 1, 2 (received 5)"
    ]


def _problem(source: Any, arguments: dict[str, Any]) -> tp.ArgumentProblem:
    """The one problem of a call ``source`` rejects."""
    result = tp.Function("tool", lambda a: "done", args_schema=source).execute(arguments)
    assert isinstance(result, tp.Error), result
    assert isinstance(result.exception, tp.InvalidArguments)
    (problem,) = result.exception.problems
    return problem


def test_an_email_error_reads_as_the_email_format() -> None:
    # pydantic's EmailStr (with email-validator) raises a plain value_error, as here
    class Contact(BaseModel):
        email: str

        @field_validator("email")
        @classmethod
        def _email(cls, value: str) -> str:
            raise PydanticCustomError(
                "value_error",
                "value is not a valid email address: {reason}",
                {"reason": "An email address must have an @-sign."},
            )

    problem = _problem(Contact, {"email": "ana"})
    assert (problem.path, problem.reason, problem.received) == (
        ("email",),
        "must be an email address",
        "ana",
    )


def test_an_unhashable_context_value_is_still_worded() -> None:
    class Bounded(BaseModel):
        n: int

        @field_validator("n")
        @classmethod
        def _n(cls, value: int) -> int:
            raise PydanticCustomError("greater_than", "too small", {"gt": [1]})

    assert _problem(Bounded, {"n": 0}).reason == "must be greater than [1]"


def test_the_whole_object_and_nested_objects_are_not_echoed() -> None:
    class Inner(BaseModel):
        a: int

    class Holder(BaseModel):
        inner: list[Inner]

    problem = _problem(Holder, {"inner": {"a": 1}})
    assert (problem.path, problem.reason) == (("inner",), "must be a list")
    assert problem.received is NOT_GIVEN


class _Raw(enum.Enum):
    ONE = b"x"
    TWO = b"y"


def test_unclear_choices_keep_pydantics_text() -> None:
    class Picked(BaseModel):
        thing: _Raw

    class Flagged(BaseModel):
        flag: Literal[1, True]

    # the members' values are no plain literals (pydantic writes b'x'): its own list stays
    assert _problem(Picked, {"thing": "q"}).reason == "Input should be b'x' or b'y'"
    # literals of several types are read back as they are
    assert _problem(Flagged, {"flag": 2}).reason == "must be one of: 1, true"


_CHOICE = st.one_of(
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12),
    st.integers(-1000, 1000),
)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(_CHOICE, min_size=1, max_size=5, unique_by=lambda v: (type(v), v)))
def test_literal_choices_come_back_exactly(values: list[Any]) -> None:
    # whatever strings the application's Literal holds (quotes, commas, " or "),
    # the reason lists exactly those values, as one_of_reason words them
    model = create_model("Choice", v=(Literal[tuple(values)], ...))  # type: ignore[call-overload]
    problem = _problem(model, {"v": [None]})  # a list is none of them
    assert problem.reason == one_of_reason(values)


class Parcel(BaseModel):
    weight: float
    unit: str


def test_a_validation_error_the_body_raises_reads_in_the_shared_words() -> None:
    # the tool validating its own data (not the model's arguments) with pydantic
    def quote(count: int) -> str:
        Parcel.model_validate({"weight": "heavy"})
        return "never"

    def legacy(count: int) -> str:
        LegacyItem.parse_obj({"quantity": 0})
        return "never"

    def other(count: int) -> str:
        raise ValueError("not pydantic")

    for body, problems in (
        (quote, "weight: must be a number; unit: is required"),
        (legacy, "sku: is required; quantity: must be greater than 0"),
    ):
        result = tp.tool(body).execute({"count": 1})
        assert isinstance(result, tp.Error)
        head, _, frame = result.message.partition(" at test_pydantic_reasons.py:")
        assert head == f"ERROR: (ValidationError) {problems}"
        assert frame.endswith(f".{body.__name__}")  # the qualified name of the body
        assert "heavy" not in result.message  # the tool's own data is not echoed
    assert (
        tp.tool(other)
        .execute({"count": 1})
        .message.startswith("ERROR: (ValueError) not pydantic at test_pydantic_reasons.py:")
    )


Wide = create_model("Wide", **{f"f{i}": (int, ...) for i in range(25)})  # type: ignore[call-overload]


def test_a_raised_error_with_many_problems_is_cut() -> None:
    def load(count: int) -> str:
        Wide.model_validate({f"f{i}": [] for i in range(25)})
        return "never"

    result = tp.tool(load).execute({"count": 1})
    assert isinstance(result, tp.Error)
    head, _, _ = result.message.partition(" at test_pydantic_reasons.py:")
    lines = head.removeprefix("ERROR: (ValidationError) ").split("; ")
    assert lines[0] == "f0: must be an integer"
    assert lines[-1] == "... and 15 more"
    assert len(lines) == 11
