"""Google Gemini: function declarations, ``functionCall`` parts, ``functionResponse`` parts.

Everything is in the REST (camelCase) spelling, which the ``google-genai`` SDK accepts too. Tools
use the classic ``parameters`` field by default: it works with every Gemini model and API version
(Developer API and Vertex AI, v1 and v1beta), where ``parametersJsonSchema`` is newer and
documented for v1beta only. ``Function.options={"parameters_json_schema": True}`` sends JSON
Schema instead (needed for recursive schemas).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..results import ImagePart, TextPart, ToolCall, ToolResult
from ._base import BuiltinProvider, NameRule, content_parts, id_maker, mapping, plain
from ._gemini_schema import gemini_json_schema, gemini_schema
from ._schema import parameters

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["GENERATED_ID", "GeminiProvider"]

#: The prefix of the ids given to calls that came without one.
GENERATED_ID = "gemini-call-"

# the rule both the Gemini Developer API and Vertex AI accept (the newest SDK
# also allows ":" and 128 characters; older Vertex docs do not)
NAME_RULE = NameRule(
    "gemini",
    r"[A-Za-z_][A-Za-z0-9_.\-]{0,63}",
    "a letter or _ first, then a-z, A-Z, 0-9, _, . and -, at most 64 characters",
    invalid=r"[^A-Za-z0-9_.\-]",
    first=r"[A-Za-z_]",
)


class GeminiProvider(BuiltinProvider):
    """The ``"gemini"`` provider: the Gemini API (``google-genai``)."""

    name = "gemini"
    name_rule = NAME_RULE
    shapes = "a GenerateContentResponse, a Candidate, a Content, a list of parts or a part"
    together = "parts"

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """A ``FunctionDeclaration``: ``{name, description, parameters}`` (no strict mode)."""
        declaration = self.head(function)
        schema = parameters(function, self.name)
        if (function.options or {}).get("parameters_json_schema"):
            declaration["parametersJsonSchema"] = gemini_json_schema(schema)
        else:
            declared = gemini_schema(schema, function.name)
            if declared is not None:
                declaration["parameters"] = declared
        return declaration

    def to_tools(
        self, functions: Sequence[Function], *, strict: bool | None = None
    ) -> list[dict[str, Any]]:
        """``[{"functionDeclarations": [...]}]``: the value of the request's ``tools``."""
        declarations = super().to_tools(functions, strict=strict)
        return [{"functionDeclarations": declarations}] if declarations else []

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The ``functionCall`` parts of a response (first candidate), a ``Content`` or parts."""
        data = plain(payload)
        if isinstance(data, Mapping) and "candidates" in data:
            candidates = data["candidates"] or []
            if not isinstance(candidates, list):
                raise self.expected(payload)
            data = mapping(candidates[0]).get("content") if candidates else None
            data = plain(data) or {"parts": []}
        elif (
            isinstance(data, Mapping)
            and isinstance(plain(data.get("content")), Mapping)
            and "parts" not in data
        ):
            data = plain(data["content"]) or {"parts": []}  # a Candidate
        if isinstance(data, Mapping) and "parts" in data and "type" not in data:
            parts = self.each(data["parts"] or [], payload, _is_part)
        else:
            parts = self.listed(data, payload, _is_part)
        found: list[Any] = []
        for part in parts:
            call = plain(part.get("functionCall") or part.get("function_call"))
            if call is None and "name" in part and "args" in part:
                call = part  # a FunctionCall itself
            if isinstance(call, Mapping):
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
        try:  # the name the tool was declared under
            name = NAME_RULE.alias(result.name or "")
        except ValueError:  # no alias fits; a call that named no tool is answered under no name
            name = result.name if isinstance(result.name, str) else ""
        response: dict[str, Any] = {
            "name": name,
            "response": {"error" if result.is_error else "output": "\n".join(texts)},
        }
        # an id made up for a call that came without one: none back, Gemini matches by order
        if result.tool_call_id and not result.tool_call_id.startswith(GENERATED_ID):
            response = {"id": result.tool_call_id, **response}
        if media:
            response["parts"] = media
        return {"functionResponse": response}


def _whole(value: Any) -> Any:
    """``value`` with whole-number floats as ints (a protobuf ``Struct`` has only floats)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Mapping):
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
