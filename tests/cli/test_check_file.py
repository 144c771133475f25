"""``toolparse check TOOLS CALLS.jsonl`` over a generated file of 100,000 lines of several shapes.

One sequential run is shared by the tests of counts and of memory; ``--json``
and ``--jobs 2`` get a run each.
"""

from __future__ import annotations

import json
import os
import pathlib
import pty
import re
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

LINES = 100_000
SMALL = 10_000


def _completion(*calls: tuple[str, str]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": a}}
                        for i, (n, a) in enumerate(calls)
                    ],
                },
            }
        ],
    }


#: one cycle of 20 lines, in every shape the command reads
CYCLE: list[Any] = [
    *[{"name": "weather", "arguments": {"city": "Oslo"}}] * 6,
    {"name": "weather", "arguments": '{"cty": "Oslo"}'},
    _completion(("weather", '{"city": "x"}')),
    _completion(("weather", '{"city": "y"}'), ("score", '{"n": 1}')),
    {
        "type": "function_call",
        "id": "fc",
        "call_id": "r1",
        "name": "score",
        "arguments": '{"n": "x"}',
    },
    {"type": "tool_use", "id": "t1", "name": "score", "input": {"n": 3}},
    {
        "id": "msg",
        "type": "message",
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Let me look."},
            {"type": "tool_use", "id": "t2", "name": "weather", "input": {}},
        ],
    },
    {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"functionCall": {"name": "score", "args": {"n": 2.0}}}],
                }
            }
        ]
    },
    {
        "jsonrpc": "2.0",
        "id": 5,
        "method": "tools/call",
        "params": {"name": "wether", "arguments": {}},
    },
    {"name": "weather", "arguments": "{bad"},
    "not json",
    "",
    {"role": "assistant", "content": "No tools needed."},
    {"name": "score", "arguments": {"n": 5}},
    {"role": "model", "parts": [{"functionCall": {"name": "weather", "args": {"city": "Rome"}}}]},
]
assert len(CYCLE) == 20
CYCLES = LINES // len(CYCLE)

#: what one cycle holds: row -> (calls, accepted, {reason: count})
PER_CYCLE: dict[str, tuple[int, int, dict[str, int]]] = {
    "weather": (
        12,
        9,
        {"city: is required": 2, "cty: unrecognized parameter": 1, "invalid JSON": 1},
    ),
    "score": (5, 4, {"n must be an integer": 1}),
    "whoami": (0, 0, {}),
    "(unknown tools)": (1, 0, {"wether: unknown tool": 1}),
    "(unreadable records)": (1, 0, {"unreadable record: not JSON": 1}),
}


