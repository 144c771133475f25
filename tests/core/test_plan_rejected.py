"""A rejected call through an adapter's parser: the plan's own steps on the way back.

The plan returns an adapter's rejection as it is when the policy adds nothing
and there is no context to redact, holds the adapter's rendering back (and
lets go of it) around a call with names the policy may add, and keeps no
reference to the rejection once it returned.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse.context import secrets_of
from toolparse.function._outcome import _secrets
from toolparse.problems import ArgumentProblem, InvalidArguments, invalid_arguments

from .checking_adapter import (
    ACCEPTED,
    AsyncChecker,
    Checker,
    checked_function,
    counted_renders,
    verdict_of,
)

POLICIES = ("report", "reject", "ignore")
SECRET = "sk-live-0123456789"


@pytest.fixture
def no_collector() -> Iterator[None]:
    """The collector off, so that what a call leaves in cycles is found by one collection."""
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Raising(Checker):
    """The checker, its rejection caused by an exception it caught (a traceback kept)."""

    def __call__(self, args: dict[str, Any]) -> tp.ParseResult:
        result = super().__call__(args)
        if type(result) is tp.Error:
            try:
                raise ValueError("library failure")
            except ValueError as exc:
                found = result.exception.problems
                return invalid_arguments(found, arguments=args, accepted=ACCEPTED, cause=exc)
        return result


class Quoting(Checker):
    """A parser that quotes the whole call in its rejection (as a library's text may)."""

    def __call__(self, args: dict[str, Any]) -> tp.ParseResult:
        problem = ArgumentProblem(("tag",), f"must not be {args.get('tag')}")
        return invalid_arguments([problem], arguments=args, accepted=ACCEPTED)


class OtherNames(Checker):
    """A parser that renders its rejection with accepted names of its own."""

    def __call__(self, args: dict[str, Any]) -> tp.ParseResult:
        problem = ArgumentProblem.missing("id")
        return invalid_arguments([problem], arguments=args, accepted=("id",))


@pytest.mark.parametrize("policy", POLICIES)
def test_a_rejection_of_accepted_names_is_the_adapters_own_error(policy: str) -> None:
    parser = Checker()
    fn = checked_function(parser=parser, unknown_arguments=policy, after=False)
    bad = {"id": "one", "tag": 5}
    own = parser(bad)
    result = fn.execute(bad)
    assert result.message == own.message
    assert isinstance(result.exception, InvalidArguments)
    assert [p.path for p in result.exception.problems] == [("id",), ("tag",)]
    assert fn.parse_arguments(bad).message == own.message


@pytest.mark.parametrize("policy", POLICIES)
def test_a_context_string_the_rejection_quotes_is_redacted(policy: str) -> None:
    fn = checked_function(parser=Quoting(), unknown_arguments=policy, after=False)
    bad = {"id": 1, "tag": SECRET}
    for context in ({"key": SECRET}, [SECRET]):
        result = fn.execute(bad, context)
        assert isinstance(result, tp.Error)
        assert SECRET not in result.message
        assert "[redacted]" in result.message
    # with no context, nothing is hidden
    assert SECRET in fn.execute(bad).message


@pytest.mark.parametrize("policy", POLICIES)
def test_a_rejection_rendered_with_other_names_is_rendered_with_the_tools(policy: str) -> None:
    fn = checked_function(parser=OtherNames(), unknown_arguments=policy, after=False)
    result = fn.execute({"tag": "a"})
    assert isinstance(result, tp.Error)
    assert "Accepted parameters: id, tag, meta, items" in result.message
    expected = invalid_arguments([ArgumentProblem.missing("id")], accepted=ACCEPTED)
    assert result.message == expected.message


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(
    "args",
    [
        {"id": "one"},
        {"id": "one", "tag": 5, "meta": {"x": "y"}},
        {"tag": "a"},
        {"id": "one", "idd": 1},
        {"id": 1, "idd": 1},
        {"id": "one", "zzz": 1, "items": [{"n": "x"}]},
        {"id": 1},
    ],
)
@pytest.mark.parametrize("context", [None, {"key": "one-secret"}, {"key": 5}])
def test_the_shortcut_answers_what_the_policy_step_answers(
    policy: str, args: dict[str, Any], context: Any
) -> None:
    """The plan's answer is the policy step's (``settle``) on the parser's own result."""
    for parser in (Checker(), Raising(), Quoting(), OtherNames()):
        fn = checked_function(parser=parser, unknown_arguments=policy, after=False)
        space = fn._run.__globals__
        sent = args
        if policy == "ignore":
            sent = {k: v for k, v in args.items() if k in ACCEPTED}
        within = set(ACCEPTED).issuperset(sent)
        raw = parser(sent)
        if type(raw) is tp.Ok and within:
            expected: Any = tp.Ok(sent)
        else:
            expected = space["settle"](raw, sent, within, context)
        if type(expected) is tp.Ok:
            expected = tp.Ok(sent)
        assert verdict_of(fn.parse_arguments(args, context)) == verdict_of(expected)


@pytest.mark.parametrize("policy", ["report", "reject"])
def test_unknown_names_join_the_parsers_problems_in_one_rendering(policy: str) -> None:
    fn = checked_function(parser=Checker(), unknown_arguments=policy, after=False)
    bad = {"id": "one", "idd": 1}
    with counted_renders() as renders:
        result = fn.execute(bad)
    assert isinstance(result, tp.Error)
    assert len(renders) == 1  # the adapter's problems and the unknown name, rendered once
    assert "id: must be an integer" in result.message
    assert "idd" in result.message


def test_a_parser_that_raises_leaves_later_renderings_alone() -> None:
    class Broken(Checker):
        def __call__(self, args: dict[str, Any]) -> tp.ParseResult:
            raise RuntimeError("parser bug")

    fn = checked_function(parser=Broken(), after=False)
    result = fn.execute({"id": 1, "zzz": 2})
    assert isinstance(result, tp.Error)
    # a later parser outside any Function renders its own problems again
    rendered = invalid_arguments([ArgumentProblem(("id",), "bad")], arguments={"id": 1})
    assert rendered.message


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("after", [False, True])
@pytest.mark.parametrize("args", [{"id": "one"}, {"id": "one", "zzz": 1}])
@pytest.mark.usefixtures("no_collector")
def test_a_rejected_call_leaves_no_reference_cycle_of_its_own(
    policy: str, after: bool, args: dict[str, Any]
) -> None:
    # the parser's traceback holds its frame, whose caller is the plan's frame
    fn = checked_function(parser=Raising(), unknown_arguments=policy, after=after)
    for entry in (fn.execute, fn.parse_arguments):
        entry(args)  # anything built once is built
        gc.collect()
        result = entry(args)
        assert isinstance(result, tp.Error)
        assert isinstance(result.exception.__cause__, ValueError)
        del result
        assert gc.collect() == 0


@pytest.mark.usefixtures("no_collector")
def test_your_own_parser_rejection_leaves_no_reference_cycle_of_its_own() -> None:
    def parse_args(args: dict[str, Any]) -> tp.ParseResult:
        try:
            int(args["id"])
        except ValueError as exc:
            problem = ArgumentProblem(("id",), "must be an integer")
            return invalid_arguments([problem], arguments=args, cause=exc)
        return tp.ok()

    fn = tp.Function(
        "t",
        lambda a: a,
        parameters=[tp.FunctionParam("id", "string")],
        parse_args=parse_args,
    )
    fn.execute({"id": "one"})
    gc.collect()
    result = fn.execute({"id": "one"})
    assert isinstance(result, tp.Error)
    del result
    assert gc.collect() == 0


_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False))
_VALUE = st.one_of(_SCALAR, st.text(min_size=0, max_size=12), st.lists(_SCALAR, max_size=3))
_KEY = st.one_of(st.sampled_from(["tool_call_id", "run_context", "user"]), st.text(max_size=6))
_CONTEXTS = st.one_of(
    _SCALAR,
    st.dictionaries(_KEY, _VALUE, max_size=40),
    st.lists(_VALUE, max_size=40),
    st.lists(_VALUE, max_size=40).map(tuple),
    st.dictionaries(_KEY, _VALUE, max_size=5).map(tp.Context),
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_CONTEXTS)
def test_the_strings_of_a_context_are_the_searchs_whatever_the_context(context: Any) -> None:
    """The quick answer for a context with no string is the search's own answer."""
    assert _secrets(context) == secrets_of(context)


