"""``repair=``: JSON text where an object is wanted, malformed argument text, and who is told."""

from __future__ import annotations

import json
import logging
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse import _repair

# the same calls through the pydantic and jsonschema adapters and without a parser
pytest.importorskip("toolparse_pydantic")
pytest.importorskip("toolparse_jsonschema")
from pydantic import BaseModel

# -- the declarations every repair goes through -------------------------------------------------


class Person(BaseModel):
    email: str
    tags: list[str] = []


class Issue(BaseModel):
    title: str
    assignee: Person | None = None
    labels: list[str] = []
    note: str = ""
    extra: dict[str, int] = {}


SCHEMA = Issue.model_json_schema()


def received(**kwargs: Any) -> tuple[list[Any], dict[str, tp.Function]]:
    """A Function per declaration style over the same arguments, each recording its body's input."""
    seen: list[Any] = []

    def body(arguments: Any) -> str:
        seen.append(arguments.model_dump() if isinstance(arguments, BaseModel) else arguments)
        return "ok"

    fns = {
        "pydantic": tp.Function("issue", body, args_schema=Issue, **kwargs),
        "jsonschema": tp.Function("issue", body, args_schema=SCHEMA, **kwargs),
        "declared": tp.Function("issue", body, parameters_schema=SCHEMA, **kwargs),
        "own parser": tp.Function(
            "issue", body, parameters_schema=SCHEMA, parse_args=tp.ok, **kwargs
        ),
    }
    return seen, fns


STYLES = ["pydantic", "jsonschema", "declared", "own parser"]

# -- "safe": objects and arrays sent as JSON text -----------------------------------------------


@pytest.mark.parametrize("style", STYLES)
def test_safe_is_the_default_and_decodes_objects_and_arrays_sent_as_text(style: str) -> None:
    seen, fns = received()
    fn = fns[style]
    assert fn.repair == "safe"
    sent = {
        "title": "t",
        "assignee": json.dumps({"email": "a@b.c", "tags": json.dumps(["x"])}),  # text in text
        "labels": ' ["bug"]',
        "note": '{"not": "touched"}',
    }
    assert fn.execute(sent) == tp.Ok("ok")
    got = seen[-1]
    assert got["assignee"]["email"] == "a@b.c"
    assert got["assignee"]["tags"] == ["x"]
    assert got["labels"] == ["bug"]
    assert got["note"] == '{"not": "touched"}'  # a string field keeps its text


@pytest.mark.parametrize("style", ["pydantic", "jsonschema"])
def test_none_reads_the_arguments_as_sent(style: str) -> None:
    _, fns = received(repair=None)
    fn = fns[style]
    assert fn.repair is None
    result = fn.execute({"title": "t", "assignee": '{"email": "a@b.c"}'})
    assert isinstance(result, tp.Error)
    assert "assignee" in result.message


def test_text_that_is_not_the_wanted_shape_is_left_to_the_parser() -> None:
    _, fns = received()
    for sent in ('["a@b.c"]', "{not json", "plain words", ""):
        result = fns["pydantic"].execute({"title": "t", "assignee": sent})
        assert isinstance(result, tp.Error), sent
    assert isinstance(fns["pydantic"].execute({"title": "t", "labels": '{"a": 1}'}), tp.Error)


def test_a_tool_without_objects_or_arrays_has_no_repair_step() -> None:
    flat = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}
    plan = tp.Function(
        "f", lambda a: "ok", parameters_schema={**flat, "required": ["a", "b"]}
    )._plan_
    assert plan.restore is None  # nothing runs per call
    assert plan.retry is None
    optional = tp.Function("f", lambda a: "ok", parameters_schema=flat)._plan_
    assert not isinstance(optional.restore, _repair.Mender)  # the nulls' step alone


# -- hypothesis: the text of a value behaves as the value --------------------------------------

PEOPLE = st.fixed_dictionaries(
    {"email": st.text(max_size=8)}, optional={"tags": st.lists(st.text(max_size=5), max_size=3)}
)
ISSUES = st.fixed_dictionaries(
    {"title": st.text(max_size=8)},
    optional={
        "assignee": PEOPLE,
        "labels": st.lists(st.text(max_size=5), max_size=3),
        "extra": st.dictionaries(st.text(max_size=4), st.integers(), max_size=3),
    },
)


