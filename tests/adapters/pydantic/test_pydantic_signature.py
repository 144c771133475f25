"""Models built from a function's signature (``from_signature``), and ``@tool`` with them."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from pydantic import BaseModel, Field

import toolparse as tp
from toolparse import SignatureParam
from toolparse_pydantic import PydanticAdapter

ADAPTER = PydanticAdapter()


def build(*params: SignatureParam) -> Any:
    return ADAPTER.from_signature("search", list(params))


def test_parameters_become_one_model() -> None:
    model = build(
        SignatureParam("query", str, description="what to look for"),
        SignatureParam("limit", int, default=10),
        SignatureParam("exact", bool | None, default=None),
    )
    assert issubclass(model, BaseModel)
    assert ADAPTER.accepts(model)
    fn = tp.Function("search", lambda a: "done", args_schema=model)
    assert fn.json_schema() == {
        "properties": {
            "query": {"description": "what to look for", "type": "string"},
            "limit": {"default": 10, "type": "integer"},
            "exact": {"anyOf": [{"type": "boolean"}, {"type": "null"}], "default": None},
        },
        "required": ["query"],
        "type": "object",
    }
    parsed = fn.parse_arguments({"query": "q", "limit": "5"})
    assert isinstance(parsed, tp.Ok)
    assert ADAPTER.keywords(parsed.value) == {"query": "q", "limit": 5, "exact": None}


def test_annotated_field_metadata_is_read_and_a_description_merged_over_it() -> None:
    model = build(
        SignatureParam("limit", Annotated[int, Field(ge=1, le=50, description="at most")]),
        SignatureParam(
            "page",
            Annotated[int, Field(ge=0, description="from Annotated")],
            default=0,
            description="from the docstring",
        ),
        SignatureParam(
            "note", Annotated[str, "a plain string is not pydantic metadata"], default=""
        ),
    )
    props = model.model_json_schema()["properties"]
    assert props["limit"]["description"] == "at most"
    assert (props["limit"]["minimum"], props["limit"]["maximum"]) == (1, 50)
    assert props["page"]["description"] == "from the docstring"
    assert props["page"]["minimum"] == 0
    assert "description" not in props["note"]


@pytest.mark.parametrize(
    "name",
    ["json", "schema", "copy", "model_config", "model_fields", "_private", "toolparse_renamed"],
)
def test_names_pydantic_reserves_still_work(name: str) -> None:
    model = build(SignatureParam(name, int), SignatureParam("other", str, default="x"))
    fn = tp.Function("search", lambda a: "done", args_schema=model)
    schema = fn.json_schema()
    assert list(schema["properties"]) == [name, "other"]
    assert schema["required"] == [name]
    parsed = fn.parse_arguments({name: "7"})
    assert isinstance(parsed, tp.Ok)
    assert ADAPTER.keywords(parsed.value) == {name: 7, "other": "x"}
    result = fn.execute({name: "seven"})
    assert isinstance(result, tp.Error)
    assert result.message.splitlines()[2].startswith(f"{name}: must be an integer")


def test_model_prefixed_names_raise_no_warning() -> None:
    # pydantic warns about the "model_" namespace by default; filterwarnings=error would fail here
    model = build(SignatureParam("model_name", str))
    assert list(model.model_json_schema()["properties"]) == ["model_name"]


def test_a_renamed_field_does_not_collide_with_a_parameter() -> None:
    model = build(SignatureParam("json", int), SignatureParam("json_param", int))
    parsed = model.model_validate({"json": 1, "json_param": 2})
    assert ADAPTER.keywords(parsed) == {"json": 1, "json_param": 2}


def test_tool_decorator_infers_with_pydantic() -> None:
    @tp.tool(adapter="pydantic")
    def search(
        query: Annotated[str, Field(description="what to look for")],
        json: bool = False,
        limit: Annotated[int, Field(ge=1)] = 10,
    ) -> str:
        """Search the catalogue."""
        return f"{query}|{json}|{limit}"

    assert search.adapter is not None
    assert search.adapter.name == "pydantic"
    assert search.json_schema() == {
        "properties": {
            "query": {"description": "what to look for", "type": "string"},
            "json": {"default": False, "type": "boolean"},
            "limit": {"default": 10, "minimum": 1, "type": "integer"},
        },
        "required": ["query"],
        "type": "object",
    }
    assert search.execute({"query": "lamp", "json": "true"}) == tp.Ok("lamp|True|10")
    result = search.execute({"query": "lamp", "limit": 0})
    assert isinstance(result, tp.Error)
    assert "limit: must be at least 1 (received 0)" in result.message


def test_tool_decorator_reads_docstring_descriptions() -> None:
    pytest.importorskip("docstring_parser")

    @tp.tool(adapter="pydantic", parse_docstring=True)
    def lookup(record_id: int, verbose: bool = False) -> str:
        """Look a record up.

        Args:
            record_id: the record's number
            verbose: include every field
        """
        return str(record_id)

    props = lookup.json_schema()["properties"]
    assert props["record_id"] == {"description": "the record's number", "type": "integer"}
    assert props["verbose"] == {
        "default": False,
        "description": "include every field",
        "type": "boolean",
    }
    assert lookup.execute({"record_id": "7"}) == tp.Ok("7")
