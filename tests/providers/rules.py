"""The providers' documented rules for tool definitions, as checks (from provider-formats.md).

Each ``check_*`` raises ``AssertionError`` naming the first rule an exported
tool breaks: names, description limits, the root, the strict subsets of
OpenAI (section 3) and Anthropic (section 4.3), Gemini's ``Schema`` subset
(section 5.3) and MCP's 2020-12 ``inputSchema`` (section 6).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import jsonschema

OPENAI_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
ANTHROPIC_NAME = re.compile(r"[a-zA-Z0-9_-]{1,128}")
GEMINI_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:\-]{0,127}")
MCP_NAME = re.compile(r"[A-Za-z0-9._-]{1,128}")

OPENAI_FORMATS = {
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
}
ANTHROPIC_FORMATS = OPENAI_FORMATS | {"uri"}
_OPENAI_STRICT_KEYS = {
    "type", "properties", "required", "additionalProperties", "items", "enum", "anyOf",
    "description", "title", "$ref", "$defs", "definitions", "pattern", "format", "multipleOf",
    "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "minItems", "maxItems",
    "minLength", "maxLength", "const",
}  # fmt: skip
_ANTHROPIC_UNSUPPORTED = {"minimum", "maximum", "multipleOf", "minLength", "maxLength", "maxItems",
                          "exclusiveMinimum", "exclusiveMaximum", "oneOf", "not", "if", "then", "else"}  # fmt: skip
_GEMINI_FIELDS = {
    "type", "format", "title", "description", "nullable", "enum", "items", "minItems", "maxItems",
    "minLength", "maxLength", "pattern", "minimum", "maximum", "properties", "required",
    "minProperties", "maxProperties", "propertyOrdering", "anyOf", "default", "example",
}  # fmt: skip
_GEMINI_TYPES = {"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"}
_DATA = {"enum", "const", "default", "examples", "example", "required", "propertyOrdering"}


def schemas(node: Any, path: str = "") -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every subschema of ``node`` with its path (data keywords are not descended)."""
    if isinstance(node, list):
        for i, v in enumerate(node):
            yield from schemas(v, f"{path}/{i}")
        return
    if not isinstance(node, Mapping):
        return
    yield path, node
    for key, value in node.items():
        if key in _DATA:
            continue
        if key in ("properties", "$defs", "definitions", "patternProperties") and isinstance(
            value, Mapping
        ):
            for name, sub in value.items():
                yield from schemas(sub, f"{path}/{key}/{name}")
        elif isinstance(value, (Mapping, list)):
            yield from schemas(value, f"{path}/{key}")


def _is_object(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind)


