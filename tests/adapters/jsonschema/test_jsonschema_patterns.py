"""Patterns never keep a call busy: bounded in time on the pure engine, linear on jsonschema-rs.

``^(a|aa)+$`` backtracks exponentially in every engine that backtracks (the
``regex`` library included); ``^(a+)+$`` does so in Python's ``re`` but not in
``regex``. Against thirty-odd ``a`` and a ``!``, Python's ``re`` takes tens of
seconds on either. The pure engine searches under a time bound and says when
a search ran out of time; jsonschema-rs runs every pattern in its linear-time
engine (a schema whose patterns need backtracking goes to the pure engine), so
it answers in full. The bounds asserted here are generous (seconds, not the
tenth of a second a search gets): they prove the time is bounded, not fast.
"""

from __future__ import annotations

import re
import time
import warnings
from typing import Any

import pytest

import toolparse as tp
from toolparse_jsonschema import JsonSchema

from .models import rs_usable

EXPLOSIVE = r"^(a|aa)+$"  # exponential for every backtracking engine
NESTED = r"^(a+)+$"  # exponential for Python's re, linear for regex
SLOW = "a" * 34 + "!"
OUT_OF_TIME = f"could not be checked against the pattern {EXPLOSIVE} in time"


PATHS = [False, pytest.param(True, marks=pytest.mark.skipif(not rs_usable(), reason="rs"))]


def _fn(schema: dict[str, Any], fast: bool, **options: Any) -> tp.Function:
    return tp.Function("t", lambda a: "ok", args_schema=JsonSchema(schema, fast=fast, **options))


def _timed(fn: tp.Function, arguments: dict[str, Any]) -> tuple[Any, float]:
    start = time.monotonic()
    result = fn.execute(arguments)
    return result, time.monotonic() - start


