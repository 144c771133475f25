"""Helpers every provider format shares: names, payloads, notes, content parts."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._nulls import resolve_ref
from ..results import ContentPart, ImagePart, TextPart, ToolResult

if TYPE_CHECKING:
    from ..function import Function

__all__ = [
    "NameRule",
    "Schema",
    "add_notes",
    "cache_control",
    "check_unique",
    "content_parts",
    "image_data_url",
    "need_id",
    "note",
    "object_root",
    "plain",
    "resolve_ref",
    "unsupported_part",
]

Schema = dict[str, Any]


class NameRule:
    """A provider's rule for tool names: a regular expression, in words too."""

    __slots__ = ("pattern", "provider", "words")

    def __init__(self, provider: str, pattern: str, words: str) -> None:
        self.provider = provider
        self.pattern = re.compile(pattern)
        self.words = words

    def check(self, name: str) -> None:
        """Raise ``ValueError`` naming the rule when ``name`` breaks it."""
        if not self.pattern.fullmatch(name):
            raise ValueError(
                f"tool name {name!r} is not valid for {self.provider}: {self.words} "
                f"(pattern {self.pattern.pattern})"
            )


def check_unique(functions: Sequence[Function], provider: str, limit: int | None) -> None:
    """Refuse duplicate names and (where the provider has one) too many tools."""
    seen: set[str] = set()
    for fn in functions:
        if fn.name in seen:
            raise ValueError(f"{provider}: two tools are named {fn.name!r}; names must be unique")
        seen.add(fn.name)
    if limit is not None and len(functions) > limit:
        raise ValueError(
            f"{provider} accepts at most {limit} tools in one request, got {len(functions)}"
        )


def object_root(schema: Schema, provider: str, name: str) -> Schema:
    """The parameters schema with an object root, as every provider wants it.

    Fills in ``type: "object"`` when only ``properties`` says so; refuses a
    root of any other type.
    """
    kind = schema.get("type")
    if kind is None and "properties" in schema:
        schema = {"type": "object", **schema}
    elif kind != "object" and kind != ["object"]:
        raise ValueError(
            f"{provider}: the parameters of tool {name!r} must be a JSON Schema of "
            f'type "object", got type {kind!r}'
        )
    elif kind == ["object"]:
        schema = {**schema, "type": "object"}
    return schema


def plain(payload: Any) -> Any:
    """A response as plain data: SDK objects (pydantic models) are dumped.

    Duck typed on ``model_dump`` so that no SDK is imported; lists of SDK
    objects are dumped item by item.
    """
    dump = getattr(payload, "model_dump", None)
    if dump is not None and not isinstance(payload, type):
        try:
            return dump(warnings=False)
        except TypeError:  # a model_dump without the keyword (pydantic v1 style)
            return dump()
    if isinstance(payload, (list, tuple)):
        return [plain(item) for item in payload]
    return payload


def need_id(result: ToolResult, provider: str) -> str:
    """The result's ``tool_call_id``; the provider cannot match it without one."""
    if not result.tool_call_id:
        raise ValueError(
            f"{provider}: the result of {result.name!r} has no tool_call_id; "
            "it cannot be matched to its call"
        )
    return result.tool_call_id


def content_parts(result: ToolResult) -> list[ContentPart]:
    """A result's content as a list of parts (text becomes one text part)."""
    content = result.content
    if content is None or content == "":
        return []
    if isinstance(content, str):
        return [TextPart(content)]
    if isinstance(content, (list, tuple)) and all(isinstance(p, ContentPart) for p in content):
        return list(content)
    raise TypeError(
        f"the content of the result of {result.name!r} must be a str or a list of "
        f"content parts, got {type(content).__name__}"
    )


def unsupported_part(part: ContentPart, provider: str, where: str) -> ValueError:
    """The error for a content part a provider cannot carry."""
    return ValueError(f"{provider} cannot carry {type(part).__name__} in {where}")


def image_data_url(part: ImagePart) -> str:
    """An image as a URL: its own, or a ``data:`` URL of its base64 bytes."""
    return part.data if part.url else f"data:{part.media_type};base64,{part.data}"


def cache_control(value: Any, where: str) -> dict[str, Any] | None:
    """Anthropic's ``cache_control`` from an option value.

    ``True`` → ``{"type": "ephemeral"}``; ``"5m"``/``"1h"`` → that TTL; a
    mapping passes through; ``False``/``None`` → none.
    """
    if value is None or value is False:
        return None
    if value is True:
        return {"type": "ephemeral"}
    if value in ("5m", "1h"):
        return {"type": "ephemeral", "ttl": value}
    if isinstance(value, Mapping) and value.get("type") == "ephemeral":
        return dict(value)
    raise ValueError(
        f'{where}: cache_control must be True, "5m", "1h" or a mapping with '
        f'type "ephemeral", got {value!r:.60}'
    )


def add_notes(schema: Schema, notes: Iterable[str]) -> None:
    """Append what a format cannot express to the description, in words.

    The parser still enforces every keyword; the note keeps the model informed.
    """
    notes = list(notes)
    if not notes:
        return
    text = "(" + "; ".join(notes) + ")"
    base = schema.get("description")
    schema["description"] = f"{base} {text}" if base else text


def note(key: str, value: Any) -> str:
    """One keyword as a note: ``format: uri``, ``uniqueItems: true``."""
    if isinstance(value, str):
        return f"{key}: {value}"
    return f"{key}: {json.dumps(value, ensure_ascii=False, separators=(', ', ': '))}"
