"""What each ``unknown_arguments`` policy does with names a nested FunctionParam object does not declare."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

import toolparse as tp
from toolparse.arguments import Arguments

P = tp.FunctionParam
PARAMS = [
    P("city", "string", required=True),
    P(
        "stop",
        "object",
        object_properties=[
            P("name", "string", required=True),
            P("at", "object", object_properties=[P("lat", "number"), P("lon", "number")]),
        ],
    ),
    P("items", "array", item_type="object", object_properties=[P("sku", "string")]),
]
SENT = {
    "city": "Oslo",
    "stop": {"name": "A", "x": 1, "at": {"lat": 1, "lon": 2.5, "alt": 3}},
    "items": [{"sku": "a", "qty": 2}, {"sku": "b"}],
}
KEPT = {
    "city": "Oslo",
    "stop": {"name": "A", "at": {"lat": 1, "lon": 2.5}},
    "items": [{"sku": "a"}, {"sku": "b"}],
}


def _recording(policy: str) -> tuple[tp.Function, list[Any]]:
    seen: list[Any] = []
    fn = tp.Function(
        "route",
        lambda a: seen.append(a) or "ok",
        parameters=PARAMS,
        unknown_arguments=policy,  # type: ignore[arg-type]
    )
    return fn, seen


def _sent() -> dict[str, Any]:
    return json.loads(json.dumps(SENT))


def test_ignore_drops_them_at_every_level_and_leaves_the_call_as_sent() -> None:
    fn, seen = _recording("ignore")
    sent = _sent()
    assert fn.execute(sent) == tp.Ok("ok")
    assert seen == [KEPT]
    assert isinstance(seen[0], Arguments)  # still the mapping a body without a parser gets
    assert repr(seen[0]["stop"]["at"]["lat"]) == "1"  # as sent: no coercion to 1.0
    assert sent == SENT
    assert fn.parse_arguments(_sent()) == tp.Ok(KEPT)


def test_ignore_drops_them_from_json_text_and_async_calls() -> None:
    fn, seen = _recording("ignore")
    assert fn.execute(json.dumps(SENT)) == tp.Ok("ok")
    assert asyncio.run(fn.aexecute(_sent())) == tp.Ok("ok")
    assert asyncio.run(fn.aparse_arguments(_sent())) == tp.Ok(KEPT)
    assert seen == [KEPT, KEPT]


def test_ignore_with_top_level_and_nested_unknown_names() -> None:
    fn, seen = _recording("ignore")
    assert fn.execute({**_sent(), "verbose": True}) == tp.Ok("ok")
    assert seen == [KEPT]


def test_ignore_passes_a_call_with_nothing_to_drop_as_it_is() -> None:
    fn, seen = _recording("ignore")
    assert fn.execute(KEPT) == tp.Ok("ok")
    assert seen == [KEPT]


def test_ignore_still_reports_a_wrong_value_and_not_the_dropped_names() -> None:
    fn, seen = _recording("ignore")
    result = fn.execute({**_sent(), "stop": {"name": 3, "x": 1}})
    assert isinstance(result, tp.Error)
    assert result.message.splitlines()[2:-2] == ["stop.name: must be a string (received 3)"]
    assert seen == []


@pytest.mark.parametrize("policy", ["report", "reject"])
def test_report_and_reject_refuse_them_as_the_closed_schema_says(policy: str) -> None:
    fn, seen = _recording(policy)
    schema = fn.json_schema()
    assert schema["properties"]["stop"]["additionalProperties"] is False
    assert schema["properties"]["stop"]["properties"]["at"]["additionalProperties"] is False
    result = fn.execute(_sent())
    assert isinstance(result, tp.Error)
    assert result.message.splitlines()[2:-2] == [
        "stop.at.alt: is not accepted (accepted: lat, lon)",
        "stop.x: is not accepted (accepted: name, at)",
        "items[0].qty: is not accepted (accepted: sku)",
    ]
    assert seen == []


@pytest.mark.parametrize("policy", ["report", "reject"])
def test_thousands_of_wrong_items_are_counted_with_the_other_problems(policy: str) -> None:
    fn, seen = _recording(policy)
    n = 2_500
    result = fn.execute(
        {"city": 5, "items": [{"sku": 1}] * n, "stop": {"name": "A", "at": {"lat": "n"}}}
    )
    assert isinstance(result, tp.Error)
    lines = result.message.splitlines()
    assert lines[2:4] == [
        "city: must be a string (received 5)",
        'stop.at.lat: must be a number (received "n")',
    ]
    assert f"... and {n + 2 - 20} more" in lines  # every wrong item counted
    exc = result.exception
    assert isinstance(exc, tp.InvalidArguments)
    assert len(exc.problems) + exc.more == n + 2
    assert len(exc.problems) <= 1_002
    assert seen == []


def test_a_count_given_to_the_renderer_is_in_the_message_and_on_the_exception() -> None:
    problems = [tp.ArgumentProblem(("ids", i), "must be an integer", "x") for i in range(25)]
    result = tp.invalid_arguments(problems, arguments={"ids": []}, accepted=["ids"], more=75)
    assert "... and 80 more" in result.message.splitlines()
    assert isinstance(result.exception, tp.InvalidArguments)
    assert result.exception.more == 75
    assert len(result.exception.problems) == 25
