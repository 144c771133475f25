"""Tools pickle (protocols 2 and 5, and cloudpickle), and a loaded tool is the same tool.

Three places a tool can be made, for every kind of definition (FunctionParams, a raw
schema, ``@tool``, and each adapter's source):

- ``module``: a Function this module holds goes as a reference to that attribute
  (its pickle names nothing but the attribute);
- ``built``: a Function made at run time from module-level pieces goes as its definition;
- ``local``: lambdas, closures and classes defined in a function go by value with
  cloudpickle, and are loaded here in a fresh interpreter.
"""

from __future__ import annotations

import importlib.util
import io
import json
import pathlib
import pickle
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

import toolparse as tp

try:
    import cloudpickle
except ImportError:  # the core's own environment: the cloudpickle cases skip
    cloudpickle = None


def _installed(adapter: str) -> bool:
    return importlib.util.find_spec(f"toolparse_{adapter}") is not None


#: every way of pickling: protocol 2, protocol 5, cloudpickle
PICKLERS: dict[str, Callable[[Any], bytes]] = {
    "pickle2": lambda value: pickle.dumps(value, 2),
    "pickle5": lambda value: pickle.dumps(value, 5),
    "cloudpickle": lambda value: cloudpickle.dumps(value),
}

#: the calls every loaded tool must answer as the original does: valid, invalid, unknown keys
CALLS: list[Any] = [
    {"city": "Oslo", "days": 2},
    {"city": "Oslo"},
    {"city": 3},
    {},
    {"city": "Oslo", "dayz": 1},
    '{"city": "Lima", "days": 3}',
    '{"city": ',
    None,
    [1],
]

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
    "required": ["city"],
    "additionalProperties": False,
}

#: the attributes a loaded Function must have equal to the original's
FIELDS = (
    "name",
    "function",
    "description",
    "parameters",
    "parameters_schema",
    "args_schema",
    "parse_args",
    "concurrent",
    "strict",
    "display_text",
    "options",
    "unknown_arguments",
    "return_direct",
    "repair",
    "limits",
    "adapter",
)


def _body(arguments: Any) -> str:
    return repr(arguments)


PARAMS = [tp.FunctionParam("city", "string", required=True), tp.FunctionParam("days", "integer")]

#: the keyword arguments of ``Function`` per kind of definition (module-level pieces)
SOURCES: dict[str, dict[str, Any]] = {
    "params": {"parameters": PARAMS, "description": "Weather.", "strict": True},
    "raw": {"parameters_schema": SCHEMA, "unknown_arguments": "reject", "repair": None},
}

if _installed("pydantic"):
    import pydantic

    class Place(pydantic.BaseModel):
        """Where and for how long."""

        city: str
        days: int = pydantic.Field(default=1, ge=1)

    SOURCES["pydantic"] = {"args_schema": Place, "options": {"cache_control": True}}

if _installed("marshmallow"):
    import marshmallow

    class PlaceSchema(marshmallow.Schema):
        city = marshmallow.fields.String(required=True)
        days = marshmallow.fields.Integer(validate=marshmallow.validate.Range(min=1))

    SOURCES["marshmallow"] = {"args_schema": PlaceSchema, "display_text": "Weather"}

if _installed("attrs"):
    import attrs

    @attrs.define
    class PlaceAttrs:
        city: str
        days: int = attrs.field(default=1, validator=attrs.validators.ge(1))

    SOURCES["attrs"] = {"args_schema": PlaceAttrs, "limits": tp.Limits(max_bytes=4096)}

if _installed("jsonschema"):
    SOURCES["jsonschema"] = {"args_schema": SCHEMA, "concurrent": True}


@tp.tool
def forecast(city: str, days: int = 1) -> str:
    """The forecast for a city."""
    return f"{city}:{days}"


#: a Function this module holds, per kind: each pickles as a reference to its attribute
by_params = tp.Function("by_params", _body, **SOURCES["params"])
by_raw = tp.Function("by_raw", _body, **SOURCES["raw"])
HELD: dict[str, tp.Function] = {"params": by_params, "raw": by_raw, "tool": forecast}
for _kind, _given in SOURCES.items():
    if _kind not in HELD:
        globals()[f"by_{_kind}"] = HELD[_kind] = tp.Function(f"by_{_kind}", _body, **_given)


