"""Checking recorded tool calls against tools, without running them.

:func:`check_calls` takes tools and an iterable of recorded calls (a log, an
evaluation set, a fine-tuning set) and yields one :class:`CallCheck` per call:
was it accepted, and if not, why. It parses each call exactly as
:meth:`toolparse.Function.execute` would before the body, and never runs a body.

It is a plain module-level function of its arguments: it keeps no state between
calls and pickles by reference, so the same check runs over batches in any
engine that maps a function over data (a process pool, Ray Data, Dask, Spark).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import messages
from ._aliases import alias_routes
from ._summary import UNKNOWN_TOOL, UNREADABLE, CheckSummary
from .contract import Error
from .problems import InvalidArguments
from .providers import _callable_names, _record, get_provider, registered
from .providers._base import plain
from .results import ToolCall

if TYPE_CHECKING:
    from .function import Function

__all__ = ["FORMATS", "CallCheck", "CheckSummary", "check_calls", "detect_format"]

#: record formats :func:`check_calls` reads besides ``"auto"``: a plain
#: ``{"name", "arguments"}`` object, or a built-in provider's shapes
FORMATS = ("plain", "openai", "openai-responses", "anthropic", "gemini", "mcp")


@dataclass(frozen=True, slots=True)
class CallCheck:
    """What checking one recorded call found.

    :param record: the position of the record the call came from (counted from
        ``start``, see :func:`check_calls`).
    :param call: the position of the call within its record (a response may hold several).
    :param id: the call's id, as recorded.
    :param name: the tool name the call used (``None``: the record was unreadable).
    :param tool: the name of the tool it was checked against (``None``: no such tool).
    :param accepted: the tool would run with these arguments.
    :param reasons: short, countable reasons for a rejection (``"city: is required"``,
        ``"unknown tool"``); empty when accepted.
    :param message: the full text the model would read; ``None`` when accepted.
    :param format: the record format that was read (``"plain"``, ``"openai"``, ...).
    """

    record: int
    call: int
    id: str | None
    name: str | None
    tool: str | None
    accepted: bool
    reasons: tuple[str, ...] = ()
    message: str | None = None
    format: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The result as plain JSON-ready data."""
        # (not dataclasses.asdict: its deep copy of each value cost more than a --json line)
        return {**{n: getattr(self, n) for n in self.__slots__}, "reasons": list(self.reasons)}


def check_calls(
    tools: Iterable[Function],
    records: Iterable[Any],
    *,
    format: str = "auto",
    context: Any = None,
    start: int = 0,
) -> Iterator[CallCheck]:
    """Check recorded tool calls against ``tools``; yield one result per call.

    :param tools: the tools (Functions, or a Toolset).
    :param records: one item per record: a JSON line (``str`` or ``bytes``),
        decoded JSON, a :class:`~toolparse.ToolCall`, or a provider SDK object.
        A record is a plain ``{"name": ..., "arguments": ...}`` object or any
        shape a built-in provider's ``parse_tool_calls`` reads (a response, a
        message, a single call); a record with several calls yields several
        results, one without calls yields none.
    :param format: ``"auto"`` (detect each record's shape) or one of :data:`FORMATS`.
    :param context: passed to parsers that take a context.
    :param start: the number of the first record (``1`` to count lines).

    Records are read lazily, one at a time: memory does not grow with the input.
    Nothing here raises for a bad record; it becomes a rejected result.
    """
    # a plugin's provider reads its own shape (the default manager's, asked only then)
    if format != "auto" and format not in FORMATS and format not in registered():
        raise ValueError(f"unknown format {format!r}; use auto, {', '.join(FORMATS)}")
    functions = list(tools)
    # the names a call may use: the routes execute_tool_calls takes (an alias two tools
    # share routes to neither), so a check says what running it would do; a real name wins
    table = alias_routes(functions)
    table.update((fn.name, fn) for fn in functions)
    names: dict[str, list[str]] = {}  # the names to suggest, per provider
    readers: dict[str, Any] = {}
    # (format, name) -> message: a log repeats the same wrong names
    unknown: dict[tuple[str, str], str] = {}
    for number, record in enumerate(records, start):
        try:
            kind, calls = _calls(record, format, readers)
        except ValueError as exc:
            yield CallCheck(number, 0, None, None, None, False, (UNREADABLE,), str(exc))
            continue
        for i, call in enumerate(calls):
            name = call.name
            fn = table.get(name) if isinstance(name, str) else None
            text: str | None = None
            if fn is None:
                key = (kind, name)
                text = unknown.get(key) if isinstance(name, str) else None
                if text is None:
                    text = messages.unknown_tool(str(name), _callable_names(functions, call, names))
                    if len(unknown) < 1024 and isinstance(name, str):
                        unknown[key] = text
                reasons: tuple[str, ...] = (UNKNOWN_TOOL,)
            elif type(outcome := fn.parse_arguments(call.arguments, context)) is Error:
                reasons, text = _reasons(fn, call.arguments, outcome), outcome[0]
            else:
                reasons = ()
            tool = None if fn is None else fn.name
            yield CallCheck(
                number, i, call.id or None, name, tool, not reasons, reasons, text, kind
            )


# -- reading records -------------------------------------------------------------


