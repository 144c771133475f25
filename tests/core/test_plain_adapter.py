"""The built-in adapter for plain Python types (dataclasses and TypedDicts).

pydantic and attrs are installed in the test environment and their adapters
would take dataclasses over, so every Function here gets a plugin manager
holding the core's defaults only.
"""

# typing.Optional and typing.Union are spellings under test, next to X | None
# ruff: noqa: UP007, UP045

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
import sys
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, make_dataclass
from typing import Annotated, Any, Literal, NewType, Optional, Union

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse.adapter import MAX_PROBLEMS
from toolparse.plain import PlainAdapter

if sys.version_info >= (3, 11):
    from typing import NotRequired, Required, TypedDict
else:  # typing's TypedDict learnt Required and NotRequired in 3.11
    from typing_extensions import NotRequired, Required, TypedDict

PM = tp.make_plugin_manager(load_entry_points=False)
ADAPTER = PlainAdapter()


def function(source: Any, **kwargs: Any) -> tp.Function:
    return tp.Function("tool", lambda a: "x", args_schema=source, plugin_manager=PM, **kwargs)


def schema_of(source: Any) -> dict[str, Any]:
    schema = function(source).json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def prop(annotation: Any) -> dict[str, Any]:
    """The property schema of a one-field dataclass annotated ``annotation``."""
    model = dataclasses.make_dataclass("Model", [("f", annotation)])
    return schema_of(model)["properties"]["f"]


def lines(result: object) -> list[str]:
    assert isinstance(result, tp.Error), result
    return result.message.splitlines()


def parse_one(annotation: Any, value: Any) -> Any:
    """Parse ``{"f": value}`` for a one-field dataclass; the field or the Error."""
    model = dataclasses.make_dataclass("Model", [("f", annotation)])
    result = function(model).parse_arguments({"f": value})
    return result.value.f if isinstance(result, tp.Ok) else result


# -- models --------------------------------------------------------------------


class Unit(enum.Enum):
    CELSIUS = "c"
    FAHRENHEIT = "f"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


@dataclass
class Item:
    sku: str
    qty: int

    def __post_init__(self) -> None:
        if self.qty < 0:
            raise ValueError("qty must not be negative")


@dataclass
class Order:
    """Place an order."""

    customer: Annotated[str, "who orders"]
    items: list[Item]
    unit: Unit = Unit.CELSIUS
    note: Optional[str] = None
    tags: list[str] = field(default_factory=list, metadata={"description": "labels"})


class Address(TypedDict):
    street: str
    city: str


class Person(TypedDict, total=False):
    name: Required[str]
    age: int
    address: Address


class Mixed(TypedDict):
    id: int
    extra: NotRequired[Annotated[str, "optional text"]]


@dataclass
class Tree:
    label: str
    children: list[Tree] = field(default_factory=list)


@dataclass
class Ping:
    pong: Optional[Pong] = None


@dataclass
class Pong:
    ping: Ping
    count: int = 0


@dataclass
class Plain:
    x: int


NOT_JSON = object()


@dataclass
class WithDefaults:
    a: int = 1
    b: tuple[int, str] = (1, "x")
    c: Unit = Unit.FAHRENHEIT
    d: dict[str, int] = field(default_factory=dict)
    e: Any = NOT_JSON  # no default in the schema


# -- accepts -------------------------------------------------------------------


def test_accepts_dataclasses_and_typeddicts_only() -> None:
    assert ADAPTER.accepts(Order)
    assert ADAPTER.accepts(Person)
    assert not ADAPTER.accepts(Order("a", []))  # an instance is not a source
    assert not ADAPTER.accepts(dict)
    assert not ADAPTER.accepts({"type": "object"})
    assert not ADAPTER.accepts(int)
    assert not ADAPTER.accepts(Unit)


def test_pydantic_dataclasses_are_left_to_the_pydantic_adapter() -> None:
    pydantic = pytest.importorskip("pydantic")

    @pydantic.dataclasses.dataclass
    class Model:
        x: int

    assert not ADAPTER.accepts(Model)


def test_is_the_core_default_and_asked_after_plugins() -> None:
    assert function(Order).adapter is not None
    assert function(Order).adapter.name == "plain"  # type: ignore[union-attr]
    assert PM.adapters()[-1].name == "plain"


