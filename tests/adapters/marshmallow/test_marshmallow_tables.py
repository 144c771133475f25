"""The error tables: the walk's common case read from tables, the same problems as the walk."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields, validate

import toolparse as tp
from toolparse_marshmallow import MarshmallowAdapter
from toolparse_marshmallow._errors import KEPT, problems
from toolparse_marshmallow._schema import Converted, convert
from toolparse_marshmallow._tables import quick

from .models import Containers, Enums, Formats, InvoiceSchema, Person, Scalars, Temporal


class Node(Schema):
    """A recursive schema: its level is its own child's."""

    name = fields.String(required=True, validate=validate.Length(min=1))
    children = fields.List(fields.Nested(lambda: Node()))
    parent = fields.Nested(lambda: Node(), allow_none=True)


class Worded(Schema):
    """Texts of the user's own: a required text, a field's and a validator's."""

    code = fields.String(
        required=True,
        error_messages={"required": "Give a code!", "invalid": "Codes are text"},
        data_key="Code",
    )
    size = fields.Integer(validate=validate.Range(min=1, max=9, error="Size out of range"))
    level = fields.Integer(validate=validate.Range(min=1, max=9))
    tags = fields.List(fields.String(validate=validate.Length(max=3)), required=True)
    rows = fields.List(fields.Nested(Schema.from_dict({"n": fields.Integer(required=True)})))


SCHEMAS: list[type[Schema]] = [
    InvoiceSchema,
    Scalars,
    Temporal,
    Formats,
    Containers,
    Person,
    Enums,
    Node,
    Worded,
]

_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 200)
    | st.floats(allow_nan=False)
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)


def _wrongish(schema: dict[str, Any], defs: dict[str, Any], depth: int = 0) -> Any:
    """Values for ``schema``: any JSON, or a value of its shape whose parts may be wrong."""
    if depth > 3:
        return _JSON
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return _wrongish(defs[ref.rpartition("/")[2]], defs, depth + 1)
    if isinstance(schema.get("anyOf"), list):
        return st.one_of([_wrongish(branch, defs, depth + 1) for branch in schema["anyOf"]])
    kind = schema.get("type")
    shaped: Any
    if kind == "object" and isinstance(schema.get("properties"), dict):
        props = schema["properties"]
        shaped = st.fixed_dictionaries(
            {}, optional={k: _wrongish(v, defs, depth + 1) for k, v in props.items()}
        )
    elif kind == "array" and isinstance(schema.get("items"), dict):
        shaped = st.lists(_wrongish(schema["items"], defs, depth + 1), max_size=3)
    else:
        shaped = from_schema(schema)
    return st.one_of(shaped, shaped, _JSON)


def _calls(converted: Converted) -> Any:
    body = converted.json_schema
    defs = body.get("$defs", {})
    return st.fixed_dictionaries(
        {},
        optional={
            **{k: _wrongish(v, defs) for k, v in body["properties"].items()},
            "extra": _JSON,
        },
    )


def _key(found: list[tp.ArgumentProblem]) -> list[tuple[Any, ...]]:
    return [(p.path, p.reason, p.kind, repr(p.received)) for p in found]


def _both(converted: Converted, messages: Any, args: dict[str, Any]) -> Any:
    """The tables' problems (``None``: not theirs to read) and the walk's."""
    walked = problems(
        messages,
        converted.shape,
        args,
        required_messages=converted.required_messages,
        unknown_messages=converted.unknown_messages,
    )
    return quick(messages, args, converted.tables), walked


