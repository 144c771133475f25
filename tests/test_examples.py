"""Every example in examples/ runs, offline, as a user would run it: ``python examples/NAME.py``."""

from __future__ import annotations

import importlib.util
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

#: each example, the module of its host (skipped where that is not installed), and a line it prints
CASES = {
    "openai_loop": ("openai", "model: It is 12 degrees kelvin in Oslo."),
    "anthropic_loop": ("anthropic", "model: 100 euros are 108.00 US dollars."),
    "mcp_server": ("mcp", "search_books -> Dune, Dune Messiah"),
    "langgraph_agent": ("langgraph", "model: It is 12 degrees in Oslo."),
    "pydantic_ai_agent": ("pydantic_ai", "model: Your table is booked."),
    "openai_agents_sdk": ("agents", "model: That is 108.00 USD."),
}


def test_every_example_is_run_here() -> None:
    found = {path.stem for path in EXAMPLES.glob("*.py")} - {"demo"}  # demo: tests/cli
    assert found == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_example_runs(name: str) -> None:
    host, line = CASES[name]
    if importlib.util.find_spec(host) is None:
        pytest.skip(f"needs {host}, not installed in this environment")
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / f"{name}.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert line in done.stdout.splitlines()
    # the model was told what to fix, in toolparse's words, before its call went through
    assert "Fix these arguments and call the tool again." in done.stdout
