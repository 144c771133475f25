"""Google Gemini: function declarations, ``functionCall`` parts, ``functionResponse`` parts.

Everything is in the REST (camelCase) spelling, which the ``google-genai`` SDK
accepts too. Tool definitions use the classic ``parameters`` field by
default: it works with every Gemini model and API version (Gemini Developer
API and Vertex AI, v1 and v1beta), where ``parametersJsonSchema`` is newer
and documented for v1beta only. ``Function.options={"parameters_json_schema":
True}`` sends JSON Schema instead (needed for recursive schemas).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..results import ImagePart, TextPart, ToolCall, ToolResult
from ._common import (
    NameRule,
    check_unique,
    content_parts,
    object_root,
    plain,
    unsupported_part,
)
from ._gemini_schema import gemini_json_schema, gemini_schema

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["GeminiProvider"]

# the rule both the Gemini Developer API and Vertex AI accept (the newest SDK
# also allows ":" and 128 characters; older Vertex docs do not)
NAME_RULE = NameRule(
    "gemini",
    r"[A-Za-z_][A-Za-z0-9_.\-]{0,63}",
    "a letter or _ first, then a-z, A-Z, 0-9, _, . and -, at most 64 characters",
)


class GeminiProvider:
    """The ``"gemini"`` provider: the Gemini API (``google-genai``)."""

    name = "gemini"

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """A ``FunctionDeclaration``: ``{name, description, parameters}``.

        ``parameters`` is left out for a tool without arguments (Gemini refuses
        an object with no properties). Gemini has no strict mode: ``strict``
        changes nothing here.
        """
        NAME_RULE.check(function.name)
        declaration: dict[str, Any] = {"name": function.name}
        if function.description is not None:
            declaration["description"] = function.description
        schema = object_root(function.json_schema(), self.name, function.name)
        if (function.options or {}).get("parameters_json_schema"):
            declaration["parametersJsonSchema"] = gemini_json_schema(schema)
        else:
            parameters = gemini_schema(schema, function.name)
            if parameters is not None:
                declaration["parameters"] = parameters
        return declaration

    def to_tools(self, functions: Sequence[Function]) -> list[dict[str, Any]]:
        """``[{"functionDeclarations": [...]}]``: the value of the request's ``tools``."""
        check_unique(functions, self.name, None)
        if not functions:
            return []
        return [{"functionDeclarations": [self.to_tool(fn, strict=fn.strict) for fn in functions]}]

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The ``functionCall`` parts of a response, a ``Content``, or a list of parts.

        Of a response, the first candidate is read. A call without an ``id``
        gets its name as id. Whole-number floats in the arguments become ints
        (the arguments travel as a protobuf ``Struct``, where every number is a
        float), as the SDK itself does.
        """
        data = plain(payload)
        if isinstance(data, Mapping) and "candidates" in data:
            candidates = data["candidates"] or []
            data = plain(candidates[0]).get("content") if candidates else None
            data = data or {"parts": []}
        elif isinstance(data, Mapping) and "content" in data and "parts" not in data:
            data = plain(data["content"]) or {"parts": []}  # a Candidate
        if isinstance(data, Mapping) and "parts" in data:
            parts = data["parts"] or []
        elif isinstance(data, Mapping):
            parts = [data]
        elif isinstance(data, list):
            parts = data
        else:
            raise ValueError(
                "gemini: expected a GenerateContentResponse, a Content, a list of parts "
                f"or a function call, got {type(payload).__name__}"
            )
        calls = []
        for part in map(plain, parts):
            call = part.get("functionCall") or part.get("function_call")
            if call is None and "name" in part and "args" in part:
                call = part  # a FunctionCall itself
            if not call:
                continue
            name = call["name"]
            calls.append(ToolCall(call.get("id") or name, name, _whole(call.get("args") or {})))
        return calls

    def to_result_message(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        """One ``user`` ``Content`` with a ``functionResponse`` part per result.

        The text goes in ``response.output`` (``response.error`` when
        ``is_error``), as the Gemini docs ask; images go in the response's
        ``parts`` (``inlineData`` for base64, ``fileData`` for a URL).
        """
        parts = []
        for result in results:
            if not result.name:
                raise ValueError("gemini: a function response needs the tool name")
            texts: list[str] = []
            media: list[dict[str, Any]] = []
            for part in content_parts(result):
                if isinstance(part, TextPart):
                    texts.append(part.text)
                elif isinstance(part, ImagePart):
                    if part.url:
                        media.append(
                            {"fileData": {"mimeType": part.media_type, "fileUri": part.data}}
                        )
                    else:
                        media.append(
                            {"inlineData": {"mimeType": part.media_type, "data": part.data}}
                        )
                else:
                    raise unsupported_part(part, self.name, "a function response")
            response: dict[str, Any] = {
                "name": result.name,
                "response": {"error" if result.is_error else "output": "".join(texts)},
            }
            # a call without an id was given its name as id: send none back
            if result.tool_call_id and result.tool_call_id != result.name:
                response = {"id": result.tool_call_id, **response}
            if media:
                response["parts"] = media
            parts.append({"functionResponse": response})
        return [{"role": "user", "parts": parts}]


def _whole(value: Any) -> Any:
    """``value`` with whole-number floats turned into ints, at every level."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Mapping):
        return {k: _whole(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole(v) for v in value]
    return value
