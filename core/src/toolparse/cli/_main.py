"""The ``toolparse`` command.

::

    toolparse plugins                          # installed plugins and their adapters
    toolparse schema pkg.module:tool [-p openai]   # a tool's JSON Schema, or its provider shape
    toolparse call pkg.module:tool '{"q": 1}'  # execute a tool with arguments, print the outcome
    toolparse check pkg.module                 # every tool in a module: definitions and schemas
    toolparse demo                             # a short tour, with a scripted model
    toolparse mcp pkg.module                   # serve a module's tools to an MCP client (stdio)

``pkg.module:name`` names a :class:`~toolparse.Function` (or anything ``@tool``
accepts) importable from the current directory.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from ..function import Function

__all__ = ["main"]


def _load(target: str) -> Any:
    module_name, _, attr = target.partition(":")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    module = importlib.import_module(module_name)
    if not attr:
        return module
    value: Any = module
    for part in attr.split("."):
        value = getattr(value, part)
    return value


def _function(target: str) -> Function:
    value = _load(target)
    if isinstance(value, Function):
        return value
    if callable(value):
        from ..decorator import tool

        made = tool(value)
        assert isinstance(made, Function)
        return made
    raise SystemExit(f"{target} is not a tool or a function")


def _plugins(args: argparse.Namespace) -> int:
    from ..plugins import plugin_manager

    pm = plugin_manager()
    for name, plugin in pm.list_name_plugin():
        print(f"{name}: {getattr(plugin, '__name__', type(plugin).__name__)}")
    print("adapters (asked in this order):", ", ".join(a.name for a in pm.adapters()))
    print("providers:", ", ".join(sorted(pm.providers())))
    return 0


def _schema(args: argparse.Namespace) -> int:
    fn = _function(args.target)
    if args.provider:
        from .. import providers

        print(json.dumps(providers.to_tool(fn, args.provider), indent=2))
    else:
        print(json.dumps(fn.json_schema(), indent=2))
    return 0


def _call(args: argparse.Namespace) -> int:
    fn = _function(args.target)
    outcome = fn.execute(args.arguments)
    kind = type(outcome).__name__
    first = outcome[0]
    print(kind)
    print(first if isinstance(first, str) else repr(first))
    return 0 if kind != "Error" else 1


def _check(args: argparse.Namespace) -> int:
    from ..errors import FunctionDefinitionError

    try:
        value = _load(args.target)
    except FunctionDefinitionError as exc:
        print(f"broken tool definition: {exc}")
        return 1
    found = (
        [value]
        if isinstance(value, Function)
        else [v for v in vars(value).values() if isinstance(v, Function)]
    )
    if not found:
        print(f"no tools found in {args.target}")
        return 1
    for fn in found:
        schema = fn.json_schema()
        names = ", ".join(fn.accepted_param_names()) or "(any)"
        adapter = fn.adapter.name if fn.adapter else "none"
        print(
            f"ok  {fn.name}: adapter {adapter}; parameters {names}; schema {len(json.dumps(schema))} bytes"
        )
    return 0


def _tools(target: str) -> list[Function]:
    value = _load(target)
    if isinstance(value, Function):
        return [value]
    return [v for v in vars(value).values() if isinstance(v, Function)]


def _mcp(args: argparse.Namespace) -> int:
    from ..server import serve

    tools = _tools(args.target)
    if not tools:
        print(f"toolparse: no tools found in {args.target}", file=sys.stderr)
        return 1
    serve(tools, name=args.name)
    return 0


def _demo(args: argparse.Namespace) -> int:
    from ._demo import main as demo

    demo()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``toolparse`` command; return its exit status."""
    parser = argparse.ArgumentParser(
        prog="toolparse", description="LLM tool definitions and argument parsing."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("plugins", help="list installed plugins, adapters and providers").set_defaults(
        run=_plugins
    )
    p = sub.add_parser("schema", help="print a tool's JSON Schema or provider shape")
    p.add_argument("target", help="module:tool")
    p.add_argument("-p", "--provider", help="openai, openai-responses, anthropic, gemini, mcp")
    p.set_defaults(run=_schema)
    p = sub.add_parser("call", help="execute a tool with JSON arguments")
    p.add_argument("target", help="module:tool")
    p.add_argument("arguments", nargs="?", default="{}", help="the arguments, as JSON text")
    p.set_defaults(run=_call)
    p = sub.add_parser("check", help="check the tools of a module")
    p.add_argument("target", help="module or module:tool")
    p.set_defaults(run=_check)
    sub.add_parser("demo", help="a short tour with a scripted model").set_defaults(run=_demo)
    p = sub.add_parser("mcp", help="serve a module's tools to an MCP client over stdio")
    p.add_argument("target", help="module or module:tool")
    p.add_argument("--name", default="toolparse", help="the server name shown to clients")
    p.set_defaults(run=_mcp)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except (ImportError, AttributeError) as exc:
        print(f"toolparse: cannot load {getattr(args, 'target', '')}: {exc}", file=sys.stderr)
        return 2
