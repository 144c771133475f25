"""The jsonschema adapter against the ``jsonschema`` library used directly.

Baseline: a precompiled ``Draft202012Validator`` (with the library's format
checker) deciding validity, then a direct call of the body. toolparse runs
``fn.execute(args)``: the argument checks, the adapter's parser, the body and
the result handling.

- pure path (``fast=False``): at most 1.1x the baseline;
- fast path (``jsonschema-rs`` decides validity): at least 20x faster than the
  baseline, i.e. a ratio of at most 0.05;
- fast path rejected: worded from jsonschema-rs's own errors (the pure library
  explains only what those cannot say alike), against the pure library's
  ``iter_errors`` the pure path would run; the ratio is reported, no target
  (``bench_rejected.py`` holds it to rs's own ``iter_errors``).
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
    # a rejected call reads the same on both paths; on the fast path it is worded
    # from jsonschema-rs's errors, here against what the pure library would spend
    bad = {**{k: v for k, v in args.items() if k != "summary"}, "priority": "high"}
    assert isinstance(fast.execute(bad), tp.Error)
    r_explained = ratio_rounds(
        lambda: fast.execute(bad), lambda: [e.message for e in validator.iter_errors(bad)]
    )
    return [
        r.row("jsonschema-rs: execute, valid", "rs is_valid + call", 1.3),
        r_explained.row(
            "jsonschema-rs: rejected, against the pure library's iter_errors",
            "Draft202012Validator iter_errors + messages",
        ),
        r_pure.row(
            "jsonschema: execute, valid (pure path)", "Draft202012Validator.is_valid + call", 1.1
        ),
        r_fast_pure.row(
            "jsonschema: execute, valid (jsonschema-rs)",
            "Draft202012Validator.is_valid + call",
            0.05,
        ),
    ]
