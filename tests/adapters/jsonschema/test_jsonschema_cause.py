"""A pure-path rejection's ``__cause__`` is the ``jsonschema`` library's own best match."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema.exceptions import best_match

import toolparse as tp
from toolparse_jsonschema import JsonSchema

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 2, "pattern": "^[a-z]+$"},
        "age": {"type": "integer", "minimum": 0},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
        "where": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "zip": {"type": "string"}},
            "required": ["city"],
            "additionalProperties": False,
        },
        "either": {"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 1}]},
    },
    "required": ["name"],
    "additionalProperties": False,
}

_VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _same(a: Any, b: Any) -> tuple[Any, ...]:
    return (a.validator, list(a.absolute_path), a.message) == (
        b.validator,
        list(b.absolute_path),
        b.message,
    ), (a.message, b.message)


def _cause(arguments: dict[str, Any]) -> BaseException | None:
    fn = tp.Function("t", lambda a: a, args_schema=JsonSchema(SCHEMA, fast=False))
    result = fn.execute(arguments)
    assert isinstance(result, tp.Error)
    assert result.exception is not None
    return result.exception.__cause__


@pytest.mark.parametrize(
    "arguments",
    [
        {"name": "Ab"},  # one error
        {"name": 3, "age": -1},  # two at one depth
        {"age": "x", "tags": [1, 2, 3]},  # a missing name and deeper ones
        {"name": "ab", "where": {"zip": 1, "x": 2}},  # all deeper, several
        {"name": "ab", "either": 2.5},  # an anyOf with its sub-errors
        {"name": "ab", "either": "long", "age": 1.5},
    ],
)
def test_the_cause_is_the_libraries_best_match(arguments: dict[str, Any]) -> None:
    expected = best_match(_VALIDATOR.iter_errors(arguments))
    found = _cause(arguments)
    assert expected is not None
    assert found is not None
    same, messages = _same(found, expected)
    assert same, messages


_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.floats(-2, 2), st.text(max_size=4)
)
_CALLS = st.fixed_dictionaries(
    {},
    optional={
        "name": _VALUES,
        "age": _VALUES,
        "tags": st.lists(_VALUES, max_size=4),
        "where": st.dictionaries(st.sampled_from(["city", "zip", "x"]), _VALUES, max_size=3),
        "either": _VALUES,
        "extra": _VALUES,
    },
)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(_CALLS)
def test_the_cause_is_the_best_match_for_any_rejected_call(arguments: dict[str, Any]) -> None:
    expected = best_match(_VALIDATOR.iter_errors(arguments))
    if expected is None:
        return  # accepted
    found = _cause(arguments)
    assert found is not None
    same, messages = _same(found, expected)
    assert same, messages
