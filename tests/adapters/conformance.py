"""The shared adapter conformance suite.

Every adapter's tests subclass :class:`AdapterConformance` and implement
:meth:`AdapterConformance.case`; the suite then checks the behaviour every
adapter must have, the same way for all of them:

- the exported schema is valid JSON Schema (2020-12 metaschema), an object
  schema, with no auto-generated titles, built once;
- valid arguments give ``Ok`` and the body receives what the library produces;
- each kind of invalid input gives ONE ``Error`` naming every problem, in the
  shared layout (no URLs, no library class names);
- unknown keys under each ``unknown_arguments`` policy, agreeing with the
  exported ``additionalProperties``;
- a returned model instance serialises to its JSON text;
- ``parse_arguments`` gives exactly what ``execute`` hands the body;
- schema and parser agree: instances generated from the exported schema
  (hypothesis-jsonschema) are accepted by the parser, for every model of the
  adapter's corpus.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

import toolparse as tp


@dataclass
class Invalid:
    """One kind of invalid input and what the message must name."""

    arguments: dict[str, Any]
    #: substrings the ONE error message must contain (every problem named)
    expect: Sequence[str]


@dataclass
class ConformanceCase:
    """What an adapter's tests provide to the shared suite."""

    #: the adapter's registered name
    adapter: str
    #: the model under test: at least one required field (with an integer or
    #: number among the fields), one optional field, and a nested object or
    #: list of objects
    source: Any
    #: arguments the library accepts
    valid: dict[str, Any]
    #: asserts on what the body receives for ``valid`` (an instance, loaded data)
    check_parsed: Callable[[Any], None]
    #: wrong type, missing required, nested problem, several problems at once
    invalid: Sequence[Invalid]
    #: a misspelling of an OPTIONAL accepted name, and that name
    typo: tuple[str, str]
    #: a model instance a tool body may return, and the JSON value it serialises to
    instance: Any
    instance_json: Any
    #: the models whose exported schema must agree with the parser (>= 10)
    corpus: Sequence[Any] = field(default_factory=list)


FORBIDDEN_IN_MESSAGES = re.compile(
    r"https?://|input_value=|Traceback|ValidationError|pydantic|marshmallow|cattrs|jsonschema\b"
)

_METASCHEMA = jsonschema.Draft202012Validator


def _titles(schema: object, path: str = "") -> list[str]:
    """Paths of auto-generated ``title`` keys anywhere in a schema."""
    found: list[str] = []
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if key == "title" and isinstance(value, str):
                found.append(path or "/")
            elif key in ("properties", "$defs", "definitions", "patternProperties") and isinstance(
                value, Mapping
            ):
                # property *names* may legitimately be "title"
                for name, sub in value.items():
                    found.extend(_titles(sub, f"{path}/{key}/{name}"))
            else:
                found.extend(_titles(value, f"{path}/{key}"))
    elif isinstance(schema, list):
        for i, item in enumerate(schema):
            found.extend(_titles(item, f"{path}/{i}"))
    return found


class Recording(tp.Function):
    """A Function that keeps what its body received, for the assertions."""

    __slots__ = ("received",)
    received: list[Any]


