"""Function definition: validation at definition time, attributes, introspection."""

from __future__ import annotations

from typing import Any

import pytest

import toolparse as tp
from toolparse import FunctionParam as P


def body(arguments: dict[str, Any], context: Any) -> str:
    return "SUCCESS"


def errors_of(*args: Any, **kwargs: Any) -> list[tuple[str, str]]:
    with pytest.raises(tp.FunctionDefinitionError) as info:
        tp.Function(*args, **kwargs)
    return info.value.errors


def test_minimal_definition() -> None:
    fn = tp.Function("hello_world", body)
    assert fn.name == "hello_world"
    assert fn.concurrent is False
    assert fn.strict is False
    assert fn.return_direct is False
    assert fn.unknown_arguments == "report"
    assert callable(fn.function)
    assert fn.parse_args is None


def test_every_field_readable() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    parser = lambda a: tp.ok()  # noqa: E731
    fn = tp.Function(
        "search",
        body,
        description="Search things",
        parameters_schema=schema,
        parse_args=parser,
        concurrent=True,
        strict=True,
        display_text="Searching...",
        options={"cache_control": True},
        unknown_arguments="reject",
        return_direct=True,
    )
    assert fn.description == "Search things"
    assert fn.parameters_schema == schema
    assert fn.parse_args is parser
    assert fn.concurrent is True
    assert fn.strict is True
    assert fn.display_text == "Searching..."
    assert fn.options == {"cache_control": True}
    assert fn.unknown_arguments == "reject"
    assert fn.return_direct is True
    assert fn.parameters == ()
    assert fn.args_schema is None


def test_schema_stored_unchanged_and_not_shared() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    fn = tp.Function("t", body, parameters_schema=schema)
    exported = fn.json_schema()
    assert exported == schema
    exported["properties"]["b"] = {}
    assert "b" not in fn.json_schema()["properties"]
    schema["required"].append("x")
    assert fn.json_schema()["required"] == ["a"]


def test_immutable() -> None:
    fn = tp.Function("t", body)
    with pytest.raises(AttributeError):
        fn.name = "other"  # type: ignore[misc]


@pytest.mark.parametrize("name", ["", "   ", None])
def test_blank_name(name: Any) -> None:
    assert ("name", "can't be blank") in errors_of(name, body)


def test_name_length() -> None:
    tp.Function("a" * 128, body)  # MCP's longest; a provider that allows fewer gets an alias
    errs = errors_of("a" * 129, body)
    assert errs[0][0] == "name"
    assert "at most 128" in errs[0][1]


def test_function_not_callable() -> None:
    assert errors_of("t", "stuff")[0] == ("function", "must be callable, got 'stuff'")


def test_function_with_no_parameters() -> None:
    errs = errors_of("t", lambda: "x")
    assert errs[0][0] == "function"
    assert "has 0" in errs[0][1]


def test_function_with_three_required_parameters() -> None:
    errs = errors_of("t", lambda a, b, c: "x")
    assert errs == [
        ("function", "expected 1 (arguments) or 2 (arguments, context) parameters, has 3")
    ]


def test_function_arities_accepted() -> None:
    assert tp.Function("t", lambda a: "one").execute({}) == tp.Ok("one")
    assert tp.Function("t", lambda a, c: f"two:{c}").execute({}, "ctx") == tp.Ok("two:ctx")
    assert tp.Function("t", lambda a, c=None: f"opt:{c}").execute({}, 5) == tp.Ok("opt:5")
    assert tp.Function("t", lambda *args: f"var:{len(args)}").execute({}) == tp.Ok("var:2")


def test_parse_args_arity() -> None:
    tp.Function("t", body, parse_args=lambda a: tp.ok())
    tp.Function("t", body, parse_args=lambda a, c: tp.ok())
    errs = errors_of("t", body, parse_args=lambda a, b, c: tp.ok())
    assert errs[0][0] == "parse_args"
    assert errors_of("t", body, parse_args="not a function") == [
        ("parse_args", "must be callable, got 'not a function'")
    ]


