"""Tool calls assembled from a streamed response, each returned as soon as it is complete.

Each provider has a small reader (its ``stream()``) that knows the provider's events: when a call
starts, when its arguments grow, when it is complete. The reader hands each finished call, in
the provider's own response shape, to the one :class:`Assembly` shared by all; the assembly reads
it with the provider's ``parse_tool_calls``, so a streamed call equals the parsed one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from .. import messages
from ._base import plain

if TYPE_CHECKING:
    from ..function import Function
    from ..results import ToolCall
    from . import Provider

__all__ = ["Assembly", "PendingCall", "StreamReader", "ToolCallStream"]


class PendingCall:
    """A tool call still being written.

    ``id`` and ``name`` are ``None`` until the provider sent them; ``name`` is the tool's own name
    (a call made under an alias is shown under the tool's name); ``arguments_text`` is the JSON
    text of the arguments so far.
    """

    __slots__ = ("_keys", "_parts", "_scan", "exported", "id", "kind", "name", "start")

    def __init__(self, call_id: Any, exported: Any, kind: str, start: Any) -> None:
        self.id: str | None = call_id if isinstance(call_id, str) and call_id else None
        #: the name as the model sent it, and the tool's own name
        self.exported: str | None = exported if isinstance(exported, str) and exported else None
        self.name: str | None = self.exported
        #: the provider's kind of call and what its first event carried (the reader's own)
        self.kind, self.start = kind, start
        self._parts: list[str] = []
        self._keys: list[str] = []
        # [offset, depth, in string, escaped, where a top-level key starts, key expected]
        self._scan: list[Any] = [0, 0, False, False, -1, False]

    @property
    def arguments_text(self) -> str:
        """The arguments' JSON text received so far."""
        if len(self._parts) > 1:
            self._parts[:] = ["".join(self._parts)]
        return self._parts[0] if self._parts else ""

    def __repr__(self) -> str:
        return f"PendingCall({self.id!r}, {self.name!r}, {self.arguments_text!r})"

    def keys(self) -> list[str]:
        """The top-level keys of the arguments whose names are complete (a scan of the new text)."""
        text = self.arguments_text
        at, depth, quoted, escaped, key_at, want_key = self._scan
        top_object = text.lstrip()[:1] == "{"
        for i in range(at, len(text)):
            ch = text[i]
            if quoted:
                if escaped:
                    escaped = False
                elif ch == "\\":
                    escaped = True
                elif ch == '"':
                    quoted = False
                    if key_at >= 0:
                        try:
                            self._keys.append(json.loads(text[key_at : i + 1]))
                        except ValueError:
                            pass  # not JSON text: the parser will say so
                        key_at = -1
            elif ch == '"':
                quoted = True
                key_at, want_key = (i if want_key else -1), False
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
    """The calls of one streamed response: those being written, and those finished."""

    __slots__ = ("done", "found", "items", "open", "reader", "stream")

    def __init__(self, stream: ToolCallStream, reader: StreamReader) -> None:
        self.stream, self.reader = stream, reader
        #: pending calls by the provider's key for them (an index, an item id)
        self.open: dict[Any, PendingCall] = {}
        #: every finished call as an item of the provider's response, in order
        self.items: list[Any] = []
        self.found = 0  # the calls the items have given so far
        self.done: list[ToolCall] = []

    def start(self, key: Any, call_id: Any, name: Any, kind: str = "", start: Any = None) -> None:
        """A call starts (its name and id as far as the provider sent them)."""
        call = self.open[key] = PendingCall(call_id, name, kind, start)
        if call.exported is not None:
            call.name = self.stream._routes.get(call.exported, call.exported)

    def add(self, key: Any, text: Any) -> None:
        """More of the arguments' text of the call at ``key`` (none open there: ignored)."""
        call = self.open.get(key)
        if call is not None and isinstance(text, str) and text:
            call._parts.append(text)

    def finish(self, key: Any) -> None:
        """The call at ``key`` is complete (none open there: nothing happens)."""
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
        # parsed with the items before it: ids made up for calls without one are those the
        # whole response would get
        calls = parse_tool_calls(self.items, self.stream.provider, self.stream._functions)
        self.done += calls[self.found :]
        self.found = len(calls)


class StreamReader(Protocol):
    """What a provider's ``stream()`` returns: the reader of one streamed response."""

    def feed(self, event: Mapping[str, Any], calls: Assembly) -> bool:
        """Read one event (plain data) into ``calls``; ``False``: not an event of this provider."""
        ...

    def item(self, call: PendingCall) -> Any:
        """A finished call as one item of the provider's response, for ``parse_tool_calls``."""
        ...


class ToolCallStream:
    """Tool calls assembled from a streamed response, each as soon as its provider completes it.

    ``feed`` each stream event or chunk (the SDK's object or its dict) as it arrives; it returns
    the calls that event completed. ``close()`` at the end returns those still open. The calls
    equal what :func:`parse_tool_calls` gives for the whole response: same ids (made-up ones
    included), names routed back from aliases when ``functions`` are given, same arguments.
    One stream per response.

    :param provider: the provider's name (``"openai"``, ``"anthropic"``, ...) or object.
    :param functions: the tools offered (Functions or a Toolset): names are routed back, and
        :meth:`early_problems` can tell an unknown tool or argument before the call is complete.
    :raises ValueError: the provider does not stream tool calls (``"mcp"``).
    """

    __slots__ = ("_calls", "_functions", "_routes", "_table", "provider")

    def __init__(
        self, provider: str | Provider, functions: Iterable[Function] | None = None
    ) -> None:
        from . import _exported_names, _provider

        fns = None if functions is None else _listed(functions)
        first = next(iter(fns or ()), None)
        self.provider = _provider(provider, None if first is None else first._pm)
        reader = getattr(self.provider, "stream", None)
        if reader is None:
            raise ValueError(f"provider {self.provider.name!r} has no stream reader (stream())")
        self._functions = fns
        rule = getattr(self.provider, "name_rule", None)
        routes = (
            {} if fns is None or rule is None else _exported_names(fns, self.provider.name, rule)
        )
        self._routes: dict[str, str] = routes
        self._table = {fn.name: fn for fn in fns or ()}
        self._calls = Assembly(self, reader())

    def __repr__(self) -> str:
        return f"ToolCallStream({self.provider.name!r}, pending={len(self._calls.open)})"

    def feed(self, event: Any) -> list[ToolCall]:
        """Read one stream event or chunk; the calls it completed, in order.

        :raises ValueError: the event is not one of this provider's stream events.
        """
        data = plain(event)
        if not (isinstance(data, Mapping) and self._calls.reader.feed(data, self._calls)):
            what = type(event).__name__
            if isinstance(data, Mapping):
                what += f" with keys {', '.join(sorted(map(str, data))[:8]) or '(none)'}"
            raise ValueError(
                f"{self.provider.name}: expected a stream event or chunk of this provider; got "
                f"a {what}. Was this stream from another provider? Pass that provider's name."
            )
        return self._flush()

    def close(self) -> list[ToolCall]:
        """The calls still open at the end of the stream (a cut-off call as it was received)."""
        self._calls.finish_all()
        return self._flush()

    @property
    def pending(self) -> list[PendingCall]:
        """The calls still being written, in the order they started."""
        return list(self._calls.open.values())

    def early_problems(self) -> list[str]:
        """Problems of the calls being written that are already certain, as the model is told.

        A call to a tool that is not offered; a complete top-level key the tool would refuse
        (any unknown key under ``unknown_arguments="reject"``, one that looks like a typo of a
        name not yet sent under ``"report"``). Empty without ``functions``.
        """
        if self._functions is None:
            return []
        from . import _callable_names

        problems: list[str] = []
        for call in self._calls.open.values():
            if call.name is None:
                continue
            fn = self._table.get(call.name)
            if fn is None:
                from ..results import ToolCall

                asked = ToolCall(call.id or "", call.exported or call.name)
                asked._provider = self.provider.name
                problems.append(
                    messages.unknown_tool(asked.name, _callable_names(self._functions, asked))
                )
            elif fn.parse_args is None and fn.unknown_arguments != "ignore":
                problems += _unknown_keys(fn, call.keys())
        return problems

    def _flush(self) -> list[ToolCall]:
        done, self._calls.done = self._calls.done, []
        return done


def _listed(functions: Iterable[Function]) -> Any:
    return functions if hasattr(functions, "_names_for") else list(functions)


def _unknown_keys(fn: Function, keys: list[str]) -> list[str]:
    """The core's message for the keys ``fn`` would refuse, if any."""
    accepted = fn.accepted_param_names()
    unknown = [k for k in keys if k not in accepted]
    if not accepted or not unknown:
        return []
    found = messages.suggestions(unknown, accepted, keys)
    if fn.unknown_arguments == "report":
        found = {name: hint for name, hint in found.items() if hint is not None}
    return [messages.unrecognized_only(found, accepted)] if found else []
