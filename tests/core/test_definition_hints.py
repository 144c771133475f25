"""A core-only ``@tool`` whose parameter needs an adapter that is not installed names the extra."""

from __future__ import annotations

import pytest

import toolparse as tp
from toolparse.plugins import make_plugin_manager

pydantic = pytest.importorskip("pydantic")


class Address(pydantic.BaseModel):  # type: ignore[misc, name-defined]
    city: str


def test_a_pydantic_typed_parameter_names_the_extra_in_a_core_only_install() -> None:
    core_only = make_plugin_manager(load_entry_points=False)

    def ship(to: Address, weight: float, when: complex) -> str:
        return "ok"

    with pytest.raises(tp.FunctionDefinitionError) as info:
        tp.tool("ship", ship, plugin_manager=core_only)
    text = str(info.value)
    assert 'pip install "toolparse[pydantic]"' in text
    assert "Address" in text
    # every problem is named, not only the first
    assert "complex" in text
