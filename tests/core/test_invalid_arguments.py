"""``tp.invalid_arguments``: the one rendering of a rejected call, and the exception it keeps."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import Count

import toolparse as tp
from toolparse import messages

_BOUNDED = settings(max_examples=200, deadline=None, derandomize=True)

ACCEPTED = ["vendor_name", "total_amount", "currency", "line_items"]
HEAD = "Invalid arguments for this tool.\n\n"
TAIL = "\n\nFix these arguments and call the tool again."


def _exception(result: tp.Error) -> tp.InvalidArguments:
    assert isinstance(result.exception, tp.InvalidArguments)
    return result.exception


# -- the layout ------------------------------------------------------------------------


def test_the_message_reads_as_the_contract_says() -> None:
    args = {"vendor": "ACME", "total_amount": "abc", "line_items": [{}]}
    err = tp.invalid_arguments(
        [
            tp.ArgumentProblem(("total_amount",), "must be a number", "abc"),
            tp.ArgumentProblem(("line_items", 0, "quantity"), "is required"),
            tp.ArgumentProblem.missing("vendor_name"),
            tp.ArgumentProblem.unrecognized("vendor"),
        ],
        arguments=args,
        accepted=ACCEPTED,
    )
    assert err.message == (
        HEAD + 'total_amount: must be a number (received "abc")\n'
        "line_items[0].quantity: is required\n"
        "Missing parameters: vendor_name\n"
        'Unrecognized parameters: vendor (did you mean "vendor_name"?)\n'
        "Accepted parameters: vendor_name, total_amount, currency, line_items" + TAIL
    )
    assert len(_exception(err).problems) == 4


def test_one_wrong_value_is_one_line() -> None:
    err = tp.invalid_arguments(
        [tp.ArgumentProblem(("line_items", 0, "quantity"), "must be greater than 0", 0)]
    )
    assert (
        err.message == HEAD + "line_items[0].quantity: must be greater than 0 (received 0)" + TAIL
    )
    exc = _exception(err)
    assert (exc.arguments, exc.accepted, exc.more, exc.__cause__) == ({}, (), 0, None)


def test_the_accepted_line_comes_only_with_missing_or_unrecognized_names() -> None:
    err = tp.invalid_arguments(
        [tp.ArgumentProblem(("a",), "bad", 1)], arguments={"a": 1}, accepted=["a"]
    )
    assert "Accepted parameters" not in err.message
    err = tp.invalid_arguments(
        [tp.ArgumentProblem(("total_amount",), "must be a number", "abc")],
        arguments={"total_amount": "abc"},
        accepted=ACCEPTED,
    )
    assert "Accepted" not in err.message
    err = tp.invalid_arguments([tp.ArgumentProblem.missing("vendor_name")], accepted=ACCEPTED)
    assert err.message == (
        HEAD + "Missing parameters: vendor_name\n"
        "Accepted parameters: vendor_name, total_amount, currency, line_items" + TAIL
    )


def test_the_whole_object_and_nested_names_have_lines_of_their_own() -> None:
    err = tp.invalid_arguments(
        [
            tp.ArgumentProblem((), "start must be before end"),
            tp.ArgumentProblem.missing(("items", 2, "sku")),
            tp.ArgumentProblem.unrecognized(("items", 2, "skew")),
        ]
    )
    assert "(arguments): start must be before end\n" in err.message
    assert "items[2].sku: is required\n" in err.message
    assert "items[2].skew: is not accepted" in err.message


def test_missing_names_are_in_declaration_order() -> None:
    err = tp.invalid_arguments(
        [tp.ArgumentProblem.missing("line_items"), tp.ArgumentProblem.missing("vendor_name")],
        accepted=ACCEPTED,
    )
    assert "Missing parameters: vendor_name, line_items" in err.message


def test_received_values_are_json_cut_to_40() -> None:
    err = tp.invalid_arguments([tp.ArgumentProblem(("a",), "too long", "x" * 100)])
    assert f'(received "{"x" * 36}...)' in err.message


def test_a_reason_of_several_lines_is_one_line() -> None:
    problem = tp.ArgumentProblem(("a", 0), "first\nsecond\r\n\n  third\tpart", 3)
    assert problem.line() == "a[0]: first; second; third part (received 3)"
    assert problem.reason == "first\nsecond\r\n\n  third\tpart"  # the data stays as given
    message = tp.invalid_arguments(
        [tp.ArgumentProblem(("when",), "must be later\nthan now"), tp.ArgumentProblem.missing("x")]
    ).message
    assert message.splitlines() == [
        "Invalid arguments for this tool.",
        "",
        "when: must be later; than now",
        "Missing parameters: x",
        "",
        "Fix these arguments and call the tool again.",
    ]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.text(max_size=40))
def test_every_reason_gives_one_line(reason: str) -> None:
    line = tp.ArgumentProblem(("f",), reason).line()
    assert len(line.splitlines()) <= 1
    if reason.isprintable():
        assert line == f"f: {reason}"


def test_a_problem_compares_by_its_fields() -> None:
    p = tp.ArgumentProblem(("a", 0), "bad", 3)
    assert p == tp.ArgumentProblem(["a", 0], "bad", 3)
    assert p != tp.ArgumentProblem(("a", 0), "bad")
    assert "received=3" in repr(p)
    assert p.line() == "a[0]: bad (received 3)"
    assert not tp.NOT_GIVEN


# -- limits ---------------------------------------------------------------------------


def test_repeats_are_dropped() -> None:
    err = tp.invalid_arguments(
        [tp.ArgumentProblem(("a",), "bad", 1), tp.ArgumentProblem(("a",), "bad", 2)]
    )
    assert err.message.count("a: bad") == 1
    assert len(_exception(err).problems) == 1


def test_at_most_20_problem_lines_then_the_count() -> None:
    problems = [tp.ArgumentProblem((f"f{i}",), "must be an integer", "x") for i in range(300)]
    err = tp.invalid_arguments(problems, arguments={f"f{i}": "x" for i in range(300)})
    shown = [line for line in err.message.split("\n") if line.startswith("f")]
    assert shown == [f'f{i}: must be an integer (received "x")' for i in range(20)]
    assert "\n... and 280 more" in err.message
    assert len(_exception(err).problems) == 300  # every problem, rendered or not
    err = tp.invalid_arguments(problems[:25], more=75)
    assert "f19: must be an integer" in err.message
    assert "f20" not in err.message
    assert "... and 80 more" in err.message
    assert _exception(err).more == 75


def test_at_most_2000_characters() -> None:
    problems = [tp.ArgumentProblem((f"field_{i}" * 5,), "r" * 150, "v" * 60) for i in range(20)]
    err = tp.invalid_arguments(problems)
    assert len(err.message) <= 2000
    assert err.message.endswith(TAIL)
    assert "more" in err.message
    assert len(tp.invalid_arguments([tp.ArgumentProblem(("a",), "r" * 5000)]).message) <= 2000


def test_a_long_message_gives_up_names_before_lines() -> None:
    accepted = [f"parameter_with_a_long_name_{i}" for i in range(200)]
    problems = [tp.ArgumentProblem((name,), "must be an integer") for name in accepted[:30]]
    problems += [tp.ArgumentProblem.missing(name) for name in accepted[30:]]
    text = tp.invalid_arguments(problems, accepted=accepted).message
    assert len(text) <= messages.MAX_MESSAGE_CHARS
    assert "\n... and 10 more\n" in text  # 30 lines: 20 shown, the rest counted
    assert "parameter_with_a_long_name_19: must be an integer\n" in text
    assert "Missing parameters: parameter_with_a_long_name_30, " in text
    assert "Accepted parameters: parameter_with_a_long_name_0, " in text


_text = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=110)
_name = st.text(alphabet="abcdefghij_ ", min_size=1, max_size=40)


@_BOUNDED
@given(
    reasons=st.lists(_text, max_size=45),
    missing=st.lists(_name, max_size=40),
    unrecognized=st.dictionaries(_name, st.none() | _name, max_size=40),
    accepted=st.lists(_name, max_size=40),
    more=st.integers(0, 5),
)
def test_every_message_fits_and_counts_what_it_leaves_out(
    reasons: list[str],
    missing: list[str],
    unrecognized: dict[str, str | None],
    accepted: list[str],
    more: int,
) -> None:
    lines = [f"line {i}: {reason}" for i, reason in enumerate(reasons)]
    text = messages.invalid(lines, missing, unrecognized, accepted, more)
    assert len(text) <= messages.MAX_MESSAGE_CHARS
    assert text.startswith(HEAD)
    assert text.endswith(TAIL)
    shown = [line for line in text.split("\n") if line.startswith("line ")]
    assert shown == lines[: len(shown)]
    assert len(shown) <= messages.MAX_PROBLEM_LINES
    left = len(lines) + more - len(shown)
    assert (f"\n... and {left} more\n" in text) == (left > 0)
    for label, names in (("Missing", missing), ("Unrecognized", unrecognized)):
        assert (f"\n{label} parameters: " in text) == bool(names)


# -- every unknown name -----------------------------------------------------------------


def test_every_unknown_top_level_name_is_named_once() -> None:
    arguments = {"vendor": "ACME", "total_amount": "abc", "zzz": 1, "nmae": 2, None: 3}
    err = tp.invalid_arguments(
        [
            tp.ArgumentProblem(("total_amount",), "must be a number", "abc"),
            tp.ArgumentProblem.unrecognized("zzz"),
        ],
        arguments=arguments,
        accepted=ACCEPTED,
    )
    assert err.message == (
        HEAD + 'total_amount: must be a number (received "abc")\n'
        'Unrecognized parameters: nmae, vendor (did you mean "vendor_name"?), zzz\n'
        "Accepted parameters: vendor_name, total_amount, currency, line_items" + TAIL
    )
    # the problems given, then one per name the renderer found, in the order sent
    assert [(p.path, p.kind) for p in _exception(err).problems] == [
        (("total_amount",), "invalid"),
        (("zzz",), "unrecognized"),
        (("vendor",), "unrecognized"),
        (("nmae",), "unrecognized"),
    ]
    # the same message as with a problem for each name
    each = tp.invalid_arguments([*_exception(err).problems], arguments=arguments, accepted=ACCEPTED)
    assert each.message == err.message
    assert _exception(each).problems == _exception(err).problems


def test_names_are_suggested_among_the_accepted_names_not_sent() -> None:
    err = tp.invalid_arguments(
        [], arguments={"unit": "c", "units": "f"}, accepted=["city", "units"]
    )
    assert "Unrecognized parameters: unit\n" in err.message
    err = tp.invalid_arguments([], arguments={"unit": "c"}, accepted=["city", "units"])
    assert 'Unrecognized parameters: unit (did you mean "units"?)\n' in err.message


def test_without_accepted_names_nothing_is_called_unrecognized() -> None:
    err = tp.invalid_arguments([tp.ArgumentProblem(("a",), "bad")], arguments={"a": 1, "b": 2})
    assert "Unrecognized" not in err.message
    assert len(_exception(err).problems) == 1


def test_the_names_found_are_built_as_problems_only_when_read(problems_built: Count) -> None:
    arguments = {"name": "x", **{f"zz{i}": 0 for i in range(20_000)}}
    err = tp.invalid_arguments([], arguments=arguments, accepted=["name", "count"])
    assert problems_built.count == 0
    assert "... and 19970 more" in err.message
    assert len(err.message) <= messages.MAX_MESSAGE_CHARS
    exc = _exception(err)
    assert [p.path[0] for p in exc.problems] == list(arguments)[1:]
    assert exc.problems is exc.problems  # built once


# -- the exception -------------------------------------------------------------------------


def _rejection() -> tp.InvalidArguments:
    return _exception(
        tp.invalid_arguments(
            [tp.ArgumentProblem(("a",), "must be an integer", "x")],
            arguments={"a": "x", "zz": 1},
            accepted=["a"],
            more=2,
            cause=ValueError("the library's own"),
        )
    )


def test_it_reads_as_its_message_and_keeps_its_cause() -> None:
    exc = _rejection()
    assert str(exc) == exc.message
    assert exc.args == (exc.message,)
    assert "a: must be an integer" in exc.message
    assert isinstance(exc.__cause__, ValueError)
    with pytest.raises(tp.InvalidArguments, match="Invalid arguments for this tool"):
        raise exc


@pytest.mark.parametrize(
    "again",
    [copy.copy, copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))],
    ids=["copy", "deepcopy", "pickle"],
)
def test_a_copy_or_a_pickle_is_the_same_rejection(again: Any) -> None:
    exc = _rejection()
    exc.logged = True  # type: ignore[attr-defined]  # an application's own attribute travels too
    other = again(exc)
    assert type(other) is tp.InvalidArguments
    assert other is not exc
    assert (other.message, other.args, other.accepted, other.more) == (
        exc.message,
        exc.args,
        exc.accepted,
        exc.more,
    )
    assert other.problems == exc.problems
    assert [p.path for p in other.problems] == [("a",), ("zz",)]
    assert other.arguments == exc.arguments
    assert other.logged is True


# -- the rule, for any problems -----------------------------------------------------------

_names = ["a", "b", "total", "qty", ""]
# a small pool, so repeats (the same place, reason and kind) are common
_problem = st.builds(
    tp.ArgumentProblem,
    st.lists(st.sampled_from([*_names, 0, 1]), min_size=0, max_size=3),
    st.sampled_from(["must be a number", "is required", "bad\nvalue"]),
    st.sampled_from([tp.NOT_GIVEN, 0, "x", None]),
    st.sampled_from(["invalid", "missing", "unrecognized"]),
)


def _by_the_rule(
    problems: Sequence[tp.ArgumentProblem], arguments: dict[str, Any], accepted: list[str]
) -> tuple[str, list[tp.ArgumentProblem]]:
    # drop repeats, gather the top-level names, add the unknown names sent, render the rest
    kept: list[tp.ArgumentProblem] = []
    for p in problems:
        if all((q.path, q.reason, q.kind) != (p.path, p.reason, p.kind) for q in kept):
            kept.append(p)
    named = [p for p in kept if p.kind != "invalid" and len(p.path) == 1 and type(p.path[0]) is str]
    missing = [str(p.path[0]) for p in named if p.kind == "missing"]
    unknown = [str(p.path[0]) for p in named if p.kind == "unrecognized"]
    if accepted:
        missing.sort(key=lambda name: accepted.index(name) if name in accepted else len(accepted))
        unknown += [k for k in arguments if k not in accepted and k not in unknown]
    lines = [p.line() for p in kept if p not in named]
    sent = [n for n in accepted if n in arguments]
    found = messages.suggestions(unknown, accepted, sent) if unknown else {}
    return messages.invalid(lines, missing, found, accepted), kept


@_BOUNDED
@given(
    problems=st.lists(_problem, max_size=8),
    accepted=st.lists(st.sampled_from(_names), max_size=4, unique=True),
    as_iterator=st.booleans(),
)
def test_any_problems_read_as_the_rule(
    problems: list[tp.ArgumentProblem], accepted: list[str], as_iterator: bool
) -> None:
    arguments = {"a": 1, "qty": 2, "zz": 3}
    given_problems = iter(problems) if as_iterator else problems
    result = tp.invalid_arguments(given_problems, arguments=arguments, accepted=accepted)
    text, kept = _by_the_rule(problems, arguments, accepted)
    assert result.message == text
    found = _exception(result).problems
    assert [id(p) for p in found[: len(kept)]] == [id(p) for p in kept]
    assert all(p.kind == "unrecognized" for p in found[len(kept) :])
