"""``toolparse check``: tool definitions, and recorded calls against them.

Without call files every tool is defined and exported for the providers; every
broken definition and every refusal is reported (not only the first). With call
files each line is parsed against the tools without running them, streamed so
that memory stays flat, and summed up per tool.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from typing import IO, Any

from ..function import Function
from ._batch import check_batch
from ._errors import FAILED, OK, CommandError, say
from ._summary import Summary
from ._targets import Loaded, load_tools

__all__ = ["check"]

#: lines per batch handed to a worker process (large enough to amortise the
#: pickling, small enough that memory stays flat)
CHUNK = 2000


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
    status = _definition_problems(loaded, args)
    return max(status, _calls(loaded, args))


# -- definitions -------------------------------------------------------------------


def _provider_names(args: argparse.Namespace) -> list[str]:
    if args.provider:
        return [args.provider]
    # the default manager, looked up only when no provider was named
    from ..plugins import plugin_manager
    from ..providers import registered

    return sorted(registered(plugin_manager()))


def _refusals(tools: list[Function], providers: list[str], strict: bool) -> dict[str, list[str]]:
    """Per tool name (``""``: the tools together), what each provider refuses."""
    from .. import providers as formats

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
    refused = _refusals(loaded.tools, _provider_names(args), args.strict)
    out: list[dict[str, Any]] = []
    for line, message in loaded.broken:
        out.append({"line": line, "ok": False, "broken": message})
    for line, message in loaded.failed:
        out.append({"line": line, "ok": False, "failed": message})
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
    if args.json:
        for entry in out:
            print(json.dumps(entry))
    else:
        for entry in out:
            print(_definition_line(entry))
        what = "tool" if len(loaded.tools) == 1 else "tools"
        print(f"{len(loaded.tools)} {what} checked: {bad} problem(s)")
    return FAILED if bad else OK


def _definition_line(entry: dict[str, Any]) -> str:
    if "broken" in entry:
        return f"broken   line {entry['line']}: {entry['broken']}"
    if "failed" in entry:
        return f"failed   line {entry['line']}: {entry['failed']}"
    if "tool" not in entry:
        return "refused  the tools together: " + "; ".join(entry["refused"])
    if not entry["ok"]:
        return f"refused  {entry['tool']}: " + "; ".join(entry["refused"])
    names = ", ".join(entry["parameters"]) or "(any)"
    return (
        f"ok       {entry['tool']}: adapter {entry['adapter'] or 'none'}; parameters {names}; "
        f"schema {entry['schema_bytes']} bytes"
    )


def _definition_problems(loaded: Loaded, args: argparse.Namespace) -> int:
    """Before checking calls: say on stderr what is wrong with the definitions."""
    lines = [f"broken tool definition (line {n}): {m}" for n, m in loaded.broken]
    lines += [f"statement failed (line {n}): {m}" for n, m in loaded.failed]
    if args.provider:  # refusals matter here only for the provider asked about
        for name, problems in _refusals(loaded.tools, [args.provider], args.strict).items():
            lines += [f"refused {name or 'the tools together'}: {p}" for p in problems]
    for line in lines:
        say(line)
    return FAILED if lines else OK


# -- calls -----------------------------------------------------------------------


def _chunks(stream: IO[bytes], progress: _Progress | None) -> Iterator[tuple[int, list[bytes]]]:
    """``(first line number, lines)`` batches of ``stream``."""
    first, batch = 1, []
    for line in stream:
        batch.append(line)
        if len(batch) == CHUNK:
            yield first, batch
            first += CHUNK
            batch = []
            if progress is not None:
                progress.update(first - 1)
    if batch:
        yield first, batch


def _calls(loaded: Loaded, args: argparse.Namespace) -> int:
    names = [fn.name for fn in loaded.tools]
    summary = Summary(names)
    for path in args.calls:
        label = "<stdin>" if path == "-" else path
        stream = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115 - closed below
        progress = _Progress(label, stream) if sys.stderr.isatty() else None
        try:
            chunks = _chunks(stream, progress)
            if args.jobs == 1:
                parts: Iterator[tuple[Summary, str]] = (
                    check_batch(loaded.tools, names, first, lines, args.format, label, args.json)
                    for first, lines in chunks
                )
            else:
                from ._jobs import checked_in_processes

                parts = checked_in_processes(
                    loaded.target, names, chunks, args.jobs, args.format, label, args.json
                )
            for part, text in parts:
                summary.merge(part)
                if text:  # one write per batch: a write per line costs as much as the check
                    sys.stdout.write(text)
        finally:
            if progress is not None:
                progress.done()
            if path != "-":
                stream.close()
    if not args.json:
        print("\n".join(summary.lines()))
    return FAILED if summary.rejected else OK


class _Progress:
    """A one-line progress report on stderr (only when it is a terminal)."""

    def __init__(self, label: str, stream: IO[bytes]) -> None:
        self.label = label
        self.stream = stream
        try:
            self.size = os.fstat(stream.fileno()).st_size
        except (OSError, ValueError):
            self.size = 0
        self.last = 0.0

    def update(self, lines: int) -> None:
        now = time.monotonic()
        if now - self.last < 0.2:
            return
        self.last = now
        share = ""
        if self.size:
            try:
                share = f" ({100 * self.stream.tell() / self.size:.0f}%)"
            except (OSError, ValueError):
                pass
        sys.stderr.write(f"\rchecking {self.label}: {lines:,} lines{share}")
        sys.stderr.flush()

    def done(self) -> None:
        if self.last:
            sys.stderr.write("\r\x1b[K")  # clear the line
            sys.stderr.flush()