# -- schema --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (str, {"type": "string"}),
        (int, {"type": "integer"}),
        (float, {"type": "number"}),
        (bool, {"type": "boolean"}),
        (None, {"type": "null"}),
        (Any, {}),
        (list[int], {"type": "array", "items": {"type": "integer"}}),
        (list, {"type": "array"}),
        (typing.List[str], {"type": "array", "items": {"type": "string"}}),  # noqa: UP006
        (Sequence[str], {"type": "array", "items": {"type": "string"}}),
        (
            dict[str, float],
            {"type": "object", "additionalProperties": {"type": "number"}},
        ),
        (dict[str, Any], {"type": "object"}),
        (tuple[int, ...], {"type": "array", "items": {"type": "integer"}}),
        (
            tuple[int, str],
            {
                "type": "array",
                "prefixItems": [{"type": "integer"}, {"type": "string"}],
                "minItems": 2,
                "maxItems": 2,
            },
        ),
        (tuple[()], {"type": "array", "maxItems": 0}),
        (Literal["c", "f"], {"type": "string", "enum": ["c", "f"]}),
        (Literal[1, "a", None], {"enum": [1, "a", None]}),
        (Literal[Unit.CELSIUS], {"type": "string", "enum": ["c"]}),
        (Unit, {"type": "string", "enum": ["c", "f"]}),
        (Level, {"type": "integer", "enum": [1, 2]}),
        (Optional[int], {"anyOf": [{"type": "integer"}, {"type": "null"}]}),
        (int | None, {"anyOf": [{"type": "integer"}, {"type": "null"}]}),
        (
            Union[int, str, None],
            {"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]},
        ),
        (Union[int, Any], {}),
        (Annotated[int, "how many"], {"type": "integer", "description": "how many"}),
        (
            list[Annotated[str, "a tag"]],
            {"type": "array", "items": {"type": "string", "description": "a tag"}},
        ),
        (NewType("UserId", int), {"type": "integer"}),
        (
            Address,
            {
                "type": "object",
                "properties": {
                    "street": {"type": "string"},
                    "city": {"type": "string"},
                },
                "required": ["street", "city"],
                "additionalProperties": False,
            },
        ),
    ],
    ids=repr,
)
def test_type_to_schema(annotation: Any, expected: dict[str, Any]) -> None:
    assert prop(annotation) == expected


def test_dataclass_schema() -> None:
    assert schema_of(Order) == {
        "type": "object",
        "description": "Place an order.",
        "properties": {
            "customer": {"type": "string", "description": "who orders"},
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "sku": {"type": "string"},
                        "qty": {"type": "integer"},
                    },
                    "required": ["sku", "qty"],
                    "additionalProperties": False,
                },
            },
            "unit": {"type": "string", "enum": ["c", "f"], "default": "c"},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            "tags": {
                "type": "array",
                "items": {"type": "string"},
                "description": "labels",
            },
        },
        "required": ["customer", "items"],
        "additionalProperties": False,
    }


def test_properties_keep_declaration_order_and_accepted_names_follow() -> None:
    fn = function(Order)
    assert list(fn.json_schema()["properties"]) == [
        "customer",
        "items",
        "unit",
        "note",
        "tags",
    ]
    assert fn.accepted_param_names() == ["customer", "items", "unit", "note", "tags"]
    assert fn.required_param_names() == ["customer", "items"]


def test_typeddict_schema_total_false_required_not_required() -> None:
    schema = schema_of(Person)
    assert schema["required"] == ["name"]
    assert schema["properties"]["address"]["required"] == ["street", "city"]
    assert "description" not in schema  # a TypedDict without a docstring
    mixed = schema_of(Mixed)
    assert mixed["required"] == ["id"]
    assert mixed["properties"]["extra"] == {
        "type": "string",
        "description": "optional text",
    }


def test_defaults_that_are_json_data_are_shown() -> None:
    props = schema_of(WithDefaults)["properties"]
    assert props["a"]["default"] == 1
    assert props["b"]["default"] == [1, "x"]
    assert props["c"]["default"] == "f"
    assert "default" not in props["d"]  # a factory is not called to show it
    assert "default" not in props["e"]
    assert "required" not in schema_of(WithDefaults)


