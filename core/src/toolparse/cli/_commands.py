"""The subcommands ``schema``, ``call``, ``mcp`` and ``demo``."""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import textwrap
from collections.abc import Callable
from typing import Any, Literal

from .. import providers
from ..contract import Error, Interrupt
from ..errors import NoAdapterError
from ..function import Function
from ..params import FunctionParam
from ..results import ToolCall, ToolResult
from ._targets import FAILED, OK, CommandError, load_tools

__all__ = ["call", "demo", "dump", "mcp", "schema"]


def dump(value: Any, compact: bool) -> str:
    """``value`` as JSON: one compact line (``--json``) or indented; what JSON cannot hold, by repr."""
    layout: dict[str, Any] = {"separators": (",", ":")} if compact else {"indent": 2}
    return json.dumps(value, default=repr, **layout)


def _export(fn: Function, provider: str, strict: bool) -> dict[str, Any]:
    try:
        return providers.to_tool(fn, provider, strict=True if strict else None)
    except ValueError as exc:
        raise CommandError(f"{provider} refuses the tool {fn.name}: {exc}", FAILED) from None


def schema(args: argparse.Namespace) -> int:
    """Print the tools' parameters JSON Schema, or their shape for a provider."""
    if args.strict and not args.provider:
        raise CommandError("--strict needs -p/--provider: strict mode is a provider's rule")
    tools = load_tools(args.target).tools
    out: Any
    if args.provider:
        shapes = [_export(fn, args.provider, args.strict) for fn in tools]
        out = shapes[0] if len(shapes) == 1 and not args.json else shapes
    elif len(tools) == 1 and not args.json:
        out = tools[0].json_schema()
    else:
        out = [
            {"name": fn.name, "description": fn.description, "parameters": fn.json_schema()}
            for fn in tools
        ]
    print(dump(out, args.json))
    return OK


def _object(text: str, what: str) -> dict[str, Any]:
    """The JSON object ``text`` holds, or the file ``@path`` or stdin (``-``) holds."""
    if text == "-":
        text = sys.stdin.read()
    elif text.startswith("@"):
        try:
            with open(text[1:], encoding="utf-8") as f:
                text = f.read()
        except OSError as exc:
            raise CommandError(f"cannot read {what} from {text[1:]}: {exc.strerror}") from None
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise CommandError(f"{what} are not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise CommandError(f"{what} must be a JSON object, got {type(value).__name__}")
    return value


def _arguments(given: list[str]) -> dict[str, Any]:
    """The arguments from JSON text, ``@file``, ``-`` (stdin) or ``key=value`` pairs."""
    if not given:
        return {}
    if len(given) == 1 and (given[0].startswith(("@", "{", "[")) or "=" not in given[0]):
        return _object(given[0], "the arguments")  # also "-": stdin
    out: dict[str, Any] = {}
    for pair in given:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise CommandError(
                f"expected key=value (or key:=JSON), got {pair!r}; "
                "the arguments are one JSON object, @file, - or key=value pairs"
            )
        if key.endswith(":"):  # key:=JSON, as httpie writes it
            try:
                out[key[:-1]] = json.loads(value)
            except ValueError as exc:
                raise CommandError(f"the value of {key[:-1]} is not valid JSON: {exc}") from None
        else:
            out[key] = value
    return out


def call(args: argparse.Namespace) -> int:
    """Execute one tool with arguments; print the outcome."""
    tools = load_tools(args.target).tools
    if len(tools) != 1:
        names = ", ".join(fn.name for fn in tools)
        message = f"{args.target} has {len(tools)} tools ({names}); name one as TARGET:NAME"
        raise CommandError(message)
    fn = tools[0]
    arguments = _arguments(args.arguments)
    context = _object(args.context, "the context") if args.context else None
    outcome = fn.execute(arguments, context)
    kind = type(outcome).__name__
    if type(outcome) is Interrupt:
        text = str(outcome.display)
        payload: dict[str, Any] = {"outcome": kind, "display": outcome.display}
        payload["data"] = outcome.data
    else:
        result = ToolResult.from_outcome(ToolCall("cli", fn.name, arguments), fn, outcome)
        text = result.text
        payload = {"outcome": kind, "text": text, "is_error": result.is_error}
        if result.processed_content is not None:
            payload["processed_content"] = result.processed_content
    print(dump(payload, True) if args.json else f"{kind}\n{text}")
    return FAILED if type(outcome) is Error else OK


#: the options of ``toolparse mcp`` that only HTTP has
_HTTP_ONLY = ("stateless", "token_env", "allowed_host", "allowed_origin", "allow_unauthenticated")


def mcp(args: argparse.Namespace) -> int:
    """Serve the target's tools to MCP clients (stdio, or Streamable HTTP with ``--http``)."""
    host, port = "127.0.0.1", 8000
    if args.http:
        given, sep, number = args.http.rpartition(":")
        if not sep or not number.isdigit() or not 0 < int(number) < 65536:
            raise CommandError(f"--http wants HOST:PORT (e.g. 127.0.0.1:8000), got {args.http!r}")
        host, port = given or host, int(number)
    else:
        for option in _HTTP_ONLY:
            if getattr(args, option):
                raise CommandError(f"--{option.replace('_', '-')} applies to --http only")
    env, token = args.token_env, None
    if env:
        token = os.environ.get(env, "")
        if not token.strip():
            message = f"--token-env {env}: the environment variable {env} is unset or empty"
            raise CommandError(message)
    tools = load_tools(args.target).tools
    try:
        import toolparse.mcp as server
        from toolparse.mcp._serve import is_loopback
    except ImportError:
        raise CommandError('serving MCP needs the SDK: pip install "toolparse[mcp]"') from None
    if args.http and not token and not args.allow_unauthenticated and not is_loopback(host):
        raise CommandError(
            f"refusing to serve {host} without a token (anyone who can reach it could call every "
            "tool): export MCP_TOKEN=$(python -c 'import secrets; print(secrets.token_urlsafe(32))')"
            " and add --token-env MCP_TOKEN; or serve 127.0.0.1 behind a proxy, or add "
            "--allow-unauthenticated if the proxy authenticates"
        )
    options: dict[str, Any] = {"timeout": args.timeout, "error_detail": args.error_detail}
    options.update(name=args.name, max_workers=args.max_workers, max_queue=args.max_queue)
    if args.http:
        options.update(stateless=args.stateless, auth_token=token, allowed_hosts=args.allowed_host)
        options.update(allowed_origins=args.allowed_origin)
        options.update(allow_unauthenticated=args.allow_unauthenticated)
    transport: Literal["stdio", "streamable-http"] = "streamable-http" if args.http else "stdio"
    try:
        server.serve(tools, transport=transport, host=host, port=port, **options)
    except (ValueError, OSError) as exc:  # refused before serving: the bind, the options
        raise CommandError(str(exc)) from None
    return OK


#: a ``demo`` scene: a tool made from a model people already have, and the turns of a scripted
#: model (each the ``(tool name, arguments)`` of its calls): wrong first, then corrected
Scene = tuple[Function, list[list[tuple[str, Any]]]]


def _plain() -> Scene:
    def read_file(arguments: dict[str, Any]) -> str:
        return f"(first {arguments.get('limit', 100)} lines of {arguments['path']})"

    params = [FunctionParam("path", "string", required=True), FunctionParam("limit", "integer")]
    tool = Function("read_file", read_file, description="Read a text file.", parameters=params)
    return tool, [
        [("read_file", '{"file_path": "notes.md"}')],
        [("read_file", '{"path": "notes.md", "lmit": 20}')],
        [("read_file", '{"path": "notes.md", "limit": 20}')],
    ]


def _pydantic() -> Scene:
    from datetime import date

    from pydantic import BaseModel, Field

    class LineItem(BaseModel):
        sku: str
        quantity: int = Field(gt=0)

    class Invoice(BaseModel):
        """Create an invoice."""

        vendor_name: str
        total_amount: float = Field(gt=0)
        due: date
        line_items: list[LineItem]

    def create_invoice(invoice: Invoice) -> str:
        return f"Invoice for {invoice.vendor_name}: {invoice.total_amount:.2f}, due {invoice.due}, {len(invoice.line_items)} line(s)."

    wrong = {"vendor": "ACME", "total_amount": "twelve", "due": "2026-13-01"}
    right = {"vendor_name": "ACME", "total_amount": "12.50", "due": "2026-12-01"}
    return Function("create_invoice", create_invoice, args_schema=Invoice), [
        [("create_invoice", {**wrong, "line_items": [{"sku": "A1", "quantity": 0}]})],
        [("create_invoice", {**right, "line_items": [{"sku": "A1", "quantity": 2}]})],
    ]


def _marshmallow() -> Scene:
    from marshmallow import Schema, fields, validate

    class BookingSchema(Schema):
        guest_name = fields.String(required=True, data_key="guestName")
        nights = fields.Integer(required=True, validate=validate.Range(min=1, max=30))
        room = fields.String(
            load_default="standard", validate=validate.OneOf(["standard", "suite"])
        )

    def book_room(b: dict[str, Any]) -> str:
        return f"Booked {b['nights']} night(s) in a {b['room']} room for {b['guest_name']}."

    return Function("book_room", book_room, args_schema=BookingSchema), [
        [("book_room", {"guest_name": "Ada", "nights": 0, "room": "penthouse"})],
        [("book_room", {"guestName": "Ada", "nights": 2, "room": "suite"})],
    ]


def _attrs() -> Scene:
    import attrs

    @attrs.define
    class Transfer:
        amount: int = attrs.field(validator=attrs.validators.gt(0))
        to_account: str = attrs.field(validator=attrs.validators.matches_re(r"[A-Z]{2}\d{6}"))
        memo: str = ""

    tool = Function(
        "transfer", lambda t: f"Sent {t.amount} to {t.to_account}.", args_schema=Transfer
    )
    return tool, [
        [("transfer", {"amount": "100", "to_account": "nl123"})],
        [("transfer", {"amount": 100, "to_account": "NL123456"})],
    ]


def _jsonschema() -> Scene:
    import toolparse_jsonschema  # noqa: F401 - the adapter must be installed

    schema = {
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1},
            "max_results": {"type": "integer", "minimum": 1, "maximum": 50},
            "since": {"type": "string", "format": "date"},
        },
        "required": ["query"],
    }
    tool = Function(
        "search_docs", lambda a: f"Found 3 documents about {a['query']!r}.", args_schema=schema
    )
    return tool, [
        [("search_docs", {"query": "", "max_results": 500, "since": "last week"})],
        [("search_docs", {"query": "refund policy", "max_results": 5})],
    ]


def _broken_calls() -> Scene:
    def divide(arguments: dict[str, Any]) -> str:
        return str(arguments["a"] / arguments["b"])

    turn = [("divde", '{"a": 1, "b": 2}'), ("divide", '{"a": 1, "b": }'), ("divide", "[1, 2]")]
    return Function("divide", divide), [[*turn, ("divide", '{"a": 1, "b": 0}')]]


#: (title, the extra its library comes with, the scene)
_SCENES: list[tuple[str, str, Callable[[], Scene]]] = [
    ("Declared parameters, no library: the required-key check and 'did you mean'", "", _plain),
    ("A pydantic model as args_schema: every problem in one reply", "pydantic", _pydantic),
    (
        "A marshmallow schema, untouched: its data_key and validators drive the schema",
        "marshmallow",
        _marshmallow,
    ),
    ("An attrs class, structured by cattrs: strict types, validators as keywords", "attrs", _attrs),
    ("A raw JSON Schema (as an MCP server sends it), fully validated", "jsonschema", _jsonschema),
    (
        "Broken calls: unknown tool, invalid JSON, not an object, a tool that raises",
        "",
        _broken_calls,
    ),
]


def _title(title: str) -> None:
    print(f"\n== {title} " + "=" * max(0, 96 - len(title) - 4))


def demo(args: argparse.Namespace) -> int:
    """Run every scene whose library is installed, then show a tool as two providers see it."""
    from ..calls import execute_tool_calls  # the tool-call loop, for this command only

    print(
        "toolparse demo: a scripted model calls tools; toolparse parses every call before the tool runs."
    )
    ids = itertools.count(1)
    for title, extra, scene in _SCENES:
        try:
            tool, turns = scene()
        except (ImportError, NoAdapterError):
            # the library may be installed (attrs comes with other packages) without
            # its adapter: both mean the same extra is missing
            print(f'\n(skipped: install it with pip install "toolparse[{extra}]")')
            continue
        _title(title)
        for turn in turns:
            calls = [ToolCall(f"c{next(ids)}", name, arguments) for name, arguments in turn]
            for call, result in zip(calls, execute_tool_calls([tool], calls), strict=True):
                sent = call.arguments
                sent = sent if isinstance(sent, str) else json.dumps(sent)
                print(f"\nmodel calls  {call.name}({sent})")
                print("toolparse replies (error):" if result.is_error else "tool replies:")
                print(textwrap.indent(result.text, "    "))
    _title("The same tools, exported for a provider")
    params = [
        FunctionParam("city", "string", required=True),
        FunctionParam("units", "string", enum=["c", "f"]),
    ]
    tool = Function(
        "get_weather", lambda a: "21C", description="Current weather for a city.", parameters=params
    )
    for name in ("openai", "anthropic"):
        print(f"\n{name}:")
        print(textwrap.indent(json.dumps(providers.to_tool(tool, name), indent=2), "    "))
    print()
    return 0
