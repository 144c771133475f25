"""Helpers every provider format shares: names, payloads, notes, content parts."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .. import messages
from .._schemas import resolve_ref
from ..results import ContentPart, ImagePart, TextPart, ToolResult

if TYPE_CHECKING:
    from ..function import Function

__all__ = [
    "BuiltinProvider",
    "IdMaker",
    "NameRule",
    "Schema",
    "add_notes",
    "as_name",
    "cache_control",
    "content_parts",
    "expected",
    "image_data_url",
    "mapping",
    "need_id",
    "note",
    "object_root",
    "plain",
    "refuse_interrupts",
    "resolve_ref",
    "unsupported_part",
]

Schema = dict[str, Any]


class NameRule:
    """A provider's rule for tool names, and the alias a name that breaks it is exported under.

    :param provider: the provider the rule is for (named in errors).
    :param pattern: the whole-name regular expression.
    :param words: the rule in words, for error messages.
    :param invalid: a regular expression matching one character the rule does
        not allow (each becomes ``_`` in an alias).
    :param max_length: the longest name allowed.
    :param first: a regular expression the first character must match (an
        alias gets a leading ``_`` when it does not), or ``None``.
    """

    __slots__ = ("first", "invalid", "max_length", "pattern", "provider", "words")

    def __init__(
        self,
        provider: str,
        pattern: str,
        words: str,
        *,
        invalid: str = r"[^a-zA-Z0-9_-]",
        max_length: int = 64,
        first: str | None = None,
    ) -> None:
        self.provider = provider
        self.pattern = re.compile(pattern)
        self.words = words
        self.invalid = re.compile(invalid)
        self.max_length = max_length
        self.first = re.compile(first) if first is not None else None

    def _error(self, name: str, provider: str | None) -> ValueError:
        return ValueError(
            f"tool name {name!r} is not valid for {provider or self.provider} and cannot be "
            f"aliased: {self.words} (pattern {self.pattern.pattern})"
        )

    def check(self, name: str, provider: str | None = None) -> None:
        """Raise ``ValueError`` naming the rule when ``name`` breaks it."""
        if not self.pattern.fullmatch(name):
            raise ValueError(
                f"tool name {name!r} is not valid for {provider or self.provider}: "
                f"{self.words} (pattern {self.pattern.pattern})"
            )

    def alias(self, name: str, provider: str | None = None) -> str:
        """The name to export ``name`` under: itself when valid, else a readable alias.

        Every character the rule does not allow becomes ``_``; a name that
        would be too long is cut and ends in ``_`` and 8 hex digits of a hash
        of the whole name, so the alias is stable and still tells tools apart.

        :raises ValueError: no alias fits the rule (the message names the rule
            and ``provider``, default the rule's own provider).
        """
        if not isinstance(name, str) or not name:
            raise self._error(str(name), provider)
        if self.pattern.fullmatch(name):
            return name
        alias = self.invalid.sub("_", name)
        if self.first is not None and not self.first.match(alias):
            alias = "_" + alias
        if len(alias) > self.max_length:
            digest = hashlib.sha1(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
            alias = f"{alias[: self.max_length - 9]}_{digest}"
        if not self.pattern.fullmatch(alias):
            raise self._error(name, provider)
        return alias


class BuiltinProvider:
    """What every built-in provider shares: :meth:`to_tools`, names checked first."""

    name: str
    name_rule: NameRule
    #: the most tools one request may carry (``None``: no limit)
    max_tools: int | None = None

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """One tool definition in the provider's shape."""
        raise NotImplementedError

    def to_tools(self, functions: Sequence[Function], *, strict: bool | None = None) -> list[Any]:
        """One tool per function; each function's own ``strict`` applies unless ``strict`` is given.

        Refuses duplicate names, colliding aliases and (where the provider has
        a limit) too many tools.
        """
        seen: dict[str, str] = {}
        for fn in functions:
            exported = self.name_rule.alias(fn.name, self.name)
            other = seen.get(exported)
            if other is not None:
                if other == fn.name:
                    raise ValueError(f"{self.name}: {messages.duplicate_tool(fn.name)}")
                raise ValueError(messages.alias_clash(other, fn.name, self.name, exported))
            seen[exported] = fn.name
        if self.max_tools is not None and len(functions) > self.max_tools:
            raise ValueError(
                f"{self.name} accepts at most {self.max_tools} tools in one request, "
                f"got {len(functions)}"
            )
        return [
            self.to_tool(fn, strict=fn.strict if strict is None else strict) for fn in functions
        ]


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


def refuse_interrupts(results: Iterable[ToolResult]) -> None:
    """Raise ``ValueError`` for the first result that is an unresolved interrupt."""
    for result in results:
        if result.is_interrupt:
            raise ValueError(
                f"the result of call {result.tool_call_id!r} (tool {result.name!r}) is an "
                "interrupt, not an answer: resolve it first, e.g. "
                'result.resolve("The user declined."), or run the call again with the '
                "approval in the context"
            )


class IdMaker:
    """Ids for calls that came without one: unique within one response.

    An id is ``prefix`` and a number, skipping any id the response already
    uses, so a provider can tell its own ids from made-up ones when the
    result goes back.
    """

    __slots__ = ("n", "prefix", "taken")

    def __init__(self, prefix: str, calls: Iterable[Any] = (), key: str = "id") -> None:
        self.prefix = prefix
        self.n = 0
        self.taken = {
            c.get(key) for c in calls if isinstance(c, Mapping) and isinstance(c.get(key), str)
        }

    def __call__(self, given: Any) -> str:
        if isinstance(given, str) and given:
            return given
        if isinstance(given, int) and not isinstance(given, bool):
            return str(given)  # a number id (JSON-RPC): keep it, as text
        while True:
            self.n += 1
            made = f"{self.prefix}{self.n}"
            if made not in self.taken:
                self.taken.add(made)
                return made


def expected(provider: str, what: str, payload: Any) -> ValueError:
    """The error for a payload that is not of the provider's shape."""
    return ValueError(
        f"{provider}: expected {what}; got {describe(payload)}. "
        "Was this response from another provider? Pass that provider's name."
    )


def describe(payload: Any) -> str:
    """A short description of a payload's shape for an error message."""
    data = plain(payload)
    if isinstance(data, Mapping):
        keys = ", ".join(sorted(str(k) for k in data)[:8])
        kind = data.get("type") or data.get("object")
        lead = f"a {type(payload).__name__}" + (f" of type {kind!r:.40}" if kind else "")
        return f"{lead} with keys {keys or '(none)'}"
    if isinstance(data, list):
        return f"a list of {len(data)} item(s)"
    return f"a {type(payload).__name__}"


def as_name(value: Any) -> str:
    """A call's tool name as it came.

    Typed as ``str`` for :class:`~toolparse.ToolCall`; ``None`` or a
    non-string stays as it is, and ``execute_tool_calls`` answers such a call
    with an error result.
    """
    return value  # type: ignore[no-any-return]


def mapping(value: Any) -> Mapping[str, Any]:
    """``value`` as plain data when it is a mapping, else an empty one (a malformed part)."""
    data = plain(value)
    return data if isinstance(data, Mapping) else {}
