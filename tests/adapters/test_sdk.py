"""The adapter SDK (``toolparse.adapter``): what every adapter shares."""

from __future__ import annotations

import dataclasses
import re
import uuid
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse.adapter import (
    JSON_TYPES,
    POLICIES,
    UUID_PATTERN,
    Compiled,
    check_policy,
    keywords,
)


class Slotted:
    __slots__ = ("city", "days")

    def __init__(self, city: str, days: int) -> None:
        self.city = city
        self.days = days


class SlottedChild(Slotted):
    __slots__ = ("unit",)

    def __init__(self, city: str, days: int, unit: str) -> None:
        super().__init__(city, days)
        self.unit = unit


class SlottedWithDict:
    __slots__ = ("__dict__", "city")

    def __init__(self) -> None:
        self.city = "Oslo"
        self.extra = 1


class OneSlot:
    __slots__ = "city"  # a single string is a valid __slots__ too

    def __init__(self) -> None:
        self.city = "Oslo"


class Unassigned:
    __slots__ = ("city", "days")

    def __init__(self) -> None:
        self.city = "Oslo"


@dataclasses.dataclass
class Plain:
    city: str
    days: int = 1


class Attributes:
    def __init__(self) -> None:
        self.city = "Oslo"


def test_keywords_of_a_slotted_instance() -> None:
    assert keywords(Slotted("Oslo", 3)) == {"city": "Oslo", "days": 3}
    assert keywords(SlottedChild("Oslo", 3, "C")) == {"city": "Oslo", "days": 3, "unit": "C"}
    assert keywords(SlottedWithDict()) == {"city": "Oslo", "extra": 1}
    assert keywords(OneSlot()) == {"city": "Oslo"}
    # a slot never assigned has no value: it is left out, not an AttributeError
    assert keywords(Unassigned()) == {"city": "Oslo"}


def test_keywords_of_mappings_dataclasses_and_plain_objects() -> None:
    assert keywords({"city": "Oslo"}) == {"city": "Oslo"}
    assert keywords(Plain("Oslo")) == {"city": "Oslo", "days": 1}
    assert keywords(Attributes()) == {"city": "Oslo"}


def test_a_tool_body_takes_a_slotted_parsed_value_as_keywords(pm: tp.PluginManager) -> None:
    class Adapter:
        name = "slotted"

        def accepts(self, source: object) -> bool:
            return source == "slotted-model"

        def compile(self, source: Any, **options: Any) -> Compiled:
            schema = {
                "type": "object",
                "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            }
            return Compiled(schema, lambda a: tp.ok(Slotted(a["city"], a["days"])))

        json_schema = parser = None

    class Plugin:
        @tp.hookimpl
        def toolparse_register_adapters(self, register: Any) -> None:
            register(Adapter())

    pm.register(Plugin())

    @tp.tool("weather", args_schema="slotted-model", plugin_manager=pm)
    def weather(city: str, days: int) -> str:
        """Say the forecast."""
        return f"{city} for {days} days"

    assert weather.execute({"city": "Oslo", "days": 2}) == tp.Ok("Oslo for 2 days")


def test_the_policies_and_their_check() -> None:
    assert POLICIES == ("report", "reject", "ignore")
    for policy in POLICIES:
        assert check_policy(policy) == policy
    with pytest.raises(ValueError, match="must be one of 'report', 'reject', 'ignore', got 'drop'"):
        check_policy("drop")


def test_the_json_type_table_names_every_json_leaf() -> None:
    assert {
        str: "string",
        int: "integer",
        float: "number",
        bool: "boolean",
        type(None): "null",
    } == JSON_TYPES


@settings(max_examples=50, deadline=None)
@given(st.uuids())
def test_the_uuid_pattern_takes_the_canonical_form(value: uuid.UUID) -> None:
    assert re.fullmatch(UUID_PATTERN, str(value))
    assert re.fullmatch(UUID_PATTERN, str(value).upper())
    assert not re.fullmatch(UUID_PATTERN, value.hex)  # no dashes: not the canonical form


def test_compiled_keeps_names_as_tuples() -> None:
    compiled = Compiled({"type": "object"}, None, accepted=["b", "a"], required=["b"])
    assert compiled.accepted == ("b", "a")
    assert compiled.required == ("b",)
    assert Compiled({"type": "object"}).accepted is None


def test_the_field_schema_hook_says_whether_any_plugin_answers() -> None:
    pm = tp.make_plugin_manager()
    assert pm.field_schema_for("marshmallow").answers is False

    class Plugin:
        @tp.hookimpl
        def toolparse_field_schema(self, adapter: str, field: object, schema: dict) -> None:
            return None

    pm.register(Plugin())
    assert pm.field_schema_for("marshmallow").answers is True
