"""One target syntax for every subcommand, and a one-line answer for every wrong target."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import toolparse as tp

Cli = Callable[..., Any]

#: target -> the tools it names
FORMS = {
    "cli_tools": ["weather", "score", "whoami"],  # the module's own Functions, not imported ones
    "cli_tools:weather": ["weather"],
    "cli_tools:TOOLS": ["weather", "score"],
    "cli_tools:TOOLSET": ["weather", "score"],
    "cli_exported": ["visible", "other"],  # __all__ decides, and a listed list counts
    "sub/file_tools.py": ["here"],
    "sub/file_tools.py:here": ["here"],
    "./sub/file_tools.py": ["here"],
}


@pytest.mark.parametrize(("target", "names"), FORMS.items(), ids=list(FORMS))
def test_every_target_form_names_the_same_tools_in_every_subcommand(
    cli: Cli, target: str, names: list[str]
) -> None:
    schema = cli("schema", target, "--json")
    assert schema.status == 0, schema.err
    assert [t["name"] for t in json.loads(schema.out)] == names

    check = cli("check", target, "--json")
    assert check.status == 0, check.out
    assert [json.loads(line)["tool"] for line in check.out.splitlines()] == names

    exported = cli("schema", target, "-p", "mcp", "--json")
    assert [t["name"] for t in json.loads(exported.out)] == names

    if len(names) == 1:  # call runs one tool
        called = cli("call", target, "--json")
        assert json.loads(called.out)["outcome"] in ("Ok", "Error")


@pytest.mark.parametrize(("target", "names"), FORMS.items(), ids=list(FORMS))
def test_mcp_serves_what_every_target_form_names(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, target: str, names: list[str]
) -> None:
    pytest.importorskip("mcp")
    import toolparse.mcp

    served: list[str] = []
    monkeypatch.setattr(
        toolparse.mcp, "serve", lambda tools, **kw: served.extend(t.name for t in tools)
    )
    assert cli("mcp", target).status == 0
    assert served == names


def test_a_plain_function_is_made_a_tool(cli: Cli) -> None:
    pytest.importorskip("toolparse_pydantic")  # @tool infers the schema with pydantic
    run = cli("schema", "cli_tools:greet")
    assert json.loads(run.out)["required"] == ["name"]
    assert cli("call", "cli_tools:greet", "name=Ada").out == "Ok\nhello Ada\n"
    assert cli("check", "cli_tools:greet").status == 0


def test_mcp_resolves_the_target_and_passes_every_flag(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("mcp")
    import toolparse.mcp

    seen: dict[str, Any] = {}

    def serve(tools: list[tp.Function], **kwargs: Any) -> None:
        seen.update(kwargs, tools=[t.name for t in tools])

    monkeypatch.setattr(toolparse.mcp, "serve", serve)
    args = ["--http", "0.0.0.0:9000", "--stateless", "--name", "weather", "--max-workers", "4"]
    more = ["--allow-unauthenticated", "--allowed-host", "a.example", "--allowed-host", "b.example"]
    assert cli("mcp", "cli_tools:TOOLS", *args, *more, "--timeout", "2.5").status == 0
    assert seen == {
        "tools": ["weather", "score"],
        "name": "weather",
        "transport": "streamable-http",
        "host": "0.0.0.0",
        "port": 9000,
        "stateless": True,
        "timeout": 2.5,
        "error_detail": None,
        "max_workers": 4,
        "max_queue": None,
        "auth_token": None,
        "allowed_hosts": ["a.example", "b.example"],
        "allowed_origins": None,
        "allow_unauthenticated": True,
    }
    assert cli("mcp", "sub/file_tools.py").status == 0
    assert seen["tools"] == ["here"]
    assert seen["transport"] == "stdio"


def test_mcp_without_the_sdk_names_the_extra(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "toolparse.mcp", None)  # import fails as if not installed
    cli("mcp", "cli_tools").failed(2, 'pip install "toolparse[mcp]"')


#: (arguments, exit status, what the one line on stderr says)
MISTAKES = [
    (["schema", "no_such_module_xyz"], 2, "no module named 'no_such_module_xyz'"),
    (
        ["schema", "cli_tools:nothing"],
        2,
        "no attribute 'nothing'; its tools are weather, score, whoami",
    ),
    (
        ["schema", "cli_tools:weather.nope"],
        2,
        "cli_tools:weather has no attribute 'nope'; it is a Function",
    ),
    (["schema", "cli_raises"], 2, "importing cli_raises failed: ZeroDivisionError"),
    (["schema", "cli_raises"], 2, "(line 4)"),
    (
        ["check", "cli_missing_dep"],
        2,
        "failed: ModuleNotFoundError: No module named 'no_such_dependency_xyz'",
    ),
    (["schema", "cli_tools:MIXED"], 2, "item 1 is a int, not a Function"),
    (["schema", "cli_tools:EMPTY"], 2, "empty list"),
    (["schema", "cli_tools:NUMBER"], 2, "cli_tools:NUMBER is a int, not a tool"),
    (["schema", "cli_plain"], 2, "cli_plain has no tools; it has the functions helper"),
    (["check", "json"], 2, "json has no tools"),
    (["mcp", "json"], 2, "json has no tools"),
    (["schema", "cli_bad_all"], 2, "lists 'ghost' in __all__"),
    (["schema", "nowhere/tools.py"], 2, "no such file: nowhere/tools.py"),
    (["call", "cli_shared.pyc"], 2, "no module named"),
    (["schema", "cli_broken"], 1, "broken tool definition in cli_broken (line 4)"),
    (["call", "cli_broken:good"], 1, "name: can't be blank"),
    (["schema", ":weather"], 2, "is not a target"),
]


@pytest.mark.parametrize(
    ("argv", "status", "says"), MISTAKES, ids=[" ".join(m[0]) for m in MISTAKES]
)
def test_every_wrong_target_is_one_line(cli: Cli, argv: list[str], status: int, says: str) -> None:
    cli(*argv).failed(status, says)


def test_a_module_without_tools_lists_what_it_has(cli: Cli, project: Any) -> None:
    (project / "cli_only_lists.py").write_text(
        "import toolparse as tp\nfrom cli_shared import shared\nTOOLS = [shared]\n"
    )
    run = cli("schema", "cli_only_lists").failed(2, "lists of tools: TOOLS")
    assert "cli_only_lists:NAME" in run.err
    assert "it imports the tools shared" in run.err


def test_imported_tools_are_not_a_modules_own(cli: Cli) -> None:
    names = [
        json.loads(line)["tool"] for line in cli("check", "cli_tools", "--json").out.splitlines()
    ]
    assert "shared" not in names
    # ... but naming one explicitly works
    assert cli("schema", "cli_tools:shared").status == 0
