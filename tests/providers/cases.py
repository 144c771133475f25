"""The tools every provider test exports: the canonical trip planner and friends."""

from __future__ import annotations

import copy
from typing import Any

import toolparse as tp

#: the canonical example of the provider-format notes: a string, an enum, an
#: array of objects, and an optional integer with a default
PLAN_TRIP: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "Destination city."},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "stops": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "hours": {"type": "number"}},
                "required": ["name", "hours"],
            },
        },
        "days": {"type": "integer", "description": "Trip length in days.", "default": 3},
    },
    "required": ["city", "unit", "stops"],
}


def plan_trip_body(args: dict[str, Any]) -> str:
    days = args.get("days", 3)
    return f"{args['city']}: {len(args['stops'])} stops over {days} days"


def plan_trip(*, strict: bool = False, **options: Any) -> tp.Function:
    """The canonical tool (a raw schema: the required-key check runs before the body)."""
    return tp.Function(
        "plan_trip",
        plan_trip_body,
        description="Plan a trip and return an itinerary.",
        parameters_schema=copy.deepcopy(PLAN_TRIP),
        strict=strict,
        options=options or None,
    )


def no_args() -> tp.Function:
    return tp.Function("ping", lambda args: "pong", description="Check the service.")


def with_params() -> tp.Function:
    """A tool declared with FunctionParams (closed objects at every level)."""
    return tp.Function(
        "search",
        lambda args: "found",
        parameters=[
            tp.FunctionParam("query", "string", required=True, description="Words."),
            tp.FunctionParam("limit", "integer", enum=[5, 10, 20]),
            tp.FunctionParam(
                "filters",
                "object",
                object_properties=[
                    tp.FunctionParam("lang", "string", enum=["en", "fr"], required=True),
                    tp.FunctionParam("after", "string"),
                ],
            ),
        ],
    )


# a base64 PNG (1x1 pixel) for image results
PIXEL = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
)
