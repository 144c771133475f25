"""A class's compiled form is kept: another tool of it copies the schema and shares the parser."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter, create_model
from tests.conftest import race

import toolparse as tp
from toolparse.adapter import Compiled
from toolparse_pydantic import PydanticAdapter


class Counting(PydanticAdapter):
    """The adapter, counting the sources it builds (each build is a compile step run)."""

    kept = 256  # (the default, the bound the tests below rely on)

    def __init__(self) -> None:
        super().__init__()
        self.built: list[Any] = []

    def build(self, source: Any, **options: Any) -> Compiled:
        self.built.append(source)
        return super().build(source, **options)


class Order(BaseModel):
    sku: str
    quantity: int = 1
    tags: list[str] = []


def test_tools_of_one_model_get_equal_schemas_of_their_own() -> None:
    adapter = PydanticAdapter()
    first = adapter.compile(Order)
    second = adapter.compile(Order)
    assert first.schema == second.schema
    assert first.parser is second.parser  # pydantic's validator, shared
    # each schema is its own, down to the nested containers
    second.schema["properties"]["tags"]["default"].append("x")
    second.schema["required"].append("tags")
    assert first.schema["properties"]["tags"]["default"] == []
    assert adapter.compile(Order).schema == first.schema
    assert first.schema["required"] == ["sku"]


def test_the_kept_form_is_per_policy() -> None:
    adapter = PydanticAdapter()
    report = adapter.compile(Order)
    reject = adapter.compile(Order, unknown_arguments="reject")
    assert "additionalProperties" not in report.schema
    assert reject.schema["additionalProperties"] is False
    assert adapter.compile(Order).schema == report.schema
    assert adapter.compile(Order, unknown_arguments="reject").schema == reject.schema
    assert adapter.json_schema(Order) == report.schema
    assert adapter.compile(Order, parser=False).parser is None


def test_functions_of_one_model_read_alike_and_stay_apart() -> None:
    one = tp.Function("one", lambda order: order.sku, args_schema=Order)
    two = tp.Function("two", lambda order: order.quantity, args_schema=Order)
    assert one.json_schema() == two.json_schema()
    assert one.json_schema() is not two.json_schema()
    assert one.execute({"sku": "A"}) == tp.Ok("A")
    assert two.execute({"sku": "A", "quantity": "3"}) == tp.Ok("3")
    wrong = {"quantity": "x"}
    assert one.execute(wrong).message == two.execute(wrong).message


def test_a_type_adapter_is_compiled_each_time() -> None:
    adapter = Counting()
    ready = TypeAdapter(Order)
    adapter.compile(ready)
    adapter.compile(ready)
    adapter.compile(Order)
    adapter.compile(Order)
    assert adapter.built == [ready, ready, Order]


def test_a_model_that_fails_to_compile_is_not_kept() -> None:
    class Early(BaseModel):
        later: Later  # type: ignore[name-defined]

    adapter = PydanticAdapter()
    with pytest.raises(Exception, match="not fully defined"):
        adapter.compile(Early)

    class Later(BaseModel):
        value: int

    Early.model_rebuild(_types_namespace={"Later": Later})
    compiled = adapter.compile(Early)
    assert compiled.parser is not None
    assert compiled.parser({"later": {"value": "2"}}) == tp.Ok(Early(later=Later(value=2)))


def test_at_most_256_classes_are_kept() -> None:
    adapter = Counting()
    models = [create_model(f"M{i}", x=(int, ...)) for i in range(300)]
    for model in models:
        adapter.compile(model)
    adapter.built.clear()
    # the newest are kept, and the oldest compile again as they did
    adapter.compile(models[-1])
    assert adapter.built == []
    assert adapter.compile(models[0]).schema == adapter.compile(models[-1]).schema
    assert adapter.built == [models[0]]


def test_tools_defined_from_many_threads_get_their_own_keys() -> None:
    # the eviction reads the oldest key while other threads insert theirs (the
    # bound itself under threads is the SDK's, tested with its KeptForms)
    adapter = Counting()
    models = [create_model(f"T{i}", x=(int, ...)) for i in range(600)]

    def define(i: int) -> None:
        for model in models[i::8]:
            assert adapter.compile(model).key == (model, "report")

    race(define)
    assert len(adapter.built) >= 600  # each model built at least once


def test_a_kept_class_says_so_with_its_key_and_a_type_adapter_does_not() -> None:
    adapter = PydanticAdapter()
    assert adapter.compile(Order).key == (Order, "report")
    assert adapter.compile(Order, unknown_arguments="reject").key == (Order, "reject")
    assert adapter.compile(TypeAdapter(Order)).key is None


class Waiting(BaseModel):
    later: Arrived  # defined below: the model is completed by its first tool


class Arrived(BaseModel):
    value: int


def test_a_model_completed_by_its_first_tool_is_kept_from_then_on() -> None:
    adapter = Counting()
    assert not Waiting.__pydantic_complete__
    assert adapter.compile(Waiting).key is None  # its schema could still change
    assert Waiting.__pydantic_complete__
    assert adapter.compile(Waiting).key == (Waiting, "report")
    assert adapter.compile(Waiting).parser is not None
    assert adapter.built == [Waiting, Waiting]
