"""The command as its own process: ``python -m toolparse``, exit statuses, no tracebacks, pipes."""

from __future__ import annotations

import pathlib
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

import toolparse as tp

Process = Callable[..., Any]
ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_version(process: Process) -> None:
    run = process("--version")
    assert (run.status, run.out) == (0, f"toolparse {tp.__version__}\n")


def test_help_lists_every_subcommand(process: Process) -> None:
    run = process("--help")
    assert run.status == 0
    for command in ("plugins", "schema", "call", "check", "demo", "mcp"):
        assert command in run.out


#: one mistake of each kind, each as its own process: status, and what stderr's one line says
MISTAKES = [
    (["schema", "cli_tools:weather", "-p", "claude"], 2, "invalid choice: 'claude'"),
    (["schema", "./sub/file_tools.py:nope"], 2, "has no attribute 'nope'"),
    (["mcp", "cli_tools:NUMBER"], 2, "is a int, not a tool"),
    (["schema", "cli_raises"], 2, "importing cli_raises failed: ZeroDivisionError"),
    (["schema", "cli_broken"], 1, "broken tool definition in cli_broken (line 4)"),
    (["schema", "cli_refused:also", "-p", "gemini"], 1, "gemini refuses the tool also"),
    (["call", "cli_tools:weather", "{bad"], 2, "the arguments are not valid JSON"),
    (["call", "cli_tools:weather", "cty=Oslo"], 1, None),
    (["check", "cli_tools", "nothing.jsonl"], 2, "no such file"),
]


@pytest.mark.parametrize(
    ("argv", "status", "says"), MISTAKES, ids=[" ".join(m[0]) for m in MISTAKES]
)
def test_mistakes_exit_with_their_status_and_no_traceback(
    process: Process, argv: list[str], status: int, says: str | None
) -> None:
    run = process(*argv)
    if says is None:  # the tool rejected the call: the outcome is on stdout, not an error
        assert run.status == status
        assert run.out.startswith("Error\n")
        assert run.err == ""
    else:
        run.failed(status, says)


def test_debug_shows_the_traceback(process: Process) -> None:
    run = process("--debug", "schema", "cli_raises")
    assert run.status == 2
    assert "Traceback" in run.err
    assert "ZeroDivisionError" in run.err
    assert process("schema", "cli_raises", "--debug").err.count("Traceback") == 1


def test_stdin_arguments(process: Process) -> None:
    run = process("call", "cli_tools:weather", "-", stdin='{"city": "Oslo"}')
    assert (run.status, run.out) == (0, "Ok\nsunny in Oslo\n")


def test_calls_from_stdin(process: Process) -> None:
    lines = '{"name": "weather", "arguments": {"city": "Oslo"}}\n{"name": "nope"}\n'
    run = process("check", "cli_tools", "-", stdin=lines)
    assert run.status == 1
    assert "2 calls in 2 records: 1 accepted, 1 rejected" in run.out


def test_a_closed_pipe_is_not_an_error(project: pathlib.Path) -> None:
    # `toolparse demo | head -1`: the reader leaves after one line
    with subprocess.Popen(
        [sys.executable, "-m", "toolparse", "demo"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=project,
    ) as proc:
        assert proc.stdout is not None
        assert proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 0
    assert first.startswith(b"toolparse demo:")
    assert "Traceback" not in err
    assert "BrokenPipe" not in err
    assert err == ""


def test_the_demo_is_the_readmes_first_command() -> None:
    assert "uv run --locked python examples/demo.py" in (ROOT / "README.md").read_text()
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "demo.py")],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert done.stdout.startswith("toolparse demo:")
    assert 'Unrecognized parameters: file_path (did you mean "path"?)' in done.stdout
    assert "Tool call made to divde but tool not found." in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
