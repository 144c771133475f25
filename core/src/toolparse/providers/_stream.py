"""The assembly behind :class:`toolparse.providers.ToolCallStream`.

A provider's reader (``_readers``) hands each finished call, in the provider's response shape, to
the :class:`Assembly`, which reads it with ``parse_tool_calls``: a streamed call is a parsed one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .. import messages
from ..results import ToolCall
from ._base import described, plain

if TYPE_CHECKING:
    from ..function import Function
    from ..messages import NameIndex

__all__ = ["Assembly", "PendingCall"]


class PendingCall:
    """A call being written: ``id``, ``name`` (the tool's own), ``arguments_text`` (so far)."""

    __slots__ = ("_keys", "_scan", "exported", "id", "kind", "name", "parts", "start")

    def __init__(self, call_id: Any, exported: Any, name: Any, kind: str, start: Any) -> None:
        self.id: str | None = call_id if isinstance(call_id, str) and call_id else None
        #: the name as the model sent it; the provider's kind of call; what its first event had
        self.exported: str | None = exported if isinstance(exported, str) and exported else None
        self.name: str | None = name if self.exported else None
        self.kind, self.start, self.parts = kind, start, list[str]()
        self._keys: list[str] = []
        # offset, depth, in a string, escaped, where a top-level key starts, a key expected
        self._scan: list[Any] = [0, 0, False, False, -1, False]

    @property
    def arguments_text(self) -> str:
        """The arguments' JSON text received so far."""
        if len(self.parts) > 1:
            self.parts[:] = ["".join(self.parts)]
        return self.parts[0] if self.parts else ""

    def keys(self) -> list[str]:
        """The top-level keys whose names are complete (only the text new since the last scan)."""
        text = self.arguments_text
        at, depth, quoted, escaped, key_at, want_key = self._scan
        top_object = text.lstrip()[:1] == "{"
        for i in range(at, len(text)):
            ch = text[i]
            if quoted:
                if escaped or ch == "\\":
                    escaped = not escaped
                elif ch == '"':
                    quoted = False
                    if key_at >= 0:
                        try:
                            self._keys.append(json.loads(text[key_at : i + 1]))
                        except ValueError:
                            pass  # no JSON text: the call will be told so
                        key_at = -1
            elif ch == '"':
                quoted, key_at, want_key = True, (i if want_key else -1), False
            elif ch in "{[":
                depth += 1
                want_key = depth == 1 and ch == "{"
            elif ch in "}]":
                depth -= 1
            elif ch == "," and depth == 1:
                want_key = top_object
        self._scan = [len(text), depth, quoted, escaped, key_at, want_key]
        return self._keys


class Assembly:
    """What a reader drives: the calls being written by the provider's key, and those finished.

    ``parse``: the provider's ``parse_tool_calls`` (names routed back); ``routes``: alias → name.
    """

    def __init__(
        self, provider: Any, parse: Callable[[list[Any]], list[ToolCall]], routes: Mapping[str, str]
    ) -> None:
        self.name, self.reader = provider.name, provider.stream()
        self.parse, self.routes = parse, routes
        self.open: dict[Any, PendingCall] = {}
        self.items: list[Any] = []  # every finished call, as an item of the response
        self.done: list[ToolCall] = []
        self.found = 0

    def feed(self, event: Any) -> list[ToolCall]:
        """Read one event (the SDK's object or its dict); the calls it completed."""
        data = plain(event)
        if not (isinstance(data, Mapping) and self.reader.feed(data, self)):
            raise ValueError(
                f"{self.name}: expected a stream event of this provider; got {described(event)}."
                " Was this stream from another provider? Pass that provider's name."
            )
        return self.flush()

    def start(self, key: Any, call_id: Any, name: Any, kind: str = "", start: Any = None) -> None:
        """A call starts at ``key`` (an index), with its id and name as far as they were sent."""
        routed = self.routes.get(name, name) if isinstance(name, str) else None
        self.open[key] = PendingCall(call_id, name, routed, kind, start)

    def add(self, key: Any, text: Any) -> None:
        """More of the arguments' text of the call at ``key`` (none open there: ignored)."""
        call = self.open.get(key)
        if call is not None and isinstance(text, str) and text:
            call.parts.append(text)

    def finish(self, key: Any) -> None:
        """The call at ``key``, if any, is complete."""
        call = self.open.pop(key, None)
        if call is not None:
            self.whole(self.reader.item(call))

    def finish_all(self) -> None:
        """Every open call is complete, in the order they started."""
        for key in list(self.open):
            self.finish(key)

    def whole(self, item: Any) -> None:
        """A finished call, as one item of the provider's response."""
        self.items.append(item)
        # read with the items before it: made-up ids are those of the whole response
        calls = self.parse(self.items)
        self.done += calls[self.found :]
        self.found = len(calls)

    def flush(self) -> list[ToolCall]:
        """The calls finished since the last flush."""
        done, self.done = self.done, []
        return done

    def problems(
        self,
        functions: Any,
        aliases: list[dict[str, str]],
        names: Callable[[ToolCall], list[str] | NameIndex],
    ) -> list[str]:
        """What is certain to be wrong with the open calls (``aliases``: alias → name, by rule)."""
        tools = {fn.name: fn for fn in functions}
        table = {alias: tools[name] for found in aliases for alias, name in found.items()} | tools
        found: list[str] = []
        for call in self.open.values():
            fn = table.get(call.exported or "")
            if fn is None and call.exported is not None:
                asked = ToolCall(call.id or "", call.exported)
                asked._provider = self.name
                found.append(messages.unknown_tool(call.exported, names(asked)))
            elif fn is not None and fn.parse_args is None and fn.unknown_arguments != "ignore":
                found += _refused(fn, call.keys())
        return found


def _refused(fn: Function, keys: list[str]) -> list[str]:
    """The core's message for the keys ``fn`` would refuse, if any: its own policy decides."""
    policy = fn._plan_.policy
    found = policy.flagged(dict.fromkeys(keys))
    return [messages.unrecognized_only(found, policy.accepted)] if found else []
