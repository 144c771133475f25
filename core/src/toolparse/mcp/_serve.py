"""Serving over stdio, or over Streamable HTTP behind the SDK's own checks.

The SDK guards: a bearer token through its ``token_verifier`` (401), ``Host``/``Origin``
through its ``TransportSecuritySettings`` (421, 403). Decided here is what the options
mean for a bind address: off loopback, no authentication is refused unless asked for.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from ._server import make_server

if TYPE_CHECKING:
    import socket

    from mcp.server.auth.provider import AccessToken, TokenVerifier
    from mcp.server.auth.settings import AuthSettings
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.applications import Starlette

__all__ = ["asgi_app", "is_loopback", "listen", "serve", "serve_stdio"]

# what the SDK allows on a loopback bind when it is given no settings (its own defaults)
_LOOPBACK_HOSTS = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
_LOOPBACK_ORIGINS = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address: 127.0.0.0/8, ``::1`` or ``localhost``."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class _BearerToken:
    """The SDK's ``TokenVerifier`` for one shared secret: ``Authorization: Bearer <token>``."""

    __slots__ = ("_token",)

    def __init__(self, token: str) -> None:
        if not isinstance(token, str) or not token.strip():
            raise ValueError("auth_token must be a non-empty string")
        self._token = token.encode()

    async def verify_token(self, token: str) -> AccessToken | None:
        """The token's access, or ``None`` (401) for any other token."""
        from mcp.server.auth.provider import AccessToken

        # compared in constant time: how long it takes says nothing about the token
        if not hmac.compare_digest(token.encode(), self._token):
            return None
        return AccessToken(token=token, client_id="toolparse", scopes=[])

    def __repr__(self) -> str:
        return "BearerToken(<hidden>)"


def _auth(
    host: str,
    auth_token: str | None,
    auth: AuthSettings | None,
    token_verifier: TokenVerifier | None,
    allow_unauthenticated: bool,
) -> tuple[AuthSettings | None, TokenVerifier | None]:
    """The SDK's auth settings and verifier for these options; a bind left open is refused."""
    if auth_token is not None:
        if auth is not None or token_verifier is not None:
            raise ValueError("give auth_token, or auth and token_verifier, not both")
        token_verifier = _BearerToken(auth_token)
    if token_verifier is not None and auth is None:
        from mcp.server.auth.settings import AuthSettings

        # the SDK checks tokens only with auth settings; with no authorization server
        # and no resource URL, the issuer URL is never published nor compared
        auth = AuthSettings(issuer_url="http://localhost", resource_server_url=None)  # type: ignore[arg-type]
    if auth is not None and token_verifier is None:
        raise ValueError("auth needs a token_verifier: the SDK checks tokens with it")
    if auth is None and not allow_unauthenticated and not is_loopback(host):
        raise ValueError(
            f"refusing to serve on {host} without authentication: pass auth_token= (or auth= and "
            "token_verifier=), or allow_unauthenticated=True behind a proxy that authenticates"
        )
    return auth, token_verifier


def _security(
    host: str, allowed_hosts: Sequence[str] | None, allowed_origins: Sequence[str] | None
) -> TransportSecuritySettings | None:
    """The SDK's Host/Origin checks for a bind address (``None``: none)."""
    from mcp.server.transport_security import TransportSecuritySettings

    local = is_loopback(host)
    if allowed_hosts is None and allowed_origins is None and not local:
        return None  # a public bind with no names to check: the proxy in front checks them
    if allowed_hosts is None:
        if not local:
            raise ValueError("allowed_origins needs allowed_hosts on a non-loopback bind")
        allowed_hosts = [*_LOOPBACK_HOSTS, f"{host}:*"]
    if allowed_origins is None:
        allowed_origins = _LOOPBACK_ORIGINS if local else []
    hosts, origins = list(allowed_hosts), list(allowed_origins)
    return TransportSecuritySettings(allowed_hosts=hosts, allowed_origins=origins)