def _answers(fn: tp.Function) -> list[tuple[str, Any]]:
    """What ``fn`` answers to each of :data:`CALLS`: the outcome's kind and text."""
    return [(type(o).__name__, o[0]) for o in map(fn.execute, CALLS)]


def _introspection(fn: tp.Function) -> tuple[Any, ...]:
    return (fn.json_schema(), fn.required_param_names(), fn.accepted_param_names(), repr(fn))


def _pickler(name: str) -> Callable[[Any], bytes]:
    if name == "cloudpickle" and cloudpickle is None:
        pytest.skip("cloudpickle is not installed")
    return PICKLERS[name]


class _Globals(pickle.Unpickler):
    """An unpickler that notes every global a pickle names."""

    def __init__(self, data: bytes) -> None:
        super().__init__(io.BytesIO(data))
        self.named: list[tuple[str, str]] = []

    def find_class(self, module: str, name: str) -> Any:
        self.named.append((module, name))
        return super().find_class(module, name)


@pytest.mark.parametrize("pickler", list(PICKLERS))
@pytest.mark.parametrize("kind", list(HELD))
def test_a_module_level_tool_pickles_as_a_reference(kind: str, pickler: str) -> None:
    fn = HELD[kind]
    data = _pickler(pickler)(fn)
    reader = _Globals(data)
    assert reader.load() is fn
    # no code, no schema, no closure: the attribute's module and name only
    assert reader.named == [("toolparse.function._function", "_attribute")]
    assert __name__.encode() in data


@pytest.mark.parametrize("pickler", list(PICKLERS))
@pytest.mark.parametrize("kind", list(SOURCES))
def test_a_tool_built_at_run_time_pickles_as_its_definition(kind: str, pickler: str) -> None:
    fn = tp.Function("built", _body, **SOURCES[kind])
    loaded = pickle.loads(_pickler(pickler)(fn))
    assert loaded is not fn
    for field in FIELDS:
        assert getattr(loaded, field) == getattr(fn, field), field
    assert _introspection(loaded) == _introspection(fn)
    assert _answers(loaded) == _answers(fn)
    # the steps are compiled again on load, not carried: a pickle of the loaded one is the same
    assert pickle.loads(_pickler(pickler)(loaded)).json_schema() == fn.json_schema()


@pytest.mark.parametrize("pickler", list(PICKLERS))
def test_a_toolset_pickles_as_its_tools(pickler: str) -> None:
    toolset = tp.Toolset([*HELD.values(), tp.Function("built", _body, **SOURCES["params"])])
    loaded = pickle.loads(_pickler(pickler)(toolset))
    assert loaded.names() == toolset.names()
    assert loaded.get("forecast") is forecast  # module-level tools stay the same objects
    assert _answers(loaded.get("built")) == _answers(toolset.get("built"))  # type: ignore[arg-type]
    calls = [tp.ToolCall(str(i), "by_params", c) for i, c in enumerate(CALLS)]
    assert loaded.execute(calls) == toolset.execute(calls)


def test_a_tool_in_a_module_cloudpickle_sends_by_value_goes_by_value() -> None:
    if cloudpickle is None:
        pytest.skip("cloudpickle is not installed")
    module = sys.modules[__name__]
    cloudpickle.register_pickle_by_value(module)
    try:
        data = cloudpickle.dumps(forecast)
    finally:
        cloudpickle.unregister_pickle_by_value(module)
    reader = _Globals(data)
    loaded = reader.load()
    assert loaded is not forecast
    assert ("toolparse.function._function", "_attribute") not in reader.named
    assert _answers(loaded) == _answers(forecast)


@pytest.mark.parametrize("pickler", list(PICKLERS))
def test_what_a_call_gives_back_pickles(pickler: str) -> None:
    dumps = _pickler(pickler)
    calls = [tp.ToolCall(str(i), "by_raw", c) for i, c in enumerate(CALLS)]
    calls.append(tp.ToolCall("x", "nowhere", {}))
    results = tp.execute_tool_calls(list(HELD.values()), calls)
    checks = list(tp.check_calls(list(HELD.values()), [*calls, "not json"]))
    outcomes = [by_raw.execute(c) for c in CALLS]
    for value in [*calls, *results, *checks, tp.CheckSummary.of(checks)]:
        assert pickle.loads(dumps(value)) == value
    for outcome in outcomes:
        again = pickle.loads(dumps(outcome))
        assert type(again) is type(outcome)
        assert again[0] == outcome[0]


