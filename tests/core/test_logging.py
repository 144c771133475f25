"""Logging: records on loggers under ``toolparse``, a ``NullHandler`` there, no ``print`` but the command's."""

from __future__ import annotations

import ast
import logging
import pathlib
import subprocess
import sys
import threading

import pytest

import toolparse as tp

ROOT = pathlib.Path(__file__).parents[2]


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)


def test_toolparse_has_a_null_handler_and_a_record_reaches_no_stderr() -> None:
    # logging configured nowhere: without the NullHandler, logging's last resort prints warnings
    done = _run(
        "import logging, toolparse\n"
        "from toolparse._log import logger\n"
        "handlers = logging.getLogger('toolparse').handlers\n"
        "assert any(type(h) is logging.NullHandler for h in handlers), handlers\n"
        "logger('toolparse.plugins').warning('a plugin failed')\n"
    )
    assert done.stderr == ""


def test_logging_is_not_imported_by_import_toolparse_and_the_handler_comes_first() -> None:
    done = _run(
        "import sys, toolparse\n"
        "print('logging' in sys.modules)\n"
        "from toolparse._log import logger\n"
        "logger('toolparse.calls').warning('late')\n"
        "import logging\n"
        "print(any(type(h) is logging.NullHandler for h in logging.getLogger('toolparse').handlers))\n"
    )
    assert done.stdout.split() == ["False", "True"]
    assert done.stderr == ""


class _Heard(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []
        self.event = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        self.event.set()


@pytest.mark.parametrize("fails", [False, True], ids=["ok", "raises"])
def test_the_late_outcome_of_a_timed_out_sync_body_is_logged(fails: bool) -> None:
    release = threading.Event()

    def slow(arguments: object) -> str:
        release.wait(30)
        if fails:
            raise ValueError("disk full")
        return "sent"

    fn = tp.Function("send_email", slow)
    heard = _Heard()
    log = logging.getLogger("toolparse.calls")
    log.addHandler(heard)
    level = log.level
    log.setLevel(logging.INFO)
    try:
        [result] = tp.execute_tool_calls(
            [fn], [tp.ToolCall("c1", "send_email", "{}")], timeout=0.05
        )
        assert result.is_error
        assert "may still finish" in result.text
        release.set()
        assert heard.event.wait(30), "the late outcome was not logged"
    finally:
        release.set()
        log.removeHandler(heard)
        log.setLevel(level)
    (record,) = heard.records
    assert record.levelno == (logging.WARNING if fails else logging.INFO)
    message = record.getMessage()
    assert message.startswith("the tool send_email (call c1) finished after its timeout: ")
    if fails:
        assert "(ValueError) disk full" in message
    else:
        assert message.endswith(": sent")


def _prints(path: pathlib.Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "print"
    ]


def test_nothing_prints_but_the_command_line() -> None:
    command = ROOT / "core/src/toolparse/cli"
    sources = [*ROOT.glob("core/src/toolparse/**/*.py"), *ROOT.glob("adapters/*/src/**/*.py")]
    assert len(sources) > 50
    found = {
        str(p.relative_to(ROOT)): lines
        for p in sources
        if command not in p.parents and (lines := _prints(p))
    }
    assert found == {}
