"""The shared adapter conformance suite, for raw JSON Schema (fast path on and off)."""

from __future__ import annotations

from typing import Any

from tests.adapters.conformance import AdapterConformance, ConformanceCase, Invalid

from toolparse_jsonschema import JsonSchema

ORDER: dict[str, Any] = {
    "type": "object",
    "description": "Place an order.",
    "properties": {
        "customer": {"type": "string", "minLength": 1, "description": "Who orders."},
        "quantity": {"type": "integer", "minimum": 1},
        "unit": {"enum": ["kg", "lb"], "default": "kg"},
        "note": {"type": "string", "maxLength": 200},
        "ship_on": {"type": "string", "format": "date"},
        "lines": {
            "type": "array",
            "items": {"$ref": "#/$defs/line"},
            "minItems": 1,
        },
    },
    "required": ["customer", "quantity", "lines"],
    "$defs": {
        "line": {
            "type": "object",
            "properties": {
                "sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]+$"},
                "qty": {"type": "number", "exclusiveMinimum": 0},
            },
            "required": ["sku", "qty"],
            "additionalProperties": False,
        }
    },
}

VALID = {"customer": "Ada", "quantity": 2, "lines": [{"sku": "ABC-1", "qty": 1.5}]}

INVALID = [
    # wrong type
    Invalid({**VALID, "quantity": "two"}, ['quantity: must be an integer (received "two")']),
    # missing required
    Invalid({"customer": "Ada", "lines": VALID["lines"]}, ["Missing parameters: quantity"]),
    # nested problem
    Invalid(
        {**VALID, "lines": [{"sku": "abc", "qty": 0}]},
        [
            'lines[0].sku: must match the pattern "^[A-Z]{3}-[0-9]+$" (received "abc")',
            "lines[0].qty: must be greater than 0 (received 0)",
        ],
    ),
    # several problems at once, at every level
    Invalid(
        {"quantity": 0, "unit": "oz", "lines": [{"qty": 1, "colour": "red"}], "ship_on": "soon"},
        [
            "quantity: must be at least 1 (received 0)",
            'unit: must be one of: "kg", "lb" (received "oz")',
            "lines[0].sku: Field required",
            "lines[0].colour: Unrecognized parameter",
            'ship_on: must be a date like "2024-01-31" (received "soon")',
            "Missing parameters: customer",
        ],
    ),
    # the whole list missing its items
    Invalid({**VALID, "lines": []}, ["lines: must have at least 1 item (received [])"]),
]

#: at least ten representative schemas: schema and parser must agree on each.
#: (No "uuid" format and no recursive $ref here: the instance generator treats
#: "uuid" as an annotation and sends any string, which the adapter rightly
#: refuses, and cannot generate recursive schemas.)
CORPUS: list[dict[str, Any]] = [
    ORDER,
    {
        "type": "object",
        "properties": {"city": {"type": "string"}, "units": {"enum": ["c", "f"]}},
        "required": ["city"],
        "additionalProperties": False,
    },
    {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": -5, "maximum": 5, "multipleOf": 1},
            "x": {"type": "number", "exclusiveMaximum": 10},
        },
    },
    {
        "type": "object",
        "properties": {
            "tags": {
                "type": "array",
                "items": {"type": "string", "maxLength": 5},
                "uniqueItems": True,
                "maxItems": 4,
            }
        },
        "required": ["tags"],
    },
    {
        "type": "object",
        "properties": {
            "payment": {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {"card": {"type": "string", "pattern": "^[0-9]{4}$"}},
                        "required": ["card"],
                        "additionalProperties": False,
                    },
                    {
                        "type": "object",
                        "properties": {"iban": {"type": "string", "minLength": 5}},
                        "required": ["iban"],
                        "additionalProperties": False,
                    },
                ]
            }
        },
        "required": ["payment"],
    },
    {
        "type": "object",
        "properties": {
            "value": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}
        },
    },
    {
        "type": "object",
        "properties": {
            "when": {"type": "string", "format": "date-time"},
            "day": {"type": "string", "format": "date"},
            "at": {"type": "string", "format": "time"},
            "mail": {"type": "string", "format": "email"},
            "page": {"type": "string", "format": "uri"},
            "host": {"type": "string", "format": "ipv4"},
            "host6": {"type": "string", "format": "ipv6"},
        },
    },
    {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"point": {"$ref": "#/definitions/point"}},
        "definitions": {
            "point": {
                "type": "object",
                "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                "required": ["x", "y"],
            }
        },
    },
    {
        # shared definitions through $ref, allOf and if/then/else
        "type": "object",
        "properties": {
            "home": {"$ref": "#/$defs/address"},
            "work": {"allOf": [{"$ref": "#/$defs/address"}, {"required": ["city"]}]},
            "mode": {"enum": ["car", "bike"]},
            "seats": {"type": "integer"},
        },
        "if": {"properties": {"mode": {"const": "car"}}, "required": ["mode"]},
        "then": {"required": ["seats"]},
        "$defs": {
            "address": {
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "zip": {"type": "string", "pattern": "^[0-9]{5}$"},
                },
            }
        },
    },
    {
        "type": "object",
        "properties": {"kind": {"const": "circle"}, "radius": {"type": "number", "minimum": 0}},
        "required": ["kind", "radius"],
        "dependentRequired": {"radius": ["kind"]},
    },
    {
        "type": "object",
        "properties": {
            "flags": {
                "type": "object",
                "additionalProperties": {"type": "boolean"},
                "maxProperties": 3,
            }
        },
    },
    {
        "$schema": "https://json-schema.org/draft/2019-09/schema",
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": {"type": "integer"}, "contains": {"minimum": 10}}
        },
    },
]


def _case(wrap: Any) -> ConformanceCase:
    def check_parsed(parsed: Any) -> None:
        # the body receives the arguments dict itself, untouched
        assert parsed == VALID
        assert type(parsed) is dict

    return ConformanceCase(
        adapter="jsonschema",
        source=wrap(ORDER),
        valid=VALID,
        check_parsed=check_parsed,
        invalid=INVALID,
        typo=("notes", "note"),
        instance={"order_id": 7, "status": "placed"},
        instance_json={"order_id": 7, "status": "placed"},
        corpus=[wrap(schema) for schema in CORPUS],
    )


class TestJsonSchemaConformance(AdapterConformance):
    """Plain dicts: jsonschema-rs decides validity when installed."""

    def case(self) -> ConformanceCase:
        return _case(lambda schema: schema)


class TestJsonSchemaPureConformance(AdapterConformance):
    """The pure path: the jsonschema library alone."""

    def case(self) -> ConformanceCase:
        return _case(lambda schema: JsonSchema(schema, fast=False))
