""":class:`CheckSummary`: the counts of :func:`~toolparse.check_calls` results, as a value that merges."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .checking import CallCheck

__all__ = ["CheckSummary", "summary_text"]

# the reasons of a call no tool answers and of a record with no readable call, their rows,
# and where reasons are counted past the MAX_REASONS named per tool (reasons are short and
# countable by design, but a parser's free text could make each one unique)
UNKNOWN_TOOL, UNREADABLE = "unknown tool", "unreadable record"
UNKNOWN_TOOLS, UNREADABLE_RECORDS = "(unknown tools)", "(unreadable records)"
OTHER_REASONS, MAX_REASONS = "(other reasons)", 1000


@dataclass(slots=True)
class _Tally:
    """Counts per reason and where each was first seen, named as :class:`CheckSummary` says."""

    counts: dict[str, int] = field(default_factory=dict)
    first: dict[str, int] = field(default_factory=dict)
    #: the named reasons, sorted, once there are as many as may be named
    order: list[str] | None = field(default=None, compare=False)

    def add(self, reason: str, count: int, where: int) -> None:
        counts = self.counts
        if reason not in counts:
            named = len(counts) - (OTHER_REASONS in counts)
            if named >= MAX_REASONS and reason != OTHER_REASONS:
                reason = self._make_room(reason)
            if reason not in counts:
                counts[reason] = count
                self.first[reason] = where
                return
        counts[reason] += count
        if where < self.first[reason]:
            self.first[reason] = where

    def _make_room(self, reason: str) -> str:
        """``reason`` with the largest named one moved to the others, or the others."""
        if self.order is None:
            self.order = sorted(k for k in self.counts if k != OTHER_REASONS)
        if reason > self.order[-1]:
            return OTHER_REASONS
        last = self.order.pop()
        bisect.insort(self.order, reason)
        self.add(OTHER_REASONS, self.counts.pop(last), self.first.pop(last))
        return reason

    def merge(self, other: _Tally) -> None:
        for reason, count in other.counts.items():
            self.add(reason, count, other.first[reason])


@dataclass(slots=True)
class _Row:
    total: int = 0
    accepted: int = 0
    reasons: _Tally = field(default_factory=_Tally)


@dataclass(slots=True)
class CheckSummary:
    """Counts of :class:`CallCheck` results, per tool and per reason: what ``toolparse check`` prints.

    A value that merges: ``a + b`` is a new summary of both (in any order and
    grouping the same, so ``sum(parts, CheckSummary())`` works), :meth:`add`
    counts one more result in place, ``==`` compares by value, and a summary
    pickles. So an engine maps :func:`check_calls` over partitions and sums
    the partitions' summaries. ``str(summary)`` is the table the command prints.

    Past 1,000 distinct reasons per tool (a parser's free text can make each
    one unique), the first 1,000 in text order are named and the rest counted
    together as ``"(other reasons)"``, whatever order the parts are added in.
    """

    #: results counted
    total: int = field(default=0, init=False)
    #: results whose tool would run with the arguments
    accepted: int = field(default=0, init=False)
    #: unreadable records (a line that is not JSON, a record in no known shape)
    unreadable: int = field(default=0, init=False)
    # by tool, then the unknown and unreadable rows; the reasons of every result
    _rows: dict[str, _Row] = field(default_factory=dict, init=False, repr=False)
    _reasons: _Tally = field(default_factory=_Tally, init=False, repr=False)

    @classmethod
    def of(cls, checks: Iterable[CallCheck]) -> CheckSummary:
        """The summary of ``checks`` (read once, not kept)."""
        summary = cls()
        for check in checks:
            summary.add(check)
        return summary

    @property
    def rejected(self) -> int:
        """Results not accepted, unknown tools and unreadable records included."""
        return self.total - self.accepted

    @property
    def by_tool(self) -> dict[str, dict[str, int]]:
        """Tool name -> ``{"total", "accepted", "rejected"}`` (a new dict)."""
        return {
            name: {"total": r.total, "accepted": r.accepted, "rejected": r.total - r.accepted}
            for name, r in self._rows.items()
        }

    @property
    def by_reason(self) -> dict[str, int]:
        """Each entry of a result's ``reasons`` -> how many results gave it (a new dict)."""
        return dict(self._reasons.counts)

    def add(self, check: CallCheck) -> None:
        """Count one more result, in place."""
        self.total += 1
        reasons = check.reasons
        if check.tool is not None:
            key = check.tool
        elif UNREADABLE in reasons:
            self.unreadable += 1
            key = UNREADABLE_RECORDS
            # the message names the line's content; the kind of problem is what counts
            kind = (check.message or "").split(" (")[0].split(":")[0]
            reasons = (f"{UNREADABLE}: {kind}" if kind else UNREADABLE,)
        else:
            key, reasons = UNKNOWN_TOOLS, (f"{check.name}: {UNKNOWN_TOOL}",)
        row = self._rows.get(key) or self._rows.setdefault(key, _Row())
        row.total += 1
        if check.accepted:
            row.accepted += 1
            self.accepted += 1
            return
        for reason in reasons:
            row.reasons.add(reason, 1, check.record)
        for reason in check.reasons:
            self._reasons.add(reason, 1, check.record)

    def __iadd__(self, other: object) -> CheckSummary:
        if not isinstance(other, CheckSummary):
            return NotImplemented
        # (in place: a running total adds each part without copying what it holds so far)
        self.total += other.total
        self.accepted += other.accepted
        self.unreadable += other.unreadable
        self._reasons.merge(other._reasons)
        for name, theirs in other._rows.items():
            row = self._rows.get(name) or self._rows.setdefault(name, _Row())
            row.total += theirs.total
            row.accepted += theirs.accepted
            row.reasons.merge(theirs.reasons)
        return self

    def __add__(self, other: object) -> CheckSummary:
        if not isinstance(other, CheckSummary):
            return NotImplemented
        out = CheckSummary()
        out += self
        out += other
        return out

    def __str__(self) -> str:
        return summary_text([("", self)])

    def to_dict(self) -> dict[str, Any]:
        """The counts as plain JSON-ready data."""
        names = ("total", "accepted", "rejected", "unreadable", "by_tool", "by_reason")
        return {name: getattr(self, name) for name in names}


