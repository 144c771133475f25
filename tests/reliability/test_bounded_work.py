"""Bounded work: error paths stay linear and their messages bounded, whatever was sent."""

from __future__ import annotations

import time
from typing import Any

import pytest
from tests.conftest import Count

import toolparse as tp
from toolparse import messages


def _schema(names: list[str], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {n: {"type": "string"} for n in names}, **extra}


@pytest.mark.parametrize("fast", [True, False])
def test_thousands_of_required_names_sent_nothing(
    fast: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if fast:
        pytest.importorskip("jsonschema_rs")
    import tracemalloc

    from toolparse import problems
    from toolparse_jsonschema import JsonSchema

    # 2,000 names keep the definition's own compile short; the call's work is
    # linear, so 10,000 names answer in proportion (timed in benchmarks)
    names = [f"field_{i}" for i in range(2_000)]
    fn = tp.Function(
        "wide", lambda a: "ok", args_schema=JsonSchema(_schema(names, required=names), fast=fast)
    )
    built = 0
    original = problems.ArgumentProblem.missing

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal built
        built += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(problems.ArgumentProblem, "missing", staticmethod(counted))
    # the work, not the wall clock (which a busy machine stretches): the problems
    # built, the memory held and this thread's CPU time
    cpu = time.thread_time()
    result = fn.execute({})
    cpu = time.thread_time() - cpu
    assert isinstance(result, tp.Error)
    assert len(result.message) <= messages.MAX_MESSAGE_CHARS
    missing = next(line for line in result.message.splitlines() if line.startswith("Missing"))
    assert missing.endswith(", ... and 1970 more")  # the count of what is not shown
    assert "\n... and " not in result.message  # and no problem line counts them again
    assert isinstance(result.exception, tp.InvalidArguments)
    # the schema's own names: one problem each, never one per name per error
    assert len(result.exception.problems) == len(names)
    assert built == len(names)
    tracemalloc.start()
    try:
        fn.execute({})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # linear: about 1 MB here (the quadratic path took 282 MB for 1,000 names)
    assert peak < 32_000_000
    assert cpu < 2  # a loose guard: about 0.03 s of CPU


def test_required_names_are_converted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # jsonschema reports one error per missing name, each with the whole list:
    # converting the list per error made the path quadratic
    from toolparse import problems

    calls = 0
    original = problems.ArgumentProblem.missing

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(problems.ArgumentProblem, "missing", staticmethod(counted))
    names = [f"field_{i}" for i in range(500)]
    fn = tp.Function("wide", lambda a: "ok", args_schema=_schema(names, required=names))
    assert isinstance(fn.execute({}), tp.Error)
    assert calls == 500  # was 500 * 500


def test_did_you_mean_is_bounded(comparisons: Count) -> None:
    accepted = [f"field_{i}" for i in range(1_000)]
    sent = {f"zz_{i}_q": 1 for i in range(50_000)}
    found = messages.suggestions(sent, accepted, sent)
    assert len(found) == 50_000
    assert 0 < comparisons.count <= messages.MAX_NAMES * messages.MAX_CANDIDATES


def test_fifty_thousand_unknown_keys_against_two_hundred_names() -> None:
    names = [f"field_{i}" for i in range(200)]
    sent = {f"zz_{i}_q": 1 for i in range(50_000)}
    for fn in (
        tp.Function("t", lambda a: "ok", args_schema=_schema(names, additionalProperties=False)),
        tp.Function("t", lambda a: "ok", parameters=[tp.FunctionParam(n, "string") for n in names]),
    ):
        result = fn.execute(sent)
        # "report" (no parser) accepts names that resemble no parameter
        if isinstance(result, tp.Error):
            assert len(result.message) <= messages.MAX_MESSAGE_CHARS
            assert "more" in result.message
    strict = tp.Function(
        "t",
        lambda a: "ok",
        parameters=[tp.FunctionParam(n, "string") for n in names],
        unknown_arguments="reject",
    )
    result = strict.execute(sent)
    assert isinstance(result, tp.Error)
    assert "and 49970 more" in result.message


def test_a_long_key_skips_the_quadratic_similarity() -> None:
    # Jaro cannot score above 0.7 for names ten times apart in length
    assert messages.similarity("k" * 1_000_000, "key") == 0.0
    assert messages.similarity("aaa" + "b" * 100, "aaa") > 0.7  # containment still scores
