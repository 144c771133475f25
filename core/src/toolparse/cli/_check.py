"""``toolparse check``: tool definitions, and recorded calls against them.

Without call files every tool is defined and exported for the providers; every
broken definition and every refusal is reported (not only the first). With call
files each line is parsed against the tools without running them, streamed in
batches so that memory stays flat, and summed up per tool; ``--jobs N`` checks
the batches in N worker processes and takes their results back in file order,
so the output is the same as with one process.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, defaultdict, deque
from collections.abc import Generator, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

from .. import providers as formats
from ..checking import UNKNOWN_TOOL, UNREADABLE, CallCheck, check_calls
from ..function import Function
from ._targets import FAILED, OK, CommandError, Loaded, load_tools, say

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = ["check"]

#: lines per batch (large enough to amortise sending it to a worker, small enough that memory stays flat)
CHUNK = 2000
#: distinct reasons kept per tool: reasons are short and countable by design, but a
#: parser's free text could make each one unique, and memory must stay flat
_MAX_REASONS = 1000


def check(args: argparse.Namespace) -> int:
    """Run ``toolparse check``; return the exit status."""
    if args.jobs < 1:
        raise CommandError(f"--jobs must be at least 1, got {args.jobs}")
    for path in args.calls:
        if path != "-" and not os.path.isfile(path):
            raise CommandError(f"no such file: {path}")
    loaded = load_tools(args.target, tolerant=True)
    if not args.calls:
        return _definitions(loaded, args)
    # before the calls, what is wrong with the definitions goes to stderr
    lines = [f"broken tool definition (line {n}): {m}" for n, m in loaded.broken]
    lines += [f"statement failed (line {n}): {m}" for n, m in loaded.failed]
    if args.provider:  # refusals matter here only for the provider asked about
        for name, problems in _refusals(loaded.tools, [args.provider], args.strict).items():
            lines += [f"refused {name or 'the tools together'}: {p}" for p in problems]
    for line in lines:
        say(line)
    return max(FAILED if lines else OK, _calls(loaded, args))


# -- definitions -------------------------------------------------------------------


def _refusals(tools: list[Function], providers: list[str], strict: bool) -> dict[str, list[str]]:
    """Per tool name (``""``: the tools together), what each provider refuses."""
    found: dict[str, list[str]] = {}
    for fn in tools:
        for provider in providers:
            try:
                formats.to_tool(fn, provider, strict=True if strict else None)
            except ValueError as exc:
                found.setdefault(fn.name, []).append(f"{provider}: {exc}")
    for provider in providers:
        try:
            formats.to_tools(tools, provider)
        except ValueError as exc:
            if not any(str(exc) in p for ps in found.values() for p in ps):
                found.setdefault("", []).append(f"{provider}: {exc}")
    return found


def _definitions(loaded: Loaded, args: argparse.Namespace) -> int:
    # without -p: every provider the default manager knows
    providers = [args.provider] if args.provider else sorted(formats.registered())
    refused = _refusals(loaded.tools, providers, args.strict)
    out: list[dict[str, Any]] = [{"line": n, "ok": False, "broken": m} for n, m in loaded.broken]
    out += [{"line": n, "ok": False, "failed": m} for n, m in loaded.failed]
    for fn in loaded.tools:
        entry: dict[str, Any] = {
            "tool": fn.name,
            "ok": fn.name not in refused,
            "adapter": fn.adapter.name if fn.adapter else None,
            "parameters": fn.accepted_param_names(),
            "schema_bytes": len(json.dumps(fn.json_schema())),
        }
        if fn.name in refused:
            entry["refused"] = refused[fn.name]
        out.append(entry)
    if "" in refused:
        out.append({"ok": False, "refused": refused[""]})
    bad = sum(not e["ok"] for e in out)
    for entry in out:
        print(json.dumps(entry) if args.json else _definition_line(entry))
    if not args.json:
        count = len(loaded.tools)
        print(f"{count} tool{'' if count == 1 else 's'} checked: {bad} problem(s)")
    return FAILED if bad else OK


def _definition_line(entry: dict[str, Any]) -> str:
    for kind in ("broken", "failed"):
        if kind in entry:
            return f"{kind}   line {entry['line']}: {entry[kind]}"
    if not entry["ok"]:
        return f"refused  {entry.get('tool', 'the tools together')}: " + "; ".join(entry["refused"])
    names = ", ".join(entry["parameters"]) or "(any)"
    adapter = entry["adapter"] or "none"
    return f"ok       {entry['tool']}: adapter {adapter}; parameters {names}; schema {entry['schema_bytes']} bytes"


# -- calls -----------------------------------------------------------------------


class _Row:
    __slots__ = ("accepted", "calls", "first", "reasons")

    def __init__(self) -> None:
        self.calls = self.accepted = 0
        self.reasons: Counter[str] = Counter()
        self.first: dict[str, tuple[str, int]] = {}  # reason -> (file, record) first seen in

    def note(self, reason: str, count: int, where: tuple[str, int]) -> None:
        if reason not in self.reasons and len(self.reasons) >= _MAX_REASONS:
            reason = "(other reasons)"
        self.reasons[reason] += count
        self.first.setdefault(reason, where)


class Summary:
    """Counts per tool (rows in the order given), built one result at a time (results are not kept)."""

    def __init__(self, tools: Iterable[str]) -> None:
        self.records = 0
        self.rows: defaultdict[str, _Row] = defaultdict(_Row, {name: _Row() for name in tools})

    def add(self, result: CallCheck, source: str) -> None:
        """Count one result; ``source`` names the file it came from."""
        if result.tool is not None:
            row, reasons = self.rows[result.tool], result.reasons
        elif UNREADABLE in result.reasons:
            # the message names the line's content; the kind of problem is what counts
            kind = (result.message or "").split(" (")[0].split(":")[0]
            row = self.rows["(unreadable records)"]
            reasons = (f"{UNREADABLE}: {kind}" if kind else UNREADABLE,)
        else:
            row, reasons = self.rows["(unknown tools)"], (f"{result.name}: {UNKNOWN_TOOL}",)
        row.calls += 1
        if result.accepted:
            row.accepted += 1
            return
        for reason in reasons:
            row.note(reason, 1, (source, result.record))

    def merge(self, other: Summary) -> None:
        """Add the counts of ``other`` (a later part of the same input) to these."""
        self.records += other.records
        for key, theirs in other.rows.items():
            row = self.rows[key]
            row.calls += theirs.calls
            row.accepted += theirs.accepted
            for reason, count in theirs.reasons.items():
                row.note(reason, count, theirs.first[reason])

    def text(self, top: int = 3) -> str:
        """One row per tool, its ``top`` commonest reasons under it, and the totals."""
        width = max([len(n) for n in self.rows] + [4])
        out = [f"{'tool':<{width}}  {'calls':>9}  {'accepted':>9}  {'rejected':>9}"]
        for name, row in self.rows.items():
            rejected = row.calls - row.accepted
            out.append(f"{name:<{width}}  {row.calls:>9,}  {row.accepted:>9,}  {rejected:>9,}")
            for reason, count in row.reasons.most_common(top):
                where = ":".join(map(str, row.first[reason]))
                out.append(f"    {count:>9,}  {reason}  (first at {where})")
            if len(row.reasons) > top:
                out.append(f"    ... and {len(row.reasons) - top} more reasons")
        calls = sum(r.calls for r in self.rows.values())
        accepted = sum(r.accepted for r in self.rows.values())
        out.append(
            f"{calls:,} calls in {self.records:,} records: {accepted:,} accepted, {calls - accepted:,} rejected"
        )
        return "\n".join(out)


def _check_batch(
    tools: list[Function], first: int, lines: list[bytes], label: str, fmt: str, as_json: bool
) -> tuple[Summary, str]:
    """The batch's summary and ``--json`` text, made here: a worker sends no result objects back."""
    summary = Summary(fn.name for fn in tools)
    summary.records = len(lines)
    out = []
    for result in check_calls(tools, lines, format=fmt, start=first):
        summary.add(result, label)
        if as_json:
            out.append(json.dumps({"file": label, **result.as_dict()}) + "\n")
    return summary, "".join(out)


