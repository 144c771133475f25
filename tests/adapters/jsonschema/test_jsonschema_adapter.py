"""What is special to the jsonschema adapter: definition checks, references,
drafts, defaults, the ``JsonSchema`` wrapper, and the fast path."""

from __future__ import annotations

import copy
import socket
import sys
from typing import Any

import pytest

import toolparse as tp
from toolparse_jsonschema import JsonSchema, JsonSchemaAdapter

from .models import rs_usable

WEATHER: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City name."},
        "units": {"enum": ["c", "f"], "default": "c"},
    },
    "required": ["city"],
}


needs_fast = pytest.mark.skipif(not rs_usable(), reason="needs jsonschema-rs 0.43 or later")


def _fn(schema: Any, **kwargs: Any) -> tp.Function:
    return tp.Function("t", lambda a: a, args_schema=schema, **kwargs)


def _definition_error(schema: Any) -> str:
    with pytest.raises(tp.FunctionDefinitionError) as info:
        _fn(schema)
    return str(info.value)


# -- resolution and the exported schema ------------------------------------------


def test_a_dict_resolves_to_the_adapter_and_exports_itself() -> None:
    fn = _fn(WEATHER)
    assert fn.adapter is not None
    assert fn.adapter.name == "jsonschema"
    assert fn.json_schema() == WEATHER
    assert fn.accepted_param_names() == ["city", "units"]
    assert fn.required_param_names() == ["city"]


def test_the_exported_schema_is_a_copy_keeping_user_titles() -> None:
    schema = copy.deepcopy(WEATHER)
    schema["title"] = "Weather"  # written by the user: it stays
    fn = _fn(schema)
    schema["properties"]["city"]["type"] = "integer"
    exported = fn.json_schema()
    assert exported["title"] == "Weather"
    assert exported["properties"]["city"]["type"] == "string"
    # the validator was compiled from the copy, too
    assert fn.execute({"city": "Oslo"}) == tp.Ok('{"city": "Oslo"}')


def test_mappings_of_any_kind_and_tuples_are_taken_as_json() -> None:
    from types import MappingProxyType

    schema = MappingProxyType({"type": "object", "properties": {"tags": {"enum": ("a", "b")}}})
    fn = _fn(schema)
    assert fn.json_schema() == {"type": "object", "properties": {"tags": {"enum": ["a", "b"]}}}
    assert isinstance(fn.execute({"tags": "c"}), tp.Error)


def test_parameters_schema_stays_declared_only() -> None:
    fn = tp.Function(
        "t",
        lambda a: "ran",
        parameters_schema={**WEATHER, "properties": {"city": {"type": "integer"}}},
    )
    assert fn.adapter is None
    assert fn.execute({"city": "not checked"}) == tp.Ok("ran")


