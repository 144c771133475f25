"""toolparse.mcp is an extra: the core never imports the SDK, and without it the error says what to install."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from tests.mcp.tools import weather

import toolparse as tp
import toolparse.mcp as tmcp


def python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )


def test_the_core_and_the_command_do_not_import_the_sdk() -> None:
    done = python(
        "import sys, toolparse, toolparse.providers, toolparse.cli\n"
        "import toolparse as tp\n"
        "def weather(city: str) -> str:\n"
        "    return city\n"
        "tp.providers.to_tools([tp.tool(weather)], 'mcp')\n"
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'mcp_types'))))\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_without_the_sdk_the_import_names_the_extra() -> None:
    done = python(
        "import sys\n"
        "sys.modules['mcp'] = None\n"
        "try:\n"
        "    import toolparse.mcp\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    assert done.stdout.strip() == (
        'toolparse.mcp needs the official MCP SDK: pip install "toolparse[mcp]"'
    )


def test_a_timeout_per_call() -> None:
    @tp.tool
    async def sleepy() -> str:
        """Takes too long."""
        await anyio.sleep(5)
        return "late"

    async def main() -> Any:
        async with Client(tmcp.make_server([sleepy], timeout=0.05)) as client:
            return await client.call_tool("sleepy", {})

    result = anyio.run(main)
    assert result.is_error is True
    assert (
        result.content[0].text
        == "The tool sleepy did not finish within 0.05 seconds and was stopped."
    )


# what a model can send is JSON: no NaN, no infinities (the wire has no words for them)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    arguments=st.dictionaries(
        st.sampled_from(["city", "days", "cty", "x"]), json_values, max_size=3
    )
)
def test_any_arguments_a_model_sends_get_the_answer_toolparse_gives(
    arguments: dict[str, Any],
) -> None:
    async def main() -> Any:
        async with Client(tmcp.make_server([weather])) as client:
            return await client.call_tool("weather", arguments)

    result = anyio.run(main)
    (local,) = tp.execute_tool_calls([weather], [tp.ToolCall("1", "weather", arguments)])
    assert result.is_error is local.is_error
    assert [c.text for c in result.content] == [local.text]


def test_an_unknown_transport_is_refused() -> None:
    with pytest.raises(ValueError, match="transport must be 'stdio' or 'streamable-http'"):
        tmcp.serve([weather], transport="sse")  # type: ignore[arg-type]
