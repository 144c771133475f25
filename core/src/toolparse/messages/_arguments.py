"""Names and their "did you mean", and the texts of rejected arguments.

Part of the message texts (:mod:`toolparse.messages` re-exports every name).
The work is bounded whatever the model sent: a message shows at most
:data:`MAX_NAMES` names, each compared with at most :data:`MAX_CANDIDATES`
accepted names. Every text fits in :data:`MAX_MESSAGE_CHARS`: the lists of
names give way first (fewer names, each line still counting the rest), then
the problem lines, from the end; the head and the tail always stay.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ._safe_text import MAX_MESSAGE_CHARS, cap, value_text

__all__ = [
    "MAX_CANDIDATES",
    "MAX_NAMES",
    "MAX_PROBLEM_LINES",
    "closest",
    "did_you_mean",
    "fitted",
    "invalid",
    "key_error",
    "missing_required",
    "names_text",
    "nearest",
    "similarity",
    "suggestions",
    "unrecognized_names",
    "unrecognized_only",
]

#: the most names one line of a message shows; the rest are counted (``... and N more``)
MAX_NAMES = 30
#: the most accepted names one unrecognized name is compared with
MAX_CANDIDATES = 200
_SWAP_SCORE = 0.75


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
        # the first character of b in the window equal to ch and not yet matched
        hi = i + window + 1
        j = b.find(ch, max(0, i - window), hi)
        while j >= 0 and b_hit[j]:
            j = b.find(ch, j + 1, hi)
        if j >= 0:
            a_hit[i] = b_hit[j] = True
            matches += 1
    if not matches:
        return 0.0
    a_matched = [c for c, hit in zip(a, a_hit, strict=True) if hit]
    b_matched = [c for c, hit in zip(b, b_hit, strict=True) if hit]
    transpositions = sum(x != y for x, y in zip(a_matched, b_matched, strict=True))
    m = float(matches)
    return (m / la + m / lb + (m - transpositions / 2) / m) / 3


def _one_swap(a: str, b: str) -> bool:
    """Whether ``a`` becomes ``b`` by swapping one pair of adjacent letters."""
    if len(a) != len(b) or len(a) < 2:
        return False
    diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return (
        len(diffs) == 2
        and diffs[1] == diffs[0] + 1
        and a[diffs[0]] == b[diffs[1]]
        and a[diffs[1]] == b[diffs[0]]
    )


def _ending_only(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` share only an ending (``address``, ``express``), not one letter before it."""
    k = 0
    while k < len(a) and k < len(b) and a[-1 - k] == b[-1 - k]:
        k += 1
    rest_a, rest_b = a[: len(a) - k], b[: len(b) - k]
    return k > 0 and max(len(rest_a), len(rest_b)) > 1 and not set(rest_a) & set(rest_b)


def similarity(name: str, candidate: str) -> float:
    """Score how likely ``name`` is a misspelling of ``candidate`` (0.0 to 1.0).

    Equal (case-insensitively) scores 1.0; when the shorter is at least 3
    characters and one contains the other, ``0.7 + 0.3 * shorter/longer``;
    otherwise the Jaro similarity when it is above 0.7 and the two share more
    than an ending (``address`` is no typo of ``express``: with ``ress``
    removed, ``add`` and ``exp`` have no letter in common), else 0. Two names
    that differ by one swap of adjacent letters (``kye``/``key``) score at
    least 0.75: Jaro's matching window is too narrow to see a swap in a short
    name.
    """
    a, b = name.lower(), candidate.lower()
    if a == b:
        return 1.0
    shorter, longer = (a, b) if len(a) <= len(b) else (b, a)
    if len(shorter) >= 3 and shorter in longer:
        return 0.7 + 0.3 * len(shorter) / len(longer)
    if len(shorter) * 10 < len(longer):
        # Jaro is at most (s/l + 2) / 3, under 0.7 here: no need for its
        # quadratic-in-length work (a long key against short names)
        return 0.0
    score = _jaro(a, b)
    score = score if score > 0.7 and not _ending_only(a, b) else 0.0
    return max(score, _SWAP_SCORE) if _one_swap(a, b) else score


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """Return the best-scoring candidate for ``name``, or ``None``.

    A tie goes to the first candidate, so pass candidates in declaration order.
    """
    scored = ((similarity(name, c), c) for c in candidates)
    score, best = max(scored, key=lambda pair: pair[0], default=(0.0, None))  # the first of a tie
    return best if score > 0 else None


def nearest(name: str, candidates: Sequence[str]) -> Sequence[str]:
    """The :data:`MAX_CANDIDATES` closest to ``name`` in length, in order (a tie goes to the first)."""
    if len(candidates) <= MAX_CANDIDATES:
        return candidates
    size = len(name)
    near = set(sorted(candidates, key=lambda c: abs(len(c) - size))[:MAX_CANDIDATES])
    return [c for c in candidates if c in near]


def suggestions(
    unrecognized: Iterable[str], accepted: Sequence[str], sent: Iterable[str]
) -> dict[str, str | None]:
    """Map each unrecognized name, sorted, to its suggestion among the names not yet sent.

    Only the names a message can show (the first :data:`MAX_NAMES`) get a
    suggestion, searched among at most :data:`MAX_CANDIDATES` names.
    """
    sent_set = set(sent)
    candidates = [name for name in accepted if name not in sent_set]
    names = sorted(unrecognized)
    found: dict[str, str | None] = dict.fromkeys(names)
    for name in names[:MAX_NAMES]:
        found[name] = did_you_mean(name, nearest(name, candidates))
    return found


