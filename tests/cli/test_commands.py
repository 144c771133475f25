"""``schema``, ``call``, ``plugins`` and ``check`` without call files: output and exit status."""

from __future__ import annotations

import io
import json
import pathlib
import re
from collections.abc import Callable
from typing import Any

import pytest

import toolparse as tp
from toolparse.plugins import PluginLoadWarning

Cli = Callable[..., Any]


# -- schema ----------------------------------------------------------------------


def test_schema_prints_the_json_schema(cli: Cli) -> None:
    run = cli("schema", "cli_tools:weather")
    assert run.status == 0
    assert json.loads(run.out)["required"] == ["city"]
    assert run.out.startswith("{\n  ")  # indented for people


def test_schema_for_a_provider_and_strict(cli: Cli) -> None:
    plain = json.loads(cli("schema", "cli_tools:weather", "-p", "openai").out)
    strict = json.loads(cli("schema", "cli_tools:weather", "-p", "openai", "--strict").out)
    assert "strict" not in plain["function"]
    assert strict["function"]["strict"] is True
    assert strict["function"]["parameters"]["required"] == ["city", "units"]


def test_schema_json_is_one_compact_line_and_always_a_list(cli: Cli) -> None:
    run = cli("schema", "cli_tools:weather", "-p", "anthropic", "--json")
    assert run.out.count("\n") == 1
    assert [t["name"] for t in json.loads(run.out)] == ["weather"]


def test_schema_of_a_tool_a_provider_refuses_is_status_1(cli: Cli) -> None:
    cli("schema", "cli_refused:rooted", "-p", "openai").failed(1, "openai refuses the tool rooted")


def test_a_name_outside_a_providers_rule_is_exported_under_its_alias(cli: Cli) -> None:
    run = cli("schema", "cli_dotted", "-p", "openai", "--json")
    assert run.status == 0
    assert json.loads(run.out)[0]["function"]["name"] == "math_factorial"


def test_strict_needs_a_provider(cli: Cli) -> None:
    cli("schema", "cli_tools:weather", "--strict").failed(2, "--strict needs -p/--provider")


def test_an_unknown_provider_is_a_usage_error_naming_the_choices(cli: Cli) -> None:
    cli("schema", "cli_tools:weather", "-p", "claude").failed(
        2, "invalid choice: 'claude'", "openai"
    )


# -- call ------------------------------------------------------------------------


def test_call_takes_json_and_exits_1_on_an_error(cli: Cli) -> None:
    assert cli("call", "cli_tools:weather", '{"city": "Oslo"}').out == "Ok\nsunny in Oslo\n"
    run = cli("call", "cli_tools:weather", '{"cty": "Oslo"}')
    assert run.status == 1
    assert run.out.startswith("Error\nMissing required parameters for this tool.")
    assert 'cty (did you mean "city"?)' in run.out


def test_call_takes_key_value_pairs(cli: Cli) -> None:
    assert cli("call", "cli_tools:weather", "city=Oslo", "units=c").out == "Ok\nsunny in Oslo\n"
    assert cli("call", "cli_tools:score", "n:=21").out == "Ok\n42\n"
    assert cli("call", "cli_tools:score", "n=21").status == 1  # "21" is a string


def test_call_takes_a_file_and_stdin(
    cli: Cli, project: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "args.json").write_text('{"city": "Rome"}')
    assert cli("call", "cli_tools:weather", "@args.json").out == "Ok\nsunny in Rome\n"
    monkeypatch.setattr("sys.stdin", io.StringIO('{"city": "Lima"}'))
    assert cli("call", "cli_tools:weather", "-").out == "Ok\nsunny in Lima\n"


def test_call_passes_the_context(cli: Cli, project: pathlib.Path) -> None:
    assert cli("call", "cli_tools:whoami", "--context", '{"user": "ada"}').out == "Ok\nuser ada\n"
    (project / "ctx.json").write_text('{"user": "bob"}')
    assert cli("call", "cli_tools:whoami", "--context", "@ctx.json").out == "Ok\nuser bob\n"


def test_call_without_a_context_gives_a_context_parameter_a_mapping(
    cli: Cli, project: pathlib.Path
) -> None:
    (project / "cli_context.py").write_text(
        "import toolparse as tp\n\n\n"
        "@tp.tool\n"
        "def whoami(ctx: tp.Context) -> str:\n"
        '    """Who calls."""\n'
        '    return ctx.get("user", "nobody")\n'
    )
    assert cli("call", "cli_context:whoami", "{}").out == "Ok\nnobody\n"