@pytest.mark.parametrize(
    "context", [{"user_id": 42}, {"tool_call_id": "call-123456", "n": 1.5}, [1, None], 7]
)
def test_a_context_of_numbers_reads_as_no_context(context: Any) -> None:
    fn = checked_function(parser=Quoting(), after=False)
    bad = {"id": 1, "tag": "call-123456 42"}
    assert fn.execute(bad, context).message == fn.execute(bad).message


def test_a_context_string_next_to_numbers_is_still_redacted() -> None:
    fn = checked_function(parser=Quoting(), after=False)
    bad = {"id": 1, "tag": SECRET}
    for context in ({"n": 1, "key": SECRET}, [1, 2, SECRET], {"n": 1, "deep": [SECRET]}):
        assert SECRET not in fn.execute(bad, context).message
    many = {f"k{i}": i for i in range(100)} | {"key": SECRET}  # past the quick look
    assert SECRET not in fn.execute(bad, many).message


def test_your_own_parsers_rejection_is_returned_as_it_is_or_redacted() -> None:
    answers: list[tp.Error] = []

    def parse_args(args: dict[str, Any]) -> tp.ParseResult:
        answers.append(tp.Error(f"id {args['id']} is not known"))
        return answers[-1]

    fn = tp.Function(
        "t", lambda a: a, parameters=[tp.FunctionParam("id", "string")], parse_args=parse_args
    )
    assert fn.execute({"id": SECRET}) is answers[-1]
    assert fn.parse_arguments({"id": SECRET}) is answers[-1]
    redacted = fn.execute({"id": SECRET}, {"key": SECRET})
    assert redacted.message == "id [redacted] is not known"
    assert fn.execute({"id": SECRET}, {"n": 1}) is answers[-1]


