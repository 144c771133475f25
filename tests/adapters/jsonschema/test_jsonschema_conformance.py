"""The shared adapter conformance suite, for raw JSON Schema (fast path on and off)."""

from __future__ import annotations

from typing import Any

from toolparse.testing import AdapterConformance, ConformanceCase, Invalid
from toolparse_jsonschema import JsonSchema, JsonSchemaAdapter

from .models import CORPUS, ORDER, VALID
from .voice import one_voice

INVALID = [
    # wrong type
    Invalid({**VALID, "quantity": "two"}, ['quantity: must be an integer (received "two")']),
    # missing required
    Invalid({"customer": "Ada", "lines": VALID["lines"]}, ["Missing parameters: quantity"]),
    # nested problem
    Invalid(
        {**VALID, "lines": [{"sku": "abc", "qty": 0}]},
        [
            'lines[0].sku: must match the pattern ^[A-Z]{3}-[0-9]+$ (received "abc")',
            "lines[0].qty: must be greater than 0 (received 0)",
        ],
    ),
    # several problems at once, at every level
    Invalid(
        {"quantity": 0, "unit": "oz", "lines": [{"qty": 1, "colour": "red"}], "ship_on": "soon"},
        [
            "quantity: must be at least 1 (received 0)",
            'unit: must be one of: "kg", "lb" (received "oz")',
            "lines[0].sku: is required",
            "lines[0].colour: is not accepted",
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
def _case(wrap: Any) -> ConformanceCase:
    def check_parsed(parsed: Any) -> None:
        # the body receives the arguments dict itself, untouched
        assert parsed == VALID
        assert type(parsed) is dict

    return ConformanceCase(
        adapter=JsonSchemaAdapter(),
        source=wrap(ORDER),
        valid=VALID,
        check_parsed=check_parsed,
        invalid=INVALID,
        typo=("notes", "note"),
        instance={"order_id": 7, "status": "placed"},
        instance_json={"order_id": 7, "status": "placed"},
        corpus=[wrap(schema) for schema in CORPUS],
        one_voice=lambda check: wrap(one_voice(check)),
    )


class TestJsonSchemaConformance(AdapterConformance):
    """Plain dicts: jsonschema-rs decides validity when installed."""

    def case(self) -> ConformanceCase:
        return _case(lambda schema: schema)


class TestJsonSchemaPureConformance(AdapterConformance):
    """The pure path: the jsonschema library alone."""

    def case(self) -> ConformanceCase:
        return _case(lambda schema: JsonSchema(schema, fast=False))