def asgi_app(  # noqa: PLR0913 -- API.md fixes these keyword options
    tools: Any,
    *,
    name: str = "toolparse",
    stateless: bool = False,
    path: str = "/mcp",
    host: str = "127.0.0.1",
    json_response: bool = False,
    context: Mapping[str, Any] | None = None,
    timeout: float | None = None,
    auth_token: str | None = None,
    auth: AuthSettings | None = None,
    token_verifier: TokenVerifier | None = None,
    allowed_hosts: Sequence[str] | None = None,
    allowed_origins: Sequence[str] | None = None,
    allow_unauthenticated: bool = False,
    error_detail: Literal["full", "type"] | None = None,
    max_workers: int | None = None,
    max_queue: int | None = None,
) -> Starlette:
    """A Starlette (ASGI) app serving ``tools`` over Streamable HTTP at ``path``.

    :param tools: a Function, a Toolset or a list of Functions.
    :param stateless: no sessions: every request stands alone, so any of
        several server processes behind a load balancer can answer it.
    :param host: the address it will listen on. On loopback (127.0.0.0/8, ``::1``,
        ``localhost``) only local ``Host``/``Origin`` headers pass; any other
        address needs authentication or ``allow_unauthenticated=True``.
    :param json_response: answer with one JSON body instead of an SSE stream.
    :param auth_token: every request must carry ``Authorization: Bearer <auth_token>``,
        else the SDK answers 401. Read it from the environment, never from code.
    :param auth: the SDK's ``AuthSettings``, passed through with ``token_verifier``
        (its ``TokenVerifier``) for a real authorization server.
    :param allowed_hosts: the ``Host`` headers accepted (``"name:*"``: any port), else 421.
    :param allowed_origins: the ``Origin`` headers accepted, else 403.
    :param allow_unauthenticated: serve a non-loopback address with no authentication.
    :param error_detail: as :func:`make_server`'s; default ``"full"`` on loopback,
        ``"type"`` elsewhere. ``context``, ``timeout``, ``max_workers`` and
        ``max_queue`` are :func:`make_server`'s too.
    :raises ValueError: a non-loopback ``host`` with no authentication and no
        ``allow_unauthenticated``; options that do not go together.

    The app's lifespan runs the SDK's session manager: serve it with uvicorn
    (``uvicorn module:app``), or mount it in another Starlette/FastAPI app
    whose lifespan enters ``app.router.lifespan_context(app)``.
    """
    auth, token_verifier = _auth(host, auth_token, auth, token_verifier, allow_unauthenticated)
    security = _security(host, allowed_hosts, allowed_origins)
    if error_detail is None:
        error_detail = "full" if is_loopback(host) else "type"
    server = make_server(
        tools,
        name=name,
        context=context,
        timeout=timeout,
        error_detail=error_detail,
        max_workers=max_workers,
        max_queue=max_queue,
    )
    return server.streamable_http_app(
        streamable_http_path=path,
        stateless_http=stateless,
        json_response=json_response,
        host=host,
        transport_security=security,
        auth=auth,
        token_verifier=token_verifier,
    )


async def serve_stdio(tools: Any, **options: Any) -> None:
    """Serve ``tools`` on this process's stdin and stdout until the client closes them.

    ``options`` are :func:`make_server`'s. While serving, the SDK points file
    descriptor 1 at stderr, so whatever a tool prints cannot corrupt the stream.
    """
    from mcp.server.stdio import stdio_server

    server = make_server(tools, **options)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``; ``OSError`` saying why it cannot be."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host.strip("[]"), port), family=family)
    except OSError as exc:
        # (create_server adds the address to the reason: the line names it already)
        reason = (exc.strerror or str(exc)).split(" (while attempting to bind", 1)[0]
        raise OSError(f"cannot listen on {host}:{port}: {reason}") from exc


def serve(
    tools: Any,
    *,
    transport: Literal["stdio", "streamable-http"] = "stdio",
    host: str = "127.0.0.1",
    port: int = 8000,
    **options: Any,
) -> None:
    """Serve ``tools`` as an MCP server until stopped.

    :param transport: ``"stdio"`` (a desktop client starts this process) or
        ``"streamable-http"`` (a remote server at ``http://host:port/mcp``).
    :param host: the address to listen on (HTTP only).
    :param port: the port to listen on (HTTP only).
    :param options: those of :func:`asgi_app` over HTTP (``auth_token``,
        ``allowed_hosts``, ``error_detail``, ``max_workers``, ...), of
        :func:`make_server` over stdio (``error_detail`` is ``"full"`` there
        unless given: the client started this process).
    :raises ValueError: what :func:`asgi_app` refuses (checked before listening).
    :raises OSError: the address cannot be listened on (in use, not resolvable).
    """
    if transport == "stdio":
        import anyio

        options["error_detail"] = options.get("error_detail") or "full"
        anyio.run(lambda: serve_stdio(tools, **options))
        return
    if transport != "streamable-http":
        raise ValueError(f"transport must be 'stdio' or 'streamable-http', got {transport!r}")
    import uvicorn

    app = asgi_app(tools, host=host, **options)
    # bound here, not by uvicorn: a port in use is an OSError to the caller, not an exit
    with listen(host, port) as sock:
        uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
