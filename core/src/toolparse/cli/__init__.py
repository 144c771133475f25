"""The ``toolparse`` command (also ``python -m toolparse``): its parser, and one line per error."""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from ..checking import FORMATS
from ..errors import FunctionDefinitionError
from ..providers import registered
from ._check import check
from ._commands import call, demo, mcp, schema
from ._plugins import plugins
from ._targets import FAILED, INTERNAL, OK, USAGE, CommandError, say

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on stderr (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        raise CommandError(f"{message} (see {self.prog} --help)")


def _providers() -> list[str]:
    """The choices of -p/--provider: the built-in ones and any a plugin registers."""
    try:
        return sorted(registered())  # the default manager's, loaded when the parser is built
    except Exception:  # a broken plugin must not break the command line
        return sorted(set(FORMATS) - {"plain"})  # the built-in ones


def _parser() -> _Parser:
    import toolparse

    parser = _Parser(prog="toolparse", description="LLM tools: schemas, calls and checks.")
    parser.add_argument("--version", action="version", version=f"toolparse {toolparse.__version__}")
    debug: dict[str, Any] = {"action": "store_true", "help": "show the traceback of any error"}
    parser.add_argument("--debug", **debug)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    providers = _providers()
    common = _Parser(add_help=False)
    common.add_argument("--debug", default=argparse.SUPPRESS, **debug)

    def add(name: str, help: str, run: Callable[..., int], target: bool = True) -> _Parser:
        p: _Parser = sub.add_parser(name, help=help, description=help, parents=[common])
        p.set_defaults(run=run)
        if target:
            p.add_argument("target", help="module, module:NAME or path/to/file.py[:NAME]")
        return p

    p = add("plugins", "list plugins (with versions), adapters and providers", plugins, False)
    p.add_argument("--json", action="store_true", help="one JSON object")
    p = add("schema", "print the tools' JSON Schema, or their shape for a provider", schema)
    p.add_argument("-p", "--provider", choices=providers, help="the provider's tool shape")
    p.add_argument("--strict", action="store_true", help="the provider's strict mode (with -p)")
    p.add_argument("--json", action="store_true", help="compact JSON, always a list of tools")

    p = add("call", "execute a tool with arguments and print the outcome", call)
    arguments_help = "a JSON object, @file, - (stdin), or key=value / key:=JSON pairs"
    p.add_argument("arguments", nargs="*", help=arguments_help)
    p.add_argument("--context", help="the context, as a JSON object or @file")
    p.add_argument("--json", action="store_true", help="the outcome as one JSON object")

    p = add("check", "check tool definitions, or recorded calls against them", check)
    p.add_argument("calls", nargs="*", help="JSON Lines (- for stdin) or Parquet call files")
    p.add_argument("-p", "--provider", choices=providers, help="check the export for this provider")
    p.add_argument("--strict", action="store_true", help="check the strict export")
    p.add_argument("--json", action="store_true", help="one JSON result per line")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="check calls in N processes")
    shapes = ("auto", *FORMATS, *(name for name in providers if name not in FORMATS))
    shape_help = "the shape of each recorded line (default: detected per line)"
    p.add_argument("--format", choices=shapes, default="auto", help=shape_help)
    p.add_argument("--column", metavar="NAME", help="Parquet: the column of records")

    add("demo", "a short tour with a scripted model", demo, False)

    p = add("mcp", "serve tools to MCP clients (stdio, or HTTP with --http)", mcp)
    p.add_argument("--http", metavar="HOST:PORT", help="serve Streamable HTTP at this address")
    p.add_argument("--stateless", action="store_true", help="HTTP without sessions")
    p.add_argument("--name", default="toolparse", help="the server name shown to clients")
    _mcp_options(p)
    return parser


def _mcp_options(p: _Parser) -> None:
    """The safety and capacity options of ``toolparse mcp``."""
    http = "(with --http)"
    token = f"require the bearer token in env NAME {http}"
    p.add_argument("--token-env", metavar="NAME", help=token)
    hosts = f"accept this Host header (repeatable; name:* for any port) {http}"
    p.add_argument("--allowed-host", action="append", metavar="HOST", help=hosts)
    origins = f"accept this Origin header (repeatable) {http}"
    p.add_argument("--allowed-origin", action="append", metavar="ORIGIN", help=origins)
    unauthenticated = f"serve a public address with no token (behind a proxy that checks) {http}"
    p.add_argument("--allow-unauthenticated", action="store_true", help=unauthenticated)
    detail = "what a client reads of a tool's crash (default: full on loopback and stdio)"
    p.add_argument("--error-detail", choices=("full", "type"), help=detail)
    p.add_argument("--max-workers", type=int, metavar="N", help="sync tool bodies run at once")
    p.add_argument("--max-queue", type=int, metavar="N", help="calls that wait for a worker")
    p.add_argument("--timeout", type=float, metavar="S", help="seconds per call")


def _run(given: list[str]) -> int:
    parser = _parser()
    args, extra = parser.parse_known_args(given)
    # positionals after an option (`check T --jobs 2 a.jsonl b.jsonl`): argparse leaves
    # them over; they belong to the command's list of files or arguments
    more: list[str] | None = getattr(args, "calls", getattr(args, "arguments", None))
    if more is not None and not any(e.startswith("-") and e != "-" for e in extra):
        more.extend(extra)
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return int(args.run(args))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``toolparse`` command; return its exit status."""
    given = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in given or os.environ.get("TOOLPARSE_DEBUG", "") not in ("", "0")
    try:
        return _run(given)
    except BrokenPipeError:
        # the reader went away (`toolparse demo | head -1`): stop quietly, and keep
        # Python from complaining again when it flushes stdout at exit
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return OK
    except KeyboardInterrupt:
        say("interrupted")
        return 130
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else (OK if exc.code is None else USAGE)
    except Exception as exc:
        if debug:
            traceback.print_exc()
        if isinstance(exc, CommandError):
            say(exc.message)
            return exc.status
        if isinstance(exc, FunctionDefinitionError):
            say(f"broken tool definition: {exc}")
            return FAILED
        line = str(exc).splitlines()[0] if str(exc) else ""
        say(
            f"unexpected error: {type(exc).__name__}: {line} "
            "(this is a bug in toolparse or a plugin; --debug shows the traceback)"
        )
        return INTERNAL
