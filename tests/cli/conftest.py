"""Fixtures for the command's tests: a small project of tool modules, and a way to run the command."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from toolparse.cli import main

#: the modules of the project the tests run the command in
FILES = {
    "cli_shared.py": """
        import toolparse as tp

        shared = tp.Function("shared", lambda a: "shared")
    """,
    "cli_tools.py": """
        import toolparse as tp
        from cli_shared import shared  # imported: not one of this module's tools

        weather = tp.Function(
            "weather",
            lambda a: f"sunny in {a['city']}",
            description="Current weather.",
            parameters=[
                tp.FunctionParam("city", "string", required=True),
                tp.FunctionParam("units", "string"),
            ],
        )


        def _score(arguments):
            n = arguments.get("n")
            if isinstance(n, int) and not isinstance(n, bool):
                return tp.ok()
            return tp.error("n must be an integer")


        score = tp.Function("score", lambda a: str(a["n"] * 2), parse_args=_score)
        whoami = tp.Function("whoami", lambda a, context: f"user {context['user']}")


        def greet(name: str) -> str:
            \"\"\"Say hello.\"\"\"
            return f"hello {name}"


        TOOLS = [weather, score]
        TOOLSET = tp.Toolset([weather, score])
        MIXED = [weather, 3]
        EMPTY = []
        NUMBER = 3
    """,
    "cli_exported.py": """
        import toolparse as tp

        __all__ = ["visible", "GROUP"]

        visible = tp.Function("visible", lambda a: "v")
        hidden = tp.Function("hidden", lambda a: "h")
        other = tp.Function("other", lambda a: "o")
        GROUP = [other]
    """,
    "cli_broken.py": """
        import toolparse as tp

        good = tp.Function("good", lambda a: "ok")
        blank = tp.Function("", lambda a: "x")
        arity = tp.Function("arity", lambda a, b, c: "x")
        TOOLS = [good, blank]
    """,
    "cli_raises.py": """
        import toolparse as tp

        tool = tp.Function("tool", lambda a: "x")
        ratio = 1 / 0
    """,
    "cli_missing_dep.py": """
        import no_such_dependency_xyz
    """,
    "cli_plain.py": """
        def helper(x: int) -> int:
            return x
    """,
    "cli_bad_all.py": """
        __all__ = ["ghost"]
    """,
    "cli_dotted.py": """
        import toolparse as tp

        dotted = tp.Function("math.factorial", lambda a: "1")
    """,
    "cli_interrupt.py": """
        import toolparse as tp

        approve = tp.Function("approve", lambda a: tp.interrupt("needs approval", {"step": 1}))
    """,
    "cli_refused.py": """
        import toolparse as tp

        fine = tp.Function("fine", lambda a: "x")
        rooted = tp.Function("rooted", lambda a: "x", parameters_schema={"type": "array"})
        also = tp.Function("also", lambda a: "x", parameters_schema={"type": "string"})
    """,
    "sub/file_tools.py": """
        import toolparse as tp
        from neighbour import CITY  # the file's own folder is importable

        here = tp.Function("here", lambda a: f"here in {CITY}")
    """,
    "sub/neighbour.py": """
        CITY = "Oslo"
    """,
}

MODULES = {p.removesuffix(".py").rsplit("/", 1)[-1] for p in FILES}


@dataclass
class Run:
    """What one run of the command did."""

    status: int
    out: str
    err: str

    def failed(self, status: int, *needles: str) -> Run:
        """Assert: ``status``, one line on stderr containing every needle, no traceback."""
        assert self.status == status, (self.status, self.out, self.err)
        assert "Traceback" not in self.err + self.out
        lines = self.err.strip().splitlines()
        assert len(lines) == 1, self.err
        assert lines[0].startswith("toolparse: "), self.err
        for needle in needles:
            assert needle in lines[0], (needle, lines[0])
        return self


def write_project(folder: pathlib.Path) -> pathlib.Path:
    """Write the project's modules into ``folder``."""
    for name, text in FILES.items():
        path = folder / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    return folder


@pytest.fixture(scope="module")
def shared_project(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """The project, written once for a module's tests that only run it as a process."""
    return write_project(tmp_path_factory.mktemp("project"))


@pytest.fixture
def project(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[pathlib.Path]:
    """A folder of tool modules, made the current directory; imports are undone after."""
    write_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))  # also restores sys.path afterwards
    yield tmp_path
    for name in list(sys.modules):
        if name in MODULES or name.startswith("_toolparse_target_"):
            del sys.modules[name]


@pytest.fixture
def cli(project: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """Run the command in this process (fast); ``cli("schema", "mod:tool")``."""

    def run(*argv: str) -> Run:
        status = main(list(argv))
        captured = capsys.readouterr()
        return Run(status, captured.out, captured.err)

    return run


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("TOOLPARSE_DEBUG", None)
    return env


@pytest.fixture
def process(project: pathlib.Path) -> Callable[..., Run]:
    """Run ``python -m toolparse`` as its own process, in the project folder."""

    def run(*argv: str, stdin: str | None = None, timeout: float = 60) -> Run:
        done = subprocess.run(
            [sys.executable, "-m", "toolparse", *argv],
            cwd=project,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=_env(),
        )
        return Run(done.returncode, done.stdout, done.stderr)

    return run
