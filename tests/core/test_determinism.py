"""The same definition behaves the same whatever else is installed.

The same tools (a dataclass, a ``typing.TypedDict``, a ``@tool`` signature) and
the same calls run in two interpreters: one with the core alone
(``TOOLPARSE_DISABLE_PLUGIN_AUTOLOAD=1``) and one with every installed adapter
loaded. Schemas, chosen adapters and every outcome must be equal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

import toolparse as tp

SCRIPT = r'''
import dataclasses
import json
import typing

import toolparse as tp


@dataclasses.dataclass
class Plan:
    city: str
    days: int = 1


class Trip(typing.TypedDict):
    city: str
    nights: int
    tags: typing.NotRequired[list[str]]


@dataclasses.dataclass
class Leg:
    start: str
    stops: list[Trip]


def plan(city: str, days: int = 1, units: typing.Literal["c", "f"] = "c") -> str:
    """Plan a trip."""
    return f"{city}:{days}:{units}"


tools = [
    tp.Function("plan_dc", lambda a: repr(a), args_schema=Plan),
    tp.Function("trip", lambda a: json.dumps(a, sort_keys=True), args_schema=Trip),
    tp.Function("leg", lambda a: repr(a), args_schema=Leg),
    tp.tool(plan),
]
calls = [
    {"city": "Oslo"},
    {"city": "Oslo", "days": 3},
    {"city": "Oslo", "days": "3"},
    {"city": "Oslo", "days": 2.5},
    {"city": "Oslo", "days": True},
    {"city": "Oslo", "extra": 1},
    {"cty": "Oslo"},
    {"city": 42, "units": "kelvin"},
    {"city": "Oslo", "nights": 2, "tags": ["a", 3]},
    {"city": "Oslo", "nights": "2"},
    {"start": "A", "stops": [{"city": "B", "nights": 1}, {"city": 3, "nights": 1, "x": 0}]},
    {},
]
report = {}
for fn in tools:
    rows = []
    for call in calls:
        out = fn.execute(call)
        rows.append([type(out).__name__, out.message if isinstance(out, tp.Error) else out.value])
    report[fn.name] = {"adapter": fn.adapter.name, "schema": fn.json_schema(), "calls": rows}
print(json.dumps(report, sort_keys=True))
'''


def _run(core_only: bool) -> dict[str, Any]:
    env = dict(os.environ)
    env.pop("TOOLPARSE_DISABLE_PLUGIN_AUTOLOAD", None)
    if core_only:
        env["TOOLPARSE_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def _loaded_adapters(core_only: bool) -> list[str]:
    code = "import toolparse as tp; print(sorted(a.name for a in tp.plugin_manager().adapters()))"
    env = dict(os.environ)
    env.pop("TOOLPARSE_DISABLE_PLUGIN_AUTOLOAD", None)
    if core_only:
        env["TOOLPARSE_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    names: list[str] = json.loads(out.stdout.replace("'", '"'))
    return names


def test_the_same_tools_behave_the_same_core_only_and_with_every_adapter() -> None:
    # the comparison means something only when the two interpreters differ
    assert _loaded_adapters(core_only=True) == ["plain"]
    if len(_loaded_adapters(core_only=False)) == 1:
        pytest.skip("no adapter is installed: both interpreters are core-only")
    core, full = _run(core_only=True), _run(core_only=False)
    assert core == full
    # and what both do is the built-in adapter's strict, closed validation
    assert {t["adapter"] for t in core.values()} == {"plain"}
    assert core["plan_dc"]["schema"]["additionalProperties"] is False
    days_as_text = core["plan"]["calls"][2]
    assert days_as_text[0] == "Error"
    assert 'days: must be an integer (received "3")' in days_as_text[1]
    assert core["trip"]["calls"][0][0] == "Error"  # nights is required


# the cases below need pydantic; the comparison above runs in any environment
try:
    import pydantic
except ImportError:  # pragma: no cover - a core-only environment
    pydantic = None

needs_pydantic = pytest.mark.skipif(pydantic is None, reason="pydantic is not installed")

if pydantic is not None:

    class Address(pydantic.BaseModel):
        street: str
        zip_code: int

    def ship(to: Address, copies: int = 1) -> str:
        """Ship a parcel."""
        return f"{type(to).__name__}:{to.street}:{copies}"


@needs_pydantic
def test_a_parameter_typed_with_a_pydantic_model_is_validated_by_pydantic() -> None:
    fn = tp.tool(ship)
    assert fn.adapter is not None
    assert fn.adapter.name == "plain"  # the signature is the core's ...
    schema = fn.json_schema()
    assert schema["additionalProperties"] is False
    assert schema["properties"]["to"]["properties"]["zip_code"] == {"type": "integer"}
    # ... the model's field is pydantic's, and the body gets the model
    assert fn.execute({"to": {"street": "Main", "zip_code": 1}}) == tp.Ok("Address:Main:1")
    out = fn.execute({"to": {"street": "Main", "zip_code": "x"}, "copies": "2"})
    assert isinstance(out, tp.Error)
    assert "copies: must be an integer" in out.message
    assert "to.zip_code:" in out.message
    assert "to: must be an object (received 5)" in fn.execute({"to": 5}).message  # type: ignore[union-attr]
    assert "to.street:" in fn.execute({"to": {"zip_code": 1}}).message  # type: ignore[union-attr]


@needs_pydantic
def test_a_dataclass_field_typed_with_a_pydantic_model_is_validated_by_pydantic() -> None:
    import dataclasses

    @dataclasses.dataclass
    class Order:
        address: Address
        note: str = ""

    fn = tp.Function("order", lambda a: a.address.street, args_schema=Order)
    assert fn.adapter is not None
    assert fn.adapter.name == "plain"
    assert fn.execute({"address": {"street": "Main", "zip_code": 1}}) == tp.Ok("Main")
    out = fn.execute({"address": {"street": 1, "zip_code": 1}})
    assert isinstance(out, tp.Error)
    assert "address.street:" in out.message
