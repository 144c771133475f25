"""pydantic.v1 models answer huge integers and names that are not text with argument messages.

``pydantic.v1`` lets an ``OverflowError`` out of an integer too big for a
float field, and a ``TypeError`` out of a top-level name that is not a string;
both are wrong values the model sent, not failures of the tool.
"""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import v1

import toolparse as tp

HEAD = "Invalid arguments for this tool."


class Point(v1.BaseModel):
    y: float


class Measure(v1.BaseModel):
    n: int
    x: float = 0.0
    xs: list[float] = []
    point: Point | None = None
    tags: dict[str, int] = {}


MEASURE = tp.Function("measure", lambda m: "ok", args_schema=Measure)


def _internal(message: str) -> bool:
    return any(s in message for s in (".py:", "Error)", "set_int_max_str"))


@pytest.mark.parametrize("digits", [309, 401, 4_300, 5_000])
def test_an_integer_too_big_for_a_float_field_is_named(digits: int) -> None:
    result = MEASURE.execute({"n": 1, "x": 10**digits})
    assert isinstance(result, tp.Error)
    lines = result.message.splitlines()
    assert lines[0] == HEAD
    assert lines[2].startswith("x: must be a number within the range of a float (received ")


@pytest.mark.parametrize(
    "sent",
    [
        {"n": 1, "xs": [1.5, 10**401]},
        {"n": 1, "point": {"y": 10**401}},
        {"n": "a", "x": 10**5_000},
    ],
)
def test_an_integer_too_big_anywhere_is_an_argument_message(sent: dict[str, object]) -> None:
    result = MEASURE.execute(sent)
    assert isinstance(result, tp.Error)
    assert result.message.startswith(HEAD), result.message
    assert not _internal(result.message)


def test_an_integer_too_big_in_json_text() -> None:
    result = MEASURE.execute('{"n": 1, "x": ' + "9" * 401 + "}")
    assert isinstance(result, tp.Error)
    assert result.message.splitlines()[2].startswith("x: must be a number within the range")


def test_a_big_integer_for_an_integer_field_is_fine() -> None:
    assert isinstance(MEASURE.execute({"n": 10**401}), tp.Ok)


@pytest.mark.parametrize("key", [1, None, (1, 2), 1.5])
def test_a_top_level_name_that_is_not_text_is_named_with_the_other_problems(key: object) -> None:
    result = MEASURE.execute({key: 1, "n": "many"})
    assert isinstance(result, tp.Error)
    lines = result.message.splitlines()
    assert lines[0] == HEAD
    shown = json.dumps(list(key) if isinstance(key, tuple) else key)
    assert f"(arguments): has a name that is not text (received {shown})" in lines
    assert 'n: must be an integer (received "many")' in lines


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    st.dictionaries(
        st.sampled_from(["n", "x", "xs", "point"]) | st.integers() | st.none(),
        st.integers(-(10**600), 10**600)
        | st.lists(st.integers(-(10**600), 10**600), max_size=3)
        | st.fixed_dictionaries({"y": st.integers(-(10**600), 10**600)}),
        max_size=4,
    )
)
def test_any_integers_and_names_are_a_result(sent: dict[object, object]) -> None:
    result = MEASURE.execute(sent)
    assert isinstance(result, (tp.Ok, tp.Error))
    if isinstance(result, tp.Error):
        assert not _internal(result.message), result.message
