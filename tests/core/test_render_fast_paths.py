"""The quick ways the core renders a rejected call give the texts of the general rule, exactly."""

from __future__ import annotations

import enum
import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse import messages
from toolparse.messages import MAX_MESSAGE_CHARS, fitted_invalid, invalid, path_text, value_text
from toolparse.problems import render_problems

_BOUNDED = settings(max_examples=150, deadline=None, derandomize=True)

# names and lines as a model's arguments produce them: short and long, odd characters
_name = st.text(min_size=0, max_size=40)
_names = st.lists(_name, max_size=40)
_line = st.text(min_size=0, max_size=120)


def test_one_wrong_value_reads_as_the_contract_says() -> None:
    problem = tp.ArgumentProblem(("total_amount",), "must be a number", "abc")
    result = render_problems([problem], {"total_amount": "abc"}, ("total_amount",), None)
    assert result.message == (
        "Invalid arguments for this tool.\n\n"
        'total_amount: must be a number (received "abc")\n\n'
        "Fix these arguments and call the tool again."
    )


def test_a_missing_name_and_nested_problem_read_as_the_contract_says() -> None:
    accepted = ("vendor_name", "total_amount", "currency", "line_items")
    problems = [
        tp.ArgumentProblem(("total_amount",), "must be a number", "abc"),
        tp.ArgumentProblem(("line_items", 0, "quantity"), "must be greater than 0", 0),
        tp.ArgumentProblem.missing("vendor_name"),
    ]
    result = render_problems(problems, {"total_amount": "abc"}, accepted, None)
    assert result.message == (
        "Invalid arguments for this tool.\n\n"
        'total_amount: must be a number (received "abc")\n'
        "line_items[0].quantity: must be greater than 0 (received 0)\n"
        "Missing parameters: vendor_name\n"
        "Accepted parameters: vendor_name, total_amount, currency, line_items\n\n"
        "Fix these arguments and call the tool again."
    )


def test_an_unknown_name_with_its_suggestion_reads_as_the_contract_says() -> None:
    text = invalid(["a: must be a string (received 1)"], [], {"nme": "name"}, ("a", "name"))
    assert text == (
        "Invalid arguments for this tool.\n\n"
        "a: must be a string (received 1)\n"
        'Unrecognized parameters: nme (did you mean "name"?)\n'
        "Accepted parameters: a, name\n\n"
        "Fix these arguments and call the tool again."
    )


@_BOUNDED
@given(
    lines=st.lists(_line, max_size=45),
    missing=_names,
    unrecognized=st.dictionaries(_name, st.none() | _name, max_size=40),
    accepted=_names,
    as_tuple=st.booleans(),
)
def test_the_quick_text_is_the_general_rules_text(
    lines: list[str],
    missing: list[str],
    unrecognized: dict[str, str | None],
    accepted: list[str],
    as_tuple: bool,
) -> None:
    names = tuple(accepted) if as_tuple else accepted
    expected = fitted_invalid(lines, missing, unrecognized, names)
    # twice: the second reads the remembered names line of the same tuple
    assert invalid(lines, missing, unrecognized, names) == expected
    assert invalid(lines, missing, unrecognized, names) == expected
    assert len(expected) <= MAX_MESSAGE_CHARS


def test_a_long_message_still_gives_way_by_the_general_rule() -> None:
    accepted = tuple(f"parameter_with_a_long_name_{i}" for i in range(200))
    lines = [f"{name}: must be an integer" for name in accepted[:30]]
    text = invalid(lines, list(accepted[30:]), {}, accepted)
    assert text == fitted_invalid(lines, list(accepted[30:]), {}, accepted)
    assert len(text) <= MAX_MESSAGE_CHARS
    assert "... and 10 more" in text  # 30 lines: 20 shown, the rest counted
    assert "Accepted parameters:" in text


def test_a_names_list_that_changes_is_read_afresh() -> None:
    accepted = ["a", "b"]
    assert "Accepted parameters: a, b\n" in invalid(["x: wrong"], ["a"], {}, accepted)
    accepted.append("c")
    assert "Accepted parameters: a, b, c\n" in invalid(["x: wrong"], ["a"], {}, accepted)


def test_many_tuples_of_names_keep_their_own_text() -> None:
    tuples = [tuple(f"n{i}_{j}" for j in range(3)) for i in range(600)]
    for names in tuples:
        text = invalid([], [names[0]], {}, names)
        assert f"Accepted parameters: {', '.join(names)}\n" in text
    assert len(messages._ACCEPTED_TEXTS) <= messages._REMEMBERED_NAMES


class _Index(enum.IntEnum):
    FIRST = 0


class _Name(str):
    def __str__(self) -> str:
        return "shown-by-str"


def _path_text_by_rule(path: tuple[object, ...]) -> str:
    # the written rule: a[0].b, keys that are not text as their repr
    if not path:
        return "(arguments)"
    out: list[str] = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        else:
            text = part if isinstance(part, str) else messages.safe_text(repr(part), 40)
            out.append(f".{text}" if out else text)
    return "".join(out)


@_BOUNDED
@given(
    st.lists(
        st.text(max_size=12)
        | st.integers(-5, 10**6)
        | st.booleans()
        | st.none()
        | st.sampled_from([_Index.FIRST, _Name("key"), (1, 2)]),
        max_size=5,
    )
)
def test_a_path_reads_by_the_rule(parts: list[object]) -> None:
    path = tuple(parts)
    assert path_text(path) == _path_text_by_rule(path)  # type: ignore[arg-type]


@_BOUNDED
@given(
    st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([0.1, -0.0, 1e16, 1e-7, 1.5e300, 12345678901234567890.0])
)
def test_an_echoed_float_reads_as_its_json(value: float) -> None:
    text = json.dumps(value)
    assert value_text(value) == (text if len(text) <= 40 else text[:37] + "...")
    if math.isfinite(value):
        assert float(value_text(value)) == value or len(text) > 40