@pytest.mark.parametrize("source", SCHEMAS, ids=lambda s: s.__name__)
def test_the_tables_give_what_the_walk_gives(source: type[Schema]) -> None:
    schema = source()
    converted = convert(schema)
    answered: list[bool] = []

    @settings(
        max_examples=40,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(_calls(converted), st.sampled_from([None, RAISE, EXCLUDE]))
    def check(args: dict[str, Any], unknown: str | None) -> None:
        try:
            schema.load(args, unknown=unknown)
        except ValidationError as exc:
            found, (walked, more) = _both(converted, exc.messages, args)
            if found is not None:
                answered.append(True)
                assert _key(found) == _key(walked)
                assert more == 0

    check()
    # the tables answer for the common failures of every schema here
    assert answered


def test_the_common_failure_is_read_from_the_tables() -> None:
    converted = convert(InvoiceSchema())
    args = {"total_amount": "abc", "line_items": [{"sku": "A-1", "quantity": 0}]}
    with pytest.raises(ValidationError) as caught:
        InvoiceSchema().load(args)
    found, (walked, _) = _both(converted, caught.value.messages, args)
    assert found is not None
    assert _key(found) == [
        (("vendor_name",), "is required", "missing", "NOT_GIVEN"),
        (("total_amount",), "must be a number", "invalid", "'abc'"),
        (("line_items", 0, "quantity"), "must be at least 1", "invalid", "0"),
    ]
    assert _key(found) == _key(walked)


def test_the_users_texts_are_read_as_the_walk_reads_them() -> None:
    converted = convert(Worded())
    args = {"size": 20, "level": 20, "tags": ["abcd"], "rows": [{}]}
    with pytest.raises(ValidationError) as caught:
        Worded().load(args)
    found, (walked, _) = _both(converted, caught.value.messages, args)
    assert found is not None
    assert _key(found) == _key(walked)
    reasons = {p.path: p.reason for p in found}
    assert reasons[("Code",)] == "Give a code!"  # a missing field, in the user's words
    assert reasons[("size",)] == "Size out of range"
    assert reasons[("level",)] == "must be at most 9"  # the value says which bound
    assert reasons[("tags", 0)] == "must be at most 3 characters long"
    assert reasons[("rows", 0, "n")] == "is required"


@pytest.mark.parametrize(
    ("messages", "args"),
    [
        # an unknown key, a level's own error, several texts for one field
        ({"extra": ["Unknown field."]}, {"extra": 1}),
        ({"_schema": ["Invalid input type."]}, {}),
        ({"vendor_name": ["a", "b"]}, {"vendor_name": 1}),
        # a required text for a field that was sent; an index not sent
        ({"line_items": {3: {"sku": ["Not a valid string."]}}}, {"line_items": []}),
        # a nested level whose value is not an object
        ({"line_items": {0: {"sku": ["Not a valid string."]}}}, {"line_items": ["x"]}),
    ],
)
def test_anything_else_is_left_to_the_walk(messages: Any, args: dict[str, Any]) -> None:
    assert quick(messages, args, convert(InvoiceSchema()).tables) is None


def test_past_the_kept_problems_the_walk_counts() -> None:
    converted = convert(InvoiceSchema())
    args = {"vendor_name": "v", "total_amount": 1, "line_items": [{"sku": 1}] * (KEPT + 5)}
    with pytest.raises(ValidationError) as caught:
        InvoiceSchema().load(args)
    found, (walked, more) = _both(converted, caught.value.messages, args)
    assert found is None
    assert len(walked) == KEPT
    assert more > 0


def test_a_tool_rejects_with_the_tables_problems() -> None:
    fn = tp.Function("t", lambda invoice: "x", args_schema=InvoiceSchema)
    args = {"total_amount": "abc", "line_items": [{"sku": "A-1", "quantity": 0}]}
    result = fn.execute(args)
    assert isinstance(result, tp.Error)
    assert result.message == (
        "Invalid arguments for this tool.\n\n"
        'total_amount: must be a number (received "abc")\n'
        "line_items[0].quantity: must be at least 1 (received 0)\n"
        "Missing parameters: vendor_name\n"
        "Accepted parameters: vendor_name, total_amount, currency, line_items\n\n"
        "Fix these arguments and call the tool again."
    )
    adapter = MarshmallowAdapter()
    for policy in ("report", "reject", "ignore"):
        parser = adapter.compile(InvoiceSchema, unknown_arguments=policy).parser
        assert parser is not None
        parsed = parser(args)
        assert isinstance(parsed, tp.Error)
        assert parsed.message == result.message