def test_field_metadata_description_wins_over_annotated() -> None:
    @dataclass
    class Model:
        x: Annotated[int, "from Annotated"] = field(
            default=0, metadata={"description": "from metadata"}
        )

    assert schema_of(Model)["properties"]["x"]["description"] == "from metadata"


def test_no_generated_docstring_or_titles() -> None:
    schema = schema_of(Plain)
    assert "description" not in schema  # @dataclass writes "Plain(x: int)"
    assert "title" not in json.dumps(schema)


def test_recursive_dataclass_uses_defs() -> None:
    schema = schema_of(Tree)
    assert schema["properties"]["children"] == {
        "type": "array",
        "items": {"$ref": "#/$defs/Tree"},
    }
    assert schema["$defs"]["Tree"]["properties"]["children"]["items"] == {"$ref": "#/$defs/Tree"}
    tree = {"label": "a", "children": [{"label": "b", "children": [{"label": "c"}]}]}
    jsonschema.validate(tree, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"label": "a", "children": [{"label": 1}]}, schema)


def test_mutually_recursive_dataclasses() -> None:
    schema = schema_of(Ping)
    assert schema["properties"]["pong"] == {
        "anyOf": [
            {
                "type": "object",
                "properties": {
                    "ping": {"$ref": "#/$defs/Ping"},
                    "count": {"type": "integer", "default": 0},
                },
                "required": ["ping"],
                "additionalProperties": False,
            },
            {"type": "null"},
        ],
        "default": None,
    }
    assert set(schema["$defs"]) == {"Ping"}
    parsed = function(Ping).parse_arguments({"pong": {"ping": {"pong": {"ping": {}}}}})
    assert parsed == tp.Ok(Ping(Pong(Ping(Pong(Ping())))))


def test_forward_references_resolve_with_future_annotations() -> None:
    # this module uses ``from __future__ import annotations``: every
    # annotation above is a string until get_type_hints resolves it
    assert isinstance(Order.__annotations__["items"], str)
    assert schema_of(Order)["properties"]["items"]["items"]["required"] == [
        "sku",
        "qty",
    ]


def test_classes_defined_in_a_function_may_refer_to_themselves() -> None:
    @dataclass
    class Node:
        value: int
        next: Optional[Node] = None

    assert function(Node).parse_arguments({"value": 1, "next": {"value": 2}}) == tp.Ok(
        Node(1, Node(2))
    )