def test_the_schema_is_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import jsonschema

    calls = 0
    original = jsonschema.validators.validator_for

    def counting(schema: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        # the metaschema check picks the class that checks the metaschema itself
        calls += schema is jsonschema.Draft202012Validator.META_SCHEMA
        return original(schema, *args, **kwargs)

    monkeypatch.setattr(jsonschema.validators, "validator_for", counting)
    if rs_usable():  # jsonschema-rs checks it instead, when installed
        from jsonschema_rs import meta

        checking = meta.is_valid

        def counting_rs(schema: Any, *args: Any, **kwargs: Any) -> Any:
            nonlocal calls
            calls += 1
            return checking(schema, *args, **kwargs)

        monkeypatch.setattr(meta, "is_valid", counting_rs)
    for fast in (None, False):
        calls = 0
        fn = _fn(JsonSchema(WEATHER, fast=fast))
        built = calls  # one metaschema check for schema and parser together, at definition
        for _ in range(5):
            fn.execute({"city": "Oslo"})
            fn.execute({"city": 1})
        assert calls == built == 1


# -- definition errors -------------------------------------------------------------


def test_an_invalid_schema_names_the_keyword_and_its_path() -> None:
    message = _definition_error({"type": "object", "properties": {"age": {"type": "integr"}}})
    assert message == (
        "tool 't': args_schema: properties.age.type: 'integr' is not valid under any of the given schemas"
    )


def test_every_schema_error_is_listed() -> None:
    message = _definition_error(
        {
            "type": "object",
            "properties": {"a": {"minimum": "1"}, "b": {"items": [{"pattern": "["}]}},
            "required": "a",
        }
    )
    assert "properties.a.minimum: '1' is not of type 'number'" in message
    assert "properties.b.items" in message
    assert "required: 'a' is not of type 'array'" in message


def test_an_invalid_pattern_is_a_definition_error() -> None:
    assert "properties.s.pattern: '[' is not a 'regex'" in _definition_error(
        _obj_schema(s={"pattern": "["})
    )


def _obj_schema(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


@pytest.mark.parametrize(
    "schema",
    [{"type": "string"}, {"type": ["array", "null"]}, {"items": {}}, {}],
    ids=["string", "array", "no-type", "empty"],
)
def test_a_schema_that_is_not_an_object_schema_is_refused(schema: dict[str, Any]) -> None:
    assert "the arguments of a tool are an object" in _definition_error(schema)


@pytest.mark.parametrize(
    "schema",
    [{"type": "object"}, {"type": ["object", "null"]}, {"properties": {"a": {}}}],
    ids=["type", "type-list", "properties"],
)
def test_object_schemas_are_accepted(schema: dict[str, Any]) -> None:
    assert _fn(schema).execute({}) == tp.Ok("{}")


def test_an_unknown_draft_is_refused() -> None:
    message = _definition_error({"$schema": "http://example.com/my-dialect", "type": "object"})
    assert "$schema: 'http://example.com/my-dialect' is not a supported draft" in message
    assert "2020-12 (https://json-schema.org/draft/2020-12/schema)" in message


def test_non_string_keys_are_refused() -> None:
    assert "every key must be a string" in _definition_error(
        {"type": "object", "properties": {1: {}}}
    )


# -- references ----------------------------------------------------------------------


def test_internal_references_resolve() -> None:
    schema = {
        "$id": "https://example.com/tool.json",
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/pos"},
            "b": {"$ref": "tool.json#/$defs/pos"},
            "c": {"$ref": "#named"},
            "d": {"$ref": "https://example.com/inner.json"},
        },
        "$defs": {
            "pos": {"type": "integer", "minimum": 0},
            "named": {"$anchor": "named", "type": "string"},
            "inner": {"$id": "inner.json", "type": "boolean"},
        },
    }
    fn = _fn(schema)
    assert fn.execute({"a": 1, "b": 2, "c": "x", "d": True}) == tp.Ok(
        '{"a": 1, "b": 2, "c": "x", "d": true}'
    )
    bad = fn.execute({"a": -1, "b": "2", "c": 3, "d": 1})
    assert isinstance(bad, tp.Error)
    assert "a: must be at least 0 (received -1)" in bad.message
    assert 'b: must be an integer (received "2")' in bad.message
    assert "c: must be a string (received 3)" in bad.message
    assert "d: must be true or false (received 1)" in bad.message


def test_recursive_references_resolve() -> None:
    schema = {
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/node"}},
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                },
                "required": ["name"],
            }
        },
    }
    fn = _fn(schema)
    assert isinstance(
        fn.execute({"tree": {"name": "a", "kids": [{"name": "b", "kids": []}]}}), tp.Ok
    )
    bad = fn.execute({"tree": {"name": "a", "kids": [{"kids": [{"name": 1}]}]}})
    assert isinstance(bad, tp.Error)
    assert "tree.kids[0].name: is required" in bad.message
    assert "tree.kids[0].kids[0].name: must be a string (received 1)" in bad.message