def test_keyword_only_without_default_is_an_error() -> None:
    def kw(a: Any, *, must: int) -> str:
        return "x"

    errs = errors_of("t", kw)
    assert errs == [("function", "keyword-only parameter 'must' has no default")]


def test_both_parameter_styles() -> None:
    errs = errors_of("t", body, parameters=[P("a", "string")], parameters_schema={"type": "object"})
    assert errs[0][0] == "parameters_schema"
    assert "cannot use both parameters and parameters_schema" in errs[0][1]


def test_empty_parameters_with_schema_is_fine() -> None:
    # an empty parameters list is "not given": parameters_schema is the one style used
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    fn = tp.Function("t", body, parameters=[], parameters_schema=schema)
    assert fn.parameters == ()
    assert fn.json_schema() == schema
    assert fn.required_param_names() == ["q"]
    assert isinstance(fn.execute({}), tp.Error)


def test_every_problem_named_at_once() -> None:
    with pytest.raises(tp.FunctionDefinitionError) as info:
        tp.Function("", 5, unknown_arguments="maybe", concurrent="yes")  # type: ignore[arg-type]
    fields = [f for f, _ in info.value.errors]
    assert fields == ["name", "concurrent", "unknown_arguments", "function"]
    text = str(info.value)
    assert "name: can't be blank" in text
    assert "function: must be callable" in text


def test_bad_types_of_optional_fields() -> None:
    errs = errors_of(
        "t",
        body,
        description=5,
        display_text=[],
        options="x",
        parameters=["p"],
        parameters_schema=None,
    )
    fields = [f for f, _ in errs]
    assert fields == ["description", "display_text", "options", "parameters[0]"]


def test_parameters_schema_must_be_a_dict() -> None:
    assert errors_of("t", body, parameters_schema="{}")[0] == (
        "parameters_schema",
        "must be a JSON Schema dict",
    )


# -- required / accepted names --------------------------------------------------


def test_names_from_params() -> None:
    fn = tp.Function(
        "t",
        body,
        parameters=[
            P("path", "string", required=True),
            P("limit", "integer"),
            P("offset", "integer", required=True),
        ],
    )
    assert fn.required_param_names() == ["path", "offset"]
    assert fn.accepted_param_names() == ["path", "limit", "offset"]


def test_names_from_schema() -> None:
    fn = tp.Function(
        "t",
        body,
        parameters_schema={
            "type": "object",
            "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}},
            "required": ["path"],
        },
    )
    assert fn.required_param_names() == ["path"]
    assert fn.accepted_param_names() == ["limit", "path"]  # a schema's names are sorted


def test_names_when_nothing_declared() -> None:
    fn = tp.Function("t", body)
    assert fn.required_param_names() == []
    assert fn.accepted_param_names() == []
    only_type = tp.Function("t", body, parameters_schema={"type": "object"})
    assert only_type.required_param_names() == []
    assert only_type.accepted_param_names() == []


def test_schema_required_not_a_list() -> None:
    fn = tp.Function("t", body, parameters_schema={"type": "object", "required": "path"})
    assert fn.required_param_names() == []


def test_schema_from_params_and_default() -> None:
    fn = tp.Function("t", body, parameters=[P("a", "string", required=True)])
    assert fn.json_schema() == {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
        "additionalProperties": False,
    }
    assert tp.Function("t", body).json_schema() == {"type": "object", "properties": {}}


def test_reject_policy_closes_the_exported_schema() -> None:
    fn = tp.Function(
        "t",
        body,
        parameters_schema={"type": "object", "properties": {"a": {}}},
        unknown_arguments="reject",
    )
    assert fn.json_schema()["additionalProperties"] is False


# -- display text ------------------------------------------------------------------


