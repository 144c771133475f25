"""Values JSON can carry that a library raises on are argument messages, on either engine.

NaN, the infinities and integers past a float's range under ``multipleOf``, a
value nested deeper than jsonschema-rs converts its errors' copies, and a
``format: regex`` value: each engine answers with an argument message (or
accepts), and both engines take the same regular expressions (Python's).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse_jsonschema import JsonSchema

from .models import rs_usable

ENGINES = [
    pytest.param(False, id="pure"),
    pytest.param(True, id="fast", marks=pytest.mark.skipif(not rs_usable(), reason="rs")),
]
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "step": {"multipleOf": 0.5},
        "half": {"type": "number", "multipleOf": 0.5},
        "count": {"type": "integer", "multipleOf": 3},
        "rx": {"type": "string", "format": "regex"},
        "tree": {"type": "object", "properties": {"a": {"type": "string"}}},
    },
}
TOOLS = {
    fast: tp.Function("t", lambda a: "ok", args_schema=JsonSchema(SCHEMA, fast=fast))
    for fast in (False, True)
    if fast is False or rs_usable()
}


def _internal(message: str) -> bool:
    return any(s in message for s in (".py:", "Error)", "Recursion limit", "set_int_max_str"))


def _checked(fast: bool, arguments: Any) -> tp.Ok[Any] | tp.Error:
    result = TOOLS[fast].execute(arguments)
    assert isinstance(result, (tp.Ok, tp.Error)), result
    if isinstance(result, tp.Error):
        assert not _internal(result.message), result.message
    return result


@pytest.mark.parametrize("fast", ENGINES)
@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
@pytest.mark.parametrize("name", ["step", "half", "count"])
def test_nan_and_infinities_under_multiple_of_are_rejected_as_arguments(
    fast: bool, value: float, name: str
) -> None:
    for sent in ({name: value}, f'{{"{name}": {json.dumps(value)}}}'):
        result = _checked(fast, sent)
        if name != "step" or not fast:  # (jsonschema-rs reads NaN as null: no type, no rule)
            assert isinstance(result, tp.Error)
            assert result.message.splitlines()[2].startswith(f"{name}: must be")


@pytest.mark.parametrize("fast", ENGINES)
@pytest.mark.parametrize("digits", [401, 1_000, 4_300, 5_000])
@pytest.mark.parametrize("name", ["step", "half", "count"])
def test_integers_past_a_floats_range_under_multiple_of(fast: bool, digits: int, name: str) -> None:
    _checked(fast, {name: 10**digits})
    _checked(fast, {name: 10**digits + 1})
    _checked(fast, '{"%s": %s}' % (name, "7" * digits))  # noqa: UP031  # (a JSON text)


@pytest.mark.parametrize("fast", ENGINES)
@pytest.mark.parametrize("depth", [255, 256, 300, 1_000])
def test_a_deep_wrong_object_is_an_argument_message(fast: bool, depth: int) -> None:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    result = _checked(fast, {"tree": value})
    assert isinstance(result, tp.Error)


_regex_like = st.text(st.sampled_from("()[]{}?<>P=!*+\\^$|.,:-azAZ0-9dpLzZ"), max_size=10)


@pytest.mark.skipif(not rs_usable(), reason="needs jsonschema-rs")
@settings(max_examples=300, deadline=None, derandomize=True)
@given(_regex_like)
def test_both_engines_take_the_same_regular_expressions(text: str) -> None:
    fast, pure = _checked(True, {"rx": text}), _checked(False, {"rx": text})
    assert type(fast) is type(pure), (text, fast, pure)


@pytest.mark.skipif(not rs_usable(), reason="needs jsonschema-rs")
@pytest.mark.parametrize("text", ["(?<n>x)", r"\p{L}", r"\z", "a{,3}", "(?P<n>x)", r"\Z", "a++"])
def test_a_regex_is_pythons_on_both_engines(text: str) -> None:
    assert type(_checked(True, {"rx": text})) is type(_checked(False, {"rx": text}))
