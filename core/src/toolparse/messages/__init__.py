"""Every text the model reads back, in one place.

The texts are fixed by the project's message contract: they name what was wrong
and what is accepted, state every problem at once, and carry nothing the model
cannot act on. Adapters never format text of their own: they hand structured
problems to :func:`toolparse.invalid_arguments`, which renders them here, once.

Here are the texts of a call that goes wrong before or around its tool's
arguments (an unknown tool, arguments that are no JSON object or over a limit,
a tool that timed out or found no worker) and the definition errors of a set
of tools. The package's modules hold an echoed value, a place and an
exception's text (``_safe_text``); the names lists, their "did you mean" and
the texts of rejected arguments (``_arguments``); and the shared words of every
adapter's reasons (``_reasons``, re-exported by :mod:`toolparse.adapter`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ._arguments import MAX_CANDIDATES as MAX_CANDIDATES
from ._arguments import MAX_NAMES as MAX_NAMES
from ._arguments import MAX_PROBLEM_LINES, closest, did_you_mean, fitted, names_text, similarity
from ._arguments import invalid as invalid
from ._arguments import key_error as key_error
from ._arguments import missing_required as missing_required
from ._arguments import nearest as nearest
from ._arguments import suggestions as suggestions
from ._arguments import unrecognized_names as unrecognized_names
from ._arguments import unrecognized_only as unrecognized_only
from ._index import NameIndex as NameIndex
from ._safe_text import MAX_MESSAGE_CHARS, MAX_VALUE_CHARS, value_text
from ._safe_text import a_kind as a_kind
from ._safe_text import cap as cap
from ._safe_text import exception as exception
from ._safe_text import path_text as path_text
from ._safe_text import safe_text as safe_text

# the names documented as public; those imported ``as`` themselves, and the texts
# below, are the core's own
__all__ = [
    "MAX_MESSAGE_CHARS",
    "MAX_PROBLEM_LINES",
    "MAX_VALUE_CHARS",
    "did_you_mean",
    "similarity",
    "value_text",
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


def unknown_tool(name: object, available: Sequence[str] | NameIndex) -> str:
    """A tool call named a tool that does not exist (or named none).

    ``available``: the names, or their :class:`NameIndex` (the same text, found faster).
    """
    index = (
        available if isinstance(available, NameIndex) and len(available.names) > MAX_NAMES else None
    )
    names = available.names if isinstance(available, NameIndex) else available
    hint, listed = None, None
    if name is None or name == "":
        text, shown_name = "Tool call made without a tool name.", ""
    elif not isinstance(name, str):
        text, shown_name = "Tool call made with a tool name that is not text.", ""
    else:
        shown_name = name if len(name) <= 64 and name.isprintable() else value_text(name, 64)
        text = f"Tool call made to {shown_name} but tool not found."
        if len(name) <= 256 and index is not None:
            hint, listed = index.suggest(name, MAX_NAMES if shown_name == name else 0)
        elif len(name) <= 256:
            hint = did_you_mean(name, names)
    if hint is not None:
        text += f' Did you mean "{hint}"?'
    if names:
        if not listed:
            listed = (
                closest(shown_name, names)
                if index is None
                else index.suggest(shown_name, MAX_NAMES)[1]
            )
        total = len(names)  # the index lists the first only
        return fitted(
            lambda n: f"{text} Available tools: {names_text(listed, n, total)}.",
            range(MAX_NAMES, 0, -1),
        )
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
    """The tool did not finish in time; ``stopped``: it was cancelled (a sync body cannot be)."""
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
