"""@tool with the pydantic adapter: the reference's pydantic schemas, args_schema models,
lax coercion, TypedDict and langchain runnables (the rest runs core-only, in test_decorator.py).

A signature is the built-in adapter's whatever is installed, so these tools ask for
pydantic with ``adapter="pydantic"`` (``tool`` below), as an application does on purpose."""

from __future__ import annotations

import functools
from typing import Any

import pytest

import toolparse as tp

tool = functools.partial(tp.tool, adapter="pydantic")

pydantic = pytest.importorskip("pydantic")
# pydantic needs typing_extensions' TypedDict before Python 3.12 (and brings it along)
TypedDict = pytest.importorskip("typing_extensions").TypedDict


# the same small helpers as in test_decorator.py


def add(a: int, b: int = 1) -> int:
    """Add two numbers."""
    return a + b


class Runnable:
    """A runnable-like object: it has invoke() and a name."""

    name = "echo"

    def __init__(self, schema: dict[str, Any] | None = None) -> None:
        self.schema = schema or {
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
        }

    def get_input_jsonschema(self) -> dict[str, Any]:
        return self.schema

    def invoke(self, value: dict[str, Any]) -> str:
        return f"echo {value['text']}"


def search(q: str, limit: int) -> str:
    """Search the web."""
    return f"{q}:{limit}"


def test_reference_bare_decorator() -> None:
    @tool
    def search_api(query: str) -> str:
        # Searches the API for the query.
        return  # type: ignore[return-value]

    assert isinstance(search_api, tp.Function)
    assert search_api.name == "search_api"
    assert search_api.description is None  # no docstring: a comment is not one
    assert search_api.json_schema() == {
        "type": "object",
        "properties": {"query": {"type": "string"}},
        "required": ["query"],
    }
    assert search_api.execute({"query": "x"}) == tp.Ok("null")


def test_reference_parse_docstring_schema() -> None:
    pytest.importorskip("docstring_parser")  # toolparse[docstring]

    @tool(parse_docstring=True)
    def foo(bar: str, baz: int) -> str:
        """The foo.

        Args:
            bar: The bar.
            baz: The baz.
        """
        return bar

    assert foo.description == "The foo."
    # the reference's structure, without pydantic's auto-generated titles
    assert foo.json_schema() == {
        "type": "object",
        "properties": {
            "bar": {"description": "The bar.", "type": "string"},
            "baz": {"description": "The baz.", "type": "integer"},
        },
        "required": ["bar", "baz"],
    }


# -- call forms ------------------------------------------------------------------------


def test_tool_with_a_name_and_a_callable() -> None:
    fn = tool("plus", add)
    assert fn.name == "plus"
    assert fn.execute({"a": "2"}) == tp.Ok("3")  # pydantic's lax mode


class Query(pydantic.BaseModel):  # type: ignore[misc, name-defined]
    """Search arguments."""

    q: str
    limit: int = 5


def test_description_argument_wins() -> None:
    assert tool(search, description="Given.", args_schema=Query).description == "Given."


def test_docstring_wins_over_args_schema() -> None:
    assert tool(search, args_schema=Query).description == "Search the web."


def test_args_schema_description_is_the_last_resort() -> None:
    def undocumented(q: str, limit: int) -> str:
        return q

    assert tool(undocumented, args_schema=Query).description == "Search arguments."


def test_args_schema_overrides_inference_and_fields_become_keywords() -> None:
    seen: list[dict[str, Any]] = []

    def body(**kwargs: Any) -> str:
        seen.append(kwargs)
        return "ok"

    fn = tool("search", body, args_schema=Query, description="Search.")
    assert fn.accepted_param_names() == ["q", "limit"]
    assert fn.execute({"q": "cats"}) == tp.Ok("ok")
    assert seen == [{"q": "cats", "limit": 5}]
    message = fn.execute({"limit": "many"}).message  # type: ignore[union-attr]
    assert "limit: must be an integer" in message
    assert "Missing parameters: q" in message


def test_infer_schema_false_with_args_schema_uses_the_schema() -> None:
    fn = tool(search, infer_schema=False, args_schema=Query)
    assert fn.execute({"q": "x"}) == tp.Ok("x:5")


def test_variadic_parameters_need_args_schema() -> None:
    def anything(*args: Any, **kwargs: Any) -> str:
        return "x"

    with pytest.raises(
        tp.FunctionDefinitionError, match=r"\*args, \*\*kwargs.*args_schema="
    ) as info:
        tool(anything)
    assert info.value.errors[0][0] == "signature"
    assert tool(anything, args_schema=Query).execute({"q": "x"}) == tp.Ok("x")


def test_extra_keys_a_parser_lets_through_never_reach_the_body() -> None:
    # "report": an unknown name that is no typo passes the policy; pydantic drops it
    assert tool(add).execute({"a": 1, "zzz_unrelated": 2}) == tp.Ok("2")


