"""Every keyword rule of the strict and Gemini exports, against the exports recorded for them.

``export_keywords.json`` holds, for each schema below and each mode, the
export as JSON text (key order included) or the error it raised. Write it
again only for a change of output that is meant: ``python -m
tests.providers.test_export_keywords`` prints the current exports.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

import toolparse as tp

RECORDED = pathlib.Path(__file__).with_name("export_keywords.json")
MODES = [("openai", True), ("anthropic", True), ("gemini", False), ("openai", False)]

S = {"type": "string"}
I = {"type": "integer"}  # noqa: E741 - a schema, read as "integer"


def obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required or [], **extra}


NODE = obj({"kids": {"type": "array", "items": {"$ref": "#/$defs/Node", "description": "Kid."}}})
SCHEMAS: dict[str, dict[str, Any]] = {
    "described_cycle": obj(
        {"tree": {"$ref": "#/$defs/Node", "description": "T."}}, **{"$defs": {"Node": NODE}}
    ),
    "root_reference_chain": {
        "$ref": "#/$defs/A",
        "type": "object",
        "$defs": {"A": {"$ref": "#/$defs/B"}, "B": obj({"a": S}, ["a"])},
    },
    "a_schema_allowing_nothing": obj({"never": False}),
    "enums_and_consts": obj(
        {
            "mixed": {"enum": ["a", 1, None]},
            "objects": {"enum": [{"k": 1}]},
            "only_null": {"enum": [None]},
            "list": {"const": [1]},
            "map": {"const": {"a": 1}},
            "ints": {"enum": [1, 2]},
            "float": {"const": 1.5},
            "bool": {"enum": [True]},
            "words": {"type": "string", "enum": ["x", "y"]},
        },
        ["mixed", "ints"],
    ),
    "all_of_parts_that_agree_once_converted": obj(
        {
            "x": {
                "allOf": [
                    {"type": "string", "format": "uri", "description": "A."},
                    {"type": "string", "format": "email", "description": "B."},
                ]
            }
        }
    ),
    "all_of_merged": obj(
        {"x": {"allOf": [obj({"a": S}), {"required": ["a"]}], "description": "Both."}}
    ),
    "nullable_free_form": obj(
        {"m": {"type": ["object", "null"]}, "n": {"type": "object", "nullable": True}}
    ),
    "examples": obj({"x": {"type": "string", "examples": []}, "y": {**I, "examples": [3, 4]}}),
    "tuples": obj(
        {
            "open": {"type": "array", "prefixItems": [S, I], "items": {}},
            "closed": {"type": "array", "prefixItems": [S, I], "items": False, "maxItems": 5},
            "rest": {"type": "array", "prefixItems": [S], "items": I, "minItems": 1},
            "kinds": {
                "type": ["array", "null"],
                "prefixItems": [
                    {"enum": ["a", "b"]},
                    {"anyOf": [S, I]},
                    {"$ref": "#/$defs/D"},
                    {"type": ["string", "integer"]},
                ],
            },
        },
        **{"$defs": {"D": obj({"a": S})}},
    ),
    "types": obj(
        {
            "union": {"type": ["string", "integer", "null"]},
            "optional": {"anyOf": [obj({"a": S}), {"type": "null"}], "description": "Opt."},
            "anything": {"description": "Any."},
            "no_items": {"type": "array"},
        }
    ),
    "any_of_and_one_of": obj({"x": {"anyOf": [S], "oneOf": [I, {"type": "null"}]}}),
    "formats_and_bounds": obj(
        {
            "double": {"type": "number", "format": "double", "exclusiveMinimum": 0},
            "int64": {"type": "integer", "format": "int64", "multipleOf": 2},
            "when": {"type": "string", "format": "date-time", "pattern": "^2"},
            "uri": {"type": "string", "format": "uri", "minLength": 1},
            "few": {"type": "array", "items": S, "minItems": 1, "maxItems": 3},
            "many": {"type": "array", "items": S, "minItems": 2, "uniqueItems": True},
        },
        ["double"],
    ),
    "defaults_and_annotations": obj(
        {
            "d": {"type": "integer", "default": 5, "title": "D"},
            "n": {"type": "string", "default": None, "readOnly": True, "deprecated": True},
            "x": {"type": "string", "$comment": "c", "x-vendor": 1, "not": {"const": "a"}},
        },
        ["d"],
    ),
    "maps": obj(
        {
            "counts": {"type": "object", "additionalProperties": I, "maxProperties": 3},
            "mixed": obj({"a": S}, additionalProperties=I),
        }
    ),
}


def exported(schema: dict[str, Any], provider: str, strict: bool) -> str:
    fn = tp.Function("t", lambda args: "ok", description="Test.", parameters_schema=schema)
    try:
        return json.dumps(tp.providers.to_tool(fn, provider, strict=strict))
    except ValueError as exc:
        return f"ValueError: {exc}"


def current() -> dict[str, dict[str, str]]:
    return {
        name: {f"{p} strict" if s else p: exported(schema, p, s) for p, s in MODES}
        for name, schema in SCHEMAS.items()
    }


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_the_exports_are_the_recorded_ones(name: str) -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    assert current()[name] == recorded[name]


if __name__ == "__main__":
    print(json.dumps(current(), indent=1, ensure_ascii=False))
