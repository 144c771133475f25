"""What the model reads when the jsonschema adapter rejects arguments.

Every keyword kind gets one line with the path, a plain-words reason and the
received value, in the same words on either engine (jsonschema-rs, and the
jsonschema library alone), each worded from its own library's errors.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse_jsonschema import JsonSchema

HEAD = "Invalid arguments for this tool.\n\n"
TAIL = "\n\nFix these arguments and call the tool again."
FAST = [pytest.param(False, id="pure"), pytest.param(None, id="fast")]


def _obj(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


def _message(schema: dict[str, Any], arguments: dict[str, Any], fast: bool | None = None) -> str:
    fn = tp.Function("t", lambda a: "ran", args_schema=JsonSchema(schema, fast=fast))
    result = fn.execute(arguments)
    assert isinstance(result, tp.Error), result
    assert isinstance(result.exception, tp.InvalidArguments)
    return result.message


def _lines(
    schema: dict[str, Any], arguments: dict[str, Any], fast: bool | None = None
) -> list[str]:
    message = _message(schema, arguments, fast)
    assert message.startswith(HEAD), message
    assert message.endswith(TAIL), message
    return message[len(HEAD) : -len(TAIL)].split("\n")


CASES: list[Any] = [
    pytest.param(
        _obj(n={"type": "integer"}), {"n": "5"}, ['n: must be an integer (received "5")'], id="type"
    ),
    pytest.param(
        _obj(n={"type": ["string", "null"]}),
        {"n": 1},
        ["n: must be a string or null (received 1)"],
        id="type-list",
    ),
    pytest.param(
        _obj(u={"enum": ["c", "f"]}),
        {"u": "k"},
        ['u: must be one of: "c", "f" (received "k")'],
        id="enum",
    ),
    pytest.param(_obj(k={"const": "x"}), {"k": "y"}, ['k: must be "x" (received "y")'], id="const"),
    pytest.param(
        _obj(n={"minimum": 1}), {"n": 0}, ["n: must be at least 1 (received 0)"], id="minimum"
    ),
    pytest.param(
        _obj(n={"maximum": 9.5}), {"n": 10}, ["n: must be at most 9.5 (received 10)"], id="maximum"
    ),
    pytest.param(
        _obj(n={"exclusiveMinimum": 0}),
        {"n": 0},
        ["n: must be greater than 0 (received 0)"],
        id="exclusiveMinimum",
    ),
    pytest.param(
        _obj(n={"exclusiveMaximum": 5}),
        {"n": 5},
        ["n: must be less than 5 (received 5)"],
        id="exclusiveMaximum",
    ),
    pytest.param(
        _obj(n={"multipleOf": 0.5}),
        {"n": 0.3},
        ["n: must be a multiple of 0.5 (received 0.3)"],
        id="multipleOf",
    ),
    pytest.param(
        _obj(s={"minLength": 3}),
        {"s": "ab"},
        ['s: must be at least 3 characters long (received "ab")'],
        id="minLength",
    ),
    pytest.param(
        _obj(s={"maxLength": 1}),
        {"s": "ab"},
        ['s: must be at most 1 character long (received "ab")'],
        id="maxLength",
    ),
    pytest.param(
        _obj(s={"pattern": "^[a-z]+$"}),
        {"s": "A1"},
        ['s: must match the pattern ^[a-z]+$ (received "A1")'],
        id="pattern",
    ),
    pytest.param(
        _obj(a={"minItems": 2}),
        {"a": [1]},
        ["a: must have at least 2 items (received [1])"],
        id="minItems",
    ),
    pytest.param(
        _obj(a={"maxItems": 1}),
        {"a": [1, 2]},
        ["a: must have at most 1 item (received [1, 2])"],
        id="maxItems",
    ),
    pytest.param(
        _obj(a={"uniqueItems": True}),
        {"a": [1, 1]},
        ["a: must not contain the same item twice (received [1, 1])"],
        id="uniqueItems",
    ),
    pytest.param(
        _obj(a={"contains": {"minimum": 5}}),
        {"a": [1]},
        ['a: must contain an item that matches the "contains" schema (received [1])'],
        id="contains",
    ),
    pytest.param(
        _obj(a={"contains": {"minimum": 5}, "minContains": 2}),
        {"a": [1, 6]},
        ['a: must contain at least 2 items matching the "contains" schema (received [1, 6])'],
        id="minContains",
    ),
    pytest.param(
        _obj(a={"contains": {"minimum": 5}, "maxContains": 1}),
        {"a": [6, 7]},
        ['a: must contain at most 1 item matching the "contains" schema (received [6, 7])'],
        id="maxContains",
    ),
    pytest.param(
        _obj(m={"minProperties": 2}),
        {"m": {"a": 1}},
        ["m: must have at least 2 properties"],
        id="minProperties",
    ),
    pytest.param(
        _obj(m={"maxProperties": 1}),
        {"m": {"a": 1, "b": 2}},
        ["m: must have at most 1 property"],
        id="maxProperties",
    ),
    pytest.param(
        _obj(m={"propertyNames": {"pattern": "^[a-z]+$"}}),
        {"m": {"Ab": 1}},
        ['m.Ab: property name must match the pattern ^[a-z]+$ (received "Ab")'],
        id="propertyNames",
    ),
    pytest.param(
        _obj(p={"prefixItems": [{"type": "number"}], "items": False}),
        {"p": [1, 2]},
        ["p: must have at most 1 item (received [1, 2])"],
        id="items-false",
    ),
    pytest.param(
        _obj(n={"not": {"type": "null"}}),
        {"n": None},
        ["n: must not be null (received null)"],
        id="not",
    ),
    pytest.param(
        _obj(n={"not": {"const": "x"}}),
        {"n": "x"},
        ['n: must not be "x" (received "x")'],
        id="not-const",
    ),
    pytest.param(
        _obj(n={"not": {"type": "string", "minLength": 2}}),
        {"n": "xy"},
        ['n: is a value this parameter does not allow (received "xy")'],
        id="not-schema",
    ),
    pytest.param(
        _obj(f=False), {"f": 1}, ["f: is not allowed here (received 1)"], id="false-schema"
    ),
    pytest.param(
        _obj(t={"prefixItems": [{"type": "string"}, False]}),
        {"t": ["a", "b"]},
        ['t[1]: is not allowed here (received "b")'],
        id="false-item-schema",
    ),
    pytest.param(
        _obj(n={"type": "object", "required": ["a", "b"]}),
        {"n": {}},
        ["n.a: is required", "n.b: is required"],
        id="nested-required",
    ),
    pytest.param(
        _obj(n={"type": "object", "properties": {"a": {}}, "additionalProperties": False}),
        {"n": {"a": 1, "b": 2}},
        ["n.b: is not accepted"],
        id="nested-additionalProperties",
    ),
    pytest.param(
        _obj(
            n={
                "type": "object",
                "properties": {"a": {}},
                "patternProperties": {"^x-": {}},
                "additionalProperties": False,
            }
        ),
        {"n": {"a": 1, "x-ok": 2, "y": 3}},
        ["n.y: is not accepted"],
        id="additionalProperties-with-patterns",
    ),
    pytest.param(
        _obj(
            n={
                "type": "object",
                "properties": {"a": {}},
                "allOf": [{"properties": {"b": {}}}],
                "unevaluatedProperties": False,
            }
        ),
        {"n": {"a": 1, "b": 2, "c": 3, "d 'e'": 4}},
        ["n.c: is not accepted", "n.d 'e': is not accepted"],
        id="unevaluatedProperties",
    ),
    pytest.param(
        _obj(n={"type": "object", "unevaluatedProperties": {"type": "integer"}}),
        {"n": {"c": "x"}},
        ["n.c: is not allowed by the schema for other properties"],
        id="unevaluatedProperties-schema",
    ),
    pytest.param(
        _obj(a={"prefixItems": [{}], "unevaluatedItems": False}),
        {"a": [1, 2]},
        ["a: has more items than the schema allows (received [1, 2])"],
        id="unevaluatedItems",
    ),
    pytest.param(
        _obj(
            d={
                "type": "object",
                "properties": {"a": {}, "b": {}},
                "dependentRequired": {"a": ["b"]},
            },
        ),
        {"d": {"a": 1}},
        ['d.b: is required when "a" is present'],
        id="dependentRequired",
    ),
    pytest.param(
        _obj(v={"anyOf": [{"type": "string"}, {"type": "integer"}]}),
        {"v": 1.5},
        ["v: must be a string or an integer (received 1.5)"],
        id="anyOf-types",
    ),
    pytest.param(
        _obj(v={"oneOf": [{"type": "integer"}, {"minimum": 0}]}),
        {"v": 3},
        ["v: matches more than one of the 2 options; it must match exactly one (received 3)"],
        id="oneOf-several",
    ),
    pytest.param(
        _obj(v={"x-custom": 1, "dependentSchemas": {"a": {"required": ["b"]}}}),
        {"v": {"a": 1}},
        ["v.b: is required"],
        id="dependentSchemas",
    ),
    pytest.param(
        _obj(v={"if": {"type": "integer"}, "then": {"minimum": 0}, "else": {"type": "string"}}),
        {"v": -1},
        ["v: must be at least 0 (received -1)"],
        id="if-then",
    ),
    # a const false is a value, not a false schema
    pytest.param(
        _obj(a={"items": {"const": False}}),
        {"a": [None]},
        ["a[0]: must be false (received null)"],
        id="const-false",
    ),
    # an items schema's own additionalProperties: false is no property's name
    pytest.param(
        _obj(a={"items": {"properties": {}, "additionalProperties": False}}),
        {"a": [{"x": None}]},
        ["a[0].x: is not accepted"],
        id="items-additionalProperties",
    ),
    pytest.param(
        _obj(a={"prefixItems": [{}], "items": False}),
        {"a": [1, 2, 3]},
        ["a: must have at most 1 item (received [1, 2, 3])"],
        id="items-false-several",
    ),
    pytest.param(
        _obj(items=False, a={"items": False}),
        {"items": [1], "a": [1]},
        [  # in the order the schema declares them
            "items: is not allowed here (received [1])",
            "a: must have at most 0 items (received [1])",
        ],
        id="property-named-items",
    ),
    pytest.param(_obj(a=False), {"a": {"b": 1}}, ["a: is not allowed here"], id="false-object"),
]


@pytest.mark.parametrize("fast", FAST)
@pytest.mark.parametrize(("schema", "arguments", "expected"), CASES)
def test_each_keyword_gets_one_plain_line(
    schema: dict[str, Any], arguments: dict[str, Any], expected: list[str], fast: bool | None
) -> None:
    assert _lines(schema, arguments, fast) == expected


@pytest.mark.parametrize("fast", FAST)
def test_problems_through_references_and_at_every_level(fast: bool | None) -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 1},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
            "inner": {"$ref": "#/$defs/inner"},
        },
        "required": ["n", "when"],
        "additionalProperties": False,
        "$defs": {
            "inner": {
                "type": "object",
                "properties": {"when": {"type": "string", "format": "date"}},
                "required": ["id"],
            }
        },
    }
    arguments = {"n": 0, "tags": [1, "a", "b"], "inner": {"when": "soon"}, "extra": 1}
    assert _lines(schema, arguments, fast) == [  # in declaration order, undeclared names last
        "n: must be at least 1 (received 0)",
        'tags: must have at most 2 items (received [1, "a", "b"])',
        "tags[0]: must be a string (received 1)",
        'inner.when: must be a date like "2024-01-31" (received "soon")',
        "inner.id: is required",
        "Missing parameters: when",
        "Unrecognized parameters: extra",
        "Accepted parameters: inner, n, tags",
    ]


FORMATS = _obj(
    when={"type": "string", "format": "date-time"},
    day={"type": "string", "format": "date"},
    at={"type": "string", "format": "time"},
    mail={"type": "string", "format": "email"},
    id={"type": "string", "format": "uuid"},
    v4={"type": "string", "format": "ipv4"},
    v6={"type": "string", "format": "ipv6"},
    page={"type": "string", "format": "uri"},
)


@pytest.mark.parametrize("fast", FAST)
def test_formats_are_checked_with_an_example_of_the_right_shape(fast: bool | None) -> None:
    bad = {
        "when": "2024-13-01T00:00:00Z",
        "day": "2024-02-30",
        "at": "25:00:00Z",
        "mail": "nope",
        "id": "xyz",
        "v4": "1.2.3",
        "v6": "::g",
        "page": "/relative",
    }
    assert _lines(FORMATS, bad, fast) == [  # in declaration order
        'when: must be a date-time like "2024-01-31T09:30:00Z" (RFC 3339) (received "2024-13-01T00:00:00Z")',
        'day: must be a date like "2024-01-31" (received "2024-02-30")',
        'at: must be a time like "09:30:00Z" (received "25:00:00Z")',
        'mail: must be an email address (received "nope")',
        'id: must be a UUID like "123e4567-e89b-12d3-a456-426614174000" (received "xyz")',
        'v4: must be an IPv4 address like "192.0.2.1" (received "1.2.3")',
        'v6: must be an IPv6 address like "2001:db8::1" (received "::g")',
        'page: must be an absolute URI (a scheme, a colon, then the rest) (received "/relative")',
    ]
    good = {
        "when": "2024-02-29T09:30:00.25+02:00",
        "day": "2024-02-29",
        "at": "09:30:00Z",
        "mail": "ada@example.com",
        "id": "123e4567-e89b-12d3-a456-426614174000",
        "v4": "192.0.2.1",
        "v6": "2001:db8::1",
        "page": "https://example.com/a?b=c#d",
    }
    fn = tp.Function("t", lambda a: "ran", args_schema=JsonSchema(FORMATS, fast=fast))
    assert fn.execute(good) == tp.Ok("ran")


@pytest.mark.parametrize("fast", FAST)
def test_unknown_formats_are_annotations(fast: bool | None) -> None:
    fn = tp.Function(
        "t", lambda a: "ran", args_schema=JsonSchema(_obj(p={"format": "phone"}), fast=fast)
    )
    assert fn.execute({"p": "not a phone"}) == tp.Ok("ran")


@pytest.mark.parametrize("fast", FAST)
def test_every_problem_in_one_message_ordered_by_path(fast: bool | None) -> None:
    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "units": {"enum": ["c", "f"]},
            "days": {"type": "integer", "minimum": 1},
            "stops": {
                "type": "array",
                "items": {"type": "object", "properties": {"name": {"type": "string"}}},
            },
        },
        "required": ["city", "days"],
        "additionalProperties": False,
    }
    lines = _lines(
        schema, {"units": "k", "days": 0, "stops": [{"name": 1}, {"name": 2}], "citi": "x"}, fast
    )
    assert lines == [  # in the order the schema declares the properties
        'units: must be one of: "c", "f" (received "k")',
        "days: must be at least 1 (received 0)",
        "stops[0].name: must be a string (received 1)",
        "stops[1].name: must be a string (received 2)",
        "Missing parameters: city",
        'Unrecognized parameters: citi (did you mean "city"?)',
        "Accepted parameters: city, days, stops, units",
    ]


PAYMENT = _obj(
    payment={
        "oneOf": [
            {
                "title": "Card",
                "type": "object",
                "properties": {
                    "kind": {"const": "card"},
                    "number": {"type": "string", "pattern": "^[0-9]{16}$"},
                },
                "required": ["kind", "number"],
                "additionalProperties": False,
            },
            {
                "title": "Bank transfer",
                "type": "object",
                "properties": {
                    "kind": {"const": "bank"},
                    "iban": {"type": "string", "minLength": 15},
                },
                "required": ["kind", "iban"],
                "additionalProperties": False,
            },
            {"type": "string", "enum": ["cash"]},
        ]
    }
)


@pytest.mark.parametrize("fast", FAST)
@pytest.mark.parametrize(
    ("payment", "expected"),
    [
        (
            {"kind": "bank", "iban": "DE12"},
            [
                'payment: matches none of the 3 options; the closest is option 2 ("Bank transfer")',
                'payment.iban: must be at least 15 characters long (received "DE12")',
            ],
        ),
        (
            {"kind": "card", "number": "12"},
            [
                'payment: matches none of the 3 options; the closest is option 1 ("Card")',
                'payment.number: must match the pattern ^[0-9]{16}$ (received "12")',
            ],
        ),
        (
            {"iban": "DE1234567890123456"},
            [
                'payment: matches none of the 3 options; the closest is option 2 ("Bank transfer")',
                "payment.kind: is required",
            ],
        ),
        (
            "cheque",
            [
                'payment: matches none of the 3 options; the closest is option 3 (received "cheque")',
                'payment: must be "cash" (received "cheque")',
            ],
        ),
    ],
)
def test_one_of_names_the_closest_option_and_its_problems(
    payment: Any, expected: list[str], fast: bool | None
) -> None:
    assert _lines(PAYMENT, {"payment": payment}, fast) == expected


FORBIDDEN = re.compile(
    r"https?://|input_value=|Traceback|ValidationError|jsonschema|Failed validating|is not valid under"
)

_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=12,
)

ORDER = {
    "type": "object",
    "properties": {
        "customer": {"type": "string", "minLength": 1},
        "quantity": {"type": "integer", "minimum": 1},
        "unit": {"enum": ["kg", "lb"]},
        "when": {"type": "string", "format": "date-time"},
        "lines": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "sku": {"type": "string", "pattern": "^[A-Z]+$"},
                    "qty": {"type": "number"},
                },
                "required": ["sku"],
                "additionalProperties": False,
            },
        },
        "pay": PAYMENT["properties"]["payment"],
    },
    "required": ["customer", "quantity"],
}
_PURE = tp.Function("order", lambda a: "ran", args_schema=JsonSchema(ORDER, fast=False))
_FAST = tp.Function("order", lambda a: "ran", args_schema=JsonSchema(ORDER, fast=None))
_ARGS = st.fixed_dictionaries(
    {},
    optional={
        "customer": _json | st.text(max_size=5),
        "quantity": _json | st.integers(-2, 3),
        "unit": _json | st.sampled_from(["kg", "lb", "oz"]),
        "when": st.text(max_size=25) | st.just("2024-01-31T09:30:00Z"),
        "lines": st.lists(
            st.dictionaries(st.sampled_from(["sku", "qty", "x"]), _json, max_size=3), max_size=3
        )
        | _json,
        "pay": _json,
        "extra": _json,
    },
)


@settings(max_examples=50, deadline=None)
@given(_ARGS)
def test_whatever_the_model_sends_both_engines_decide_alike_and_answer_cleanly(
    arguments: dict[str, Any],
) -> None:
    import jsonschema

    pure = _PURE.parse_arguments(arguments)
    fast = _FAST.parse_arguments(arguments)
    assert type(pure) is type(fast)
    if isinstance(pure, tp.Error):
        for result in (pure, fast):
            assert isinstance(result, tp.Error)
            assert not FORBIDDEN.search(result.message), result.message
            assert len(result.message) <= 2000
            assert result.message.startswith(HEAD)
    else:
        assert pure.value == arguments
        # what the adapter accepts the library accepts (formats aside)
        assert jsonschema.Draft202012Validator(ORDER).is_valid(arguments)
