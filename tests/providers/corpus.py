"""A corpus of real-world tool definitions: every shape the exports must get right.

Each case is one tool, built by one adapter (pydantic models, TypeAdapter-able
types, marshmallow schemas, attrs classes, plain dataclasses, JSON Schema dicts
through the jsonschema adapter, raw ``parameters_schema``, FunctionParams),
with hand-written argument sets that are valid under its schema.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
from collections.abc import Callable
from typing import Annotated, Any, Literal, Optional, Union

import attrs
import marshmallow as ma
from pydantic import BaseModel, ConfigDict, Field, RootModel
from typing_extensions import Required, TypedDict

import toolparse as tp


@dataclasses.dataclass(frozen=True)
class Case:
    """One definition of the corpus."""

    name: str
    shapes: tuple[str, ...]
    build: Callable[[], tp.Function]
    examples: tuple[dict[str, Any], ...] = ()
    #: hypothesis cannot generate instances (recursion, unsupported keywords)
    generate: bool = True


CASES: list[Case] = []


def case(
    name: str,
    shapes: str,
    source: Any,
    *examples: dict[str, Any],
    generate: bool = True,
    declared: bool = False,
    description: str | None = None,
    adapter: str | None = None,
) -> None:
    def build() -> tp.Function:
        if isinstance(source, list):
            return tp.Function(name, _body, description=description, parameters=source)
        if declared:
            return tp.Function(name, _body, description=description, parameters_schema=source)
        if adapter is not None:
            return tp.Function(
                name, _body, description=description, args_schema=source, adapter=adapter
            )
        return tp.Function(name, _body, description=description, args_schema=source)

    CASES.append(Case(name, tuple(shapes.split()), build, examples, generate))


def _body(args: Any) -> str:
    return "ok"


def obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required or [], **extra}


S = {"type": "string"}
I = {"type": "integer"}  # noqa: E741 - a schema, read as "integer"
N = {"type": "number"}
B = {"type": "boolean"}

# -- pydantic -------------------------------------------------------------------------


class Stop(BaseModel):
    """A waypoint."""

    name: str
    hours: float = 1.0


class PlanTrip(BaseModel):
    """Plan a trip and return an itinerary."""

    city: str = Field(description="Destination city.")
    unit: Literal["celsius", "fahrenheit"]
    stops: list[Stop]
    days: int | None = 3


class Filter(BaseModel):
    field: str
    op: Literal["eq", "ne"] = "eq"


class Search(BaseModel):
    """Search the catalogue."""

    query: str
    filter: Optional[Filter] = None  # noqa: UP045 - the spelling pydantic users write
    limit: int = 10


class Item(BaseModel):
    sku: str
    qty: int = 1
    note: str | None = None


class Order(BaseModel):
    items: list[Optional[Item]]  # noqa: UP045
    gift: bool = False


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = 9


class Dog(BaseModel):
    kind: Literal["dog"]
    good: bool = True
    name: str | None = "Rex"


class Adopt(BaseModel):
    pet: Annotated[Union[Cat, Dog], Field(discriminator="kind")]  # noqa: UP007
    pets: list[Annotated[Union[Cat, Dog], Field(discriminator="kind")]] = []  # noqa: UP007


class Node(BaseModel):
    value: int
    children: list[Node] = []


class Tree(BaseModel):
    root: Node


class Color(str, enum.Enum):
    RED = "red"
    BLUE = "blue"


class Level(int, enum.Enum):
    LOW = 1
    HIGH = 2


class Paint(BaseModel):
    color: Color = Color.RED
    level: Level = Level.LOW
    shades: list[Color] = []


class Meta(BaseModel):
    labels: dict[str, str] = {}
    counts: dict[str, int]
    extra: dict[str, Any] | None = None


class Formats(BaseModel):
    when: datetime.datetime
    day: datetime.date | None = None
    site: str = Field(default="https://a.b", json_schema_extra={"format": "uri"})
    mail: str = Field(default="a@b.c", json_schema_extra={"format": "email"})


class Bounds(BaseModel):
    n: int = Field(ge=1, le=10)
    x: float = Field(default=0.5, gt=0, lt=1)
    name: str = Field(min_length=1, max_length=20, pattern=r"^[a-z]+$")
    tags: list[str] = Field(default_factory=list, max_length=3)


class Aliased(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    from_date: str = Field(alias="fromDate")
    to_date: str | None = Field(default=None, alias="toDate")


class Pair(BaseModel):
    point: tuple[float, float]
    labelled: tuple[str, int] | None = None
    many: tuple[int, ...] = ()


class Open(BaseModel):
    """Keys beyond the declared ones are kept."""

    model_config = ConfigDict(extra="allow")
    name: str


class Empty(BaseModel):
    """Takes nothing."""


class Wrapper(BaseModel):
    inner: Empty | None = None
    flag: bool = False


class Deep3(BaseModel):
    v: int | None = None


class Deep2(BaseModel):
    d3: Deep3 = Deep3()
    opt: str = "x"


class Deep1(BaseModel):
    d2: Deep2 | None = None


class Nested(BaseModel):
    d1: Deep1
    more: list[Deep1] = []


class Money(BaseModel):
    amount: float
    currency: Literal["EUR", "USD"] = "EUR"


class Invoice(BaseModel):
    total: Money
    lines: list[Money] = []
    discount: Money | None = None
    either: Money | str = "none"


class Ids(RootModel[list[int]]):
    pass


class Tagged(BaseModel):
    ids: Ids
    scores: list[float] | None = None


class Literals(BaseModel):
    mode: Literal["fast", "slow"] = "fast"
    code: Literal[1, 2, 3] = 1
    on: Literal[True] = True
    mixed: Literal["a", 1] = "a"


class Points(BaseModel):
    pts: list[tuple[int, int]] = []
    grid: list[list[int]]


case(
    "plan_trip",
    "nested optional default enum",
    PlanTrip,
    {"city": "Paris", "unit": "celsius", "stops": []},
)
case("search", "optional-model union default", Search, {"query": "q", "filter": {"field": "a"}})
case("order", "list-of-optional nested", Order, {"items": [None, {"sku": "a"}]})
case("adopt", "discriminated-union", Adopt, {"pet": {"kind": "dog"}, "pets": [{"kind": "cat"}]})
case("tree", "recursive", Tree, {"root": {"value": 1, "children": [{"value": 2}]}}, generate=False)
case("paint", "enum default", Paint, {"shades": ["red"]})
case("meta", "free-form-map optional", Meta, {"counts": {"a": 1}, "extra": {"x": [1]}})
case("formats", "formats optional", Formats, {"when": "2024-01-02T03:04:05Z"})
case("bounds", "constraints", Bounds, {"n": 3, "name": "abc"})
case("aliased", "aliases", Aliased, {"fromDate": "2024-01-01"})
case("pair", "tuple", Pair, {"point": [1.0, 2.0], "labelled": ["a", 1]})
case("open_model", "open-object", Open, {"name": "n", "other": 1})
case("empty", "no-args", Empty, {})
case("wrapper", "empty-model optional", Wrapper, {"inner": {}})
case("nested", "nested optional", Nested, {"d1": {"d2": {"d3": {}}}})
case("invoice", "nested union optional", Invoice, {"total": {"amount": 1.5}, "either": "x"})
case("tagged", "root-model", Tagged, {"ids": [1, 2]})
case("literals", "enum const", Literals, {"code": 2})
case("points", "tuple nested-array", Points, {"grid": [[1]], "pts": [[1, 2]]})
case(
    "root_model",
    "root-ref",
    PlanTrip,
    {"city": "x", "unit": "celsius", "stops": []},
    description="Plan.",
)
case("node_root", "recursive root-ref", Node, {"value": 1}, generate=False)

# -- JSON Schema (the jsonschema adapter validates) ---------------------------------

DEFS_NODE = {
    "$defs": {
        "Cell": obj(
            {"v": I, "next": {"anyOf": [{"$ref": "#/$defs/Cell"}, {"type": "null"}]}}, ["v"]
        )
    }
}
case(
    "raw_filter_union",
    "union optional",
    obj(
        {
            "filter": {
                "anyOf": [
                    obj({"field": S, "op": {"enum": ["eq", "ne"]}}, ["field"]),
                    obj({"all": {"type": "array", "items": S}}, ["all"]),
                ]
            }
        }
    ),
    {"filter": {"field": "a"}},
)
case(
    "raw_one_of",
    "union discriminated-union",
    obj(
        {
            "shape": {
                "oneOf": [
                    obj({"kind": {"const": "circle"}, "r": N}, ["kind"]),
                    obj(
                        {"kind": {"const": "square"}, "side": N, "r": {"type": ["number", "null"]}},
                        ["kind"],
                    ),
                ]
            }
        },
        ["shape"],
    ),
    {"shape": {"kind": "circle"}},
)
case(
    "raw_no_items",
    "array-without-items",
    obj({"xs": {"type": "array"}, "n": I}, ["xs"]),
    {"xs": [1, "a"]},
)
case(
    "raw_prefix_closed",
    "tuple closed-tuple",
    obj({"p": {"type": "array", "prefixItems": [S, I], "items": False}}, ["p"]),
    {"p": ["a", 1]},
)
case(
    "raw_prefix_open",
    "tuple open-tuple",
    obj({"p": {"type": "array", "prefixItems": [S, I]}}, ["p"]),
    {"p": ["a", 1, True]},
)
case(
    "raw_prefix_rest",
    "tuple open-tuple",
    obj({"p": {"type": "array", "prefixItems": [S], "items": I}}, ["p"]),
    {"p": ["a", 1, 2]},
)
case(
    "raw_draft7_tuple",
    "tuple draft7-tuple",
    {
        "$schema": "http://json-schema.org/draft-07/schema#",
        **obj({"p": {"type": "array", "items": [S, I]}}, ["p"]),
    },
    {"p": ["a", 1, "more"]},
)
case(
    "raw_draft7_closed",
    "tuple draft7-tuple closed-tuple",
    {
        "$schema": "http://json-schema.org/draft-07/schema#",
        **obj({"p": {"type": "array", "items": [S, I], "additionalItems": False}}, ["p"]),
    },
    {"p": ["a", 1]},
)
case(
    "raw_all_of",
    "all-of",
    {
        **obj(
            {
                "who": {
                    "allOf": [
                        {"$ref": "#/$defs/Named"},
                        obj({"age": I}, ["age"]),
                        {"description": "A person."},
                    ]
                }
            },
            ["who"],
        ),
        "$defs": {"Named": obj({"name": S, "nick": S}, ["name"])},
    },
    {"who": {"name": "a", "age": 3}},
    generate=False,
)
case(
    "raw_all_of_root",
    "all-of root",
    {"allOf": [obj({"a": S}, ["a"]), obj({"b": I})], "type": "object"},
    {"a": "x"},
    generate=False,
)
case(
    "raw_root_ref",
    "root-ref",
    {"$ref": "#/$defs/Args", "type": "object", "$defs": {"Args": obj({"q": S, "n": I}, ["q"])}},
    {"q": "x"},
)
case(
    "raw_free_form",
    "free-form-object",
    obj({"payload": {"type": "object"}, "mode": S}, ["payload"]),
    {"payload": {"a": [1, {"b": None}]}},
)
case(
    "raw_free_map",
    "free-form-map",
    obj({"headers": {"type": "object", "additionalProperties": S}}),
    {"headers": {"Accept": "x"}},
)
case(
    "raw_any",
    "any-value",
    obj({"value": {"description": "Anything."}, "key": S}, ["key"]),
    {"key": "k", "value": 3},
)
case(
    "raw_int_enum",
    "enum non-string-enum",
    obj(
        {
            "size": {"type": "integer", "enum": [1, 2, 4]},
            "flag": {"type": "boolean", "enum": [True]},
        }
    ),
    {"size": 2},
)
case(
    "raw_string_enum_on_int",
    "non-string-enum",
    obj({"n": {"type": "integer", "enum": ["1", "2"]}}),
    {},
)
case(
    "raw_nullable_types",
    "nullable type-list",
    obj({"a": {"type": ["string", "null"]}, "b": {"type": ["integer", "string"]}}, ["a"]),
    {"a": None, "b": 3},
)
case(
    "raw_const",
    "const",
    obj({"v": {"const": "fixed"}, "n": {"const": 3}}, ["v"]),
    {"v": "fixed"},
)
case(
    "raw_recursive_defs",
    "recursive",
    {**obj({"head": {"$ref": "#/$defs/Cell"}}, ["head"]), **DEFS_NODE},
    {"head": {"v": 1, "next": {"v": 2, "next": None}}},
    generate=False,
)
case(
    "raw_defs_chain",
    "nested ref",
    {
        **obj({"a": {"$ref": "#/$defs/A"}}, ["a"]),
        "$defs": {
            "A": obj({"b": {"$ref": "#/$defs/B"}, "x": S}, ["b"]),
            "B": obj({"c": {"$ref": "#/$defs/C"}, "y": I}),
            "C": obj({"z": B}),
        },
    },
    {"a": {"b": {"c": {}}}},
)
case(
    "raw_formats",
    "formats",
    obj(
        {
            "at": {"type": "string", "format": "date-time"},
            "url": {"type": "string", "format": "uri"},
            "ip": {"type": "string", "format": "ipv4"},
            "id": {"type": "string", "format": "uuid"},
        }
    ),
    {"url": "https://x.y"},
)
case(
    "raw_numbers",
    "constraints",
    obj(
        {
            "pct": {"type": "number", "minimum": 0, "maximum": 100},
            "odd": {"type": "integer", "multipleOf": 3, "exclusiveMinimum": 0},
            "words": {"type": "array", "items": S, "minItems": 2, "uniqueItems": True},
        }
    ),
    {"pct": 50},
)
case(
    "raw_defaults",
    "defaults",
    obj(
        {
            "limit": {"type": "integer", "default": 10},
            "order": {"type": "string", "enum": ["asc", "desc"], "default": "asc"},
            "tags": {"type": "array", "items": S, "default": []},
        }
    ),
    {},
)
case(
    "raw_pattern_props",
    "free-form-map",
    obj({"env": {"type": "object", "patternProperties": {"^[A-Z_]+$": S}}}),
    {"env": {"HOME": "/"}},
)
case(
    "raw_open_with_props",
    "open-object",
    obj({"opts": {"type": "object", "properties": {"a": S}, "additionalProperties": True}}),
    {"opts": {"a": "x"}},
)
case(
    "raw_props_and_map",
    "open-object free-form-map",
    obj({"opts": {"type": "object", "properties": {"a": S}, "additionalProperties": I}}),
    {"opts": {"a": "x", "b": 1}},
)
case(
    "raw_nested_arrays",
    "nested-array",
    obj({"m": {"type": "array", "items": {"type": "array", "items": N}}}, ["m"]),
    {"m": [[1.5]]},
)
case(
    "raw_array_of_objects",
    "nested optional",
    obj({"rows": {"type": "array", "items": obj({"k": S, "v": I}, ["k"])}}, ["rows"]),
    {"rows": [{"k": "a"}]},
)
case(
    "raw_array_of_unions",
    "union nested",
    obj({"xs": {"type": "array", "items": {"anyOf": [S, obj({"id": I, "label": S}, ["id"])]}}}),
    {"xs": ["a", {"id": 1}]},
)
case(
    "raw_described",
    "description",
    {**obj({"q": S}, ["q"]), "description": "Look something up."},
    {"q": "x"},
)
case("raw_no_args", "no-args", {"type": "object"}, {})
case(
    "raw_mcp_style",
    "mcp formats defaults free-form-object",
    {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "Where."},
            "url": {"type": "string", "format": "uri", "default": "https://x.y"},
            "options": {"type": "object", "additionalProperties": {}},
            "lines": {"type": "array"},
        },
        "required": ["path"],
        "additionalProperties": False,
        "$schema": "http://json-schema.org/draft-07/schema#",
    },
    {"path": "/"},
)
case(
    "raw_optional_ref_default",
    "optional ref defaults",
    {
        **obj({"unit": {"$ref": "#/$defs/Unit", "default": "c"}, "n": I}, ["n"]),
        "$defs": {"Unit": {"type": "string", "enum": ["c", "f"]}},
    },
    {"n": 1},
)

# raw parameters_schema (declared only: the required-key check)
case(
    "declared_plan",
    "declared",
    obj({"city": S, "days": {**I, "default": 3}}, ["city"]),
    {"city": "x"},
    declared=True,
)
case(
    "declared_union",
    "declared union optional",
    obj({"v": {"anyOf": [obj({"a": S}), obj({"b": I})]}}),
    {"v": {"a": "x"}},
    declared=True,
)

# -- marshmallow ------------------------------------------------------------------------


class AddressSchema(ma.Schema):
    street = ma.fields.Str(required=True)
    zip = ma.fields.Str()


class PersonSchema(ma.Schema):
    name = ma.fields.Str(required=True)
    age = ma.fields.Int()
    born = ma.fields.Date()
    address = ma.fields.Nested(AddressSchema)
    emails = ma.fields.List(ma.fields.Email())
    meta = ma.fields.Dict(keys=ma.fields.Str(), values=ma.fields.Int())


class EventSchema(ma.Schema):
    at = ma.fields.DateTime(required=True)
    level = ma.fields.Str(validate=ma.validate.OneOf(["info", "warn"]))
    tags = ma.fields.List(ma.fields.Str(), load_default=list)


case(
    "ma_person",
    "marshmallow nested optional free-form-map",
    PersonSchema,
    {"name": "a", "address": {"street": "s"}},
)
case("ma_event", "marshmallow formats enum", EventSchema, {"at": "2024-01-02T03:04:05"})

# -- attrs ---------------------------------------------------------------------------------


@attrs.define
class Point:
    x: int
    y: int = 0


@attrs.define
class Shape:
    """A shape."""

    name: str
    points: list[Point] = attrs.Factory(list)
    origin: Optional[Point] = None  # noqa: UP045
    color: Literal["red", "blue"] = "red"


@attrs.define
class Flags:
    on: bool = False
    level: int | None = None


case("attrs_shape", "attrs nested optional", Shape, {"name": "s", "origin": {"x": 1}})
case("attrs_flags", "attrs optional", Flags, {})

# -- plain dataclasses -------------------------------------------------------------------------


@dataclasses.dataclass
class Range:
    lo: int
    hi: int | None = None


@dataclasses.dataclass
class Query:
    """Run a query."""

    text: str
    ranges: list[Range] = dataclasses.field(default_factory=list)
    best: Range | None = None


@dataclasses.dataclass
class Config:
    name: str
    values: dict[str, float] = dataclasses.field(default_factory=dict)


class Hit(TypedDict, total=False):
    url: Required[str]
    score: float
    tags: list[str]


@dataclasses.dataclass
class Results:
    """Keep the results."""

    hits: list[Hit]
    kind: Literal["web", "news"] = "web"
    best: Range | None = None
    pair: tuple[str, int] | None = None


case("dc_query", "dataclass nested optional", Query, {"text": "t", "best": {"lo": 1}})
case(
    "plain_query",
    "dataclass plain nested optional",
    Query,
    {"text": "t", "best": {"lo": 1}},
    adapter="plain",
)
case(
    "plain_config",
    "dataclass plain free-form-map",
    Config,
    {"name": "n", "values": {"a": 1.5}},
    adapter="plain",
)
case(
    "plain_results",
    "dataclass plain typeddict tuple enum",
    Results,
    {"hits": [{"url": "u"}], "pair": ["a", 1]},
    adapter="plain",
)
case("dc_config", "dataclass free-form-map", Config, {"name": "n"})

# -- FunctionParam ------------------------------------------------------------------------------

case(
    "fp_search",
    "function-param enum nested",
    [
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
    {"query": "q", "filters": {"lang": "en"}},
)
case(
    "fp_arrays",
    "function-param nested-array",
    [
        tp.FunctionParam("names", "array", item_type="string", required=True),
        tp.FunctionParam(
            "people",
            "array",
            item_type="object",
            object_properties=[
                tp.FunctionParam("name", "string", required=True),
                tp.FunctionParam("age", "integer"),
            ],
        ),
        tp.FunctionParam("ratio", "number"),
        tp.FunctionParam("on", "boolean"),
    ],
    {"names": ["a"], "people": [{"name": "p"}]},
)

# -- TypeAdapter-able types ---------------------------------------------------------------------


class Kw(BaseModel):
    """Keyword arguments."""

    a: int
    b: list[str] | None = None
    c: Annotated[int, Field(description="C.")] = 1


case("pydantic_kw", "optional description", Kw, {"a": 1})
case(
    "pydantic_nested_unions",
    "union nested",
    Invoice,
    {"total": {"amount": 2}, "either": {"amount": 3}},
)
case(
    "pydantic_search_again",
    "optional-model",
    Search,
    {"query": "x", "filter": {"field": "f", "op": "ne"}},
    description="Search it.",
)

# -- the shapes exports once got wrong ----------------------------------------------------------


class TextOrObject(BaseModel):
    """Annotate a record."""

    value: Optional[Union[str, dict[str, Any]]] = None  # noqa: UP007, UP045 - as users write it
    label: str = "note"


case(
    "text_or_object",
    "union free-form-object optional",
    TextOrObject,
    {"value": {"a": 1}},
    {"value": "plain"},
    {"label": "x"},
)
case(
    "mcp_object_or_string",  # an OpenAPI spelling seen on public MCP servers
    "mcp union free-form-object",
    obj({"body": {"anyOf": [{"type": "object"}, {"type": "string"}]}, "id": S}, ["id"]),
    {"id": "1", "body": {"a": [1]}},
    {"id": "1", "body": "text"},
)


class Query(BaseModel):
    field: str
    type: Optional[str] = None  # noqa: UP045
    op: str = "eq"


class Lookup(BaseModel):
    """Look records up."""

    where: Union[Query, dict[str, Any]]  # noqa: UP007


case("query_or_map", "union open-object optional", Lookup, {"where": {"field": "f"}})
case(
    "query_or_map_raw",
    "union open-object optional",
    Lookup.model_json_schema(),
    {"where": {"field": "f", "op": "ne"}},
)
case(
    "list_open_issues_assigned_to_the_current_user_in_every_repository_of_an_org",
    "long-name",
    obj({"org": S}, ["org"]),
    {"org": "o"},
)


@attrs.define
class Memo:
    text: str


Memo.__doc__ = "Write a memo.   \n"  # as a docstring often ends: spaces, a newline


class NoteSchema(ma.Schema):
    """Write a note."""

    text = ma.fields.String(required=True)


case("attrs_memo", "attrs description", Memo, {"text": "t"})
case("ma_note", "marshmallow description", NoteSchema, {"text": "t"})
case(
    "zod_root_ref",  # zod-to-json-schema's output: a root reference, no type
    "root-ref",
    {
        "$ref": "#/definitions/Args",
        "definitions": {"Args": obj({"city": S, "days": I}, ["city"], additionalProperties=False)},
        "$schema": "http://json-schema.org/draft-07/schema#",
    },
    {"city": "Oslo"},
    {"city": "Oslo", "days": 2},
)