def test_a_definition_reads_the_source_once(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[object] = []
    real = typing.get_type_hints

    def counting(source: Any, *args: Any, **kwargs: Any) -> Any:
        reads.append(source)
        return real(source, *args, **kwargs)

    monkeypatch.setattr(typing, "get_type_hints", counting)
    fn = function(Plain)
    assert reads == [Plain]
    # schema and parser come from that one reading, with the names alongside
    compiled = ADAPTER.compile(Plain, unknown_arguments="report", field_schema=None, parser=True)
    assert compiled.schema == fn.json_schema()
    assert compiled.accepted == tuple(fn.accepted_param_names())
    assert compiled.required == tuple(fn.required_param_names())
    assert compiled.parser is not None
    assert reads == [Plain, Plain]


# -- definition errors ---------------------------------------------------------


@dataclass
class Unsupported:
    when: datetime.datetime
    counts: dict[int, str]
    fine: int
    raw: bytes = b""


def test_unsupported_types_are_definition_errors_naming_field_and_type() -> None:
    with pytest.raises(tp.FunctionDefinitionError) as info:
        function(Unsupported)
    assert {where for where, _ in info.value.errors} == {"args_schema"}
    text = str(info.value)
    assert "Unsupported.when: the type datetime.datetime is not supported" in text
    assert "Unsupported.counts: dict[int, str]: JSON object keys are strings" in text
    assert "Unsupported.raw: the type bytes is not supported" in text
    assert "fine" not in text
    assert "toolparse_field_schema" in text  # the way out


def test_definition_error_from_the_adapter_lists_every_field() -> None:
    with pytest.raises(tp.FunctionDefinitionError) as info:
        ADAPTER.json_schema(Unsupported)
    assert [where for where, _ in info.value.errors] == [
        "Unsupported.when",
        "Unsupported.counts",
        "Unsupported.raw",
    ]


class Shape(enum.Enum):
    POINT = (0, 0)


@dataclass
class NotJson:
    a: Literal[b"x"]
    b: Shape


def test_non_json_literal_and_enum_values_are_definition_errors() -> None:
    with pytest.raises(tp.FunctionDefinitionError) as info:
        ADAPTER.json_schema(NotJson)
    (where_a, text_a), (where_b, text_b) = info.value.errors
    assert (where_a, where_b) == ("NotJson.a", "NotJson.b")
    assert "the literal b'x' is not a JSON value" in text_a
    assert "must be strings, numbers, booleans or None (not (0, 0))" in text_b


def test_unresolvable_annotation_is_a_definition_error() -> None:
    @dataclass
    class Model:
        x: Missing  # type: ignore[name-defined]  # noqa: F821

    with pytest.raises(tp.FunctionDefinitionError) as info:
        ADAPTER.json_schema(Model)
    where, text = info.value.errors[0]
    assert where.endswith("Model")
    assert "cannot resolve its annotations (name 'Missing' is not defined)" in text


def test_a_field_schema_plugin_describes_an_unknown_type_passed_through() -> None:
    class Dates:
        @tp.hookimpl
        def toolparse_field_schema(
            self, adapter: str, field: object, schema: dict[str, Any]
        ) -> dict[str, Any] | None:
            if adapter == "plain" and field is datetime.date:
                return {"type": "string", "format": "date"}
            return None

    pm = tp.make_plugin_manager(load_entry_points=False)
    pm.register(Dates())

    @dataclass
    class Event:
        day: datetime.date
        days: list[datetime.date]

    fn = tp.Function("t", lambda a: "x", args_schema=Event, plugin_manager=pm)
    assert fn.json_schema()["properties"] == {
        "day": {"type": "string", "format": "date"},
        "days": {"type": "array", "items": {"type": "string", "format": "date"}},
    }
    # the value is not validated (nor converted): the plugin only described it
    assert fn.parse_arguments({"day": "2024-01-02", "days": [1]}) == tp.Ok(
        Event("2024-01-02", [1])  # type: ignore[arg-type]
    )


def test_a_field_schema_plugin_may_replace_a_known_field_schema() -> None:
    class Narrow:
        @tp.hookimpl
        def toolparse_field_schema(
            self, adapter: str, field: object, schema: dict[str, Any]
        ) -> dict[str, Any] | None:
            if field is int:
                return {**schema, "minimum": 0}
            return None

    pm = tp.make_plugin_manager(load_entry_points=False)
    pm.register(Narrow())
    fn = tp.Function("t", lambda a: "x", args_schema=Plain, plugin_manager=pm)
    assert fn.json_schema()["properties"]["x"] == {"type": "integer", "minimum": 0}


# -- strict parsing ------------------------------------------------------------


@pytest.mark.parametrize(
    ("annotation", "value", "parsed"),
    [
        (str, "a", "a"),
        (int, 3, 3),
        (float, 3, 3.0),
        (float, 2.5, 2.5),
        (bool, False, False),
        (None, None, None),
        (Any, {"x": [1]}, {"x": [1]}),
        (list[float], [1, 2.5], [1.0, 2.5]),
        (dict[str, int], {"a": 1}, {"a": 1}),
        (tuple[int, ...], [1, 2], (1, 2)),
        (tuple[int, str], [1, "a"], (1, "a")),
        (Literal["c", "f"], "f", "f"),
        (Literal[1, True], True, True),
        (Literal[Unit.CELSIUS], "c", Unit.CELSIUS),
        (Unit, "f", Unit.FAHRENHEIT),
        (Level, 2, Level.HIGH),
        (Optional[int], None, None),
        (Union[int, str], "3", "3"),
        (Union[float, int], 3, 3),  # the exact type wins over the coercion
        (Union[int, float], 2.5, 2.5),
        (Union[bool, int], 1, 1),
        (Annotated[int, "n"], 4, 4),
        (NewType("UserId", int), 5, 5),
    ],
    ids=repr,
)
def test_accepted_values(annotation: Any, value: Any, parsed: Any) -> None:
    result = parse_one(annotation, value)
    assert result == parsed
    assert type(result) is type(parsed)


@pytest.mark.parametrize(
    ("annotation", "value", "line"),
    [
        (str, 3, "f: must be a string (received 3)"),
        (int, "3", 'f: must be an integer (received "3")'),
        (int, True, "f: must be an integer (received true)"),
        (int, 3.0, "f: must be an integer (received 3.0)"),
        (float, "2.5", 'f: must be a number (received "2.5")'),
        (float, False, "f: must be a number (received false)"),
        (bool, 1, "f: must be true or false (received 1)"),
        (None, 0, "f: must be null (received 0)"),
        (list[int], {}, "f: must be a list (received {})"),
        (list[int], [1, "2"], 'f[1]: must be an integer (received "2")'),
        (dict[str, int], [], "f: must be an object (received [])"),
        (dict[str, int], {"a": None}, "f.a: must be an integer (received null)"),
        (tuple[int, str], [1], "f: must be a list of exactly 2 items (received [1])"),
        (tuple[int], [1, 2], "f: must be a list of exactly 1 item (received [1, 2])"),
        (tuple[int, str], [1, 2], "f[1]: must be a string (received 2)"),
        (Literal["c", "f"], "k", 'f: must be one of: "c", "f" (received "k")'),
        (Literal["c"], "k", 'f: must be "c" (received "k")'),
        (Literal[1], True, "f: must be 1 (received true)"),
        (Unit, "C", 'f: must be one of: "c", "f" (received "C")'),
        (Unit, ["c"], 'f: must be one of: "c", "f" (received ["c"])'),
        (Optional[int], "3", 'f: must be an integer or null (received "3")'),
        (Union[int, str], 2.5, "f: must be an integer or a string (received 2.5)"),
        (Union[int, str], None, "f: must be an integer or a string (received null)"),
        (
            Optional[Literal["a", "b"]],
            "c",
            'f: must be one of: "a", "b", or null (received "c")',
        ),
        (
            Optional[tuple[int, int]],
            [1],
            "f: must be a list of exactly 2 items, or null (received [1])",
        ),
        (
            Union[Literal["auto"], int],
            "x",
            'f: must be "auto", or an integer (received "x")',
        ),
        (
            # two literal members on purpose: two candidates for a string
            Union[Literal["a"], Literal["b"], int],
            "x",
            'f: must be one of: "a", "b", integer (received "x")',
        ),
        (
            Optional[Item],
            {"sku": "a", "qty": "1"},
            'f.qty: must be an integer (received "1")',
        ),
        (Optional[Item], 5, "f: must be an object or null (received 5)"),
        (Item, [], "f: must be an object (received [])"),
        (Item, {"sku": "a"}, "f.qty: is required"),
        (
            Item,
            {"sku": "a", "qty": 1, "n": 2},
            "f.n: is not accepted (accepted: sku, qty)",
        ),
        (Item, {"sku": "a", "qty": -1}, "f: qty must not be negative"),
        (
            Address,
            {"street": 1, "city": "x"},
            "f.street: must be a string (received 1)",
        ),
    ],
    ids=repr,
)
def test_rejections_name_the_path_and_reason(annotation: Any, value: Any, line: str) -> None:
    assert line in lines(parse_one(annotation, value))


def test_union_of_objects_reports_the_closest_member() -> None:
    @dataclass
    class Cat:
        meow: str

    @dataclass
    class Dog:
        bark: str
        loud: bool

    result = parse_one(Union[Cat, Dog], {"bark": "woof", "loud": "yes"})
    assert 'f.loud: must be true or false (received "yes")' in lines(result)
    assert parse_one(Union[Cat, Dog], {"bark": "woof", "loud": True}) == Dog("woof", True)


def test_every_problem_is_reported_at_once_with_nested_paths() -> None:
    result = function(Order).parse_arguments(
        {
            "customer": 7,
            "items": [{"sku": "a", "qty": "2"}, {"qty": True, "size": "L"}, "x"],
            "unit": "k",
            "zzqx": 1,
        }
    )
    assert lines(result) == [
        "Invalid arguments for this tool.",
        "",
        "customer: must be a string (received 7)",
        'items[0].qty: must be an integer (received "2")',
        "items[1].sku: is required",
        "items[1].qty: must be an integer (received true)",
        "items[1].size: is not accepted (accepted: sku, qty)",
        'items[2]: must be an object (received "x")',
        'unit: must be one of: "c", "f" (received "k")',
        "Unrecognized parameters: zzqx",
        "Accepted parameters: customer, items, unit, note, tags",
        "",
        "Fix these arguments and call the tool again.",
    ]
    assert isinstance(result, tp.Error)
    exc = result.exception
    assert isinstance(exc, tp.InvalidArguments)
    assert tp.ArgumentProblem(("items", 0, "qty"), "must be an integer", "2") in exc.problems
    assert tp.ArgumentProblem.missing(("items", 1, "sku")) in exc.problems


def test_missing_top_level_names_go_on_their_own_line() -> None:
    assert lines(function(Order).parse_arguments({"tags": []}))[2:4] == [
        "Missing parameters: customer, items",
        "Accepted parameters: customer, items, unit, note, tags",
    ]


def test_post_init_error_at_the_top_is_about_the_arguments() -> None:
    assert "(arguments): qty must not be negative" in lines(
        function(Item).parse_arguments({"sku": "a", "qty": -3})
    )
    nested = function(Order).parse_arguments(
        {"customer": "a", "items": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": -1}]}
    )
    assert "items[1]: qty must not be negative" in lines(nested)


def test_valid_arguments_build_the_dataclass_with_defaults() -> None:
    result = function(Order).parse_arguments(
        {"customer": "bob", "items": [{"sku": "a", "qty": 2}], "unit": "f"}
    )
    assert result == tp.Ok(Order("bob", [Item("a", 2)], unit=Unit.FAHRENHEIT))
    assert result.value.tags == []


def test_typeddicts_stay_dicts_and_absent_keys_stay_absent() -> None:
    result = function(Person).parse_arguments(
        {"name": "Ann", "address": {"street": "Main", "city": "X"}}
    )
    assert result == tp.Ok({"name": "Ann", "address": {"street": "Main", "city": "X"}})
    assert type(result.value) is dict
    assert "age" not in result.value


def test_parsing_does_not_mutate_the_arguments() -> None:
    args = {"label": "a", "children": [{"label": "b"}]}
    snapshot = json.loads(json.dumps(args))
    assert isinstance(function(Tree).parse_arguments(args), tp.Ok)
    assert args == snapshot
    result = function(Tree).parse_arguments(args)
    assert result.value.children[0] == Tree("b")


def test_recursive_parsing_reports_deep_paths() -> None:
    result = function(Tree).parse_arguments(
        {"label": "a", "children": [{"label": "b", "children": [{"label": 1}]}]}
    )
    assert "children[0].children[0].label: must be a string (received 1)" in lines(result)


def test_too_deep_input_is_an_error_not_a_crash() -> None:
    node: dict[str, Any] = {"label": "leaf"}
    for _ in range(5000):
        node = {"label": "x", "children": [node]}
    result = ADAPTER.parser(Tree)(node)
    assert "(arguments): is nested too deeply" in lines(result)


# -- unknown keys --------------------------------------------------------------


def test_report_rejects_unknown_top_level_names_as_the_schema_says() -> None:
    fn = function(Plain)
    assert fn.json_schema()["additionalProperties"] is False
    assert lines(fn.execute({"x": 1, "zzqx": 2}))[2:4] == [
        "Unrecognized parameters: zzqx",
        "Accepted parameters: x",
    ]


def test_reject_refuses_unknown_names_at_every_level() -> None:
    fn = function(Order, unknown_arguments="reject")
    result = fn.execute({"customer": "a", "items": [{"sku": "a", "qty": 1, "n": 1}], "y": 1})
    assert "items[0].n: is not accepted (accepted: sku, qty)" in lines(result)
    assert "Unrecognized parameters: y" in lines(result)


def test_ignore_drops_unknown_names_at_every_level() -> None:
    fn = function(Order, unknown_arguments="ignore")
    result = fn.parse_arguments(
        {"customer": "a", "items": [{"sku": "a", "qty": 1, "n": 1}], "y": 1}
    )
    assert result == tp.Ok(Order("a", [Item("a", 1)]))


# -- speed: the parser is compiled once ----------------------------------------


def test_parsing_reads_no_annotations(monkeypatch: pytest.MonkeyPatch) -> None:
    fn = function(Order)

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("annotations read at call time")

    monkeypatch.setattr(typing, "get_type_hints", boom)
    monkeypatch.setattr(typing, "get_origin", boom)
    result = fn.parse_arguments({"customer": "a", "items": [{"sku": "a", "qty": 1}]})
    assert isinstance(result, tp.Ok)


# -- serialisation -------------------------------------------------------------


def test_serialize_dataclass_instances_with_enums_by_value() -> None:
    text = ADAPTER.serialize(Order("a", [Item("s", 1)], unit=Unit.FAHRENHEIT))
    assert text is not None
    assert json.loads(text) == {
        "customer": "a",
        "items": [{"sku": "s", "qty": 1}],
        "unit": "f",
        "note": None,
        "tags": [],
    }
    assert json.loads(ADAPTER.serialize(WithDefaults(e=None)) or "") == {
        "a": 1,
        "b": [1, "x"],
        "c": "f",
        "d": {},
        "e": None,
    }


def test_serialize_declines_what_is_not_a_dataclass_instance() -> None:
    assert ADAPTER.serialize(Order) is None
    assert ADAPTER.serialize({"a": 1}) is None
    assert ADAPTER.serialize("text") is None
    assert ADAPTER.serialize(WithDefaults()) is None  # holds a bare object()


def test_a_tool_returning_a_dataclass_gives_its_json() -> None:
    fn = tp.Function("t", lambda a: Item("s", a.qty + 1), args_schema=Item, plugin_manager=PM)
    assert fn.execute({"sku": "s", "qty": 1}) == tp.Ok('{"sku": "s", "qty": 2}')


# -- from_signature ------------------------------------------------------------


def test_from_signature_builds_an_accepted_dataclass() -> None:
    params = [
        tp.SignatureParam("city", str, description="the city"),
        tp.SignatureParam("days", int, default=3),
        tp.SignatureParam("units", Literal["c", "f"]),  # required after an optional one
        tp.SignatureParam("tags", list[str], default=[]),
        tp.SignatureParam("anything", Any),
    ]
    source = ADAPTER.from_signature("get_weather", params)
    assert ADAPTER.accepts(source)
    assert source.__name__ == "GetWeatherArguments"
    schema = schema_of(source)
    assert schema == {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "the city"},
            "days": {"type": "integer", "default": 3},
            "units": {"type": "string", "enum": ["c", "f"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "anything": {},
        },
        "required": ["city", "units", "anything"],
        "additionalProperties": False,
    }
    fn = function(source)
    first = fn.parse_arguments({"city": "Oslo", "units": "c", "anything": [1]})
    assert isinstance(first, tp.Ok)
    assert ADAPTER.keywords(first.value) == {
        "city": "Oslo",
        "days": 3,
        "units": "c",
        "tags": [],
        "anything": [1],
    }
    first.value.tags.append("changed")
    second = fn.parse_arguments({"city": "Oslo", "units": "c", "anything": None})
    assert second.value.tags == []  # a mutable default is copied per call
    assert "days: must be an integer (received true)" in lines(
        fn.parse_arguments({"city": "Oslo", "units": "c", "anything": 1, "days": True})
    )


def test_from_signature_with_no_parameters() -> None:
    source = ADAPTER.from_signature("ping", [])
    assert schema_of(source) == {
        "type": "object",
        "properties": {},
        "additionalProperties": False,
    }
    assert function(source).parse_arguments({}) == tp.Ok(source())


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("get_weather", "GetWeatherArguments"),
        ("search-v2", "SearchV2Arguments"),
        ("9", "Tool9Arguments"),
        ("__", "ToolArguments"),
    ],
)
def test_from_signature_class_names(name: str, expected: str) -> None:
    assert ADAPTER.from_signature(name, []).__name__ == expected