def test_plugin_manager_passes_through(pm: tp.PluginManager) -> None:
    fn = tp.tool(add, plugin_manager=pm)
    assert fn.adapter is not None
    assert fn.adapter.name == "plain"  # pydantic is not loaded in this manager
    assert fn.execute({"a": 1, "b": 2}) == tp.Ok("3")
    assert "b: must be an integer" in fn.execute({"a": 1, "b": "2"}).message  # type: ignore[union-attr]


# -- adapters ------------------------------------------------------------------------------


def test_default_adapter_is_the_builtin_one_even_with_pydantic_installed() -> None:
    # a signature means the same whatever is installed: strict, closed
    fn = tp.tool(add)
    assert fn.adapter is not None
    assert fn.adapter.name == "plain"
    assert fn.json_schema()["additionalProperties"] is False
    assert "b: must be an integer" in fn.execute({"a": 1, "b": "2"}).message  # type: ignore[union-attr]
    assert tool(add).adapter.name == "pydantic"  # type: ignore[union-attr]


def test_named_adapter_is_used_even_when_another_accepts_its_source() -> None:
    # the plain adapter builds a dataclass; named, it is used even under the pydantic pin
    fn = tool(add, adapter="plain")
    assert fn.adapter is not None
    assert fn.adapter.name == "plain"
    assert fn.json_schema()["additionalProperties"] is False


def test_no_adapter_can_infer(pm: tp.PluginManager) -> None:
    pm.unregister(name="toolparse.defaults")
    with pytest.raises(tp.FunctionDefinitionError, match=r'pip install "toolparse\[pydantic\]"'):
        tp.tool(add, plugin_manager=pm)


def test_the_model_cannot_override_the_context() -> None:
    @tool
    def owner(item: str, ctx: tp.Context) -> str:
        """Owner."""
        return f"{item} {ctx}"

    assert owner.execute({"item": "pen", "ctx": "forged"}, {"u": 1}) == tp.Ok("pen {'u': 1}")


def test_context_with_args_schema_and_kwargs() -> None:
    def body(ctx: tp.Context, **kwargs: Any) -> str:
        return f"{sorted(kwargs.items())} {ctx['k']}"

    fn = tool("s", body, args_schema=Query, description="d")
    assert fn.execute({"q": "x"}, {"k": 7}) == tp.Ok("[('limit', 5), ('q', 'x')] 7")


class Pair(TypedDict):
    a: int
    b: int


def total(pair: Pair) -> int:
    return pair["a"] + pair["b"]


# langchain_core reads the annotations as they are: resolve the postponed ones
total.__annotations__ = {"pair": Pair, "return": int}


def test_langchain_runnable() -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.prompts import PromptTemplate
    from langchain_core.runnables import RunnableLambda
    from langchain_core.tools import tool as lc_tool

    runnable = PromptTemplate.from_template("Tell me about {topic} in {n} words") | RunnableLambda(
        lambda prompt: prompt.to_string()
    )
    fn = tool("about", runnable)
    expected = lc_tool("about", runnable).invoke({"topic": "owls", "n": "5"})
    assert fn.execute({"topic": "owls", "n": "5"}) == tp.Ok(expected)
    assert "Missing parameters: n" in fn.execute({"topic": "owls"}).message  # type: ignore[union-attr]
    assert tool(description="About.")(runnable).name == "RunnableSequence"
    assert tool(runnable).name == "RunnableSequence"


def test_langchain_runnable_without_an_object_schema_raises_as_in_langchain() -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.runnables import RunnableLambda
    from langchain_core.tools import tool as lc_tool

    # its input schema is a $ref to the TypedDict, not an object schema
    runnable = RunnableLambda(total)
    with pytest.raises(ValueError, match="Runnable must have an object schema"):
        lc_tool("total", runnable)
    with pytest.raises(ValueError, match="Runnable must have an object schema"):
        tool("total", runnable)
    fn = tool("total", runnable, args_schema=Pair, description="Add.")
    # a TypedDict is the built-in adapter's whatever is installed: strict
    assert fn.execute({"a": 2, "b": 3}) == tp.Ok("5")
    assert "b: must be an integer" in fn.execute({"a": 2, "b": "3"}).message  # type: ignore[union-attr]


def test_runnable_with_args_schema() -> None:
    class Model(pydantic.BaseModel):  # type: ignore[misc, name-defined]
        """Echo arguments."""

        text: str

    fn = tool("echo", Runnable(), args_schema=Model)
    assert fn.description == "Echo arguments."
    assert fn.execute({"text": "x"}) == tp.Ok("echo x")


# -- the model's arguments, whatever they are ------------------------------------------------------