def test_a_reference_to_a_metaschema_needs_no_network() -> None:
    fn = _fn(_obj_schema(s={"$ref": "https://json-schema.org/draft/2020-12/schema"}))
    assert isinstance(fn.execute({"s": {"type": "string"}}), tp.Ok)
    assert isinstance(fn.execute({"s": {"type": "nope"}}), tp.Error)


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the network was touched")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


@pytest.mark.usefixtures("no_network")
@pytest.mark.parametrize(
    ("ref", "where"),
    [
        ("https://example.com/schemas/address.json", "properties.home.$ref"),
        ("address.json#/$defs/a", "properties.home.$ref"),
        ("file:///etc/passwd", "properties.home.$ref"),
    ],
)
def test_a_reference_outside_the_schema_is_refused_at_definition(ref: str, where: str) -> None:
    message = _definition_error(_obj_schema(home={"$ref": ref}))
    assert f"{where}: {ref!r} points outside the schema" in message
    assert '"#/$defs/<name>"' in message


@pytest.mark.usefixtures("no_network")
def test_remote_references_are_found_everywhere_and_all_named() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"items": {"$ref": "http://x/a.json"}}},
        "allOf": [{"$ref": "http://x/b.json"}],
        "$defs": {"c": {"$dynamicRef": "http://x/c.json#meta"}},
    }
    message = _definition_error(schema)
    assert "properties.a.items.$ref" in message
    assert "allOf[0].$ref" in message
    assert "$defs.c.$dynamicRef" in message


def test_a_reference_to_nowhere_inside_the_schema_is_refused() -> None:
    message = _definition_error(_obj_schema(a={"$ref": "#/$defs/missing"}))
    assert (
        "properties.a.$ref: '#/$defs/missing' does not point to anything inside the schema"
        in message
    )


def test_ref_shaped_data_is_not_a_reference() -> None:
    schema = _obj_schema(
        a={"const": {"$ref": "http://x/a.json"}},
        b={"enum": [{"$ref": "http://x/b.json"}]},
        c={"default": {"$ref": "http://x/c.json"}},
    )
    fn = _fn(schema)
    assert isinstance(fn.execute({"a": {"$ref": "http://x/a.json"}}), tp.Ok)


def test_a_property_named_ref_is_not_a_reference() -> None:
    fn = _fn(_obj_schema(**{"$ref": {"type": "string"}}))
    assert fn.execute({"$ref": "x"}) == tp.Ok('{"$ref": "x"}')


# -- drafts -----------------------------------------------------------------------------


def test_draft_7_items_array_and_definitions() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "pair": {
                "type": "array",
                "items": [{"type": "string"}, {"type": "integer"}],
                "additionalItems": False,
            },
            "p": {"$ref": "#/definitions/pos"},
        },
        "definitions": {"pos": {"type": "integer", "exclusiveMinimum": 0}},
    }
    fn = _fn(schema)
    assert isinstance(fn.execute({"pair": ["a", 1], "p": 1}), tp.Ok)
    bad = fn.execute({"pair": ["a", "b", 3], "p": 0})
    assert isinstance(bad, tp.Error)
    assert 'pair[1]: must be an integer (received "b")' in bad.message
    assert 'pair: must have at most 2 items (received ["a", "b", 3])' in bad.message
    assert "p: must be greater than 0 (received 0)" in bad.message


def test_draft_2019_09_recursive_ref() -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2019-09/schema",
        "$recursiveAnchor": True,
        "type": "object",
        "properties": {"child": {"$recursiveRef": "#"}, "n": {"type": "integer"}},
    }
    fn = _fn(schema)
    assert isinstance(fn.execute({"child": {"child": {"n": 1}}}), tp.Ok)
    bad = fn.execute({"child": {"child": {"n": "x"}}})
    assert isinstance(bad, tp.Error)
    assert 'child.child.n: must be an integer (received "x")' in bad.message


