"""The texts of a call that goes wrong before or around its tool's arguments.

Part of the message texts (:mod:`toolparse.messages` re-exports every name):
an unknown tool, arguments that are no JSON object or over a limit, a tool
that timed out or found no worker, and the definition errors of a set of tools.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._safe_text import MAX_MESSAGE_CHARS, cap, value_text
from ._suggestions import MAX_NAMES, _closest, did_you_mean, names_text

__all__ = [
    "UNEXPECTED_RESPONSE",
    "alias_clash",
    "duplicate_tool",
    "invalid_json",
    "no_worker",
    "not_an_object",
    "timed_out",
    "too_deep",
    "too_large",
    "unknown_tool",
]

UNEXPECTED_RESPONSE = "An unexpected response was returned from the tool."


# -- a set of tools (definition errors) ------------------------------------------


def duplicate_tool(name: str) -> str:
    """Two tools of one set share ``name``."""
    return f"two tools are named {name!r}; names must be unique"


def alias_clash(first: str, second: str, provider: str, alias: str) -> str:
    """Two tools one provider would export under the same name."""
    return (
        f"tools {first!r} and {second!r} would both be exported to {provider} as "
        f"{alias!r}; rename one of them"
    )


# -- the call itself -------------------------------------------------------------


def unknown_tool(name: object, available: Sequence[str]) -> str:
    """A tool call named a tool that does not exist (or named none)."""
    if not isinstance(name, str) or not name:
        what = (
            "without a tool name"
            if name is None or name == ""
            else "with a tool name that is not text"
        )
        text = f"Tool call made {what}."
        hint = None
        shown_name = ""
    else:
        shown_name = name if len(name) <= 64 and name.isprintable() else value_text(name, 64)
        text = f"Tool call made to {shown_name} but tool not found."
        hint = did_you_mean(name, available) if len(name) <= 256 else None
    if hint is not None:
        text += f' Did you mean "{hint}"?'
    if available:
        names = _closest(shown_name, available)
        limit = MAX_NAMES
        while True:
            full = f"{text} Available tools: {names_text(names, limit)}."
            if len(full) <= MAX_MESSAGE_CHARS or limit <= 1:
                break
            limit -= 1
        text = full
    return cap(text)


def invalid_json(tool: str, reason: str) -> str:
    """The arguments were not valid JSON."""
    return (
        f"The arguments for tool {tool} are not valid JSON ({reason}). "
        "Send the arguments as one JSON object."
    )


_JSON_KINDS = {
    list: "a list",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "a boolean",
}


def not_an_object(tool: str, value: object) -> str:
    """The arguments decoded to something other than an object."""
    kind = "null" if value is None else _JSON_KINDS.get(type(value), type(value).__name__)
    return f"The arguments for tool {tool} must be a JSON object, not {kind}."


def too_large(tool: str, size: int, limit: int) -> str:
    """The arguments' JSON text is over the size limit."""
    return f"The arguments for tool {tool} are too large ({size:,} bytes; the limit is {limit:,})."


def too_deep(tool: str, depth: int, limit: int) -> str:
    """The arguments are nested over the depth limit."""
    return (
        f"The arguments for tool {tool} are nested too deeply "
        f"(depth {depth}; the limit is {limit})."
    )


def timed_out(tool: str, seconds: float, *, stopped: bool = True) -> str:
    """The tool did not finish in time.

    :param stopped: the body was cancelled (an ``async def`` body); ``False``
        for a sync body, which cannot be stopped and may still finish.
    """
    shown = f"{seconds:g}"
    unit = "second" if shown == "1" else "seconds"
    head = f"The tool {tool} did not finish within {shown} {unit}"
    if stopped:
        return f"{head} and was stopped."
    return f"{head}; it may still finish, so check its effect before calling it again."


def no_worker(tool: str, limit: int) -> str:
    """Every worker thread is held by earlier calls that have not finished."""
    return (
        f"The tool {tool} could not be started: all {limit} worker threads are busy "
        "with earlier calls that have not finished. Try again later."
    )
