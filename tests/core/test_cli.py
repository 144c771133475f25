"""The toolparse command."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import textwrap

import pytest

from toolparse.cli import main

TOOLS = textwrap.dedent(
    """
    import toolparse as tp

    weather = tp.Function(
        "weather",
        lambda a: f"sunny in {a['city']}",
        parameters=[tp.FunctionParam("city", "string", required=True)],
    )

    def not_a_tool():
        return 1
    """
)


@pytest.fixture
def tools_module(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "cli_tools_example.py").write_text(TOOLS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "cli_tools_example"


def test_schema(tools_module: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", f"{tools_module}:weather"]) == 0
    assert json.loads(capsys.readouterr().out)["required"] == ["city"]


def test_call_ok_and_error(tools_module: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["call", f"{tools_module}:weather", '{"city": "Oslo"}']) == 0
    assert capsys.readouterr().out == "Ok\nsunny in Oslo\n"
    assert main(["call", f"{tools_module}:weather", '{"cty": "Oslo"}']) == 1
    out = capsys.readouterr().out
    assert out.startswith("Error\nMissing required parameters for this tool.")
    assert 'cty (did you mean "city"?)' in out


def test_check(tools_module: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", tools_module]) == 0
    assert "ok  weather: adapter none; parameters city;" in capsys.readouterr().out


def test_check_nothing_found(tools_module: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "json"]) == 1
    assert "no tools found" in capsys.readouterr().out


def test_unloadable_target(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "no_such_module_xyz:tool"]) == 2
    assert "cannot load" in capsys.readouterr().err


def test_plugins(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert "toolparse.defaults" in out
    assert "adapters (asked in this order):" in out
    assert "plain" in out


def test_demo_runs_end_to_end() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "toolparse.cli", "demo"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    assert out.startswith("toolparse demo:")
    assert 'Unrecognized parameters: file_path (did you mean "path"?)' in out
    assert "Tool call made to divde but tool not found." in out
    assert "Traceback" not in out


def test_mcp_needs_tools(tools_module: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "json"]) == 1
    assert "no tools found in json" in capsys.readouterr().err


def test_call_wraps_a_plain_function(tools_module: str, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("toolparse_pydantic")  # @tool infers with pydantic when installed
    assert main(["call", f"{tools_module}:not_a_tool"]) == 0
    assert capsys.readouterr().out == "Ok\n1\n"
