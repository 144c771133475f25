"""`import toolparse` stays light: no adapter library, no asyncio, no importlib.metadata."""

from __future__ import annotations

import subprocess
import sys

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
    code = (
        "import toolparse as tp; "
        "fn = tp.Function('t', lambda a: a['x'], parameters=[tp.FunctionParam('x', 'string', required=True)]); "
        "assert fn.execute({'x': 'y'}) == tp.Ok('y'); "
        "assert fn.execute('{\"x\": \"y\"}') == tp.Ok('y')"
    )
    assert loaded_after(code) == set()
