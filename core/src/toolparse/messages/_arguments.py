"""The texts of rejected arguments: names missing or not accepted, and the problems found.

Part of the message texts (:mod:`toolparse.messages` re-exports every name).
Every text fits in :data:`MAX_MESSAGE_CHARS`: the lists of names give way
first (fewer names, each line still counting the rest), then the problem
lines, from the end; the head and the tail always stay.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ._safe_text import MAX_MESSAGE_CHARS, cap, value_text
from ._suggestions import (
    _annotated_text,
    argument_keys,
    names_text,
    suggestions,
    unrecognized_names,
)

__all__ = ["MAX_PROBLEM_LINES", "invalid", "key_error", "missing_required", "unrecognized_only"]

MAX_PROBLEM_LINES = 20

_MISSING_HEAD = "Missing required parameters for this tool."
_UNRECOGNIZED_HEAD = "Unrecognized parameters for this tool."
_NAMES_TAIL = "Ensure you're passing the correct parameter names as defined in the tool schema."
_INVALID_HEAD = "Invalid arguments for this tool."
_INVALID_TAIL = "Fix these arguments and call the tool again."

#: the names a names line shows, tried in turn until the whole message fits
_NAME_LIMITS = (30, 15, 8, 4, 2, 1)


def _fitted(build: Callable[[int], str]) -> str:
    """The text ``build(limit)`` gives for the most names per line that fit in a message."""
    for limit in _NAME_LIMITS:
        text = build(limit)
        if len(text) <= MAX_MESSAGE_CHARS:
            return text
    return cap(text)


def _names_lines(
    limit: int,
    missing: Sequence[str],
    found: Sequence[tuple[str, str | None]],
    accepted: Sequence[str],
    required: Sequence[str] = (),
) -> str:
    """The lines naming the names, at most ``limit`` of each; a line with no name is left out."""
    lines = []
    if required and (text := names_text(required, limit)):
        lines.append(f"Required parameters: {text}")
    if missing and (text := names_text(missing, limit)):
        lines.append(f"Missing parameters: {text}")
    if found and (text := _annotated_text(found, limit)):
        lines.append(f"Unrecognized parameters: {text}")
    if accepted and (text := names_text(accepted, limit)):
        lines.append(f"Accepted parameters: {text}")
    return "\n".join(lines)


def missing_required(
    required: Sequence[str],
    missing: Sequence[str],
    unrecognized: Mapping[str, str | None],
    accepted: Sequence[str],
) -> str:
    """The message for required parameters the model did not send."""
    found = sorted(unrecognized.items())
    return _fitted(
        lambda limit: (
            f"{_MISSING_HEAD}\n\n"
            f"{_names_lines(limit, missing, found, accepted, required)}\n\n{_NAMES_TAIL}"
        )
    )


def unrecognized_only(unrecognized: Mapping[str, str | None], accepted: Sequence[str]) -> str:
    """The message for unknown names when nothing required is missing."""
    found = sorted(unrecognized.items())
    return _fitted(
        lambda limit: (
            f"{_UNRECOGNIZED_HEAD}\n\n{_names_lines(limit, (), found, accepted)}\n\n{_NAMES_TAIL}"
        )
    )


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
            ("Accepted parameters", names_text(accepted, limit)),
            ("Unrecognized parameters", _annotated_text(hints, limit)),
            ("Received", names_text(received, limit)),
        ]
        return " ".join(["ERROR:", lead, *(f"{label}: {text}." for label, text in details if text)])

    return _fitted(build)


def invalid(
    lines: Sequence[str],
    missing: Sequence[str] = (),
    unrecognized: Mapping[str, str | None] | None = None,
    accepted: Sequence[str] = (),
    more: int = 0,
) -> str:
    """The shared "Invalid arguments" message, within its limits.

    :param lines: the problem lines; at most :data:`MAX_PROBLEM_LINES` are
        shown, then ``... and N more``.
    :param missing: top-level names not sent, for the ``Missing parameters`` line.
    :param unrecognized: top-level names not accepted, each with its
        suggestion or ``None``, for the ``Unrecognized parameters`` line.
    :param accepted: the accepted names, listed when either line above is.
    :param more: further problems counted without a line of their own.

    To fit in 2,000 characters the names lines first show fewer names (30,
    15, 8, 4, 2, 1, each then ``... and N more``), and only then are problem
    lines dropped from the end.
    """
    count = len(lines) + more
    shown = min(len(lines), MAX_PROBLEM_LINES)
    found = sorted(unrecognized.items()) if unrecognized else []
    named = bool(missing or found)
    for limit in _NAME_LIMITS if named else _NAME_LIMITS[:1]:
        listed = _names_lines(limit, missing, found, accepted) if named else ""
        text = _invalid_text(lines, shown, count, listed)
        if len(text) <= MAX_MESSAGE_CHARS:
            return text
    while shown > 0:
        shown -= 1
        text = _invalid_text(lines, shown, count, listed)
        if len(text) <= MAX_MESSAGE_CHARS:
            return text
    return cap(text)


def _invalid_text(lines: Sequence[str], shown: int, count: int, names: str) -> str:
    """The "Invalid arguments" message with the first ``shown`` of ``count`` problem lines."""
    body = "\n".join(lines[:shown])
    if count > shown:
        body = f"{body}\n... and {count - shown} more" if body else f"... and {count} more"
    body = f"{body}\n{names}" if body and names else body or names
    return f"{_INVALID_HEAD}\n\n{body}\n\n{_INVALID_TAIL}"
