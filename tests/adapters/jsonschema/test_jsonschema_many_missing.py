"""Thousands of required names missing: the message's counts and lines are exact, on either engine.

The names the schema requires are the schema's own, so every missing one is
kept (the bound on problems built is for what the model sent): the Missing
line shows 30 and counts the rest, and no problem line counts them again.
"""

from __future__ import annotations

import functools
import re

import pytest

import toolparse as tp
from toolparse_jsonschema import JsonSchema

from .models import rs_usable

ENGINES = [
    pytest.param(False, id="pure"),
    pytest.param(True, id="fast", marks=pytest.mark.skipif(not rs_usable(), reason="rs")),
]
NAMES = [f"field_{i}" for i in range(3_000)]
MORE = re.compile(r"^\.\.\. and \d+ more$")


@functools.cache
def _wide(fast: bool) -> tp.Function:
    schema = {
        "type": "object",
        "properties": {
            **{name: {"type": "string"} for name in NAMES},
            "items": {
                "type": "array",
                "items": {"type": "object", "required": ["sku"]},
            },
        },
        "required": NAMES,
    }
    return tp.Function("wide", lambda a: "ok", args_schema=JsonSchema(schema, fast=fast))


def _lines(fast: bool, sent: dict[str, object]) -> list[str]:
    result = _wide(fast).execute(sent)
    assert isinstance(result, tp.Error)
    assert isinstance(result.exception, tp.InvalidArguments)
    return result.message.splitlines()


def _missing(lines: list[str]) -> str:
    return next(line for line in lines if line.startswith("Missing parameters: "))


@pytest.mark.parametrize("fast", ENGINES)
def test_three_thousand_missing_names_are_counted_on_the_missing_line_alone(fast: bool) -> None:
    lines = _lines(fast, {})
    assert _missing(lines).endswith(", ... and 2970 more")
    assert _missing(lines).count("field_") == 30
    assert not any(MORE.match(line) for line in lines), lines  # no problem line counts them


@pytest.mark.parametrize("fast", ENGINES)
def test_missing_names_beside_wrong_values(fast: bool) -> None:
    lines = _lines(fast, {"field_1": 1, "field_2": 2})
    assert lines[2:4] == [
        "field_1: must be a string (received 1)",
        "field_2: must be a string (received 2)",
    ]
    assert _missing(lines).endswith(", ... and 2968 more")
    assert not any(MORE.match(line) for line in lines), lines


@pytest.mark.parametrize("fast", ENGINES)
def test_missing_names_inside_items_are_problem_lines_counted_once(fast: bool) -> None:
    lines = _lines(fast, {"items": [{}] * 1_500})
    assert "items[0].sku: is required" in lines
    shown = sum(line.startswith("items[") for line in lines)
    assert f"... and {1_500 - shown} more" in lines
    assert _missing(lines).endswith(", ... and 2970 more")
