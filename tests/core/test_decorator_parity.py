"""@tool parity with langchain_core: the same function gives the same schema.

For every signature below, the schema toolparse exports with the pydantic adapter
(``adapter="pydantic"``; the default is the built-in adapter, installed or not) has the same properties, types, required set,
descriptions, defaults and constraints as ``convert_to_openai_tool`` of
langchain_core's ``@tool`` for the same function. The plain adapter (no
third-party library) is held to the same properties, types and required set
for the signatures it supports.

Intended differences, each checked by a test here:

- the pydantic adapter keeps nested models under ``$defs`` and refers to them
  with ``$ref``; ``convert_to_openai_tool`` inlines them. The comparison
  resolves references first: the structure is the same.
- the plain adapter closes every object (``additionalProperties: false``) and
  reads only descriptions from ``Annotated`` (no pydantic ``Field``
  constraints such as ``ge``).
- a parameter annotated ``tp.Context`` is never in the schema, as langchain's
  ``InjectedToolArg`` parameters are not.
"""

from __future__ import annotations

import datetime
import enum
from collections.abc import Callable
from typing import Annotated, Any, Literal, Optional, Union

import pytest

pytest.importorskip("pydantic")
pytest.importorskip("langchain_core")
# pydantic needs typing_extensions' TypedDict before Python 3.12 (and brings it along)
from langchain_core.tools import InjectedToolArg
from langchain_core.tools import tool as lc_tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

