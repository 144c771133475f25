"""The distributions are fit to publish, and their versions agree by construction.

Five pyprojects (the core and four adapters) are released together: one version, compatible-range
pins between them, an MIT LICENSE in each, and a README per distribution that is its PyPI page.
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

import toolparse as tp

tomllib = pytest.importorskip("tomllib")  # Python 3.11+; the packaging checks need one run only

ROOT = pathlib.Path(__file__).resolve().parents[1]
ADAPTERS = ("pydantic", "marshmallow", "attrs", "jsonschema")
DISTRIBUTIONS = {"toolparse": ROOT / "core"} | {
    f"toolparse-{lib}": ROOT / "adapters" / lib for lib in ADAPTERS
}
REPOSITORY = "https://github.com/toolparse/toolparse"
PYTHONS = ("3.10", "3.11", "3.12", "3.13")
FENCE = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def project(distribution: str) -> dict[str, object]:
    path = DISTRIBUTIONS[distribution] / "pyproject.toml"
    data: dict[str, object] = tomllib.loads(path.read_text(encoding="utf-8"))["project"]
    return data


def core_version() -> str:
    version = project("toolparse")["version"]
    assert isinstance(version, str)
    return version


def requirements(items: object) -> list[Requirement]:
    assert isinstance(items, list)
    return [Requirement(item) for item in items]


def compatible_range(version: str) -> SpecifierSet:
    # ~=X.Y.Z: any release of the X.Y series from X.Y.Z on, the next minor excluded
    return SpecifierSet(f"~={version}")


def test_the_version_is_a_release_version() -> None:
    version = Version(core_version())
    assert not version.is_devrelease
    assert not version.local


@pytest.mark.parametrize("distribution", sorted(DISTRIBUTIONS))
def test_every_pyproject_has_the_core_version(distribution: str) -> None:
    assert project(distribution)["version"] == core_version()


@pytest.mark.parametrize("distribution", sorted(DISTRIBUTIONS))
def test_the_installed_metadata_matches_the_pyproject(distribution: str) -> None:
    assert importlib.metadata.version(distribution) == project(distribution)["version"]


def test_dunder_version_is_the_installed_distribution_version() -> None:
    assert tp.__version__ == importlib.metadata.version("toolparse") == core_version()
    assert "__version__" in tp.__all__


def test_dunder_version_has_a_fallback_for_a_source_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_installed(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    # drop the cached value so the lazy attribute is computed again, without the distribution
    monkeypatch.delitem(vars(tp), "__version__", raising=False)
    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    assert tp.__version__ == "0+unknown"


def test_importing_toolparse_does_not_read_its_metadata() -> None:
    # the version is read on first use: importlib.metadata costs more than the whole core import
    import subprocess

    probe = "import sys, toolparse; print('importlib.metadata' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("lib", ADAPTERS)
def test_each_core_extra_pins_its_adapter_to_a_compatible_range(lib: str) -> None:
    extras = project("toolparse")["optional-dependencies"]
    assert isinstance(extras, dict)
    (requirement,) = requirements(extras[lib])
    assert requirement.name == f"toolparse-{lib}"
    assert requirement.specifier == compatible_range(core_version())
    # an adapter-only fix (X.Y.Z+1) installs; the next minor does not
    version = Version(core_version())
    assert requirement.specifier.contains(f"{version.major}.{version.minor}.{version.micro + 1}")
    assert not requirement.specifier.contains(f"{version.major}.{version.minor + 1}.0")


def test_every_pin_on_a_toolparse_distribution_has_the_core_version() -> None:
    # the extras, the adapters' dependencies and the fast extra: nothing names another version
    for distribution in DISTRIBUTIONS:
        meta = project(distribution)
        groups: list[object] = [meta.get("dependencies", [])]
        optional = meta.get("optional-dependencies", {})
        assert isinstance(optional, dict)
        groups.extend(optional.values())
        for group in groups:
            for requirement in requirements(group):
                if not requirement.name.startswith("toolparse"):
                    continue
                if distribution == "toolparse" == requirement.name:
                    assert not requirement.specifier  # toolparse[...] in the core: itself
                    continue
                assert requirement.specifier == compatible_range(core_version()), (
                    f"{distribution}: {requirement}"
                )


@pytest.mark.parametrize("lib", ADAPTERS)
def test_each_adapter_depends_on_a_compatible_core(lib: str) -> None:
    cores = [
        r
        for r in requirements(project(f"toolparse-{lib}")["dependencies"])
        if r.name == "toolparse"
    ]
    assert len(cores) == 1
    assert cores[0].specifier == compatible_range(core_version())


def test_all_installs_every_adapter_and_every_feature() -> None:
    # `[all]` is "everything" in the docs: every extra but the conformance kit for adapter authors
    extras = project("toolparse")["optional-dependencies"]
    assert isinstance(extras, dict)
    (requirement,) = requirements(extras["all"])
    assert requirement.name == "toolparse"
    assert set(ADAPTERS) <= requirement.extras
    assert requirement.extras == set(extras) - {"all", "testing"}


def test_the_fast_json_schema_path_is_reachable_from_the_core() -> None:
    extras = project("toolparse")["optional-dependencies"]
    assert isinstance(extras, dict)
    (requirement,) = requirements(extras["jsonschema-fast"])
    assert requirement.name == "toolparse-jsonschema"
    assert requirement.extras == {"fast"}
    adapter_extras = project("toolparse-jsonschema")["optional-dependencies"]
    assert isinstance(adapter_extras, dict)
    assert [r.name for r in requirements(adapter_extras["fast"])] == ["jsonschema-rs"]


@pytest.mark.parametrize("extra", ["mcp", "langchain", "pydantic-ai", "openai-agents", "testing"])
def test_the_serving_and_integration_extras_stay(extra: str) -> None:
    extras = project("toolparse")["optional-dependencies"]
    assert isinstance(extras, dict)
    assert extras[extra]


def test_the_root_license_is_mit() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the toolparse authors" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text


@pytest.mark.parametrize("distribution", sorted(DISTRIBUTIONS))
def test_every_distribution_ships_the_license(distribution: str) -> None:
    meta = project(distribution)
    assert meta["license"] == "MIT"
    assert meta["license-files"] == ["LICENSE"]
    root = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert (DISTRIBUTIONS[distribution] / "LICENSE").read_text(encoding="utf-8") == root


@pytest.mark.parametrize("distribution", sorted(DISTRIBUTIONS))
def test_every_distribution_has_publishable_metadata(distribution: str) -> None:
    meta = project(distribution)
    assert meta["requires-python"] == f">={PYTHONS[0]}"
    assert meta["authors"] == [{"name": "the toolparse authors"}]
    classifiers = meta["classifiers"]
    assert isinstance(classifiers, list)
    for python in PYTHONS:
        assert f"Programming Language :: Python :: {python}" in classifiers
    assert "Typing :: Typed" in classifiers
    assert "License :: OSI Approved :: MIT License" in classifiers
    assert any(c.startswith("Development Status :: ") for c in classifiers)
    assert classifiers == sorted(set(classifiers), key=classifiers.index)  # no duplicates
    assert ("Framework :: Pydantic :: 2" in classifiers) == (distribution == "toolparse-pydantic")
    urls = meta["urls"]
    assert isinstance(urls, dict)
    assert urls["Homepage"] == REPOSITORY
    assert {"Documentation", "Source", "Issues", "Changelog"} <= set(urls)
    assert all(str(url).startswith(REPOSITORY) for url in urls.values())
    # Typing :: Typed is a promise: the package carries its py.typed marker
    package = distribution.replace("-", "_")
    assert (DISTRIBUTIONS[distribution] / "src" / package / "py.typed").is_file()


@pytest.mark.parametrize("distribution", sorted(DISTRIBUTIONS))
def test_every_readme_is_a_real_pypi_description(distribution: str) -> None:
    meta = project(distribution)
    assert meta["readme"] == "README.md"
    text = (DISTRIBUTIONS[distribution] / "README.md").read_text(encoding="utf-8")
    assert text.startswith(f"# {distribution}\n")
    extra = "" if distribution == "toolparse" else distribution.removeprefix("toolparse-")
    assert (f'pip install "toolparse[{extra}]"' if extra else "pip install toolparse") in text
    assert FENCE.search(text), "the description shows an example"
    # PyPI shows the file alone: every link is absolute
    links = re.findall(r"\]\(([^)]+)\)|<(https?://[^>]+)>", text)
    targets = [a or b for a, b in links]
    assert targets
    assert all(target.startswith("https://") for target in targets), targets
    assert f"{REPOSITORY}/blob/main/CHANGELOG.md" in text


@pytest.mark.parametrize("distribution", sorted(DISTRIBUTIONS))
def test_every_readme_example_runs(distribution: str, capsys: pytest.CaptureFixture[str]) -> None:
    if distribution != "toolparse":
        pytest.importorskip(distribution.replace("-", "_"))
    text = (DISTRIBUTIONS[distribution] / "README.md").read_text(encoding="utf-8")
    namespace: dict[str, object] = {"__name__": f"readme_{distribution.replace('-', '_')}"}
    for block in FENCE.findall(text):
        exec(compile(block, f"{distribution}/README.md", "exec", dont_inherit=True), namespace)
    # each example ends by showing the message the model reads for a rejected call
    assert "Invalid arguments for this tool." in capsys.readouterr().out


def public_modules() -> set[str]:
    """Every importable module whose dotted name has no private part, read from the tree."""
    found: set[str] = set()
    sources = [ROOT / "core" / "src"] + [ROOT / "adapters" / lib / "src" for lib in ADAPTERS]
    for src in sources:
        for path in src.rglob("*.py"):
            parts = list(path.relative_to(src).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            if parts[-1] == "__main__" or any(part.startswith("_") for part in parts):
                continue
            found.add(".".join(parts))
    return found


def test_the_reference_renders_every_public_module() -> None:
    # docs/api.md is generated from the code module by module: a new public module joins it
    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\.\. automodule:: (\S+)$", api, re.MULTILINE))
    assert "toolparse" in documented
    assert public_modules() - documented == set()
    assert documented - public_modules() == set(), "a documented module does not exist"


def module_source(module: str) -> pathlib.Path:
    parts = module.split(".")
    src = ROOT / "core" / "src" if parts[0] == "toolparse" else None
    if src is None:
        src = ROOT / "adapters" / parts[0].removeprefix("toolparse_") / "src"
    path = src.joinpath(*parts)
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def bound_at_import(tree: ast.Module) -> set[str]:
    """Names a module binds when imported (type-checking-only imports left out)."""
    names: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names.update(
                    n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)
                )
            elif (
                isinstance(node, ast.AnnAssign) and node.value and isinstance(node.target, ast.Name)
            ):
                names.add(node.target.id)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, ast.If) and "TYPE_CHECKING" not in ast.unparse(node.test):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)

    visit(tree.body)
    return names


@pytest.mark.parametrize("module", sorted(public_modules()))
def test_every_exported_name_resolves(module: str) -> None:
    # the reference renders __all__: every name in it is bound at import, or served by the
    # module's __getattr__ (a lazy export), which is then asked for it. Read from the source,
    # so the frameworks behind the extras are not imported here.
    tree = ast.parse(module_source(module).read_text(encoding="utf-8"))
    exported = next(
        (
            ast.literal_eval(node.value)
            for node in tree.body
            if isinstance(node, (ast.Assign, ast.AnnAssign))
            and "__all__"
            in ast.unparse(node.targets[0] if isinstance(node, ast.Assign) else node.target)
            and node.value is not None
        ),
        None,
    )
    assert isinstance(exported, list), f"{module} has no explicit __all__"
    lazy = [name for name in exported if name not in bound_at_import(tree)]
    if lazy:
        assert "__getattr__" in bound_at_import(tree), f"{module} exports unbound {lazy}"
        imported = importlib.import_module(module)
        for name in lazy:
            getattr(imported, name)  # raises AttributeError when the lazy export is broken


def test_the_sdists_ship_the_tests_and_the_changelog_and_no_gitignore(
    tmp_path: pathlib.Path,
) -> None:
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv builds the sdists; it is not on PATH")
    subprocess.run(
        [uv, "build", "--sdist", "--all-packages", "--quiet", "--out-dir", str(tmp_path)],
        cwd=ROOT,
        check=True,
    )
    for distribution, project_dir in DISTRIBUTIONS.items():
        stem = f"{distribution.replace('-', '_')}-{core_version()}"
        with tarfile.open(tmp_path / f"{stem}.tar.gz") as sdist:
            names = {name.removeprefix(f"{stem}/") for name in sdist.getnames()}
        assert "CHANGELOG.md" in names, distribution
        assert ".gitignore" not in names, distribution
        assert not any(name.endswith(".pyc") for name in names), distribution
        tests = (
            "tests/core/" if project_dir.name == "core" else f"tests/adapters/{project_dir.name}/"
        )
        assert any(n.startswith(tests) and n.endswith(".py") for n in names), distribution