def test_keywords_leave_out_fields_init_does_not_take() -> None:
    @dataclass
    class Model:
        a: int
        b: int = field(init=False, default=0)

    assert ADAPTER.keywords(Model(1)) == {"a": 1}
    assert ADAPTER.keywords({"a": 1}) == {"a": 1}


def test_keywords_of_many_classes_each_its_own_fields() -> None:
    # more classes than the adapter keeps the fields of: each still gets its own, twice
    models = [make_dataclass(f"M{i}", [(f"f{i}", int), ("shared", int)]) for i in range(1500)]
    for _ in range(2):
        for i, model in enumerate(models):
            assert ADAPTER.keywords(model(**{f"f{i}": i, "shared": 0})) == {f"f{i}": i, "shared": 0}
    assert ADAPTER.keywords({"f0": 0}) == {"f0": 0}  # a TypedDict's value, once its class is known


# -- arbitrary JSON never crashes the parser -----------------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["sku", "qty", "label", "children", "x", "f"]) | st.text(max_size=3),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@dataclass
class Everything:
    a: Union[int, str, None]
    b: list[Item]
    c: dict[str, tuple[int, Optional[Unit]]]
    d: Tree
    e: Literal["x", 1, None] = None
    f: Person | list[float] | None = None


PARSERS: list[Callable[[dict[str, Any]], tp.ParseResult]] = [
    ADAPTER.parser(source) for source in (Everything, Order, Person, Tree)
]


