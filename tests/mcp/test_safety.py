"""Serving safely: a bearer token, Host and Origin checks, error detail, secrets, the names suggested.

The HTTP checks run in process against the ASGI app with Starlette's TestClient:
they are the SDK's own (its token verifier, its transport security), so what is
checked is that toolparse's options reach them on every bind address.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient
from tests.mcp.connect import memory_session

import toolparse as tp
import toolparse.mcp as tmcp

TOKEN = "s3cret-token-for-tests"


def _read(arguments: Any) -> str:
    raise OSError(f"cannot open /srv/app/conf/{arguments['path']}")


def _refuse(arguments: Any) -> str:
    raise tp.ToolError("that file is not yours")


FILES = [
    tp.Function(
        "files.read", _read, parameters=[tp.FunctionParam("path", "string", required=True)]
    ),
    tp.Function("files.refuse", _refuse),
]

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture
def client_of() -> Iterator[Any]:
    """``client_of(app, base_url)``: a TestClient running the app's lifespan (once per app)."""
    clients: list[TestClient] = []

    def make(app: Any, base_url: str = "http://127.0.0.1:8000") -> TestClient:
        client = TestClient(app, base_url=base_url)
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def post(client: TestClient, **headers: str) -> int:
    """The status of an ``initialize`` request with these extra headers."""
    response = client.post("/mcp", json=INITIALIZE, headers={**HEADERS, **headers})
    return response.status_code


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# -- authentication ---------------------------------------------------------------------


def test_a_token_is_required_on_every_request(client_of: Any) -> None:
    app = tmcp.asgi_app(FILES, stateless=True, json_response=True, auth_token=TOKEN)
    client = client_of(app)
    assert post(client) == 401
    assert post(client, **bearer("wrong-token-value")) == 401
    assert post(client, Authorization=TOKEN) == 401  # not a bearer header
    assert post(client, **bearer(TOKEN)) == 200


def test_a_token_verifier_of_ones_own_is_passed_through(client_of: Any) -> None:
    from mcp.server.auth.provider import AccessToken

    seen: list[str] = []

    class Verifier:
        async def verify_token(self, token: str) -> AccessToken | None:
            seen.append(token)
            return AccessToken(token=token, client_id="c", scopes=[]) if token == "ok" else None

    app = tmcp.asgi_app(FILES, stateless=True, json_response=True, token_verifier=Verifier())
    client = client_of(app)
    assert post(client, **bearer("no")) == 401
    assert post(client, **bearer("ok")) == 200
    assert seen == ["no", "ok"]


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "mcp.example.com"])
def test_a_non_loopback_bind_without_authentication_is_refused(host: str) -> None:
    with pytest.raises(ValueError, match="without authentication"):
        tmcp.asgi_app(FILES, host=host)
    with pytest.raises(ValueError, match="without authentication"):
        tmcp.serve(FILES, transport="streamable-http", host=host, port=1)  # before listening
    tmcp.asgi_app(FILES, host=host, auth_token=TOKEN)
    tmcp.asgi_app(FILES, host=host, allow_unauthenticated=True)


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "localhost"])
def test_a_loopback_bind_may_go_without_a_token(host: str) -> None:
    tmcp.asgi_app(FILES, host=host)


def test_options_that_do_not_go_together_are_refused() -> None:
    with pytest.raises(ValueError, match="not both"):
        tmcp.asgi_app(FILES, auth_token=TOKEN, token_verifier=object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="non-empty"):
        tmcp.asgi_app(FILES, auth_token="")
    with pytest.raises(ValueError, match="allowed_hosts"):
        tmcp.asgi_app(FILES, host="0.0.0.0", auth_token=TOKEN, allowed_origins=["https://a.b"])
    with pytest.raises(ValueError, match="error_detail"):
        tmcp.make_server(FILES, error_detail="some")  # type: ignore[arg-type]


# -- Host and Origin --------------------------------------------------------------------


def test_loopback_accepts_local_names_only(client_of: Any) -> None:
    client = client_of(tmcp.asgi_app(FILES, stateless=True, json_response=True))
    assert post(client) == 200
    assert post(client, Host="localhost:8000") == 200
    assert post(client, Host="attacker.example:8000") == 421  # DNS rebinding
    assert post(client, Origin="http://attacker.example") == 403


