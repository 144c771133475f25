"""Past 1,000 problems a rejected call only counts the rest, on both engines."""

from __future__ import annotations

import re
from typing import Any

import pytest

import toolparse as tp
from toolparse.adapter import MAX_PROBLEMS as KEPT
from toolparse_jsonschema import JsonSchema

from .models import rs_usable

PATHS = [False, pytest.param(True, marks=pytest.mark.skipif(not rs_usable(), reason="rs"))]


def _more(message: str) -> int:
    found = re.search(r"\.\.\. and (\d+) more", message)
    assert found, message
    return int(found.group(1))


@pytest.mark.parametrize("fast", PATHS)
def test_many_wrong_items_keep_a_thousand_problems_and_count_the_rest(fast: bool) -> None:
    schema = {
        "type": "object",
        "properties": {"ids": {"type": "array", "items": {"type": "integer"}}},
    }
    fn = tp.Function("t", lambda a: "ok", args_schema=JsonSchema(schema, fast=fast))
    result = fn.execute({"ids": ["x"] * 3_000})
    assert isinstance(result, tp.Error)
    assert isinstance(result.exception, tp.InvalidArguments)
    assert len(result.exception.problems) == KEPT
    # every wrong item is counted: 20 lines shown, the rest in the count
    assert _more(result.message) == 3_000 - 20
    assert "ids[0]: must be an integer" in result.message


@pytest.mark.parametrize("fast", PATHS)
def test_thousands_of_missing_names_build_a_thousand_problems(fast: bool) -> None:
    names = [f"n{i}" for i in range(2_500)]
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"inner": {"type": "object", "required": names}},
    }
    fn = tp.Function("t", lambda a: "ok", args_schema=JsonSchema(schema, fast=fast))
    result = fn.execute({"inner": {}})
    assert isinstance(result, tp.Error)
    assert isinstance(result.exception, tp.InvalidArguments)
    assert len(result.exception.problems) == KEPT
    assert _more(result.message) == 2_500 - 20


@pytest.mark.parametrize("fast", PATHS)
def test_a_few_problems_are_all_kept(fast: bool) -> None:
    schema = {
        "type": "object",
        "properties": {"ids": {"type": "array", "items": {"type": "integer"}}},
    }
    fn = tp.Function("t", lambda a: "ok", args_schema=JsonSchema(schema, fast=fast))
    result = fn.execute({"ids": ["x"] * 30})
    assert isinstance(result.exception, tp.InvalidArguments)
    assert len(result.exception.problems) == 30
    assert _more(result.message) == 10


@pytest.mark.parametrize("fast", PATHS)
def test_past_the_bound_the_rest_is_counted_once(fast: bool) -> None:
    schema = {"type": "object", "properties": {"xs": {"items": {"type": "string"}}}}
    fn = tp.Function("t", lambda a: "ok", args_schema=JsonSchema(schema, fast=fast))
    result = fn.parse_arguments({"xs": list(range(1500))})
    assert isinstance(result, tp.Error)
    assert isinstance(result.exception, tp.InvalidArguments)
    assert result.exception.more == 500
    assert len(result.exception.problems) == KEPT