def share(shared: int, size: int, length: int) -> float:
    """How close two names are by the ``shared`` letters they have: a share of each's length."""
    return shared / size + shared / length if shared else 0.0


def closest(name: str, available: Sequence[str]) -> list[str]:
    """Tool names to list: sorted when few, else the closest to ``name`` first.

    First those that score (:func:`similarity`), best first, then the others by
    the letters they share with ``name`` (:func:`share`), then by name.
    """
    if len(available) <= MAX_NAMES:
        return sorted(available)
    low = name.lower()
    letters = Counter(low)

    def key(c: str) -> tuple[float, float, str]:
        shared = sum((letters & Counter(c.lower())).values())
        return -similarity(name, c), -share(shared, len(low), len(c.lower())), c

    return sorted(available, key=key)


def names_text(names: Sequence[str], limit: int = MAX_NAMES, total: int | None = None) -> str:
    """Names joined with ``", "``: at most ``limit``, then ``... and N more``.

    ``total``: how many names there are, when ``names`` holds only the first.
    """
    total = len(names) if total is None else total
    if total <= limit:
        return ", ".join(names)
    return f"{', '.join(names[:limit])}, ... and {total - limit} more"


def _annotated_text(items: Sequence[tuple[str, str | None]], limit: int) -> str:
    """Sorted ``(name, suggestion)`` pairs as a names list: only the shown ones are worded."""
    shown = ", ".join(n if h is None else f'{n} (did you mean "{h}"?)' for n, h in items[:limit])
    return shown if len(items) <= limit else f"{shown}, ... and {len(items) - limit} more"


def unrecognized_names(arguments: Mapping[Any, Any], accepted: Sequence[str]) -> list[str]:
    """Sorted text keys that are not accepted; empty when ``accepted`` is unknown."""
    if not accepted:
        return []
    accepted_set = set(accepted)
    return sorted(k for k in arguments if isinstance(k, str) and k not in accepted_set)


# -- the texts of rejected arguments ------------------------------------------------

MAX_PROBLEM_LINES = 20

#: the names a names line shows, tried in turn until the whole message fits
_NAME_LIMITS = (30, 15, 8, 4, 2, 1)


def fitted(build: Callable[[int], str], limits: Iterable[int] = _NAME_LIMITS) -> str:
    """The text ``build(limit)`` gives for the first of ``limits`` that fits in a message."""
    for limit in limits:
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
    lines = (  # (an empty list is left out before its text is made: most are)
        ("Required", required and names_text(required, limit)),
        ("Missing", missing and names_text(missing, limit)),
        ("Unrecognized", found and _annotated_text(found, limit)),
        ("Accepted", accepted and names_text(accepted, limit)),
    )
    return "\n".join([f"{label} parameters: {text}" for label, text in lines if text])


def missing_required(
    required: Sequence[str],
    missing: Sequence[str],
    unrecognized: Mapping[str, str | None],
    accepted: Sequence[str],
) -> str:
    """The message for required parameters the model did not send (none: unknown names only)."""
    head = "Missing required" if missing else "Unrecognized"
    found = sorted(unrecognized.items())
    tail = "Ensure you're passing the correct parameter names as defined in the tool schema."
    return fitted(
        lambda limit: (
            f"{head} parameters for this tool.\n\n"
            f"{_names_lines(limit, missing, found, accepted, required)}\n\n{tail}"
        )
    )


def unrecognized_only(unrecognized: Mapping[str, str | None], accepted: Sequence[str]) -> str:
    """The message for unknown names when nothing required is missing."""
    return missing_required((), (), unrecognized, accepted)


def key_error(missing_key: object, arguments: Mapping[Any, Any], accepted: Sequence[str]) -> str:
    """The one-line message for a body that read an argument it was not sent."""
    keys = [key for key in arguments if isinstance(key, str)]
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

    return fitted(build)


def invalid(
    lines: Sequence[str],
    missing: Sequence[str] = (),
    unrecognized: Mapping[str, str | None] | None = None,
    accepted: Sequence[str] = (),
    more: int = 0,
) -> str:
    """The shared "Invalid arguments" message: at most :data:`MAX_PROBLEM_LINES` of ``lines``.

    ``missing`` (names not sent) and ``unrecognized`` (each with its suggestion or ``None``)
    make the names lines, with the ``accepted`` names; ``more`` counts further problems.
    """
    count = len(lines) + more
    # (no min() nor bool(): on every rejected call, a builtin's call costs more than the test)
    shown = len(lines) if len(lines) < MAX_PROBLEM_LINES else MAX_PROBLEM_LINES
    found = sorted(unrecognized.items()) if unrecognized else []
    for limit in _NAME_LIMITS if missing or found else (0,):  # (0: no names line)
        listed = _names_lines(limit, missing, found, accepted) if limit else ""
        text = _invalid_text(lines, shown, count, listed)
        if len(text) <= MAX_MESSAGE_CHARS:
            return text
    # then fewer problem lines, from the end
    return fitted(lambda n: _invalid_text(lines, n, count, listed), range(shown, -1, -1))


def _invalid_text(lines: Sequence[str], shown: int, count: int, names: str) -> str:
    """The "Invalid arguments" message with the first ``shown`` of ``count`` problem lines."""
    body = "\n".join(lines[:shown])
    if count > shown:
        body = f"{body}\n... and {count - shown} more" if body else f"... and {count} more"
    body = f"{body}\n{names}" if body and names else body or names
    return f"Invalid arguments for this tool.\n\n{body}\n\nFix these arguments and call the tool again."
