"""``Compiled.nulls_after_reject``: a parser that checks the schema itself; nulls are restored after it rejects.

The step that restores what an export changed only turns a value the schema
rejects into one it may accept. For a parser that checks that very schema, an
accepted call has nothing to restore, so the look into nested values is paid
only by a rejected call, which is then parsed again. Every verdict must be the
one the step-first order gives.
"""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.core.checking_adapter import (
    CALLS,
    AsyncChecker,
    Checker,
    CheckingAdapter,
    checked_function,
    schema,
    verdict_of,
)

import toolparse as tp
from toolparse.adapter import Compiled
from toolparse.nulls import null_restorer

VALID = {"id": 1, "tag": "a", "items": [{"n": 1, "note": "x"}, {"n": 2}], "meta": {"x": 3}}


def test_compiled_restores_first_by_default() -> None:
    assert Compiled({"type": "object"}).nulls_after_reject is False
    assert Compiled({"type": "object"}, nulls_after_reject=True).nulls_after_reject is True


def test_an_accepted_call_is_parsed_once_as_sent() -> None:
    parser = Checker()
    fn = checked_function(parser=parser, after=True)
    assert fn.parse_arguments(VALID) == tp.Ok(VALID)
    assert parser.seen == [VALID]


def test_a_nested_null_is_restored_after_the_rejection_and_parsed_again() -> None:
    parser = Checker()
    fn = checked_function(parser=parser, after=True)
    sent = {"id": 1, "items": [{"n": 1, "note": None}], "meta": {"x": None}}
    assert fn.parse_arguments(sent) == tp.Ok({"id": 1, "items": [{"n": 1}], "meta": {}})
    assert parser.calls == 2
    # the body gets the restored arguments (a dict it returns is sent as JSON text)
    assert fn.execute(sent) == tp.Ok('{"id": 1, "items": [{"n": 1}], "meta": {}}')


def test_a_top_level_null_is_restored_before_the_parser() -> None:
    parser = Checker()
    fn = checked_function(parser=parser, after=True)
    assert fn.parse_arguments({"id": 1, "tag": None}) == tp.Ok({"id": 1})
    assert parser.calls == 1


def test_a_rejection_with_nothing_to_restore_is_parsed_once() -> None:
    parser = Checker()
    fn = checked_function(parser=parser, after=True)
    result = fn.execute({"id": "one", "items": [{"n": 1}]})
    assert isinstance(result, tp.Error)
    assert verdict_of(result) == verdict_of(
        checked_function(after=False).execute({"id": "one", "items": [{"n": 1}]})
    )
    assert "\nid: must be an integer\n" in result.message
    assert parser.calls == 1


def test_a_null_the_step_keeps_is_parsed_and_rendered_once() -> None:
    # a required name's null: the look says "maybe", the walk keeps it (an equal copy)
    answers: list[tp.ParseResult] = []

    class Keeping(Checker):
        def __call__(self, args: dict[str, Any]) -> tp.ParseResult:
            answers.append(super().__call__(args))
            return answers[-1]

    parser = Keeping()
    fn = checked_function(parser=parser, after=True)
    result = fn.execute({"id": None, "items": [{"n": 1}]})
    assert isinstance(result, tp.Error)
    assert "\nid: must be an integer\n" in result.message
    assert parser.calls == 1
    assert result is answers[-1]  # the parser's own rendering, not another


def test_the_restored_call_s_own_verdict_is_the_answer() -> None:
    # the null goes, and what is left is still wrong: that second rejection is the message
    sent = {"id": 1, "items": [{"n": "two", "note": None}]}
    after = checked_function(after=True).execute(sent)
    first = checked_function(after=False).execute(sent)
    assert isinstance(after, tp.Error)
    assert verdict_of(after) == verdict_of(first)
    assert "\nitems[0].n: must be an integer\n" in after.message
    assert "note" not in after.message


def test_your_own_parse_args_is_never_parsed_twice() -> None:
    parser = Checker()
    fn = tp.Function(
        "t",
        lambda a: a,
        args_schema="checked",
        adapter=CheckingAdapter(Checker(), after=True),
        parse_args=parser,
    )
    # the step runs first, as for every parser of yours
    assert fn.parse_arguments({"id": 1, "items": [{"n": 1, "note": None}]}) == tp.Ok(
        {"id": 1, "items": [{"n": 1}]}
    )
    assert parser.seen == [{"id": 1, "items": [{"n": 1}]}]


def test_an_async_parser_is_parsed_again_too() -> None:
    parser = AsyncChecker()
    fn = checked_function(parser=parser, after=True)
    sent = {"id": 1, "items": [{"n": 1, "note": None}]}
    assert asyncio.run(fn.aparse_arguments(sent)) == tp.Ok({"id": 1, "items": [{"n": 1}]})
    assert parser.calls == 2


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(sent=CALLS, policy=st.sampled_from(tp.adapter.POLICIES))
def test_after_the_rejection_or_first_the_verdict_is_the_same(
    sent: dict[str, Any], policy: str
) -> None:
    after = checked_function(after=True, unknown_arguments=policy)
    first = checked_function(after=False, unknown_arguments=policy)
    assert verdict_of(after.parse_arguments(sent)) == verdict_of(first.parse_arguments(sent))
    assert verdict_of(after.execute(sent)) == verdict_of(first.execute(sent))


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(sent=CALLS.map(lambda d: {k: v for k, v in d.items() if k not in ("extra", "tga")}))
def test_the_looks_never_hide_a_null_the_step_drops(sent: dict[str, Any]) -> None:
    # the reference: the step always run, then the parser (falsy values and nulls anywhere)
    restore = null_restorer(schema())
    assert restore is not None
    restored = restore(sent)
    accepted = Checker()(restored)
    for after in (True, False):
        got = checked_function(after=after).parse_arguments(sent)
        assert type(got) is type(accepted)
        if isinstance(got, tp.Ok):
            assert got[0] == restored