def _shapes(pattern: str) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Each keyword that matches a pattern, with a schema and the slow call."""
    return {
        "pattern": (
            {"type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}},
            {"s": SLOW},
        ),
        "propertyNames": (
            {"type": "object", "properties": {"m": {"propertyNames": {"pattern": pattern}}}},
            {"m": {SLOW: 1}},
        ),
        "additionalProperties": (
            {
                "type": "object",
                "properties": {
                    "m": {
                        "type": "object",
                        "patternProperties": {pattern: {"type": "integer"}},
                        "additionalProperties": False,
                    }
                },
            },
            {"m": {SLOW: 1}},
        ),
        "unevaluatedProperties": (
            {
                "type": "object",
                "properties": {
                    "m": {
                        "type": "object",
                        "patternProperties": {pattern: {"type": "integer"}},
                        "unevaluatedProperties": False,
                    }
                },
            },
            {"m": {SLOW: 1}},
        ),
    }


def test_the_bound_answers_where_python_re_would_take_seconds() -> None:
    # (re would answer too, on a string this short: each extra "a" doubles its work)
    assert re.search(EXPLOSIVE, "a" * 16 + "!") is None
    schema, arguments = _shapes(EXPLOSIVE)["pattern"]
    result, took = _timed(_fn(schema, False, pattern_timeout=0.05), arguments)
    assert took < 5
    assert isinstance(result, tp.Error)


@pytest.mark.parametrize("fast", PATHS)
@pytest.mark.parametrize("keyword", list(_shapes(EXPLOSIVE)))
def test_an_explosive_pattern_is_answered_in_bounded_time(keyword: str, fast: bool) -> None:
    schema, arguments = _shapes(EXPLOSIVE)[keyword]
    result, took = _timed(_fn(schema, fast), arguments)
    assert took < 5
    assert isinstance(result, tp.Error)
    if fast:
        # jsonschema-rs's linear engine answers in full: the value does not match
        assert "in time" not in result.message
        if keyword in ("pattern", "propertyNames"):
            assert f"must match the pattern {EXPLOSIVE}" in result.message
        else:
            assert "is not accepted" in result.message
        return
    assert OUT_OF_TIME in result.message
    if keyword != "pattern":
        assert "property name " + OUT_OF_TIME in result.message


@pytest.mark.parametrize("fast", PATHS)
@pytest.mark.parametrize("keyword", list(_shapes(NESTED)))
def test_a_pattern_only_re_backtracks_on_is_answered_in_full(keyword: str, fast: bool) -> None:
    schema, arguments = _shapes(NESTED)[keyword]
    result, took = _timed(_fn(schema, fast), arguments)
    assert took < 5
    assert isinstance(result, tp.Error)
    assert "in time" not in result.message
    if keyword in ("pattern", "propertyNames"):
        assert f"must match the pattern {NESTED}" in result.message
    else:
        assert "is not accepted" in result.message


@pytest.mark.parametrize("fast", PATHS)
def test_a_pattern_properties_name_out_of_time_is_not_skipped_on_the_pure_path(
    fast: bool,
) -> None:
    schema = {
        "type": "object",
        "properties": {"m": {"patternProperties": {EXPLOSIVE: {"type": "integer"}}}},
    }
    result = _fn(schema, fast).execute({"m": {SLOW: "not an integer"}})
    # jsonschema-rs (linear time) sees the name does not match: nothing to check;
    # the pure path cannot tell whether the integer rule applies, so it says so
    if fast:
        assert result == tp.Ok("ok")
    else:
        assert isinstance(result, tp.Error)
        assert "property name " + OUT_OF_TIME in result.message


@pytest.mark.parametrize("fast", PATHS)
def test_the_budget_bounds_a_call_with_many_slow_values(fast: bool) -> None:
    schema = {
        "type": "object",
        "properties": {"xs": {"type": "array", "items": {"type": "string", "pattern": EXPLOSIVE}}},
    }
    fn = _fn(schema, fast, pattern_timeout=0.05, pattern_budget=0.3)
    result, took = _timed(fn, {"xs": [SLOW] * 60})
    # 60 searches of 0.05 s would be 3 s: the budget stops them after about 0.3 s
    assert took < 2.5
    assert isinstance(result, tp.Error)
    assert isinstance(result.exception, tp.InvalidArguments)
    assert len(result.exception.problems) == 60
    said = f"must match the pattern {EXPLOSIVE}" if fast else OUT_OF_TIME
    assert all(p.reason == said for p in result.exception.problems)


def test_a_spent_budget_answers_every_further_search_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import regex  # type: ignore[import-untyped]

    ran: list[str] = []
    compile_ = regex.compile

    def counting(pattern: str) -> Any:
        compiled = compile_(pattern)

        class Counted:
            def search(self, text: str, timeout: float) -> Any:
                ran.append(text)
                return compiled.search(text, timeout=timeout)

        return Counted()

    monkeypatch.setattr(regex, "compile", counting)
    schema = {
        "type": "object",
        "properties": {"xs": {"type": "array", "items": {"type": "string", "pattern": EXPLOSIVE}}},
    }
    fn = _fn(schema, False, pattern_timeout=0.05, pattern_budget=0.2)
    result = fn.execute({"xs": [SLOW + str(i) for i in range(40)]})
    assert isinstance(result, tp.Error)
    assert isinstance(result.exception, tp.InvalidArguments)
    assert [p.reason for p in result.exception.problems] == [OUT_OF_TIME] * 40
    # each search that ran took its 0.05 s (or what was left): a few, never 40
    assert 1 <= len(ran) <= 10
    # one name searched again with one pattern in one call times out once
    ran.clear()
    closed = {
        "type": "object",
        "patternProperties": {EXPLOSIVE: {"type": "integer"}},
        "additionalProperties": False,
    }
    result = _fn(closed, False, pattern_timeout=0.05).execute({SLOW: 1})
    assert isinstance(result, tp.Error)
    assert ran.count(SLOW) == 2  # (the search, and once more: a busy machine may have slowed it)


@pytest.mark.parametrize("fast", PATHS)
def test_ordinary_patterns_decide_as_before(fast: bool) -> None:
    schema = {
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
            "tags": {"type": "object", "patternProperties": {"^x-": {"type": "string"}}},
            "names": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}},
        },
    }
    fn = _fn(schema, fast)
    assert fn.execute({"code": "ABC", "tags": {"x-a": "b", "y": 1}, "names": {"ab": 1}}) == tp.Ok(
        "ok"
    )
    bad = fn.execute({"code": "abc", "tags": {"x-a": 1}, "names": {"A": 1}})
    assert isinstance(bad, tp.Error)
    assert bad.message.splitlines()[2:5] == [
        'code: must match the pattern ^[A-Z]{3}$ (received "abc")',
        "tags.x-a: must be a string (received 1)",
        'names.A: property name must match the pattern ^[a-z]+$ (received "A")',
    ]


@pytest.mark.parametrize("draft", ["2020-12", "2019-09"])
def test_unevaluated_properties_with_patterns_decides_like_the_library(draft: str) -> None:
    import jsonschema

    schema = {
        "$schema": f"https://json-schema.org/draft/{draft}/schema",
        "type": "object",
        "allOf": [{"patternProperties": {"^p-": {"type": "integer"}}}],
        "anyOf": [{"properties": {"b": {"type": "integer"}}}, {"required": ["c"]}],
        "properties": {"a": {"type": "string"}},
        "dependentSchemas": {"d": {"patternProperties": {"^d-": True}}},
        "unevaluatedProperties": False,
    }
    library = jsonschema.validators.validator_for(schema)(schema)
    ours = _fn(schema, False)
    for instance in [
        {"a": "x", "p-1": 1},
        {"a": "x", "q": 1},
        {"p-1": "no"},
        {"b": 1},
        {"c": 1},
        {"d": 1, "d-x": 2},
        {"d-x": 2},
        {"a": "x", "p-": 3, "b": 2, "d": 0, "d-": 0},
    ]:
        valid = isinstance(ours.parse_arguments(instance), tp.Ok)
        assert valid == library.is_valid(instance), instance
    bad = _fn(schema, False).execute({"a": "x", "q": 1})
    assert isinstance(bad, tp.Error)
    assert "Unrecognized parameters: q" in bad.message


def test_the_regex_format_compiles_a_bounded_value() -> None:
    schema = {"type": "object", "properties": {"r": {"type": "string", "format": "regex"}}}
    fn = _fn(schema, False)
    assert fn.execute({"r": "^a+$"}) == tp.Ok("ok")
    for bad in ("(unclosed", "(" * 50_000 + ")" * 50_000, "a" * 10_001):  # no RecursionError
        result = fn.execute({"r": bad})
        assert isinstance(result, tp.Error)
        assert "r: must be a valid regular expression" in result.message
    start = time.monotonic()
    result = fn.execute({"r": "[" + "a-z" * 300_000 + "]"})
    assert time.monotonic() - start < 5
    assert isinstance(result, tp.Error)
    assert "r: must be a valid regular expression" in result.message


@pytest.mark.parametrize("bad", [0, -1, "1", True, None, float("nan")])
def test_the_time_options_are_positive_seconds(bad: Any) -> None:
    with pytest.raises(ValueError, match="greater than 0"):
        JsonSchema({"type": "object"}, pattern_timeout=bad)
    with pytest.raises(ValueError, match="greater than 0"):
        JsonSchema({"type": "object"}, pattern_budget=bad)


def test_the_time_options_are_part_of_the_wrapper() -> None:
    wrapped = JsonSchema({"type": "object"}, pattern_timeout=0.5, pattern_budget=2)
    assert (wrapped.pattern_timeout, wrapped.pattern_budget) == (0.5, 2.0)
    assert wrapped != JsonSchema({"type": "object"})
    assert wrapped == JsonSchema({"type": "object"}, pattern_timeout=0.5, pattern_budget=2.0)
    assert "pattern_timeout=0.5" in repr(wrapped)
    assert "pattern_budget=2.0" in repr(wrapped)
    default = JsonSchema({"type": "object"})
    assert (default.pattern_timeout, default.pattern_budget) == (0.1, 1.0)
    assert "pattern" not in repr(default)


@pytest.mark.parametrize(
    ("pattern", "literal"),
    [("^x{e<=1}$", "x{e<=1}"), ("a{s}", "a{s}"), ("^{}$", "{}"), (r"^\N{DIGIT ONE}{2}$", "11")],
)
def test_a_brace_re_reads_as_a_literal_is_one_for_the_bounded_search_too(
    pattern: str, literal: str
) -> None:
    # the regex library would read "{e<=1}" as fuzzy matching ("xy" would match)
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}}
    fn = tp.Function("t", lambda a: "ok", args_schema=JsonSchema(schema, fast=False))
    assert fn.execute({"s": literal}) == tp.Ok("ok")
    assert isinstance(fn.execute({"s": "xy"}), tp.Error)
    assert bool(re.search(pattern, literal))
    assert not re.search(pattern, "xy")


def test_every_pattern_re_compiles_is_searched_as_re_searches_it() -> None:
    import random

    rng = random.Random(7)
    alphabet = list("ab()[]{}?*+|^$\\-:,012dsweiN<=>")
    texts = [
        "".join(rng.choice("ab{}0123,sde<=:-") for _ in range(rng.randint(0, 6))) for _ in range(30)
    ]
    patterns: dict[str, re.Pattern[str]] = {}
    for _ in range(4000):
        pattern = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8)))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                patterns.setdefault(pattern, re.compile(pattern))
        except re.error:
            continue
    assert len(patterns) > 1500
    # one property per pattern (in tools of 500, under the 1,000 problems a
    # call keeps): a property's problem says its pattern did not match
    names = {f"p{i}": pattern for i, pattern in enumerate(patterns)}
    chunks = [list(names)[i : i + 500] for i in range(0, len(names), 500)]
    for chunk in chunks:
        schema = {
            "type": "object",
            "properties": {n: {"type": "string", "pattern": names[n]} for n in chunk},
        }
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # (bounds no search reaches: on a busy machine 500 searches can take
            # the default second of a call, which is not the question here)
            fn = _fn(schema, False, pattern_timeout=10, pattern_budget=600)
        for text in texts:
            result = fn.parse_arguments(dict.fromkeys(chunk, text))
            refused = set()
            if isinstance(result, tp.Error):
                refused = {p.path[0] for p in result.exception.problems}  # type: ignore[union-attr]
            expected = {n for n in chunk if not patterns[names[n]].search(text)}
            assert refused == expected, text


def test_a_pattern_the_bounded_search_cannot_take_is_refused_at_definition() -> None:
    # re reads "#[" as a comment in verbose mode; the brace after it is left as
    # written, and the regex library cannot compile it: never searched unbounded
    pattern = "(?x)#[\n{s}"
    re.compile(pattern)
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}}
    with pytest.raises(tp.FunctionDefinitionError) as info:
        tp.Function("t", lambda a: "ok", args_schema=schema)
    assert "properties.s.pattern: " in str(info.value)
    assert "cannot be searched under a time bound" in str(info.value)
    closed = {"type": "object", "patternProperties": {pattern: {}}}
    with pytest.raises(tp.FunctionDefinitionError, match="patternProperties: "):
        tp.Function("t", lambda a: "ok", args_schema=closed)


def test_patterns_are_found_where_the_schema_has_them_and_nowhere_else() -> None:
    unbounded = "(?x)#[\n{s}"  # (see above: re compiles it, the bounded search cannot)
    for where in (
        {"properties": {"pattern": {"pattern": unbounded}}},
        {"properties": {"p": {"items": {"pattern": unbounded}}}},
        {"patternProperties": {"^x": {"propertyNames": {"pattern": unbounded}}}},
        {"$defs": {"pattern": {"pattern": unbounded}}},
    ):
        with pytest.raises(tp.FunctionDefinitionError, match="cannot be searched"):
            _fn({"type": "object", **where}, False)
    for data in ({"const": {"pattern": unbounded}}, {"default": {"pattern": unbounded}}):
        _fn({"type": "object", **data}, False)  # data, not a schema
