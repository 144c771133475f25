"""@tool: call forms, keywords, ValueErrors, context injection, response formats.

These run in the core-only environment too (the built-in adapter infers the
schema there); what needs pydantic is in test_decorator_pydantic.py.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse import tool


def test_bare_decorator_with_the_built_in_adapter() -> None:
    @tool(adapter="plain")
    def search_api(query: str, limit: int = 10) -> str:
        return f"{query}:{limit}"

    assert isinstance(search_api, tp.Function)
    assert search_api.adapter is not None
    assert search_api.adapter.name == "plain"
    assert search_api.json_schema() == {
        "type": "object",
        "properties": {"query": {"type": "string"}, "limit": {"type": "integer", "default": 10}},
        "required": ["query"],
        "additionalProperties": False,
    }
    assert search_api.execute({"query": "x"}) == tp.Ok("x:10")
    assert search_api.execute({"query": "x", "limit": None}) == tp.Ok("x:10")  # null: absent
    assert isinstance(search_api.execute({"limit": 2}), tp.Error)


def test_reference_name_and_return_direct() -> None:
    @tool("search", return_direct=True)
    def search_api(query: str) -> str:
        # Searches the API for the query.
        return  # type: ignore[return-value]

    assert search_api.name == "search"
    assert search_api.return_direct is True
    assert search_api.required_param_names() == ["query"]


def test_reference_content_and_artifact() -> None:
    @tool(response_format="content_and_artifact")
    def search_api(query: str) -> tuple[str, dict[str, Any]]:
        return "partial json of results", {"full": "object of results"}

    assert search_api.execute({"query": "x"}) == tp.Ok(
        "partial json of results", {"full": "object of results"}
    )


def add(a: int, b: int = 1) -> int:
    """Add two numbers."""
    return a + b


def test_tool_of_a_callable() -> None:
    fn = tool(add)
    assert (fn.name, fn.description) == ("add", "Add two numbers.")
    assert fn.execute({"a": 2, "b": 3}) == tp.Ok("5")


def test_tool_with_a_name_decorates() -> None:
    fn = tool("plus")(add)
    assert fn.name == "plus"
    assert fn.execute({"a": 2}) == tp.Ok("3")


def test_tool_with_keywords_only() -> None:
    fn = tool(description="Adds.", concurrent=True)(add)
    assert (fn.name, fn.description, fn.concurrent) == ("add", "Adds.", True)


def test_tool_of_a_callable_object_with_a_name() -> None:
    class Multiply:
        name = "multiply"

        def __call__(self, a: int, b: int) -> int:
            return a * b

    fn = tool(Multiply(), description="Multiplies.")
    assert fn.name == "multiply"
    assert fn.accepted_param_names() == ["a", "b"]
    assert fn.execute({"a": 3, "b": 4}) == tp.Ok("12")


def test_the_original_function_stays_reachable() -> None:
    fn = tool(add)
    assert fn.function.func is add  # type: ignore[attr-defined]
    assert fn.function.__name__ == "add"


# -- the ValueErrors of the reference -----------------------------------------------


def test_too_many_positional_arguments() -> None:
    with pytest.raises(ValueError, match="Too many arguments for tool decorator") as info:
        tool("name", add, "extra")  # type: ignore[call-overload]
    assert isinstance(info.value, tp.FunctionDefinitionError)


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


@pytest.mark.parametrize("name", ["", None])
def test_runnable_without_a_name(name: Any) -> None:
    with pytest.raises(
        tp.FunctionDefinitionError, match="Runnable without name for tool constructor"
    ):
        tool(name, Runnable())


def test_runnable_with_a_name_that_is_not_a_string() -> None:
    with pytest.raises(ValueError, match="Name must be a string for tool constructor"):
        tool(add, Runnable())  # type: ignore[call-overload]


@pytest.mark.parametrize("first", [3, 2.5, object(), ["a"]])
def test_first_argument_neither_a_string_nor_a_named_callable(first: Any) -> None:
    with pytest.raises(
        ValueError, match="The first argument must be a string or a callable with a __name__"
    ):
        tool(first)


def test_callable_without_name_or_dunder_name() -> None:
    class Anonymous:
        def __call__(self, a: int) -> int:
            return a

    with pytest.raises(ValueError, match="The first argument must be a string"):
        tool(Anonymous())
    assert tool("anon", Anonymous(), description="d").execute({"a": 1}) == tp.Ok("1")


def test_no_docstring_no_description_without_inference() -> None:
    def shout(text: str) -> str:
        return text.upper()

    with pytest.raises(
        ValueError,
        match="Function must have either a docstring or description when infer_schema is False",
    ):
        tool(shout, infer_schema=False)
    assert tool(shout, infer_schema=False, description="Shouts.").description == "Shouts."


def test_runnable_without_an_object_schema() -> None:
    with pytest.raises(ValueError, match="Runnable must have an object schema"):
        tool("echo", Runnable({"type": "string"}))


def test_a_bad_response_format_is_a_definition_error() -> None:
    with pytest.raises(tp.FunctionDefinitionError, match="response_format"):
        tool(add, response_format="artifact")  # type: ignore[call-overload]


# -- description precedence ------------------------------------------------------------


def search(q: str, limit: int) -> str:
    """Search the web."""
    return f"{q}:{limit}"


def test_description_argument_is_stripped_like_langchain() -> None:
    assert tool(search, description="  Padded.\n").description == "Padded."


def test_docstring_is_cleaned() -> None:
    def doc(x: int) -> int:
        """First line.

        Second paragraph,
            indented.
        """
        return x

    assert tool(doc).description == "First line.\n\nSecond paragraph,\n    indented."


# -- args_schema and infer_schema -------------------------------------------------------


def test_args_schema_may_be_a_json_schema_dict_when_an_adapter_accepts_it() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    pm = tp.plugin_manager()
    if pm.select_adapter(schema) is None:
        with pytest.raises(tp.NoAdapterError, match="toolparse\\[jsonschema\\]"):
            tool(search, args_schema=schema)
    else:
        fn = tool("s", lambda q: q, args_schema=schema, description="d")
        assert fn.execute({"q": "x"}) == tp.Ok("x")


def test_infer_schema_false_takes_one_string_like_langchain() -> None:
    calls: list[Any] = []

    def shout(text: str) -> str:
        """Shout it."""
        calls.append(text)
        return text.upper()

    fn = tool(shout, infer_schema=False)
    assert fn.json_schema() == {
        "type": "object",
        "properties": {"__arg1": {"type": "string"}},
        "required": ["__arg1"],
    }
    assert fn.execute({"__arg1": "hi"}) == tp.Ok("HI")
    assert fn.execute({"text": "any one name"}) == tp.Ok("ANY ONE NAME")
    assert calls == ["hi", "any one name"]
    missing = fn.execute({}).message  # type: ignore[union-attr]
    assert "Missing parameters: __arg1" in missing
    too_many = fn.execute({"__arg1": "a", "b": "c"}).message  # type: ignore[union-attr]
    assert "Unrecognized parameters: b" in too_many
    wrong = fn.execute({"__arg1": 3}).message  # type: ignore[union-attr]
    assert "__arg1: Input should be a valid string (received 3)" in wrong
    assert calls == ["hi", "any one name"]


def test_positional_only_parameters_are_a_definition_error() -> None:
    def positional(a: int, /) -> int:
        return a

    with pytest.raises(tp.FunctionDefinitionError, match="positional-only"):
        tool(positional)


def test_unresolvable_annotation_is_a_definition_error() -> None:
    def broken(a: Undefined) -> int:  # type: ignore[name-defined]  # noqa: F821
        return 1

    with pytest.raises(tp.FunctionDefinitionError, match="cannot resolve a type annotation"):
        tool(broken)


# -- keywords passed through -------------------------------------------------------------


def test_function_keywords_pass_through() -> None:
    def parse(arguments: dict[str, Any]) -> tp.Ok[Any]:
        return tp.ok({"a": 40, "b": 2})

    fn = tool(
        add,
        concurrent=True,
        strict=True,
        display_text="Adding",
        options={"cache_control": True},
        unknown_arguments="reject",
        return_direct=True,
        parse_args=parse,
        limits=tp.Limits(max_bytes=1000),
    )
    assert (fn.concurrent, fn.strict, fn.display_text, fn.return_direct) == (
        True,
        True,
        "Adding",
        True,
    )
    assert fn.options == {"cache_control": True}
    assert fn.unknown_arguments == "reject"
    assert fn.limits == tp.Limits(max_bytes=1000)
    assert fn.parse_args is parse
    # your parser wins; the inferred schema is still what the model sees
    assert fn.execute({"a": "ignored"}) == tp.Ok("42")
    assert fn.json_schema()["additionalProperties"] is False


def test_strict_restores_null_optionals_to_their_defaults() -> None:
    fn = tool(add, strict=True)
    assert fn.execute({"a": 1, "b": None}) == tp.Ok("2")


def test_unknown_arguments_ignore_drops_names() -> None:
    fn = tool(add, unknown_arguments="ignore", adapter="plain")
    assert fn.execute({"a": 1, "bb": 5}) == tp.Ok("2")
    assert isinstance(tool(add, adapter="plain").execute({"a": 1, "bb": 5}), tp.Error)


def test_unknown_arguments_reject_names_the_typo() -> None:
    fn = tool(add, unknown_arguments="reject")
    message = fn.execute({"a": 1, "bb": 2}).message  # type: ignore[union-attr]
    assert 'Unrecognized parameters: bb (did you mean "b"?)' in message


def test_a_mapping_parser_with_extra_keys_is_filtered_for_the_body() -> None:
    fn = tool(add, parse_args=lambda arguments: tp.ok({"a": 1, "zzz": 9}))
    assert fn.execute({}) == tp.Ok("2")


@pytest.mark.parametrize("wait", [False, True])
def test_one_body_gives_context_artifact_and_filtered_keywords_sync_or_async(wait: bool) -> None:
    # every step between the parsed value and the function, in both bodies @tool builds
    def pair(a: int, ctx: tp.Context, b: int = 1) -> tuple[str, Any]:
        return f"{a + b}", dict(ctx)

    async def waited(a: int, ctx: tp.Context, b: int = 1) -> tuple[str, Any]:
        return pair(a, ctx, b)

    fn = tool(
        waited if wait else pair,
        response_format="content_and_artifact",
        parse_args=lambda arguments: tp.ok({"a": 1, "b": 2, "zzz": 9}),
    )
    assert fn.execute({}, {"k": 1}) == tp.Ok("3", {"k": 1})
    assert fn.execute({}) == tp.Ok("3", {})
    assert asyncio.run(fn.aexecute({}, {"k": 2})) == tp.Ok("3", {"k": 2})
    assert tool(pair, response_format="content_and_artifact").execute({"a": 4}) == tp.Ok("5", {})


def test_attrs_adapter() -> None:
    pytest.importorskip("cattrs")
    fn = tool(add, adapter="attrs")
    assert fn.adapter is not None
    assert fn.adapter.name == "attrs"
    assert fn.execute({"a": 2, "b": 5}) == tp.Ok("7")
    assert fn.required_param_names() == ["a"]
    assert isinstance(fn.execute({"b": 5}), tp.Error)


def test_unknown_adapter_names_the_extra(pm: tp.PluginManager) -> None:
    with pytest.raises(
        tp.FunctionDefinitionError,
        match=r'no installed adapter is called .marshmallow..*pip install "toolparse\[marshmallow\]"',
    ):
        tool(add, adapter="marshmallow", plugin_manager=pm)


class SchemaOnly:
    """An adapter that cannot infer from a signature."""

    name = "schema-only"

    def accepts(self, source: object) -> bool:
        return False

    def json_schema(self, source: Any) -> dict[str, Any]:
        raise NotImplementedError

    def parser(self, source: Any) -> Any:
        raise NotImplementedError


class RecordingAdapter:
    """An adapter with from_signature and keywords, recording what it was given."""

    name = "recording"

    def __init__(self) -> None:
        self.params: list[tp.SignatureParam] = []

    def accepts(self, source: object) -> bool:
        return isinstance(source, tuple) and source[:1] == ("recording",)

    def json_schema(self, source: Any) -> dict[str, Any]:
        params = source[1]
        return {
            "type": "object",
            "properties": {
                p.name: {"description": p.description} if p.description else {} for p in params
            },
            "required": [p.name for p in params if p.required],
        }

    def parser(self, source: Any) -> Any:
        return lambda arguments: tp.ok(("parsed", dict(arguments)))

    def keywords(self, value: Any) -> dict[str, Any]:
        return {k: f"<{v}>" for k, v in value[1].items()}

    def from_signature(self, name: str, params: list[tp.SignatureParam]) -> Any:
        self.params = list(params)
        return ("recording", tuple(params))


def test_any_adapter_with_from_signature_and_keywords(pm: tp.PluginManager) -> None:
    recording = RecordingAdapter()

    class Plugin:
        @tp.hookimpl
        def toolparse_register_adapters(self, register: Any) -> None:
            register(recording)
            register(SchemaOnly())

    pm.register(Plugin())

    def greet(name: Annotated[str, "who"], ctx: tp.Context, punct: str = "!") -> str:
        return f"hi {name}{punct}"

    fn = tool(greet, adapter="recording", plugin_manager=pm)
    assert [(p.name, p.annotation, p.default, p.description) for p in recording.params] == [
        ("name", Annotated[str, "who"], tp.EMPTY, "who"),
        ("punct", str, "!", None),
    ]
    assert fn.execute({"name": "bo"}) == tp.Ok("hi <bo>!")

    with pytest.raises(tp.FunctionDefinitionError, match="cannot infer a schema from a signature"):
        tool(greet, adapter="schema-only", plugin_manager=pm)


def test_an_adapter_failing_on_a_type_is_a_definition_error(pm: tp.PluginManager) -> None:
    class Opaque:
        pass

    def uses(x: Opaque) -> str:
        return "x"

    with pytest.raises(tp.FunctionDefinitionError, match="tool 'uses'"):
        tool(uses, plugin_manager=pm)


# -- context injection -----------------------------------------------------------------------


def test_context_is_injected_and_never_shown() -> None:
    seen: list[Any] = []

    @tool
    def weather(city: str, days: int, ctx: tp.Context) -> str:
        """Weather for a city."""
        seen.append(ctx)
        return city

    context = {"user": "u1"}
    assert weather.execute({"city": "Oslo", "days": 1}, context) == tp.Ok("Oslo")
    assert seen == [context]
    assert seen[0] is context  # exactly as passed
    assert "ctx" not in json.dumps(weather.json_schema())
    assert weather.accepted_param_names() == ["city", "days"]
    assert weather.required_param_names() == ["city", "days"]
    for arguments in ({}, {"city": 3}, {"cty": "Oslo", "days": "x"}, "not json"):
        outcome = weather.execute(arguments, context)
        assert isinstance(outcome, tp.Error)
        assert "ctx" not in outcome.message
    assert "Missing parameters: city, days" in weather.execute({}, context).message  # type: ignore[union-attr]
    assert len(seen) == 1


def test_context_gets_the_tool_call_id_through_execute_tool_calls() -> None:
    @tool
    def whoami(ctx: tp.Context) -> str:
        """Who called."""
        return f"{ctx['user']} {ctx['tool_call_id']}"

    caller = {"user": "ann"}
    [result] = tp.execute_tool_calls([whoami], [tp.ToolCall("call_1", "whoami", "{}")], caller)
    assert result.content == "ann call_1"
    assert caller == {"user": "ann"}  # the caller's mapping is not mutated


def test_context_without_one_is_an_empty_mapping_each_call() -> None:
    seen: list[Any] = []

    @tool
    def remember(note: str, ctx: tp.Context) -> str:
        """Keep a note."""
        seen.append(ctx)
        ctx["note"] = note  # a tool may fill its own mapping
        return str(ctx.get("user", "nobody"))

    assert remember.execute({"note": "a"}) == tp.Ok("nobody")
    assert remember.execute({"note": "b"}) == tp.Ok("nobody")
    assert seen == [{"note": "a"}, {"note": "b"}]  # a new mapping each call
    [result] = tp.execute_tool_calls([remember], [tp.ToolCall("c1", "remember", {"note": "c"})])
    assert result.content == "nobody"
    assert seen[-1] == {"tool_call_id": "c1", "note": "c"}


@pytest.mark.parametrize(
    "annotation",
    [
        tp.Context,
        Annotated[tp.Context, "meta"],
        Optional[tp.Context],  # noqa: UP045 - typing.Optional is a form of its own to detect
        tp.Context | None,
        "tp.Context",
    ],
    ids=["plain", "annotated", "optional", "union", "string"],
)
def test_context_annotation_forms(annotation: Any) -> None:
    def body(q: str, ctx=None) -> str:  # type: ignore[no-untyped-def]
        return f"{q} {ctx}"

    body.__annotations__ = {"q": str, "ctx": annotation, "return": str}
    body.__globals__["tp"] = tp
    fn = tool(body)
    assert fn.accepted_param_names() == ["q"]
    assert fn.execute({"q": "a"}, {"k": 1}) == tp.Ok("a {'k': 1}")
    assert fn.execute({"q": "a"}) == tp.Ok("a {}")


def test_two_context_parameters_are_a_definition_error() -> None:
    def twice(a: tp.Context, b: tp.Context) -> str:
        return "x"

    with pytest.raises(
        tp.FunctionDefinitionError, match="only one parameter can receive the Context"
    ):
        tool(twice)


def test_context_with_infer_schema_false() -> None:
    def echo(text: str, ctx: tp.Context) -> str:
        """Echo."""
        return f"{text} {ctx['tool_call_id']}"

    fn = tool(echo, infer_schema=False)
    [result] = tp.execute_tool_calls([fn], [tp.ToolCall("c9", "echo", {"__arg1": "hey"})])
    assert result.content == "hey c9"


# -- response formats, return_direct, async -----------------------------------------------------


def test_content_and_artifact_requires_a_pair() -> None:
    @tool(response_format="content_and_artifact")
    def lonely(q: str) -> str:
        return "just content"

    outcome = lonely.execute({"q": "x"})
    assert isinstance(outcome, tp.Error)
    assert outcome.message == (
        "ERROR: tool lonely must return a (content, artifact) tuple because its "
        'response_format is "content_and_artifact"; it returned str.'
    )
    assert isinstance(outcome.exception, TypeError)


def test_content_and_artifact_lets_the_result_vocabulary_through() -> None:
    @tool(response_format="content_and_artifact")
    def refuse(q: str) -> Any:
        if q == "raise":
            raise tp.ToolError("no such thing")
        return tp.error("not today")

    assert refuse.execute({"q": "x"}) == tp.Error("not today")
    assert refuse.execute({"q": "raise"}).message == "no such thing"  # type: ignore[union-attr]


def test_content_and_artifact_content_becomes_json_text() -> None:
    @tool(response_format="content_and_artifact")
    def rows(n: int) -> tuple[list[int], dict[str, int]]:
        return list(range(n)), {"count": n}

    assert rows.execute({"n": 3}) == tp.Ok("[0, 1, 2]", {"count": 3})


def test_return_direct_is_on_every_result() -> None:
    @tool(return_direct=True, response_format="content_and_artifact")
    def final(answer: str) -> tuple[str, dict[str, str]]:
        """Give the final answer."""
        return answer, {"raw": answer}

    calls = [
        tp.ToolCall("1", "final", {"answer": "42"}),
        tp.ToolCall("2", "final", {"answer": "7"}),
    ]
    results = tp.execute_tool_calls([final], calls)
    assert [(r.content, r.processed_content, r.return_direct) for r in results] == [
        ("42", {"raw": "42"}, True),
        ("7", {"raw": "7"}, True),
    ]


def test_async_functions() -> None:
    @tool
    async def fetch(url: str, ctx: tp.Context = None) -> str:
        """Fetch a URL."""
        await asyncio.sleep(0)
        return f"got {url} {ctx}"

    assert fetch.execute({"url": "u"}) == tp.Ok("got u {}")
    assert asyncio.run(fetch.aexecute({"url": "u"}, {"k": 1})) == tp.Ok("got u {'k': 1}")
    assert isinstance(fetch.execute({}), tp.Error)
    [result] = tp.execute_tool_calls([fetch], [tp.ToolCall("c", "fetch", {"url": "v"})])
    assert result.content == "got v {'tool_call_id': 'c'}"


def test_async_content_and_artifact() -> None:
    @tool(response_format="content_and_artifact")
    async def fetch(url: str) -> tuple[str, bytes]:
        return "fetched", b"raw"

    assert asyncio.run(fetch.aexecute({"url": "u"})) == tp.Ok("fetched", b"raw")


def test_async_callable_object() -> None:
    class Fetch:
        name = "fetch"

        async def __call__(self, url: str) -> str:
            return url

    fn = tool(Fetch(), description="d")
    assert asyncio.run(fn.aexecute({"url": "u"})) == tp.Ok("u")


def test_exceptions_become_errors_naming_the_function() -> None:
    @tool
    def divide(a: int, b: int) -> float:
        """Divide."""
        return a / b

    outcome = divide.execute({"a": 1, "b": 0})
    assert isinstance(outcome, tp.Error)
    assert outcome.message.startswith(
        "ERROR: (ZeroDivisionError) division by zero at test_decorator.py:"
    )
    assert outcome.message.endswith("divide")  # the user's function, not a wrapper


# -- runnables ---------------------------------------------------------------------------------


def test_runnable_like_object() -> None:
    pytest.importorskip("toolparse_jsonschema")  # its schema is a JSON Schema dict
    fn = tool("echo", Runnable(), description="Echo.")
    assert fn.name == "echo"
    if fn.adapter is None:  # pragma: no cover - the jsonschema adapter is missing
        pytest.skip("no adapter for a JSON Schema dict")
    assert fn.execute({"text": "hi"}) == tp.Ok("echo hi")
    assert isinstance(fn.execute({"text": 3}), tp.Error)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=40, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["a", "b", "ctx", "c", "aa"]) | st.text(max_size=4), _json, max_size=4
    )
)
def test_any_arguments_give_an_outcome_and_the_body_sees_valid_values(
    arguments: dict[str, Any],
) -> None:
    seen: list[tuple[Any, Any, Any]] = []

    def body(a: int, b: str | None = None, ctx: tp.Context = None) -> str:
        seen.append((a, b, ctx))
        return "ran"

    for fn in (tool(body), tool(body, adapter="plain")):
        seen.clear()
        outcome = fn.execute(arguments, {"k": 1})
        assert isinstance(outcome, (tp.Ok, tp.Error))
        if isinstance(outcome, tp.Ok):
            [(a, b, ctx)] = seen
            assert isinstance(a, int)
            assert b is None or isinstance(b, str)
            assert ctx == {"k": 1}
        else:
            assert not seen
            if "ctx" not in arguments:  # named only when the model itself sent it
                assert "ctx" not in outcome.message


def test_docstring_parser_missing_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "docstring_parser", None)
    with pytest.raises(tp.FunctionDefinitionError, match=r'pip install "toolparse\[docstring\]"'):
        tool(add, parse_docstring=True)
    assert tool(add).description == "Add two numbers."  # only parse_docstring needs it
