"""``toolparse check``: tool definitions (every problem, not only the first), and recorded calls.

Calls are streamed in batches so that memory stays flat; ``--jobs N`` checks them in N
processes and takes the results back in file order, so the output is the same as with one.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, Any

from .. import providers as formats
from .._summary import CheckSummary, summary_text
from ..checking import check_calls
from ..function import Function
from ._parquet import is_parquet, parquet_batches
from ._targets import FAILED, OK, CommandError, Loaded, load_tools, say

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = ["check"]

#: lines per batch (large enough to amortise sending it to a worker, small enough that memory stays flat)
CHUNK = 2000


def check(args: argparse.Namespace) -> int:
    """Run ``toolparse check``; return the exit status."""
    if args.jobs < 1:
        raise CommandError(f"--jobs must be at least 1, got {args.jobs}")
    for path in args.calls:
        if path != "-" and os.path.isdir(path):
            raise CommandError(f"{path} is a directory; name the files of recorded calls in it")
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

#: what checking one batch gives: its summary, its number of records, its ``--json`` lines
Part = tuple[CheckSummary, int, str]


def _check_batch(
    tools: list[Function], first: int, records: list[Any], label: str, fmt: str, as_json: bool
) -> Part:
    """The batch's summary and ``--json`` text, made here: a worker sends no result objects back."""
    summary, out = CheckSummary(), []
    add = summary.add
    for result in check_calls(tools, records, format=fmt, start=first):
        add(result)
        if as_json:
            out.append(json.dumps({"file": label, **result.as_dict()}) + "\n")
    return summary, len(records), "".join(out)


#: the tools of a ``--jobs`` worker process (loaded once, by the pool's initializer)
_worker_tools: list[Function] = []


def _start_worker(target: str) -> None:
    # Ctrl-C reaches the whole process group: the command stops its workers itself, after
    # their batch (a worker interrupted inside the pool's queue can hang the shutdown)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_tools[:] = load_tools(target, tolerant=True).tools


def _check_in_worker(*batch: Any) -> Part:
    return _check_batch(_worker_tools, *batch)


def _in_processes(target: str, jobs: int, batches: Iterator[tuple[Any, ...]]) -> Iterator[Part]:
    """Each batch checked by one of ``jobs`` processes, in order; at most two per worker in flight."""
    # multiprocessing costs a tenth of the command's start: imported with --jobs only
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(target,))
    try:
        pending: deque[Future[Part]] = deque()
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
    finally:  # interrupted: what was not started never starts
        pool.shutdown(cancel_futures=True)


def _batches(
    chunks: Iterator[list[Any]], share: Callable[[], str], label: str, *rest: Any
) -> Generator[tuple[Any, ...], None, None]:
    """``(first record number, records, label, *rest)`` per chunk; on a terminal, a progress line."""
    first, shown = 1, 0.0
    terminal = sys.stderr.isatty()
    try:
        for records in chunks:
            yield first, records, label, *rest
            first += len(records)
            if terminal and time.monotonic() - shown >= 0.2:
                shown = time.monotonic()
                sys.stderr.write(f"\rchecking {label}: {first - 1:,} lines{share()}")
                sys.stderr.flush()
    finally:
        chunks.close()  # type: ignore[attr-defined]  # a generator: its file closes now
        if shown:
            sys.stderr.write("\r\x1b[K")  # clear the line
            sys.stderr.flush()


def _whole(text: str) -> None:
    """Write ``text`` to stdout and flush it, Ctrl-C held until it is out: only whole lines."""
    mask = getattr(signal, "pthread_sigmask", None)  # not on Windows
    held = mask(signal.SIG_BLOCK, {signal.SIGINT}) if mask is not None and text else None
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    finally:
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _jsonl(path: str) -> tuple[Iterator[list[Any]], Callable[[], str]]:
    """Lists of at most :data:`CHUNK` lines of ``path`` (``-``: stdin), and the share read so far."""
    stream = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115 - closed below

    def chunks() -> Iterator[list[bytes]]:
        try:
            yield from iter(lambda: list(itertools.islice(stream, CHUNK)), [])
        finally:
            if path != "-":
                stream.close()

    def share() -> str:
        try:  # a pipe has no size and no position
            return f" ({100 * stream.tell() / os.fstat(stream.fileno()).st_size:.0f}%)"
        except (OSError, ValueError, ZeroDivisionError):
            return ""

    return chunks(), share


def _calls(loaded: Loaded, args: argparse.Namespace) -> int:
    parts: list[tuple[str, CheckSummary]] = []  # per file, for where each reason was first seen
    records = 0
    if args.column is not None and not any(p != "-" and is_parquet(p) for p in args.calls):
        raise CommandError("--column names a Parquet file's column: none of the files is Parquet")
    for path in args.calls:
        label = "<stdin>" if path == "-" else path
        if path != "-" and is_parquet(path):
            chunks, share = parquet_batches(path, args.column, CHUNK)
        else:
            chunks, share = _jsonl(path)
        batches = _batches(chunks, share, label, args.format, args.json)
        summary = CheckSummary()
        try:
            if args.jobs == 1:
                done: Iterator[Part] = (_check_batch(loaded.tools, *b) for b in batches)
            else:
                done = _in_processes(args.target, args.jobs, batches)
            for part, count, text in done:
                summary += part
                records += count
                _whole(text)  # per batch: a write per line costs as much as the check
        finally:
            batches.close()  # its progress line is cleared before anything else is said
        parts.append((label, summary))
    if not args.json:
        print(summary_text(parts, [fn.name for fn in loaded.tools], records))
    return FAILED if any(part.rejected for _, part in parts) else OK