@pytest.mark.parametrize("style", STYLES)
@settings(max_examples=40, deadline=None, derandomize=True)
@given(arguments=ISSUES, data=st.data())
def test_a_value_sent_as_its_json_text_gives_the_same_outcome(
    style: str, arguments: dict[str, Any], data: st.DataObject
) -> None:
    seen, fns = received()
    fn = fns[style]
    encoded = dict(arguments)
    for key in data.draw(st.sets(st.sampled_from(["assignee", "labels", "extra"]))):
        if key in encoded:
            encoded[key] = json.dumps(encoded[key], indent=data.draw(st.sampled_from([None, 2])))
    assert fn.execute(encoded) == fn.execute(arguments)
    assert seen[-2] == seen[-1]


@pytest.mark.parametrize("style", STYLES)
@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    value=st.recursive(
        st.none() | st.integers() | st.text(max_size=4),
        lambda c: st.lists(c) | st.dictionaries(st.text(max_size=4), c),
        max_leaves=6,
    )
)
def test_a_string_field_holding_json_text_is_never_touched(style: str, value: Any) -> None:
    seen, fns = received()
    text = json.dumps(value)
    assert fns[style].execute({"title": text, "note": text}) == tp.Ok("ok")
    assert seen[-1]["title"] == text
    assert seen[-1]["note"] == text


# -- "json": malformed argument text ----------------------------------------------------------

#: (what a model sent, what the tool receives once mended), the kinds open models send
MALFORMED = [
    ('{"title": "t", "labels": ["a", "b",],}', {"title": "t", "labels": ["a", "b"]}),
    ("{'title': 't', 'labels': ['x']}", {"title": "t", "labels": ["x"]}),
    ('{"title": "t", "assignee": None}', {"title": "t", "assignee": None}),
    (
        '{"title": "t", "extra": {"on": True, "off": False}}',
        {"title": "t", "extra": {"on": True, "off": False}},
    ),
    ('```json\n{"title": "t"}\n```', {"title": "t"}),
    ('```\n{"title": "t", "labels": ["a"]}\n```', {"title": "t", "labels": ["a"]}),
    ('{"title": "t", "labels": ["a", "b"', {"title": "t", "labels": ["a", "b"]}),
    (
        '{"title": "t", "assignee": {"email": "a@b.c"',
        {"title": "t", "assignee": {"email": "a@b.c"}},
    ),
    ('{"title": "unclosed', {"title": "unclosed"}),
]


@pytest.mark.parametrize(("text", "expected"), MALFORMED)
def test_json_mends_malformed_argument_text(text: str, expected: dict[str, Any]) -> None:
    seen, fns = received(repair="json")
    _, safe = received()
    assert isinstance(safe["declared"].execute(text), tp.Error)  # "safe" does not
    assert fns["declared"].execute(text) == tp.Ok("ok")
    assert seen[-1] == expected
    # the mended arguments then go through the parser as any others
    assert isinstance(fns["pydantic"].execute(text), tp.Ok)


@pytest.mark.parametrize("text", ["hello", "", "   ", "[1, 2]", "12", '"{}"', "{,}"])
def test_json_leaves_text_it_cannot_make_an_object_to_the_decoder(text: str) -> None:
    _, fns = received(repair="json")
    _, safe = received()
    assert fns["declared"].execute(text).message == safe["declared"].execute(text).message


def test_json_mends_only_text_that_failed_to_decode() -> None:
    seen, fns = received(repair="json")
    assert fns["declared"].execute('{"title": "None"}') == tp.Ok("ok")
    assert seen[-1] == {"title": "None"}
    too_deep = tp.Function("d", lambda a: "ok", repair="json", limits=tp.Limits(max_depth=3))
    assert isinstance(too_deep.execute('{"a": [[[[1'), tp.Error)


def test_json_without_the_library_is_a_definition_error_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_repair, "find_spec", lambda name: None)
    with pytest.raises(tp.FunctionDefinitionError) as info:
        tp.Function("t", lambda a: "ok", repair="json")
    assert info.value.errors[0][0] == "repair"
    assert 'pip install "toolparse[repair]"' in info.value.errors[0][1]


def test_an_unknown_repair_is_a_definition_error() -> None:
    with pytest.raises(tp.FunctionDefinitionError, match="repair: must be 'safe', 'json' or None"):
        tp.Function("t", lambda a: "ok", repair="always")  # type: ignore[arg-type]
    with pytest.raises(tp.FunctionDefinitionError, match="repair"):
        tp.Toolset([], repair="always")  # type: ignore[arg-type]


# -- who is told ------------------------------------------------------------------------------


