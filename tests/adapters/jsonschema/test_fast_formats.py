"""jsonschema-rs compiles the schema without the formats the pure path leaves unchecked."""

from __future__ import annotations

import pytest

import toolparse as tp
from toolparse_jsonschema import JsonSchema
from toolparse_jsonschema._fast import _without_formats

pytest.importorskip("jsonschema_rs")


def test_only_format_keywords_named_are_taken_out() -> None:
    schema = {
        "type": "object",
        "properties": {
            "format": {"type": "string", "format": "uri"},
            "when": {"type": "string", "format": "date-time"},
            "mail": {"type": "string", "format": "email"},
        },
        "default": {"format": "date-time"},
    }
    out = _without_formats(schema, frozenset({"date-time", "uri"}))
    assert out["properties"]["format"] == {"type": "string"}
    assert out["properties"]["when"] == {"type": "string"}
    assert out["properties"]["mail"] == {"type": "string", "format": "email"}
    assert out["default"] == {"format": "date-time"}  # data, not a keyword
    assert schema["properties"]["when"]["format"] == "date-time"  # the original is untouched


def test_both_paths_decide_alike_on_formats() -> None:
    schema = {
        "type": "object",
        "properties": {
            "when": {"type": "string", "format": "date-time"},
            "mail": {"type": "string", "format": "email"},
        },
    }
    fast = tp.Function("f", lambda a: "ok", args_schema=JsonSchema(schema, fast=True))
    pure = tp.Function("f", lambda a: "ok", args_schema=JsonSchema(schema, fast=False))
    for args in ({"when": "not a date"}, {"mail": "nobody"}, {"mail": "a@example.com"}):
        assert type(fast.execute(args)) is type(pure.execute(args))
