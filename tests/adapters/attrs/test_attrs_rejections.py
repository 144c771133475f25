"""A rejected call's words: the same for the same validator whatever was seen before; the cause is cattrs'."""

from typing import Any

import attrs
import cattrs
from attrs import validators as v
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse_attrs import make_converter


def lines(source: Any, arguments: Any) -> list[str]:
    """The problem lines of the one error message."""
    result = tp.Function("t", lambda a: "x", args_schema=source).execute(arguments)
    assert isinstance(result, tp.Error), result
    return result.message.split("\n\n")[1].splitlines()


def one_field(validator: Any, annotation: Any = Any) -> type:
    return attrs.make_class("Model", {"x": attrs.field(type=annotation, validator=validator)})


# -- a validator's words, worked out once ----------------------------------------------


def test_equal_validators_keep_their_own_words() -> None:
    # equal to attrs (0 == False, 1 == True), but not to the model
    numbers, flags = v.in_((0, 1)), v.in_((False, True))
    assert numbers == flags
    assert lines(one_field(numbers), {"x": 5}) == ["x: must be one of: 0, 1 (received 5)"]
    assert lines(one_field(flags), {"x": 5}) == ["x: must be one of: false, true (received 5)"]
    assert lines(one_field(numbers), {"x": 7}) == ["x: must be one of: 0, 1 (received 7)"]


def test_one_length_validator_reads_by_the_value_it_refused() -> None:
    short = v.max_len(2)
    text = one_field(short, str)
    items = one_field(short, list[int])
    for _ in range(2):  # the second time from what was remembered
        assert lines(text, {"x": "abc"}) == [
            'x: must be at most 2 characters long (received "abc")'
        ]
        assert lines(items, {"x": [1, 2, 3]}) == [
            "x: must have at most 2 items (received [1, 2, 3])"
        ]


def test_a_validator_of_yours_keeps_its_message_each_time() -> None:
    calls: list[Any] = []

    def even(instance: Any, attribute: Any, value: Any) -> None:
        calls.append(value)
        if value % 2:
            raise ValueError(f"{value} is odd")

    model = one_field(even, int)
    assert lines(model, {"x": 3}) == ["x: 3 is odd (received 3)"]
    assert lines(model, {"x": 5}) == ["x: 5 is odd (received 5)"]
    # run in __init__, then once more to word the problem: never more
    assert calls == [3, 3, 5, 5]


# -- the strict converter's rules ------------------------------------------------------

JSON_SCALAR = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=4)
)


def _rule(kind: type, value: Any) -> Any:
    """What the documented table says a JSON value structures into (``None``: refused)."""
    if kind is str:
        return value if isinstance(value, str) else None
    if kind is bool:
        return value if type(value) is bool else None
    if kind is int:
        if type(value) is float and value.is_integer():
            return int(value)
        return value if type(value) is int else None
    return float(value) if type(value) in (int, float) else None


@settings(max_examples=150, deadline=None, derandomize=True)
@given(JSON_SCALAR)
def test_the_converter_structures_scalars_by_its_table(value: Any) -> None:
    converter = make_converter()
    for kind in (str, int, float, bool):
        expected = _rule(kind, value)
        try:
            result = converter.structure(value, kind)
        except ValueError:
            assert expected is None, (kind, value)
        else:
            assert (type(result), result) == (kind, expected), (kind, value)


# -- the cause keeps cattrs' own texts -------------------------------------------------


@attrs.define
class Line:
    qty: int = attrs.field(validator=v.ge(1))


@attrs.define
class Order:
    lines: list[Line]


def test_a_rejected_array_keeps_cattrs_notes() -> None:
    for _ in range(2):  # the texts are worded once per type, the same each time
        result = tp.Function("t", lambda a: "x", args_schema=Order).execute(
            {"lines": [{"qty": 0}, {"qty": 2}, {"qty": "a"}]}
        )
        assert isinstance(result, tp.Error)
        cause = result.exception.__cause__
        assert isinstance(cause, cattrs.ClassValidationError)
        (array,) = cause.exceptions
        assert isinstance(array, cattrs.IterableValidationError)
        assert array.message == f"While structuring {list[Line]!r}"
        notes = [e.__notes__[-1] for e in array.exceptions]
        assert [(str(n), n.index, n.type) for n in notes] == [
            (f"Structuring {list[Line]!r} @ index {i}", i, Line) for i in (0, 2)
        ]
        assert cattrs.transform_error(cause) == [
            "invalid value @ $.lines[0]",
            "invalid value for type, expected int @ $.lines[2].qty",
        ]
        assert result.message.split("\n\n")[1].splitlines() == [
            "lines[0].qty: must be at least 1 (received 0)",
            'lines[2].qty: must be an integer (received "a")',
        ]