#: the tools of a ``--jobs`` worker process (loaded once, by the pool's initializer)
_worker_tools: list[Function] = []


def _start_worker(target: str) -> None:
    _worker_tools[:] = load_tools(target, tolerant=True).tools


def _check_in_worker(*batch: Any) -> tuple[Summary, str]:
    return _check_batch(_worker_tools, *batch)


def _in_processes(
    target: str, jobs: int, batches: Iterator[tuple[Any, ...]]
) -> Iterator[tuple[Summary, str]]:
    """Each batch checked by one of ``jobs`` processes, in order; at most two per worker in flight."""
    # multiprocessing costs a tenth of the command's start: imported with --jobs only
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    try:
        with ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(target,)) as pool:
            pending: deque[Future[tuple[Summary, str]]] = deque()
            for batch in batches:
                pending.append(pool.submit(_check_in_worker, *batch))
                if len(pending) >= 2 * jobs:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
    except BrokenProcessPool:
        message = (
            "a --jobs worker process stopped before it finished; run without --jobs to see why"
        )
        raise CommandError(message, FAILED) from None


def _batches(stream: IO[bytes], label: str, *rest: Any) -> Generator[tuple[Any, ...], None, None]:
    """``(first line number, lines, label, *rest)`` per batch; on a terminal, a progress line."""
    first, lines, shown = 1, [], 0.0
    terminal = sys.stderr.isatty()
    try:
        for line in stream:
            lines.append(line)
            if len(lines) == CHUNK:
                yield first, lines, label, *rest
                first, lines = first + CHUNK, []
                if terminal and time.monotonic() - shown >= 0.2:
                    shown = time.monotonic()
                    try:  # a pipe has no size and no position
                        size = os.fstat(stream.fileno()).st_size
                        share = f" ({100 * stream.tell() / size:.0f}%)"
                    except (OSError, ValueError, ZeroDivisionError):
                        share = ""
                    sys.stderr.write(f"\rchecking {label}: {first - 1:,} lines{share}")
                    sys.stderr.flush()
        if lines:
            yield first, lines, label, *rest
    finally:
        if shown:
            sys.stderr.write("\r\x1b[K")  # clear the line
            sys.stderr.flush()


def _calls(loaded: Loaded, args: argparse.Namespace) -> int:
    summary = Summary(fn.name for fn in loaded.tools)
    for path in args.calls:
        label = "<stdin>" if path == "-" else path
        stream = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115 - closed below
        batches = _batches(stream, label, args.format, args.json)
        try:
            if args.jobs == 1:
                parts: Iterator[tuple[Summary, str]] = (
                    _check_batch(loaded.tools, *b) for b in batches
                )
            else:
                parts = _in_processes(args.target, args.jobs, batches)
            for part, text in parts:
                summary.merge(part)
                sys.stdout.write(text)  # per batch: a write per line costs as much as the check
        finally:
            batches.close()  # its progress line is cleared before anything else is said
            if path != "-":
                stream.close()
    if not args.json:
        print(summary.text())
    return FAILED if any(r.calls != r.accepted for r in summary.rows.values()) else OK