@settings(max_examples=50, deadline=None, database=None)
@given(
    st.dictionaries(
        st.sampled_from(["a", "b", "c", "d", "e", "f", "customer", "items", "name"])
        | st.text(max_size=3),
        _JSON,
        max_size=6,
    )
)
def test_arbitrary_json_is_ok_or_error(arguments: dict[str, Any]) -> None:
    for parse in PARSERS:
        result = parse(arguments)
        assert type(result) in (tp.Ok, tp.Error)
        if isinstance(result, tp.Error):
            assert result.message.startswith("Invalid arguments for this tool.")
            assert len(result.message) <= 2000


@settings(max_examples=25, deadline=None, database=None)
@given(
    st.recursive(
        st.fixed_dictionaries({"label": st.text(max_size=3)}),
        lambda inner: st.fixed_dictionaries(
            {"label": st.text(max_size=3), "children": st.lists(inner, max_size=3)}
        ),
        max_leaves=10,
    )
)
def test_recursive_schema_and_parser_agree(tree: dict[str, Any]) -> None:
    jsonschema.validate(tree, schema_of(Tree))
    result = function(Tree).parse_arguments(tree)
    assert isinstance(result, tp.Ok)
    assert ADAPTER.serialize(result.value) is not None
    assert _with_defaults(json.loads(ADAPTER.serialize(result.value) or "")) == _with_defaults(tree)


