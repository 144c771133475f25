"""A signature whose Annotated constraints belong to a library is that library's source."""

from __future__ import annotations

from typing import Annotated

import pytest

import toolparse as tp

pydantic = pytest.importorskip("pydantic")


def _bounded() -> tp.Function:
    @tp.tool
    def pick(n: Annotated[int, pydantic.Field(ge=1, le=50)]) -> str:
        """Pick a number."""
        return str(n)

    return pick


def test_pydantic_field_constraints_are_enforced_not_dropped() -> None:
    if tp.plugin_manager().adapter("pydantic") is None:
        pytest.skip("the pydantic adapter is not installed")
    pick = _bounded()
    assert pick.json_schema()["properties"]["n"]["maximum"] == 50
    outcome = pick.execute({"n": 99})
    assert isinstance(outcome, tp.Error)
    assert "n: must be at most 50 (received 99)" in outcome.message
    assert pick.execute({"n": 7}) == tp.Ok("7")


def test_without_the_adapter_the_extra_is_named() -> None:
    pm = tp.make_plugin_manager(load_entry_points=False)  # the built-in adapter only

    with pytest.raises(tp.FunctionDefinitionError, match=r'pip install "toolparse\[pydantic\]"'):

        @tp.tool(plugin_manager=pm)
        def pick(n: Annotated[int, pydantic.Field(ge=1)]) -> str:
            """Pick a number."""
            return str(n)


def test_plain_annotated_descriptions_stay_with_the_built_in_adapter() -> None:
    @tp.tool
    def greet(name: Annotated[str, "who to greet"]) -> str:
        """Greet someone."""
        return name

    assert greet.adapter is not None
    assert greet.adapter.name == "plain"
