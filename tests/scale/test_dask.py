"""The Dask recipe of docs/scale-out.md, on a LocalCluster of two worker processes.

The tools are defined in the driver: a closure and a ``@tool`` the workers cannot
import go to them by value with cloudpickle. Each partition's results become a
CheckSummary on its worker; only the summaries come back.
"""

from __future__ import annotations

import pathlib

import pytest
from tests.scale.recipes import run, write_calls

pytest.importorskip("dask.bag")
pytest.importorskip("distributed")
pytest.importorskip("cloudpickle")


def test_the_dask_recipe_sums_to_the_summary_of_one_process(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    lines = write_calls(tmp_path)
    found, here = run("Dask")
    # record numbers are each partition's own: the counts are the same
    assert found.to_dict() == here.to_dict()
    assert found.total == len(lines) == 480  # one call per line, the unreadable ones included
    assert found.by_tool["weather"] == {"total": 240, "accepted": 120, "rejected": 120}
    assert found.by_tool["forecast"] == {"total": 120, "accepted": 60, "rejected": 60}
    assert found.by_reason["unknown tool"] == found.unreadable == 60
    assert found.by_reason["days: must be an integer"] == 60
    assert capsys.readouterr().out.strip() == str(found)
