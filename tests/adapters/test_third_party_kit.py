"""A third-party adapter, written against the adapter SDK alone, passes ``toolparse.testing``.

The "library" here is a tiny schema language (:class:`Spec`: named fields of
JSON types, nested specs, lists of either); its adapter uses the one-step
``compile`` form, the SDK's shared constants and ``invalid_arguments``, the
way a package outside this repository would.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import toolparse as tp
from toolparse.adapter import (
    JSON_TYPES,
    Compiled,
    FieldSchema,
    UnknownArguments,
    check_policy,
    type_reason,
)
from toolparse.testing import AdapterConformance, ConformanceCase, Invalid, OneVoice

_MISSING = object()


class Spec:
    """A record type: ``Spec("Line", sku=str, quantity=(int, REQUIRED), note=(str, "x"))``."""

    def __init__(self, name: str, /, **fields: Any) -> None:
        self.name = name
        self.fields: dict[str, tuple[Any, Any]] = {}
        for key, spec in fields.items():
            kind, default = spec if isinstance(spec, tuple) else (spec, _MISSING)
            self.fields[key] = (kind, default)


class Record:
    """What the parser builds: the fields as attributes."""

    def __init__(self, spec: Spec, values: dict[str, Any]) -> None:
        self.spec = spec
        self.values = values

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and (self.spec, self.values) == (
            other.spec,
            other.values,
        )

    def __hash__(self) -> int:
        return id(self.spec)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["values"][name]
        except KeyError:
            raise AttributeError(name) from None


def _kind_name(kind: Any) -> str:
    return JSON_TYPES[kind]


class SpecAdapter:
    """The adapter a third party would ship for :class:`Spec`."""

    name = "spec"

    def accepts(self, source: object) -> bool:
        return isinstance(source, Spec)

    def compile(
        self,
        source: Spec,
        *,
        unknown_arguments: UnknownArguments,
        field_schema: FieldSchema,
        parser: bool,
    ) -> Compiled:
        check_policy(unknown_arguments)
        schema = self._object(source, field_schema)
        required = [k for k, (_, default) in source.fields.items() if default is _MISSING]
        return Compiled(
            schema,
            self._parser(source) if parser else None,
            accepted=list(source.fields),
            required=required,
        )

    # the two-method form, for callers of earlier releases
    def json_schema(self, source: Spec) -> dict[str, Any]:
        return self._object(source, lambda field, schema: schema)

    def parser(self, source: Spec) -> Any:
        return self._parser(source)

    def serialize(self, value: object) -> str | None:
        return json.dumps(_plain(value)) if isinstance(value, Record) else None

    def keywords(self, value: Any) -> dict[str, Any]:
        return dict(value.values)

    # -- schema ----------------------------------------------------------------

    def _object(self, spec: Spec, hook: FieldSchema) -> dict[str, Any]:
        properties = {}
        for key, (kind, default) in spec.fields.items():
            prop = self._type(kind, hook)
            if default is not _MISSING:
                prop["default"] = default
            properties[key] = hook(key, prop)
        schema: dict[str, Any] = {"type": "object", "properties": properties}
        required = [k for k, (_, default) in spec.fields.items() if default is _MISSING]
        if required:
            schema["required"] = required
        return schema

    def _type(self, kind: Any, hook: FieldSchema) -> dict[str, Any]:
        if isinstance(kind, Spec):
            return self._object(kind, hook)
        if isinstance(kind, list):
            return {"type": "array", "items": self._type(kind[0], hook)}
        return {"type": _kind_name(kind)}

    # -- parser ----------------------------------------------------------------

    def _parser(self, spec: Spec) -> Any:
        accepted = tuple(spec.fields)

        def parse(arguments: dict[str, Any]) -> Any:
            problems: list[tp.ArgumentProblem] = []
            value = _check(spec, arguments, (), problems)
            if problems:
                return tp.invalid_arguments(problems, arguments=arguments, accepted=accepted)
            return tp.ok(value)

        return parse


def _check(kind: Any, value: Any, path: tuple[Any, ...], out: list[tp.ArgumentProblem]) -> Any:
    if isinstance(kind, Spec):
        if not isinstance(value, dict):
            out.append(tp.ArgumentProblem(path, type_reason("object"), value))
            return None
        values: dict[str, Any] = {}
        for key, (sub, default) in kind.fields.items():
            if key in value:
                values[key] = _check(sub, value[key], (*path, key), out)
            elif default is _MISSING:
                out.append(tp.ArgumentProblem.missing((*path, key)))
            else:
                values[key] = default
        return Record(kind, values)
    if isinstance(kind, list):
        if not isinstance(value, list):
            out.append(tp.ArgumentProblem(path, type_reason("array"), value))
            return None
        return [_check(kind[0], item, (*path, i), out) for i, item in enumerate(value)]
    ok = type(value) is kind or (kind is float and type(value) is int)
    if not ok:
        # the shared words of the adapter SDK, as every adapter says it
        out.append(tp.ArgumentProblem(path, type_reason(_kind_name(kind)), value))
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, Record):
        return {k: _plain(v) for k, v in value.values.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


LINE = Spec("Line", sku=str, quantity=int)
INVOICE = Spec(
    "Invoice",
    vendor_name=str,
    total_amount=float,
    line_items=[LINE],
    currency=(str, "EUR"),
)
CORPUS = [
    INVOICE,
    LINE,
    Spec("Flags", on=bool, off=(bool, False)),
    Spec("Numbers", n=int, x=float),
    Spec("Texts", a=str, b=(str, "")),
    Spec("Lists", ints=[int], texts=([str], [])),
    Spec("Nested", inner=Spec("Inner", value=int)),
    Spec("Deep", a=Spec("A", b=Spec("B", c=str))),
    Spec("Matrix", rows=[[int]]),
    Spec("Optional", maybe=(int, 0)),
]


NAMED = Spec("Named", name=str)
#: the one-voice sources a Spec can declare: JSON types, lists and nested specs
ONE_VOICE_SOURCES = {
    "string": Spec("AString", value=str),
    "integer": Spec("AnInteger", value=int),
    "number": Spec("ANumber", value=float),
    "boolean": Spec("ABoolean", value=bool),
    "object": Spec("AnObject", value=NAMED),
    "list": Spec("AList", value=[int]),
    "nested_required": Spec("AnObject", value=NAMED),
}


def _one_voice(check: OneVoice) -> Spec | None:
    return ONE_VOICE_SOURCES.get(check.key)


def _check_parsed(parsed: Any) -> None:
    assert isinstance(parsed, Record)
    assert parsed.vendor_name == "ACME"
    assert parsed.total_amount == 12.5
    assert parsed.currency == "EUR"
    assert parsed.line_items == [Record(LINE, {"sku": "A-1", "quantity": 2})]


class TestThirdPartyAdapterConformance(AdapterConformance):
    def case(self) -> ConformanceCase:
        return ConformanceCase(
            adapter=SpecAdapter(),
            source=INVOICE,
            valid={
                "vendor_name": "ACME",
                "total_amount": 12.5,
                "line_items": [{"sku": "A-1", "quantity": 2}],
            },
            check_parsed=_check_parsed,
            invalid=[
                Invalid(
                    {"vendor_name": "ACME", "total_amount": "abc", "line_items": []},
                    ['total_amount: must be a number (received "abc")'],
                ),
                Invalid({"total_amount": 1, "line_items": []}, ["Missing parameters: vendor_name"]),
                Invalid(
                    {"vendor_name": "ACME", "total_amount": 1, "line_items": [{"sku": "A-1"}]},
                    ["line_items[0].quantity: is required"],
                ),
                Invalid(
                    {"total_amount": "abc", "line_items": [{"sku": 1, "quantity": 2}]},
                    [
                        'total_amount: must be a number (received "abc")',
                        "line_items[0].sku: must be a string (received 1)",
                        "Missing parameters: vendor_name",
                    ],
                ),
            ],
            typo=("curency", "currency"),
            instance=Record(INVOICE, {"vendor_name": "ACME", "line_items": []}),
            instance_json={"vendor_name": "ACME", "line_items": []},
            corpus=CORPUS,
            one_voice=_one_voice,
        )


def test_the_kit_uses_its_own_plugin_manager() -> None:
    # the adapter is registered on a manager of the kit's own, never the default one
    kit = TestThirdPartyAdapterConformance()
    assert kit.plugin_manager().adapter("spec") is not None
    assert kit.plugin_manager() is not tp.plugin_manager()
    assert tp.plugin_manager().adapter("spec") is None


class OldWordsAdapter(SpecAdapter):
    """The same adapter in a library's own words for a list: what the one-voice check catches."""

    name = "old-words"

    def _parser(self, spec: Spec) -> Any:
        parse = super()._parser(spec)

        def reworded(arguments: dict[str, Any]) -> Any:
            result = parse(arguments)
            if not isinstance(result, tp.Error):
                return result
            problems = [
                tp.ArgumentProblem(p.path, "must be an array", p.received, p.kind)
                if p.reason == type_reason("array")
                else p
                for p in result.exception.problems
            ]
            return tp.invalid_arguments(problems, arguments=arguments)

        return reworded


