"""The recipes of docs/scale-out.md, run as written: the tools block, then one engine's block."""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any

import toolparse as tp

PAGE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "scale-out.md"
BLOCK = re.compile(r"^```\{code-block\} python\n:caption: (.*?)\n\n(.*?)^```", re.DOTALL | re.M)

#: the recorded calls, a few of every kind: accepted, rejected, unknown, unreadable
RECORDS: list[Any] = [
    {"name": "weather", "arguments": {"city": "Oslo", "days": 2}},
    {"name": "weather", "arguments": {"city": "Oslo", "days": "two"}},
    {"name": "weather", "arguments": {"cty": "Oslo"}},
    {"name": "forecast", "arguments": '{"city": "Lima"}'},
    {"name": "forecast", "arguments": "{}"},
    {"name": "wether", "arguments": {}},
    {"type": "tool_use", "id": "t1", "name": "weather", "input": {"city": "Rome"}},
    "not json",
]


def blocks() -> dict[str, str]:
    """The page's recipes by caption."""
    return dict(BLOCK.findall(PAGE.read_text(encoding="utf-8")))


def write_calls(folder: pathlib.Path, files: int = 3, copies: int = 20) -> list[str]:
    """``calls/*.jsonl`` in ``folder``; every line written, in order."""
    (folder / "calls").mkdir()
    lines = [r if isinstance(r, str) else json.dumps(r) for r in RECORDS] * copies
    for i in range(files):
        (folder / "calls" / f"part-{i}.jsonl").write_text("".join(f"{x}\n" for x in lines))
    return lines * files


def run(caption: str) -> tuple[tp.CheckSummary, tp.CheckSummary]:
    """The summary the recipe printed, and the one ``check_calls`` gives in this process.

    The code runs as a driver script does (``__main__``), so its tools are not importable
    elsewhere: a worker gets them by value. Run with ``calls/`` in the current directory.
    """
    found = blocks()
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(found["The tools, in the driver"], str(PAGE), "exec"), namespace)
    exec(compile(found[caption], f"{PAGE} ({caption})", "exec"), namespace)
    lines = sorted(pathlib.Path("calls").glob("*.jsonl"))
    every = [line for path in lines for line in path.read_text().splitlines()]
    here = tp.CheckSummary.of(tp.check_calls(namespace["tools"], every))
    return namespace["summary"], here
