"""Past 1,000 problems a rejected call only counts the rest, on both paths."""

from __future__ import annotations

import re
from typing import Any

import pytest

import toolparse as tp
from toolparse_jsonschema import JsonSchema
from toolparse_jsonschema._compiled import CompiledSchema
from toolparse_jsonschema._errors import KEPT


def _fast_usable() -> bool:
    try:
        return CompiledSchema(JsonSchema({"type": "object"}, fast=True)).fast is not None
    except tp.FunctionDefinitionError:
        return False


PATHS = [False, pytest.param(True, marks=pytest.mark.skipif(not _fast_usable(), reason="rs"))]


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