def test_allowed_hosts_and_origins_hold_on_a_public_bind(client_of: Any) -> None:
    app = tmcp.asgi_app(
        FILES,
        host="0.0.0.0",
        stateless=True,
        json_response=True,
        auth_token=TOKEN,
        allowed_hosts=["mcp.example.com"],
        allowed_origins=["https://app.example.com"],
    )
    good = client_of(app, "https://mcp.example.com")
    token = bearer(TOKEN)
    assert post(good, **token) == 200
    assert post(good, Origin="https://app.example.com", **token) == 200
    assert post(good, Origin="https://evil.example.com", **token) == 403
    assert post(good, Host="other.example.com", **token) == 421
    assert post(good) == 401  # the token still comes first


def test_allowed_hosts_replace_the_loopback_names(client_of: Any) -> None:
    app = tmcp.asgi_app(FILES, stateless=True, json_response=True, allowed_hosts=["proxy.lan:*"])
    client = client_of(app, "http://proxy.lan:9000")
    assert post(client) == 200
    assert post(client, Host="127.0.0.1:8000") == 421


# -- what a client reads ------------------------------------------------------------------


def call(server: Any, name: str, arguments: dict[str, Any] | None = None) -> str:
    async def main() -> str:
        async with memory_session(server) as session:
            result = await session.call_tool(name, arguments or {})
            assert result.is_error
            return str(result.content[0].text)  # type: ignore[union-attr]

    return anyio.run(main)


def test_error_detail_type_names_only_the_exception_and_the_tool() -> None:
    full = tmcp.make_server(FILES)
    brief = tmcp.make_server(FILES, error_detail="type")
    text = call(full, "files.read", {"path": "db.yaml"})
    assert text.startswith("ERROR: (OSError) cannot open /srv/app/conf/db.yaml at ")
    assert call(brief, "files.read", {"path": "db.yaml"}) == "ERROR: (OSError) in files.read"
    # the name the client called: an alias routes to the same tool
    assert call(brief, "files_read", {"path": "db.yaml"}) == "ERROR: (OSError) in files_read"
    # what the model must read to do better is always sent in full
    assert call(brief, "files.refuse") == "that file is not yours"
    assert "path" in call(brief, "files.read", {"pth": "x"})


def http_call(client: TestClient, name: str, arguments: dict[str, Any]) -> str:
    """The text of a ``tools/call`` answer over HTTP."""
    request = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    headers = {**HEADERS, "MCP-Protocol-Version": "2025-11-25"}
    response = client.post("/mcp", json=request, headers=headers)
    assert response.status_code == 200, response.text
    return str(response.json()["result"]["content"][0]["text"])


@pytest.mark.parametrize(
    ("host", "detail", "expected"),
    [
        ("127.0.0.1", None, "full"),
        ("0.0.0.0", None, "type"),
        ("0.0.0.0", "full", "full"),
        ("127.0.0.1", "type", "type"),
    ],
)
def test_the_default_detail_follows_the_bind(
    client_of: Any, host: str, detail: Any, expected: str
) -> None:
    app = tmcp.asgi_app(
        FILES,
        host=host,
        stateless=True,
        json_response=True,
        allow_unauthenticated=True,
        error_detail=detail,
    )
    text = http_call(client_of(app), "files.read", {"path": "db.yaml"})
    if expected == "type":
        assert text == "ERROR: (OSError) in files.read"
    else:
        assert text.startswith("ERROR: (OSError) cannot open /srv/app/conf/db.yaml at ")


def test_secrets_from_the_environment_never_reach_a_client(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DB_PASSWORD", "srv/app/conf")
    text = call(tmcp.make_server(FILES), "files.read", {"path": "db.yaml"})
    assert "srv/app/conf" not in text
    assert "cannot open /[redacted]/db.yaml" in text


def test_an_unknown_tool_suggests_the_names_the_client_was_given() -> None:
    text = call(tmcp.make_server(FILES), "files.reed")
    assert 'Did you mean "files.read"?' in text
    assert "files_read" not in text
    assert "Available tools: files.read, files.refuse." in text


# -- cancellation -------------------------------------------------------------------------


@pytest.mark.parametrize("timeout", [None, 30])
def test_a_clients_cancellation_reaches_the_tool(timeout: float | None) -> None:
    started, unwound = anyio.Event(), anyio.Event()

    async def wait(a: Any) -> str:
        started.set()
        try:
            await anyio.sleep(600)
        finally:
            unwound.set()
        return "finished"

    server = tmcp.make_server([tp.Function("wait", wait)], timeout=timeout)

    async def main() -> bool:
        async with memory_session(server) as session:
            with anyio.fail_after(60):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(session.call_tool, "wait", {})
                    await started.wait()
                    tg.cancel_scope.cancel()  # the client sends notifications/cancelled
                await unwound.wait()
            return unwound.is_set()

    assert anyio.run(main)
