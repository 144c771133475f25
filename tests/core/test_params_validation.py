"""FunctionParam declarations are validated: type, enum, item type and nested properties, all at once."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse.messages import path_text

SCALARS = ["string", "integer", "number", "boolean"]
NAMES = ["city", "units", "days", "tags", "stop", "note", "limit"]

REASONS = {
    "string": "must be a string",
    "integer": "must be an integer",
    "number": "must be a number",
    "boolean": "must be true or false",
    "array": "must be a list",
    "object": "must be an object",
}

# a value of another JSON type, for each declared type (null means "absent"
# for an optional property, so it is tested on its own)
WRONG: dict[str, list[Any]] = {
    "string": [42, 1.5, True, [], {}],
    "integer": ["3", 1.5, True, [1], {}],
    "number": ["3", True, [], {}],
    "boolean": [1, 0, "true", []],
    "array": ["x", 1, {}],
    "object": ["x", 1, []],
}


@st.composite
def params(draw: st.DrawFn, depth: int = 0) -> list[tp.FunctionParam]:
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True))
    return [draw(param(name, depth)) for name in names]


@st.composite
def param(draw: st.DrawFn, name: str, depth: int) -> tp.FunctionParam:
    kinds = SCALARS + (["array", "object"] if depth < 2 else [])
    kind = draw(st.sampled_from(kinds))
    required = draw(st.booleans())
    if kind == "array":
        item = draw(st.sampled_from([None, *SCALARS, *(["object"] if depth < 1 else [])]))
        props = draw(params(depth + 1)) if item == "object" else []
        return tp.FunctionParam(
            name, "array", item_type=item, object_properties=props, required=required
        )
    if kind == "object":
        return tp.FunctionParam(
            name, "object", object_properties=draw(params(depth + 1)), required=required
        )
    enum = None
    if kind == "string" and draw(st.booleans()):
        enum = draw(st.lists(st.sampled_from(["c", "f", "k"]), min_size=1, unique=True))
    elif kind == "integer" and draw(st.booleans()):
        enum = draw(st.lists(st.integers(0, 5), min_size=1, unique=True))
    return tp.FunctionParam(name, kind, enum=enum, required=required)


def _scalar(kind: str) -> st.SearchStrategy[Any]:
    return {
        "string": st.text(max_size=5),
        "integer": st.integers(-(10**6), 10**6),
        "number": st.one_of(
            st.floats(allow_nan=False, allow_infinity=False), st.integers(-100, 100)
        ),
        "boolean": st.booleans(),
    }[kind]


@st.composite
def valid(draw: st.DrawFn, p: tp.FunctionParam) -> Any:
    if p.enum:
        return draw(st.sampled_from(list(p.enum)))
    if p.type == "array":
        if p.item_type is None:
            return draw(st.lists(st.integers(), max_size=2))
        if p.item_type == "object":
            return draw(st.lists(valid_object(p.object_properties), max_size=2))
        return draw(st.lists(_scalar(p.item_type), max_size=3))
    if p.type == "object":
        return draw(valid_object(p.object_properties))
    return draw(_scalar(p.type))


@st.composite
def valid_object(draw: st.DrawFn, props: tuple[tp.FunctionParam, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in props:
        if p.required or draw(st.booleans()):
            out[p.name] = draw(valid(p))
    return out


def _slots(
    props: tuple[tp.FunctionParam, ...] | list[tp.FunctionParam],
    value: dict[str, Any],
    path: tuple[str | int, ...] = (),
) -> list[tuple[tuple[str | int, ...], tp.FunctionParam]]:
    """Every place in a valid value where a declared value sits."""
    found = []
    for p in props:
        if p.name not in value:
            continue
        here = (*path, p.name)
        found.append((here, p))
        if p.type == "object":
            found += _slots(p.object_properties, value[p.name], here)
        elif p.type == "array" and p.item_type == "object":
            for i, item in enumerate(value[p.name]):
                found += _slots(p.object_properties, item, (*here, i))
    return found


def _set(value: dict[str, Any], path: tuple[str | int, ...], new: Any) -> None:
    target: Any = value
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new


def _wrong(p: tp.FunctionParam, data: st.DataObject) -> tuple[Any, str]:
    if p.enum and data.draw(st.booleans()):
        bad = "zzz" if p.type == "string" else 99
        return bad, "must be "  # "must be one of: ..." (or one value: 'must be "c"')
    bad = data.draw(st.sampled_from(WRONG[p.type]))
    if p.enum:
        return bad, "must be "
    return bad, REASONS[p.type]


def _function(declared: list[tp.FunctionParam], seen: list[Any]) -> tp.Function:
    def body(arguments: Any) -> str:
        seen.append(arguments)
        return "ran"

    return tp.Function("t", body, parameters=declared)


@settings(max_examples=30, deadline=None)
@given(params(), st.data())
def test_valid_arguments_reach_the_body_unchanged(
    declared: list[tp.FunctionParam], data: st.DataObject
) -> None:
    arguments = data.draw(valid_object(tuple(declared)))
    seen: list[Any] = []
    assert _function(declared, seen).execute(arguments) == tp.Ok("ran")
    assert seen == [arguments]
    # as sent: an integer for a number stays an integer
    assert repr(seen[0]) == repr(arguments)


@settings(max_examples=50, deadline=None)
@given(params(), st.data())
def test_every_mismatch_is_reported_with_its_path(
    declared: list[tp.FunctionParam], data: st.DataObject
) -> None:
    arguments = data.draw(valid_object(tuple(declared)))
    slots = _slots(declared, arguments)
    if not slots:
        arguments[declared[0].name] = data.draw(valid(declared[0]))
        slots = _slots(declared, arguments)
    chosen = data.draw(
        st.lists(st.sampled_from(range(len(slots))), min_size=1, max_size=3, unique=True)
    )
    # outer places first, and never a place inside one already broken
    broken: list[tuple[tuple[str | int, ...], str]] = []
    for i in sorted(chosen, key=lambda i: len(slots[i][0])):
        path, p = slots[i]
        if any(path[: len(b)] == b for b, _ in broken):
            continue
        if p.required and len(path) > 1 and data.draw(st.booleans()):
            # a required nested property left out
            parent: Any = arguments
            for key in path[:-1]:
                parent = parent[key]
            del parent[path[-1]]
            broken.append((path, "is required"))
            continue
        bad, reason = _wrong(p, data)
        _set(arguments, path, bad)
        broken.append((path, reason))
    seen: list[Any] = []
    result = _function(declared, seen).execute(arguments)
    if not broken:
        return
    assert isinstance(result, tp.Error), result
    assert seen == []
    assert result.message.startswith("Invalid arguments for this tool.")
    lines = result.message.splitlines()
    for path, reason in broken:
        assert any(line.startswith(f"{path_text(path)}: {reason}") for line in lines), (
            path,
            reason,
            result.message,
        )


def test_null_is_absent_for_an_optional_property_and_wrong_for_a_required_one() -> None:
    fn = tp.Function(
        "t",
        lambda a: "ran",
        parameters=[
            tp.FunctionParam("city", "string", required=True),
            tp.FunctionParam("days", "integer"),
        ],
    )
    assert fn.execute({"city": "x", "days": None}) == tp.Ok("ran")
    result = fn.execute({"city": None})
    assert isinstance(result, tp.Error)
    assert "city: must be a string (received null)" in result.message


def test_the_headline_example() -> None:
    fn = tp.Function(
        "weather",
        lambda a: "ran",
        parameters=[
            tp.FunctionParam("city", "string", required=True),
            tp.FunctionParam("units", "string", enum=["c", "f"]),
            tp.FunctionParam("days", "integer"),
        ],
    )
    result = fn.execute({"city": 42, "units": "kelvin", "days": "3"})
    assert isinstance(result, tp.Error)
    assert result.message == (
        "Invalid arguments for this tool.\n\n"
        "city: must be a string (received 42)\n"
        'units: must be one of: "c", "f" (received "kelvin")\n'
        'days: must be an integer (received "3")\n\n'
        "Fix these arguments and call the tool again."
    )


def test_the_required_key_message_comes_first_and_unchanged() -> None:
    fn = tp.Function(
        "weather",
        lambda a: "ran",
        parameters=[
            tp.FunctionParam("city", "string", required=True),
            tp.FunctionParam("days", "integer"),
        ],
    )
    assert fn.execute({"days": "3"}) == tp.Error(
        "Missing required parameters for this tool.\n\n"
        "Required parameters: city\n"
        "Missing parameters: city\n"
        "Accepted parameters: city, days\n\n"
        "Ensure you're passing the correct parameter names as defined in the tool schema."
    )


def test_unknown_names_are_named_when_the_call_is_rejected() -> None:
    fn = tp.Function("t", lambda a: "ran", parameters=[tp.FunctionParam("days", "integer")])
    result = fn.execute({"days": "3", "zzz_other": 1})
    assert isinstance(result, tp.Error)
    assert "Unrecognized parameters: zzz_other" in result.message
    assert fn.execute({"days": 3, "zzz_other": 1}) == tp.Ok("ran")


def test_integer_for_a_number_is_accepted_and_kept() -> None:
    seen: list[Any] = []
    fn = _function([tp.FunctionParam("x", "number", required=True)], seen)
    assert fn.execute({"x": 3}) == tp.Ok("ran")
    assert type(seen[0]["x"]) is int


def test_nested_objects_are_closed_like_their_schema() -> None:
    fn = tp.Function(
        "t",
        lambda a: "ran",
        parameters=[
            tp.FunctionParam(
                "stop",
                "object",
                object_properties=[tp.FunctionParam("name", "string", required=True)],
            )
        ],
    )
    assert fn.json_schema()["properties"]["stop"]["additionalProperties"] is False
    result = fn.execute({"stop": {"name": "a", "x": 1}})
    assert isinstance(result, tp.Error)
    assert "stop.x: is not accepted (accepted: name)" in result.message


@pytest.mark.parametrize("policy", ["report", "reject", "ignore"])
def test_every_policy_checks_the_values(policy: str) -> None:
    fn = tp.Function(
        "t",
        lambda a: "ran",
        parameters=[tp.FunctionParam("days", "integer")],
        unknown_arguments=policy,  # type: ignore[arg-type]
    )
    assert isinstance(fn.execute({"days": "3"}), tp.Error)
    assert isinstance(fn.parse_arguments({"days": "3"}), tp.Error)
    assert fn.execute({"days": 3}) == tp.Ok("ran")


def test_parameters_schema_still_checks_required_keys_only() -> None:
    fn = tp.Function(
        "t",
        lambda a: "ran",
        parameters_schema={
            "type": "object",
            "properties": {"days": {"type": "integer"}},
            "required": ["days"],
        },
    )
    assert fn.execute({"days": "not a number"}) == tp.Ok("ran")
    assert isinstance(fn.execute({}), tp.Error)


def test_a_parser_replaces_the_check() -> None:
    fn = tp.Function(
        "t",
        lambda a: "ran",
        parameters=[tp.FunctionParam("days", "integer")],
        parse_args=lambda a: tp.ok(),
    )
    assert fn.execute({"days": "3"}) == tp.Ok("ran")


def _objects(
    props: tuple[tp.FunctionParam, ...] | list[tp.FunctionParam],
    value: dict[str, Any],
    path: tuple[str | int, ...] = (),
) -> list[tuple[tuple[str | int, ...], dict[str, Any]]]:
    """Every nested object of a valid value (the top level left out), with its path."""
    found = []
    for p in props:
        if p.name not in value:
            continue
        here = (*path, p.name)
        if p.type == "object":
            found.append((here, value[p.name]))
            found += _objects(p.object_properties, value[p.name], here)
        elif p.type == "array" and p.item_type == "object":
            for i, item in enumerate(value[p.name]):
                found.append(((*here, i), item))
                found += _objects(p.object_properties, item, (*here, i))
    return found


@settings(max_examples=40, deadline=None)
@given(params(), st.data(), st.sampled_from(["report", "reject", "ignore"]))
def test_undeclared_nested_names_are_refused_or_dropped_by_the_policy(
    declared: list[tp.FunctionParam], data: st.DataObject, policy: str
) -> None:
    arguments = data.draw(valid_object(tuple(declared)))
    nested = _objects(declared, arguments)
    if not nested:
        return
    expected = copy.deepcopy(arguments)
    chosen = data.draw(st.lists(st.sampled_from(range(len(nested))), min_size=1, unique=True))
    for i in chosen:
        nested[i][1]["zz_extra"] = 1  # the nested dicts are the argument's own
    sent = copy.deepcopy(arguments)
    seen: list[Any] = []
    fn = tp.Function(
        "t",
        lambda a: seen.append(a) or "ran",
        parameters=declared,
        unknown_arguments=policy,  # type: ignore[arg-type]
    )
    result = fn.execute(arguments)
    assert arguments == sent  # what the model sent is left as it was
    if policy == "ignore":
        assert result == tp.Ok("ran")
        assert seen == [expected]
        assert repr(seen[0]) == repr(expected)  # nothing else changed (3 stays 3)
        assert fn.parse_arguments(arguments) == tp.Ok(expected)
        return
    assert isinstance(result, tp.Error), result
    assert seen == []
    for i in chosen:
        line = f"{path_text((*nested[i][0], 'zz_extra'))}: is not accepted (accepted: "
        assert any(x.startswith(line) for x in result.message.splitlines()), (line, result)
