"""The docs are held to the code: examples run, hooks and public names are documented."""

from __future__ import annotations

import ast
import inspect
import pathlib
import re

import pytest

import toolparse as tp
from toolparse import hookspecs

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
FENCE = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
HOOKS = sorted(name for name in dir(hookspecs) if name.startswith("toolparse_"))


def test_there_are_pages() -> None:
    assert len(PAGES) >= 8


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_every_python_example_runs(page: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = FENCE.findall(page.read_text(encoding="utf-8"))
    if not blocks:
        pytest.skip("no python examples on this page")
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem}"}
    for i, block in enumerate(blocks):
        try:
            code = compile(block, f"{page.relative_to(DOCS)}[block {i}]", "exec", dont_inherit=True)
            exec(code, namespace)
        except tp.NoAdapterError as exc:
            # the library is importable (attrs comes with hypothesis) but its adapter is not
            pytest.skip(f"needs toolparse[{exc.extra}], not installed in this environment")
        except tp.FunctionDefinitionError as exc:
            if 'pip install "toolparse[' not in str(exc):
                raise
            pytest.skip(f"needs an extra, not installed in this environment: {exc}")
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.split(".")[0] in (
                "pydantic",
                "marshmallow",
                "attrs",
                "attr",
                "cattrs",
                "jsonschema",
                "toolparse_pydantic",
                "toolparse_marshmallow",
                "toolparse_attrs",
                "toolparse_jsonschema",
                "docstring_parser",
                "openai",
                "anthropic",
                "google",
                "mcp",
                "langchain_core",
                "opentelemetry",
                "agents",
                "pydantic_ai",
                "anyio",
                "httpx2",
            ):
                pytest.skip(f"needs {exc.name}, not installed in this environment")
            raise
        except ImportError as exc:
            # an extra's module says which extra it needs (toolparse.mcp without mcp)
            if 'pip install "toolparse[' not in str(exc):
                raise
            pytest.skip(f"needs an extra, not installed in this environment: {exc}")


def test_readme_example_runs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = FENCE.findall(text)
    assert blocks, "the README shows an example"
    namespace: dict[str, object] = {"__name__": "readme"}
    for block in blocks:
        exec(compile(block, "README.md", "exec", dont_inherit=True), namespace)


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_is_documented_with_its_signature(hook: str) -> None:
    spec = getattr(hookspecs, hook)
    assert inspect.getdoc(spec), f"{hook} has no docstring"
    params = ", ".join(inspect.signature(spec).parameters)
    heading = f"### `{hook}({params})`"
    assert heading in (DOCS / "plugins.md").read_text(encoding="utf-8"), heading


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_has_a_test_of_its_own(hook: str) -> None:
    tree = ast.parse((ROOT / "tests" / "core" / "test_plugins.py").read_text(encoding="utf-8"))
    names = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    assert f"test_hook_{hook}" in names


def test_no_undocumented_hook_in_the_docs() -> None:
    documented = set(
        re.findall(r"^### `(toolparse_\w+)\(", (DOCS / "plugins.md").read_text(), re.MULTILINE)
    )
    assert documented == set(HOOKS)


@pytest.mark.parametrize("name", sorted(set(tp.__all__) - {"__version__"}))
def test_every_public_name_has_a_docstring_and_a_reference_entry(name: str) -> None:
    obj = getattr(tp, name)
    api = (DOCS / "api.md").read_text(encoding="utf-8")
    # the reference renders every name in toolparse.__all__ (automodule with :members:, and the
    # constants through package-constants); a name may also be listed by hand in the overview
    generated = ".. automodule:: toolparse\n   :members:" in api
    generated = generated and ".. package-constants:: toolparse" in api
    assert generated or f"toolparse.{name}" in api, f"{name} is missing from docs/api.md"
    if inspect.isclass(obj) or inspect.isfunction(obj):
        assert inspect.getdoc(obj), f"{name} has no docstring"


def test_every_page_is_in_a_toctree() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for page in PAGES:
        rel = page.relative_to(DOCS).with_suffix("").as_posix()
        if rel != "index":
            assert re.search(rf"^{re.escape(rel)}$", index, re.MULTILINE), (
                f"{rel} is not in the index toctree"
            )
