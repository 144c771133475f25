"""The conformance checks, as the test methods of :class:`AdapterConformance`."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

import toolparse as tp

from ..adapter import type_reason
from ..hookspecs import hookimpl
from ..plugins import PluginManager, make_plugin_manager
from ._case import FORBIDDEN_IN_MESSAGES, ConformanceCase, agree, generated_titles, metaschema
from ._voice import ONE_VOICE, one_voice_message

__all__ = ["AdapterConformance", "adapter_plugin", "plugin_manager_for"]


def adapter_plugin(*adapters: Any) -> object:
    """A plugin object registering ``adapters`` (the later one asked first)."""

    class Plugin:
        @hookimpl
        def toolparse_register_adapters(self, register: Callable[[Any], None]) -> None:
            for adapter in adapters:
                register(adapter)

    return Plugin()


def plugin_manager_for(adapter: Any) -> PluginManager:
    """A fresh plugin manager: the core's defaults and ``adapter``, no entry points.

    When the defaults already hold an adapter of that name (the built-in
    one), that one stays and ``adapter`` is not registered again.
    """
    pm = make_plugin_manager(load_entry_points=False)
    if pm.adapter(adapter.name) is None:
        pm.register(adapter_plugin(adapter), name=f"conformance-{adapter.name}")
    return pm


class _Recording(tp.Function):
    """A Function that keeps what its body received, for the assertions."""

    __slots__ = ("received",)
    received: list[Any]


class AdapterConformance:
    """Subclass as ``TestXConformance`` and implement :meth:`case`; pytest runs the rest."""

    def case(self) -> ConformanceCase:
        """The adapter under test and its model (see :class:`ConformanceCase`)."""
        raise NotImplementedError

    def plugin_manager(self) -> PluginManager:
        """The manager every Function of the kit is built with (a fresh one per test)."""
        found: PluginManager | None = self.__dict__.get("_pm")
        if found is None:
            found = self.__dict__["_pm"] = plugin_manager_for(self.case().adapter)
        return found

    def tool(self, source: Any = None, body: Any = None, **kwargs: Any) -> tp.Function:
        """A Function over the case's source (or ``source``), on the kit's manager."""
        return tp.Function(
            "tool",
            body or (lambda a: "x"),
            args_schema=self.case().source if source is None else source,
            plugin_manager=self.plugin_manager(),
            **kwargs,
        )

    def function(self, **kwargs: Any) -> _Recording:
        """A Function whose body records what it receives (in ``.received``)."""
        received: list[Any] = []

        def body(arguments: Any) -> str:
            received.append(arguments)
            return "done"

        fn = _Recording(
            "tool",
            body,
            args_schema=self.case().source,
            plugin_manager=self.plugin_manager(),
            **kwargs,
        )
        object.__setattr__(fn, "received", received)  # Function is immutable by design
        return fn

    # -- resolution and schema ----------------------------------------------------

    def test_adapter_is_resolved(self) -> None:
        fn = self.tool()
        assert fn.adapter is not None
        assert fn.adapter.name == self.case().adapter.name

    def test_accepts_never_raises(self) -> None:
        adapter = self.plugin_manager().adapter(self.case().adapter.name)
        assert adapter is not None
        assert adapter.accepts(self.case().source) is True
        for odd in (None, 0, "model", object(), [1], type("Odd", (), {}), list[int]):
            assert isinstance(adapter.accepts(odd), bool)

    def test_schema_is_valid_json_schema(self) -> None:
        schema = self.tool().json_schema()
        metaschema().check_schema(schema)
        assert schema.get("type") == "object"
        assert isinstance(schema.get("properties"), dict)

    def test_schema_has_no_generated_titles(self) -> None:
        assert generated_titles(self.tool().json_schema()) == []

    def test_schema_is_built_once(self) -> None:
        case = self.case()
        adapter = self.plugin_manager().adapter(case.adapter.name)
        # the one compile step, or the two-method form's schema
        method = "compile" if callable(getattr(adapter, "compile", None)) else "json_schema"
        builds: list[Any] = []
        original = getattr(type(adapter), method)

        def counted(adapter: Any, *args: Any, **kwargs: Any) -> Any:
            builds.append(args)
            return original(adapter, *args, **kwargs)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(type(adapter), method, counted)
            fn = self.tool()
            for _ in range(3):
                fn.json_schema()
                fn.execute(case.valid)
        assert len(builds) == 1

    def test_schema_valid_instance_matches_valid_arguments(self) -> None:
        validator = metaschema()
        errors = list(validator(self.tool().json_schema()).iter_errors(self.case().valid))
        assert errors == []

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

    def test_a_wrong_type_reads_in_the_shared_words(self) -> None:
        # one vocabulary for one mistake: a value of the wrong JSON type, for
        # every top-level property of one declared type, reads as every
        # adapter (and FunctionParam) says it: "must be an integer", ...
        case = self.case()
        fn = self.tool()
        props = fn.json_schema().get("properties") or {}
        checked = 0
        for name, schema in props.items():
            kind = schema.get("type") if isinstance(schema, dict) else None
            wrong = _WRONG.get(kind) if isinstance(kind, str) else None
            if wrong is None or name not in case.valid:
                continue
            result = fn.execute({**case.valid, name: wrong})
            assert isinstance(result, tp.Error), (name, result)
            line = f"{name}: {type_reason(str(kind))} (received {json.dumps(wrong)})"
            assert line in result.message.splitlines(), (line, result.message)
            checked += 1
        assert checked, "no top-level property of one declared type to check"

    def test_invalid_inputs_cover_the_required_kinds(self) -> None:
        # wrong type, missing required, nested problem, several at once
        assert 4 <= len(self.case().invalid) <= 6

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
        assert right in self.tool().accepted_param_names()
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
        if fn.json_schema().get("additionalProperties") is False:
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
        result = self.tool(body=lambda a: case.instance).execute(case.valid)
        assert isinstance(result, tp.Ok), result
        assert isinstance(result.value, str)
        assert json.loads(result.value) == case.instance_json

    def test_decorator_accepts_the_model(self) -> None:
        case = self.case()
        seen: dict[str, Any] = {}

        @tp.tool("decorated", args_schema=case.source, plugin_manager=self.plugin_manager())
        def decorated(**kwargs: Any) -> str:
            """Take the model's fields as keyword arguments."""
            seen.update(kwargs)
            return "ok"

        assert isinstance(decorated, tp.Function)
        assert decorated.execute(case.valid) == tp.Ok("ok")
        assert seen, "the body is called with the model's fields as keyword arguments"
        assert decorated.json_schema() == self.tool().json_schema()

    # -- one voice ----------------------------------------------------------------

    @pytest.mark.parametrize("key", [check.key for check in ONE_VOICE])
    def test_the_same_wrong_call_reads_the_same_line(self, key: str) -> None:
        # the case's one_voice fixture declares ``value`` for each check (None: the
        # library cannot); a check listed in one_voice_gaps is an expected failure,
        # and a failure once it passes, so the entry goes when the adapter is fixed
        case, check = self.case(), next(check for check in ONE_VOICE if check.key == key)
        if case.one_voice is None:
            pytest.skip("the case names no one_voice sources")
        source = case.one_voice(check)
        if source is None:
            pytest.skip(f"the library cannot declare {key!r}")
        gap = case.one_voice_gaps.get(key)
        try:
            fn = self.tool(source)
            assert fn.required_param_names() == ["value"], "the source's one required field: value"
            assert fn.execute({"value": check.right}) == tp.Ok("x"), (key, check.right)
            result = fn.execute(check.arguments)
            assert type(result) is tp.Error, (key, result)
            assert result.message == one_voice_message(check), (key, result.message)
        except AssertionError:
            if gap is None:
                raise
            pytest.xfail(f"an expected gap: {key!r} still reads {gap!r}")
        if gap is not None:
            pytest.fail(f"{key!r} is listed as a gap but reads the shared words now: remove it")

    def test_a_verdict_says_valid_only_where_the_parser_takes_the_call_as_sent(self) -> None:
        # Compiled.verdict lets a call skip the parser: True must mean the parser's
        # own Ok of those very arguments (or Ok(None)), never a call it rejects
        case = self.case()
        compile_ = getattr(case.adapter, "compile", None)
        if compile_ is None:
            pytest.skip("the adapter has no compile step (the two-method form)")
        compiled = compile_(
            case.source,
            unknown_arguments="report",
            field_schema=self.plugin_manager().field_schema_for(case.adapter.name),
            parser=True,
        )
        if compiled.verdict is None:
            pytest.skip("the adapter gives no verdict")
        for arguments in [case.valid, *(bad.arguments for bad in case.invalid)]:
            try:
                said = compiled.verdict(copy.deepcopy(arguments))
            except Exception:
                continue  # not decided: the parser decides
            if said is True:
                result = compiled.parser(copy.deepcopy(arguments))
                assert type(result) is tp.Ok, (arguments, result)
                assert result.value is None or result.value == arguments, (arguments, result)

    # -- schema and parser agree ----------------------------------------------------

    def test_corpus_is_large_enough(self) -> None:
        assert len(self.case().corpus) >= 10

    def test_schema_and_parser_agree(self) -> None:
        for source in self.case().corpus:
            # "ignore": the schema allows extra keys where the model does, and
            # the "report" policy deliberately rejects generated ones that look
            # like typos ("A" for "name"); the agreement is about the library
            fn = self.tool(source, unknown_arguments="ignore")
            schema = fn.json_schema()
            metaschema().check_schema(schema)
            agree(fn, schema)


# for each JSON type, a value no adapter takes for it (lax libraries included)
_WRONG: dict[str, Any] = {
    "integer": "lots",
    "number": "lots",
    "boolean": "maybe",
    "object": "lots",
    "array": "lots",
}