def summary_text(
    parts: Sequence[tuple[str, CheckSummary]],
    tools: Iterable[str] = (),
    records: int | None = None,
    top: int = 3,
) -> str:
    """The table of the summed ``(source, summary)`` parts: one row per tool, its reasons, the totals.

    A row for each of ``tools`` (in that order, with no calls too), then the others;
    under each, its ``top`` commonest reasons and where each was first seen (in the
    first source that has it: ``source:record``, or ``record N`` without a source).
    """
    total = sum((summary for _, summary in parts), CheckSummary())
    rows = total._rows
    names = list(dict.fromkeys([*tools, *rows]))
    width = max([len(n) for n in names] + [4])
    out = [f"{'tool':<{width}}  {'calls':>9}  {'accepted':>9}  {'rejected':>9}"]
    for name in names:
        row = rows.get(name) or _Row()
        rejected = row.total - row.accepted
        out.append(f"{name:<{width}}  {row.total:>9,}  {row.accepted:>9,}  {rejected:>9,}")
        counts = row.reasons.counts
        ranked = sorted(counts, key=lambda r: -counts[r])  # stable: among equals, the first seen
        for reason in ranked[:top]:
            first = _first(parts, name, reason)
            where = f"  (first at {first})" if first else ""
            out.append(f"    {counts[reason]:>9,}  {reason}{where}")
        if len(ranked) > top:
            out.append(f"    ... and {len(ranked) - top} more reasons")
    counted = "" if records is None else f" in {records:,} records"
    out.append(
        f"{total.total:,} calls{counted}: {total.accepted:,} accepted, {total.rejected:,} rejected"
    )
    return "\n".join(out)


def _first(parts: Sequence[tuple[str, CheckSummary]], row: str, reason: str) -> str | None:
    for source, summary in parts:
        found = summary._rows.get(row)
        if found is not None and reason in found.reasons.first:
            record = found.reasons.first[reason]
            return f"{source}:{record}" if source else f"record {record}"
    return None  # "(other reasons)" of a sum whose parts each named all theirs: no one place
