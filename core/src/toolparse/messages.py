"""Every text the model reads back, in one place.

The texts are fixed by the project's message contract: they name what was wrong
and what is accepted, state every problem at once, and carry nothing the model
cannot act on. Adapters never format text of their own: they hand structured
problems to :func:`toolparse.invalid_arguments`, which renders them here.

The parts the messages are made of live in private modules and are re-exported
here under their own names (imported once, so a rejected call reaches them
with no extra step): the "did you mean" search, the names lists, an echoed
value, an exception's text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ._exception_text import _ADDRESS_REPR as _ADDRESS_REPR
from ._exception_text import MAX_EXCEPTION_CHARS as MAX_EXCEPTION_CHARS
from ._exception_text import exception as exception
from ._exception_text import frame_text as frame_text
from ._exception_text import safe_text as safe_text
from ._names import MAX_NAMES as MAX_NAMES
from ._names import _annotated_text as _annotated_text
from ._names import argument_keys as argument_keys
from ._names import names_text as names_text
from ._names import unrecognized_names as unrecognized_names
from ._suggestions import _SWAP_SCORE as _SWAP_SCORE
from ._suggestions import MAX_CANDIDATES as MAX_CANDIDATES
from ._suggestions import _closest as _closest
from ._suggestions import _jaro as _jaro
from ._suggestions import _one_swap as _one_swap
from ._suggestions import did_you_mean as did_you_mean
from ._suggestions import nearest as nearest
from ._suggestions import similarity as similarity
from ._suggestions import suggestions as suggestions
from ._value_text import MAX_VALUE_CHARS as MAX_VALUE_CHARS
from ._value_text import path_text as path_text
from ._value_text import value_text as value_text

__all__ = [
    "MAX_MESSAGE_CHARS",
    "MAX_PROBLEM_LINES",
    "MAX_VALUE_CHARS",
    "did_you_mean",
    "similarity",
    "value_text",
]

MAX_MESSAGE_CHARS = 2000
MAX_PROBLEM_LINES = 20

_MISSING_HEAD = "Missing required parameters for this tool."
_UNRECOGNIZED_HEAD = "Unrecognized parameters for this tool."
_NAMES_TAIL = "Ensure you're passing the correct parameter names as defined in the tool schema."
_INVALID_HEAD = "Invalid arguments for this tool."
_INVALID_TAIL = "Fix these arguments and call the tool again."
UNEXPECTED_RESPONSE = "An unexpected response was returned from the tool."


#: the names a names line shows, tried in turn until the whole message fits
_NAME_LIMITS = (30, 15, 8, 4, 2, 1)


def _fitted(build: Callable[[int], str]) -> str:
    """The text ``build(limit)`` gives for the most names per line that fit in a message.

    Names are what a long message gives up first: every line keeps its label
    and its count (``... and N more``), and the tail stays in the message.
    """
    for limit in _NAME_LIMITS:
        text = build(limit)
        if len(text) <= MAX_MESSAGE_CHARS:
            return text
    return cap(text)


# -- required-key check (no parser) ------------------------------------------


def _lines(*pairs: tuple[str, str]) -> str:
    return "\n".join(f"{label}: {text}" for label, text in pairs if text)


def missing_required(
    required: Sequence[str],
    missing: Sequence[str],
    unrecognized: Mapping[str, str | None],
    accepted: Sequence[str],
) -> str:
    """The message for required parameters the model did not send."""
    found = sorted(unrecognized.items())

    def build(limit: int) -> str:
        body = _lines(
            ("Required parameters", names_text(required, limit)),
            ("Missing parameters", names_text(missing, limit)),
            ("Unrecognized parameters", _annotated_text(found, limit)),
            ("Accepted parameters", names_text(accepted, limit)),
        )
        return f"{_MISSING_HEAD}\n\n{body}\n\n{_NAMES_TAIL}"

    return _fitted(build)


def unrecognized_only(unrecognized: Mapping[str, str | None], accepted: Sequence[str]) -> str:
    """The message for unknown names when nothing required is missing."""
    found = sorted(unrecognized.items())

    def build(limit: int) -> str:
        body = _lines(
            ("Unrecognized parameters", _annotated_text(found, limit)),
            ("Accepted parameters", names_text(accepted, limit)),
        )
        return f"{_UNRECOGNIZED_HEAD}\n\n{body}\n\n{_NAMES_TAIL}"

    return _fitted(build)


# -- KeyError in the body (no parser) ----------------------------------------


def key_error(missing_key: object, arguments: Mapping[Any, Any], accepted: Sequence[str]) -> str:
    """The one-line message for a body that read an argument it was not sent."""
    keys = argument_keys(arguments)
    found = suggestions(unrecognized_names(arguments, accepted), accepted, keys)
    if isinstance(missing_key, str) and accepted and missing_key not in accepted:
        # the body read a name it never declared: a bug in the tool, not in the call
        lead = (
            f"The tool read the {value_text(missing_key)} argument, which it does not "
            "declare (a bug in the tool, not in this call)."
        )
        found = {}
    elif found:
        lead = "The tool was called with an argument name it does not accept."
    elif isinstance(missing_key, str):
        lead = f"The tool needs the {json.dumps(missing_key)} argument, which was not provided."
    else:
        lead = "The tool could not read the arguments it was given."
    hints = sorted(found.items())
    received = sorted(keys)

    def build(limit: int) -> str:
        details = [
            f"{label}: {text}."
            for label, text in (
                ("Accepted parameters", names_text(accepted, limit)),
                ("Unrecognized parameters", _annotated_text(hints, limit)),
                ("Received", names_text(received, limit)),
            )
            if text
        ]
        return " ".join(["ERROR:", lead, *details])

    return _fitted(build)


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


def cap(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` cut to ``limit`` characters (with ``...``): the last guard of every limit."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


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


# -- rendering adapter problems ------------------------------------------------


def invalid(
    lines: Sequence[str],
    missing: Sequence[str],
    unrecognized: Mapping[str, str | None],
    accepted: Sequence[str],
) -> str:
    """Render the shared "Invalid arguments" message within its limits.

    At most 20 problem lines are shown, then ``... and N more``. To fit in
    2,000 characters the names lines first show fewer names (30, 15, 8, 4, 2,
    1, each then ``... and N more``), and only then are problem lines dropped
    from the end.
    """
    # the usual rejection fits with every line and the most names: built once,
    # with no refitting (the text :func:`fitted_invalid` starts from)
    count = len(lines)
    if count <= MAX_PROBLEM_LINES:
        shown = "\n".join(lines if type(lines) is list else lines[:count])
    else:
        shown = "\n".join(lines[:MAX_PROBLEM_LINES])
        shown = f"{shown}\n... and {count - MAX_PROBLEM_LINES} more"
    if missing and not unrecognized and len(missing) <= MAX_NAMES:
        # the common names lines, missing names and the accepted ones: the text
        # _names_block writes, without its list and calls (when neither is empty)
        names = ", ".join(missing)
        known = _ACCEPTED_TEXTS.get(id(accepted))
        listed = (
            f"Missing parameters: {names}\nAccepted parameters: {known[1]}"
            if names and known is not None and known[0] is accepted and known[1]
            else _names_block(missing, unrecognized, accepted)
        )
        if listed:
            shown = f"{shown}\n{listed}" if shown else listed
    elif missing or unrecognized:
        listed = _names_block(missing, unrecognized, accepted)
        if listed:
            shown = f"{shown}\n{listed}" if shown else listed
    text = f"{_INVALID_HEAD}\n\n{shown}\n\n{_INVALID_TAIL}"
    if len(text) <= MAX_MESSAGE_CHARS:
        return text
    return fitted_invalid(lines, missing, unrecognized, accepted)


def _names_block(
    missing: Sequence[str], unrecognized: Mapping[str, str | None], accepted: Sequence[str]
) -> str:
    """The names lines of an "Invalid arguments" message at the most names per line."""
    out = []
    if missing:
        text = names_text(missing)
        if text:
            out.append(f"Missing parameters: {text}")
    if unrecognized:
        text = _annotated_text(sorted(unrecognized.items()), MAX_NAMES)
        if text:
            out.append(f"Unrecognized parameters: {text}")
    text = _accepted_text(accepted)
    if text:
        out.append(f"Accepted parameters: {text}")
    return "\n".join(out)


#: the accepted-names text of each tuple of names lately rendered, by identity
#: (a Function's names are one tuple, so most rejections join no names at all)
_ACCEPTED_TEXTS: dict[int, tuple[tuple[str, ...], str]] = {}
_REMEMBERED_NAMES = 256


def _accepted_text(accepted: Sequence[str]) -> str:
    """``names_text(accepted)``, remembered for a tuple (its text cannot change)."""
    known = _ACCEPTED_TEXTS.get(id(accepted))
    if known is not None and known[0] is accepted:
        return known[1]
    text = names_text(accepted)
    if type(accepted) is tuple:
        if len(_ACCEPTED_TEXTS) >= _REMEMBERED_NAMES:
            _ACCEPTED_TEXTS.clear()
        # the entry holds the tuple, so its id names no other object while kept
        _ACCEPTED_TEXTS[id(accepted)] = (accepted, text)
    return text


def fitted_invalid(
    lines: Sequence[str],
    missing: Sequence[str],
    unrecognized: Mapping[str, str | None],
    accepted: Sequence[str],
) -> str:
    """:func:`invalid` by its general rule: fewer names per line, then fewer lines, to fit."""
    found = sorted(unrecognized.items()) if unrecognized else []

    def names(limit: int) -> str:
        if not (missing or unrecognized):
            return ""
        return _lines(
            ("Missing parameters", names_text(missing, limit)),
            ("Unrecognized parameters", _annotated_text(found, limit)),
            ("Accepted parameters", names_text(accepted, limit)),
        )

    count = len(lines)
    limit = min(count, MAX_PROBLEM_LINES)
    # the names give way first (fewer per line), then the problem lines, from the end
    for name_limit in _NAME_LIMITS if missing or unrecognized else _NAME_LIMITS[:1]:
        listed = names(name_limit)
        text = _invalid_text(lines, limit, count, listed)
        if len(text) <= MAX_MESSAGE_CHARS:
            return text
    while len(text) > MAX_MESSAGE_CHARS and limit > 0:
        limit -= 1
        text = _invalid_text(lines, limit, count, listed)
    if len(text) > MAX_MESSAGE_CHARS:
        text = text[: MAX_MESSAGE_CHARS - 3] + "..."
    return text


def _invalid_text(lines: Sequence[str], limit: int, count: int, names: str) -> str:
    """The "Invalid arguments" message with the first ``limit`` of ``count`` problem lines."""
    shown = "\n".join(lines[:limit])
    if count > limit:
        shown = f"{shown}\n... and {count - limit} more" if shown else f"... and {count} more"
    body = f"{shown}\n{names}" if shown and names else shown or names
    return f"{_INVALID_HEAD}\n\n{body}\n\n{_INVALID_TAIL}"