def _is_array(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "array" or (isinstance(kind, list) and "array" in kind)


def _root(schema: Mapping[str, Any], who: str) -> None:
    assert schema.get("type") == "object", f"{who}: the root must be type object"
    jsonschema.Draft202012Validator.check_schema(schema)


def check_openai(
    parameters: Mapping[str, Any], name: str, description: str | None, strict: bool
) -> None:
    """OpenAI (both APIs): section 1.2 and, when strict, section 3."""
    assert OPENAI_NAME.fullmatch(name), f"openai: name {name!r}"
    assert description is None or len(description) <= 1024, "openai: description over 1024"
    _root(parameters, "openai")
    assert isinstance(parameters.get("properties"), dict), (
        "openai: object schema missing properties"
    )
    for path, node in schemas(parameters):
        if _is_array(node):
            assert isinstance(node.get("items"), Mapping), (
                f"openai: {path}: array schema missing items"
            )
    if not strict:
        return
    assert "anyOf" not in parameters, "openai strict: root anyOf"
    for path, node in schemas(parameters):
        extra = set(node) - _OPENAI_STRICT_KEYS
        assert not extra, f"openai strict: {path}: keywords {sorted(extra)} not supported"
        assert {"type", "anyOf", "$ref", "enum", "const"} & set(node) or path.endswith(
            ("$defs", "definitions")
        ), f"openai strict: {path}: a schema without a type"
        if _is_object(node):
            assert node.get("additionalProperties") is False, (
                f"openai strict: {path}: 'additionalProperties' is required to be supplied and to be false"
            )
            props = node.get("properties")
            assert isinstance(props, Mapping), f"openai strict: {path}: object without properties"
            assert list(node.get("required", [])) == list(props), (
                f"openai strict: {path}: 'required' must include every key in properties"
            )
        if "format" in node:
            assert node["format"] in OPENAI_FORMATS, (
                f"openai strict: {path}: {node['format']!r} is not a valid format"
            )


def check_anthropic(schema: Mapping[str, Any], name: str, strict: bool) -> None:
    """Anthropic: section 4.1/4.2 and, when strict, section 4.3."""
    assert ANTHROPIC_NAME.fullmatch(name), f"anthropic: name {name!r}"
    _root(schema, "anthropic")
    for key in ("anyOf", "oneOf", "allOf"):
        assert key not in schema, f"anthropic: input_schema does not support {key} at the top level"
    if not strict:
        return
    for path, node in schemas(schema):
        extra = set(node) & _ANTHROPIC_UNSUPPORTED
        assert not extra, f"anthropic strict: {path}: {sorted(extra)} not supported"
        assert {"type", "anyOf", "allOf", "enum", "const", "$ref"} & set(node) or path.endswith(
            ("$defs", "definitions")
        ), f"anthropic strict: {path}: a schema without a type"
        if _is_object(node):
            assert node.get("additionalProperties") is False, (
                f"anthropic strict: {path}: For 'object' type, 'additionalProperties' must be explicitly set to false"
            )
        if "minItems" in node:
            assert node["minItems"] in (0, 1), f"anthropic strict: {path}: minItems > 1"
        if "format" in node:
            assert node["format"] in ANTHROPIC_FORMATS, (
                f"anthropic strict: {path}: format {node['format']!r}"
            )
        for key in ("enum",):
            if key in node:
                assert all(isinstance(v, (str, int, float, bool, type(None))) for v in node[key]), (
                    f"anthropic strict: {path}: enum values must be primitives"
                )
        if "allOf" in node:
            assert not any("$ref" in p for p in node["allOf"]), (
                f"anthropic strict: {path}: allOf with $ref"
            )


def check_gemini(declaration: Mapping[str, Any]) -> None:
    """Gemini ``parameters``: section 5.2/5.3."""
    assert GEMINI_NAME.fullmatch(declaration["name"]), f"gemini: name {declaration['name']!r}"
    parameters = declaration.get("parameters")
    if parameters is None:
        return
    assert parameters.get("type") == "OBJECT", "gemini: parameters schema should be of type OBJECT"
    for path, node in schemas(parameters):
        extra = set(node) - _GEMINI_FIELDS
        assert not extra, f"gemini: {path}: Unknown name {sorted(extra)}: Cannot find field."
        kind = node.get("type")
        assert kind is None or (isinstance(kind, str) and kind in _GEMINI_TYPES), (
            f"gemini: {path}: Proto field is not repeating (type {kind!r})"
        )
        assert kind is not None or "anyOf" in node, f"gemini: {path}: a schema without a type"
        if "enum" in node:
            assert kind == "STRING", (
                f"gemini: {path}: function declaration enum only allowed for STRING type"
            )
            assert all(isinstance(v, str) for v in node["enum"]), (
                f"gemini: {path}: enum values must be strings"
            )
        if kind == "OBJECT":
            assert node.get("properties"), (
                f"gemini: {path}: properties should be non-empty for OBJECT type"
            )
            assert node.get("propertyOrdering", list(node["properties"])) == list(
                node["properties"]
            )
            assert set(node.get("required", [])) <= set(node["properties"]), (
                f"gemini: {path}: required"
            )
        if kind == "ARRAY":
            assert isinstance(node.get("items"), Mapping), f"gemini: {path}: items: missing field"


def check_mcp(tool: Mapping[str, Any]) -> None:
    """MCP ``Tool``: section 6.1/6.2."""
    assert MCP_NAME.fullmatch(tool["name"]), f"mcp: name {tool['name']!r}"
    schema = tool["inputSchema"]
    assert schema.get("type") == "object", "mcp: inputSchema must be type object"
    dialect = schema.get("$schema")
    validator = (
        jsonschema.validators.validator_for(schema) if dialect else jsonschema.Draft202012Validator
    )
    validator.check_schema(schema)
