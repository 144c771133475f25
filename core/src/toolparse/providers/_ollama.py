"""Ollama's chat API: OpenAI-like tools, ``tool_calls`` with arguments as an object, ``tool`` results.

The ``ollama`` package's ``Tool`` type keeps of each parameter only ``type``, ``items``,
``description`` and ``enum``: the rest is said in the parameter's description.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._schemas import resolve_ref
from ..results import ImagePart, TextPart, ToolCall, ToolResult
from ._base import MAPS, BuiltinProvider, NameRule, Schema, content_parts, id_maker, mapping, plain
from ._readers import OllamaChunks
from ._schema import Converted, parameters

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["OllamaProvider"]

# what ollama's Tool type keeps of the root and of each parameter
_ROOT = ("type", "$defs", "required", "properties")
_KEPT = frozenset({"type", "items", "description", "enum"})


class OllamaProvider(BuiltinProvider):
    """The ``"ollama"`` provider: Ollama's ``/api/chat`` (the ``ollama`` package)."""

    name = "ollama"
    reader = OllamaChunks
    # Ollama states no rule; the models it serves were taught OpenAI's, and their
    # templates' parsers expect such names
    name_rule = NameRule("ollama")
    shapes = "a ChatResponse, its message or a list of tool calls"

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """``{"type": "function", "function": {name, description, parameters}}`` (no strict mode)."""
        schema = parameters(function, self.name)
        root = {key: schema[key] for key in _ROOT if key in schema}
        props = schema.get("properties")
        if isinstance(props, Mapping):
            root["properties"] = {name: _parameter(p, schema) for name, p in props.items()}
        return {"type": "function", "function": {**self.head(function), "parameters": root}}

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The calls of a ``ChatResponse``, its message, or a list of calls (made-up ids)."""
        data = plain(payload)
        if isinstance(data, Mapping) and "message" in data and "done" in data:
            data = plain(data["message"])  # the ChatResponse
        if isinstance(data, Mapping) and data.get("role") == "assistant" and "type" not in data:
            if isinstance(data.get("content"), list):  # another API's message
                raise self.expected(payload)
            data = plain(data.get("tool_calls")) or []
        calls = self.listed(data, payload, _is_call)
        make_id = id_maker("ollama-call-", calls)
        named: list[Any] = [(c.get("id"), mapping(c["function"])) for c in calls]
        return [ToolCall(make_id(i), f.get("name"), f.get("arguments")) for i, f in named]

    def answer(self, result: ToolResult) -> dict[str, Any]:
        """``{"role": "tool", "content", "tool_name"}``: the name the model called the tool by."""
        texts: list[str] = []
        images: list[str] = []
        for part in content_parts(result):
            if isinstance(part, TextPart):
                texts.append(part.text)
            elif isinstance(part, ImagePart) and not part.url:
                images.append(part.data)
            else:
                raise self.cannot_carry(part, "a tool message (text, base64 images)")
        name = self.called_name(result)
        message: dict[str, Any] = {"role": "tool", "content": "\n".join(texts), "tool_name": name}
        if images:
            message["images"] = images
        return message


def _is_call(call: Mapping[str, Any]) -> bool:
    function = plain(call.get("function"))
    return isinstance(function, MAPS) and call.get("type", "function") == "function"


def _parameter(schema: Any, root: Schema) -> Schema:
    """One parameter as ollama's ``Property``: what it cannot keep, said in the description."""
    s = dict(schema) if isinstance(schema, Mapping) else {}
    ref = s.pop("$ref", None)
    if isinstance(ref, str):
        try:
            s = {**resolve_ref(root, ref), **s}
        except ValueError:
            s["$ref"] = ref  # said as it is
    branches = s.get("anyOf") or ()
    types = [b.get("type") for b in branches if isinstance(b, Mapping) and len(b) == 1]
    typed = types and len(types) == len(branches) and all(isinstance(t, str) for t in types)
    if "type" not in s and typed:
        s["type"] = types  # Optional[int] as ["integer", "null"]
        del s["anyOf"]
    node = Converted(())
    for key, value in s.items():
        if key in _KEPT and (key != "type" or isinstance(value, (str, list))):
            node.out[key] = value
        elif key not in ("title", "$schema"):
            node.note(key, value)
    return node.done()
