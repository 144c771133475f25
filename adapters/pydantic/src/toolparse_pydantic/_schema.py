"""JSON Schema export: pydantic's own schema, made fit for a tool definition.

pydantic writes the schema; this module only adjusts it, once per tool:
titles are dropped (pydantic invents one for every model and field, and they
only cost tokens), a pattern is given to the string form of ``Decimal`` (so
the schema says which strings parse), and under the ``"reject"`` policy every
object with declared properties is closed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from toolparse.adapter import UUID_PATTERN

__all__ = ["DECIMAL_PATTERN", "Generator", "build"]

#: The strings pydantic's ``Decimal`` accepts, in the plain ASCII form a model
#: sends (pydantic also takes ``1_000`` and other Unicode digits; those are
#: left out of the schema on purpose).
DECIMAL_PATTERN = r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,5})?$"

# keywords whose value is one schema, a list of schemas, or a map of schemas;
# everything else (default, enum, const, examples, ...) is data and left alone
_ONE = frozenset(
    {
        "additionalItems",
        "additionalProperties",
        "contains",
        "else",
        "if",
        "items",
        "not",
        "propertyNames",
        "then",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
_MANY = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_MAP = frozenset({"$defs", "definitions", "dependentSchemas", "patternProperties", "properties"})


class Generator(GenerateJsonSchema):
    """pydantic's schema generator, with patterns where a format alone says too little.

    JSON Schema 2020-12 treats ``format`` as an annotation that validators
    need not check, so ``Decimal`` strings and UUIDs also get a ``pattern``
    that every checker enforces.
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

    Under ``reject`` the schema is closed at the top level, and with
    ``nested`` at every level (where the parser forbids extra keys at every
    level: pydantic 2.12 and later, not ``v1`` models).
    """
    if kind == "v1":
        raw = _from_v1(source.schema(by_alias=True, ref_template="#/$defs/{model}"))
    elif kind == "model":
        raw = source.model_json_schema(by_alias=True, schema_generator=Generator)
    else:
        adapter = source if kind == "adapter" else TypeAdapter(source)
        raw = adapter.json_schema(by_alias=True, schema_generator=Generator)
    schema: dict[str, Any] = _clean(_inline_top(raw), close=reject and nested)
    if schema.get("type") != "object":
        what = getattr(source, "__qualname__", None) or repr(source)
        found = schema.get("type") or "not a plain object"
        raise ValueError(
            f"{what} does not describe a JSON object ({found}); tool arguments are "
            "always one object, so use a model, TypedDict or dataclass"
        )
    if reject:
        schema["additionalProperties"] = False
    return schema


def _inline_top(schema: dict[str, Any]) -> dict[str, Any]:
    """Inline a top-level ``$ref`` (pydantic writes one for a recursive model).

    Older pydantic versions write it as ``allOf: [{"$ref": ...}]``.
    """
    ref = schema.get("$ref")
    one = schema.get("allOf")
    if ref is None and isinstance(one, list) and len(one) == 1 and isinstance(one[0], dict):
        ref = one[0].get("$ref")
    defs = schema.get("$defs")
    prefix = "#/$defs/"
    if isinstance(ref, str) and ref.startswith(prefix) and isinstance(defs, dict):
        target = defs.get(ref[len(prefix) :])
        if isinstance(target, dict):
            rest = {k: v for k, v in schema.items() if k not in ("$ref", "allOf")}
            return {**target, **rest}
    return schema


def _clean(schema: Any, *, close: bool) -> Any:
    """A copy of ``schema`` without ``title`` keywords.

    With ``close``, every object schema that declares ``properties`` also
    gets ``additionalProperties: false``.
    """
    if isinstance(schema, list):
        return [_clean(item, close=close) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in _ONE or key in _MANY:
            out[key] = _clean(value, close=close)
        elif key in _MAP and isinstance(value, Mapping):
            out[key] = {name: _clean(sub, close=close) for name, sub in value.items()}
        else:
            out[key] = value
    # older pydantic versions wrap a $ref that has siblings in a one-item allOf;
    # 2020-12 allows the siblings, and one spelling across versions is simpler
    one = out.get("allOf")
    if "$ref" not in out and isinstance(one, list) and len(one) == 1:
        only = one[0]
        if isinstance(only, Mapping) and set(only) == {"$ref"}:
            del out["allOf"]
            out["$ref"] = only["$ref"]
    if close and isinstance(out.get("properties"), Mapping):
        out["additionalProperties"] = False
    return out


def _from_v1(schema: dict[str, Any]) -> dict[str, Any]:
    """Move a ``pydantic.v1`` schema's ``definitions`` to ``$defs`` (JSON Schema 2020-12)."""
    if "definitions" in schema:
        schema = dict(schema)
        schema["$defs"] = schema.pop("definitions")
    return schema
