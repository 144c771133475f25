"""The Ray Data and PySpark recipes of docs/scale-out.md, run as written.

Ray and Spark are large installs (Spark needs Java): these run in the ``distributed``
tox environment (``tox -e distributed``), and skip where the engine is missing.
"""

from __future__ import annotations

import os
import pathlib
import shutil

import pytest
from tests.scale.recipes import run, write_calls

import toolparse as tp


@pytest.fixture
def calls(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.chdir(tmp_path)
    return write_calls(tmp_path)


def _same(found: tp.CheckSummary, here: tp.CheckSummary, lines: list[str]) -> None:
    # record numbers are each partition's own: the counts are the same
    assert found.to_dict() == here.to_dict()
    assert found.total == len(lines)
    assert found.unreadable == 60


def test_the_ray_data_recipe(calls: list[str]) -> None:
    pytest.importorskip("ray.data")
    pytest.importorskip("pandas")
    found, here = run("Ray Data")
    _same(found, here, calls)


def test_the_pyspark_recipe(calls: list[str]) -> None:
    pytest.importorskip("pyspark")
    pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")  # mapInPandas moves batches as Arrow
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs Java")
    found, here = run("PySpark")
    _same(found, here, calls)
