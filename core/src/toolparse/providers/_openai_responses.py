"""OpenAI Responses API: flat function tools, ``function_call`` items, ``function_call_output``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..results import ImagePart, TextPart, ToolCall, ToolResult
from ._common import (
    BuiltinProvider,
    IdMaker,
    content_parts,
    expected,
    image_data_url,
    need_id,
    plain,
    refuse_interrupts,
    unsupported_part,
)
from ._openai import MAX_TOOLS, NAME_RULE, openai_parameters

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["OpenAIResponsesProvider"]


class OpenAIResponsesProvider(BuiltinProvider):
    """The ``"openai-responses"`` provider: the Responses API."""

    name = "openai-responses"
    name_rule = NAME_RULE
    max_tools = MAX_TOOLS

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """``{"type": "function", name, description, parameters, strict}`` (flat).

        ``strict`` is always sent: when it is left out the Responses API makes
        the schema strict by itself, so optional arguments become mandatory.
        """
        tool: dict[str, Any] = {
            "type": "function",
            "name": NAME_RULE.alias(function.name, self.name),
        }
        if function.description is not None:
            tool["description"] = function.description
        tool["parameters"] = openai_parameters(function, strict, self.name)
        tool["strict"] = strict
        return tool

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The calls of a ``Response``, a list of output items, or one item.

        ``function_call`` items become calls; ``custom_tool_call`` items
        come back with ``kind="custom"`` and their raw ``input`` text as
        arguments; any other item with a ``call_id`` (a call the application
        answers, e.g. ``computer_call``) comes back with its item type as
        ``kind``. Server-side calls (web search, file search, code
        interpreter, remote MCP) and messages are skipped. The call id is
        ``call_id`` (``id`` is the item's own id).

        :raises ValueError: the payload is not of the Responses shape.
        """
        data = plain(payload)
        what = "a Response, a list of output items or one output item"
        if isinstance(data, Mapping) and "output" in data and "type" not in data:
            if data.get("object", "response") != "response" or not isinstance(
                data["output"] or [], list
            ):
                raise expected(self.name, what, payload)
            items = data["output"] or []
        elif isinstance(data, Mapping) and "type" in data:
            items = [data]
        elif isinstance(data, list):
            items = data
        else:
            raise expected(self.name, what, payload)
        items = [plain(item) for item in items]
        for item in items:
            if (
                not isinstance(item, Mapping)
                or not isinstance(item.get("type"), str)
                or item["type"] in _FOREIGN
                or (item["type"] == "message" and _foreign_message(item))
            ):
                raise expected(self.name, what, payload)
        make_id = IdMaker("call_", items, key="call_id")
        found = []
        for item in items:
            kind = item["type"]
            if kind == "function_call":
                found.append(
                    ToolCall(make_id(item.get("call_id")), item.get("name"), item.get("arguments"))
                )
            elif kind == "custom_tool_call":
                found.append(
                    ToolCall(
                        make_id(item.get("call_id")),
                        item.get("name"),
                        item.get("input"),
                        kind="custom",
                    )
                )
            elif "call_id" in item and not kind.endswith("_output"):
                # another call the application must answer (computer, shell, ...)
                arguments = item.get("arguments", item.get("input", item.get("action")))
                found.append(
                    ToolCall(
                        make_id(item.get("call_id")), item.get("name", kind), arguments, kind=kind
                    )
                )
        return found

    def to_result_message(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        """One ``{"type": "function_call_output", "call_id", "output"}`` item per result.

        The result of a custom tool call goes as a ``custom_tool_call_output``.

        Text stays a string; with images the output is a list of ``input_text``
        and ``input_image`` parts (an image part's ``options={"detail": ...}``
        is passed on).
        """
        refuse_interrupts(results)
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
                    "type": _OUTPUT_TYPES.get(result.kind) or f"{result.kind}_output",
                    "call_id": need_id(result, self.name),
                    "output": output,
                }
            )
        return items


# item types of other APIs: a list of them is not a Responses output
_FOREIGN = frozenset(
    {"function", "custom", "tool_use", "server_tool_use", "tool_result", "text", "thinking"}
)
_OUTPUT_TYPES = {"function": "function_call_output", "custom": "custom_tool_call_output"}


def _foreign_message(item: Mapping[str, Any]) -> bool:
    """An Anthropic ``Message`` (it has ``type: "message"`` too)."""
    if "stop_reason" in item or "model" in item:
        return True
    content = item.get("content")
    return isinstance(content, list) and any(
        isinstance(part, Mapping) and part.get("type") in _FOREIGN for part in map(plain, content)
    )
