"""The adapter template of docs/writing-an-adapter.md is a distribution that works as written.

Its ``pyproject.toml`` is complete (build system, version, entry point, the
package it ships), and the package its snippets lay out imports, registers
through its hook and defines tools. (Building the wheel needs the build
backend from PyPI; CI does that, this test checks what the build reads.)
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

import toolparse as tp

PAGE = Path(__file__).resolve().parents[2] / "docs" / "writing-an-adapter.md"


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"^```{kind}\n(.*?)^```", PAGE.read_text(encoding="utf-8"), re.S | re.M)


def test_the_pyproject_is_complete() -> None:
    (text,) = _blocks("toml")
    # tomllib is in the standard library from Python 3.11 on
    toml = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
    project = toml.loads(text)
    assert project["build-system"]["build-backend"] == "hatchling.build"
    assert any(r.startswith("hatchling") for r in project["build-system"]["requires"])
    meta = project["project"]
    assert meta["name"] == "toolparse-tiny"
    assert re.fullmatch(r"\d+\.\d+\.\d+", meta["version"])
    assert any(d.startswith("toolparse") for d in meta["dependencies"])
    assert meta["entry-points"]["toolparse"] == {"tiny": "toolparse_tiny"}
    assert project["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == [
        "src/toolparse_tiny"
    ]


def test_the_laid_out_package_registers_its_adapter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (init,) = [b for b in _blocks("text") if b.startswith("# src/toolparse_tiny/__init__.py")]
    (adapter,) = [b for b in _blocks("python") if "class TinyAdapter" in b]
    package = tmp_path / "src" / "toolparse_tiny"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(init, encoding="utf-8")
    (package / "_adapter.py").write_text(adapter.split("class TinyPlugin")[0], encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    monkeypatch.delitem(sys.modules, "toolparse_tiny", raising=False)
    module = importlib.import_module("toolparse_tiny")
    try:
        assert module.__all__ == ["TinyAdapter", "toolparse_register_adapters"]
        pm = tp.make_plugin_manager(load_entry_points=False)
        pm.register(module, name="tiny")
        schema = module._adapter.Schema
        fn = tp.Function(
            "add", lambda a: a["x"] + a["y"], args_schema=schema(x=int, y=int), plugin_manager=pm
        )
        assert fn.adapter is not None
        assert fn.adapter.name == "tiny"
        assert fn.execute({"x": 1, "y": 2}) == tp.Ok("3")
    finally:
        for name in [m for m in sys.modules if m.startswith("toolparse_tiny")]:
            del sys.modules[name]
