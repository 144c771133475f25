"""``toolparse check`` with call files: several files, forced formats, and definition problems on the way."""

from __future__ import annotations

import json
import pathlib
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

Cli = Callable[..., Any]


def _lines(path: pathlib.Path, *records: Any) -> str:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return path.name


def test_several_files_are_summed_and_each_reason_says_where(
    cli: Cli, project: pathlib.Path
) -> None:
    a = _lines(project / "a.jsonl", {"name": "weather", "arguments": {"city": "Oslo"}})
    b = _lines(
        project / "b.jsonl",
        {"name": "score", "arguments": {"n": 1}},
        {"name": "score", "arguments": {"n": "one"}},
    )
    run = cli("check", "cli_tools", a, b)
    assert run.status == 1
    assert "n must be an integer  (first at b.jsonl:2)" in run.out
    assert run.out.splitlines()[-1] == "3 calls in 3 records: 2 accepted, 1 rejected"
    assert run.err == ""


def test_all_accepted_is_status_0(cli: Cli, project: pathlib.Path) -> None:
    a = _lines(project / "a.jsonl", {"name": "weather", "arguments": {"city": "Oslo"}}, "")
    run = cli("check", "cli_tools", a)
    assert run.status == 0
    assert run.out.splitlines()[-1] == "1 calls in 2 records: 1 accepted, 0 rejected"
    # every tool has a row, called or not
    assert [line.split()[0] for line in run.out.splitlines()[1:4]] == ["weather", "score", "whoami"]


def test_format_names_the_shape(cli: Cli, project: pathlib.Path) -> None:
    a = _lines(project / "a.jsonl", {"name": "weather", "arguments": {"city": "Oslo"}})
    assert cli("check", "cli_tools", a, "--format", "mcp", "--json").status == 0
    run = cli("check", "cli_tools", a, "--format", "anthropic", "--json")
    assert run.status == 1
    [result] = [json.loads(line) for line in run.out.splitlines()]
    assert result["reasons"] == ["unreadable record"]


def test_broken_definitions_are_reported_on_stderr_and_the_good_tools_still_check(
    cli: Cli, project: pathlib.Path
) -> None:
    a = _lines(project / "a.jsonl", {"name": "good", "arguments": {}})
    run = cli("check", "cli_broken", a, "--json")
    assert run.status == 1
    assert json.loads(run.out)["accepted"] is True  # stdout stays one result per line
    errors = run.err.splitlines()
    assert errors[0] == "toolparse: broken tool definition (line 4): tool '': name: can't be blank"
    assert len(errors) == 3


def test_provider_refusals_count_with_p(cli: Cli, project: pathlib.Path) -> None:
    a = _lines(project / "a.jsonl", {"name": "fine", "arguments": {}})
    assert cli("check", "cli_refused", a).status == 0  # without -p, only the calls count
    run = cli("check", "cli_refused", a, "-p", "openai")
    assert run.status == 1
    assert "toolparse: refused rooted: openai:" in run.err
    assert "0 rejected" in run.out


LINE = st.text(max_size=30) | st.builds(
    json.dumps,
    st.dictionaries(
        st.sampled_from(["name", "arguments", "type", "id", "input", "choices", "role", "content"]),
        st.none() | st.integers() | st.text(max_size=10) | st.sampled_from(["weather", "score"]),
        max_size=4,
    ),
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(LINE, max_size=6))
def test_any_file_is_checked_and_never_crashes(
    cli: Cli, project: pathlib.Path, lines: list[str]
) -> None:
    (project / "any.jsonl").write_text("\n".join(lines))
    run = cli("check", "cli_tools", "any.jsonl")
    assert run.status in (0, 1), run.err
    assert run.err == ""
    assert run.out.splitlines()[-1].endswith(" rejected")


def test_the_summary_keeps_a_bounded_number_of_reasons(cli: Cli, project: pathlib.Path) -> None:
    # a parser's free text can make every reason unique: memory must stay flat all the same
    (project / "cli_unique.py").write_text(
        "import toolparse as tp\n"
        "def unique_reason(arguments):\n"
        "    return tp.error(f'reason {arguments[\"n\"]}')\n"
        "unique = tp.Function('unique', lambda a: 'x', parse_args=unique_reason)\n"
    )
    # 3,000 lines: the first batch of lines is counted call by call, the second merged into it
    calls = _lines(
        project / "f.jsonl", *({"name": "unique", "arguments": {"n": n}} for n in range(3000))
    )
    run = cli("check", "cli_unique", calls)
    assert run.status == 1
    reasons = run.out.splitlines()[2:6]
    assert [line.split("  (first")[0].split() for line in reasons] == [
        ["2,000", "(other", "reasons)"],  # 1,000 distinct reasons kept, the rest counted together
        ["1", "reason", "0"],
        ["1", "reason", "1"],
        ["...", "and", "998", "more", "reasons"],
    ]
    assert "(first at f.jsonl:3)" in reasons[0]  # "reason 2": "reason 1..." fill the 1,000
    assert cli("check", "cli_unique", calls, "--jobs", "2").out == run.out


def test_a_directory_is_named_as_such(cli: Cli, project: pathlib.Path) -> None:
    cli("check", "cli_tools", "sub").failed(
        2, "sub is a directory; name the files of recorded calls in it"
    )
    cli("check", "sub/").failed(2, "sub/ is a directory; name a .py file in it, or a module")
    cli("schema", "sub/").failed(2, "sub/ is a directory")


def test_column_without_a_parquet_file_is_refused(cli: Cli, project: pathlib.Path) -> None:
    (project / "calls.jsonl").write_text('{"name": "weather", "arguments": {"city": "Rome"}}\n')
    cli("check", "cli_tools", "calls.jsonl", "--column", "call").failed(
        2, "--column names a Parquet file's column: none of the files is Parquet"
    )
