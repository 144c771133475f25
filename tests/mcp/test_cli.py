"""``toolparse mcp TARGET``: the command serves toolparse.mcp over stdio and over HTTP."""

from __future__ import annotations

import os
import pathlib
import socket
import subprocess
import sys
import textwrap
import time
from typing import Any

import anyio
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

MODULE = textwrap.dedent(
    """
    import toolparse as tp

    __all__ = ["weather"]

    @tp.tool
    def weather(city: str) -> str:
        \"\"\"Weather for a city.\"\"\"
        return f"sunny in {city}"

    @tp.tool
    def hidden(x: int) -> str:
        \"\"\"Not in __all__: not served.\"\"\"
        return "no"

    TOOLS = [weather, hidden]
    """
)


def write_tools(tmp_path: pathlib.Path) -> pathlib.Path:
    folder = tmp_path / "project"
    folder.mkdir()
    path = folder / "weather_tools.py"
    path.write_text(MODULE)
    return path


def test_a_file_target_over_stdio_from_another_directory(tmp_path: pathlib.Path) -> None:
    path = write_tools(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "toolparse", "mcp", str(path), "--name", "from-cli"],
        cwd=str(elsewhere),
    )

    async def main() -> Any:
        with (tmp_path / "server.log").open("w") as errlog, anyio.fail_after(30):
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                init = await session.initialize()
                tools = await session.list_tools()
                good = await session.call_tool("weather", {"city": "Oslo"})
                bad = await session.call_tool("weather", {"cty": "Oslo"})
                return init, tools, good, bad

    init, tools, good, bad = anyio.run(main)
    assert init.server_info.name == "from-cli"
    assert [t.name for t in tools.tools] == ["weather"]  # __all__ is respected
    assert (good.is_error, good.content[0].text) == (False, "sunny in Oslo")
    assert bad.is_error is True
    assert 'cty (did you mean "city"?)' in bad.content[0].text


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(port: int, process: subprocess.Popen[bytes], log: pathlib.Path) -> None:
    """Until the command listens on ``port``; its log is the failure when it exits or is slow."""
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise AssertionError(log.read_text()) from None
            time.sleep(0.05)


def test_a_list_target_over_stateless_http_from_the_command(tmp_path: pathlib.Path) -> None:
    path = write_tools(tmp_path)
    port = free_port()
    log = (tmp_path / "http.log").open("w")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "toolparse",
            "mcp",
            f"{path}:TOOLS",
            "--http",
            f"127.0.0.1:{port}",
            "--stateless",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=str(tmp_path),
    )
    try:
        wait_for(port, process, tmp_path / "http.log")

        async def main() -> Any:
            with anyio.fail_after(20):
                async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                    listed = await client.list_tools()
                    return listed, await client.call_tool("weather", {"city": "Bergen"})

        listed, result = anyio.run(main)
    finally:
        process.terminate()
        process.wait(10)
        log.close()
    assert [t.name for t in listed.tools] == ["weather", "hidden"]  # a list target
    assert result.content[0].text == "sunny in Bergen"


def test_without_the_sdk_the_command_names_the_extra(tmp_path: pathlib.Path) -> None:
    path = write_tools(tmp_path)
    script = (
        "import sys\n"
        "sys.modules['mcp'] = None  # as if the extra were not installed\n"
        "from toolparse.cli import main\n"
        f"sys.exit(main(['mcp', {str(path)!r}]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert done.returncode == 2
    assert 'pip install "toolparse[mcp]"' in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


# -- serving safely ---------------------------------------------------------------------


def run_main(args: list[str], capsys: Any) -> tuple[int, str]:
    from toolparse.cli import main

    status = main(["mcp", *args])
    return status, capsys.readouterr().err


def test_a_public_bind_without_a_token_is_refused_saying_how_to_add_one(
    tmp_path: pathlib.Path, capsys: Any
) -> None:
    path = str(write_tools(tmp_path))
    status, err = run_main([path, "--http", "0.0.0.0:8000"], capsys)
    assert status == 2
    assert err.startswith("toolparse: refusing to serve 0.0.0.0 without a token")
    assert "--token-env MCP_TOKEN" in err
    assert len(err.strip().splitlines()) == 1


def test_the_token_comes_from_a_variable_that_must_be_set(
    tmp_path: pathlib.Path, capsys: Any, monkeypatch: Any
) -> None:
    path = str(write_tools(tmp_path))
    monkeypatch.delenv("MISSING_MCP_TOKEN", raising=False)
    monkeypatch.setenv("EMPTY_MCP_TOKEN", "")
    for name in ("MISSING_MCP_TOKEN", "EMPTY_MCP_TOKEN"):
        status, err = run_main([path, "--http", "0.0.0.0:8000", "--token-env", name], capsys)
        assert status == 2
        assert err.strip() == (
            f"toolparse: --token-env {name}: the environment variable {name} is unset or empty"
        )
    status, err = run_main([path, "--token-env", "EMPTY_MCP_TOKEN"], capsys)
    assert (status, err.strip()) == (2, "toolparse: --token-env applies to --http only")


def test_an_address_that_cannot_be_listened_on_is_one_line(
    tmp_path: pathlib.Path, capsys: Any
) -> None:
    path = str(write_tools(tmp_path))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, err = run_main([path, "--http", f"127.0.0.1:{port}"], capsys)
    assert status == 2
    assert err.startswith(f"toolparse: cannot listen on 127.0.0.1:{port}: ")
    assert len(err.strip().splitlines()) == 1
    status, err = run_main(
        [path, "--http", "no-such-host.invalid:8000", "--allow-unauthenticated"], capsys
    )
    assert status == 2
    assert err.startswith("toolparse: cannot listen on no-such-host.invalid:8000: ")


def test_bad_capacity_options_are_one_line(tmp_path: pathlib.Path, capsys: Any) -> None:
    path = str(write_tools(tmp_path))
    for option, value, text in (
        ("--timeout", "0", "timeout must be a number of seconds above 0 (or None), got 0.0"),
        ("--max-workers", "0", "max_workers must be a whole number of at least 1, got 0"),
        ("--max-queue", "-1", "max_queue must be a whole number of at least 0, got -1"),
    ):
        status, err = run_main([path, option, value], capsys)
        assert (status, err.strip()) == (2, f"toolparse: {text}")


def test_a_token_from_the_environment_guards_the_served_tools(tmp_path: pathlib.Path) -> None:
    import httpx

    path = write_tools(tmp_path)
    port = free_port()
    log = (tmp_path / "http.log").open("w")
    command = [sys.executable, "-m", "toolparse", "mcp", str(path), "--http", f"127.0.0.1:{port}"]
    options = ["--stateless", "--token-env", "SERVE_TOKEN", "--max-workers", "2", "--timeout", "5"]
    process = subprocess.Popen(
        [*command, *options],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=str(tmp_path),
        env={**os.environ, "SERVE_TOKEN": "token-from-the-environment"},
    )
    url = f"http://127.0.0.1:{port}/mcp"
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "weather", "arguments": {"city": "Oslo"}},
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-11-25",
    }
    try:
        wait_for(port, process, tmp_path / "http.log")
        refused = httpx.post(url, json=body, headers=headers, timeout=20)
        token = {"Authorization": "Bearer token-from-the-environment"}
        answered = httpx.post(url, json=body, headers={**headers, **token}, timeout=20)
    finally:
        process.terminate()
        process.wait(10)
        log.close()
    assert refused.status_code == 401
    assert answered.status_code == 200
    assert "sunny in Oslo" in answered.text