def test_call_json_output(cli: Cli) -> None:
    ok = json.loads(cli("call", "cli_tools:weather", "city=Oslo", "--json").out)
    assert ok == {"outcome": "Ok", "text": "sunny in Oslo", "is_error": False}
    run = cli("call", "cli_tools:weather", "--json")
    assert run.status == 1
    assert json.loads(run.out)["is_error"] is True


def test_call_shows_an_interrupt_and_is_not_a_failure(cli: Cli) -> None:
    assert cli("call", "cli_interrupt").out == "Interrupt\nneeds approval\n"
    run = cli("call", "cli_interrupt", "--json")
    assert run.status == 0
    assert json.loads(run.out) == {
        "outcome": "Interrupt",
        "display": "needs approval",
        "data": {"step": 1},
    }


CALL_MISTAKES = [
    (["call", "cli_tools:weather", '{"city": '], "the arguments are not valid JSON"),
    (["call", "cli_tools:weather", "[1, 2]"], "the arguments must be a JSON object, got list"),
    (["call", "cli_tools:weather", "city=Oslo", "oops"], "expected key=value"),
    (["call", "cli_tools:score", "n:=nope"], "the value of n is not valid JSON"),
    (["call", "cli_tools:weather", "@missing.json"], "cannot read the arguments from missing.json"),
    (["call", "cli_tools:whoami", "--context", "[1]"], "the context must be a JSON object"),
    (["call", "cli_tools:TOOLS", "{}"], "cli_tools:TOOLS has 2 tools (weather, score)"),
]


@pytest.mark.parametrize(("argv", "says"), CALL_MISTAKES, ids=[m[1] for m in CALL_MISTAKES])
def test_call_mistakes_are_usage_errors(cli: Cli, argv: list[str], says: str) -> None:
    cli(*argv).failed(2, says)


# -- plugins ---------------------------------------------------------------------


def test_plugins_show_distributions_and_versions(cli: Cli) -> None:
    run = cli("plugins")
    assert run.status == 0
    for name in ("toolparse.defaults", "toolparse.providers"):  # the core's own plugins
        assert re.search(rf"^{re.escape(name)} +toolparse {tp.__version__} ", run.out, re.M)
    assert "adapters (asked in this order):" in run.out
    data = json.loads(cli("plugins", "--json").out)
    rows = {r["name"]: r for r in data["plugins"]}
    assert rows["toolparse.defaults"]["distribution"] == "toolparse"
    assert "plain" in data["adapters"]
    assert "openai" in data["providers"]
    if "pydantic" in rows:  # the adapter's own distribution, with its installed version
        from importlib.metadata import version

        assert rows["pydantic"]["distribution"] == "toolparse-pydantic"
        assert rows["pydantic"]["version"] == version("toolparse-pydantic")


