"""No call aborts the process: a hostile JSON text under a 3 GiB address-space limit.

jsonschema-rs builds every error of a rejected value at once, each with a copy
and a rendering of the value it is about. Five thousand refused property names
of one 79 KB object made it copy that object five thousand times: the process
aborted (``memory allocation of 7 bytes failed``), which nothing can catch. The
call runs in a child process whose address space is limited, so a regression
fails this test instead of the test run.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

resource = pytest.importorskip("resource")  # (POSIX only)
pytest.importorskip("jsonschema_rs")

CHILD = textwrap.dedent(
    """
    import resource
    limit = 3 * 1024**3
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    import toolparse as tp
    from toolparse_jsonschema import JsonSchema

    SCHEMA = {
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "limit": {"type": "integer", "default": 10},
            "filter": {
                "type": "object",
                "propertyNames": {"pattern": "^[a-z]+$"},
                "additionalProperties": {"type": "string"},
            },
        },
        "required": ["query"],
    }
    fn = tp.Function(
        "search",
        lambda arguments: "ok",
        args_schema=JsonSchema(SCHEMA, apply_defaults=True),
        unknown_arguments="ignore",
    )
    # duplicate keys (the last one wins) and 5,000 bad names with bad values
    bad = ", ".join(f'"Key_{i}": {i}' for i in range(5000))
    text = '{"query": 1, "query": 2, "limit": "x", "limit": "y", "filter": {' + bad + "}}"
    assert 70_000 < len(text) < 90_000
    print(fn.execute(text).message)
    """
)


def test_a_79_kb_text_of_5000_bad_names_is_an_argument_message_under_3_gib() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-2_000:]
    lines = done.stdout.splitlines()
    assert lines[0] == "Invalid arguments for this tool."
    assert 'filter.Key_0: property name must match the pattern ^[a-z]+$ (received "Key_0")' in lines
    assert lines[-3].startswith("... and ")
