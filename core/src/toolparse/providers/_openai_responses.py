"""OpenAI Responses API: flat function tools, ``function_call`` items, ``function_call_output``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..results import ImagePart, TextPart, ToolCall, ToolResult
from ._common import (
    check_unique,
    content_parts,
    image_data_url,
    need_id,
    plain,
    unsupported_part,
)
from ._openai import NAME_RULE, openai_parameters

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["OpenAIResponsesProvider"]


class OpenAIResponsesProvider:
    """The ``"openai-responses"`` provider: the Responses API."""

    name = "openai-responses"

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """``{"type": "function", name, description, parameters, strict}`` (flat).

        ``strict`` is always sent: when it is left out the Responses API makes
        the schema strict by itself, so optional arguments become mandatory.
        """
        NAME_RULE.check(function.name)
        tool: dict[str, Any] = {"type": "function", "name": function.name}
        if function.description is not None:
            tool["description"] = function.description
        tool["parameters"] = openai_parameters(function, strict, self.name)
        tool["strict"] = strict
        return tool

    def to_tools(self, functions: Sequence[Function]) -> list[dict[str, Any]]:
        """One tool per function (at most 128, names unique)."""
        check_unique(functions, self.name, 128)
        return [self.to_tool(fn, strict=fn.strict) for fn in functions]

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The ``function_call`` items of a ``Response``, a list of items, or one item.

        The call id is ``call_id`` (``id`` is the item's own id).
        """
        data = plain(payload)
        if isinstance(data, Mapping) and "output" in data:
            items = data["output"] or []
        elif isinstance(data, Mapping) and "type" in data:
            items = [data]
        elif isinstance(data, list):
            items = data
        else:
            raise ValueError(
                "openai-responses: expected a Response, a list of output items or a "
                f"function_call item, got {type(payload).__name__}"
            )
        return [
            ToolCall(item["call_id"], item["name"], item.get("arguments"))
            for item in map(plain, items)
            if item.get("type") == "function_call"
        ]

    def to_result_message(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        """One ``{"type": "function_call_output", "call_id", "output"}`` item per result.

        Text stays a string; with images the output is a list of ``input_text``
        and ``input_image`` parts (an image part's ``options={"detail": ...}``
        is passed on).
        """
        items = []
        for result in results:
            output: str | list[dict[str, Any]]
            if isinstance(result.content, str) or result.content is None:
                output = result.content or ""
            else:
                output = []
                for part in content_parts(result):
                    if isinstance(part, TextPart):
                        output.append({"type": "input_text", "text": part.text})
                    elif isinstance(part, ImagePart):
                        image: dict[str, Any] = {
                            "type": "input_image",
                            "image_url": image_data_url(part),
                        }
                        detail = (part.options or {}).get("detail")
                        if detail is not None:
                            image["detail"] = detail
                        output.append(image)
                    else:
                        raise unsupported_part(part, self.name, "a function_call_output")
            items.append(
                {
                    "type": "function_call_output",
                    "call_id": need_id(result, self.name),
                    "output": output,
                }
            )
        return items