@pytest.mark.parametrize("fast", [False, None])
def test_draft_4_and_6(fast: bool | None) -> None:
    four = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "object",
        "properties": {
            "n": {
                "type": "number",
                "minimum": 0,
                "exclusiveMinimum": True,
                "maximum": 5,
                "exclusiveMaximum": True,
            }
        },
    }
    fn = _fn(JsonSchema(four, fast=fast))
    assert isinstance(fn.execute({"n": 1}), tp.Ok)
    assert "n: must be greater than 0 (received 0)" in fn.execute({"n": 0}).message  # type: ignore[union-attr]
    assert "n: must be less than 5 (received 5)" in fn.execute({"n": 5}).message  # type: ignore[union-attr]
    six = {
        "$schema": "http://json-schema.org/draft-06/schema",
        "type": "object",
        "properties": {"c": {"const": 1}},
    }
    assert (
        'c: must be 1 (received "1")' in _fn(JsonSchema(six, fast=fast)).execute({"c": "1"}).message
    )  # type: ignore[union-attr]


def test_draft_7_is_validated_by_its_own_rules() -> None:
    # "dependentRequired" is not a draft 7 keyword: it is ignored there
    schema = {"properties": {"a": {}}, "dependentRequired": {"a": ["b"]}}
    assert isinstance(
        _fn({"$schema": "http://json-schema.org/draft-07/schema#", **schema}).execute({"a": 1}),
        tp.Ok,
    )
    assert isinstance(_fn(schema).execute({"a": 1}), tp.Error)


# -- unknown arguments ----------------------------------------------------------------------


CLOSED: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "units": {"type": "string"},
        "where": {
            "type": "object",
            "properties": {"lat": {"type": "number"}},
            "additionalProperties": False,
        },
    },
    "required": ["city"],
    "additionalProperties": False,
}


def test_report_keeps_the_schema_rule_at_every_level() -> None:
    fn = _fn(CLOSED)
    assert fn.json_schema()["additionalProperties"] is False
    result = fn.execute({"city": "x", "zzz": 1, "where": {"lat": 1, "lng": 2}})
    assert isinstance(result, tp.Error)
    assert "Unrecognized parameters: zzz" in result.message
    assert "where.lng: is not accepted" in result.message


def test_report_with_an_open_schema_lets_unrelated_names_through() -> None:
    open_schema = {**CLOSED, "additionalProperties": True}
    fn = _fn(open_schema)
    assert fn.execute({"city": "x", "zzz": 1}) == tp.Ok('{"city": "x", "zzz": 1}')
    typo = fn.execute({"city": "x", "unit": "c"})
    assert isinstance(typo, tp.Error)
    assert 'unit (did you mean "units"?)' in typo.message


def test_reject_closes_the_top_level_only() -> None:
    open_schema = copy.deepcopy(CLOSED)
    open_schema["additionalProperties"] = True
    open_schema["properties"]["where"]["additionalProperties"] = True
    fn = _fn(open_schema, unknown_arguments="reject")
    exported = fn.json_schema()
    assert exported["additionalProperties"] is False
    assert exported["properties"]["where"]["additionalProperties"] is True
    result = fn.execute({"city": "x", "zzz": 1})
    assert isinstance(result, tp.Error)
    assert "Unrecognized parameters: zzz" in result.message
    assert isinstance(fn.execute({"city": "x", "where": {"lng": 1}}), tp.Ok)


def test_ignore_drops_top_level_unknown_names_even_when_the_schema_is_closed() -> None:
    fn = _fn(CLOSED, unknown_arguments="ignore")
    assert fn.execute({"city": "x", "zzz": 1}) == tp.Ok('{"city": "x"}')
    nested = fn.execute({"city": "x", "where": {"lng": 1}})
    assert isinstance(nested, tp.Error)
    assert "where.lng: is not accepted" in nested.message


