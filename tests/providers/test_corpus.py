"""Every corpus definition, for each provider and mode: accepted, by the rules, and in agreement.

1. The SDKs' own types accept the export.
2. A rules checker written from the provider notes accepts it (``rules.py``).
3. Both directions of agreement hold: an instance of the original schema, as
   the provider's model sends it (an explicit ``null`` for each omitted
   optional in OpenAI strict mode; free-form objects as JSON strings where the
   format cannot say them), is valid under the export and parses to the same
   value as the original instance; an instance of the export is accepted by
   the parser.

What is lost on purpose is listed below (``REFUSED``, ``FORWARD_LOSSES``,
``REVERSE_LOSSES``) and in docs/providers.md, which this module checks.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from anthropic.types import ToolParam
from google.genai import types as gt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from mcp import types as mt
from openai.types.chat import ChatCompletionFunctionToolParam
from openai.types.responses import FunctionToolParam

import toolparse as tp
from toolparse import providers

from . import rules
from .corpus import CASES, Case
from .sdk_shapes import exact_model, exact_param

PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini", "mcp")
MODES = [(p, s) for p in PROVIDERS for s in (False, True)]
BY_NAME = {c.name: c for c in CASES}
#: the note on a free-form object exported as a JSON-encoded string
JSON_OBJECT_NOTE = "a JSON object, encoded as a string"


def label(provider: str, strict: bool) -> str:
    return f"{provider} strict" if strict else provider


# -- what is given up, on purpose -------------------------------------------------------

#: exports refused, with the reason the message gives (it also says what to change)
REFUSED: dict[tuple[str, str], str] = {
    **{
        (name, mode): "a recursive schema"
        for name in ("tree", "node_root", "raw_recursive_defs")
        for mode in ("anthropic strict",)
    },
    **{
        (name, mode): "parameters_json_schema"
        for name in ("tree", "node_root", "raw_recursive_defs")
        for mode in ("gemini", "gemini strict")
    },
    **{
        ("raw_props_and_map", mode): "an open map .* next to declared properties; declare every key"
        for mode in ("openai strict", "openai-responses strict", "anthropic strict")
    },
}

STRICT_OPENAI = ("openai strict", "openai-responses strict")
STRICT = (*STRICT_OPENAI, "anthropic strict")
NOT_JSON_SCHEMA = ("gemini", "gemini strict")

#: instances of the original that the export cannot carry: (cases, modes) -> why
FORWARD_LOSSES: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "an object that allows other keys is closed in strict mode: other keys cannot be sent": (
        frozenset(
            {
                "open_model",
                "raw_open_with_props",
                "empty",
                "raw_no_args",
                "declared_union",
                "raw_filter_union",
                "raw_array_of_unions",
                "raw_one_of",
            }
        ),
        STRICT,
    ),
    "an optional property whose schema admits null: a strict model must send a value, and null is a value there, not 'absent'": (
        frozenset(
            {"plan_trip", "root_model", "adopt", "raw_any", "raw_one_of", "query_or_map_raw"}
        ),
        STRICT_OPENAI,
    ),
    "a value of any type is a string, number, boolean or null where every schema needs a type": (
        frozenset(
            {"raw_any", "raw_no_items", "raw_prefix_open", "raw_draft7_tuple", "raw_mcp_style"}
        ),
        (*STRICT, *NOT_JSON_SCHEMA),
    ),
}

#: instances of the export the parser rejects: (cases, modes) -> why
REVERSE_LOSSES: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "a keyword the provider does not decode against is a note in the description; the parser enforces it": (
        frozenset({"bounds", "raw_numbers", "raw_formats", "formats", "ma_event", "ma_person", "raw_mcp_style",
                   "raw_int_enum", "raw_string_enum_on_int", "literals", "raw_const", "paint",
                   "pydantic_kw", "tagged", "pair", "points", "fp_search"}),
        (*STRICT, *NOT_JSON_SCHEMA),
    ),
    "a tuple is a union of its items with an 'in this order' note: the order is the parser's to check": (
        frozenset({"pair", "points", "raw_prefix_closed", "raw_prefix_open", "raw_prefix_rest",
                   "raw_draft7_tuple", "raw_draft7_closed", "plain_results"}),
        (*STRICT, *NOT_JSON_SCHEMA),
    ),
    "a union of objects: a strict model may mix the keys of two branches": (
        frozenset({"raw_filter_union", "raw_one_of", "declared_union", "search", "invoice",
                   "pydantic_nested_unions", "raw_array_of_unions", "adopt"}),
        (*STRICT, *NOT_JSON_SCHEMA),
    ),
}  # fmt: skip


def _lost(table: dict[str, tuple[frozenset[str], tuple[str, ...]]], name: str, mode: str) -> bool:
    return any(name in cases and mode in modes for cases, modes in table.values())


# -- exporting ----------------------------------------------------------------------------


@functools.cache
def function(name: str) -> tp.Function:
    return BY_NAME[name].build()


def export(name: str, provider: str, strict: bool) -> dict[str, Any]:
    return providers.to_tool(function(name), provider, strict=strict)


def parameters(tool: Mapping[str, Any], provider: str) -> dict[str, Any]:
    """The exported parameters as JSON Schema (Gemini's Schema converted back)."""
    if provider == "openai":
        return dict(tool["function"]["parameters"])
    if provider == "openai-responses":
        return dict(tool["parameters"])
    if provider == "anthropic":
        return dict(tool["input_schema"])
    if provider == "mcp":
        return dict(tool["inputSchema"])
    declared = tool.get("parameters")
    return gemini_to_json(declared) if declared else {"type": "object", "properties": {}}


def gemini_to_json(node: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    kind = node.get("type")
    for key, value in node.items():
        if key == "type":
            out["type"] = value.lower()
        elif key == "properties":
            out[key] = {k: gemini_to_json(v) for k, v in value.items()}
        elif key == "items":
            out[key] = gemini_to_json(value)
        elif key == "anyOf":
            out[key] = [gemini_to_json(v) for v in value]
        elif key in ("required", "enum", "description", "minItems", "maxItems", "minLength", "maxLength",
                     "pattern", "minimum", "maximum", "minProperties", "maxProperties"):  # fmt: skip
            out[key] = value
    if node.get("nullable"):
        if kind is not None:
            out["type"] = [kind.lower(), "null"]
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


@pytest.mark.parametrize(("provider", "strict"), MODES, ids=[label(*m) for m in MODES])
@pytest.mark.parametrize("name", [c.name for c in CASES])
def test_export_is_accepted_by_the_sdk_and_the_rules(
    name: str, provider: str, strict: bool
) -> None:
    refused = REFUSED.get((name, label(provider, strict)))
    if refused is not None:
        with pytest.raises(ValueError, match=refused):
            export(name, provider, strict)
        return
    tool = export(name, provider, strict)
    fn = function(name)
    if provider == "openai":
        exact_param(ChatCompletionFunctionToolParam, tool)
        f = tool["function"]
        rules.check_openai(f["parameters"], f["name"], f.get("description"), strict)
    elif provider == "openai-responses":
        exact_param(FunctionToolParam, tool)
        rules.check_openai(tool["parameters"], tool["name"], tool.get("description"), strict)
    elif provider == "anthropic":
        exact_param(ToolParam, tool)
        rules.check_anthropic(tool["input_schema"], tool["name"], strict)
    elif provider == "gemini":
        exact_model(gt.FunctionDeclaration, tool)
        rules.check_gemini(tool)
    else:
        exact_model(mt.Tool, tool)
        rules.check_mcp(tool)
    # descriptions: the tool's own, never repeated inside the parameters
    schema = parameters(tool, provider)
    if fn.description is not None:
        assert schema.get("description") != fn.description


def test_the_corpus_covers_every_shape() -> None:
    assert len(CASES) >= 60
    shapes = {s for c in CASES for s in c.shapes}
    for shape in ("nested", "recursive", "union", "discriminated-union", "tuple", "closed-tuple",
                  "open-tuple", "draft7-tuple", "all-of", "free-form-map", "free-form-object",
                  "formats", "aliases", "defaults", "root-ref", "array-without-items",
                  "non-string-enum", "marshmallow", "attrs", "dataclass", "function-param",
                  "declared", "list-of-optional", "optional-model"):  # fmt: skip
        assert shape in shapes, shape
    adapters = {type(function(c.name).adapter).__name__ for c in CASES}
    assert {
        "PydanticAdapter",
        "MarshmallowAdapter",
        "AttrsAdapter",
        "JsonSchemaAdapter",
        "PlainAdapter",
        "NoneType",
    } <= adapters


# -- agreement ------------------------------------------------------------------------------


def _validator(root: Mapping[str, Any], formats: bool = False) -> jsonschema.protocols.Validator:
    kind = jsonschema.validators.validator_for(root, default=jsonschema.Draft202012Validator)
    return kind(root, format_checker=kind.FORMAT_CHECKER if formats else None)


def resolve_ref(root: Mapping[str, Any], ref: str) -> Any:
    node: Any = root
    for token in ref[2:].split("/") if ref != "#" else ():
        node = node[token.replace("~1", "/").replace("~0", "~")]
    return node


def merged(node: Mapping[str, Any], root: Mapping[str, Any]) -> dict[str, Any]:
    """``node`` with its ``allOf`` parts (and a ``$ref`` beside other keys) as one schema."""
    rest = {k: v for k, v in node.items() if k not in ("allOf", "$ref")}
    parts = [*node.get("allOf", ()), rest]
    if "$ref" in node:
        parts.insert(0, resolve_ref(root, node["$ref"]))
    out: dict[str, Any] = {}
    for part in parts:
        if isinstance(part, Mapping) and ("allOf" in part or "$ref" in part):
            part = merged(part, root)
        for key, value in part.items() if isinstance(part, Mapping) else ():
            if key == "properties":
                out[key] = {**out.get(key, {}), **value}
            elif key == "required":
                out[key] = [*out.get(key, []), *value]
            else:
                out.setdefault(key, value)
    return out


def free_form(node: Mapping[str, Any]) -> bool:
    """An object that declares no properties: a format without open maps sends a JSON string."""
    kind = node.get("type")
    if kind is None and not ("additionalProperties" in node or "patternProperties" in node):
        return False
    declared = node.get("properties") or "anyOf" in node or "oneOf" in node
    return kind in (None, "object") and not declared


def sent(value: Any, root: Mapping[str, Any], *, nulls: str | None, encode: bool) -> Any:
    """``value`` (an instance of ``root``) as a model under an export sends it."""
    validator = _validator(root)

    def walk(value: Any, node: Any, top: bool) -> Any:
        if not isinstance(node, Mapping):
            return value
        if isinstance(node.get("$ref"), str) and len(node) == 1:
            return walk(value, resolve_ref(root, node["$ref"]), top)
        if "allOf" in node or "$ref" in node:
            node = merged(node, root)
        for key in ("anyOf", "oneOf"):
            for branch in node.get(key) or ():
                if validator.evolve(schema=branch).is_valid(value):
                    return walk(value, branch, top)
        if isinstance(value, dict):
            if encode and not top and free_form(node):
                return json.dumps(value)
            props = node.get("properties") or {}
            extra = node.get("additionalProperties")
            out = {k: walk(v, props.get(k, extra), False) for k, v in value.items()}
            if nulls:
                # OpenAI strict requires every key: null for each one left out
                # ("absent": only where the schema does not admit null itself)
                required = set(node.get("required") or ())
                for k, prop in props.items():
                    absent = k not in value and k not in required
                    admits_null = validator.evolve(schema=prop).is_valid(None)
                    if absent and (nulls == "all" or not admits_null):
                        out[k] = None
            return out
        if isinstance(value, list):
            prefix = node.get("prefixItems") or []
            items = node.get("items")
            return [
                walk(v, prefix[i] if i < len(prefix) else items, False) for i, v in enumerate(value)
            ]
        return value

    return walk(value, root, True)


def for_generating(node: Any) -> Any:
    """A schema to generate instances from: declared keys only, JSON strings pinned to ``"{}"``.

    Objects with properties are closed: keys a schema does not declare are the
    ``unknown_arguments`` policy's business (tested with the Function), and
    generating arbitrary ones only costs time. A JSON-string property may only
    be ``"{}"``: the provider checks no more than that a string is sent.
    """
    if isinstance(node, list):
        return [for_generating(v) for v in node]
    if not isinstance(node, Mapping):
        return node
    if JSON_OBJECT_NOTE in str(node.get("description", "")) and "properties" not in node:
        kind = node.get("type")
        return {"enum": ["{}", None]} if isinstance(kind, list) else {"const": "{}"}
    out = {
        k: v if k in ("required", "enum", "const", "default", "examples") else for_generating(v)
        for k, v in node.items()
    }
    if out.get("properties") and "additionalProperties" not in out:
        out["additionalProperties"] = False
    out.pop("description", None)
    out.pop("title", None)
    return out


@functools.cache
def _strategy(schema_json: str) -> st.SearchStrategy[Any] | None:
    schema = json.loads(schema_json)
    try:
        return from_schema(schema)
    except Exception:  # a keyword hypothesis-jsonschema cannot generate
        return None


def _agree(case: Case, original: dict[str, Any], draw: Any) -> list[str]:
    """What disagrees for one original instance, in every mode (``[]``: nothing)."""
    fn = function(case.name)
    root = fn.json_schema()
    if not _validator(root).is_valid(original):
        return []  # a generator outside the original schema: not a case to judge
    result = fn.parse_arguments(original)
    if not isinstance(result, tp.Ok):
        return []  # the adapter's validator is stricter than its schema: not an export matter
    expected = result.value
    problems: list[str] = []

    def parses(arguments: Any) -> Any:
        found = fn.parse_arguments(arguments)
        return found.value if isinstance(found, tp.Ok) else found

    # null means absent for every Function (section 2), whatever it was exported as
    with_nulls = sent(original, root, nulls="absent", encode=False)
    if parses(with_nulls) != expected:
        problems.append(f"any: {with_nulls!r} parses to {parses(with_nulls)!r}, not {expected!r}")
    # instances of an export equal to the original's are instances of the original
    seen: set[str] = {json.dumps(for_generating(root), sort_keys=True)}
    for provider, strict in MODES:
        mode = label(provider, strict)
        if (case.name, mode) in REFUSED:
            continue
        schema = parameters(export(case.name, provider, strict), provider)
        # free-form objects travel as JSON strings where the format cannot say them
        encode = provider == "gemini" or (strict and provider != "mcp")
        message = sent(
            original, root, nulls="all" if mode in STRICT_OPENAI else None, encode=encode
        )
        if not _lost(FORWARD_LOSSES, case.name, mode):
            errors = list(_validator(schema).iter_errors(message))
            if errors:
                problems.append(f"forward {mode}: {message!r} is invalid: {errors[0].message}")
            elif parses(message) != expected:
                problems.append(f"forward {mode}: {message!r} parses to {parses(message)!r}")
        text = json.dumps(for_generating(schema), sort_keys=True)
        if draw is None or text in seen or _lost(REVERSE_LOSSES, case.name, mode):
            continue
        seen.add(text)
        strategy = _strategy(text)
        if strategy is not None:
            instance = draw(strategy)
            if not _validator(schema, formats=True).is_valid(instance):
                continue  # the generator does not know a 2020-12 keyword (prefixItems, formats)
            found = fn.parse_arguments(instance)
            if not isinstance(found, tp.Ok):
                problems.append(f"reverse {mode}: {instance!r} is rejected: {found.message[:200]}")
    return problems


@pytest.mark.parametrize("name", [c.name for c in CASES])
def test_hand_written_instances_agree(name: str) -> None:
    case = BY_NAME[name]
    problems = [p for example in case.examples for p in _agree(case, example, None)]
    assert not problems, problems


GENERATED = [c.name for c in CASES if c.generate]


@pytest.mark.parametrize("name", GENERATED)
@settings(
    max_examples=4,
    deadline=None,
    database=None,
    derandomize=True,  # the same instances every run: a failure is reproducible
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_generated_instances_agree_both_ways(name: str, data: st.DataObject) -> None:
    case = BY_NAME[name]
    strategy = _strategy(json.dumps(for_generating(function(name).json_schema()), sort_keys=True))
    if strategy is None:
        return
    problems = _agree(case, data.draw(strategy), data.draw)
    assert not problems, problems


def test_every_listed_loss_and_refusal_names_a_corpus_case() -> None:
    names = {c.name for c in CASES}
    modes = {label(*m) for m in MODES}
    for table in (FORWARD_LOSSES, REVERSE_LOSSES):
        for cases, listed in table.values():
            assert cases <= names, cases - names
            assert set(listed) <= modes
    assert {name for name, _ in REFUSED} <= names
    assert {mode for _, mode in REFUSED} <= modes


# -- docs/providers.md ------------------------------------------------------------------


DOC = Path(__file__).parents[2] / "docs" / "providers.md"

#: rows of the table "shape -> what each provider gets": (shape, case, property)
TABLE_ROWS: list[tuple[str, str, str]] = [
    ("optional with a default (`days: int = 3`)", "raw_defaults", "limit"),
    ("`Optional[Model] = None`", "search", "filter"),
    ("`list[Optional[Item]]`", "order", "items"),
    ("discriminated union", "adopt", "pet"),
    ("`anyOf` of objects", "raw_filter_union", "filter"),
    ("recursive model", "tree", "root"),
    ("closed tuple (`prefixItems`, `items: false`)", "raw_prefix_closed", "p"),
    ("open tuple (`prefixItems`)", "raw_prefix_open", "p"),
    ("Draft-07 tuple (`items: [...]`)", "raw_draft7_tuple", "p"),
    ("array without `items`", "raw_no_items", "xs"),
    ("multi-part `allOf`", "raw_all_of", "who"),
    ("free-form object (`{type: object}`)", "raw_free_form", "payload"),
    ("map (`dict[str, int]`)", "meta", "counts"),
    ("object open to other keys", "raw_open_with_props", "opts"),
    ("value of any type", "raw_any", "value"),
    ("integer enum", "raw_int_enum", "size"),
    ("`format: uri`", "raw_formats", "url"),
    ("root `$ref` next to `type: object`", "raw_root_ref", ""),
]
TABLE_MODES = [("openai", False), ("openai", True), ("anthropic", False), ("anthropic", True), ("gemini", False), ("mcp", False)]  # fmt: skip


def _kind(node: Mapping[str, Any]) -> str:
    description = str(node.get("description", ""))
    kind = node.get("type")
    if JSON_OBJECT_NOTE in description:
        text = "JSON string"
    elif isinstance(kind, list):
        text = "/".join(k.lower() for k in kind)
    elif isinstance(kind, str):
        text = kind.lower()
    elif "anyOf" in node or "oneOf" in node:
        key = "anyOf" if "anyOf" in node else "oneOf"
        text = f"{key}(" + ", ".join(_kind(b) for b in node[key]) + ")"
    elif "$ref" in node:
        text = "$ref"
    elif "enum" in node:
        text = "enum"
    elif "allOf" in node:
        text = "allOf"
    else:
        text = "any"
    if node.get("nullable"):
        text += "/null"
    return text


def summary(node: Mapping[str, Any] | None) -> str:
    """One exported property in a few words (what a table cell says)."""
    if node is None:
        return "refused"
    text = _kind(node)
    if "prefixItems" in node:
        text += " with prefixItems"
    items = node.get("items")
    if isinstance(items, Mapping) and "prefixItems" not in node:
        text += f" of {_kind(items)}" if items else " of any"
    if "properties" in node and JSON_OBJECT_NOTE not in str(node.get("description", "")):
        text += " {" + ", ".join(node["properties"]) + "}"
    extras = []
    if "enum" in node and node.get("type") is not None:
        extras.append("enum")
    if "format" in node:
        extras.append("format")
    if "default" in node:
        extras.append("default")
    if "maxItems" in node:
        extras.append("maxItems")
    if node.get("additionalProperties") is False:
        extras.append("closed")
    description = str(node.get("description", ""))
    if "in this order" in description:
        extras.append("order note")
    elif "(" in description and JSON_OBJECT_NOTE not in description:
        extras.append("note")
    return text + (", " + ", ".join(extras) if extras else "")


def cell(name: str, prop: str, provider: str, strict: bool) -> str:
    if (name, label(provider, strict)) in REFUSED:
        return "refused"
    tool = export(name, provider, strict)
    schema = parameters(tool, provider) if provider != "gemini" else tool.get("parameters", {})
    node: Mapping[str, Any] = schema
    if prop:
        node = schema["properties"][prop]
    return summary(node)


def shape_table() -> str:
    head = "| shape | " + " | ".join(label(*m) for m in TABLE_MODES) + " |"
    lines = [head, "|" + "---|" * (len(TABLE_MODES) + 1)]
    for shape, name, prop in TABLE_ROWS:
        cells = [cell(name, prop, *m) for m in TABLE_MODES]
        lines.append(f"| {shape} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def losses_list() -> str:
    lines = []
    for title, table in (
        ("sent but not carried", FORWARD_LOSSES),
        ("carried but not checked", REVERSE_LOSSES),
    ):
        for why, (_, modes) in table.items():
            lines.append(f"- {title} ({', '.join(modes)}): {why}.")
    return "\n".join(lines)


def _between(text: str, marker: str) -> str:
    found = re.search(rf"<!-- {marker} -->\n(.*?)\n<!-- /{marker} -->", text, re.S)
    assert found, f"docs/providers.md has no {marker} block"
    return found.group(1)


def test_docs_table_is_what_the_corpus_exports() -> None:
    text = DOC.read_text()
    assert _between(text, "shape-table") == shape_table()
    assert _between(text, "accepted-losses") == losses_list()