import toolparse as tp


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Priority(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Item(BaseModel):
    """An item of the order."""

    name: str
    qty: int = 1


class Address(BaseModel):
    street: str
    zip_code: str | None = None


class Point(TypedDict):
    x: int
    y: int


# Each function has a one-line docstring, so both libraries give the same
# description (see test_description_matches).


def scalars(a: str, b: int, c: float, d: bool) -> str:
    """Scalars."""
    return a


def defaults(a: str = "x", b: int = 3, c: float = 0.5, d: bool = False) -> str:
    """Defaults."""
    return a


def optional_default(city: str, country: str | None = None) -> str:
    """Optional with a default."""
    return city


def optional_required(limit: Optional[int]) -> str:  # noqa: UP045 - the typing.Optional spelling is a case of its own
    """Optional without a default: required, but may be null."""
    return str(limit)


def literal_str(unit: Literal["celsius", "fahrenheit"]) -> str:
    """Literal of strings."""
    return unit


def literal_int(mode: Literal[1, 2, 3] = 1) -> str:
    """Literal of integers."""
    return str(mode)


def str_enum(color: Color) -> str:
    """A string enum."""
    return str(color)


def int_enum(priority: Priority = Priority.LOW) -> str:
    """An integer enum."""
    return str(priority)


def list_of_str(tags: list[str], ids: list[int] | None = None) -> str:
    """Lists of scalars."""
    return ",".join(tags)


def list_of_models(items: list[Item]) -> str:
    """A list of models."""
    return str(items)


def nested_model(address: Address, billing: Address | None = None) -> str:
    """A nested model."""
    return str(address)


def annotated_text(query: Annotated[str, "What to search for"]) -> str:
    """Annotated with a description."""
    return query


def annotated_field(
    count: Annotated[int, Field(description="How many results", ge=1, le=50)] = 10,
) -> str:
    """Annotated with a pydantic Field."""
    return str(count)


def unions(value: int | str, extra: Union[int, str, None] = None) -> str:  # noqa: UP007 - the typing.Union spelling is a case of its own
    """Unions."""
    return str(value)


def mappings(weights: dict[str, float]) -> str:
    """A mapping."""
    return str(weights)


def untyped(x, y: Any = None) -> str:  # type: ignore[no-untyped-def]
    """No annotations: anything goes."""
    return str(x)


def dates(day: datetime.date, at: datetime.datetime | None = None) -> str:
    """Dates and times."""
    return str(day)


def typed_dict(point: Point) -> str:
    """A TypedDict argument."""
    return str(point)


def tuples(pair: tuple[int, str]) -> str:
    """A fixed tuple."""
    return str(pair)


def google_docstring(city: str, days: int = 1) -> str:
    """Get the forecast.

    Args:
        city: The city name.
        days: How many days ahead.
    """
    return city


def docstring_over_annotated(
    q: Annotated[str, "from Annotated"], n: Annotated[int, "kept"] = 1
) -> str:
    """Docstring and Annotated.

    Args:
        q: from the docstring
    """
    return q


PARSE_DOCSTRING = {google_docstring, docstring_over_annotated}

SIGNATURES: list[Callable[..., Any]] = [
    scalars,
    defaults,
    optional_default,
    optional_required,
    literal_str,
    literal_int,
    str_enum,
    int_enum,
    list_of_str,
    list_of_models,
    nested_model,
    annotated_text,
    annotated_field,
    unions,
    mappings,
    untyped,
    dates,
    typed_dict,
    tuples,
    google_docstring,
    docstring_over_annotated,
]

# what the plain adapter does not describe: pydantic models and pydantic
# Field constraints are pydantic's (it still reads their descriptions)
PLAIN_UNSUPPORTED = {list_of_models, nested_model, dates}


def _resolve(schema: Any, defs: dict[str, Any]) -> Any:
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if isinstance(ref, str):
        target = defs[ref.rsplit("/", 1)[-1]]
        return {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


_KEPT = (
    "type",
    "enum",
    "const",
    "format",
    "description",
    "default",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
)
_TYPES = ("type", "enum", "const")


def canon(schema: Any, defs: dict[str, Any], keys: tuple[str, ...] = _KEPT) -> Any:
    """The comparable shape of a schema: references resolved, titles dropped."""
    schema = _resolve(schema, defs)
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {k: schema[k] for k in keys if k in schema}
    if isinstance(schema.get("items"), dict):
        out["items"] = canon(schema["items"], defs, keys)
    if "prefixItems" in schema:
        out["prefixItems"] = [canon(s, defs, keys) for s in schema["prefixItems"]]
    if isinstance(schema.get("properties"), dict):
        out["properties"] = {k: canon(v, defs, keys) for k, v in schema["properties"].items()}
        out["required"] = sorted(schema.get("required", []))
    if isinstance(schema.get("additionalProperties"), dict):
        out["additionalProperties"] = canon(schema["additionalProperties"], defs, keys)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            out[key] = [canon(s, defs, keys) for s in schema[key]]
    return out


def langchain_parameters(fn: Callable[..., Any]) -> dict[str, Any]:
    made = lc_tool(fn, parse_docstring=fn in PARSE_DOCSTRING)
    return convert_to_openai_tool(made)["function"]["parameters"]  # type: ignore[no-any-return]


def top(schema: dict[str, Any], keys: tuple[str, ...] = _KEPT) -> dict[str, Any]:
    defs = schema.get("$defs", {})
    return {
        "properties": {k: canon(v, defs, keys) for k, v in schema.get("properties", {}).items()},
        "required": sorted(schema.get("required", [])),
    }


def test_the_suite_is_large_enough() -> None:
    assert len(SIGNATURES) >= 15


@pytest.mark.parametrize("fn", SIGNATURES, ids=lambda f: f.__name__)
def test_pydantic_schema_matches_langchain(fn: Callable[..., Any]) -> None:
    mine = tp.tool(fn, parse_docstring=fn in PARSE_DOCSTRING, adapter="pydantic")
    assert mine.adapter is not None
    assert mine.adapter.name == "pydantic"
    theirs = langchain_parameters(fn)
    assert top(mine.json_schema()) == top(theirs)
    assert mine.required_param_names() == [
        n for n in theirs["properties"] if n in theirs.get("required", [])
    ]
    assert mine.accepted_param_names() == list(theirs["properties"])


@pytest.mark.parametrize(
    "fn", [f for f in SIGNATURES if f not in PLAIN_UNSUPPORTED], ids=lambda f: f.__name__
)
def test_plain_schema_matches_langchain_types(fn: Callable[..., Any], pm: tp.PluginManager) -> None:
    # adapter="plain" on purpose: a signature with pydantic's Field is pydantic's by default
    mine = tp.tool(fn, parse_docstring=fn in PARSE_DOCSTRING, plugin_manager=pm, adapter="plain")
    assert mine.adapter is not None
    assert mine.adapter.name == "plain"
    schema = mine.json_schema()
    # intended difference: the plain adapter closes every object
    assert schema["additionalProperties"] is False
    assert top(schema, _TYPES) == top(langchain_parameters(fn), _TYPES)


@pytest.mark.parametrize("fn", SIGNATURES, ids=lambda f: f.__name__)
def test_description_matches(fn: Callable[..., Any]) -> None:
    mine = tp.tool(fn, parse_docstring=fn in PARSE_DOCSTRING, adapter="pydantic")
    made = lc_tool(fn, parse_docstring=fn in PARSE_DOCSTRING)
    assert mine.description == convert_to_openai_tool(made)["function"]["description"]


def test_nested_models_are_references_resolving_to_langchains_inlined_schema() -> None:
    schema = tp.tool(list_of_models, adapter="pydantic").json_schema()
    assert schema["properties"]["items"]["items"] == {"$ref": "#/$defs/Item"}
    inlined = langchain_parameters(list_of_models)["properties"]["items"]["items"]
    assert canon(schema["$defs"]["Item"], {}) == canon(inlined, {})


def test_plain_adapter_asked_for_reads_only_the_description_of_a_pydantic_field(
    pm: tp.PluginManager,
) -> None:
    schema = tp.tool(annotated_field, plugin_manager=pm, adapter="plain").json_schema()
    assert schema["properties"]["count"] == {
        "type": "integer",
        "description": "How many results",
        "default": 10,
    }


def test_context_is_left_out_like_langchains_injected_arguments() -> None:
    def mine(city: str, ctx: tp.Context) -> str:
        """Weather."""
        return city

    def theirs(city: str, ctx: Annotated[dict[str, Any], InjectedToolArg]) -> str:
        """Weather."""
        return city

    assert top(tp.tool(mine).json_schema()) == top(langchain_parameters(theirs))
    assert "ctx" not in tp.tool(mine).accepted_param_names()


@pytest.mark.parametrize(
    "fn", [scalars, optional_default, literal_str, list_of_models], ids=lambda f: f.__name__
)
def test_arguments_langchain_accepts_are_accepted(fn: Callable[..., Any]) -> None:
    samples: dict[Callable[..., Any], dict[str, Any]] = {
        scalars: {"a": "x", "b": 2, "c": 1.5, "d": True},
        optional_default: {"city": "Paris"},
        literal_str: {"unit": "celsius"},
        list_of_models: {"items": [{"name": "pen", "qty": 2}]},
    }
    arguments = samples[fn]
    expected = lc_tool(fn).invoke(arguments)
    assert tp.tool(fn).execute(arguments) == tp.Ok(expected)
