"""``toolparse demo``: a short tour, with a scripted model making real mistakes.

Each scene defines a tool from a model people already have, then replays the
calls a model typically makes: wrong first, then corrected after reading
toolparse's reply. Scenes whose library is not installed are skipped.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from typing import Any

from ..calls import execute_tool_calls
from ..function import Function
from ..results import ToolCall

_WIDTH = 96


def _say(text: str = "") -> None:
    print(text)


def _box(title: str) -> None:
    _say()
    _say(f"== {title} " + "=" * max(0, _WIDTH - len(title) - 4))


def _replay(tools: list[Function], turns: list[list[ToolCall]]) -> None:
    for turn in turns:
        results = execute_tool_calls(tools, turn)
        for call, result in zip(turn, results, strict=True):
            args = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)
            _say(f"\nmodel calls  {call.name}({args})")
            label = "toolparse replies (error)" if result.is_error else "tool replies"
            _say(f"{label}:")
            _say(textwrap.indent(result.text, "    "))


def _plain_scene() -> None:
    from ..params import FunctionParam

    _box("Declared parameters, no library: the required-key check and 'did you mean'")

    def read_file(arguments: dict[str, Any]) -> str:
        limit = arguments.get("limit", 100)
        return f"(first {limit} lines of {arguments['path']})"

    tool = Function(
        "read_file",
        read_file,
        description="Read a text file.",
        parameters=[
            FunctionParam("path", "string", required=True),
            FunctionParam("limit", "integer"),
        ],
    )
    _replay(
        [tool],
        [
            [ToolCall("c1", "read_file", '{"file_path": "notes.md"}')],
            [ToolCall("c2", "read_file", '{"path": "notes.md", "lmit": 20}')],
            [ToolCall("c3", "read_file", '{"path": "notes.md", "limit": 20}')],
        ],
    )


def _pydantic_scene() -> None:
    from datetime import date

    from pydantic import BaseModel, Field

    _box("A pydantic model as args_schema: every problem in one reply")

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

    tool = Function("create_invoice", create_invoice, args_schema=Invoice)
    _replay(
        [tool],
        [
            [
                ToolCall(
                    "c1",
                    "create_invoice",
                    {
                        "vendor": "ACME",
                        "total_amount": "twelve",
                        "due": "2026-13-01",
                        "line_items": [{"sku": "A1", "quantity": 0}],
                    },
                )
            ],
            [
                ToolCall(
                    "c2",
                    "create_invoice",
                    {
                        "vendor_name": "ACME",
                        "total_amount": "12.50",
                        "due": "2026-12-01",
                        "line_items": [{"sku": "A1", "quantity": 2}],
                    },
                )
            ],
        ],
    )


def _marshmallow_scene() -> None:
    from marshmallow import Schema, fields, validate

    _box("A marshmallow schema, untouched: its data_key and validators drive the schema")

    class BookingSchema(Schema):
        guest_name = fields.String(required=True, data_key="guestName")
        nights = fields.Integer(required=True, validate=validate.Range(min=1, max=30))
        room = fields.String(
            load_default="standard", validate=validate.OneOf(["standard", "suite"])
        )

    tool = Function(
        "book_room",
        lambda b: f"Booked {b['nights']} night(s) in a {b['room']} room for {b['guest_name']}.",
        args_schema=BookingSchema,
    )
    _replay(
        [tool],
        [
            [ToolCall("c1", "book_room", {"guest_name": "Ada", "nights": 0, "room": "penthouse"})],
            [ToolCall("c2", "book_room", {"guestName": "Ada", "nights": 2, "room": "suite"})],
        ],
    )


def _attrs_scene() -> None:
    import attrs

    _box("An attrs class, structured by cattrs: strict types, validators as keywords")

    @attrs.define
    class Transfer:
        amount: int = attrs.field(validator=attrs.validators.gt(0))
        to_account: str = attrs.field(validator=attrs.validators.matches_re(r"[A-Z]{2}\d{6}"))
        memo: str = ""

    tool = Function(
        "transfer", lambda t: f"Sent {t.amount} to {t.to_account}.", args_schema=Transfer
    )
    _replay(
        [tool],
        [
            [ToolCall("c1", "transfer", {"amount": "100", "to_account": "nl123"})],
            [ToolCall("c2", "transfer", {"amount": 100, "to_account": "NL123456"})],
        ],
    )


def _jsonschema_scene() -> None:
    import toolparse_jsonschema  # noqa: F401 - the adapter must be installed

    _box("A raw JSON Schema (as an MCP server sends it), fully validated")
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
    _replay(
        [tool],
        [
            [
                ToolCall(
                    "c1", "search_docs", {"query": "", "max_results": 500, "since": "last week"}
                )
            ],
            [ToolCall("c2", "search_docs", {"query": "refund policy", "max_results": 5})],
        ],
    )


def _broken_calls_scene() -> None:
    _box("Broken calls: unknown tool, invalid JSON, not an object, a tool that raises")

    def divide(arguments: dict[str, Any]) -> str:
        return str(arguments["a"] / arguments["b"])

    tool = Function("divide", divide)
    _replay(
        [tool],
        [
            [
                ToolCall("c1", "divde", '{"a": 1, "b": 2}'),
                ToolCall("c2", "divide", '{"a": 1, "b": }'),
                ToolCall("c3", "divide", "[1, 2]"),
                ToolCall("c4", "divide", '{"a": 1, "b": 0}'),
            ]
        ],
    )


def _export_scene() -> None:
    _box("The same tools, exported for a provider")
    from ..params import FunctionParam

    tool = Function(
        "get_weather",
        lambda a: "21C",
        description="Current weather for a city.",
        parameters=[
            FunctionParam("city", "string", required=True),
            FunctionParam("units", "string", enum=["c", "f"]),
        ],
    )
    try:
        from .. import providers

        for name in ("openai", "anthropic"):
            _say(f"\n{name}:")
            _say(textwrap.indent(json.dumps(providers.to_tool(tool, name), indent=2), "    "))
    except (ImportError, AttributeError, ValueError) as exc:
        _say(f"(provider export unavailable: {exc})")


_SCENES: list[tuple[Callable[[], None], str]] = [
    (_plain_scene, ""),
    (_pydantic_scene, "pydantic"),
    (_marshmallow_scene, "marshmallow"),
    (_attrs_scene, "attrs"),
    (_jsonschema_scene, "jsonschema"),
    (_broken_calls_scene, ""),
    (_export_scene, ""),
]


def main() -> None:
    """Run every scene."""
    _say(
        "toolparse demo: a scripted model calls tools; toolparse parses every call before the tool runs."
    )
    from ..errors import NoAdapterError

    for scene, extra in _SCENES:
        try:
            scene()
        except (ImportError, NoAdapterError):
            # the library may be installed (attrs comes with other packages)
            # without its adapter: both mean the same extra is missing
            _say(f'\n(skipped: install it with pip install "toolparse[{extra}]")')
    _say()
