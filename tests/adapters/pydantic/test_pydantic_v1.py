"""``pydantic.v1`` models: schema and parsing work, errors in the same layout."""

from __future__ import annotations

import datetime
import json

import jsonschema
from pydantic import BaseModel, v1

import toolparse as tp
from toolparse_pydantic import PydanticAdapter

from .models_v1 import LegacyItem, LegacyOpen, LegacyOrder

ADAPTER = PydanticAdapter()


def function(source: object, **kwargs: object) -> tp.Function:
    return tp.Function("order", lambda a: "done", args_schema=source, **kwargs)  # type: ignore[arg-type]


def test_accepted() -> None:
    assert ADAPTER.accepts(LegacyOrder)
    assert function(LegacyOrder).adapter is not None


def test_schema_uses_defs_aliases_and_no_titles() -> None:
    schema = function(LegacyOrder).json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema == {
        "type": "object",
        "properties": {
            "customerName": {"type": "string"},
            "items": {"type": "array", "items": {"$ref": "#/$defs/LegacyItem"}},
            "note": {"type": "string"},
        },
        "required": ["customerName", "items"],
        "additionalProperties": False,
        "$defs": {
            "LegacyItem": {
                "type": "object",
                "properties": {
                    "sku": {"type": "string"},
                    "quantity": {
                        "description": "how many",
                        "exclusiveMinimum": 0,
                        "type": "integer",
                    },
                },
                "required": ["sku", "quantity"],
            }
        },
    }
    jsonschema.validate({"customerName": "c", "items": [{"sku": "a", "quantity": 1}]}, schema)


def test_parsing_gives_the_v1_instance() -> None:
    parsed = function(LegacyOrder).parse_arguments(
        {"customerName": "c", "items": [{"sku": 1, "quantity": "2"}]}
    )
    assert parsed == tp.Ok(LegacyOrder(customerName="c", items=[LegacyItem(sku="1", quantity=2)]))


def test_errors_in_the_shared_layout() -> None:
    result = function(LegacyOrder).execute(
        {"items": [{"sku": "a", "quantity": "x"}, {"quantity": 0}], "zz": 1}
    )
    assert isinstance(result, tp.Error)
    assert result.message == (
        "Invalid arguments for this tool.\n"
        "\n"
        'items[0].quantity: must be an integer (received "x")\n'
        "items[1].sku: is required\n"
        "items[1].quantity: must be greater than 0 (received 0)\n"
        "Missing parameters: customerName\n"
        "Unrecognized parameters: zz\n"
        "Accepted parameters: customerName, items, note\n"
        "\n"
        "Fix these arguments and call the tool again."
    )


def test_a_root_validator_speaks_for_the_whole_object() -> None:
    result = function(LegacyOrder).execute({"customerName": "c", "items": [], "note": "bad"})
    assert isinstance(result, tp.Error)
    assert "\n(arguments): note may not be bad\n" in result.message


def test_reject_closes_the_top_level() -> None:
    fn = function(LegacyOpen, unknown_arguments="reject")
    assert fn.json_schema()["additionalProperties"] is False
    result = fn.execute({"name": "a", "zz": 1})
    assert isinstance(result, tp.Error)
    assert "Unrecognized parameters: zz" in result.message
    assert function(LegacyOpen).execute({"name": "a", "zzqx_unrelated": 1}) == tp.Ok("done")


def test_serialize_and_keywords() -> None:
    order = LegacyOrder(customerName="c", items=[LegacyItem(sku="a", quantity=1)])
    assert json.loads(ADAPTER.serialize(order) or "") == {
        "customer": "c",
        "items": [{"sku": "a", "quantity": 1}],
        "note": None,
    }
    assert ADAPTER.keywords(order) == {"customer": "c", "items": order.items, "note": None}
    fn = tp.Function("order", lambda a: a, args_schema=LegacyOpen)
    result = fn.execute({"name": "a"})
    assert isinstance(result, tp.Ok)
    assert json.loads(result.value) == {"name": "a", "size": 1}


class Late(v1.BaseModel):
    wait: datetime.timedelta
    day: datetime.date
    count: int
    note: str = ""


class Later(BaseModel):
    wait: datetime.timedelta
    day: datetime.date
    count: int
    note: str = ""


def test_a_date_or_duration_too_big_for_python_reads_as_under_pydantic_2() -> None:
    # pydantic.v1 lets an OverflowError out of these; pydantic 2 says they are no duration
    for sent in (
        {"wait": 86400000000000.0, "day": "2024-01-31", "count": "x"},
        {"wait": "P99999999999D", "day": "not a date", "note": "n"},
        {"wait": 86400000000000.0, "day": "2024-01-31", "count": 1},
    ):
        old = function(Late).execute(sent)
        assert isinstance(old.exception, tp.InvalidArguments), old
        assert old.message == function(Later).execute(sent).message


def test_an_overflow_past_what_the_fields_say_stays_the_exception_it_is() -> None:
    class Huge(v1.BaseModel):
        value: int

        @v1.validator("value")
        def _grow(cls, value: int) -> int:
            raise OverflowError("too big")

    result = function(Huge).execute({"value": 1})
    assert isinstance(result, tp.Error)
    assert isinstance(result.exception, OverflowError)