def test_get_display_text() -> None:
    fns = [
        tp.Function("speak", body, display_text="Speaking..."),
        tp.Function("walk", body, display_text="Walking..."),
        tp.Function("silent", body),
    ]
    assert tp.get_display_text(fns, "speak") == "Speaking..."
    assert tp.get_display_text(fns, "walk") == "Walking..."
    assert tp.get_display_text(fns, "missing") == "Perform action"
    assert tp.get_display_text(fns, "missing", "Other") == "Other"
    # a found function without display text falls back too (a UI needs text)
    assert tp.get_display_text(fns, "silent") == "Perform action"


# -- args_schema resolution -----------------------------------------------------------


def test_args_schema_no_adapter_names_the_extra(pm: tp.PluginManager) -> None:
    class FakeModel:
        pass

    FakeModel.__module__ = "pydantic.main"
    errs = errors_of("t", body, args_schema=FakeModel, plugin_manager=pm)
    assert errs[0][0] == "args_schema"
    assert 'pip install "toolparse[pydantic]"' in errs[0][1]
    assert "no installed adapter recognises" in errs[0][1]


@pytest.mark.parametrize(
    ("module", "extra"),
    [("marshmallow.schema", "marshmallow"), ("attr._make", "attrs"), ("pydantic.main", "pydantic")],
)
def test_install_hint_for_known_libraries(pm: tp.PluginManager, module: str, extra: str) -> None:
    cls = type("Model", (), {"__module__": module})
    with pytest.raises(tp.NoAdapterError) as info:
        tp.Function("t", body, args_schema=cls, plugin_manager=pm)
    assert info.value.extra == extra
    assert f'pip install "toolparse[{extra}]"' in str(info.value)


def test_install_hint_for_a_schema_dict(pm: tp.PluginManager) -> None:
    with pytest.raises(tp.NoAdapterError) as info:
        tp.Function("t", body, args_schema={"type": "object"}, plugin_manager=pm)
    assert info.value.extra == "jsonschema"


def test_unknown_object_has_no_hint(pm: tp.PluginManager) -> None:
    with pytest.raises(tp.NoAdapterError) as info:
        tp.Function("t", body, args_schema=object(), plugin_manager=pm)
    assert info.value.extra is None
    assert "pip install" not in str(info.value)


def test_an_adapter_that_fails_is_a_definition_error(pm: tp.PluginManager) -> None:
    class Broken:
        name = "broken"

        def accepts(self, source: object) -> bool:
            return source == "broken-model"

        def json_schema(self, source: Any) -> dict[str, Any]:
            raise ValueError("field 'x' has an unsupported type")

        def parser(self, source: Any) -> Any:
            return lambda a: tp.ok()

    class Plugin:
        @tp.hookimpl
        def toolparse_register_adapters(self, register: Any) -> None:
            register(Broken())

    pm.register(Plugin())
    errs = errors_of("t", body, args_schema="broken-model", plugin_manager=pm)
    assert errs == [
        ("args_schema", "the broken adapter cannot use it: field 'x' has an unsupported type")
    ]


def test_adapter_can_be_picked_by_name_or_object(pm: tp.PluginManager) -> None:
    import dataclasses

    @dataclasses.dataclass
    class Point:
        x: int

    first = tp.Function("t", lambda a: "x", args_schema=Point, plugin_manager=pm, adapter="plain")
    assert first.adapter is pm.adapter("plain")
    plain = pm.adapter("plain")
    assert plain is not None
    second = tp.Function("t", lambda a: "x", args_schema=Point, plugin_manager=pm, adapter=plain)
    assert second.adapter is plain
    errs = errors_of("t", body, args_schema=Point, plugin_manager=pm, adapter="nope")
    assert errs == [("adapter", "no adapter named 'nope' is installed (installed: plain)")]
    assert errors_of("t", body, adapter="plain") == [("adapter", "is only used with args_schema")]
