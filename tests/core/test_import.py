"""`import toolparse` stays light: no adapter library, no asyncio, no importlib.metadata."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = [
    "asyncio",
    "importlib.metadata",
    "pydantic",
    "marshmallow",
    "attrs",
    "cattrs",
    "jsonschema",
    "docstring_parser",
]


def loaded_after(code: str) -> set[str]:
    probe = f"import sys; {code}; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    return set(out.split())


def test_import_is_light() -> None:
    assert loaded_after("import toolparse") == set()


def test_defining_and_executing_a_plain_tool_stays_light() -> None:
    # the first Function takes the default plugin manager (its plugins load
    # from their entry points then): no adapter library, no event loop
    code = (
        "import toolparse as tp; "
        "fn = tp.Function('t', lambda a: a['x'], parameters=[tp.FunctionParam('x', 'string', required=True)]); "
        "assert fn.execute({'x': 'y'}) == tp.Ok('y'); "
        "assert fn.execute('{\"x\": \"y\"}') == tp.Ok('y')"
    )
    assert loaded_after(code) == {"importlib.metadata"}


def test_collecting_every_installed_adapter_imports_no_library() -> None:
    # every adapter's accepts() decides without importing: loading the plugins,
    # collecting the adapters and asking them all about a source imports nothing
    code = (
        "import toolparse as tp; pm = tp.plugin_manager(); "
        "assert pm.adapters(); "
        "assert pm.select_adapter(object()) is None"
    )
    assert loaded_after(code) <= {"importlib.metadata"}
    assert not loaded_after(code) & {"pydantic", "marshmallow", "attrs", "cattrs", "jsonschema"}


def test_a_pydantic_users_first_tool_imports_no_other_library() -> None:
    pytest.importorskip("toolparse_pydantic")
    code = (
        "import pydantic, toolparse as tp\n"
        "class Weather(pydantic.BaseModel):\n"
        "    city: str\n"
        "fn = tp.Function('f', lambda a: a.city, args_schema=Weather)\n"
        "assert fn.adapter.name == 'pydantic', fn.adapter\n"
        "assert fn.execute({'city': 'Oslo'}) == tp.Ok('Oslo')\n"
        "assert isinstance(fn.execute({'town': 'Oslo'}), tp.Error)\n"
    )
    probe = f"{code}import sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert "pydantic" in out.split()
    assert not set(out.split()) & {"marshmallow", "attrs", "cattrs", "jsonschema"}
