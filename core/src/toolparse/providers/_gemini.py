"""Google Gemini: function declarations, ``functionCall`` parts, ``functionResponse`` parts.

Everything is in the REST (camelCase) spelling, which the ``google-genai`` SDK accepts too. Tools
use the classic ``parameters`` field by default: it works with every Gemini model and API version
(Developer API and Vertex AI, v1 and v1beta), where ``parametersJsonSchema`` is newer and
documented for v1beta only. ``Function.options={"parameters_json_schema": True}`` sends JSON
Schema instead (needed for recursive schemas).

The ``parameters`` are Gemini's ``Schema`` (an OpenAPI 3.0 subset): Gemini answers any field
outside it with a 400 ("Unknown name"), and rejects type arrays, ``$ref``/``$defs``, non-string
enums and empty ``properties``. What it cannot say is described in the description, so the model
still reads it; the parser enforces it as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._schemas import free_form, merge_all_of
from ..results import ImagePart, TextPart, ToolCall, ToolResult
from ._base import MAPS, BuiltinProvider, NameRule, Schema, content_parts, id_maker, mapping, plain
from ._readers import GeminiChunks
from ._schema import Converted, Rule, SchemaWalk, parameters, rewrite

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["GENERATED_ID", "GeminiProvider"]

#: The prefix of the ids given to calls that came without one.
GENERATED_ID = "gemini-call-"


class GeminiProvider(BuiltinProvider):
    """The ``"gemini"`` provider: the Gemini API (``google-genai``)."""

    name = "gemini"
    reader = GeminiChunks
    # the rule both the Gemini Developer API and Vertex AI accept (the newest SDK
    # also allows ":" and 128 characters; older Vertex docs do not)
    name_rule = NameRule(
        "gemini",
        r"[A-Za-z_][A-Za-z0-9_.\-]{0,63}",
        "a letter or _ first, then a-z, A-Z, 0-9, _, . and -, at most 64 characters",
        invalid=r"[^A-Za-z0-9_.\-]",
        first=r"[A-Za-z_]",
    )
    shapes = "a GenerateContentResponse, a Candidate, a Content, a list of parts or a part"
    together = "parts"

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """A ``FunctionDeclaration``: ``{name, description, parameters}`` (no strict mode)."""
        declaration = self.head(function)
        schema = parameters(function, self.name)
        if (function.options or {}).get("parameters_json_schema"):
            declaration["parametersJsonSchema"] = rewrite(schema, _json_schema)
        else:
            declared = _Gemini(schema, function.name).node(schema, ())
            if declared.get("properties"):  # Gemini refuses an OBJECT with empty properties
                declaration["parameters"] = declared
        return declaration

    def to_tools(self, functions: Sequence[Function], *, strict: bool | None = None) -> list[Any]:
        """``[{"functionDeclarations": [...]}]``: the value of the request's ``tools``."""
        declarations = super().to_tools(functions, strict=strict)
        return [{"functionDeclarations": declarations}] if declarations else []

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The ``functionCall`` parts of a response (first candidate), a ``Content`` or parts."""
        data = plain(payload)
        if isinstance(data, MAPS) and "candidates" in data:
            candidates = data["candidates"] or []
            if not isinstance(candidates, list):
                raise self.expected(payload)
            data = mapping(candidates[0]).get("content") if candidates else None
            data = plain(data) or {"parts": []}
        elif (
            isinstance(data, MAPS)
            and isinstance(plain(data.get("content")), Mapping)
            and "parts" not in data
        ):
            data = plain(data["content"]) or {"parts": []}  # a Candidate
        if isinstance(data, MAPS) and "parts" in data and "type" not in data:
            parts = self.each(data["parts"] or [], payload, _is_part)
        else:
            parts = self.listed(data, payload, _is_part)
        found: list[Any] = []
        for part in parts:
            call = plain(part.get("functionCall") or part.get("function_call"))
            if call is None and "name" in part and "args" in part:
                call = part  # a FunctionCall itself
            if isinstance(call, MAPS):
                found.append(call)
        make_id = id_maker(GENERATED_ID, found)
        return [
            ToolCall(make_id(call.get("id")), call.get("name"), _whole(call.get("args") or {}))
            for call in found
        ]

    def answer(self, result: ToolResult) -> dict[str, Any]:
        """A ``functionResponse`` part: the text in ``response.output``, as the Gemini docs ask."""
        texts: list[str] = []
        media: list[dict[str, Any]] = []
        for part in content_parts(result):
            if isinstance(part, TextPart):
                texts.append(part.text)
            elif isinstance(part, ImagePart):
                where = ("fileData", "fileUri") if part.url else ("inlineData", "data")
                media.append({where[0]: {"mimeType": part.media_type, where[1]: part.data}})
            else:
                raise self.cannot_carry(part, "a function response")
        response: dict[str, Any] = {"name": self.called_name(result)}
        response["response"] = {"error" if result.is_error else "output": "\n".join(texts)}
        # an id made up for a call that came without one: none back, Gemini matches by order
        if result.tool_call_id and not result.tool_call_id.startswith(GENERATED_ID):
            response = {"id": result.tool_call_id, **response}
        if media:
            response["parts"] = media
        return {"functionResponse": response}


def _whole(value: Any) -> Any:
    """``value`` with whole-number floats as ints (a protobuf ``Struct`` has only floats)."""
    if isinstance(value, (str, int, float)) or value is None:  # a scalar: no ABC check
        return int(value) if isinstance(value, float) and value.is_integer() else value
    if isinstance(value, MAPS):
        return {k: _whole(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole(v) for v in value]
    return value


# the keys of a Part, in both spellings (REST camelCase, SDK snake_case)
_PART_KEYS = frozenset(
    {"text", "thought", "thoughtSignature", "thought_signature", "functionCall", "function_call"}
    | {"functionResponse", "function_response", "inlineData", "inline_data", "fileData"}
    | {"file_data", "executableCode", "executable_code", "codeExecutionResult", "toolCall"}
    | {"code_execution_result", "videoMetadata", "video_metadata", "tool_call", "toolResponse"}
    | {"tool_response"}
)


def _is_part(data: Mapping[str, Any]) -> bool:
    """A Gemini ``Part`` (other APIs' blocks carry a ``type``), or a ``FunctionCall`` itself."""
    if "name" in data and "args" in data:
        return True
    return "type" not in data and any(data.get(key) is not None for key in _PART_KEYS)


# -- JSON Schema as Gemini's Schema ----------------------------------------------------------------

_FORMATS = {
    "STRING": frozenset({"enum", "date-time"}),
    "NUMBER": frozenset({"float", "double"}),
    "INTEGER": frozenset({"int32", "int64"}),
}
# the Schema type of a JSON value (bool before int: a bool is an int)
_VALUE_TYPES = (
    (bool, "BOOLEAN"),
    (int, "INTEGER"),
    (float, "NUMBER"),
    (str, "STRING"),
    (list, "ARRAY"),
    (dict, "OBJECT"),
)


def _json_schema(node: Mapping[str, Any], out: Schema) -> Schema:
    """The ``parametersJsonSchema`` of a tool: no ``$schema``, a ``const`` as a one-value enum."""
    if "$schema" not in out and "const" not in out:
        return out
    return {  # the keys in their order, `const` renamed
        ("enum" if key == "const" else key): [value] if key == "const" else value
        for key, value in out.items()
        if key != "$schema"
    }


class _Gemini(SchemaWalk):
    """The Gemini ``Schema`` of every subschema of one root (arrays and objects converted last)."""

    __slots__ = ("name",)
    string = "STRING"
    # any value, as the Schema can say it: a string, a number or a boolean
    any_value = ({"type": "STRING"}, {"type": "NUMBER"}, {"type": "BOOLEAN"})
    keep = frozenset(
        {"description", "title", "minItems", "maxItems", "minLength", "maxLength", "pattern"}
        | {"minimum", "maximum", "minProperties", "maxProperties", "default"}
    )
    silent = (
        SchemaWalk.silent
        | {"$defs", "definitions", "additionalProperties"}
        | {"propertyNames", "patternProperties", "unevaluatedProperties"}
    )

    def __init__(self, root: Schema, name: str) -> None:
        super().__init__(root)
        self.name = name

    def fail(self, path: tuple[str, ...], why: str, change: str | None = None) -> ValueError:
        return ValueError(f"gemini: the schema of tool {self.name!r} is nested too deeply")

    def cycle(self, ref: str, path: tuple[str, ...]) -> Schema:
        raise ValueError(
            f"gemini parameters cannot express the recursive schema of tool "
            f"{self.name!r} (at {'/'.join(path) or 'the root'}); use options="
            '{"parameters_json_schema": True} to send JSON Schema instead'
        )

    def all_of(self, s: Schema, path: tuple[str, ...], notes: list[str] | None) -> Schema:
        """The parts as one schema first (a part may say only ``required``), or converted apart."""
        try:
            return self.node(merge_all_of(s, self.root), path)
        except ValueError:
            pass  # parts that disagree as JSON Schema may agree once converted
        merged: Schema = {}
        for part in s.pop("allOf"):
            merged = self.merge(merged, self.node(part, path))
        return self.merge(merged, self.node(s, path)) if s else merged

    def convert(self, s: Schema, node: Converted) -> Schema:
        if node.path and free_form(s):
            # an OBJECT needs properties: a JSON-encoded STRING
            self.json_string(s, node)
            node.nullable = bool(s.get("nullable"))
            return self.finished(node)
        self.types(s.get("type"), node)
        if "oneOf" in s:
            s["anyOf"] = [*s.get("anyOf", ()), *s.pop("oneOf")]
        self.branches(s.get("anyOf"), node)
        for key, value in s.items():
            rule: Rule = _RULES.get(key, SchemaWalk.other)
            rule(self, key, value, node)
        self.array(s, node)
        self.object(s, node)
        return self.finished(node)

    def kind(self, schema: Schema) -> str:
        return str(schema.get("type", "value")).lower()

    def finished(self, node: Converted) -> Schema:
        if not ({"type", "anyOf", "enum"} & node.out.keys()):
            node.out = {**self.anything(), **node.out}  # a value of any type
        if node.nullable:
            node.out["nullable"] = True
        return node.done()

    def types(self, kind: object, node: Converted) -> None:
        """``type``: one type, or a union (a type array is refused, "not repeating"); null apart."""
        kinds = kind if isinstance(kind, list) else [kind] if isinstance(kind, str) else []
        if "null" in kinds:
            node.nullable = True
            kinds = [k for k in kinds if k != "null"]
        if len(kinds) == 1:
            node.out["type"] = kinds[0].upper()
        elif len(kinds) > 1:
            node.out["anyOf"] = [{"type": k.upper()} for k in kinds]

    def branches(self, branches: object, node: Converted) -> None:
        """``anyOf``: its null branch becomes ``nullable``; ``Optional[X]`` becomes X itself."""
        if not isinstance(branches, list):
            return
        kept = [b for b in branches if not (isinstance(b, Mapping) and b.get("type") == "null")]
        node.nullable = node.nullable or len(kept) < len(branches)
        converted = self.one_string(
            [self.node(b, (*node.path, "anyOf", str(i))) for i, b in enumerate(kept)], node
        )
        if len(converted) == 1:
            node.out = {**converted[0], **node.out}  # the field's own keys win
            node.nullable = node.nullable or bool(converted[0].get("nullable"))
        elif converted:
            node.out["anyOf"] = converted

    def merge(self, a: Schema, b: Schema) -> Schema:
        """Two converted schemas that must both hold (``allOf``), as one."""
        out = dict(a)
        for key, value in b.items():
            if key == "properties":
                out[key] = {**out.get(key, {}), **value}
            elif key == "required" or key == "propertyOrdering":
                out[key] = list(dict.fromkeys([*out.get(key, []), *value]))
            elif key == "description" and key in out and out[key] != value:
                out[key] = f"{out[key]} {value}"
            elif key in out and out[key] != value:
                raise ValueError(
                    f"gemini parameters cannot express an allOf whose parts disagree on "
                    f"{key!r} (tool {self.name!r})"
                )
            else:
                out[key] = value
        return out

    # -- the keyword rules: each writes the keyword into node.out, or a note ------

    def values(self, key: str, value: Any, node: Converted) -> None:
        """``enum`` and ``const``: Gemini's enums are strings; other values said in words."""
        values = list(value) if key == "enum" and isinstance(value, list) else [value]
        if None in values:
            node.nullable = True
            values = [v for v in values if v is not None]
        if not values:
            return
        if all(isinstance(v, str) for v in values) and node.out.get("type", "STRING") == "STRING":
            node.out["enum"] = values
            node.out.setdefault("type", "STRING")
            return
        # a string would not parse back as the number the tool wants
        node.note("one of", values) if key == "enum" else node.note("must be", values[0])
        value_types = {next((t for c, t in _VALUE_TYPES if isinstance(v, c)), None) for v in values}
        if "type" not in node.out and len(value_types) == 1 and None not in value_types:
            node.out["type"] = value_types.pop()

    def format(self, key: str, value: Any, node: Converted) -> None:
        if value in _FORMATS.get(node.out.get("type", ""), ()):
            node.out[key] = value
        else:
            node.note(key, value)

    def examples(self, key: str, value: Any, node: Converted) -> None:
        if isinstance(value, list) and value:
            node.out["example"] = value[0]
        else:
            self.other(key, value, node)

    def default(self, key: str, value: Any, node: Converted) -> None:
        """Kept, but a null one: ``nullable`` says it, and some models refuse it."""
        if value is not None:
            node.out[key] = value

    def open_map(self, key: str, value: Any, node: Converted) -> None:
        """The values of an open map, said in words (an OBJECT takes no other keys)."""
        if isinstance(value, Mapping) and value:
            node.note("values", self.node(value, (*node.path, key)))

    # -- arrays and objects ---------------------------------------------------------

    def array(self, s: Schema, node: Converted) -> None:
        """``items``: a tuple's union, the items schema, or any value (an ARRAY needs one)."""
        if isinstance(s.get("prefixItems"), list):
            union, largest = self.positional(s, node)
            if largest is not None:
                node.out["maxItems"] = largest
            node.out.setdefault("type", "ARRAY")
            node.out["items"] = union
        elif isinstance(s.get("items"), Mapping) and s["items"]:
            node.out["items"] = self.node(s["items"], (*node.path, "items"))
        elif node.out.get("type") == "ARRAY":
            node.out["items"] = self.anything()

    def object(self, s: Schema, node: Converted) -> None:
        """``properties``, in their order; a part of an ``allOf`` may say only ``required``."""
        props = s.get("properties")
        out = node.out
        if not isinstance(props, Mapping):
            if isinstance(s.get("required"), list) and s["required"]:
                out["required"] = list(s["required"])
            return
        out.setdefault("type", "OBJECT")
        if not props:
            return
        out["properties"] = {name: self.node(p, (*node.path, name)) for name, p in props.items()}
        required = [r for r in s.get("required") or () if r in props]
        if required:
            out["required"] = required
        out["propertyOrdering"] = list(props)


_RULES: dict[str, Rule] = {
    **dict.fromkeys(
        ("type", "anyOf", "properties", "required", "items", "prefixItems", "additionalItems"),
        _Gemini.skip,
    ),
    "enum": _Gemini.values,
    "const": _Gemini.values,
    "format": _Gemini.format,
    "examples": _Gemini.examples,
    "default": _Gemini.default,
    "additionalProperties": _Gemini.open_map,
}
