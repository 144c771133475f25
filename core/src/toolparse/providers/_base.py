"""The base of the built-in providers: tool-name rules, reading payloads, writing results."""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .. import messages
from ..results import ContentPart, TextPart, ToolResult

if TYPE_CHECKING:
    from ..function import Function

__all__ = [
    "MAPS",
    "BuiltinProvider",
    "NameRule",
    "Schema",
    "content_parts",
    "described",
    "id_maker",
    "mapping",
    "plain",
    "refuse_interrupts",
]

Schema = dict[str, Any]
MAPS = (dict, Mapping)  #: for ``isinstance``: a dict decided by its type, before the slow ABC


class NameRule:
    """A provider's rule for tool names, and the alias a name that breaks it is exported under.

    :param provider: the provider the rule is for (named in errors).
    :param pattern: the whole-name regular expression (default: OpenAI's, which Anthropic,
        Bedrock and Ollama share: 1 to 64 of a-z, A-Z, 0-9, ``_`` and ``-``).
    :param words: the rule in words, for error messages (default: that rule's).
    :param invalid: a regular expression matching one character the rule does not allow (each
        becomes ``_`` in an alias).
    :param max_length: the longest name allowed.
    :param first: a regular expression the first character must match (an alias gets a leading
        ``_`` when it does not), or ``None``.
    """

    __slots__ = ("first", "invalid", "max_length", "pattern", "provider", "words")

    def __init__(
        self,
        provider: str,
        pattern: str = r"[a-zA-Z0-9_-]{1,64}",
        words: str = "1 to 64 of a-z, A-Z, 0-9, _ and -",
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

    def _error(self, name: str, provider: str | None, why: str = "") -> ValueError:
        return ValueError(
            f"tool name {name!r} is not valid for {provider or self.provider}{why}: "
            f"{self.words} (pattern {self.pattern.pattern})"
        )

    def check(self, name: str, provider: str | None = None) -> None:
        """Raise ``ValueError`` naming the rule when ``name`` breaks it."""
        if not self.pattern.fullmatch(name):
            raise self._error(name, provider)

    def alias(self, name: str, provider: str | None = None) -> str:
        """The name to export ``name`` under: itself when valid, else a readable alias.

        Every character the rule does not allow becomes ``_``; a name that would be too long is
        cut and ends in ``_`` and 8 hex digits of a hash of the whole name, so the alias is
        stable and still tells tools apart.

        :raises ValueError: no alias fits the rule (the message names the rule and ``provider``,
            default the rule's own provider).
        """
        if not isinstance(name, str) or not name:
            raise self._error(str(name), provider, " and cannot be aliased")
        if self.pattern.fullmatch(name):
            return name
        alias = self.invalid.sub("_", name)
        if self.first is not None and not self.first.match(alias):
            alias = "_" + alias
        if len(alias) > self.max_length:
            digest = hashlib.sha1(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
            alias = f"{alias[: self.max_length - 9]}_{digest}"
        if not self.pattern.fullmatch(alias):
            raise self._error(name, provider, " and cannot be aliased")
        return alias


class BuiltinProvider:
    """What every built-in provider shares: names checked first, payloads read, results answered."""

    name: str
    name_rule: NameRule
    #: the most tools one request may carry (``None``: no limit)
    max_tools: int | None = None
    #: the longest description accepted (``None``: no limit)
    max_description: int | None = None
    #: the shapes :meth:`parse_tool_calls` reads, for the error about any other
    shapes: str
    #: the key of the one ``user`` message all answers go in (``None``: one message each)
    together: str | None = None
    #: the class of the reader of one streamed response (``None``: no stream)
    reader: Callable[[], Any] | None = None

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """One tool definition in the provider's shape."""
        raise NotImplementedError

    def head(self, function: Function) -> dict[str, Any]:
        """``{name[, description]}``: the name the tool is exported under, its description."""
        tool: dict[str, Any] = {"name": self.name_rule.alias(function.name, self.name)}
        description = function.description
        if description is not None:
            if self.max_description is not None and len(description) > self.max_description:
                raise ValueError(
                    f"{self.name}: the description of tool {function.name!r} has "
                    f"{len(description)} characters; at most {self.max_description} are accepted"
                )
            tool["description"] = description
        return tool

    def to_tools(self, functions: Sequence[Function], *, strict: bool | None = None) -> list[Any]:
        """One tool per function, each with its own ``strict`` unless ``strict`` is given."""
        seen: dict[str, str] = {}
        for fn in functions:
            exported = self.name_rule.alias(fn.name, self.name)
            other = seen.get(exported)
            if other == fn.name:
                raise ValueError(f"{self.name}: {messages.duplicate_tool(fn.name)}")
            if other is not None:
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

    def to_result_message(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        """The message(s) that carry these results back (an interrupt is refused)."""
        refuse_interrupts(results)
        answers = [self.answer(result) for result in results]
        return [{"role": "user", self.together: answers}] if self.together else answers

    def answer(self, result: ToolResult) -> dict[str, Any]:
        """One result in the provider's shape."""
        raise NotImplementedError

    def stream(self) -> Any:
        """A reader of one streamed response, for :class:`ToolCallStream` (see ``_readers``)."""
        if self.reader is None:
            raise ValueError(
                f"{self.name} has no stream of tool calls: each call arrives whole; "
                "pass it to parse_tool_calls"
            )
        return self.reader()

    def called_name(self, result: ToolResult) -> str:
        """The name the tool was exported under, for a provider that answers by name."""
        try:
            return self.name_rule.alias(result.name or "")
        except ValueError:  # no alias fits; a call that named no tool is answered under no name
            return result.name if isinstance(result.name, str) else ""

    def expected(self, payload: Any) -> ValueError:
        """The error for a payload that is not of the provider's shape (its shape described)."""
        return ValueError(
            f"{self.name}: expected {self.shapes}; got {described(payload)}. "
            "Was this response from another provider? Pass that provider's name."
        )

    def each(self, items: Any, payload: Any, fits: Callable[[Mapping[str, Any]], bool]) -> Any:
        """``items`` as a list of plain mappings that each ``fits``, else the payload is refused."""
        if not isinstance(items, (list, tuple)):  # (``"parts": true`` is no list of parts)
            raise self.expected(payload)
        found = []
        for item in map(plain, items):  # (a loop: before 3.12 a comprehension is a call of its own)
            if not (isinstance(item, MAPS) and fits(item)):
                raise self.expected(payload)
            found.append(item)
        return found

    def listed(self, data: Any, payload: Any, fits: Callable[[Mapping[str, Any]], bool]) -> Any:
        """``data``, one item that ``fits`` or a list of them, as a list (else refused)."""
        items = data if isinstance(data, list) else (data,) if isinstance(data, MAPS) else None
        return self.each(items, payload, fits)  # (a list first: the ABC is slow to say no)

    def cannot_carry(self, part: ContentPart, where: str) -> ValueError:
        """The error for a content part the provider cannot carry ``where``."""
        return ValueError(f"{self.name} cannot carry {type(part).__name__} in {where}")

    def need_id(self, result: ToolResult) -> str:
        """The result's ``tool_call_id``; the provider cannot match it without one."""
        if not result.tool_call_id:
            raise ValueError(
                f"{self.name}: the result of {result.name!r} has no tool_call_id; "
                "it cannot be matched to its call"
            )
        return result.tool_call_id


def described(payload: Any) -> str:
    """What ``payload`` is, for an error: its kind, and a mapping's type and first keys."""
    data = plain(payload)
    got = messages.a_kind(payload)
    if isinstance(data, Mapping):
        keys = ", ".join(sorted(str(k) for k in data)[:8])
        kind = data.get("type") or data.get("object")
        got += (f" of type {kind!r:.40}" if kind else "") + f" with keys {keys or '(none)'}"
    elif isinstance(data, list):
        got = f"a list of {len(data)} item(s)"
    return got


def plain(payload: Any) -> Any:
    """A response as plain data: SDK objects dumped (duck typed: no SDK imported), lists by item."""
    if type(payload) is dict:  # the common case, decided before looking for model_dump
        return payload
    dump = getattr(payload, "model_dump", None)
    if dump is not None and not isinstance(payload, type):
        try:
            return dump(warnings=False)
        except TypeError:  # a model_dump without the keyword (pydantic v1 style)
            return dump()
    if isinstance(payload, (list, tuple)):
        return [plain(item) for item in payload]
    return payload


def mapping(value: Any) -> Mapping[str, Any]:
    """``value`` as plain data when it is a mapping, else an empty one (a malformed part)."""
    data = plain(value)  # (a dict is returned at once)
    return data if isinstance(data, MAPS) else {}


def id_maker(prefix: str, calls: Sequence[Any] = (), key: str = "id") -> Callable[[Any], str]:
    """Ids for calls without one, ``prefix`` and a number not in ``calls``: unique in a response.

    ``calls`` is read only when an id is first made up, so it must be a sequence, not a stream.
    """
    taken: set[Any] = set()
    numbers = itertools.count(1)

    def make(given: Any) -> str:
        if isinstance(given, str) and given:
            return given
        if isinstance(given, int) and not isinstance(given, bool):
            return str(given)  # a number id (JSON-RPC): keep it, as text
        if not taken:  # read when the first id is made up (most calls come with one)
            ids = (c.get(key) for c in calls if isinstance(c, MAPS))
            taken.update(i for i in ids if isinstance(i, str))
        made = next(name for n in numbers if (name := f"{prefix}{n}") not in taken)
        taken.add(made)
        return made

    return make


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