def test_the_adapter_takes_the_policy_keyword_and_refuses_a_wrong_one() -> None:
    adapter = JsonSchemaAdapter()
    assert adapter.json_schema(CLOSED, unknown_arguments="reject") == CLOSED
    assert adapter.parser(CLOSED, unknown_arguments="ignore")({"city": "x"}) == tp.Ok({"city": "x"})
    with pytest.raises(ValueError, match="unknown_arguments must be one of"):
        adapter.parser(CLOSED, unknown_arguments="drop")  # type: ignore[arg-type]


def test_accepts_any_mapping_only() -> None:
    adapter = JsonSchemaAdapter()
    assert adapter.accepts({"type": "object"})
    assert adapter.accepts(JsonSchema({"type": "object"}))
    assert not adapter.accepts([{"type": "object"}])
    assert not adapter.accepts(dict)


# -- apply_defaults -----------------------------------------------------------------------------


DEFAULTS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "units": {"enum": ["c", "f"], "default": "c"},
        "days": {"type": "integer", "default": 3},
        "tags": {"type": "array", "default": []},
        "where": {
            "type": "object",
            "properties": {
                "lat": {"type": "number"},
                "radius_km": {"type": "number", "default": 10},
            },
        },
        "stops": {"type": "array", "items": {"$ref": "#/$defs/stop"}},
        "when": {"allOf": [{"$ref": "#/$defs/window"}]},
    },
    "required": ["city"],
    "$defs": {
        "stop": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "minutes": {"default": 5}},
        },
        "window": {"type": "object", "properties": {"hours": {"type": "integer", "default": 1}}},
    },
}


@pytest.mark.parametrize("fast", [False, None])
def test_apply_defaults_fills_absent_properties_at_every_level(fast: bool | None) -> None:
    received: list[Any] = []
    fn = tp.Function(
        "t", received.append, args_schema=JsonSchema(DEFAULTS, apply_defaults=True, fast=fast)
    )
    arguments = {
        "city": "Oslo",
        "days": 5,
        "where": {"lat": 1.5},
        "stops": [{"name": "a"}, {"minutes": 9}],
        "when": {},
    }
    sent = copy.deepcopy(arguments)
    fn.execute(arguments)
    assert received == [
        {
            "city": "Oslo",
            "days": 5,
            "units": "c",
            "tags": [],
            "where": {"lat": 1.5, "radius_km": 10},
            "stops": [{"name": "a", "minutes": 5}, {"minutes": 9}],
            "when": {"hours": 1},
        }
    ]
    assert arguments == sent  # what the model sent is never modified
    assert fn.parse_arguments(arguments) == tp.Ok(received[0])


def test_apply_defaults_creates_no_absent_objects_and_copies_mutable_defaults() -> None:
    received: list[Any] = []
    fn = tp.Function("t", received.append, args_schema=JsonSchema(DEFAULTS, apply_defaults=True))
    fn.execute({"city": "a"})
    fn.execute({"city": "b"})
    assert "where" not in received[0]
    assert received[0]["tags"] == []
    assert received[0]["tags"] is not received[1]["tags"]
    received[0]["tags"].append("x")
    fn.execute({"city": "c"})
    assert received[2]["tags"] == []


def test_apply_defaults_validates_what_the_model_sent() -> None:
    fn = _fn(JsonSchema(DEFAULTS, apply_defaults=True))
    result = fn.execute({"city": "x", "days": "five"})
    assert isinstance(result, tp.Error)
    assert 'days: must be an integer (received "five")' in result.message


def test_without_apply_defaults_the_arguments_are_passed_as_sent() -> None:
    received: list[Any] = []
    tp.Function("t", received.append, args_schema=DEFAULTS).execute({"city": "x"})
    assert received == [{"city": "x"}]


