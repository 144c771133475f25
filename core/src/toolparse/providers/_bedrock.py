"""Amazon Bedrock's Converse API: ``toolSpec`` tools, ``toolUse`` blocks, ``toolResult`` blocks.

The shapes are botocore's (``boto3.client("bedrock-runtime").converse``): ``to_tools`` is the
value of ``toolConfig["tools"]``, images travel as bytes.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..results import ContentPart, ImagePart, TextPart, ToolCall, ToolResult
from ._base import BuiltinProvider, NameRule, content_parts, id_maker, mapping, plain
from ._readers import BedrockEvents
from ._schema import parameters
from ._strict import strict_schema

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["BedrockProvider"]

# the content blocks of a Converse message (botocore's ContentBlock union)
_BLOCKS = frozenset(
    {"text", "image", "document", "video", "audio", "toolUse", "toolResult", "guardContent"}
    | {"cachePoint", "reasoningContent", "citationsContent", "searchResult", "toolAddition"}
    | {"toolRemoval"}
)


class BedrockProvider(BuiltinProvider):
    """The ``"bedrock"`` provider: Amazon Bedrock's Converse API."""

    name = "bedrock"
    reader = BedrockEvents
    # botocore's ToolName: pattern [a-zA-Z0-9_-]+, 1 to 64 characters
    name_rule = NameRule("bedrock")
    shapes = "a Converse response, its message, a list of content blocks or a toolUse block"
    together = "content"

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """``{"toolSpec": {name, description, inputSchema: {"json": ...}[, strict]}}``.

        Strict mode is Bedrock's structured outputs, whose schema rules are Anthropic's.
        """
        spec = self.head(function)
        if not spec.get("description", True):
            del spec["description"]  # botocore's NonEmptyString: none rather than ""
        schema = parameters(function, self.name)
        if strict:
            schema = strict_schema(schema, "anthropic", self.name, function.name)
        strict_mode = {"strict": True} if strict else {}
        return {"toolSpec": {**spec, "inputSchema": {"json": schema}, **strict_mode}}

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The ``toolUse`` blocks of a Converse response, its message, or a list of blocks."""
        data = plain(payload)
        if isinstance(data, Mapping) and isinstance(data.get("output"), Mapping):
            data = plain(data["output"].get("message"))  # the Converse response
        if isinstance(data, Mapping) and "role" in data and "content" in data:
            data = data["content"]
            if not isinstance(data, list):
                raise self.expected(payload)
        blocks = self.listed(data, payload, _is_block)
        uses: list[Any] = [mapping(block["toolUse"]) for block in blocks if "toolUse" in block]
        uses = [use for use in uses if use.get("type") != "server_tool_use"]
        make_id = id_maker("tooluse_", uses, key="toolUseId")
        return [ToolCall(make_id(u.get("toolUseId")), u.get("name"), u.get("input")) for u in uses]

    def answer(self, result: ToolResult) -> dict[str, Any]:
        """A ``toolResult`` block, ``status: "error"`` for an error (they go in one user message)."""
        block: dict[str, Any] = {
            "toolUseId": self.need_id(result),
            "content": [self._part(p) for p in content_parts(result)],
        }
        if result.is_error:
            block["status"] = "error"
        return {"toolResult": block}

    def _part(self, part: ContentPart) -> dict[str, Any]:
        if isinstance(part, TextPart):
            return {"text": part.text}
        kind = part.media_type.partition("/")[2] if isinstance(part, ImagePart) else ""
        if not isinstance(part, ImagePart) or kind not in ("png", "jpeg", "gif", "webp"):
            raise self.cannot_carry(part, "a toolResult (png, jpeg, gif or webp images)")
        if part.url:
            if not part.data.startswith("s3://"):
                raise ValueError("bedrock takes images by bytes or an s3:// location, not by URL")
            return {"image": {"format": kind, "source": {"s3Location": {"uri": part.data}}}}
        try:
            data = base64.b64decode(part.data, validate=True)
        except binascii.Error:
            raise ValueError("bedrock: an image's data must be base64") from None
        return {"image": {"format": kind, "source": {"bytes": data}}}


def _is_block(block: Mapping[str, Any]) -> bool:
    """A Converse content block: one of the union's keys, no ``type`` (other APIs' blocks)."""
    keys = {key for key, value in block.items() if value is not None}
    return "type" not in block and bool(keys) and keys <= _BLOCKS