# -- tools made in a function: by value, with cloudpickle -------------------------------


def _local_tools() -> dict[str, tp.Function]:
    """One tool per kind, with everything defined here: lambdas, closures, local classes."""
    suffix = "!"  # a closure's cell travels with it

    def body(arguments: Any) -> str:
        return repr(arguments) + suffix

    @tp.tool
    def local_forecast(city: str, days: int = 1) -> str:
        """The forecast for a city."""
        return f"{city}:{days}{suffix}"

    given: dict[str, dict[str, Any]] = {
        "params": {"parameters": [tp.FunctionParam("city", "string", required=True)]},
        "raw": {"parameters_schema": dict(SCHEMA)},
    }
    if "pydantic" in SOURCES:

        class LocalPlace(pydantic.BaseModel):
            city: str
            days: int = pydantic.Field(default=1, ge=1)

        given["pydantic"] = {"args_schema": LocalPlace}
    if "marshmallow" in SOURCES:

        class LocalSchema(marshmallow.Schema):
            city = marshmallow.fields.String(required=True)
            days = marshmallow.fields.Integer(validate=marshmallow.validate.Range(min=1))

        given["marshmallow"] = {"args_schema": LocalSchema}
    if "attrs" in SOURCES:

        @attrs.define
        class LocalAttrs:
            city: str
            days: int = attrs.field(default=1, validator=attrs.validators.ge(1))

        given["attrs"] = {"args_schema": LocalAttrs}
    if "jsonschema" in SOURCES:
        given["jsonschema"] = {"args_schema": dict(SCHEMA)}
    tools = {kind: tp.Function(f"local_{kind}", body, **g) for kind, g in given.items()}
    tools["lambda"] = tp.Function("lambda", lambda a: f"got {a}", parameters=PARAMS)
    tools["tool"] = local_forecast
    return tools


#: run in a fresh interpreter: load the tools from stdin and answer every call
LOADER = """
import json, pickle, sys
from tests.core.test_pickling import CALLS
tools = pickle.loads(sys.stdin.buffer.read())
out = {}
for kind, fn in tools.items():
    answers = [[type(o).__name__, o[0]] for o in map(fn.execute, CALLS)]
    out[kind] = {
        "answers": answers,
        "schema": fn.json_schema(),
        "fields": [fn.name, fn.description, fn.function.__qualname__, fn.adapter and fn.adapter.name],
    }
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def loaded_elsewhere() -> dict[str, Any]:
    """The local tools, cloudpickled here and answered by another interpreter."""
    if cloudpickle is None:
        pytest.skip("cloudpickle is not installed")
    done = subprocess.run(
        [sys.executable, "-c", LOADER],
        input=cloudpickle.dumps(_local_tools()),
        capture_output=True,
        timeout=120,
        check=True,
        cwd=pathlib.Path(__file__).parents[2],  # where ``tests`` is a package to import
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


KINDS = ["params", "raw", "lambda", "tool", *(k for k in SOURCES if k not in ("params", "raw"))]


@pytest.mark.parametrize("kind", KINDS)
def test_a_local_tool_goes_by_value_with_cloudpickle(
    kind: str, loaded_elsewhere: dict[str, Any]
) -> None:
    if kind not in loaded_elsewhere:
        pytest.skip(f"the {kind} adapter is not installed")
    fn = _local_tools()[kind]
    found = loaded_elsewhere[kind]
    assert found["answers"] == json.loads(json.dumps(_answers(fn)))
    assert found["schema"] == fn.json_schema()
    adapter = fn.adapter.name if fn.adapter else None
    assert found["fields"] == [fn.name, fn.description, fn.function.__qualname__, adapter]


def test_a_local_tool_does_not_pickle_without_cloudpickle() -> None:
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        pickle.dumps(_local_tools()["tool"])


@pytest.mark.parametrize("pickler", list(PICKLERS))
def test_a_repair_left_at_its_default_is_still_the_toolsets_to_set(pickler: str) -> None:
    # a Toolset's repair= reaches the tools that did not choose one: a loaded copy did not either
    chose = tp.Function("chose", _body, parameters=PARAMS, repair="safe")
    left = tp.Function("left", _body, parameters=PARAMS)
    loaded = [pickle.loads(_pickler(pickler)(fn)) for fn in (chose, left)]
    assert [fn.repair for fn in tp.Toolset(loaded, repair=None)] == ["safe", None]
