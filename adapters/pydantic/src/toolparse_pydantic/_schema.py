"""JSON Schema export: pydantic's own schema, made fit for a tool definition.

pydantic writes the schema; this module only adjusts it, once per tool: no
titles (pydantic invents one for every model and field: they only cost
tokens), patterns where a format says too little, and closed objects under
the ``"reject"`` policy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from toolparse.adapter import UUID_PATTERN

__all__ = ["DECIMAL_PATTERN", "Generator", "build"]

#: The strings pydantic's ``Decimal`` accepts, in the plain ASCII form a model
#: sends (pydantic also takes ``1_000`` and other Unicode digits; those are
#: left out of the schema on purpose).
DECIMAL_PATTERN = r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,5})?$"

# keywords whose value is one schema or a list of schemas, and those whose value
# maps names to schemas; everything else (default, enum, const, ...) is data
_SCHEMAS = frozenset({"additionalItems", "additionalProperties", "contains", "else", "if"})
_SCHEMAS |= {"items", "not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties"}
_SCHEMAS |= {"allOf", "anyOf", "oneOf", "prefixItems"}
_MAP = frozenset({"$defs", "definitions", "dependentSchemas", "patternProperties", "properties"})


class Generator(GenerateJsonSchema):
    """pydantic's schema generator, with patterns where a format alone says too little.

    (JSON Schema 2020-12's ``format`` is an annotation that validators need not check.)
    """

    def decimal_schema(self, schema: core_schema.DecimalSchema) -> JsonSchemaValue:
        """Describe a ``Decimal``: a number, or a string holding one."""
        out = super().decimal_schema(schema)
        for branch in out.get("anyOf", ()):
            if branch.get("type") == "string":
                # pydantic writes no pattern, or (some 2.x releases) one without
                # exponents; one pattern for every version says what parses
                branch["pattern"] = DECIMAL_PATTERN
        return out

    def uuid_schema(self, schema: core_schema.UuidSchema) -> JsonSchemaValue:
        """Describe a UUID: a string in the canonical form."""
        out = super().uuid_schema(schema)
        # a versioned UUID (UUID4, ...) needs more than the shape: leave it to the format
        if schema.get("version") is None and "pattern" not in out:
            out["pattern"] = UUID_PATTERN
        return out


def build(source: Any, kind: str, *, reject: bool, nested: bool) -> dict[str, Any]:
    """The tool's schema for ``source`` (of ``kind``): pydantic's own, generated once, made fit.

    ``reject`` closes the top level, with ``nested`` every object (where the
    parser forbids extra keys at every level).
    """
    if kind == "v1":
        raw = source.schema(by_alias=True, ref_template="#/$defs/{model}")
        # pydantic.v1 writes ``definitions``: 2020-12 calls them ``$defs``
        raw = {"$defs" if key == "definitions" else key: value for key, value in raw.items()}
    elif kind == "model":
        raw = source.model_json_schema(by_alias=True, schema_generator=Generator)
    else:  # a TypeAdapter
        raw = source.json_schema(by_alias=True, schema_generator=Generator)
    schema = _inline_top(_clean(raw, close=reject and nested))
    if reject:
        schema["additionalProperties"] = False
    return schema


def _inline_top(schema: dict[str, Any]) -> dict[str, Any]:
    """Inline a top-level ``$ref`` (pydantic writes one for a recursive model)."""
    ref = schema.get("$ref")
    defs = schema.get("$defs")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and isinstance(defs, dict):
        target = defs.get(ref.removeprefix("#/$defs/"))
        if isinstance(target, dict):
            return {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def _clean(schema: Any, *, close: bool) -> Any:
    """A copy of ``schema`` without titles (with ``close``: every object with properties closed).

    (Older pydantic versions wrap a ``$ref`` with siblings, or a recursive
    model's top-level one, in a one-item ``allOf``: written as a plain ``$ref``.)
    """
    if isinstance(schema, list):
        return [_clean(item, close=close) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in _SCHEMAS:
            out[key] = _clean(value, close=close)
        elif key in _MAP and isinstance(value, Mapping):
            out[key] = {name: _clean(sub, close=close) for name, sub in value.items()}
        else:
            out[key] = value
    one = out.get("allOf")  # (2020-12 allows a $ref's siblings: one spelling for every version)
    if "$ref" not in out and isinstance(one, list) and len(one) == 1:
        only = one[0]
        if isinstance(only, Mapping) and set(only) == {"$ref"}:
            del out["allOf"]
            out["$ref"] = only["$ref"]
    if close and isinstance(out.get("properties"), Mapping):
        out["additionalProperties"] = False
    return out
