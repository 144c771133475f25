"""Every text the model reads back, in one place.

The texts are fixed by the project's message contract: they name what was wrong
and what is accepted, state every problem at once, and carry nothing the model
cannot act on. Adapters never format text of their own: they hand structured
problems to :func:`toolparse.invalid_arguments`, which renders them here.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

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
MAX_VALUE_CHARS = 40

_MISSING_HEAD = "Missing required parameters for this tool."
_UNRECOGNIZED_HEAD = "Unrecognized parameters for this tool."
_NAMES_TAIL = "Ensure you're passing the correct parameter names as defined in the tool schema."
_INVALID_HEAD = "Invalid arguments for this tool."
_INVALID_TAIL = "Fix these arguments and call the tool again."
UNEXPECTED_RESPONSE = "An unexpected response was returned from the tool."


# -- "did you mean" ----------------------------------------------------------


def _jaro(a: str, b: str) -> float:
    """Standard Jaro similarity (not Jaro-Winkler)."""
    if a == b:
        return 1.0
    la, lb = len(a), len(b)
    if not la or not lb:
        return 0.0
    window = max(0, max(la, lb) // 2 - 1)
    a_hit = [False] * la
    b_hit = [False] * lb
    matches = 0
    for i, ch in enumerate(a):
        lo, hi = max(0, i - window), min(i + window + 1, lb)
        for j in range(lo, hi):
            if not b_hit[j] and b[j] == ch:
                a_hit[i] = b_hit[j] = True
                matches += 1
                break
    if not matches:
        return 0.0
    transpositions = 0
    j = 0
    for i in range(la):
        if a_hit[i]:
            while not b_hit[j]:
                j += 1
            if a[i] != b[j]:
                transpositions += 1
            j += 1
    m = float(matches)
    return (m / la + m / lb + (m - transpositions / 2) / m) / 3


def similarity(name: str, candidate: str) -> float:
    """Score how likely ``name`` is a misspelling of ``candidate`` (0.0 to 1.0).

    Equal (case-insensitively) scores 1.0; when the shorter is at least 3
    characters and one contains the other, ``0.7 + 0.3 * shorter/longer``;
    otherwise the Jaro similarity when it is above 0.7, else 0.
    """
    a, b = name.lower(), candidate.lower()
    if a == b:
        return 1.0
    shorter, longer = (a, b) if len(a) <= len(b) else (b, a)
    if len(shorter) >= 3 and shorter in longer:
        return 0.7 + 0.3 * len(shorter) / len(longer)
    score = _jaro(a, b)
    return score if score > 0.7 else 0.0


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """Return the best-scoring candidate for ``name``, or ``None``.

    A tie goes to the first candidate, so pass candidates in declaration order.
    """
    best: str | None = None
    best_score = 0.0
    for candidate in candidates:
        score = similarity(name, candidate)
        if score > best_score:
            best, best_score = candidate, score
    return best


def suggestions(
    unrecognized: Iterable[str], accepted: Sequence[str], sent: Iterable[str]
) -> dict[str, str | None]:
    """Map each unrecognized name to its suggestion among names not yet sent."""
    sent_set = set(sent)
    candidates = [name for name in accepted if name not in sent_set]
    return {name: did_you_mean(name, candidates) for name in unrecognized}


def _annotated(found: Mapping[str, str | None]) -> str:
    return ", ".join(
        name if hint is None else f'{name} (did you mean "{hint}"?)'
        for name, hint in sorted(found.items())
    )


def argument_keys(arguments: Mapping[Any, Any]) -> list[str]:
    """The argument names as strings (non-string keys are not names)."""
    return [key for key in arguments if isinstance(key, str)]


def unrecognized_names(arguments: Mapping[Any, Any], accepted: Sequence[str]) -> list[str]:
    """Sorted names that are not accepted; empty when ``accepted`` is unknown."""
    if not accepted:
        return []
    accepted_set = set(accepted)
    return sorted(k for k in argument_keys(arguments) if k not in accepted_set)


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
    body = _lines(
        ("Required parameters", ", ".join(required)),
        ("Missing parameters", ", ".join(missing)),
        ("Unrecognized parameters", _annotated(unrecognized)),
        ("Accepted parameters", ", ".join(accepted)),
    )
    return f"{_MISSING_HEAD}\n\n{body}\n\n{_NAMES_TAIL}"


def unrecognized_only(unrecognized: Mapping[str, str | None], accepted: Sequence[str]) -> str:
    """The message for unknown names when nothing required is missing."""
    body = _lines(
        ("Unrecognized parameters", _annotated(unrecognized)),
        ("Accepted parameters", ", ".join(accepted)),
    )
    return f"{_UNRECOGNIZED_HEAD}\n\n{body}\n\n{_NAMES_TAIL}"


# -- KeyError in the body (no parser) ----------------------------------------


def key_error(missing_key: object, arguments: Mapping[Any, Any], accepted: Sequence[str]) -> str:
    """The one-line message for a body that read an argument it was not sent."""
    keys = argument_keys(arguments)
    found = suggestions(unrecognized_names(arguments, accepted), accepted, keys)
    if found:
        lead = "The tool was called with an argument name it does not accept."
    elif isinstance(missing_key, str):
        lead = f"The tool needs the {json.dumps(missing_key)} argument, which was not provided."
    else:
        lead = "The tool could not read the arguments it was given."
    details = [
        f"{label}: {text}."
        for label, text in (
            ("Accepted parameters", ", ".join(accepted)),
            ("Unrecognized parameters", _annotated(found)),
            ("Received", ", ".join(sorted(keys))),
        )
        if text
    ]
    return " ".join(["ERROR:", lead, *details])


# -- exceptions ----------------------------------------------------------------


def exception(exc: BaseException) -> str:
    """``ERROR: (Type) message at file.py:42: function`` for an exception."""
    where = ""
    tb = exc.__traceback__
    if tb is not None:
        while tb.tb_next is not None:
            tb = tb.tb_next
        code = tb.tb_frame.f_code
        name = getattr(code, "co_qualname", code.co_name)
        where = f" at {os.path.basename(code.co_filename)}:{tb.tb_lineno}: {name}"
    name = type(exc).__name__
    if isinstance(exc, KeyError) and type(exc).__module__.startswith("toolparse."):
        name = "KeyError"  # the arguments' own KeyError subclass is an implementation detail
    return f"ERROR: ({name}) {exc}{where}"


# -- the call itself -------------------------------------------------------------


def unknown_tool(name: str, available: Sequence[str]) -> str:
    """A tool call named a tool that does not exist."""
    text = f"Tool call made to {name} but tool not found."
    hint = did_you_mean(name, available)
    if hint is not None:
        text += f' Did you mean "{hint}"?'
    if available:
        text += f" Available tools: {', '.join(sorted(available))}."
    return text


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


def timed_out(tool: str, seconds: float) -> str:
    """The tool did not finish in time."""
    shown = f"{seconds:g}"
    unit = "second" if shown == "1" else "seconds"
    return f"The tool {tool} did not finish within {shown} {unit}."


# -- rendering adapter problems ------------------------------------------------


def value_text(value: object, limit: int = MAX_VALUE_CHARS) -> str:
    """An echoed value: JSON, cut to ``limit`` characters (40 by default) with ``...``.

    Adapters use it for values they quote in a reason, too, so every echoed
    value reads the same way.
    """
    if isinstance(value, str):
        # most echoed values are short plain strings: no need for the encoder
        if (
            len(value) <= limit - 2
            and value.isprintable()
            and '"' not in value
            and "\\" not in value
        ):
            return f'"{value}"'
        text = ""
    elif value is None or type(value) is int or type(value) is bool:
        text = (
            "null"
            if value is None
            else "true"
            if value is True
            else "false"
            if value is False
            else str(value)
        )
    else:
        text = ""
    if not text:
        try:
            text = json.dumps(value, ensure_ascii=False, default=repr)
        except (TypeError, ValueError, RecursionError):
            try:
                text = repr(value)
            except RecursionError:  # a value nested past the stack: say what it is
                text = f"<a deeply nested {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def path_text(path: Sequence[str | int]) -> str:
    """``a.b[0].c``; ``(arguments)`` for the whole object."""
    if not path:
        return "(arguments)"
    out: list[str] = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        else:
            out.append(f".{part}" if out else part)
    return "".join(out)


def invalid(
    lines: Sequence[str],
    missing: Sequence[str],
    unrecognized: Mapping[str, str | None],
    accepted: Sequence[str],
) -> str:
    """Render the shared "Invalid arguments" message within its limits.

    At most 20 problem lines are shown, then ``... and N more``; lines are
    dropped from the end until the whole message fits in 2,000 characters.
    """
    names = _lines(
        ("Missing parameters", ", ".join(missing)),
        ("Unrecognized parameters", _annotated(unrecognized)),
        ("Accepted parameters", ", ".join(accepted) if missing or unrecognized else ""),
    )
    limit = min(len(lines), MAX_PROBLEM_LINES)
    while True:
        shown = list(lines[:limit])
        if len(lines) > limit:
            shown.append(f"... and {len(lines) - limit} more")
        body = "\n".join(part for part in ("\n".join(shown), names) if part)
        text = f"{_INVALID_HEAD}\n\n{body}\n\n{_INVALID_TAIL}"
        if len(text) <= MAX_MESSAGE_CHARS or limit == 0:
            break
        limit -= 1
    if len(text) > MAX_MESSAGE_CHARS:
        text = text[: MAX_MESSAGE_CHARS - 3] + "..."
    return text
