"""``toolparse demo``: a short tour, with a scripted model making real mistakes.

Each scene defines a tool from a model people already have, then replays the
calls a model typically makes: wrong first, then corrected after reading
toolparse's reply. Scenes whose library is not installed are skipped.
"""

from __future__ import annotations

import argparse
import itertools
import json
import textwrap
from collections.abc import Callable
from typing import Any

from .. import providers
from ..errors import NoAdapterError
from ..function import Function
from ..params import FunctionParam
from ..results import ToolCall

__all__ = ["demo"]

#: a scene: its tool, and the model's turns, each the ``(tool name, arguments)`` of its calls
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
    """Run every scene, then show a tool as two providers see it."""
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