def test_apply_defaults_on_a_schema_without_defaults_and_a_recursive_one() -> None:
    received: list[Any] = []
    tree = {
        "type": "object",
        "properties": {"node": {"$ref": "#/$defs/node"}},
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                    "w": {"default": 1},
                },
            }
        },
    }
    fn = tp.Function("t", received.append, args_schema=JsonSchema(tree, apply_defaults=True))
    fn.execute({"node": {"kids": [{"kids": [{}]}]}})
    assert received == [{"node": {"w": 1, "kids": [{"w": 1, "kids": [{"w": 1}]}]}}]
    received.clear()
    fn = tp.Function(
        "t",
        received.append,
        args_schema=JsonSchema(WEATHER | {"properties": {"city": {}}}, apply_defaults=True),
    )
    sent = {"city": "x"}
    fn.execute(sent)
    assert received == [sent]  # nothing to fill in: the arguments as sent


# -- the JsonSchema wrapper ----------------------------------------------------------------------


def test_the_wrapper_reads_as_its_schema() -> None:
    wrapped = JsonSchema(WEATHER, apply_defaults=True)
    assert dict(wrapped) == WEATHER
    assert wrapped["type"] == "object"
    assert len(wrapped) == len(WEATHER)
    assert wrapped.schema is WEATHER
    assert wrapped.apply_defaults is True
    assert wrapped.fast is None
    assert wrapped == JsonSchema(WEATHER, apply_defaults=True)
    assert wrapped != JsonSchema(WEATHER)
    assert (
        repr(JsonSchema({"type": "object"}, fast=False))
        == "JsonSchema({'type': 'object'}, fast=False)"
    )
    with pytest.raises(TypeError):
        hash(wrapped)
    assert _fn(wrapped).json_schema() == WEATHER


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [(([],), {}), ((WEATHER,), {"apply_defaults": 1}), ((WEATHER,), {"fast": "yes"})],
)
def test_the_wrapper_checks_its_arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    with pytest.raises(TypeError):
        JsonSchema(*args, **kwargs)


def test_the_wrapper_works_as_a_declared_only_parameters_schema() -> None:
    fn = tp.Function("t", lambda a: "ran", parameters_schema=JsonSchema(WEATHER))
    assert fn.json_schema() == WEATHER


# -- the fast path ---------------------------------------------------------------------------------


def _cause(source: Any) -> Any:
    result = _fn(source).execute({"city": 1})
    assert isinstance(result, tp.Error)
    assert result.exception is not None
    return result.exception.__cause__


@needs_fast
def test_jsonschema_rs_is_the_engine_when_installed_and_can_be_turned_off() -> None:
    import jsonschema
    import jsonschema_rs

    # a rejection's cause is the error of the library that checked the call
    assert isinstance(_cause(WEATHER), jsonschema_rs.ValidationError)
    assert isinstance(_cause(JsonSchema(WEATHER, fast=True)), jsonschema_rs.ValidationError)
    cause = _cause(JsonSchema(WEATHER, fast=False))
    assert isinstance(cause, jsonschema.exceptions.ValidationError)


def test_fast_true_without_jsonschema_rs_is_a_definition_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import jsonschema

    monkeypatch.setitem(sys.modules, "jsonschema_rs", None)  # makes the import fail
    with pytest.raises(
        tp.FunctionDefinitionError,
        match=r'fast: jsonschema-rs is not installed; pip install "toolparse-jsonschema\[fast\]"',
    ):
        _fn(JsonSchema(WEATHER, fast=True))
    # by default the pure engine takes over, silently
    assert isinstance(_cause(WEATHER), jsonschema.exceptions.ValidationError)


