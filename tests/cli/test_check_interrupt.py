"""Ctrl-C during ``toolparse check --json``: the output stops after a whole line, never inside one."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import sys

import pytest
from tests.cli.test_check_file import CYCLE

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_leaves_whole_lines(shared_project: pathlib.Path, jobs: str) -> None:
    path = shared_project / "interrupted.jsonl"
    if not path.exists():
        text = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in CYCLE)
        path.write_text(text * 10_000)  # 200,000 lines: far more than is read before the signal
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "toolparse",
            "check",
            "cli_tools",
            path.name,
            "--json",
            "--jobs",
            jobs,
        ],
        cwd=shared_project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,  # what is read first is all that was read: communicate() reads the rest
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    assert child.stdout is not None
    first = child.stdout.read(65_536)  # the output has started
    os.killpg(child.pid, signal.SIGINT)  # Ctrl-C: the command and its workers
    out, err = child.communicate(timeout=120)
    out = first + out
    assert child.returncode == 130, err
    assert err.decode().splitlines()[-1] == "toolparse: interrupted"
    assert b"Traceback" not in err
    assert out.endswith(b"\n")
    lines = out.decode().splitlines()
    assert 0 < len(lines) < 190_000
    for i, line in enumerate(lines):
        try:
            json.loads(line)  # each one whole
        except ValueError:
            raise AssertionError((i, len(lines), line)) from None