def test_every_repair_is_logged_with_the_tool_and_what_was_repaired(
    caplog: pytest.LogCaptureFixture,
) -> None:
    _, fns = received(repair="json")
    with caplog.at_level(logging.INFO, logger="toolparse.repair"):
        fns["declared"].execute('{"title": "t", "assignee": "{\\"email\\": \\"e\\"}",}')
        fns["declared"].execute({"title": "t"})  # nothing to repair: nothing said
    records = [r for r in caplog.records if r.name == "toolparse.repair"]
    assert [r.levelno for r in records] == [logging.INFO, logging.INFO]
    assert "'issue'" in records[0].getMessage()
    assert "malformed JSON text repaired" in records[0].getMessage()
    assert "assignee: JSON text decoded" in records[1].getMessage()


def test_repairs_are_recorded_where_a_tracer_asks() -> None:
    _, fns = received()
    made: list[str] = []
    token = _repair.recording.set(made)
    try:
        fns["pydantic"].execute({"title": "t", "labels": '["a"]', "extra": '{"n": 1}'})
    finally:
        _repair.recording.reset(token)
    # (a map, free-form, is what a strict export asks for as text: decoded, no repair)
    assert made == ["labels: JSON text decoded"]
    fns["pydantic"].execute({"title": "t", "labels": '["a"]'})  # none set: nothing kept
    assert len(made) == 1


# -- Toolset(repair=...) ----------------------------------------------------------------------


def test_a_toolset_repair_applies_to_the_tools_that_chose_none() -> None:
    chose_safe = tp.Function("a", json.dumps, parameters_schema=SCHEMA, repair="safe")
    chose_none = tp.Function("b", json.dumps, parameters_schema=SCHEMA, repair=None)
    default = tp.Function("c", json.dumps, parameters_schema=SCHEMA)
    toolset = tp.Toolset([chose_safe, chose_none, default], repair="json")
    assert [fn.repair for fn in toolset] == ["safe", None, "json"]
    assert toolset.get("a") is chose_safe
    off = tp.Toolset([chose_safe, default], repair=None)
    assert [fn.repair for fn in off] == ["safe", None]
    assert tp.Toolset([default]).get("c") is default  # the default: the tools as they are
    # "safe" chosen by a Toolset is a choice: a Toolset made of it keeps it
    assert [fn.repair for fn in tp.Toolset(tp.Toolset([default], repair="safe"), repair=None)] == [
        "safe"
    ]
    # a default survives pickling as a default
    again = pickle.loads(pickle.dumps(default))
    assert [fn.repair for fn in tp.Toolset([again], repair=None)] == [None]


def test_tool_takes_repair_and_a_toolset_sets_it_only_where_left_at_the_default() -> None:
    @tp.tool(repair=None)
    def as_sent(labels: list[str]) -> str:
        """Labels as sent."""
        return ",".join(labels)

    @tp.tool
    def default(labels: list[str]) -> str:
        """Labels, JSON text decoded."""
        return ",".join(labels)

    assert (as_sent.repair, default.repair) == (None, "safe")
    assert isinstance(as_sent.execute({"labels": '["a", "b"]'}), tp.Error)
    assert default.execute({"labels": '["a", "b"]'}) == tp.Ok("a,b")
    tools = tp.Toolset([as_sent, default], repair="json")
    assert tools.get("as_sent").repair is None  # type: ignore[union-attr]
    assert tools.get("default").repair == "json"  # type: ignore[union-attr]


class Line(BaseModel):
    sku: str


class Order(BaseModel):
    lines: list[Line]
    notes: list[str] = []


class Tagged(str):
    """Text of the application's own kind: still text."""


@pytest.mark.parametrize("style", ["pydantic", "declared"])
def test_an_item_sent_as_json_text_among_objects_is_decoded(style: str) -> None:
    seen: list[Any] = []

    def body(arguments: Any) -> str:
        seen.append(arguments.model_dump() if isinstance(arguments, BaseModel) else arguments)
        return "ok"

    schema = Order.model_json_schema()
    fn = (
        tp.Function("order", body, args_schema=Order)
        if style == "pydantic"
        else tp.Function("order", body, parameters_schema=schema)
    )
    lines = [{"sku": "a"}, ' {"sku": "b"}', Tagged('{"sku": "c"}'), {"sku": "d"}]
    assert fn.execute({"lines": lines, "notes": ['{"n": 1}']}) == tp.Ok("ok")
    assert seen[-1]["lines"] == [{"sku": s} for s in "abcd"]
    assert seen[-1]["notes"] == ['{"n": 1}']  # an item wanted as text keeps its text
    assert lines[1] == ' {"sku": "b"}'  # (the arguments sent are not changed)