@needs_fast
def test_a_schema_jsonschema_rs_cannot_take_goes_to_the_pure_engine() -> None:
    import jsonschema

    # a look-ahead needs a backtracking search: jsonschema-rs's linear engine refuses it
    schema = _obj_schema(code={"type": "string", "pattern": "^(?=[A-Z])[A-Z0-9]+$"})
    with pytest.raises(tp.FunctionDefinitionError, match="fast: jsonschema-rs cannot compile"):
        _fn(JsonSchema(schema, fast=True))
    fn = _fn(schema)
    assert fn.execute({"code": "A1"}) == tp.Ok('{"code": "A1"}')
    result = fn.execute({"code": "1A"})
    assert isinstance(result, tp.Error)
    assert 'code: must match the pattern ^(?=[A-Z])[A-Z0-9]+$ (received "1A")' in result.message
    assert isinstance(result.exception.__cause__, jsonschema.exceptions.ValidationError)  # type: ignore[union-attr]


@needs_fast
def test_when_only_the_fast_path_rejects_it_explains_itself() -> None:
    schema = _obj_schema(mail={"type": "string", "format": "email"})
    # the jsonschema library's email check only looks for an "@"
    assert isinstance(
        _fn(JsonSchema(schema, fast=False)).execute({"mail": "a..b@example.com"}), tp.Ok
    )
    result = _fn(JsonSchema(schema, fast=True)).execute({"mail": "a..b@example.com"})
    assert isinstance(result, tp.Error)
    assert 'mail: must be an email address (received "a..b@example.com")' in result.message


@needs_fast
def test_values_the_fast_path_cannot_take_go_to_the_pure_path() -> None:
    fn = _fn(JsonSchema(_obj_schema(n={"type": "integer", "maximum": 5}), fast=True))
    big = 10**400
    result = fn.execute({"n": big})
    assert isinstance(result, tp.Error)
    assert "n: must be at most 5" in result.message
    assert isinstance(fn.execute({"n": -big}), tp.Ok)


@needs_fast
def test_formats_the_pure_engine_does_not_check_are_not_checked_by_jsonschema_rs_either() -> None:
    junk = "-- not valid at all --"
    formats = ["hostname", "duration", "uri-template", "iri", "date", "email"]
    schema = _obj_schema(**{f: {"type": "string", "format": f} for f in formats})
    pure = _fn(JsonSchema(schema, fast=False)).execute(dict.fromkeys(formats, junk))
    assert isinstance(pure, tp.Error)
    refused = {p.path[0] for p in pure.exception.problems}  # type: ignore[union-attr]
    assert {"date", "email"} <= refused
    fast = _fn(JsonSchema(schema, fast=True)).execute(dict.fromkeys(formats, junk))
    assert isinstance(fast, tp.Error)
    # installing jsonschema-rs never makes a format start being checked
    assert {p.path[0] for p in fast.exception.problems} == refused  # type: ignore[union-attr]


def test_a_value_that_is_not_json_data_is_a_problem_at_its_place() -> None:
    import enum

    class Unit(str, enum.Enum):
        C = "c"

    class Text(str):
        pass

    schema = _obj_schema(unit={"enum": ["c", "f"]}, tags={"type": "array"})
    for fast in (None, False):
        fn = _fn(JsonSchema(schema, fast=fast))
        # what subclasses a JSON type is that JSON value
        assert isinstance(fn.execute({"unit": Unit.C, "tags": [Text("a")]}), tp.Ok)
        result = fn.execute({"unit": "k", "tags": [b"x"]})
        assert isinstance(result, tp.Error)
        assert 'unit: must be one of: "c", "f" (received "k")' in result.message


@pytest.mark.parametrize("fast", [None, False])
def test_a_pattern_pythons_re_refuses_is_a_definition_error_whichever_library_checks(
    fast: bool | None,
) -> None:
    # jsonschema-rs' metaschema check takes ECMA syntax (a named group "(?<n>...)"),
    # the library's compiles patterns with Python's re: the schema is refused either way
    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "(?<n>x)"}}}
    with pytest.raises(tp.FunctionDefinitionError, match=r"properties\.a\.pattern"):
        _fn(JsonSchema(schema, fast=fast))
