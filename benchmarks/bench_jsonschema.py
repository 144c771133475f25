"""The jsonschema adapter against its libraries used directly, on each engine.

toolparse runs ``fn.execute(args)``: the argument checks, the adapter's parser,
the body and the result handling. The floors:

- a valid call: the engine's own ``is_valid`` (a precompiled
  ``Draft202012Validator`` with the library's format checker, or
  ``jsonschema-rs``'s validator), then a direct call of the body;
- a rejected call, with 3 problems and with 300: the engine's own
  ``iter_errors``, with each error's message (what the library itself says of
  the call); the adapter reads those errors once and words them, at most 3x.
"""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import jsonschema_rs

import toolparse as tp
from harness import Row, ratio_rounds
from toolparse_jsonschema import JsonSchema

#: a calendar tool as an MCP server would describe it: nested objects, arrays
#: of objects, enums, formats, patterns, a $ref, about a dozen properties
SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Create a calendar event and invite people to it.",
    "properties": {
        "summary": {"type": "string", "minLength": 1, "maxLength": 200},
        "description": {"type": "string", "maxLength": 5000},
        "start": {"type": "string", "format": "date-time"},
        "end": {"type": "string", "format": "date-time"},
        "timezone": {"type": "string", "pattern": "^[A-Za-z]+/[A-Za-z_]+$"},
        "attendees": {
            "type": "array",
            "items": {"$ref": "#/$defs/attendee"},
            "maxItems": 50,
        },
        "location": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "address": {"type": "string"},
                "country": {"type": "string", "pattern": "^[A-Z]{2}$"},
                "room_capacity": {"type": "integer", "minimum": 1},
            },
            "required": ["name"],
            "additionalProperties": False,
        },
        "reminders_minutes": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": 40320},
            "uniqueItems": True,
        },
        "visibility": {"enum": ["default", "public", "private"], "default": "default"},
        "priority": {"type": "integer", "minimum": 1, "maximum": 5},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
        "send_updates": {"type": "boolean"},
    },
    "required": ["summary", "start", "end"],
    "additionalProperties": False,
    "$defs": {
        "attendee": {
            "type": "object",
            "properties": {
                "email": {"type": "string", "format": "email"},
                "name": {"type": "string"},
                "optional": {"type": "boolean", "default": False},
                "id": {"type": "string", "format": "uuid"},
            },
            "required": ["email"],
            "additionalProperties": False,
        }
    },
}

VALID: dict[str, Any] = {
    "summary": "Quarterly planning",
    "description": "Plans for the next quarter, with the whole team.",
    "start": "2025-03-03T09:00:00+01:00",
    "end": "2025-03-03T11:30:00+01:00",
    "timezone": "Europe/Paris",
    "attendees": [
        {"email": "ana@example.com", "name": "Ana", "id": "0b9e3c1e-7f5a-4c1b-9a77-2d3f6b1d0c11"},
        {"email": "bo@example.com", "optional": True},
        {"email": "cy@example.com", "name": "Cy"},
    ],
    "location": {"name": "Room 4", "address": "1 Main St", "country": "FR", "room_capacity": 12},
    "reminders_minutes": [10, 60],
    "visibility": "private",
    "priority": 2,
    "tags": ["planning", "q2"],
    "send_updates": True,
}


def body(arguments: Any) -> str:
    return "created"


#: three problems: a missing required name, a wrong type, a wrong nested type
BAD_EVENT: dict[str, Any] = {
    **{k: v for k, v in copy.deepcopy(VALID).items() if k != "summary"},
    "priority": "high",
    "attendees": [{"email": "ana@example.com", "optional": "yes"}],
}

#: three hundred problems: 100 attendees, each with two wrong types and a name
#: the schema does not allow (and one more: the list holds more than 50)
MANY_BAD: dict[str, Any] = {
    **copy.deepcopy(VALID),
    "attendees": [{"email": i, "optional": "yes", "zzz": 1} for i in range(100)],
}


def _messages(iter_errors: Any, arguments: dict[str, Any]) -> Any:
    return lambda: [e.message for e in iter_errors(arguments)]


def _rejected_rows(name: str, fn: tp.Function, iter_errors: Any, floor: str) -> list[Row]:
    rows = []
    for label, bad, problems in (("3", BAD_EVENT, 3), ("300", MANY_BAD, 301)):
        result = fn.execute(bad)
        assert isinstance(result, tp.Error)
        assert isinstance(result.exception, tp.InvalidArguments)
        assert len(result.exception.problems) == problems, result.exception.problems
        r = ratio_rounds(lambda b=bad: fn.execute(b), _messages(iter_errors, bad))  # type: ignore[misc]
        rows.append(r.row(f"{name}: rejected ({label} problems)", floor, 3.0))
    return rows


def rejected_rows() -> list[Row]:
    """A rejected call on each engine against its library's own ``iter_errors`` messages."""
    pure_validator = jsonschema.Draft202012Validator(
        SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    rs_validator = jsonschema_rs.validator_for(SCHEMA, validate_formats=True)
    fast = tp.Function("create_event", body, args_schema=JsonSchema(SCHEMA, fast=True))
    pure = tp.Function("create_event", body, args_schema=JsonSchema(SCHEMA, fast=False))
    return [
        *_rejected_rows(
            "jsonschema-rs", fast, rs_validator.iter_errors, "rs iter_errors + messages"
        ),
        *_rejected_rows(
            "jsonschema pure", pure, pure_validator.iter_errors, "list(iter_errors()) + messages"
        ),
    ]


def run() -> list[Row]:
    validator = jsonschema.Draft202012Validator(
        SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    args = copy.deepcopy(VALID)
    assert validator.is_valid(args)

    def baseline() -> object:
        if validator.is_valid(args):
            return body(args)
        return None

    pure = tp.Function("create_event", body, args_schema=JsonSchema(SCHEMA, fast=False))
    fast = tp.Function("create_event", body, args_schema=JsonSchema(SCHEMA, fast=True))
    assert pure.execute(args) == fast.execute(args) == tp.Ok("created")

    # in rounds, side by side like every other row (a best of repeats taken
    # apart reads the load of the moment, not the ratio)
    r_pure = ratio_rounds(lambda: pure.execute(args), baseline)
    r_fast_pure = ratio_rounds(lambda: fast.execute(args), baseline)
    rs = jsonschema_rs.validator_for(SCHEMA, validate_formats=True)
    assert rs.is_valid(args)

    def rs_baseline() -> object:
        if rs.is_valid(args):
            return body(args)
        return None

    r = ratio_rounds(lambda: fast.execute(args), rs_baseline)
    return [
        r.row("jsonschema-rs: execute, valid", "rs is_valid + call", 1.3),
        r_pure.row(
            "jsonschema: execute, valid (pure path)", "Draft202012Validator.is_valid + call", 1.1
        ),
        r_fast_pure.row(
            "jsonschema: execute, valid (jsonschema-rs)",
            "Draft202012Validator.is_valid + call",
            0.05,
        ),
        *rejected_rows(),
    ]
