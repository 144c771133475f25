"""Lists of names in a message, and the "did you mean" search that annotates them.

Part of the message texts (:mod:`toolparse.messages` re-exports every name).
The work is bounded whatever the model sent: a message shows at most
:data:`MAX_NAMES` names, each compared with at most :data:`MAX_CANDIDATES`
accepted names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = [
    "MAX_CANDIDATES",
    "MAX_NAMES",
    "argument_keys",
    "did_you_mean",
    "names_text",
    "nearest",
    "similarity",
    "suggestions",
    "unrecognized_names",
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


def similarity(name: str, candidate: str) -> float:
    """Score how likely ``name`` is a misspelling of ``candidate`` (0.0 to 1.0).

    Equal (case-insensitively) scores 1.0; when the shorter is at least 3
    characters and one contains the other, ``0.7 + 0.3 * shorter/longer``;
    otherwise the Jaro similarity when it is above 0.7, else 0. Two names that
    differ by one swap of adjacent letters (``kye``/``key``) score at least
    0.75: Jaro's matching window is too narrow to see a swap in a short name.
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
    score = score if score > 0.7 else 0.0
    return max(score, _SWAP_SCORE) if _one_swap(a, b) else score


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


def nearest(name: str, candidates: Sequence[str]) -> Sequence[str]:
    """At most :data:`MAX_CANDIDATES` of ``candidates``, those closest to ``name`` in length.

    Their order is kept (a tie in :func:`did_you_mean` goes to the first).
    """
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


def _closest(name: str, available: Sequence[str]) -> list[str]:
    """Tool names to list: sorted when few, else the closest to ``name`` first."""
    if len(available) <= MAX_NAMES:
        return sorted(available)
    low = name.lower()
    return sorted(available, key=lambda c: (-similarity(name, c), -_jaro(low, c.lower()), c))


def names_text(names: Sequence[str], limit: int = MAX_NAMES) -> str:
    """Names joined with ``", "``: at most ``limit``, then ``... and N more``."""
    if len(names) <= limit:
        return ", ".join(names)
    return f"{', '.join(names[:limit])}, ... and {len(names) - limit} more"


def _annotated_text(items: Sequence[tuple[str, str | None]], limit: int) -> str:
    """Sorted ``(name, suggestion)`` pairs as a names list: only the shown ones are worded."""
    shown = ", ".join(
        [
            name if hint is None else f'{name} (did you mean "{hint}"?)'
            for name, hint in items[:limit]
        ]
    )
    return shown if len(items) <= limit else f"{shown}, ... and {len(items) - limit} more"


def argument_keys(arguments: Mapping[Any, Any]) -> list[str]:
    """The argument names as strings (non-string keys are not names)."""
    return [key for key in arguments if isinstance(key, str)]


def unrecognized_names(arguments: Mapping[Any, Any], accepted: Sequence[str]) -> list[str]:
    """Sorted names that are not accepted; empty when ``accepted`` is unknown."""
    if not accepted:
        return []
    accepted_set = set(accepted)
    return sorted(k for k in argument_keys(arguments) if k not in accepted_set)
