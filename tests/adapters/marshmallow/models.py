"""marshmallow schemas shared by the marshmallow adapter's tests."""

from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass, field
from typing import Any

from marshmallow import EXCLUDE, INCLUDE, Schema, fields, post_load, validate


@dataclass
class Line:
    sku: str
    quantity: int


@dataclass
class Invoice:
    vendor_name: str
    total_amount: float
    currency: str = "EUR"
    line_items: list[Line] = field(default_factory=list)


class LineSchema(Schema):
    sku = fields.String(required=True, validate=validate.Length(min=1))
    quantity = fields.Integer(required=True, validate=validate.Range(min=1))

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Line:
        return Line(**data)


class InvoiceSchema(Schema):
    vendor_name = fields.String(required=True, metadata={"description": "Who sent the invoice"})
    total_amount = fields.Float(required=True)
    currency = fields.String(load_default="EUR", validate=validate.OneOf(["EUR", "USD", "GBP"]))
    line_items = fields.List(fields.Nested(LineSchema), required=True)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Invoice:
        return Invoice(**data)


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Size(enum.Enum):
    SMALL = 1
    LARGE = 2


class Scalars(Schema):
    name = fields.String(required=True, validate=validate.Length(min=2, max=10))
    code = fields.String(validate=validate.Regexp(r"[A-Z]{3}-\d+"))
    count = fields.Integer(validate=validate.Range(min=0, max=100))
    strict_count = fields.Integer(strict=True, allow_none=True)
    ratio = fields.Float(validate=validate.Range(min=0, max=1, min_inclusive=False))
    price = fields.Decimal(validate=validate.Range(min=0))
    active = fields.Boolean()
    kind = fields.String(validate=validate.OneOf(["a", "b"]))
    fixed = fields.String(validate=validate.Equal("x"))


class Temporal(Schema):
    at = fields.DateTime(required=True)
    day = fields.Date()
    clock = fields.Time()
    wait = fields.TimeDelta(validate=validate.Range(min=dt.timedelta(0)))
    aware = fields.AwareDateTime()


class Formats(Schema):
    email = fields.Email()
    homepage = fields.Url()
    ident = fields.UUID(required=True)
    address = fields.IPv4()
    address6 = fields.IPv6()
    any_ip = fields.IP()


class Containers(Schema):
    tags = fields.List(
        fields.String(validate=validate.Length(max=5)), validate=validate.Length(max=4)
    )
    point = fields.Tuple((fields.Float(), fields.Float()))
    scores = fields.Dict(
        keys=fields.String(validate=validate.Length(min=1)), values=fields.Integer()
    )
    letters = fields.List(fields.String(), validate=validate.ContainsOnly(["a", "b", "c"]))
    anything = fields.Raw()


class Address(Schema):
    street = fields.String(required=True)
    city = fields.String(required=True, data_key="cityName")


class Person(Schema):
    name = fields.String(required=True)
    home = fields.Nested(Address, allow_none=True)
    offices = fields.Nested(Address, many=True, validate=validate.Length(max=3))
    short = fields.Nested(Address, only=("street",))
    city_names = fields.Pluck(Address, "city", many=True)


class Enums(Schema):
    color = fields.Enum(Color, required=True)
    size = fields.Enum(Size, by_value=True)
    level = fields.Enum(Size, by_value=fields.Integer())
    version = fields.Constant(2)


class Lenient(Schema):
    class Meta:
        unknown = EXCLUDE

    identifier = fields.String(required=True)
    quantity_total = fields.Integer(load_default=3)


class Open(Schema):
    class Meta:
        unknown = INCLUDE

    label = fields.String()


class Hidden(Schema):
    visible = fields.String(required=True)
    secret = fields.String(load_only=True)
    computed = fields.String(dump_only=True)
    method = fields.Method("get_m", dump_only=True)

    def get_m(self, obj: Any) -> str:
        return "m"


Generated = Schema.from_dict(
    {
        "title": fields.String(required=True),
        "pages": fields.Integer(validate=validate.Range(min=1)),
    }
)


_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


class Caps(fields.String):
    """A custom field: the nearest known parent (String) decides its mapping.

    It upper-cases ASCII letters only: ``str.upper`` can lengthen a string
    ("ß" becomes "SS"), and a field that changes a value's length before its
    validators run can disagree with the exported ``maxLength``.
    """

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        return str(super()._deserialize(value, attr, data, **kwargs)).translate(_ASCII_UPPER)


class Custom(Schema):
    shout = fields.Raw()
    caps = Caps(required=True, validate=validate.Length(max=8))


def corpus() -> list[Any]:
    """Models whose exported schema must agree with ``schema.load``."""
    return [
        InvoiceSchema,
        Scalars,
        Temporal,
        Formats,
        Containers,
        Person,
        Enums,
        Lenient,
        Open,
        Hidden,
        Generated,
        Custom,
        Scalars(partial=True),
        Person(only=("name", "home")),
    ]
