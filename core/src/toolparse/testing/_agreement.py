"""Schema and parser agree: values generated from the exported schema parse."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings

from ..contract import Ok

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["agree", "metaschema"]


def metaschema() -> Any:
    """The JSON Schema 2020-12 validator class (the test is skipped without ``jsonschema``)."""
    jsonschema = pytest.importorskip("jsonschema")
    return jsonschema.Draft202012Validator


def agree(fn: Function, schema: dict[str, Any]) -> None:
    """Every instance hypothesis-jsonschema draws from ``schema`` parses with ``fn``."""
    from_schema = pytest.importorskip("hypothesis_jsonschema").from_schema

    @settings(
        max_examples=25,
        deadline=None,
        database=None,
        derandomize=True,  # the same instances on every run: a failure is reproducible
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.filter_too_much,
            HealthCheck.data_too_large,
        ],
    )
    @given(from_schema(schema))
    def check(instance: Any) -> None:
        result = fn.parse_arguments(instance)
        assert isinstance(result, Ok), (instance, result)

    check()
