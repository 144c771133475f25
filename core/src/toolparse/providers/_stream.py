"""Tool calls assembled from a streamed response, each returned as soon as it is complete.

A provider's reader (its ``stream()``, see ``_readers``) knows when a call starts, grows and is
complete in its events, and hands each finished call, in the provider's response shape, to the
one :class:`Assembly`, which reads it with ``parse_tool_calls``: a streamed call is a parsed one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .. import messages
from ._base import plain

if TYPE_CHECKING:
    from ..function import Function
    from ..results import ToolCall
    from . import Provider

__all__ = ["Assembly", "PendingCall", "ToolCallStream"]


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
    """What a reader drives: the calls being written by the provider's key, and those finished."""

    def __init__(self, provider: Provider, functions: Any, routes: Mapping[str, str]) -> None:
        self.provider, self.functions, self.routes = provider, functions, routes
        self.reader = provider.stream()  # type: ignore[attr-defined]
        self.open: dict[Any, PendingCall] = {}
        self.items: list[Any] = []  # every finished call, as an item of the response
        self.done: list[ToolCall] = []
        self.found = 0

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
        from . import parse_tool_calls

        self.items.append(item)
        # read with the items before it: made-up ids are those of the whole response
        calls = parse_tool_calls(self.items, self.provider, self.functions)
        self.done += calls[self.found :]
        self.found = len(calls)


class ToolCallStream:
    """Tool calls assembled from a streamed response, each as soon as its provider completes it.

    ``feed`` each stream event or chunk (the SDK's object or its dict) as it arrives: it returns
    the calls that event completed; ``close()`` at the end returns those still open. The calls
    equal what :func:`parse_tool_calls` gives for the whole response (the same ids, made-up ones
    included; names routed back from aliases when ``functions`` are given). One per response.

    :param provider: the provider's name (``"openai"``, ``"anthropic"``, ...) or object.
    :param functions: the tools offered (Functions or a Toolset): names are routed back, and
        :meth:`early_problems` can tell an unknown tool or argument before a call is complete.
    :raises ValueError: the provider does not stream tool calls (``"mcp"``).
    """

    __slots__ = ("_calls", "_table")

    def __init__(
        self, provider: str | Provider, functions: Iterable[Function] | None = None
    ) -> None:
        from .._aliases import alias_routes
        from . import _exported_names, _provider

        fns = (
            functions if functions is None or hasattr(functions, "_names_for") else list(functions)
        )
        first = next(iter(fns or ()), None)
        found = _provider(provider, None if first is None else first._pm)
        if not hasattr(found, "stream"):
            raise ValueError(f"provider {found.name!r} has no stream reader (stream())")
        rule = getattr(found, "name_rule", None)
        routes = {} if fns is None or rule is None else _exported_names(fns, found.name, rule)
        self._calls = Assembly(found, fns, routes)
        # what execute_tool_calls would run: a tool by its name, or by any provider's alias
        self._table = None if fns is None else {**alias_routes(fns), **{f.name: f for f in fns}}

    def feed(self, event: Any) -> list[ToolCall]:
        """Read one stream event or chunk; the calls it completed, in order.

        :raises ValueError: the event is not one of this provider's stream events.
        """
        data = plain(event)
        if not (isinstance(data, Mapping) and self._calls.reader.feed(data, self._calls)):
            keys = ", ".join(sorted(map(str, data))[:8]) if isinstance(data, Mapping) else ""
            raise ValueError(
                f"{self._calls.provider.name}: expected a stream event of this provider; got a "
                f"{type(event).__name__}{f' with keys {keys}' if keys else ''}. Was this stream "
                "from another provider? Pass that provider's name."
            )
        return self._flush()

    def close(self) -> list[ToolCall]:
        """The calls still open at the end (a call cut off, as it was received)."""
        self._calls.finish_all()
        return self._flush()

    @property
    def pending(self) -> list[PendingCall]:
        """The calls still being written, in the order they started."""
        return list(self._calls.open.values())

    def early_problems(self) -> list[str]:
        """What is already certain to be wrong with the calls being written, as the model is told.

        A tool that is not offered; a complete top-level key the tool would refuse (any unknown
        key under ``unknown_arguments="reject"``, one that looks like a typo of a name not sent
        yet under ``"report"``). Empty without ``functions``.
        """
        from ..results import ToolCall
        from . import _callable_names

        problems: list[str] = []
        for call in self._calls.open.values() if self._table is not None else ():
            fn = self._table.get(call.exported or "")  # type: ignore[union-attr]
            if fn is None and call.exported is not None:
                asked = ToolCall(call.id or "", call.exported)
                asked._provider = self._calls.provider.name
                available = _callable_names(self._calls.functions, asked)
                problems.append(messages.unknown_tool(call.exported, available))
            elif fn is not None and fn.parse_args is None and fn.unknown_arguments != "ignore":
                problems += _refused(fn, call.keys())
        return problems

    def _flush(self) -> list[ToolCall]:
        done, self._calls.done = self._calls.done, []
        return done


def _refused(fn: Function, keys: list[str]) -> list[str]:
    """The core's message for the keys ``fn`` would refuse, if any."""
    accepted = fn.accepted_param_names()
    found = messages.suggestions([k for k in keys if k not in accepted], accepted, keys)
    if fn.unknown_arguments == "report":
        found = {name: hint for name, hint in found.items() if hint is not None}
    return [messages.unrecognized_only(found, accepted)] if found and accepted else []
