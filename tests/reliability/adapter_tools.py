"""One small tool per adapter path, for the generated reliability tests.

No ``from __future__ import annotations`` here: ``pydantic.v1`` resolves
string annotations in the module namespace only.
"""

import asyncio
from typing import Annotated, Any

import attrs
import marshmallow
from pydantic import BaseModel, Field, TypeAdapter, v1
from typing_extensions import TypedDict

import toolparse as tp
from toolparse_attrs import using
from toolparse_jsonschema import JsonSchema


class Line(marshmallow.Schema):
    sku = marshmallow.fields.String(required=True, validate=marshmallow.validate.Length(max=20))
    quantity = marshmallow.fields.Integer(load_default=1, validate=marshmallow.validate.Range(1))


class Order(marshmallow.Schema):
    customer = marshmallow.fields.String(required=True, data_key="customerName")
    lines = marshmallow.fields.Nested(Line, many=True, required=True)
    note = marshmallow.fields.String(allow_none=True)


class Booking(marshmallow.Schema):
    city = marshmallow.fields.String(required=True)
    nights = marshmallow.fields.Integer(validate=marshmallow.validate.Range(1, 30))
    kind = marshmallow.fields.String(validate=marshmallow.validate.OneOf(["standard", "suite"]))


@attrs.define
class Seat:
    row: int = attrs.field(validator=attrs.validators.ge(1))
    letter: str = attrs.field(validator=attrs.validators.in_(["A", "B", "C"]))


@attrs.define
class Flight:
    code: str = attrs.field(validator=attrs.validators.max_len(8))
    seats: list[Seat] = attrs.field(factory=list)
    window: bool = False


class Movie(TypedDict):
    title: str
    year: int


class Item(BaseModel):
    name: str = Field(max_length=30)
    price: float = Field(ge=0)


class Cart(BaseModel):
    owner: str
    items: list[Item]
    coupon: str | None = None


class LegacyItem(v1.BaseModel):
    sku: str
    quantity: int = v1.Field(..., gt=0)


class LegacyOrder(v1.BaseModel):
    customer: str = v1.Field(..., alias="customerName")
    items: list[LegacyItem]

    class Config:
        extra = v1.Extra.forbid


DEFAULTS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1},
        "limit": {"type": "integer", "default": 10, "minimum": 1},
        "filter": {
            "type": "object",
            "properties": {"tag": {"type": "string", "default": "all"}},
            "default": {},
        },
    },
    "required": ["query"],
}

TREE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "children": {"type": "array", "items": {"$ref": "#"}},
    },
    "required": ["name"],
    "additionalProperties": False,
}


@tp.tool
def search(query: str, limit: int = 10, tags: list[str] | None = None) -> str:
    """Search the catalogue."""
    return f"{query}:{limit}:{tags}"


@tp.tool
async def asearch(query: str, limit: int = 10) -> str:
    """Search the catalogue, asynchronously."""
    await asyncio.sleep(0)
    return f"{query}:{limit}"


@tp.tool(adapter="pydantic")
def priced(name: str, price: Annotated[float, Field(ge=0)] = 1.0) -> str:
    """Price an item."""
    return name


def _body(arguments: Any) -> str:
    return "ok"


def tools() -> list[tp.Function]:
    """A Function for each adapter path the no-parser and plain tests do not cover."""
    return [
        search,
        asearch,
        priced,
        tp.Function("order", _body, args_schema=Order),
        tp.Function("booking", _body, args_schema=Booking(only=("city", "nights"))),
        tp.Function("flight", _body, args_schema=Flight),
        tp.Function("flight_using", _body, args_schema=using(Flight)),
        tp.Function("movie", _body, args_schema=TypeAdapter(Movie)),
        tp.Function("cart", _body, args_schema=Cart),
        tp.Function("legacy", _body, args_schema=LegacyOrder),
        tp.Function("defaults_fast", _body, args_schema=JsonSchema(DEFAULTS, apply_defaults=True)),
        tp.Function(
            "defaults_pure",
            _body,
            args_schema=JsonSchema(DEFAULTS, apply_defaults=True, fast=False),
        ),
        tp.Function("tree_fast", _body, args_schema=JsonSchema(TREE, fast=True)),
        tp.Function("tree_pure", _body, args_schema=JsonSchema(TREE, fast=False)),
        tp.Function("tree_strict", _body, args_schema=TREE, strict=True),
    ]


#: the names any of the tools accept, so generated mappings hit real fields
NAMES = [
    "query",
    "limit",
    "tags",
    "name",
    "price",
    "customerName",
    "lines",
    "note",
    "city",
    "nights",
    "code",
    "seats",
    "window",
    "title",
    "year",
    "owner",
    "items",
    "coupon",
    "filter",
    "children",
]

#: an accepted call for each tool of :func:`tools`, by name
VALID: dict[str, dict[str, Any]] = {
    "search": {"query": "shoes", "limit": 3, "tags": ["red"]},
    "asearch": {"query": "shoes", "limit": 3},
    "priced": {"name": "cap", "price": 2.5},
    "order": {"customerName": "Ada", "lines": [{"sku": "A1", "quantity": 2}], "note": None},
    "booking": {"city": "Oslo", "nights": 2},
    "flight": {"code": "SK123", "seats": [{"row": 3, "letter": "A"}], "window": True},
    "flight_using": {"code": "SK123", "seats": [{"row": 3, "letter": "B"}]},
    "movie": {"title": "Alien", "year": 1979},
    "cart": {"owner": "Ada", "items": [{"name": "cap", "price": 2.5}], "coupon": None},
    "legacy": {"customerName": "Ada", "items": [{"sku": "A1", "quantity": 1}]},
    "defaults_fast": {"query": "q", "filter": {}},
    "defaults_pure": {"query": "q"},
    "tree_fast": {"name": "root", "children": [{"name": "leaf", "children": []}]},
    "tree_pure": {"name": "root", "children": [{"name": "leaf"}]},
    "tree_strict": {"name": "root", "children": []},
}