def _write(path: pathlib.Path, lines: int) -> pathlib.Path:
    text = "".join((item if isinstance(item, str) else json.dumps(item)) + "\n" for item in CYCLE)
    with path.open("w") as f:
        for _ in range(lines // len(CYCLE)):
            f.write(text)
    return path


#: runs the command in this process and reports its peak memory (KiB) on the last stderr line
MEASURE = """
import resource, sys
from toolparse.cli import main
status = main(sys.argv[1:])
sys.stdout.flush()
print(f"maxrss={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}", file=sys.stderr)
raise SystemExit(status)
"""


def _run(
    folder: pathlib.Path, *argv: str, measure: bool = False
) -> subprocess.CompletedProcess[str]:
    command = ["-c", MEASURE] if measure else ["-m", "toolparse"]
    return subprocess.run(
        [sys.executable, *command, *argv],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def files(shared_project: pathlib.Path) -> dict[str, pathlib.Path]:
    return {
        "big": _write(shared_project / "calls.jsonl", LINES),
        "small": _write(shared_project / "small.jsonl", SMALL),
    }


@pytest.fixture(scope="module")
def sequential(
    shared_project: pathlib.Path, files: dict[str, pathlib.Path]
) -> subprocess.CompletedProcess[str]:
    return _run(shared_project, "check", "cli_tools", "calls.jsonl", measure=True)


def _rows(summary: str) -> dict[str, tuple[int, int, int, dict[str, int]]]:
    rows: dict[str, tuple[int, int, int, dict[str, int]]] = {}
    current: dict[str, int] = {}
    for line in summary.splitlines()[1:-1]:
        reason = re.fullmatch(r"\s+([\d,]+)  (.+)  \(first at .+\)", line)
        if reason:
            current[reason.group(2)] = int(reason.group(1).replace(",", ""))
            continue
        name, calls, accepted, rejected = re.fullmatch(
            r"(.+?)\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)", line
        ).groups()  # type: ignore[union-attr]
        current = {}
        rows[name] = (*(int(n.replace(",", "")) for n in (calls, accepted, rejected)), current)  # type: ignore[assignment]
    return rows


def test_the_summary_counts_every_tool_and_reason(
    sequential: subprocess.CompletedProcess[str],
) -> None:
    assert sequential.returncode == 1  # calls were rejected
    assert "Traceback" not in sequential.stderr
    rows = _rows(sequential.stdout)
    expected = {
        name: (
            calls * CYCLES,
            ok * CYCLES,
            (calls - ok) * CYCLES,
            {r: n * CYCLES for r, n in reasons.items()},
        )
        for name, (calls, ok, reasons) in PER_CYCLE.items()
    }
    assert rows == expected
    last = sequential.stdout.splitlines()[-1]
    assert last == "95,000 calls in 100,000 records: 65,000 accepted, 30,000 rejected"
    # where each reason was first seen: line numbers in the file
    assert "invalid JSON  (first at calls.jsonl:15)" in sequential.stdout
    assert "wether: unknown tool  (first at calls.jsonl:14)" in sequential.stdout


def test_no_progress_when_stderr_is_not_a_terminal(
    sequential: subprocess.CompletedProcess[str],
) -> None:
    assert sequential.stderr.splitlines()[:-1] == []  # only the measurement


def test_memory_does_not_grow_with_the_file(
    shared_project: pathlib.Path, sequential: subprocess.CompletedProcess[str]
) -> None:
    small = _run(shared_project, "check", "cli_tools", "small.jsonl", measure=True)
    peak = {
        lines: int(run.stderr.strip().splitlines()[-1].removeprefix("maxrss="))
        for lines, run in ((SMALL, small), (LINES, sequential))
    }
    # ten times the lines, the same memory (within 8 MiB of noise: allocator arenas, caches)
    assert peak[LINES] - peak[SMALL] < 8 * 1024, peak


def test_json_writes_one_result_per_line(
    shared_project: pathlib.Path, files: dict[str, pathlib.Path]
) -> None:
    run = _run(shared_project, "check", "cli_tools", "calls.jsonl", "--json")
    assert run.returncode == 1
    assert run.stderr == ""
    counts: Counter[tuple[str | None, bool]] = Counter()
    reasons: Counter[str] = Counter()
    lines = run.stdout.splitlines()
    assert len(lines) == 95_000
    for line in lines:
        result = json.loads(line)
        counts[result["tool"], result["accepted"]] += 1
        reasons.update(result["reasons"])
        assert result["file"] == "calls.jsonl"
    assert counts == {
        ("weather", True): 45_000,
        ("weather", False): 15_000,
        ("score", True): 20_000,
        ("score", False): 5_000,
        (None, False): 10_000,
    }
    assert reasons["city: is required"] == 10_000
    assert reasons["unknown tool"] == 5_000
    assert reasons["unreadable record"] == 5_000
    first = json.loads(lines[0])
    assert first == {
        "file": "calls.jsonl",
        "record": 1,
        "call": 0,
        "id": None,
        "name": "weather",
        "tool": "weather",
        "accepted": True,
        "reasons": [],
        "message": None,
        "format": "plain",
    }


def test_jobs_give_the_same_summary(
    shared_project: pathlib.Path, sequential: subprocess.CompletedProcess[str]
) -> None:
    run = _run(shared_project, "check", "cli_tools", "calls.jsonl", "--jobs", "2")
    assert run.returncode == sequential.returncode
    assert run.stderr == ""
    assert run.stdout == sequential.stdout


def test_progress_when_stderr_is_a_terminal(
    shared_project: pathlib.Path, files: dict[str, pathlib.Path]
) -> None:
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "toolparse", "check", "cli_tools", "small.jsonl"],
            cwd=shared_project,
            stdout=subprocess.PIPE,
            stderr=follower,
            timeout=120,
        )
        os.close(follower)
        follower = -1
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closed
                break
            if not chunk:
                break
            shown += chunk
    finally:
        if follower != -1:
            os.close(follower)
        os.close(leader)
    assert b"checking small.jsonl: 2,000 lines" in shown
    assert b"\r\x1b[K" in shown  # the progress line is cleared before the summary
    assert done.stdout.decode().endswith(
        "9,500 calls in 10,000 records: 6,500 accepted, 3,000 rejected\n"
    )


def test_jobs_give_the_same_json_lines_in_the_same_order(
    shared_project: pathlib.Path, files: dict[str, pathlib.Path]
) -> None:
    one = _run(shared_project, "check", "cli_tools", "small.jsonl", "--json")
    two = _run(shared_project, "check", "cli_tools", "small.jsonl", "--json", "--jobs", "2")
    assert one.stdout.count("\n") == 9_500
    assert two.stdout == one.stdout
