"""``toolparse check TOOLS CALLS.parquet``: a column of records, or name/arguments columns."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from tests.cli.test_check_file import CYCLE, MEASURE

Cli = Callable[..., Any]

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _texts(records: list[Any]) -> list[str]:
    return [r if isinstance(r, str) else json.dumps(r) for r in records]


def _write(path: pathlib.Path, columns: dict[str, Any], row_group_size: int | None = None) -> str:
    pq.write_table(pa.table(columns), path, row_group_size=row_group_size)
    return path.name


def _same_summary(parquet: str, jsonl: str, name: str) -> None:
    # the same table, each reason first seen at the same row as the line
    assert parquet.replace(name, "FILE") == jsonl.replace(
        name.replace(".parquet", ".jsonl"), "FILE"
    )


def test_a_column_of_records_reads_as_the_same_lines_would(cli: Cli, project: pathlib.Path) -> None:
    texts = _texts(CYCLE * 3)
    (project / "calls.jsonl").write_text("".join(t + "\n" for t in texts))
    name = _write(project / "calls.parquet", {"record": texts, "other": list(range(len(texts)))})
    lines = cli("check", "cli_tools", "calls.jsonl")
    run = cli("check", "cli_tools", name)
    assert run.status == lines.status == 1
    assert run.err == ""
    _same_summary(run.out, lines.out, name)
    assert run.out.splitlines()[-1] == "57 calls in 60 records: 39 accepted, 18 rejected"


def test_json_results_number_the_rows_and_jobs_give_the_same(
    cli: Cli, process: Any, project: pathlib.Path
) -> None:
    texts = _texts(CYCLE * 150)  # 3,000 rows: two batches
    name = _write(project / "calls.parquet", {"record": texts}, row_group_size=700)
    run = cli("check", "cli_tools", name, "--json")
    results = [json.loads(line) for line in run.out.splitlines()]
    assert len(results) == 57 * 50 // 1  # 19 calls per cycle of 20 rows
    assert results[0]["file"] == name
    assert results[0]["record"] == 1
    assert [r["record"] for r in results if r["name"] == "wether"][:2] == [14, 34]
    assert process("check", "cli_tools", name, "--json", "--jobs", "2").out == run.out


def test_name_and_arguments_columns(cli: Cli, project: pathlib.Path) -> None:
    name = _write(
        project / "pairs.parquet",
        {
            "id": ["a", "b", "c", "d"],
            "name": ["weather", "weather", "score", "wether"],
            "arguments": ['{"city": "Oslo"}', '{"cty": "Oslo"}', '{"n": 2}', "{}"],
        },
    )
    run = cli("check", "cli_tools", name, "--json")
    results = [json.loads(line) for line in run.out.splitlines()]
    assert [(r["id"], r["tool"], r["accepted"]) for r in results] == [
        ("a", "weather", True),
        ("b", "weather", False),
        ("c", "score", True),
        ("d", None, False),
    ]
    assert results[1]["reasons"] == ["city: is required", "cty: unrecognized parameter"]


def test_arguments_as_structs_and_maps(cli: Cli, project: pathlib.Path) -> None:
    structs = pa.array([{"city": "Oslo"}, {"city": None}], pa.struct([("city", pa.string())]))
    a = _write(project / "structs.parquet", {"name": ["weather", "weather"], "arguments": structs})
    maps = pa.array([[("n", 1)], [("m", 2)]], pa.map_(pa.string(), pa.int64()))
    b = _write(project / "maps.parquet", {"name": ["score", "score"], "arguments": maps})
    for name in (a, b):
        results = [
            json.loads(x) for x in cli("check", "cli_tools", name, "--json").out.splitlines()
        ]
        assert [r["accepted"] for r in results] == [True, False], results


def test_a_column_named_with_column(cli: Cli, project: pathlib.Path) -> None:
    records = pa.array(
        [{"name": "weather", "arguments": '{"city": "Rome"}'}],
        pa.struct([("name", pa.string()), ("arguments", pa.string())]),
    )
    name = _write(project / "logged.parquet", {"call": records, "when": [1]})
    run = cli("check", "cli_tools", name, "--column", "call")
    assert run.status == 0, run.err
    assert run.out.splitlines()[-1] == "1 calls in 1 records: 1 accepted, 0 rejected"
    cli("check", "cli_tools", name).failed(
        2,
        'logged.parquet has no column "record" and no "name" and "arguments" columns',
        "call, when",
    )
    cli("check", "cli_tools", name, "--column", "nope").failed(2, "has no column 'nope'")


def test_a_file_that_is_not_parquet(cli: Cli, project: pathlib.Path) -> None:
    (project / "fake.parquet").write_text('{"name": "weather"}\n')
    cli("check", "cli_tools", "fake.parquet").failed(2, "cannot read fake.parquet as Parquet")
    # a Parquet file without the extension is known by its first bytes
    name = _write(project / "calls.data", {"record": _texts(CYCLE)})
    assert cli("check", "cli_tools", name).out.splitlines()[-1].startswith("19 calls in 20 records")


def test_without_pyarrow_the_extra_is_named(
    cli: Cli, project: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = _write(project / "calls.parquet", {"record": _texts(CYCLE)})
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    cli("check", "cli_tools", name).failed(2, "needs pyarrow", 'pip install "toolparse[arrow]"')


def test_memory_does_not_grow_with_the_file(project: pathlib.Path) -> None:
    names = {}
    for rows in (10_000, 100_000):
        texts = _texts(CYCLE) * (rows // len(CYCLE))
        names[rows] = _write(project / f"c{rows}.parquet", {"record": texts}, row_group_size=10_000)
    # both written first: a child's peak counts this process's size when it was started
    peaks = {}
    for rows, name in names.items():
        run = subprocess.run(
            [sys.executable, "-c", MEASURE, "check", "cli_tools", name],
            cwd=project,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 1, run.stderr
        peaks[rows] = int(run.stderr.strip().splitlines()[-1].removeprefix("maxrss="))
    # ten times the rows, the same memory (within 8 MiB of noise: allocator arenas, caches)
    assert peaks[100_000] - peaks[10_000] < 8 * 1024, peaks