@pytest.mark.parametrize("policy", ["report", "reject"])
def test_an_async_parsers_problems_and_unknown_names_are_rendered_once(policy: str) -> None:
    fn = checked_function(parser=AsyncChecker(), unknown_arguments=policy, after=False)
    bad = {"id": "one", "idd": 1}
    with counted_renders() as renders:
        result = asyncio.run(fn.aexecute(bad))
    assert isinstance(result, tp.Error)
    assert len(renders) == 1
    assert "id: must be an integer" in result.message
    assert "idd" in result.message
    assert fn.execute(bad).message == result.message


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("context", [None, {"tool_call_id": "call-123456"}, {"n": 1}, (1, 2.5)])
def test_a_rejection_with_nothing_to_redact_is_the_parsers_own_object(
    policy: str, context: Any
) -> None:
    answers: list[tp.ParseResult] = []

    class Keeping(Checker):
        def __call__(self, args: dict[str, Any]) -> tp.ParseResult:
            answers.append(super().__call__(args))
            return answers[-1]

    fn = checked_function(parser=Keeping(), unknown_arguments=policy, after=False)
    assert fn.execute({"id": "call-123456"}, context) is answers[-1]
    assert fn.parse_arguments({"id": "call-123456"}, context) is answers[-1]
    # a context string the rejection quotes is never returned as it is
    quoting = checked_function(parser=Quoting(), unknown_arguments=policy, after=False)
    quoted = quoting.execute({"id": 1, "tag": SECRET}, {"tool_call_id": "x", "key": SECRET})
    assert SECRET in quoting.execute({"id": 1, "tag": SECRET}, context).message
    assert SECRET not in quoted.message