class _OldWordsKit(TestThirdPartyAdapterConformance):
    def __init__(self, gaps: dict[str, str] | None = None) -> None:
        self.gaps = gaps or {}

    def case(self) -> ConformanceCase:
        case = super().case()
        case.adapter = OldWordsAdapter()
        case.one_voice_gaps = self.gaps
        return case


class _GapListedKit(TestThirdPartyAdapterConformance):
    def case(self) -> ConformanceCase:
        case = super().case()
        case.one_voice_gaps = {"list": "must be an array"}
        return case


def test_the_one_voice_check_catches_a_library_s_own_words() -> None:
    kit = _OldWordsKit()
    kit.test_the_same_wrong_call_reads_the_same_line("integer")  # worded as every adapter
    with pytest.raises(AssertionError, match="must be an array"):
        kit.test_the_same_wrong_call_reads_the_same_line("list")


def test_an_expected_gap_is_an_expected_failure_until_it_passes() -> None:
    kit = _OldWordsKit({"list": "must be an array"})
    with pytest.raises(pytest.xfail.Exception, match="still reads 'must be an array'"):
        kit.test_the_same_wrong_call_reads_the_same_line("list")
    # listed, but the adapter says the shared words: the entry must go
    with pytest.raises(pytest.fail.Exception, match="remove it"):
        _GapListedKit().test_the_same_wrong_call_reads_the_same_line("list")


def test_a_check_the_library_cannot_declare_is_skipped() -> None:
    with pytest.raises(pytest.skip.Exception, match="cannot declare 'pattern'"):
        TestThirdPartyAdapterConformance().test_the_same_wrong_call_reads_the_same_line("pattern")
