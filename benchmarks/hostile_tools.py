"""The ordinary 9-parameter tool of ``bench_hostile.py``, declared on every adapter path.

Each declaration comes with the library's own way through a JSON text payload:
``json.loads``, its validation and, on a failure, its own error text.
No ``from __future__ import annotations`` here: ``pydantic.v1`` resolves string
annotations in the module namespace only.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import attrs
import cattrs
import jsonschema
import jsonschema_rs
import marshmallow
from cattrs import transform_error
from pydantic import BaseModel, Field, ValidationError, v1
from typing_extensions import TypedDict

import toolparse as tp
from toolparse_attrs import make_converter

# -- the tool, on every path -----------------------------------------------------------

VALID: dict[str, Any] = {
    "name": "order",
    "count": 2,
    "price": 9.5,
    "tags": ["red"],
    "ids": [1, 2],
    "active": True,
    "kind": "a",
    "note": None,
    "items": [{"sku": "A1", "qty": 1}],
}

ITEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "sku": {"type": "string", "maxLength": 20},
        "qty": {"type": "integer", "minimum": 1},
    },
    "required": ["sku", "qty"],
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 100},
        "count": {"type": "integer", "minimum": 0},
        "price": {"type": "number"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "ids": {"type": "array", "items": {"type": "integer"}},
        "active": {"type": "boolean"},
        "kind": {"type": "string", "enum": ["a", "b", "c"]},
        "note": {"type": "string"},
        "items": {"type": "array", "items": ITEM_SCHEMA},
    },
    "required": ["name", "count", "price", "tags", "ids", "active", "kind", "items"],
}


class PItem(BaseModel):
    sku: str = Field(max_length=20)
    qty: int = Field(ge=1)


class POrder(BaseModel):
    name: str = Field(max_length=100)
    count: int = Field(ge=0)
    price: float
    tags: list[str]
    ids: list[int]
    active: bool
    kind: Literal["a", "b", "c"]
    note: str | None = None
    items: list[PItem]


class TItem(TypedDict):
    sku: str
    qty: int


class TOrder(TypedDict):
    name: str
    count: int
    price: float
    tags: list[str]
    ids: list[int]
    active: bool
    kind: Literal["a", "b", "c"]
    items: list[TItem]


class V1Item(v1.BaseModel):
    sku: str = v1.Field(..., max_length=20)
    qty: int = v1.Field(..., ge=1)


class V1Order(v1.BaseModel):
    name: str = v1.Field(..., max_length=100)
    count: int = v1.Field(..., ge=0)
    price: float
    tags: list[str]
    ids: list[int]
    active: bool
    kind: Literal["a", "b", "c"]
    note: str | None = None
    items: list[V1Item]


@dataclass
class DItem:
    sku: str
    qty: int


@dataclass
class DOrder:
    name: str
    count: int
    price: float
    tags: list[str]
    ids: list[int]
    active: bool
    kind: Literal["a", "b", "c"]
    items: list[DItem]
    note: str | None = None


class MItem(marshmallow.Schema):
    sku = marshmallow.fields.String(required=True, validate=marshmallow.validate.Length(max=20))
    qty = marshmallow.fields.Integer(required=True, validate=marshmallow.validate.Range(min=1))


class MOrder(marshmallow.Schema):
    name = marshmallow.fields.String(required=True, validate=marshmallow.validate.Length(max=100))
    count = marshmallow.fields.Integer(required=True, validate=marshmallow.validate.Range(min=0))
    price = marshmallow.fields.Float(required=True)
    tags = marshmallow.fields.List(marshmallow.fields.String(), required=True)
    ids = marshmallow.fields.List(marshmallow.fields.Integer(), required=True)
    active = marshmallow.fields.Boolean(required=True)
    kind = marshmallow.fields.String(
        required=True, validate=marshmallow.validate.OneOf(["a", "b", "c"])
    )
    note = marshmallow.fields.String(allow_none=True)
    items = marshmallow.fields.List(marshmallow.fields.Nested(MItem), required=True)


@attrs.define
class AItem:
    sku: str = attrs.field(validator=attrs.validators.max_len(20))
    qty: int = attrs.field(validator=attrs.validators.ge(1))


@attrs.define
class AOrder:
    name: str = attrs.field(validator=attrs.validators.max_len(100))
    count: int = attrs.field(validator=attrs.validators.ge(0))
    price: float
    tags: list[str]
    ids: list[int]
    active: bool
    kind: Literal["a", "b", "c"]
    items: list[AItem]
    note: str | None = None


def order(
    name: str,
    count: int,
    price: float,
    tags: list[str],
    ids: list[int],
    active: bool,
    kind: Literal["a", "b", "c"],
    items: list[TItem],
    note: str | None = None,
) -> str:
    """Place an order."""
    return "ok"


def body(arguments: Any) -> str:
    return "ok"


PARAMS = [
    tp.FunctionParam("name", "string", required=True),
    tp.FunctionParam("count", "integer", required=True),
    tp.FunctionParam("price", "number", required=True),
    tp.FunctionParam("tags", "array", item_type="string", required=True),
    tp.FunctionParam("ids", "array", item_type="integer", required=True),
    tp.FunctionParam("active", "boolean", required=True),
    tp.FunctionParam("kind", "string", enum=["a", "b", "c"], required=True),
    tp.FunctionParam("note", "string"),
    tp.FunctionParam(
        "items",
        "array",
        item_type="object",
        required=True,
        object_properties=[
            tp.FunctionParam("sku", "string", required=True),
            tp.FunctionParam("qty", "integer", required=True),
        ],
    ),
]


def loads_only(text: str) -> object:
    return json.loads(text)


def own_pydantic(validate: Callable[[Any], object]) -> Callable[[str], object]:
    def own(text: str) -> object:
        try:
            return validate(json.loads(text))
        except ValidationError as exc:
            return str(exc)

    return own


def own_v1(text: str) -> object:
    try:
        return V1Order.parse_obj(json.loads(text))
    except v1.ValidationError as exc:
        return str(exc)


_MSCHEMA = MOrder()


def own_marshmallow(text: str) -> object:
    try:
        return _MSCHEMA.load(json.loads(text))
    except marshmallow.ValidationError as exc:
        return exc.messages


_CONVERTER = make_converter()


def own_attrs(text: str) -> object:
    try:
        return _CONVERTER.structure(json.loads(text), AOrder)
    except (cattrs.BaseValidationError, ValueError, TypeError) as exc:
        return transform_error(exc) if isinstance(exc, cattrs.BaseValidationError) else str(exc)


_PURE = jsonschema.Draft202012Validator(SCHEMA)
_RS = jsonschema_rs.validator_for(SCHEMA)


def own_jsonschema_pure(text: str) -> object:
    return [e.message for e in _PURE.iter_errors(json.loads(text))]


def own_jsonschema_rs(text: str) -> object:
    return [e.message for e in _RS.iter_errors(json.loads(text))]
