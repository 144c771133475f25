"""Every adapter package has the same shape: public names, private modules, shared constants."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import toolparse as tp
from toolparse.adapter import Compiled

#: library -> (adapter class name, options wrappers, what the library itself is called)
ADAPTERS = {
    "pydantic": ("PydanticAdapter", set(), "pydantic"),
    "marshmallow": ("MarshmallowAdapter", set(), "marshmallow"),
    "attrs": (
        "AttrsAdapter",
        {"AttrsSource", "using", "make_converter", "configure_converter"},
        "cattrs",
    ),
    "jsonschema": ("JsonSchemaAdapter", {"JsonSchema"}, "jsonschema"),
}
#: the private modules every adapter has (each may add what its library needs)
SHARED_MODULES = ("_adapter", "_schema", "_errors")
#: the copies the adapter SDK (toolparse.adapter) holds once for everyone
SHARED_CONSTANTS = {
    '"report", "reject", "ignore"': "POLICIES",
    "[0-9a-fA-F]{8}-": "UUID_PATTERN",
    'int: "integer"': "JSON_TYPES",
}


def _package(lib: str) -> Any:
    return pytest.importorskip(f"toolparse_{lib}")


def _sources(lib: str) -> dict[str, str]:
    root = Path(_package(lib).__file__).parent
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(root.glob("*.py"))}


@pytest.mark.parametrize("lib", sorted(ADAPTERS))
def test_the_public_names_are_the_adapter_the_hook_and_the_options(lib: str) -> None:
    package = _package(lib)
    cls_name, options, _ = ADAPTERS[lib]
    assert set(package.__all__) == {cls_name, "toolparse_register_adapters", *options}
    for name in package.__all__:
        value = getattr(package, name)
        assert inspect.getdoc(value), f"toolparse_{lib}.{name} has no docstring"
    # the hook registers exactly one instance of the exported class, named for its library
    found: list[Any] = []
    package.toolparse_register_adapters(register=found.append)
    (adapter,) = found
    assert type(adapter) is getattr(package, cls_name)
    assert adapter.name == lib
    assert isinstance(adapter, tp.Adapter)


@pytest.mark.parametrize("lib", sorted(ADAPTERS))
def test_every_adapter_has_the_shared_private_modules(lib: str) -> None:
    _package(lib)
    for module in SHARED_MODULES:
        assert importlib.util.find_spec(f"toolparse_{lib}.{module}") is not None, module
    adapter_class = getattr(importlib.import_module(f"toolparse_{lib}._adapter"), ADAPTERS[lib][0])
    assert adapter_class.__module__ == f"toolparse_{lib}._adapter"


@pytest.mark.parametrize("lib", sorted(ADAPTERS))
def test_every_adapter_compiles_in_one_step(lib: str) -> None:
    package = _package(lib)
    adapter = getattr(package, ADAPTERS[lib][0])()
    params = inspect.signature(adapter.compile).parameters
    assert {"unknown_arguments", "field_schema", "parser"} <= set(params)
    for name in ("unknown_arguments", "field_schema", "parser"):
        assert params[name].kind is inspect.Parameter.KEYWORD_ONLY
    assert inspect.signature(adapter.compile).return_annotation in (Compiled, "Compiled")


@pytest.mark.parametrize("lib", sorted(ADAPTERS))
def test_no_adapter_keeps_its_own_copy_of_a_shared_constant(lib: str) -> None:
    for file, text in _sources(lib).items():
        for copy, shared in SHARED_CONSTANTS.items():
            assert copy not in text, f"{file} copies {shared}: import it from toolparse.adapter"


@pytest.mark.parametrize("lib", sorted(ADAPTERS))
def test_no_adapter_module_is_over_400_lines(lib: str) -> None:
    for file, text in _sources(lib).items():
        assert len(text.splitlines()) <= 400, file


def test_the_builtin_adapter_keeps_no_copy_of_a_shared_constant() -> None:
    root = Path(tp.__file__).parent / "plain"
    for path in sorted(root.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= 400, path.name
        for copy, shared in SHARED_CONSTANTS.items():
            assert copy not in text, f"plain/{path.name} copies {shared}"


def test_importing_an_adapter_package_imports_no_library() -> None:
    libs = [lib for lib in sorted(ADAPTERS) if importlib.util.find_spec(f"toolparse_{lib}")]
    if not libs:
        pytest.skip("no adapter is installed")
    imports = "; ".join(f"import toolparse_{lib}" for lib in libs)
    code = (
        f"import sys; {imports}; "
        "print(' '.join(m for m in ('pydantic', 'marshmallow', 'attrs', 'cattrs', "
        "'jsonschema', 'referencing') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == []
