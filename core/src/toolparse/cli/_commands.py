"""The subcommands ``schema``, ``call``, ``plugins`` and ``mcp``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import providers
from ..contract import Error, Interrupt
from ..function import Function
from ..results import ToolCall, ToolResult
from ._errors import FAILED, OK, CommandError
from ._targets import load_tools

__all__ = ["call", "mcp", "plugins", "schema"]


def _dump(value: Any, compact: bool) -> str:
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
    print(_dump(out, args.json))
    return OK


def _read(text: str, what: str) -> str:
    if text == "-":
        return sys.stdin.read()
    if text.startswith("@"):
        try:
            with open(text[1:], encoding="utf-8") as f:
                return f.read()
        except OSError as exc:
            raise CommandError(f"cannot read {what} from {text[1:]}: {exc.strerror}") from None
    return text


def _object(text: str, what: str) -> dict[str, Any]:
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
        return _object(_read(given[0], "the arguments"), "the arguments")  # also "-": stdin
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
        raise CommandError(
            f"{args.target} has {len(tools)} tools ({names}); name one as TARGET:NAME"
        )
    fn = tools[0]
    arguments = _arguments(args.arguments)
    context = _object(_read(args.context, "the context"), "the context") if args.context else None
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
    print(_dump(payload, True) if args.json else f"{kind}\n{text}")
    return FAILED if type(outcome) is Error else OK


def plugins(args: argparse.Namespace) -> int:
    """List the plugins (with their distributions and versions), adapters and providers."""
    import toolparse

    # the default manager, looked up when the command runs
    from ..plugins import plugin_manager
    from ..providers import registered

    pm = plugin_manager()
    providers = sorted(registered(pm))  # the built-in ones register on first use: list them too
    installed = {info.name: info for info in pm.plugin_distributions()}
    rows: list[tuple[str, str, str, str, str | None]] = []
    for name, plugin in pm.list_name_plugin():
        info = installed.pop(name, None)
        if info is not None:
            rows.append((name, info.distribution, info.version, info.entry_point, None))
            continue
        # registered in code (the core's defaults, or at run time)
        module = getattr(plugin, "__name__", type(plugin).__name__)
        own = module.startswith("toolparse.")
        version = toolparse.__version__ if own else ""
        rows.append((name, "toolparse" if own else "", version, module, None))
    # installed, but failed to import
    rows += [
        (i.name, i.distribution, i.version, i.entry_point, i.error) for i in installed.values()
    ]
    adapters = [a.name for a in pm.adapters()]
    if args.json:
        keys = ("name", "distribution", "version", "module", "error")
        plugins = [dict(zip(keys, row, strict=True)) for row in rows]
        print(_dump({"plugins": plugins, "adapters": adapters, "providers": providers}, True))
        return OK
    width = max((len(row[0]) for row in rows), default=0)
    for name, distribution, version, module, error in rows:
        where = f"failed to load: {error}" if error else module
        line = f"{name:<{width}}  {distribution} {version}  ({where})"
        print(line.replace("   (", "  ("))
    print("adapters (asked in this order):", ", ".join(adapters))
    print("providers:", ", ".join(providers))
    return OK


def _address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise CommandError(f"--http wants HOST:PORT (e.g. 127.0.0.1:8000), got {text!r}")
    return host or "127.0.0.1", int(port)


def mcp(args: argparse.Namespace) -> int:
    """Serve the target's tools to MCP clients (stdio, or Streamable HTTP with ``--http``)."""
    address = _address(args.http) if args.http else None
    if args.stateless and address is None:
        raise CommandError("--stateless applies to --http only")
    tools = load_tools(args.target).tools
    try:
        import toolparse.mcp as server
    except ImportError:
        raise CommandError('serving MCP needs the SDK: pip install "toolparse[mcp]"') from None
    host, port = address or ("127.0.0.1", 8000)
    server.serve(
        tools,
        name=args.name,
        transport="streamable-http" if address else "stdio",
        host=host,
        port=port,
        stateless=args.stateless,
    )
    return OK