def _calls(record: Any, format: str, readers: dict[str, Any]) -> tuple[str, list[ToolCall]]:
    """The calls in one record and the format they were read as; ``ValueError`` if none fits."""
    if isinstance(record, ToolCall):
        return "plain", [record]
    if isinstance(record, (str, bytes, bytearray)):
        try:
            # decoded first: json.loads would sniff the encoding of every line
            record = json.loads(record if isinstance(record, str) else record.decode())
        except ValueError as exc:  # (only then is the line looked at for a blank one)
            if not record.strip():
                return "plain", []  # a blank line holds no calls
            raise ValueError(f"not JSON ({exc})") from None
    kind = format if format != "auto" else detect_format(record)
    if kind is None:
        found = _plugin_calls(record, readers)
        if found is not None:
            return found
        raise ValueError(f"not a tool call in any known shape: {_preview(record)}")
    return kind, [_plain(record)] if kind == "plain" else _provider_calls(record, kind, readers)


def _plain(record: Any) -> ToolCall:
    # (dict first: the Mapping ABC's check costs more than the rest of the read)
    if not isinstance(record, (dict, Mapping)) or not isinstance(record.get("name"), str):
        raise ValueError(f'expected {{"name": ..., "arguments": ...}}, got {_preview(record)}')
    call_id = record.get("id", record.get("call_id"))
    call_id = "" if call_id is None else str(call_id)  # none recorded: a result reports None
    return ToolCall(call_id, record["name"], record.get("arguments"))


def _provider_calls(record: Any, provider: str, readers: dict[str, Any]) -> list[ToolCall]:
    read = readers.get(provider)
    if read is None:
        read = readers[provider] = get_provider(provider).parse_tool_calls
    try:
        calls = list(read(record))
        _record(calls, provider)  # an unknown tool is answered with this provider's names
        return calls
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        # a record of roughly the right shape with a piece missing
        raise ValueError(f"not a {provider} tool call ({type(exc).__name__}: {exc})") from None


def _plugin_calls(record: Any, readers: dict[str, Any]) -> tuple[str, list[ToolCall]] | None:
    """A shape none of the built-in formats has: the first plugin provider that reads calls in it."""
    others = readers.get("")
    if others is None:  # the default manager's, asked only when a plugin's reader is wanted
        found = registered().items()
        others = readers[""] = [(n, p.parse_tool_calls) for n, p in found if n not in FORMATS]
    for name, read in others:
        try:
            calls = list(read(record))
        except Exception:  # not this provider's shape: try the next
            continue
        if calls:
            return name, calls
    return None


def detect_format(record: Any) -> str | None:
    """The format of one decoded record (see :data:`FORMATS`), or ``None`` when none fits.

    Decided from the keys each provider's shapes carry, so that one record is
    never read as a different provider's call with its arguments lost.
    """
    if isinstance(record, list):
        return detect_format(record[0]) if record else None
    if not isinstance(record, (dict, Mapping)):
        record = plain(record)  # an SDK object, dumped
        if not isinstance(record, Mapping):
            return None
    keys = record.keys()
    kind = record.get("type")
    if "choices" in keys or "tool_calls" in keys:
        return "openai"
    if "candidates" in keys or "parts" in keys or "functionCall" in keys or "function_call" in keys:
        return "gemini"
    if "output" in keys or kind == "function_call":
        return "openai-responses"
    if "method" in keys or "jsonrpc" in keys or "params" in keys:
        return "mcp"
    if kind == "tool_use" or (kind == "message" and "content" in keys):
        return "anthropic"
    if "function" in keys and "id" in keys:
        return "openai"
    if "role" in keys:
        # an assistant message: Anthropic's content is a list of blocks,
        # Chat Completions' a string or null
        return "anthropic" if isinstance(record.get("content"), list) else "openai"
    if "name" in keys and "args" in keys:
        return "gemini"
    if "name" in keys and kind is None:
        return "plain"
    return None


def _preview(value: Any) -> str:
    try:
        text = value if isinstance(value, str) else json.dumps(value, default=repr)
    except (TypeError, ValueError):  # keys JSON cannot hold, or a cycle
        text = repr(value)
    return messages.cap(text, 60)


# -- reasons ---------------------------------------------------------------------

_CAP = 120
#: the reasons of these kinds of problem name no detail, so that they count together
_FIXED = {"missing": "is required", "unrecognized": "unrecognized parameter"}


def _reasons(fn: Function, arguments: Any, outcome: Error) -> tuple[str, ...]:
    """Short reasons for a rejection, the same for the same mistake, so they count well."""
    exc = outcome[1]
    if isinstance(exc, InvalidArguments) and exc.problems:
        return tuple(dict.fromkeys(_problem(p.path, p.reason, p.kind) for p in exc.problems))
    args = arguments
    if isinstance(arguments, (str, bytes, bytearray)):
        try:
            args = json.loads(arguments)
        except ValueError:
            return ("invalid JSON",)
    if args is None:
        args = {}
    if not isinstance(args, Mapping):
        return ("arguments are not an object",)
    found = [f"{name}: is required" for name in fn.required_param_names() if name not in args]
    accepted = fn.accepted_param_names()
    found += [f"{n}: unrecognized parameter" for n in messages.unrecognized_names(args, accepted)]
    if found:
        return tuple(found)
    return (messages.cap(str(outcome[0]).split("\n", 1)[0], _CAP),)


@functools.lru_cache(1024)  # a log repeats the same mistakes (a pure function: any order)
def _problem(path: tuple[str | int, ...], reason: str, kind: str) -> str:
    # list positions differ from call to call; the mistake is the same
    where = messages.path_text(tuple("*" if isinstance(p, int) else p for p in path))
    where = where.replace(".*", "[*]")
    if kind in _FIXED:
        return f"{where}: {_FIXED[kind]}"
    return messages.cap(f"{where}: {reason}", _CAP)
