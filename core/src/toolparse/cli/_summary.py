"""The per-tool summary of ``toolparse check`` over call files: counts and the commonest reasons."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ..checking import UNKNOWN_TOOL, UNREADABLE, CallCheck

__all__ = ["Summary"]

UNKNOWN_ROW = "(unknown tools)"
UNREADABLE_ROW = "(unreadable records)"
#: distinct reasons kept per tool: reasons are short and countable by design,
#: but a parser's free text could make each one unique, and memory must stay flat
_MAX_REASONS = 1000


class _Row:
    __slots__ = ("accepted", "calls", "first", "reasons")

    def __init__(self) -> None:
        self.calls = 0
        self.accepted = 0
        self.reasons: Counter[str] = Counter()
        self.first: dict[str, tuple[str, int]] = {}  # reason -> (file, record) first seen in

    def note(self, reason: str, where: tuple[str, int]) -> None:
        if reason not in self.reasons and len(self.reasons) >= _MAX_REASONS:
            reason = "(other reasons)"
        self.reasons[reason] += 1
        self.first.setdefault(reason, where)


class Summary:
    """Counts per tool, built one result at a time (the results are not kept).

    :param tools: the tool names, in the order the rows are shown.
    """

    def __init__(self, tools: Iterable[str]) -> None:
        self.rows: dict[str, _Row] = {name: _Row() for name in tools}
        self.records = 0

    @property
    def rejected(self) -> int:
        """How many results were rejections (unknown tools and unreadable records included)."""
        return sum(r.calls - r.accepted for r in self.rows.values())

    @property
    def calls(self) -> int:
        """How many calls were checked (an unreadable record counts as one)."""
        return sum(r.calls for r in self.rows.values())

    def add(self, result: CallCheck, source: str) -> None:
        """Count one result; ``source`` names the file it came from."""
        if result.tool is not None:
            key = result.tool
        elif UNREADABLE in result.reasons:
            key = UNREADABLE_ROW
        else:
            key = UNKNOWN_ROW
        row = self.rows.get(key)
        if row is None:
            row = self.rows[key] = _Row()
        row.calls += 1
        if result.accepted:
            row.accepted += 1
            return
        where = (source, result.record)
        if key == UNKNOWN_ROW:
            row.note(f"{result.name}: {UNKNOWN_TOOL}", where)
        elif key == UNREADABLE_ROW:
            # the message names the line's content; the kind of problem is what counts
            kind = (result.message or "").split(" (")[0].split(":")[0]
            row.note(f"{UNREADABLE}: {kind}" if kind else UNREADABLE, where)
        else:
            for reason in result.reasons:
                row.note(reason, where)

    def merge(self, other: Summary) -> None:
        """Add the counts of ``other`` (a later part of the same input) to these."""
        self.records += other.records
        for name, theirs in other.rows.items():
            row = self.rows.get(name)
            if row is None:
                row = self.rows[name] = _Row()
            row.calls += theirs.calls
            row.accepted += theirs.accepted
            for reason, count in theirs.reasons.items():
                key = reason
                if key not in row.reasons and len(row.reasons) >= _MAX_REASONS:
                    key = "(other reasons)"
                row.reasons[key] += count
                row.first.setdefault(key, theirs.first[reason])

    def lines(self, top: int = 3) -> list[str]:
        """The summary as text: one row per tool, its ``top`` commonest reasons under it."""
        names = list(self.rows)
        width = max([len(n) for n in names] + [4])
        out = [f"{'tool':<{width}}  {'calls':>9}  {'accepted':>9}  {'rejected':>9}"]
        for name in names:
            row = self.rows[name]
            out.append(
                f"{name:<{width}}  {row.calls:>9,}  {row.accepted:>9,}  {row.calls - row.accepted:>9,}"
            )
            for reason, count in row.reasons.most_common(top):
                out.append(
                    f"    {count:>9,}  {reason}  (first at {':'.join(map(str, row.first[reason]))})"
                )
            if len(row.reasons) > top:
                out.append(f"    ... and {len(row.reasons) - top} more reasons")
        calls, rejected = self.calls, self.rejected
        out.append(
            f"{calls:,} calls in {self.records:,} records: "
            f"{calls - rejected:,} accepted, {rejected:,} rejected"
        )
        return out
