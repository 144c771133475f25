"""The texts the model reads: "did you mean", the shared renderer, limits."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolparse as tp
from toolparse import messages


@pytest.mark.parametrize(
    ("name", "candidate", "score"),
    [
        ("file_path", "path", 0.8333),
        ("patern", "pattern", 0.9524),
        ("lim", "limit", 0.88),
        ("query", "path", 0.0),
        ("file_path", "offset", 0.0),
        ("ab", "abc", 0.8889),
        ("Path", "path", 1.0),
    ],
)
def test_reference_scores(name: str, candidate: str, score: float) -> None:
    assert messages.similarity(name, candidate) == pytest.approx(score, abs=1e-4)


def test_jaro_edge_cases() -> None:
    assert messages._jaro("", "") == 1.0
    assert messages._jaro("a", "") == 0.0
    assert messages._jaro("martha", "marhta") == pytest.approx(0.9444, abs=1e-4)
    assert messages._jaro("dixon", "dicksonx") == pytest.approx(0.7667, abs=1e-4)


def test_did_you_mean_picks_best_and_first_on_tie() -> None:
    assert messages.did_you_mean("lim", ["offset", "limit"]) == "limit"
    assert messages.did_you_mean("query", ["path"]) is None
    assert messages.did_you_mean("abc", ["abcd", "abce"]) == "abcd"


@given(st.text(max_size=12), st.text(max_size=12))
def test_similarity_is_bounded_and_symmetric_in_case(a: str, b: str) -> None:
    score = messages.similarity(a, b)
    assert 0.0 <= score <= 1.0
    assert score == messages.similarity(a.upper(), b.upper()) or a.upper().lower() != a.lower()


# -- the shared renderer -------------------------------------------------------------


ACCEPTED = ["vendor_name", "total_amount", "currency", "line_items"]


def test_renderer_matches_the_contract_layout() -> None:
    args = {"vendor": "ACME", "total_amount": "abc", "line_items": [{}]}
    err = tp.invalid_arguments(
        [
            tp.ArgumentProblem(("total_amount",), "Input should be a valid number", "abc"),
            tp.ArgumentProblem(("line_items", 0, "quantity"), "Field required"),
            tp.ArgumentProblem.missing("vendor_name"),
            tp.ArgumentProblem.unrecognized("vendor"),
        ],
        arguments=args,
        accepted=ACCEPTED,
    )
    assert err.message == (
        "Invalid arguments for this tool.\n\n"
        'total_amount: Input should be a valid number (received "abc")\n'
        "line_items[0].quantity: Field required\n"
        "Missing parameters: vendor_name\n"
        'Unrecognized parameters: vendor (did you mean "vendor_name"?)\n'
        "Accepted parameters: vendor_name, total_amount, currency, line_items\n\n"
        "Fix these arguments and call the tool again."
    )
    assert isinstance(err.exception, tp.InvalidArguments)
    assert len(err.exception.problems) == 4


def test_accepted_line_only_with_missing_or_unrecognized() -> None:
    err = tp.invalid_arguments(
        [tp.ArgumentProblem(("a",), "bad", 1)], arguments={"a": 1}, accepted=["a"]
    )
    assert "Accepted parameters" not in err.message


def test_whole_object_path_and_nested_missing() -> None:
    err = tp.invalid_arguments(
        [
            tp.ArgumentProblem((), "start must be before end"),
            tp.ArgumentProblem.missing(("items", 2, "sku")),
            tp.ArgumentProblem.unrecognized(("items", 2, "skew")),
        ]
    )
    assert "(arguments): start must be before end\n" in err.message
    assert "items[2].sku: is required\n" in err.message
    assert "items[2].skew: Unrecognized parameter" in err.message


def test_missing_sorted_in_declaration_order() -> None:
    err = tp.invalid_arguments(
        [tp.ArgumentProblem.missing("line_items"), tp.ArgumentProblem.missing("vendor_name")],
        accepted=ACCEPTED,
    )
    assert "Missing parameters: vendor_name, line_items" in err.message


def test_received_values_are_json_cut_to_40() -> None:
    long = "x" * 100
    err = tp.invalid_arguments([tp.ArgumentProblem(("a",), "too long", long)])
    assert f'(received "{"x" * 36}...)' in err.message
    assert messages.value_text(None) == "null"
    assert messages.value_text({"a": [1, True]}) == '{"a": [1, true]}'
    assert messages.value_text("ü") == '"ü"'


def test_duplicates_are_dropped() -> None:
    p = tp.ArgumentProblem(("a",), "bad", 1)
    err = tp.invalid_arguments([p, tp.ArgumentProblem(("a",), "bad", 1)])
    assert err.message.count("a: bad") == 1


def test_at_most_20_problem_lines() -> None:
    problems = [tp.ArgumentProblem((f"f{i}",), "bad") for i in range(25)]
    err = tp.invalid_arguments(problems)
    assert "f19: bad\n... and 5 more" in err.message
    assert "f20" not in err.message


def test_at_most_2000_characters() -> None:
    problems = [tp.ArgumentProblem((f"field_{i}" * 5,), "r" * 150, "v" * 60) for i in range(20)]
    err = tp.invalid_arguments(problems)
    assert len(err.message) <= 2000
    assert err.message.endswith("Fix these arguments and call the tool again.")
    assert "more\n" in err.message or "more" in err.message


def test_one_enormous_line_is_cut() -> None:
    err = tp.invalid_arguments([tp.ArgumentProblem(("a",), "r" * 5000)])
    assert len(err.message) <= 2000


def test_cause_is_kept() -> None:
    cause = ValueError("library said no")
    err = tp.invalid_arguments([tp.ArgumentProblem(("a",), "bad")], cause=cause)
    assert err.exception is not None
    assert err.exception.__cause__ is cause


def test_problem_repr_and_equality() -> None:
    p = tp.ArgumentProblem(("a", 0), "bad", 3)
    assert p == tp.ArgumentProblem(["a", 0], "bad", 3)
    assert p != tp.ArgumentProblem(("a", 0), "bad")
    assert "received=3" in repr(p)
    assert p.line() == "a[0]: bad (received 3)"
    assert not tp.NOT_GIVEN


# -- the call itself --------------------------------------------------------------------


def test_unknown_tool_message() -> None:
    assert messages.unknown_tool("serch", ["search", "lookup"]) == (
        'Tool call made to serch but tool not found. Did you mean "search"? Available tools: lookup, search.'
    )
    assert messages.unknown_tool("x", []) == "Tool call made to x but tool not found."


def test_limit_messages() -> None:
    assert messages.too_large("search", 1_048_577, 1_048_576) == (
        "The arguments for tool search are too large (1,048,577 bytes; the limit is 1,048,576)."
    )
    assert messages.too_deep("search", 257, 256) == (
        "The arguments for tool search are nested too deeply (depth 257; the limit is 256)."
    )
    assert (
        messages.timed_out("search", 5)
        == "The tool search did not finish within 5 seconds and was stopped."
    )
    assert messages.timed_out("search", 1).startswith(
        "The tool search did not finish within 1 second "
    )
    assert messages.timed_out("send_email", 5, stopped=False) == (
        "The tool send_email did not finish within 5 seconds; it may still finish, "
        "so check its effect before calling it again."
    )


def test_value_text_takes_a_limit() -> None:
    assert messages.value_text("x" * 10, limit=8) == '"xxxx...'
    assert messages.value_text([1, 2, 3], limit=60) == "[1, 2, 3]"
    assert messages.value_text(10**20, limit=10) == "1000000..."