def _with_defaults(tree: dict[str, Any]) -> dict[str, Any]:
    return {
        "label": tree["label"],
        "children": [_with_defaults(c) for c in tree.get("children", [])],
    }


# -- thousands of wrong items: the first problems kept, the rest counted ------------


class _Many(TypedDict):
    owner: str
    ids: list[int]
    rows: list[dict[str, int]]


def test_thousands_of_wrong_items_keep_the_first_problems_and_count_the_rest() -> None:
    fn = tp.Function("t", lambda a: "ok", args_schema=_Many, adapter="plain")
    n = 3 * MAX_PROBLEMS
    result = fn.execute({"ids": ["x"] * n, "rows": [{"a": "y"}] * n, "zz": 1})
    assert isinstance(result, tp.Error)
    lines = result.message.splitlines()
    assert lines[2] == 'ids[0]: must be an integer (received "x")'
    # every wrong item is counted, the top-level names are never among the counted
    assert f"... and {2 * n - 20} more" in lines
    assert "Missing parameters: owner" in lines
    assert "Unrecognized parameters: zz" in lines
    exc = result.exception
    assert isinstance(exc, tp.InvalidArguments)
    assert len(exc.problems) <= 2 * MAX_PROBLEMS + 2
    assert len(exc.problems) - 2 + exc.more == 2 * n
    # the first ones, in order
    assert [p.path for p in exc.problems if p.path[0] == "ids"] == [
        ("ids", i) for i in range(MAX_PROBLEMS)
    ]


def test_a_nested_object_with_thousands_of_unknown_keys_is_counted_too() -> None:
    @dataclass
    class Holder:
        item: Item

    fn = tp.Function("t", lambda a: "ok", args_schema=Holder, adapter="plain")
    sent = {"item": {"qty": 1, **{f"k{i}": 1 for i in range(2 * MAX_PROBLEMS)}}}
    result = fn.execute(sent)
    assert isinstance(result, tp.Error)
    assert f"... and {2 * MAX_PROBLEMS - 20 + 1} more" in result.message.splitlines()
    assert isinstance(result.exception, tp.InvalidArguments)
    assert len(result.exception.problems) <= MAX_PROBLEMS