def test_plugins_show_one_that_failed_to_load(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    from toolparse.plugins import PluginDistribution

    pm = tp.plugin_manager()
    failed = PluginDistribution(
        "broken", "toolparse-broken", "1.2", "toolparse_broken", "ImportError: x"
    )
    monkeypatch.setattr(
        pm, "plugin_distributions", lambda: [*type(pm).plugin_distributions(pm), failed]
    )
    run = cli("plugins")
    assert run.status == 1  # listed and marked: something is broken
    assert "toolparse-broken 1.2  (broken: ImportError: x)" in run.out
    rows = {r["name"]: r for r in json.loads(cli("plugins", "--json").out)["plugins"]}
    assert rows["broken"]["error"] == "ImportError: x"


@pytest.mark.parametrize("hook", ["adapters", "providers"])
def test_plugins_mark_a_plugin_whose_hook_raises(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, hook: str
) -> None:
    def raises(self: object, register: Any) -> None:
        raise RuntimeError("boom")

    name = f"toolparse_register_{hook}"
    raises.__name__ = name
    plugin = type("Raises", (), {name: tp.hookimpl(raises)})()
    pm = tp.make_plugin_manager(load_entry_points=False)
    pm.register(plugin, name="raises")
    monkeypatch.setattr("toolparse.plugins._default", pm)
    with pytest.warns(PluginLoadWarning, match=f"raised in {name}.*RuntimeError: boom"):
        run = cli("plugins")
    assert run.status == 1
    assert re.search(r"^raises +\S*  \(broken: RuntimeError: boom\)$", run.out, re.M)
    # the other plugins still answer
    assert "adapters (asked in this order): plain" in run.out
    assert "providers: anthropic, bedrock, gemini, mcp, ollama, openai, openai-responses" in run.out


def test_plugins_mark_two_adapters_of_one_name(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    def twin(source: object) -> object:
        class Plugin:
            @tp.hookimpl
            def toolparse_register_adapters(self, register: Any) -> None:
                adapter = type("Twin", (), {"name": "twin", "accepts": lambda s, x: x == source})
                register(adapter())

        return Plugin()

    pm = tp.make_plugin_manager(load_entry_points=False)
    pm.register(twin("a"), name="first")
    pm.register(twin("b"), name="second")
    monkeypatch.setattr("toolparse.plugins._default", pm)
    run = cli("plugins")
    assert run.status == 1
    marked = [
        line for line in run.out.splitlines() if "broken: two adapters are named 'twin'" in line
    ]
    assert [line.split()[0] for line in marked] == ["first", "second"]
    data = json.loads(cli("plugins", "--json").out)
    assert data["adapters"] == []
    assert {r["name"] for r in data["plugins"] if r["error"]} == {"first", "second"}


# -- check without call files ---------------------------------------------------------


def test_check_defines_every_tool(cli: Cli) -> None:
    run = cli("check", "cli_tools")
    assert run.status == 0
    assert "ok       weather: adapter none; parameters city, units;" in run.out
    assert run.out.rstrip().endswith("3 tools checked: 0 problem(s)")


def test_check_reports_every_broken_definition_not_the_first(cli: Cli) -> None:
    run = cli("check", "cli_broken")
    assert run.status == 1
    assert "broken   line 4: tool '': name: can't be blank" in run.out
    assert "broken   line 5: tool 'arity': function:" in run.out
    assert "failed   line 6: NameError" in run.out  # TOOLS names a tool that was never defined
    assert "ok       good:" in run.out  # the good ones are still checked
    lines = [json.loads(line) for line in cli("check", "cli_broken", "--json").out.splitlines()]
    assert [e.get("line") for e in lines if not e["ok"]] == [4, 5, 6]


def test_check_of_a_module_whose_all_names_a_broken_tool(cli: Cli, project: pathlib.Path) -> None:
    (project / "cli_broken_all.py").write_text(
        "import toolparse as tp\n"
        "__all__ = ['good', 'bad']\n"
        "good = tp.Function('good', lambda a: 'x')\n"
        "bad = tp.Function('bad', lambda a: 'x', parameters=[1])\n"
    )
    run = cli("check", "cli_broken_all")
    assert run.status == 1
    assert "broken   line 4: tool 'bad': parameters[0]:" in run.out
    assert "ok       good:" in run.out


def test_check_reports_every_tool_a_provider_refuses(cli: Cli) -> None:
    run = cli("check", "cli_refused", "-p", "openai")
    assert run.status == 1
    refused = [line for line in run.out.splitlines() if line.startswith("refused")]
    assert len(refused) == 2
    assert refused[0].startswith("refused  rooted: openai:")
    assert refused[1].startswith("refused  also: openai:")
    assert "ok       fine:" in run.out
    # without -p every provider is asked
    everyone = cli("check", "cli_refused", "--json")
    entries = {e["tool"]: e for e in map(json.loads, everyone.out.splitlines())}
    providers = {p.split(":")[0] for p in entries["rooted"]["refused"]}
    assert providers == set(tp.providers.registered())


def test_check_usage_mistakes(cli: Cli) -> None:
    cli("check", "cli_tools", "--jobs", "0", "x.jsonl").failed(2, "--jobs must be at least 1")
    cli("check", "cli_tools", "missing.jsonl").failed(2, "no such file: missing.jsonl")
    cli("check", "cli_tools", "--format", "xml").failed(2, "invalid choice: 'xml'")
    cli("frobnicate").failed(2, "invalid choice: 'frobnicate'")
    cli().failed(2, "the following arguments are required: command")
