"""Which schemas recur, and so which calls on jsonschema-rs get a depth check first.

jsonschema-rs follows a recursive schema down a value with no bound on its
stack, so under such a schema a value nested deeper than 500 levels is refused
as nested too deeply before it gets there; under any other it is left to the
library (which bounds its own walk). A deep value sent under a name the schema
does not describe shows which: refused under a recursive schema, accepted else.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import pytest

import toolparse as tp
from toolparse_jsonschema import JsonSchema

from .models import rs_usable

pytestmark = pytest.mark.skipif(not rs_usable(), reason="needs jsonschema-rs")

NODE = {
    "type": "object",
    "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
}


@pytest.mark.parametrize(
    ("schema", "recursive"),
    [
        ({"type": "object", "properties": {"a": {"type": "string"}}}, False),
        # references that never lead back: shared, chained, through items and unions
        (
            {
                "type": "object",
                "properties": {
                    "a": {"$ref": "#/$defs/x"},
                    "b": {"type": "array", "items": {"$ref": "#/$defs/x"}},
                    "c": {"anyOf": [{"$ref": "#/$defs/y"}, {"type": "null"}]},
                },
                "$defs": {"x": {"$ref": "#/$defs/y"}, "y": {"type": "string"}},
            },
            False,
        ),
        ({"type": "object", "properties": {"c": {"$ref": "#"}}}, True),
        (
            {
                "type": "object",
                "properties": {"t": {"$ref": "#/$defs/node"}},
                "$defs": {"node": NODE},
            },
            True,
        ),
        # mutual recursion through a union and a pointer into properties
        (
            {
                "type": "object",
                "properties": {"a": {"anyOf": [{"$ref": "#/$defs/l"}]}},
                "$defs": {"l": {"type": "array", "items": {"$ref": "#/properties/a"}}},
            },
            True,
        ),
        # a property named like a data keyword is a subschema all the same
        ({"type": "object", "properties": {"default": {"$ref": "#"}}}, True),
        # a "$ref" inside data is data
        ({"type": "object", "properties": {"a": {"const": {"$ref": "#"}}}}, False),
        ({"type": "object", "properties": {"a": {"default": {"$ref": "#"}}}}, False),
        # a dynamic reference is resolved on the way: it counts as recursive
        (
            {
                "type": "object",
                "properties": {"a": {"$dynamicRef": "#meta"}},
                "$dynamicAnchor": "meta",
            },
            True,
        ),
        # a resource of its own: its references resolve against its own $id
        (
            {
                "$id": "https://example.com/tool.json",
                "type": "object",
                "properties": {"a": {"$id": "inner.json", "type": "string"}},
            },
            False,
        ),
        (
            {
                "$id": "https://example.com/tool.json",
                "type": "object",
                "properties": {
                    "a": {"$id": "inner.json", "properties": {"b": {"$ref": "inner.json"}}}
                },
            },
            True,
        ),
    ],
)
def test_a_schema_recurs_when_a_reference_leads_back(
    schema: dict[str, Any], recursive: bool
) -> None:
    try:
        fn = tp.Function("t", lambda a: "ok", args_schema=JsonSchema(schema, fast=True))
    except tp.FunctionDefinitionError:
        pytest.skip("jsonschema-rs cannot take this schema: the pure engine checks it")
    deep: dict[str, Any] = {}
    for _ in range(600):
        deep = {"level": deep}
    result = fn.execute({"qqqqqqqq": deep})
    if recursive:
        assert isinstance(result, tp.Error)
        assert "nested too deeply" in result.message
    else:
        assert result == tp.Ok("ok")
    assert fn.execute({"qqqqqqqq": {"level": {}}}) == tp.Ok("ok")


def test_a_deep_mapping_under_a_schema_that_does_not_recur_never_crashes() -> None:
    # the schema does not recur, so no depth check runs before jsonschema-rs:
    # the library bounds its own conversion of a deep value (it raises, and the
    # pure path answers), which this proves in a child process
    pytest.importorskip("jsonschema_rs")
    code = textwrap.dedent(
        """
        import toolparse as tp
        from toolparse_jsonschema import JsonSchema
        value = []
        for _ in range(20_000):
            value = [value]
        schemas = [
            {"type": "object", "properties": {"c": {"type": "array"}}},
            {"type": "object", "properties": {"c": {"type": "array", "uniqueItems": True}}},
            {"type": "object", "properties": {"c": {"enum": [[[1]], 2]}}},
            {"type": "object", "properties": {"c": {"type": "array", "items": {"type": "array"}}}},
        ]
        for schema in schemas:
            fn = tp.Function("r", lambda a: "ok", args_schema=JsonSchema(schema, fast=True))
            for arguments in ({"c": value}, {"c": [value, value]}):
                result = fn.execute(arguments)
                print(type(result).__name__)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert len(done.stdout.split()) == 8