class AdapterConformance:
    """Subclass as ``TestXConformance`` and implement :meth:`case`."""

    def case(self) -> ConformanceCase:
        raise NotImplementedError

    def function(self, **kwargs: Any) -> Recording:
        received: list[Any] = []

        def body(arguments: Any) -> str:
            received.append(arguments)
            return "done"

        fn = Recording("tool", body, args_schema=self.case().source, **kwargs)
        object.__setattr__(fn, "received", received)  # Function is immutable by design
        return fn

    # -- resolution and schema ----------------------------------------------------

    def test_adapter_is_resolved(self) -> None:
        case = self.case()
        fn = tp.Function("tool", lambda a: "x", args_schema=case.source)
        assert fn.adapter is not None
        assert fn.adapter.name == case.adapter

    def test_schema_is_valid_json_schema(self) -> None:
        schema = tp.Function("tool", lambda a: "x", args_schema=self.case().source).json_schema()
        _METASCHEMA.check_schema(schema)
        assert schema.get("type") == "object"
        assert isinstance(schema.get("properties"), dict)

    def test_schema_has_no_generated_titles(self) -> None:
        schema = tp.Function("tool", lambda a: "x", args_schema=self.case().source).json_schema()
        assert _titles(schema) == []

    def test_schema_is_built_once(self) -> None:
        case = self.case()
        adapter = tp.plugin_manager().adapter(case.adapter)
        assert adapter is not None
        calls = 0
        original = adapter.json_schema

        class Counting:
            name = case.adapter

            def accepts(self, source: object) -> bool:
                return adapter.accepts(source)

            def json_schema(self, source: Any) -> dict[str, Any]:
                nonlocal calls
                calls += 1
                return original(source)

            def parser(self, source: Any) -> Any:
                return adapter.parser(source)

        class Plugin:
            @tp.hookimpl
            def toolparse_register_adapters(self, register: Callable[[Any], None]) -> None:
                register(Counting())

        pm = tp.make_plugin_manager(load_entry_points=False)
        pm.register(Plugin())
        fn = tp.Function("tool", lambda a: "x", args_schema=case.source, plugin_manager=pm)
        for _ in range(3):
            fn.json_schema()
            fn.execute(case.valid)
        assert calls == 1

    def test_schema_valid_instance_matches_valid_arguments(self) -> None:
        case = self.case()
        schema = tp.Function("tool", lambda a: "x", args_schema=case.source).json_schema()
        jsonschema.validate(case.valid, schema, cls=_METASCHEMA)

    # -- parsing ------------------------------------------------------------------

    def test_valid_arguments_reach_the_body(self) -> None:
        case = self.case()
        fn = self.function()
        assert fn.execute(case.valid) == tp.Ok("done")
        assert len(fn.received) == 1
        case.check_parsed(fn.received[0])

    def test_valid_arguments_as_json_text(self) -> None:
        case = self.case()
        fn = self.function()
        assert fn.execute(json.dumps(case.valid)) == tp.Ok("done")
        case.check_parsed(fn.received[0])

    def test_parse_arguments_equals_what_execute_hands_the_body(self) -> None:
        case = self.case()
        fn = self.function()
        parsed = fn.parse_arguments(case.valid)
        assert isinstance(parsed, tp.Ok)
        fn.execute(case.valid)
        assert parsed.value == fn.received[0]
        case.check_parsed(parsed.value)

    @pytest.mark.parametrize("index", range(6))
    def test_each_invalid_input_is_one_error_naming_every_problem(self, index: int) -> None:
        case = self.case()
        if index >= len(case.invalid):
            pytest.skip("the case lists fewer invalid inputs")
        bad = case.invalid[index]
        fn = self.function()
        result = fn.execute(bad.arguments)
        assert isinstance(result, tp.Error), result
        assert fn.received == []
        message = result.message
        assert message.startswith("Invalid arguments for this tool.\n\n"), message
        assert message.endswith("\n\nFix these arguments and call the tool again."), message
        for expected in bad.expect:
            assert expected in message, (expected, message)
        assert not FORBIDDEN_IN_MESSAGES.search(message), message
        assert len(message) <= 2000
        assert isinstance(result.exception, tp.InvalidArguments)
        assert result.exception.problems
        # parse_arguments rejects the same way, without running the body
        again = fn.parse_arguments(bad.arguments)
        assert isinstance(again, tp.Error)
        assert again.message == message
        assert isinstance(again.exception, tp.InvalidArguments)
        assert again.exception.problems == result.exception.problems

    def test_invalid_inputs_cover_the_required_kinds(self) -> None:
        # wrong type, missing required, nested problem, several at once
        assert len(self.case().invalid) >= 4

    def test_missing_required_is_listed_with_accepted_names(self) -> None:
        case = self.case()
        fn = self.function()
        required = fn.required_param_names()
        assert required, "the case's model must have a required field"
        args = {k: v for k, v in case.valid.items() if k != required[0]}
        result = fn.execute(args)
        assert isinstance(result, tp.Error)
        assert f"Missing parameters: {required[0]}" in result.message
        assert "Accepted parameters: " + ", ".join(fn.accepted_param_names()) in result.message

    def test_not_an_object_and_bad_json(self) -> None:
        fn = self.function()
        assert fn.execute("[1, 2]") == tp.Error(
            "The arguments for tool tool must be a JSON object, not a list."
        )
        bad = fn.execute('{"a": ')
        assert isinstance(bad, tp.Error)
        assert bad.message.startswith("The arguments for tool tool are not valid JSON (")

    # -- unknown arguments ------------------------------------------------------------

    def test_report_rejects_a_likely_typo(self) -> None:
        case = self.case()
        wrong, right = case.typo
        assert (
            right in tp.Function("t", lambda a: "x", args_schema=case.source).accepted_param_names()
        )
        assert right not in case.valid, (
            "the typo must be of an optional name the valid case does not send"
        )
        fn = self.function()
        result = fn.execute({**case.valid, wrong: case.valid.get(right)})
        assert isinstance(result, tp.Error)
        assert f'{wrong} (did you mean "{right}"?)' in result.message
        assert fn.received == []

    def test_report_lets_an_unrelated_name_through_or_names_it(self) -> None:
        case = self.case()
        fn = self.function()
        result = fn.execute({**case.valid, "zzqx_unrelated": 1})
        schema = fn.json_schema()
        if schema.get("additionalProperties") is False:
            # the model itself forbids extras: the library's rejection stands
            assert isinstance(result, tp.Error)
            assert "zzqx_unrelated" in result.message
        else:
            assert result == tp.Ok("done")

    def test_reject_rejects_any_unknown_name_and_says_so_in_the_schema(self) -> None:
        case = self.case()
        fn = self.function(unknown_arguments="reject")
        assert fn.json_schema().get("additionalProperties") is False
        assert fn.execute(case.valid) == tp.Ok("done")
        result = fn.execute({**case.valid, "zzqx_unrelated": 1})
        assert isinstance(result, tp.Error)
        assert "Unrecognized parameters: zzqx_unrelated" in result.message
        assert "Accepted parameters: " in result.message

    def test_reject_merges_unknown_names_with_other_problems(self) -> None:
        case = self.case()
        fn = self.function(unknown_arguments="reject")
        bad = case.invalid[0]
        result = fn.execute({**bad.arguments, "zzqx_unrelated": 1})
        assert isinstance(result, tp.Error)
        assert "Unrecognized parameters: zzqx_unrelated" in result.message
        for expected in bad.expect:
            assert expected in result.message

    def test_ignore_drops_unknown_names(self) -> None:
        case = self.case()
        wrong, _ = case.typo
        fn = self.function(unknown_arguments="ignore")
        assert fn.execute({**case.valid, wrong: 1, "zzqx_unrelated": 2}) == tp.Ok("done")
        case.check_parsed(fn.received[0])

    # -- results --------------------------------------------------------------------

    def test_returning_a_model_instance_gives_its_json(self) -> None:
        case = self.case()
        fn = tp.Function("tool", lambda a: case.instance, args_schema=case.source)
        result = fn.execute(case.valid)
        assert isinstance(result, tp.Ok), result
        assert isinstance(result.value, str)
        assert json.loads(result.value) == case.instance_json

    def test_decorator_accepts_the_model(self) -> None:
        case = self.case()
        seen: dict[str, Any] = {}

        @tp.tool("decorated", args_schema=case.source)
        def decorated(**kwargs: Any) -> str:
            """Take the model's fields as keyword arguments."""
            seen.update(kwargs)
            return "ok"

        assert isinstance(decorated, tp.Function)
        assert decorated.execute(case.valid) == tp.Ok("ok")
        assert seen, "the body is called with the model's fields as keyword arguments"
        plain = tp.Function("t", lambda a: "x", args_schema=case.source)
        assert decorated.json_schema() == plain.json_schema()

    # -- schema and parser agree ----------------------------------------------------

    def test_corpus_is_large_enough(self) -> None:
        assert len(self.case().corpus) >= 10

    def test_schema_and_parser_agree(self) -> None:
        for source in self.case().corpus:
            # "ignore": the schema allows extra keys where the model does, and
            # the "report" policy deliberately rejects generated ones that look
            # like typos ("A" for "name"); the agreement is about the library
            fn = tp.Function("tool", lambda a: "x", args_schema=source, unknown_arguments="ignore")
            schema = fn.json_schema()
            _METASCHEMA.check_schema(schema)
            _agree(fn, schema)


def _agree(fn: tp.Function, schema: dict[str, Any]) -> None:
    @settings(
        max_examples=25,
        deadline=None,
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.filter_too_much,
            HealthCheck.data_too_large,
        ],
    )
    @given(from_schema(schema))
    def check(instance: Any) -> None:
        result = fn.parse_arguments(instance)
        assert isinstance(result, tp.Ok), (instance, result)

    check()


__all__ = ["AdapterConformance", "ConformanceCase", "Invalid", "st"]
